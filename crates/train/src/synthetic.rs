//! Synthetic training positions, for tests and speed measurements: positions of random legal
//! games, scored by material. A network can learn them (material is a sum over the inputs),
//! so a falling validation loss shows that training works, without any search.

use crate::data::{GameResult, Packed};
use crate::rng::Rng;
use engram_chess::{Board, Color, PieceKind};

/// Plies of each random game skipped before positions are taken.
const SKIP: usize = 8;
/// Longest random game, in plies.
const MAX_PLIES: usize = 200;

/// Material of the side to move minus the other side's, in pawns (1, 3, 3, 5, 9).
pub fn material(board: &Board) -> i32 {
    let us = board.side_to_move();
    board
        .occupied()
        .into_iter()
        .map(|sq| {
            let p = board.piece_on(sq).expect("occupied");
            let v = match p.kind() {
                PieceKind::Pawn => 1,
                PieceKind::Knight | PieceKind::Bishop => 3,
                PieceKind::Rook => 5,
                PieceKind::Queen => 9,
                PieceKind::King => 0,
            };
            if p.color() == us {
                v
            } else {
                -v
            }
        })
        .sum()
}

/// `n` positions from random legal games from the start position (the same `seed`, the same
/// positions). Each is scored `100 · material` centipawns from the side to move's view, and
/// its result is a win for the side to move when it is 3 or more pawns up, a loss when 3 or
/// more down, else a draw.
pub fn random_positions(n: usize, seed: u64) -> Vec<Packed> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut board = Board::startpos();
        for ply in 0..MAX_PLIES {
            let moves = board.legal_moves();
            if moves.is_empty() || board.halfmove_clock() >= 100 || out.len() == n {
                break;
            }
            if ply >= SKIP {
                let m = material(&board);
                let white = if board.side_to_move() == Color::White {
                    m
                } else {
                    -m
                };
                let result = match white {
                    3.. => GameResult::WhiteWins,
                    ..=-3 => GameResult::BlackWins,
                    _ => GameResult::Draw,
                };
                out.push(Packed::new(&board, (100 * m) as i16, result, ply));
            }
            let mv = moves.as_slice()[rng.below(moves.len())];
            board.play(mv);
        }
    }
    out
}
