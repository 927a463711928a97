//! Pawn structure, cached in a pawn hash table keyed by the board's pawn key (pawns and kings,
//! seed 003 "Further Hash Tables"). Because the key covers the kings too, king-pawn terms
//! (pawn shield, king distance to passed pawns) are cached along with the structure.

use super::psqt::S;
use engram_chess::attacks::pawn_attacks;
use engram_chess::{Bitboard, Board, Color, File, PieceKind, Square};

/// Passed pawn bonus by relative rank.
const PASSED: [S; 8] = [
    S(0, 0),
    S(2, 8),
    S(4, 12),
    S(8, 24),
    S(24, 45),
    S(50, 90),
    S(85, 140),
    S(0, 0),
];
const ISOLATED: S = S(-10, -14);
const DOUBLED: S = S(-8, -20);
const BACKWARD: S = S(-8, -10);
/// Pawn shield in front of the king (rank 2, rank 3 relative).
const SHIELD: [i32; 2] = [14, 7];
/// Missing shield pawn on a file next to the king.
const NO_SHIELD: i32 = -12;

/// What the pawn table caches for one pawn key.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    score: S,
    passed: Bitboard,
}

/// A direct-mapped cache of pawn-structure evaluations.
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new(1 << 14)
    }
}

/// The result of a pawn-structure evaluation: the score (White's view) and the passed pawns.
#[derive(Clone, Copy)]
pub struct PawnInfo {
    /// Structure and king-shelter score from White's point of view.
    pub score: S,
    /// All passed pawns, both colours.
    pub passed: Bitboard,
}

impl PawnTable {
    /// A table of `entries` slots (rounded up to a power of two).
    pub fn new(entries: usize) -> PawnTable {
        PawnTable {
            entries: vec![PawnEntry::default(); entries.next_power_of_two()],
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }

    /// The pawn evaluation of `board`, from the cache when its pawn key is there.
    pub fn probe(&mut self, board: &Board) -> PawnInfo {
        let key = board.pawn_key();
        let idx = (key as usize) & (self.entries.len() - 1);
        let e = &mut self.entries[idx];
        if e.key != key || key == 0 {
            let info = evaluate_pawns(board);
            *e = PawnEntry {
                key,
                score: info.score,
                passed: info.passed,
            };
            return info;
        }
        PawnInfo {
            score: e.score,
            passed: e.passed,
        }
    }
}

fn file_bb(f: usize) -> Bitboard {
    Bitboard::file(File::from_index(f as u8))
}

fn adjacent_files(f: usize) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    if f > 0 {
        bb |= file_bb(f - 1);
    }
    if f < 7 {
        bb |= file_bb(f + 1);
    }
    bb
}

/// Squares strictly in front of `sq` from `color`'s view, on the same file.
pub fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = file_bb(sq.file().index());
    let r = sq.rank().index() as u32;
    match color {
        Color::White => Bitboard(file.0 & (!0u64).checked_shl(8 * (r + 1)).unwrap_or(0)),
        Color::Black => Bitboard(file.0 & ((1u64 << (8 * r)) - 1)),
    }
}

/// Squares in front of `sq` on its file and both adjacent files (where a passer must be free).
fn passed_span(color: Color, sq: Square) -> Bitboard {
    let f = sq.file().index();
    let mut span = front_span(color, sq);
    if f > 0 {
        span |= front_span(color, Square::new(File::from_index(f as u8 - 1), sq.rank()));
    }
    if f < 7 {
        span |= front_span(color, Square::new(File::from_index(f as u8 + 1), sq.rank()));
    }
    span
}

fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Evaluates the pawn structure and king shelter from scratch.
pub fn evaluate_pawns(board: &Board) -> PawnInfo {
    let mut total = S(0, 0);
    let mut passed_all = Bitboard::EMPTY;
    for color in Color::ALL {
        let us = board.colored(color, PieceKind::Pawn);
        let them = board.colored(!color, PieceKind::Pawn);
        let mut score = S(0, 0);
        let our_king = board.king(color);
        let their_king = board.king(!color);
        for sq in us {
            let f = sq.file().index();
            let rel_rank = color.relative_rank(sq.rank()).index();
            let front = front_span(color, sq);
            if (them & passed_span(color, sq)).is_empty() && (us & front).is_empty() {
                passed_all = passed_all.with(sq);
                score += PASSED[rel_rank];
                // King proximity to the square in front of the passer matters in endgames.
                if let Some(stop) = front.iter().min_by_key(|s| distance(*s, sq)) {
                    let weight = rel_rank as i32 - 1;
                    score += S(
                        0,
                        weight * (5 * distance(their_king, stop) - 2 * distance(our_king, stop)),
                    );
                }
            }
            if (us & adjacent_files(f)).is_empty() {
                score += ISOLATED;
            } else {
                // Backward: no friendly pawn beside or behind on adjacent files, and the stop
                // square is attacked by an enemy pawn.
                let behind_or_level = !passed_span(color, sq) & adjacent_files(f);
                let support = us & behind_or_level & !front_span(color, sq);
                if support.is_empty() {
                    if let Some(stop) = front.iter().min_by_key(|s| distance(*s, sq)) {
                        if (pawn_attacks(color, stop) & them).any() {
                            score += BACKWARD;
                        }
                    }
                }
            }
            if (us & front).any() {
                score += DOUBLED;
            }
        }
        // Pawn shield in front of the king (middlegame only).
        let kf = our_king.file().index();
        let krank = color.relative_rank(our_king.rank()).index();
        if krank <= 1 {
            let mut shield = 0;
            for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
                let file_pawns = us & file_bb(f);
                let mut found = false;
                for sq in file_pawns {
                    let r = color.relative_rank(sq.rank()).index();
                    if r == krank + 1 || r == krank + 2 {
                        shield += SHIELD[r - krank - 1];
                        found = true;
                        break;
                    }
                }
                if !found {
                    shield += NO_SHIELD;
                }
            }
            score += S(shield, 0);
        }
        if color == Color::White {
            total += score;
        } else {
            total -= score;
        }
    }
    PawnInfo {
        score: total,
        passed: passed_all,
    }
}
