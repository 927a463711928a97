//! Depth-preferred (CPW "Replacement Strategies"; Breuker, Uiterwijk and van den Herik 1994):
//! the deeper entry stays.
//!
//! Slots: the three of the key's cluster (the one-cluster path, [`Layout::Cluster`]).
//! Victim: the same key, by Stockfish's rule ([`same_key`]); else an empty slot; else the
//! shallowest slot, slots of older searches first, written only if it is from an older search
//! or the new entry is at least as deep; otherwise the store is dropped.

use super::decision::{find, first_empty, same_key, Decision, Outcome, Slot};
use super::Layout;
use crate::entry::Data;

/// The policy's name (the engine's `Replacement` value).
pub(super) const NAME: &str = "DepthPreferred";
/// Where its slots are.
pub(super) const LAYOUT: Layout = Layout::Cluster;

/// Same key: Stockfish's rule. Else an empty slot. Else the shallowest slot among those of
/// older searches (or among all, if none is aged), written only if aged or not deeper.
pub(super) fn decide(slots: &[Slot], sig: u16, new: Data, gen: u8) -> Decision {
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

#[cfg(test)]
mod tests {
    use super::super::tests::{d, full, new, GEN};
    use super::*;
    use crate::entry::Bound;

    #[test]
    fn replaces_the_shallowest_or_drops() {
        assert_eq!(decide(&full(), 9, new(4), GEN).target, Some(1));
        assert_eq!(decide(&full(), 9, new(3), GEN).outcome, Outcome::Dropped);
    }

    #[test]
    fn replaces_an_older_search_first_even_if_deeper() {
        let mut slots = full();
        slots[0].data = d(30, Bound::Exact, GEN - 2, 1);
        let dec = decide(&slots, 9, new(1), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(0), Outcome::Aged));
    }
}
