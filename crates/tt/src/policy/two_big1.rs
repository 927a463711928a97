//! TwoBig1 (Breuker, Uiterwijk and van den Herik 1994, 1996: their recommended scheme): two
//! levels ranked by the size of the searched subtree ([`Record::nodes`]), not by depth.
//!
//! Slots: the three of the key's cluster ([`Layout::Sized`]): slot 0 is the big level,
//! slots 1–2 the always-replace level. The subtree size is kept on a 16-bit log scale
//! ([`size_code`](crate::size_code)) in the evaluation field, so the store path packs it
//! there ([`Data::pack_sized`]) and probes return [`NO_EVAL`](crate::NO_EVAL) as the
//! evaluation; otherwise probes take the one-cluster path.
//!
//! Victim: the same key, by Stockfish's rule ([`same_key`]); else slot 0 if it is empty or
//! from an older search; else, if the new subtree is at least as large as slot 0's, the new
//! entry takes slot 0 and slot 0's entry moves down into the always-replace level (a
//! [`Decision`] with `demote`); else the new entry goes into that level itself. In the
//! always-replace level: an empty slot, else one from an older search, else the one key bits
//! 16–31 choose ([`always_tier`]).

use super::decision::{find, same_key, Decision, Outcome, Slot};
use super::two_tier::always_tier;
use super::{store_in_cluster, Layout};
use crate::cluster::Cluster;
use crate::entry::{Data, Record};
use crate::stats::Counters;

/// The policy's name (the engine's `Replacement` value).
pub(super) const NAME: &str = "TwoBig1";
/// Where its slots are.
pub(super) const LAYOUT: Layout = Layout::Sized;

/// Same key: Stockfish's rule. Else slot 0 if it is empty or from an older search; else,
/// if the new subtree is at least as large as slot 0's, the new entry takes slot 0 and the
/// old one moves to the always-replace level; else the new entry goes there.
pub(super) fn decide(slots: &[Slot], key: u64, sig: u16, new: Data, gen: u8) -> Decision {
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

/// Stores `record` for `key` (signature `sig`) into `cluster`, its subtree size in place of
/// its evaluation: the one-cluster path with demotion. Out of line, off the common path.
#[inline(never)]
pub(crate) fn store(
    cluster: &Cluster,
    key: u64,
    sig: u16,
    record: &Record,
    gen: u8,
    counters: &Counters,
) -> Outcome {
    let new = Data::pack_sized(record, gen);
    store_in_cluster::<true>(cluster, sig, counters, |slots| {
        decide(slots, key, sig, new, gen)
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::{d, s, GEN};
    use super::*;
    use crate::entry::{Bound, NO_EVAL};
    use crate::policy::decision::key_choice;
    use crate::policy::Policy;
    use crate::Table;

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

    #[test]
    fn ranks_by_subtree_size_and_pushes_the_loser_down() {
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
            let dec = decide(&slots, key, 9, big, GEN);
            let j = 1 + key_choice(key, 2);
            assert_eq!(
                (dec.target, dec.demote, dec.outcome),
                (Some(0), Some(j), Outcome::Replaced)
            );
            assert_eq!(dec.data, big);
        }
        // A smaller subtree (even deeper) goes to the always level.
        let small = sized(4_000, 20, 99);
        let dec = decide(&slots, 0, 9, small, GEN);
        assert_eq!((dec.target, dec.demote), (Some(1), None));
        // The always level prefers an empty slot, then one from an older search.
        let mut holes = slots;
        holes[2] = Slot::default();
        let dec = decide(&holes, 0, 9, big, GEN);
        assert_eq!(
            (dec.target, dec.demote, dec.outcome),
            (Some(0), Some(2), Outcome::Empty)
        );
        let mut aged = slots;
        aged[2].data = d(9, Bound::Lower, GEN - 1, 13);
        let dec = decide(&aged, 0, 9, small, GEN);
        assert_eq!((dec.target, dec.outcome), (Some(2), Outcome::Aged));
        // Slot 0 from an older search is simply replaced, whatever its size.
        let mut old = slots;
        old[0].data = d(30, Bound::Exact, GEN - 1, 11);
        let dec = decide(&old, 0, 9, sized(1, 1, 99), GEN);
        assert_eq!(
            (dec.target, dec.demote, dec.outcome),
            (Some(0), None, Outcome::Aged)
        );
        // The same key is updated in place wherever it is.
        let dec = decide(&slots, 0, 3, sized(1, 12, 0), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(2), Outcome::Updated));
    }

    #[test]
    fn a_table_keeps_sizes_not_evaluations() {
        let t = Table::with_clusters(1, Policy::TwoBig1).unwrap();
        let rec = |nodes, depth, mv| Record {
            mv,
            score: 10,
            eval: -3,
            depth,
            bound: Bound::Lower,
            pv: false,
            nodes,
        };
        t.store(1, rec(50_000, 2, 1));
        t.store(2, rec(10, 20, 2));
        t.store(3, rec(60_000, 1, 3));
        // All three are kept: the first moved down when the third took the big slot.
        for (k, mv) in [(1, 1), (2, 2), (3, 3)] {
            let e = t.probe(k).unwrap();
            assert_eq!((e.mv, e.eval), (mv, NO_EVAL));
        }
    }
}
