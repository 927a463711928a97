//! Lazy SMP bookkeeping shared by the threads of one search: how many threads are in each
//! iteration, and the deepest iteration any thread has completed.
//!
//! The threads use it to spread out over depths instead of all searching the same one: a
//! thread skips an iteration that enough other threads are already in (half of them for a
//! helper, any other thread for the main thread, except at the depth limit), and skips or
//! abandons an iteration that another thread has completed (its results are in the shared
//! table, so the next iteration starts from them). With two threads they leapfrog: each
//! searches every other depth, on a table the other filled one ply shallower. With one
//! thread nothing changes.

use super::MAX_PLY;
use std::sync::atomic::{AtomicI32, AtomicU16, Ordering};

/// Shared iteration state of one search (reset by the pool before the threads start).
#[derive(Debug)]
pub struct Smp {
    done: AtomicI32,
    searchers: Box<[AtomicU16]>,
}

impl Default for Smp {
    fn default() -> Self {
        Smp {
            done: AtomicI32::new(0),
            searchers: (0..=MAX_PLY).map(|_| AtomicU16::new(0)).collect(),
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
}
