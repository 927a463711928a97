//! Perft on several threads sharing one table.
//!
//! The work is split two plies deep: every (root move, reply) pair is a task, the subtree
//! below the reply at `depth - 2`. Tasks sit in one list in generation order (all replies of
//! the first root move, then of the second, ...) and threads take the next one from an atomic
//! counter until none is left, so a thread that finishes early takes more, and threads working
//! at the same time tend to be in the same root move's subtree, where the shared table finds
//! the most transpositions. Splitting at ply 2 gives hundreds of tasks in an ordinary position
//! (400 at the start), enough for balance when there are few root moves. Each thread adds its
//! counts into a vector of its own, one per root move; the vectors are summed at the end, so
//! the result is the same whatever the number of threads or the order in which tasks finish.

use super::{perft, perft_with_table, PerftTable};
use crate::board::Board;
use crate::chess_move::Move;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::thread;

/// The shallowest depth split over threads; below it one thread counts everything (the whole
/// divide is then at most a few thousand nodes).
const SPLIT_DEPTH: u32 = 3;

/// Perft split by root move, as [`super::divide`] (same moves, same order, same counts), with
/// an optional shared table (see [`perft_with_table`]) and `threads` threads (0 counts as 1).
/// If a helper thread cannot be started, the others do its share.
///
/// ```
/// use engram_chess::perft::{divide_with, PerftTable};
/// use engram_chess::{divide, Board};
/// let board = Board::startpos();
/// let table = PerftTable::new(1).unwrap();
/// assert_eq!(divide_with(&board, 4, Some(&table), 2), divide(&board, 4));
/// ```
pub fn divide_with(
    board: &Board,
    depth: u32,
    table: Option<&PerftTable>,
    threads: usize,
) -> Vec<(Move, u64)> {
    let count = |b: &Board, d: u32| match table {
        Some(t) => perft_with_table(b, d, t),
        None => perft(b, d),
    };
    let roots: Vec<(Move, Board)> = board
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *board;
            child.play(mv);
            (mv, child)
        })
        .collect();
    if depth == 0 {
        return roots.iter().map(|&(mv, _)| (mv, 1)).collect();
    }
    if threads <= 1 || depth < SPLIT_DEPTH {
        return roots
            .iter()
            .map(|(mv, child)| (*mv, count(child, depth - 1)))
            .collect();
    }

    let mut tasks: Vec<(usize, Board)> = Vec::new();
    for (i, (_, child)) in roots.iter().enumerate() {
        for &reply in child.legal_moves().iter() {
            let mut grandchild = *child;
            grandchild.play(reply);
            tasks.push((i, grandchild));
        }
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut sums = vec![0u64; roots.len()];
        while let Some((i, grandchild)) = tasks.get(next.fetch_add(1, Relaxed)) {
            sums[*i] += count(grandchild, depth - 2);
        }
        sums
    };
    let sums = thread::scope(|s| {
        let helpers: Vec<_> = (1..threads.min(tasks.len()))
            .filter_map(|_| thread::Builder::new().spawn_scoped(s, work).ok())
            .collect();
        let mut sums = work();
        for helper in helpers {
            let theirs = helper
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            for (total, n) in sums.iter_mut().zip(theirs) {
                *total += n;
            }
        }
        sums
    });
    roots.iter().map(|&(mv, _)| mv).zip(sums).collect()
}
