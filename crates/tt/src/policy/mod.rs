//! Replacement policies: which slot a store writes, one function per policy.
//!
//! Every function here is pure: it looks at copies of the candidate slots and returns a
//! [`Decision`]. The table does the reading and writing. Rules shared by all policies:
//!
//! * the same key (signature) found in a slot is updated in place, never duplicated;
//! * a same-key update keeps the stored move when the new record has none;
//! * except under [`Policy::AlwaysReplace`] and [`Policy::MicroMax`], a same-key update
//!   follows Stockfish's rule ([`same_key`]) so that a shallow bound does not wipe deeper data.

use crate::entry::{Bound, Data};

/// Which entry a store overwrites. Selectable at run time ([`Table::set_policy`]).
///
/// [`Table::set_policy`]: crate::Table::set_policy
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Always replace (CPW "Replacement Strategies"): a store is never refused; in a full
    /// cluster it overwrites one slot chosen by the key, whatever its depth or age.
    AlwaysReplace,
    /// Depth-preferred (CPW; Breuker, Uiterwijk and van den Herik 1994): the shallowest slot,
    /// preferring slots of older searches, is overwritten only if the new entry is at least
    /// as deep or that slot is from an older search; otherwise the store is dropped.
    DepthPreferred,
    /// Two-tier (Belle, Condon and Thompson 1983): slot 0 is depth-preferred, slots 1–2 are
    /// always-replace; a store goes to slot 0 when it is empty, aged or not deeper than the
    /// new entry, otherwise into the always-replace tier (an empty slot, else one from an
    /// older search, else one chosen by the key).
    TwoTier,
    /// Buckets with aging (Beal and Smith 1996; Stockfish's victim rule): an empty slot,
    /// else the slot with the lowest `depth − age_weight · relative_age` is overwritten.
    /// Stockfish weighs one search of age like 8 plies of depth.
    Buckets {
        /// Plies of depth one search of age is worth (`k`); Stockfish uses 8.
        age_weight: u8,
    },
    /// Micro-Max's re-probe (H.G. Muller, seed 002): up to 8 consecutive entries from the
    /// key's home entry are scanned for the first empty or matching one; a match is
    /// overwritten unless it is exact and deeper. If all 8 hold other keys, the first one
    /// from an older search is taken (our addition, for aging); otherwise the store is
    /// dropped, as in micro-Max.
    MicroMax,
    /// TwoBig1 (Breuker, Uiterwijk and van den Herik 1994, 1996: their recommended scheme):
    /// two levels, ranked by the size of the searched subtree ([`Record::nodes`]) rather
    /// than by depth. Slot 0 holds the entry with the larger subtree; a new entry whose
    /// subtree is at least as large (or that meets an entry from an older search there)
    /// takes slot 0 and pushes its entry down into the always-replace level (slots 1–2: an
    /// empty slot, else one from an older search, else one chosen by the key); a smaller
    /// one goes into that level itself.
    ///
    /// The cost: the size is kept, on a 16-bit log scale ([`size_code`]), where the other
    /// policies keep the static evaluation, so probes return [`NO_EVAL`] as the evaluation.
    ///
    /// [`Record::nodes`]: crate::Record::nodes
    /// [`size_code`]: crate::size_code
    /// [`NO_EVAL`]: crate::NO_EVAL
    TwoBig1,
    /// Buckets over a whole 64-byte cache line (a cluster shape to compare with, for the
    /// lab): the key's cluster and its neighbour in the same cache line (indices `2i` and
    /// `2i + 1`) form one bucket of six entries, probed in that order, and a store
    /// overwrites as [`Policy::Buckets`] does among the six. Both clusters are read on every
    /// probe and store (one cache line when the table is 64-byte aligned, as every mapped
    /// table of 2 MiB or more is); a store claims only the cluster it writes.
    LineBuckets {
        /// Plies of depth one search of age is worth (`k`).
        age_weight: u8,
    },
}

impl Default for Policy {
    /// Stockfish-like buckets with `age_weight` 8.
    fn default() -> Self {
        Policy::Buckets { age_weight: 8 }
    }
}

/// What a store did, as returned by [`Table::store`](crate::Table::store).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The key went into an empty slot.
    Empty,
    /// The key was already there and its entry was overwritten.
    Updated,
    /// The key was already there and its (more valuable) entry was kept; at most its move
    /// was refreshed.
    Kept,
    /// Another key's entry from an older search was overwritten.
    Aged,
    /// Another key's entry from the current search was overwritten.
    Replaced,
    /// Nothing was written (the policy refused the store).
    Dropped,
    /// Nothing was written: another thread was writing the same cluster at that moment.
    Busy,
}

impl Outcome {
    /// All outcomes, in declaration order (index = `outcome as usize`).
    pub const ALL: [Outcome; 7] = [
        Outcome::Empty,
        Outcome::Updated,
        Outcome::Kept,
        Outcome::Aged,
        Outcome::Replaced,
        Outcome::Dropped,
        Outcome::Busy,
    ];
}

/// A copy of one candidate slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Slot {
    pub sig: u16,
    pub data: Data,
}

/// Where to write what. `target` is an index into the slice of candidate slots. With
/// `demote: Some(j)`, the entry that was in `target` moves to slot `j` (over whatever was
/// there) before `data` is written to `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decision {
    pub target: Option<usize>,
    pub data: Data,
    pub outcome: Outcome,
    pub demote: Option<usize>,
}

impl Decision {
    fn write(target: usize, data: Data, outcome: Outcome) -> Decision {
        Decision {
            target: Some(target),
            data,
            outcome,
            demote: None,
        }
    }
    fn drop() -> Decision {
        Decision {
            target: None,
            data: Data::EMPTY,
            outcome: Outcome::Dropped,
            demote: None,
        }
    }
    fn keep(old: Data) -> Decision {
        Decision {
            target: None,
            data: old,
            outcome: Outcome::Kept,
            demote: None,
        }
    }
    /// Write into `target`, which held `lost` (maybe nothing): the outcome says what was lost.
    fn evict_or_fill(target: usize, lost: Data, data: Data, gen: u8) -> Decision {
        if lost.is_empty() {
            Decision::write(target, data, Outcome::Empty)
        } else {
            Decision::evict(target, lost, data, gen)
        }
    }
    /// Overwrite another key's entry: the outcome says whether it was aged.
    fn evict(target: usize, victim: Data, data: Data, gen: u8) -> Decision {
        let outcome = if victim.age(gen) > 0 {
            Outcome::Aged
        } else {
            Outcome::Replaced
        };
        Decision::write(target, data, outcome)
    }
}

/// The new record with the old move carried over when it brings none.
fn keep_move(old: Data, new: Data) -> Data {
    if new.mv() == 0 {
        new.with_move(old.mv())
    } else {
        new
    }
}

/// Stockfish's same-key rule: overwrite when the new bound is exact, the new depth plus
/// 2 for a PV node beats the old depth minus 4, or the old entry is from an older search.
/// Otherwise keep the old entry, but record the new move if there is one.
pub(crate) fn same_key(at: usize, old: Data, new: Data, gen: u8) -> Decision {
    let new_depth = i32::from(new.depth8()) + 2 * i32::from(new.pv());
    if new.bound() == Bound::Exact || new_depth > i32::from(old.depth8()) - 4 || old.age(gen) > 0 {
        Decision::write(at, keep_move(old, new), Outcome::Updated)
    } else if new.mv() != 0 && new.mv() != old.mv() {
        Decision::write(at, old.with_move(new.mv()), Outcome::Kept)
    } else {
        Decision::keep(old)
    }
}

fn find(slots: &[Slot], sig: u16) -> Option<usize> {
    slots
        .iter()
        .position(|s| s.sig == sig && !s.data.is_empty())
}

fn first_empty(slots: &[Slot]) -> Option<usize> {
    slots.iter().position(|s| s.data.is_empty())
}

/// A pseudo-random choice among `n` slots from key bits 16–31, which neither the
/// signature (bits 0–15) nor, in practice, the index (top bits) use.
pub(crate) fn key_choice(key: u64, n: usize) -> usize {
    ((key >> 16 & 0xFFFF) as usize * n) >> 16
}

/// Chooses what to write for a store of `new` (signature `sig`, key `key`) among the
/// candidate `slots` (3 for the cluster policies, up to 8 for micro-Max), in generation `gen`.
pub(crate) fn decide(
    policy: Policy,
    slots: &[Slot],
    key: u64,
    sig: u16,
    new: Data,
    gen: u8,
) -> Decision {
    match policy {
        Policy::AlwaysReplace => always_replace(slots, key, sig, new, gen),
        Policy::DepthPreferred => depth_preferred(slots, sig, new, gen),
        Policy::TwoTier => two_tier(slots, key, sig, new, gen),
        Policy::Buckets { age_weight } | Policy::LineBuckets { age_weight } => {
            buckets(slots, sig, new, gen, age_weight)
        }
        Policy::MicroMax => micro_max(slots, sig, new, gen),
        Policy::TwoBig1 => two_big1(slots, key, sig, new, gen),
    }
}

/// Same key: overwrite (keeping the move). Else an empty slot, else the key's own slot.
fn always_replace(slots: &[Slot], key: u64, sig: u16, new: Data, gen: u8) -> Decision {
    if let Some(i) = find(slots, sig) {
        return Decision::write(i, keep_move(slots[i].data, new), Outcome::Updated);
    }
    if let Some(i) = first_empty(slots) {
        return Decision::write(i, new, Outcome::Empty);
    }
    let i = key_choice(key, slots.len());
    Decision::evict(i, slots[i].data, new, gen)
}

/// Same key: Stockfish's rule. Else an empty slot. Else the shallowest slot among those of
/// older searches (or among all, if none is aged), written only if aged or not deeper.
fn depth_preferred(slots: &[Slot], sig: u16, new: Data, gen: u8) -> Decision {
    if let Some(i) = find(slots, sig) {
        return same_key(i, slots[i].data, new, gen);
    }
    if let Some(i) = first_empty(slots) {
        return Decision::write(i, new, Outcome::Empty);
    }
    let (i, victim) = slots
        .iter()
        .enumerate()
        .min_by_key(|(_, s)| (s.data.age(gen) == 0, s.data.depth8()))
        .map(|(i, s)| (i, s.data))
        .expect("at least one slot");
    if victim.age(gen) > 0 || new.depth8() >= victim.depth8() {
        Decision::evict(i, victim, new, gen)
    } else {
        Decision::drop()
    }
}

/// Same key: Stockfish's rule. Else slot 0 (depth-preferred) if it is empty, aged or not
/// deeper; else in the always-replace tier (slots 1, 2) an empty slot, else one from an
/// older search, else the one the key chooses.
fn two_tier(slots: &[Slot], key: u64, sig: u16, new: Data, gen: u8) -> Decision {
    if let Some(i) = find(slots, sig) {
        return same_key(i, slots[i].data, new, gen);
    }
    let deep = slots[0].data;
    if deep.is_empty() {
        return Decision::write(0, new, Outcome::Empty);
    }
    if deep.age(gen) > 0 || new.depth8() >= deep.depth8() {
        return Decision::evict(0, deep, new, gen);
    }
    let i = always_tier(slots, key, gen);
    Decision::evict_or_fill(i, slots[i].data, new, gen)
}

/// The slot of the always-replace level (slots 1..) a store takes: an empty one, else one
/// from an older search, else the one the key chooses.
fn always_tier(slots: &[Slot], key: u64, gen: u8) -> usize {
    let tier = &slots[1..];
    1 + first_empty(tier)
        .or_else(|| tier.iter().position(|s| s.data.age(gen) > 0))
        .unwrap_or_else(|| key_choice(key, tier.len()))
}

/// Same key: Stockfish's rule. Else slot 0 if it is empty or from an older search; else,
/// if the new subtree is at least as large as slot 0's, the new entry takes slot 0 and the
/// old one moves to the always-replace level; else the new entry goes there.
fn two_big1(slots: &[Slot], key: u64, sig: u16, new: Data, gen: u8) -> Decision {
    if let Some(i) = find(slots, sig) {
        return same_key(i, slots[i].data, new, gen);
    }
    let big = slots[0].data;
    if big.is_empty() {
        return Decision::write(0, new, Outcome::Empty);
    }
    if big.age(gen) > 0 {
        return Decision::evict(0, big, new, gen);
    }
    let j = always_tier(slots, key, gen);
    if new.size() >= big.size() {
        Decision {
            demote: Some(j),
            ..Decision::evict_or_fill(0, slots[j].data, new, gen)
        }
    } else {
        Decision::evict_or_fill(j, slots[j].data, new, gen)
    }
}

/// Same key: Stockfish's rule. Else an empty slot, else the slot with the lowest
/// `depth8 − age_weight · relative_age` (first one on ties). Never drops.
fn buckets(slots: &[Slot], sig: u16, new: Data, gen: u8, age_weight: u8) -> Decision {
    if let Some(i) = find(slots, sig) {
        return same_key(i, slots[i].data, new, gen);
    }
    if let Some(i) = first_empty(slots) {
        return Decision::write(i, new, Outcome::Empty);
    }
    let worth = |d: Data| i32::from(d.depth8()) - i32::from(age_weight) * i32::from(d.age(gen));
    let (i, victim) = slots
        .iter()
        .enumerate()
        .min_by_key(|&(i, s)| (worth(s.data), i))
        .map(|(i, s)| (i, s.data))
        .expect("at least one slot");
    Decision::evict(i, victim, new, gen)
}

/// Scan in order for the first empty or matching slot. A match is overwritten (keeping
/// the move) unless it holds an exact score from a deeper search. If all hold other
/// keys, take the first one from an older search, else drop the store.
fn micro_max(slots: &[Slot], sig: u16, new: Data, gen: u8) -> Decision {
    for (i, s) in slots.iter().enumerate() {
        if s.data.is_empty() {
            return Decision::write(i, new, Outcome::Empty);
        }
        if s.sig == sig {
            let old = s.data;
            return if old.bound() != Bound::Exact || old.depth8() <= new.depth8() {
                Decision::write(i, keep_move(old, new), Outcome::Updated)
            } else {
                Decision::keep(old)
            };
        }
    }
    match slots.iter().position(|s| s.data.age(gen) > 0) {
        Some(i) => Decision::write(i, new, Outcome::Aged),
        None => Decision::drop(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::Record;

    const GEN: u8 = 5;

    fn d(depth: i32, bound: Bound, gen: u8, mv: u16) -> Data {
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
    /// A TwoBig1 entry of the current search with `nodes` in its subtree.
    fn sized(nodes: u64, depth: i32, mv: u16) -> Data {
        Data::pack_sized(
            &Record {
                mv,
                depth,
                bound: Bound::Lower,
                nodes,
                ..Record::default()
            },
            GEN,
        )
    }
    fn s(sig: u16, data: Data) -> Slot {
        Slot { sig, data }
    }
    /// A full cluster of current-generation entries at depths 10, 4, 7 (sigs 1, 2, 3).
    fn full() -> [Slot; 3] {
        [
            s(1, d(10, Bound::Lower, GEN, 11)),
            s(2, d(4, Bound::Upper, GEN, 12)),
            s(3, d(7, Bound::Lower, GEN, 13)),
        ]
    }
    fn new(depth: i32) -> Data {
        d(depth, Bound::Lower, GEN, 99)
    }
    const ALL: [Policy; 7] = [
        Policy::AlwaysReplace,
        Policy::DepthPreferred,
        Policy::TwoTier,
        Policy::Buckets { age_weight: 8 },
        Policy::MicroMax,
        Policy::TwoBig1,
        Policy::LineBuckets { age_weight: 8 },
    ];

    #[test]
    fn every_policy_fills_an_empty_slot_first() {
        for p in ALL {
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
        for p in ALL {
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

    #[test]
    fn always_replace_overwrites_the_key_chosen_slot_even_if_deeper() {
        for key in [0u64, 0x5555_0000, 0xFFFF_0000] {
            let dec = decide(Policy::AlwaysReplace, &full(), key, 9, new(1), GEN);
            assert_eq!(dec.target, Some(key_choice(key, 3)));
            assert_eq!(dec.outcome, Outcome::Replaced);
        }
        assert_eq!(key_choice(0, 3), 0);
        assert_eq!(key_choice(0xFFFF_0000, 3), 2);
    }

    #[test]
    fn depth_preferred_replaces_the_shallowest_or_drops() {
        let p = Policy::DepthPreferred;
        assert_eq!(decide(p, &full(), 0, 9, new(4), GEN).target, Some(1));
        assert_eq!(
            decide(p, &full(), 0, 9, new(3), GEN).outcome,
            Outcome::Dropped
        );
    }

    #[test]
    fn depth_preferred_replaces_an_older_search_first_even_if_deeper() {
        let mut slots = full();
        slots[0].data = d(30, Bound::Exact, GEN - 2, 1);
        let dec = decide(Policy::DepthPreferred, &slots, 0, 9, new(1), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(0), Outcome::Aged));
    }

    #[test]
    fn two_tier_prefers_the_deep_slot_then_the_always_tier() {
        let p = Policy::TwoTier;
        // Deeper than slot 0 (depth 10): slot 0.
        let dec = decide(p, &full(), 0, 9, new(10), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(0), Outcome::Replaced));
        // Shallower: always-replace tier, slot chosen by key bits, regardless of depth.
        assert_eq!(decide(p, &full(), 0, 9, new(1), GEN).target, Some(1));
        assert_eq!(
            decide(p, &full(), 0xFFFF_0000, 9, new(1), GEN).target,
            Some(2)
        );
        // Slot 0 from an older search is taken even when deeper.
        let mut slots = full();
        slots[0].data = d(40, Bound::Exact, GEN - 1, 1);
        let dec = decide(p, &slots, 0, 9, new(1), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(0), Outcome::Aged));
    }

    #[test]
    fn buckets_evicts_lowest_depth_minus_weighted_age() {
        let p = Policy::Buckets { age_weight: 8 };
        assert_eq!(decide(p, &full(), 0, 9, new(1), GEN).target, Some(1));
        // Slot 2 (depth 7) one search old: 7+7 − 8 = 6 < 11 (depth 4 +7): aged, deeper, evicted.
        let mut slots = full();
        slots[2].data = d(7, Bound::Lower, GEN - 1, 13);
        let dec = decide(p, &slots, 0, 9, new(1), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(2), Outcome::Aged));
        // With weight 0 age is ignored: the shallowest goes.
        let dec = decide(Policy::Buckets { age_weight: 0 }, &slots, 0, 9, new(1), GEN);
        assert_eq!(dec.target, Some(1));
        // Age wraps on 5 bits: generation 31 seen from generation 0 is one search old.
        slots[0].data = d(10, Bound::Lower, 0, 11);
        slots[1].data = d(4, Bound::Lower, 0, 12);
        slots[2].data = d(7, Bound::Lower, 31, 13);
        let dec = decide(p, &slots, 0, 9, new(1), 0);
        assert_eq!(dec.target, Some(2));
        // Ties go to the first slot.
        let same = [s(1, new(5)), s(2, new(5)), s(3, new(5))];
        assert_eq!(decide(p, &same, 0, 9, new(1), GEN).target, Some(0));
    }

    #[test]
    fn two_big1_ranks_by_subtree_size_and_pushes_the_loser_down() {
        let p = Policy::TwoBig1;
        // Slot 0: 5,000 nodes at depth 3; the always level holds two entries.
        let slots = [
            s(1, sized(5_000, 3, 11)),
            s(2, sized(10, 9, 12)),
            s(3, sized(20, 9, 13)),
        ];
        // A larger subtree (even at a smaller depth) takes slot 0; slot 0's entry moves to
        // the always level, to the slot the key chooses (no slot there is empty or aged).
        let big = sized(6_000, 1, 99);
        for key in [0u64, 0xFFFF_0000] {
            let dec = decide(p, &slots, key, 9, big, GEN);
            let j = 1 + key_choice(key, 2);
            assert_eq!(
                (dec.target, dec.demote, dec.outcome),
                (Some(0), Some(j), Outcome::Replaced)
            );
            assert_eq!(dec.data, big);
        }
        // A smaller subtree (even deeper) goes to the always level.
        let small = sized(4_000, 20, 99);
        let dec = decide(p, &slots, 0, 9, small, GEN);
        assert_eq!((dec.target, dec.demote), (Some(1), None));
        // The always level prefers an empty slot, then one from an older search.
        let mut holes = slots;
        holes[2] = Slot::default();
        let dec = decide(p, &holes, 0, 9, big, GEN);
        assert_eq!(
            (dec.target, dec.demote, dec.outcome),
            (Some(0), Some(2), Outcome::Empty)
        );
        let mut aged = slots;
        aged[2].data = d(9, Bound::Lower, GEN - 1, 13);
        let dec = decide(p, &aged, 0, 9, small, GEN);
        assert_eq!((dec.target, dec.outcome), (Some(2), Outcome::Aged));
        // Slot 0 from an older search is simply replaced, whatever its size.
        let mut old = slots;
        old[0].data = d(30, Bound::Exact, GEN - 1, 11);
        let dec = decide(p, &old, 0, 9, sized(1, 1, 99), GEN);
        assert_eq!(
            (dec.target, dec.demote, dec.outcome),
            (Some(0), None, Outcome::Aged)
        );
        // The same key is updated in place wherever it is.
        let dec = decide(p, &slots, 0, 3, sized(1, 12, 0), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(2), Outcome::Updated));
    }

    #[test]
    fn micro_max_scans_for_first_empty_or_match() {
        let p = Policy::MicroMax;
        let mut run: Vec<Slot> = (1..=8).map(|i| s(i, d(3, Bound::Lower, GEN, i))).collect();
        // Full of other keys, all current: dropped.
        assert_eq!(
            decide(p, &run, 0, 99, new(1), GEN).outcome,
            Outcome::Dropped
        );
        // Match at position 5 is overwritten.
        assert_eq!(decide(p, &run, 0, 6, new(1), GEN).target, Some(5));
        // An exact deeper match is kept.
        run[5].data = d(9, Bound::Exact, GEN, 6);
        assert_eq!(decide(p, &run, 0, 6, new(1), GEN).outcome, Outcome::Kept);
        assert_eq!(decide(p, &run, 0, 6, new(9), GEN).outcome, Outcome::Updated);
        // An empty slot before the match ends the scan.
        run[2] = Slot::default();
        assert_eq!(decide(p, &run, 0, 6, new(1), GEN).target, Some(2));
        // Full again, one aged entry: taken.
        run[2] = s(3, d(3, Bound::Lower, GEN, 3));
        run[4].data = d(50, Bound::Exact, GEN - 3, 5);
        let dec = decide(p, &run, 0, 99, new(1), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(4), Outcome::Aged));
    }
}
