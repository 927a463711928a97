//! Optional counters (cargo feature `stats`). Without the feature every counting call is an
//! empty inline function on a zero-sized type, so it costs nothing.
//!
//! The table holds the counters in one field and counts probes, hits and stores; the paths
//! count torn reads and repairs where they see them. This file adds the reading methods to
//! [`Table`](crate::Table).

use crate::policy::Outcome;

#[cfg(feature = "stats")]
impl crate::Table {
    /// The counters so far (feature `stats`).
    pub fn stats(&self) -> Stats {
        self.counters().snapshot()
    }

    /// Sets all counters to zero (feature `stats`).
    pub fn reset_stats(&self) {
        self.counters().reset();
    }
}

/// A snapshot of the table's counters, from [`Table::stats`](crate::Table::stats).
#[cfg(feature = "stats")]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls to `probe`.
    pub probes: u64,
    /// Probes that returned an entry.
    pub hits: u64,
    /// Probes whose signature matched but whose cluster failed validation (torn by a
    /// concurrent store, caught by the check word or the second tag read): returned as misses.
    pub torn: u64,
    /// Calls to `store`.
    pub stores: u64,
    /// Stores by outcome, indexed by `Outcome as usize` (see [`Outcome::ALL`]).
    pub outcomes: [u64; 7],
    /// Stores that found their cluster inconsistent and rewrote it from scratch.
    pub repairs: u64,
}

#[cfg(feature = "stats")]
mod imp {
    use super::{Outcome, Stats};
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[derive(Default)]
    pub(crate) struct Counters {
        probes: AtomicU64,
        hits: AtomicU64,
        torn: AtomicU64,
        stores: AtomicU64,
        outcomes: [AtomicU64; 7],
        repairs: AtomicU64,
    }

    impl Counters {
        pub fn new() -> Counters {
            Counters::default()
        }
        #[inline]
        pub fn probe(&self) {
            self.probes.fetch_add(1, Relaxed);
        }
        #[inline]
        pub fn hit(&self) {
            self.hits.fetch_add(1, Relaxed);
        }
        #[inline]
        pub fn torn(&self) {
            self.torn.fetch_add(1, Relaxed);
        }
        #[inline]
        pub fn store(&self, outcome: Outcome) {
            self.stores.fetch_add(1, Relaxed);
            self.outcomes[outcome as usize].fetch_add(1, Relaxed);
        }
        #[inline]
        pub fn repair(&self) {
            self.repairs.fetch_add(1, Relaxed);
        }
        pub fn snapshot(&self) -> Stats {
            Stats {
                probes: self.probes.load(Relaxed),
                hits: self.hits.load(Relaxed),
                torn: self.torn.load(Relaxed),
                stores: self.stores.load(Relaxed),
                outcomes: std::array::from_fn(|i| self.outcomes[i].load(Relaxed)),
                repairs: self.repairs.load(Relaxed),
            }
        }
        pub fn reset(&self) {
            for c in [
                &self.probes,
                &self.hits,
                &self.torn,
                &self.stores,
                &self.repairs,
            ] {
                c.store(0, Relaxed);
            }
            for c in &self.outcomes {
                c.store(0, Relaxed);
            }
        }
    }
}

#[cfg(not(feature = "stats"))]
mod imp {
    use super::Outcome;

    /// Zero-sized: nothing is counted.
    pub(crate) struct Counters;

    impl Counters {
        pub fn new() -> Counters {
            Counters
        }
        #[inline(always)]
        pub fn probe(&self) {}
        #[inline(always)]
        pub fn hit(&self) {}
        #[inline(always)]
        pub fn torn(&self) {}
        #[inline(always)]
        pub fn store(&self, _: Outcome) {}
        #[inline(always)]
        pub fn repair(&self) {}
    }
}

pub(crate) use imp::Counters;
