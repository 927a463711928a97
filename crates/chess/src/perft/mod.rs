//! Perft: count the leaf nodes of the legal move tree, with bulk counting at the last ply.
//!
//! - [`perft`] and [`divide`]: the plain count, every node visited; the reference.
//! - [`perft_with_table`]: the same count with a [`PerftTable`] ([`table`]) of subtree counts,
//!   so that a subtree reached again by transposition is counted once.
//! - [`divide_with`] ([`parallel`]): the divide on several threads sharing one table.
//!
//! All of them return the same numbers; the tests check it on the perft suites.

pub mod parallel;
pub mod table;

pub use parallel::divide_with;
pub use table::{tree_key, PerftTable, BUCKET_BYTES, SLOTS};

use crate::board::Board;
use crate::chess_move::Move;

/// The shallowest subtree [`perft_with_table`] probes and stores; below it, counting is
/// cheaper than a probe (depth 1 is one bulk count of the legal moves).
pub const MIN_TABLE_DEPTH: u32 = 2;

/// The number of legal move sequences of length `depth` from `board`.
///
/// ```
/// use engram_chess::{perft, Board};
/// assert_eq!(perft(&Board::startpos(), 3), 8_902);
/// ```
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_moves(),
        _ => {
            let mut nodes = 0;
            for &mv in board.legal_moves().iter() {
                let mut child = *board;
                child.play(mv);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// [`perft`] with a table of subtree counts: every subtree of depth at least
/// [`MIN_TABLE_DEPTH`] is looked up first and stored once counted. The table may be shared
/// with other threads and kept between calls (its entries are keyed by position and depth,
/// whatever the root).
///
/// ```
/// use engram_chess::perft::{perft_with_table, PerftTable};
/// use engram_chess::Board;
/// let table = PerftTable::new(1).unwrap();
/// assert_eq!(perft_with_table(&Board::startpos(), 5, &table), 4_865_609);
/// ```
pub fn perft_with_table(board: &Board, depth: u32, table: &PerftTable) -> u64 {
    if depth < MIN_TABLE_DEPTH {
        return perft(board, depth);
    }
    let key = tree_key(board);
    if let Some(nodes) = table.probe(key, depth) {
        return nodes;
    }
    let mut nodes = 0;
    for &mv in board.legal_moves().iter() {
        let mut child = *board;
        child.play(mv);
        nodes += perft_with_table(&child, depth - 1, table);
    }
    table.store(key, depth, nodes);
    nodes
}

/// Perft split by root move: `(move, count)` for each legal move, in generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *board;
            child.play(mv);
            (
                mv,
                if depth == 0 {
                    1
                } else {
                    perft(&child, depth - 1)
                },
            )
        })
        .collect()
}
