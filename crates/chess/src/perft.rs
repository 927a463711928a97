//! Perft: count the leaf nodes of the legal move tree, with bulk counting at the last ply.

use crate::board::Board;
use crate::chess_move::Move;

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
