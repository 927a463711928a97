//! What a policy decides, and the rules every policy shares.
//!
//! A policy's victim rule is a pure function: it looks at copies of the candidate slots
//! ([`Slot`]) and returns a [`Decision`]; the policy's probe and store path does the reading
//! and writing. Rules shared by all policies:
//!
//! * the same key (signature) found in a slot is updated in place, never duplicated
//!   ([`find`]);
//! * a same-key update keeps the stored move when the new record has none ([`keep_move`]);
//! * except under [`Policy::AlwaysReplace`] and [`Policy::MicroMax`], a same-key update
//!   follows Stockfish's rule ([`same_key`]) so that a shallow bound does not wipe deeper data.
//!
//! [`Policy::AlwaysReplace`]: crate::Policy::AlwaysReplace
//! [`Policy::MicroMax`]: crate::Policy::MicroMax

use crate::entry::{Bound, Data};

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
    /// Write `data` into `target`.
    pub fn write(target: usize, data: Data, outcome: Outcome) -> Decision {
        Decision {
            target: Some(target),
            data,
            outcome,
            demote: None,
        }
    }
    /// Write nothing: the policy refuses the store.
    pub fn drop() -> Decision {
        Decision {
            target: None,
            data: Data::EMPTY,
            outcome: Outcome::Dropped,
            demote: None,
        }
    }
    /// Write nothing: the key's entry `old` is worth more than the new one.
    pub fn keep(old: Data) -> Decision {
        Decision {
            target: None,
            data: old,
            outcome: Outcome::Kept,
            demote: None,
        }
    }
    /// Write into `target`, which held `lost` (maybe nothing): the outcome says what was lost.
    pub fn evict_or_fill(target: usize, lost: Data, data: Data, gen: u8) -> Decision {
        if lost.is_empty() {
            Decision::write(target, data, Outcome::Empty)
        } else {
            Decision::evict(target, lost, data, gen)
        }
    }
    /// Overwrite another key's entry: the outcome says whether it was aged.
    pub fn evict(target: usize, victim: Data, data: Data, gen: u8) -> Decision {
        let outcome = if victim.age(gen) > 0 {
            Outcome::Aged
        } else {
            Outcome::Replaced
        };
        Decision::write(target, data, outcome)
    }
}

/// The new record with the old move carried over when it brings none.
pub(crate) fn keep_move(old: Data, new: Data) -> Data {
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

/// The first occupied slot holding signature `sig`.
pub(crate) fn find(slots: &[Slot], sig: u16) -> Option<usize> {
    slots
        .iter()
        .position(|s| s.sig == sig && !s.data.is_empty())
}

/// The first empty slot.
pub(crate) fn first_empty(slots: &[Slot]) -> Option<usize> {
    slots.iter().position(|s| s.data.is_empty())
}

/// A pseudo-random choice among `n` slots from key bits 16–31, which neither the
/// signature (bits 0–15) nor, in practice, the index (top bits) use.
pub(crate) fn key_choice(key: u64, n: usize) -> usize {
    ((key >> 16 & 0xFFFF) as usize * n) >> 16
}
