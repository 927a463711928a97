//! Micro-Max's re-probe (H.G. Muller, micro-Max 3.2, seed 002): a run of entries instead of a
//! cluster.
//!
//! Slots: up to [`RUN`] = 8 consecutive entries from the key's home entry (the key's index
//! among all entries, by multiply-high, so the run starts in the key's own cluster), wrapping
//! at the end of the table: it touches at most four clusters ([`Layout::Run`]).
//!
//! * Probe: scan the run in order; an empty entry ends it (a miss), the first entry with the
//!   key's signature is the answer if its cluster was read consistently.
//! * Store: read every cluster of the run, decide, then claim and write the one cluster that
//!   changes. Victim: the first empty entry or the first with the key's signature (a match is
//!   overwritten unless it holds an exact score from a deeper search); if all hold other keys,
//!   the first one from an older search (our addition, for aging); else the store is dropped,
//!   as in micro-Max.

use super::decision::{keep_move, Decision, Outcome, Slot};
use super::Layout;
use crate::cluster::{Cluster, Snapshot, SLOTS};
use crate::entry::{Bound, Data};
use crate::stats::Counters;

/// The policy's name (the engine's `Replacement` value).
pub(super) const NAME: &str = "MicroMax";
/// Where its slots are.
pub(super) const LAYOUT: Layout = Layout::Run;

/// Entries micro-Max's re-probe scans.
pub(crate) const RUN: usize = 8;

/// Scan in order for the first empty or matching slot. A match is overwritten (keeping
/// the move) unless it holds an exact score from a deeper search. If all hold other
/// keys, take the first one from an older search, else drop the store.
pub(super) fn decide(slots: &[Slot], sig: u16, new: Data, gen: u8) -> Decision {
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

/// Snapshots of the (at most 4) clusters a run touches, and per entry of the run which
/// snapshot and slot it is.
#[derive(Default)]
struct RunView {
    ids: [usize; 4],
    snaps: [Snapshot; 4],
    loaded: usize,
    entries: [(usize, usize); RUN],
    len: usize,
}

impl RunView {
    /// Loads each cluster of the run from entry `home` once.
    #[inline]
    fn load(clusters: &[Cluster], home: usize) -> RunView {
        let entries = clusters.len() * SLOTS;
        let mut view = RunView::default();
        for k in 0..RUN.min(entries) {
            let e = (home + k) % entries;
            let (c, slot) = (e / SLOTS, e % SLOTS);
            let k = match view.ids[..view.loaded].iter().position(|&id| id == c) {
                Some(k) => k,
                None => {
                    let k = view.loaded;
                    view.ids[k] = c;
                    view.snaps[k] = clusters[c].load();
                    view.loaded += 1;
                    k
                }
            };
            view.entries[view.len] = (k, slot);
            view.len += 1;
        }
        view
    }
}

/// Looks signature `sig` up in the run from entry `home`.
pub(crate) fn probe(
    clusters: &[Cluster],
    home: usize,
    sig: u16,
    counters: &Counters,
) -> Option<Data> {
    let view = RunView::load(clusters, home);
    for &(k, slot) in &view.entries[..view.len] {
        let snap = &view.snaps[k];
        if snap.data[slot].is_empty() {
            return None;
        }
        if snap.sig(slot) == sig {
            return snap.validated(slot, counters);
        }
    }
    None
}

/// Stores `new` (signature `sig`) into the run from entry `home`.
pub(crate) fn store(
    clusters: &[Cluster],
    home: usize,
    sig: u16,
    new: Data,
    gen: u8,
    counters: &Counters,
) -> Outcome {
    let mut view = RunView::load(clusters, home);
    let mut bases = view.snaps;
    for k in 0..view.loaded {
        match clusters[view.ids[k]].read_for_store(counters) {
            Some((read, base)) => (view.snaps[k], bases[k]) = (read, base),
            None => return Outcome::Busy,
        }
    }
    let mut slots = [Slot::default(); RUN];
    for (j, &(k, slot)) in view.entries[..view.len].iter().enumerate() {
        slots[j] = Slot {
            sig: bases[k].sig(slot),
            data: bases[k].data[slot],
        };
    }
    let decision = decide(&slots[..view.len], sig, new, gen);
    if let Some(j) = decision.target {
        let (k, slot) = view.entries[j];
        if !clusters[view.ids[k]].commit::<false>(&view.snaps[k], bases[k], slot, sig, &decision) {
            return Outcome::Busy;
        }
    }
    decision.outcome
}

#[cfg(test)]
mod tests {
    use super::super::tests::{d, new, s, GEN};
    use super::*;

    #[test]
    fn scans_for_the_first_empty_or_matching_entry() {
        let mut run: Vec<Slot> = (1..=8).map(|i| s(i, d(3, Bound::Lower, GEN, i))).collect();
        // Full of other keys, all current: dropped.
        assert_eq!(decide(&run, 99, new(1), GEN).outcome, Outcome::Dropped);
        // Match at position 5 is overwritten.
        assert_eq!(decide(&run, 6, new(1), GEN).target, Some(5));
        // An exact deeper match is kept.
        run[5].data = d(9, Bound::Exact, GEN, 6);
        assert_eq!(decide(&run, 6, new(1), GEN).outcome, Outcome::Kept);
        assert_eq!(decide(&run, 6, new(9), GEN).outcome, Outcome::Updated);
        // An empty slot before the match ends the scan.
        run[2] = Slot::default();
        assert_eq!(decide(&run, 6, new(1), GEN).target, Some(2));
        // Full again, one aged entry: taken.
        run[2] = s(3, d(3, Bound::Lower, GEN, 3));
        run[4].data = d(50, Bound::Exact, GEN - 3, 5);
        let dec = decide(&run, 99, new(1), GEN);
        assert_eq!((dec.target, dec.outcome), (Some(4), Outcome::Aged));
    }
}
