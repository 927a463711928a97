//! Buckets with aging (Beal and Smith 1996, CPW "Bucket Systems"; Stockfish's victim rule):
//! the default policy, with `age_weight` 8.
//!
//! Slots: the three of the key's cluster (the one-cluster path, [`Layout::Cluster`]).
//! Victim: the same key, by Stockfish's rule ([`same_key`]); else an empty slot; else the
//! slot with the lowest `depth − age_weight · relative_age` (the first on ties). Never drops
//! a store. [`Policy::LineBuckets`](crate::Policy::LineBuckets) applies the same rule to the
//! six slots of a cache line.

use super::decision::{find, first_empty, same_key, Decision, Outcome, Slot};
use super::Layout;
use crate::entry::Data;

/// The policy's name (the engine's `Replacement` value).
pub(super) const NAME: &str = "Buckets";
/// Where its slots are.
pub(super) const LAYOUT: Layout = Layout::Cluster;

/// Same key: Stockfish's rule. Else an empty slot, else the slot with the lowest
/// `depth8 − age_weight · relative_age` (first one on ties). Never drops.
// Always inlined: the default policy's rule, on every store's path; with a second caller
// (line buckets) LLVM stops inlining it into `decide` by itself.
#[inline(always)]
pub(super) fn decide(slots: &[Slot], sig: u16, new: Data, gen: u8, age_weight: u8) -> Decision {
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

#[cfg(test)]
mod tests {
    use super::super::tests::{d, full, new, s, GEN};
    use super::*;
    use crate::entry::Bound;

    #[test]
    fn evicts_lowest_depth_minus_weighted_age() {
        assert_eq!(decide(&full(), 9, new(1), GEN, 8).target, Some(1));
        // Slot 2 (depth 7) one search old: 7+7 − 8 = 6 < 11 (depth 4 +7): aged, deeper, evicted.
        let mut slots = full();
        slots[2].data = d(7, Bound::Lower, GEN - 1, 13);
        let dec = decide(&slots, 9, new(1), GEN, 8);
        assert_eq!((dec.target, dec.outcome), (Some(2), Outcome::Aged));
        // With weight 0 age is ignored: the shallowest goes.
        assert_eq!(decide(&slots, 9, new(1), GEN, 0).target, Some(1));
        // Age wraps on 5 bits: generation 31 seen from generation 0 is one search old.
        slots[0].data = d(10, Bound::Lower, 0, 11);
        slots[1].data = d(4, Bound::Lower, 0, 12);
        slots[2].data = d(7, Bound::Lower, 31, 13);
        assert_eq!(decide(&slots, 9, new(1), 0, 8).target, Some(2));
        // Ties go to the first slot.
        let same = [s(1, new(5)), s(2, new(5)), s(3, new(5))];
        assert_eq!(decide(&same, 9, new(1), GEN, 8).target, Some(0));
    }
}
