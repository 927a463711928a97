//! Tests of what every policy shares, of the one list of policies, and helpers for the
//! policies' own tests.

use super::decision::{same_key, Slot};
use super::*;
use crate::entry::{Bound, Record};

/// The current generation of the tests.
pub(super) const GEN: u8 = 5;

/// A data word of depth `depth`, bound `bound`, generation `gen` and move `mv`.
pub(super) fn d(depth: i32, bound: Bound, gen: u8, mv: u16) -> Data {
    Data::pack(
        &Record {
            mv,
            score: 1,
            eval: 2,
            depth,
            bound,
            pv: false,
            nodes: 0,
        },
        gen,
    )
}

/// A slot with signature `sig`.
pub(super) fn s(sig: u16, data: Data) -> Slot {
    Slot { sig, data }
}

/// A full cluster of current-generation entries at depths 10, 4, 7 (sigs 1, 2, 3).
pub(super) fn full() -> [Slot; 3] {
    [
        s(1, d(10, Bound::Lower, GEN, 11)),
        s(2, d(4, Bound::Upper, GEN, 12)),
        s(3, d(7, Bound::Lower, GEN, 13)),
    ]
}

/// A new lower bound of the current search at depth `depth`, with a move.
pub(super) fn new(depth: i32) -> Data {
    d(depth, Bound::Lower, GEN, 99)
}

/// Every policy, written out apart from [`Policy::all`]. The `match` makes this fail to
/// compile when a variant is added: add it to the array, and to `Policy::all`.
fn every_variant(k: u8) -> [Policy; 7] {
    let _exhaustive = |p: Policy| match p {
        Policy::AlwaysReplace
        | Policy::DepthPreferred
        | Policy::TwoTier
        | Policy::Buckets { .. }
        | Policy::MicroMax
        | Policy::TwoBig1
        | Policy::LineBuckets { .. } => (),
    };
    [
        Policy::AlwaysReplace,
        Policy::DepthPreferred,
        Policy::TwoTier,
        Policy::Buckets { age_weight: k },
        Policy::MicroMax,
        Policy::TwoBig1,
        Policy::LineBuckets { age_weight: k },
    ]
}

#[test]
fn the_list_names_every_policy_once() {
    for k in [0, 8, 31] {
        let all = Policy::all(k);
        for p in every_variant(k) {
            assert_eq!(
                all.iter().filter(|&&q| q == p).count(),
                1,
                "{p:?} listed once"
            );
        }
        assert_eq!(all.len(), every_variant(k).len());
    }
    let names: std::collections::HashSet<&str> = Policy::NAMES.iter().copied().collect();
    assert_eq!(names.len(), Policy::NAMES.len(), "no name twice");
    assert!(Policy::NAMES.iter().all(|n| !n.is_empty()));
    assert_eq!(Policy::all(8)[0], Policy::default(), "the default first");
    assert_eq!(Policy::NAMES[0], Policy::default().name());
}

#[test]
fn name_to_policy_to_name_round_trips() {
    for (i, name) in Policy::NAMES.into_iter().enumerate() {
        let p = Policy::from_name(name, 3).expect("a listed name parses");
        assert_eq!(p.name(), name);
        assert_eq!(p, Policy::all(3)[i]);
        let upper = name.to_ascii_uppercase();
        assert_eq!(Policy::from_name(&upper, 3), Some(p), "any case");
    }
    for p in Policy::all(5) {
        assert_eq!(
            Policy::from_name(p.name(), 5),
            Some(p),
            "policy → name → policy"
        );
    }
    assert_eq!(
        Policy::from_name("LineBuckets", 3),
        Some(Policy::LineBuckets { age_weight: 3 })
    );
    assert_eq!(Policy::from_name("Newest", 8), None);
    assert_eq!(Policy::from_name("", 8), None);
}

#[test]
fn display_adds_the_age_weight() {
    assert_eq!(Policy::default().to_string(), "Buckets k=8");
    assert_eq!(
        Policy::LineBuckets { age_weight: 2 }.to_string(),
        "LineBuckets k=2"
    );
    assert_eq!(Policy::TwoTier.to_string(), "TwoTier");
    let shown: std::collections::HashSet<String> =
        Policy::all(8).iter().map(Policy::to_string).collect();
    assert_eq!(shown.len(), Policy::NAMES.len());
}

#[test]
fn every_policy_fills_an_empty_slot_first() {
    for p in Policy::all(8) {
        let mut slots = full();
        slots[1] = Slot::default();
        let dec = decide(p, &slots, 0, 9, new(1), GEN);
        assert_eq!(dec.outcome, Outcome::Empty, "{p:?}");
        if p == Policy::TwoBig1 {
            // The same size code as slot 0 (both hold eval 2 there): the new entry takes
            // slot 0 and the old one moves to the empty slot 1.
            assert_eq!((dec.target, dec.demote), (Some(0), Some(1)));
            continue;
        }
        // Two-tier's depth-preferred slot 0 is full and deeper: the empty slot 1 it is.
        assert_eq!(dec.target, Some(1), "{p:?}");
    }
}

#[test]
fn every_policy_updates_the_same_key_in_place_and_keeps_the_move() {
    for p in Policy::all(8) {
        let new = d(12, Bound::Exact, GEN, 0);
        let dec = decide(p, &full(), 0, 3, new, GEN);
        assert_eq!(
            (dec.target, dec.outcome),
            (Some(2), Outcome::Updated),
            "{p:?}"
        );
        assert_eq!(dec.data.mv(), 13, "{p:?}: old move kept");
        assert_eq!(dec.data.depth(), 12);
    }
}

#[test]
fn stockfish_rule_keeps_deeper_data_against_a_shallow_bound() {
    let old = d(20, Bound::Lower, GEN, 7);
    // Shallow non-exact, same generation: kept, but the new move is recorded.
    let dec = same_key(0, old, d(5, Bound::Upper, GEN, 8), GEN);
    assert_eq!(dec.outcome, Outcome::Kept);
    assert_eq!((dec.data.depth(), dec.data.mv()), (20, 8));
    // Without a new move nothing is written at all.
    let dec = same_key(0, old, d(5, Bound::Upper, GEN, 0), GEN);
    assert_eq!((dec.target, dec.outcome), (None, Outcome::Kept));
    // depth + 4 > old: overwrite (16 + 4 = 20 is not > 20; 17 is).
    assert_eq!(
        same_key(0, old, d(16, Bound::Upper, GEN, 0), GEN).outcome,
        Outcome::Kept
    );
    assert_eq!(
        same_key(0, old, d(17, Bound::Upper, GEN, 0), GEN).outcome,
        Outcome::Updated
    );
    // A PV store counts 2 plies more.
    let pv = Data::pack(
        &Record {
            depth: 15,
            bound: Bound::Upper,
            pv: true,
            ..Record::default()
        },
        GEN,
    );
    assert_eq!(same_key(0, old, pv, GEN).outcome, Outcome::Updated);
    // Exact always overwrites; so does any store over an entry of an older search.
    assert_eq!(
        same_key(0, old, d(1, Bound::Exact, GEN, 0), GEN).outcome,
        Outcome::Updated
    );
    let stale = d(20, Bound::Lower, GEN - 1, 7);
    assert_eq!(
        same_key(0, stale, d(1, Bound::Upper, GEN, 0), GEN).outcome,
        Outcome::Updated
    );
}
