//! Lazy SMP's bookkeeping, shared by the threads of one search: the root move each thread
//! is searching.
//!
//! Every thread searches every iteration of the same position, sharing only the table
//! (Lazy SMP as Stockfish does it); they drift apart through the table's timing and their own
//! histories. At the root, a thread puts off a move another thread is searching in the same
//! iteration and comes back to it at the end, when its result is usually in the table
//! (ABDADA's deferral, at the root only; the first move is never put off). With one thread
//! nothing changes.
//!
//! (Until 2026-12-05 the threads also skipped the iterations others were in, so that two
//! threads leapfrogged each other: greater depths sooner, but no Elo over one thread in
//! games; `docs/measurements.md`.)

use std::sync::atomic::{AtomicU32, Ordering};

/// The most search threads a pool may have (the `Threads` option's maximum); each has a slot
/// for its current root move.
pub const MAX_THREADS: usize = 1024;

/// Shared iteration state of one search (reset by the pool before the threads start).
#[derive(Debug)]
pub struct Smp {
    /// Per thread: the root move it is searching and the iteration, `depth << 16 | move`
    /// (0: none).
    current: Box<[AtomicU32]>,
}

impl Default for Smp {
    fn default() -> Self {
        Smp {
            current: (0..MAX_THREADS).map(|_| AtomicU32::new(0)).collect(),
        }
    }
}

impl Smp {
    /// Forgets the previous search.
    pub fn reset(&self) {
        for c in self.current.iter() {
            c.store(0, Ordering::Relaxed);
        }
    }

    /// Publishes the root move thread `id` searches in iteration `depth` (`mv` 0: none; no
    /// root move is 0, so that word never matches a query).
    pub fn set_current(&self, id: usize, depth: i32, mv: u16) {
        if let Some(c) = self.current.get(id) {
            c.store((depth as u32) << 16 | u32::from(mv), Ordering::Relaxed);
        }
    }

    /// Whether a thread other than `id` among the first `threads` searches root move `mv`
    /// in iteration `depth` now.
    pub fn busy_elsewhere(&self, id: usize, threads: usize, depth: i32, mv: u16) -> bool {
        let word = (depth as u32) << 16 | u32::from(mv);
        self.current
            .iter()
            .take(threads)
            .enumerate()
            .any(|(i, c)| i != id && c.load(Ordering::Relaxed) == word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_moves_in_progress() {
        let smp = Smp::default();
        smp.set_current(1, 7, 0x1234);
        // Seen by other threads, at that depth only, and not by the thread itself.
        assert!(smp.busy_elsewhere(0, 2, 7, 0x1234));
        assert!(!smp.busy_elsewhere(0, 2, 8, 0x1234));
        assert!(!smp.busy_elsewhere(0, 2, 7, 0x1235));
        assert!(!smp.busy_elsewhere(1, 2, 7, 0x1234));
        // Threads beyond the pool's size are not looked at.
        assert!(!smp.busy_elsewhere(0, 1, 7, 0x1234));
        // Done with it, or a new search: nobody is busy.
        smp.set_current(1, 7, 0);
        assert!(!smp.busy_elsewhere(0, 2, 7, 0x1234));
        smp.set_current(1, 7, 0x1234);
        smp.reset();
        assert!(!smp.busy_elsewhere(0, 2, 7, 0x1234));
        // An out-of-range thread index is ignored, not a panic.
        smp.set_current(MAX_THREADS, 7, 0x1234);
    }
}
