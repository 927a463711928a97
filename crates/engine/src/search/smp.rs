//! Lazy SMP's bookkeeping, shared by the threads of one search: how many threads are in each
//! iteration, the deepest iteration any thread has completed, and the root move each thread
//! is searching.
//!
//! The threads use it to spread out over depths instead of all searching the same one: a
//! thread skips an iteration that enough other threads are already in (half of them for a
//! helper, any other thread for the main thread, except at the depth limit), and skips or
//! abandons an iteration that another thread has completed (its results are in the shared
//! table, so the next iteration starts from them). With two threads they leapfrog: each
//! searches every other depth, on a table the other filled one ply shallower. Threads that
//! do share an iteration (the last one of a depth-limited search, or more threads than
//! depths to spread over) put off a root move another thread is searching and come back to
//! it at the end, when its result is usually in the table (ABDADA's deferral, at the root
//! only). With one thread nothing changes.

use super::MAX_PLY;
use std::sync::atomic::{AtomicI32, AtomicU16, AtomicU32, Ordering};

/// The most search threads a pool may have (the `Threads` option's maximum); each has a slot
/// for its current root move.
pub const MAX_THREADS: usize = 1024;

/// Shared iteration state of one search (reset by the pool before the threads start).
#[derive(Debug)]
pub struct Smp {
    done: AtomicI32,
    searchers: Box<[AtomicU16]>,
    /// Per thread: the root move it is searching and the iteration, `depth << 16 | move`
    /// (0: none).
    current: Box<[AtomicU32]>,
}

impl Default for Smp {
    fn default() -> Self {
        Smp {
            done: AtomicI32::new(0),
            searchers: (0..=MAX_PLY).map(|_| AtomicU16::new(0)).collect(),
            current: (0..MAX_THREADS).map(|_| AtomicU32::new(0)).collect(),
        }
    }
}

impl Smp {
    /// Forgets the previous search.
    pub fn reset(&self) {
        self.done.store(0, Ordering::Relaxed);
        for s in self.searchers.iter() {
            s.store(0, Ordering::Relaxed);
        }
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

    /// The deepest iteration completed by any thread in this search.
    #[inline]
    pub fn done(&self) -> i32 {
        self.done.load(Ordering::Relaxed)
    }

    /// Records that a thread completed iteration `depth`.
    pub fn complete(&self, depth: i32) {
        self.done.fetch_max(depth, Ordering::Relaxed);
    }

    /// Records that a thread starts iteration `depth`.
    pub fn enter(&self, depth: i32) {
        if let Some(s) = self.searchers.get(depth as usize) {
            s.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Records that a thread left iteration `depth` (completed or not).
    pub fn leave(&self, depth: i32) {
        if let Some(s) = self.searchers.get(depth as usize) {
            s.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// How many threads are in iteration `depth` now.
    pub fn searchers(&self, depth: i32) -> usize {
        self.searchers
            .get(depth as usize)
            .map_or(0, |s| s.load(Ordering::Relaxed) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_deepest_completed() {
        let smp = Smp::default();
        smp.enter(5);
        smp.enter(5);
        smp.enter(6);
        assert_eq!(smp.searchers(5), 2);
        smp.leave(5);
        assert_eq!(smp.searchers(5), 1);
        smp.complete(6);
        smp.complete(4);
        assert_eq!(smp.done(), 6);
        smp.reset();
        assert_eq!((smp.done(), smp.searchers(5), smp.searchers(6)), (0, 0, 0));
        // Out-of-range depths are ignored, not a panic.
        smp.enter(10_000);
        assert_eq!(smp.searchers(10_000), 0);
    }

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
