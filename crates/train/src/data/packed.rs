//! A training position in 32 bytes, and the filter that picks them from games.

use super::record::{GameRecord, GameResult, UNSCORED};
use engram_chess::{Bitboard, Board, Color, Move, Piece, PieceKind, Square};
use engram_nnue::features::{self, Layout};

/// Plies from the start before which positions are not trained on.
pub const MIN_PLY: usize = 16;
/// Scores at least this large (in absolute value) are mate scores, not trained on.
pub const MATE_SCORE: i32 = 31_000;

/// A position to train on, in 32 bytes: the pieces, the score and the result, both from the
/// side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub struct Packed {
    /// Occupied squares.
    pub occupancy: u64,
    /// The pieces of the occupied squares in square order, two per byte (low nibble first),
    /// as `Piece::index` (`2 · kind + colour`).
    pub pieces: [u8; 16],
    /// The search score, centipawns, side to move's view.
    pub score: i16,
    /// The game's result for the side to move: 0 lost, 1 draw, 2 won.
    pub result: u8,
    /// The side to move: 0 White, 1 Black.
    pub stm: u8,
    /// The ply of the game at this position.
    pub ply: u16,
    /// Unused (zero).
    pub reserved: u16,
}

const _: () = assert!(std::mem::size_of::<Packed>() == 32);

fn piece_from_index(i: u8) -> Piece {
    let color = if i & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let kind =
        engram_chess::PieceKind::from_index((i >> 1) as usize).expect("a piece index below 12");
    Piece::new(color, kind)
}

impl Packed {
    /// Packs `board` with its score and the game's result.
    pub fn new(board: &Board, score: i16, result: GameResult, ply: usize) -> Packed {
        let mut pieces = [0u8; 16];
        for (i, sq) in board.occupied().into_iter().enumerate() {
            let p = board.piece_on(sq).expect("occupied").index() as u8;
            pieces[i / 2] |= p << (4 * (i % 2));
        }
        let stm = board.side_to_move();
        let white = result.code(); // 0, 1, 2 from White's view
        Packed {
            occupancy: board.occupied().0,
            pieces,
            score,
            result: if stm == Color::White {
                white
            } else {
                2 - white
            },
            stm: stm.index() as u8,
            ply: ply.min(u16::MAX as usize) as u16,
            reserved: 0,
        }
    }

    /// The pieces and their squares.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        Bitboard(self.occupancy)
            .into_iter()
            .enumerate()
            .map(|(i, sq)| {
                let nibble = (self.pieces[i / 2] >> (4 * (i % 2))) & 15;
                (piece_from_index(nibble), sq)
            })
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.stm == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The active features under `layout` as pairs (side to move's, other side's).
    pub fn features(&self, layout: Layout) -> impl Iterator<Item = (usize, usize)> + '_ {
        let us = self.side_to_move();
        let (mut f_us, mut f_them) = (0, 0);
        if layout != Layout::Plain {
            for (p, sq) in self.pieces() {
                if p.kind() == PieceKind::King {
                    if p.color() == us {
                        f_us = layout.view(us, sq);
                    } else {
                        f_them = layout.view(!us, sq);
                    }
                }
            }
        }
        self.pieces().map(move |(p, sq)| {
            (
                features::index(us, p, sq, f_us),
                features::index(!us, p, sq, f_them),
            )
        })
    }

    /// The position mirrored left to right (file a ↔ file h), with the same score, result,
    /// side to move and ply: the evaluation's inputs know no castling rights, so a position
    /// and its mirror image are worth the same to the network, and the trainer's `mirror`
    /// option trains on both.
    pub fn mirrored(&self) -> Packed {
        let mut squares: Vec<(usize, u8)> = self
            .pieces()
            .map(|(p, sq)| (sq.index() ^ 7, p.index() as u8))
            .collect();
        squares.sort_unstable_by_key(|&(sq, _)| sq);
        let mut pieces = [0u8; 16];
        let mut occupancy = 0u64;
        for (i, &(sq, p)) in squares.iter().enumerate() {
            occupancy |= 1 << sq;
            pieces[i / 2] |= p << (4 * (i % 2));
        }
        Packed {
            occupancy,
            pieces,
            ..*self
        }
    }

    /// The result for the side to move as 0, ½ or 1.
    pub fn result_score(&self) -> f32 {
        self.result as f32 / 2.0
    }

    /// The 32 bytes (little-endian fields in declaration order).
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&self.occupancy.to_le_bytes());
        b[8..24].copy_from_slice(&self.pieces);
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26] = self.result;
        b[27] = self.stm;
        b[28..30].copy_from_slice(&self.ply.to_le_bytes());
        b
    }

    /// A position from its 32 bytes, checked: at most 32 pieces, valid piece codes, one king
    /// of each colour, a result and side to move in range.
    pub fn from_bytes(b: &[u8; 32]) -> Option<Packed> {
        let p = Packed {
            occupancy: u64::from_le_bytes(b[..8].try_into().ok()?),
            pieces: b[8..24].try_into().ok()?,
            score: i16::from_le_bytes([b[24], b[25]]),
            result: b[26],
            stm: b[27],
            ply: u16::from_le_bytes([b[28], b[29]]),
            reserved: u16::from_le_bytes([b[30], b[31]]),
        };
        let n = p.occupancy.count_ones() as usize;
        if n > 32 || p.result > 2 || p.stm > 1 || p.reserved != 0 {
            return None;
        }
        let mut kings = [0; 2];
        for i in 0..n {
            let nibble = (p.pieces[i / 2] >> (4 * (i % 2))) & 15;
            if nibble >= 12 {
                return None;
            }
            if nibble >> 1 == 5 {
                kings[(nibble & 1) as usize] += 1;
            }
        }
        (kings == [1, 1]).then_some(p)
    }
}

/// Whether the position `board`, at `ply` plies from the start, before the move `mv` played
/// from it, is one the trainer may learn from, whatever its score: from ply [`MIN_PLY`] on,
/// the side to move not in check, and `mv` not a capture, en passant or promotion. (A
/// position that passes is trained on unless its score is a mate score.) A chunk stores the
/// scores of these positions only.
pub fn trained_ply(board: &Board, mv: Move, ply: usize) -> bool {
    let noisy = mv.is_promotion()
        || mv.is_en_passant()
        || (!mv.is_castling() && board.piece_on(mv.to()).is_some());
    ply >= MIN_PLY && !noisy && !board.in_check()
}

/// The positions of `game` worth training on (see the module documentation of
/// [`crate::data`] for the filter), appended to `out`. Returns how many were kept.
pub fn extract(game: &GameRecord, out: &mut Vec<Packed>) -> usize {
    extract_smoothed(game, 1, out)
}

/// As [`extract`], with each kept position's score replaced by the mean of its own score and
/// the scores of up to `smooth − 1` later positions with the same side to move (every second
/// ply), stopping at the end of the game or at a mate score. The idea: a search 2 or 4 plies
/// later along the played line sees deeper into the same position, and the mean of several
/// searches is less noisy than one. Measured, it made worse labels (`--smooth 3` lost
/// −41 ± 36 Elo to the same net trained on the scores as they are; `docs/nets.md`'s nets
/// table), so the trainer's default is 1. `smooth` 1 (or 0) is the position's own score.
/// The mean also stops before a position whose score was not stored ([`UNSCORED`], as a
/// chunk leaves the positions no one trains on).
pub fn extract_smoothed(game: &GameRecord, smooth: usize, out: &mut Vec<Packed>) -> usize {
    let mut board = Board::startpos();
    for &mv in &game.opening {
        board.play(mv);
    }
    let before = out.len();
    for (i, &(mv, score)) in game.scored.iter().enumerate() {
        let ply = game.opening.len() + i;
        if trained_ply(&board, mv, ply) && (score as i32).abs() < MATE_SCORE {
            let score = smoothed_score(&game.scored, i, smooth);
            out.push(Packed::new(&board, score, game.result, ply));
        }
        board.play(mv);
    }
    out.len() - before
}

/// The mean (rounded to nearest) of the scores at `i`, `i + 2`, … (at most `smooth` of them,
/// at least the one at `i`), up to the end of `scored` or the first mate score after `i`.
fn smoothed_score(scored: &[(engram_chess::Move, i16)], i: usize, smooth: usize) -> i16 {
    let mut sum = 0i32;
    let mut n = 0i32;
    for &(_, s) in scored[i..].iter().step_by(2).take(smooth.max(1)) {
        if n > 0 && (s == UNSCORED || (s as i32).abs() >= MATE_SCORE) {
            break;
        }
        sum += s as i32;
        n += 1;
    }
    // Round half away from zero; the mean of i16 values fits an i16.
    ((sum + sum.signum() * n / 2) / n) as i16
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_chess::Move;

    fn scores(s: &[i16]) -> Vec<(Move, i16)> {
        s.iter().map(|&s| (Move::NULL, s)).collect()
    }

    #[test]
    fn smoothing_averages_every_second_ply_and_stops_at_mates_and_the_end() {
        let g = scores(&[10, -99, 20, -99, 60, -99, 1000]);
        assert_eq!(smoothed_score(&g, 0, 1), 10);
        assert_eq!(smoothed_score(&g, 0, 0), 10);
        assert_eq!(smoothed_score(&g, 0, 2), 15);
        assert_eq!(smoothed_score(&g, 0, 3), 30);
        // Only four positions with the same side to move remain from 0.
        assert_eq!(smoothed_score(&g, 0, 9), (10 + 20 + 60 + 1000 + 2) / 4);
        assert_eq!(smoothed_score(&g, 1, 3), -99);
        assert_eq!(smoothed_score(&g, 6, 3), 1000);
        // A mate score ahead ends the mean; negative means round away from zero.
        let g = scores(&[-10, 0, -15, 0, -31_990]);
        assert_eq!(smoothed_score(&g, 0, 3), -13);
        assert_eq!(smoothed_score(&g, 0, 2), -13);
    }
}
