//! Two-tier (Belle: Condon and Thompson 1983; CPW "Two-tier System"): one depth-preferred
//! slot and an always-replace tier.
//!
//! Slots: the three of the key's cluster (the one-cluster path, [`Layout::Cluster`]); slot 0
//! is the depth-preferred tier, slots 1–2 the always-replace tier. Victim: the same key, by
//! Stockfish's rule ([`same_key`]); else slot 0 if it is empty, from an older search or not
//! deeper than the new entry; else in the always-replace tier an empty slot, else one from an
//! older search, else the one key bits 16–31 choose ([`always_tier`]).

use super::decision::{find, first_empty, key_choice, same_key, Decision, Outcome, Slot};
use super::Layout;
use crate::entry::Data;

/// The policy's name (the engine's `Replacement` value).
pub(super) const NAME: &str = "TwoTier";
/// Where its slots are.
pub(super) const LAYOUT: Layout = Layout::Cluster;

/// Same key: Stockfish's rule. Else slot 0 (depth-preferred) if it is empty, aged or not
/// deeper; else in the always-replace tier (slots 1, 2) an empty slot, else one from an
/// older search, else the one the key chooses.
pub(super) fn decide(slots: &[Slot], key: u64, sig: u16, new: Data, gen: u8) -> Decision {
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
/// from an older search, else the one the key chooses. (TwoBig1's lower level too.)
pub(super) fn always_tier(slots: &[Slot], key: u64, gen: u8) -> usize {
    let tier = &slots[1..];
    1 + first_empty(tier)
        .or_else(|| tier.iter().position(|s| s.data.age(gen) > 0))
        .unwrap_or_else(|| key_choice(key, tier.len()))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{d, full, new, GEN};
    use super::*;
    use crate::entry::Bound;

    #[test]
    fn prefers_the_deep_slot_then_the_always_tier() {
        // Deeper than slot 0 (depth 10): slot 0.
        let dec = decide(&full(), 0, 9, new(10), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(0), Outcome::Replaced));
        // Shallower: always-replace tier, slot chosen by key bits, regardless of depth.
        assert_eq!(decide(&full(), 0, 9, new(1), GEN).target, Some(1));
        assert_eq!(decide(&full(), 0xFFFF_0000, 9, new(1), GEN).target, Some(2));
        // Slot 0 from an older search is taken even when deeper.
        let mut slots = full();
        slots[0].data = d(40, Bound::Exact, GEN - 1, 1);
        let dec = decide(&slots, 0, 9, new(1), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(0), Outcome::Aged));
    }
}
