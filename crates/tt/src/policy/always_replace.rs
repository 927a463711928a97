//! Always replace (CPW "Replacement Strategies: Always Replace"): a store is never refused.
//!
//! Slots: the three of the key's cluster (the one-cluster path, [`Layout::Cluster`]).
//! Victim: the same key, updated in place whatever it holds (keeping its move when the new
//! record has none); else an empty slot; else the slot chosen by key bits 16–31, however
//! deep or recent its entry.

use super::decision::{find, first_empty, keep_move, key_choice, Decision, Outcome, Slot};
use super::Layout;
use crate::entry::Data;

/// The policy's name (the engine's `Replacement` value).
pub(super) const NAME: &str = "AlwaysReplace";
/// Where its slots are.
pub(super) const LAYOUT: Layout = Layout::Cluster;

/// Same key: overwrite (keeping the move). Else an empty slot, else the key's own slot.
pub(super) fn decide(slots: &[Slot], key: u64, sig: u16, new: Data, gen: u8) -> Decision {
    if let Some(i) = find(slots, sig) {
        return Decision::write(i, keep_move(slots[i].data, new), Outcome::Updated);
    }
    if let Some(i) = first_empty(slots) {
        return Decision::write(i, new, Outcome::Empty);
    }
    let i = key_choice(key, slots.len());
    Decision::evict(i, slots[i].data, new, gen)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{full, new, GEN};
    use super::*;

    #[test]
    fn overwrites_the_key_chosen_slot_even_if_deeper() {
        for key in [0u64, 0x5555_0000, 0xFFFF_0000] {
            let dec = decide(&full(), key, 9, new(1), GEN);
            assert_eq!(dec.target, Some(key_choice(key, 3)));
            assert_eq!(dec.outcome, Outcome::Replaced);
        }
        assert_eq!(key_choice(0, 3), 0);
        assert_eq!(key_choice(0xFFFF_0000, 3), 2);
    }
}
