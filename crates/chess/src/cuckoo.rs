//! Cuckoo tables of reversible moves, for detecting a repetition one move ahead
//! ([`crate::Position::upcoming_repetition`]).
//!
//! A knight, bishop, rook, queen or king of either colour moving between two squares it
//! attacks on an empty board changes a position's key by the XOR of its two piece-square
//! keys and the side-to-move key, whichever way it moves. There are 3,668 such moves (a pair
//! of squares and a piece). Each one's key difference is stored in one of two slots of an
//! 8,192-entry table (cuckoo hashing, two hash functions of the key), so the question "is
//! the difference between this key and an earlier one a single reversible move?" is two
//! loads. The method is Kannan's, as Stockfish has it (`Position::has_game_cycle`).

use crate::attacks::piece_attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::zobrist;
use std::sync::OnceLock;

/// Slots in the table (a power of two).
const SIZE: usize = 8192;

/// The number of reversible moves the table holds.
pub const MOVES: usize = 3668;

/// The first slot for a key difference.
#[inline(always)]
fn h1(key: u64) -> usize {
    (key & (SIZE as u64 - 1)) as usize
}

/// The second slot for a key difference.
#[inline(always)]
fn h2(key: u64) -> usize {
    ((key >> 16) & (SIZE as u64 - 1)) as usize
}

/// The key differences (0: an empty slot) and the two squares of each one's move.
struct Table {
    keys: Vec<u64>,
    squares: Vec<(Square, Square)>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(build)
}

fn build() -> Table {
    let mut t = Table {
        keys: vec![0; SIZE],
        squares: vec![(Square::from_index(0), Square::from_index(0)); SIZE],
    };
    for color in [Color::White, Color::Black] {
        for kind in &PieceKind::ALL[1..] {
            let piece = Piece::new(color, *kind);
            for a in 0..64u8 {
                for b in a + 1..64u8 {
                    let (sa, sb) = (Square::from_index(a), Square::from_index(b));
                    if !piece_attacks(*kind, sa, Bitboard::EMPTY).has(sb) {
                        continue;
                    }
                    let mut key = zobrist::piece_square(piece, sa)
                        ^ zobrist::piece_square(piece, sb)
                        ^ zobrist::white_to_move();
                    let mut squares = (sa, sb);
                    // Cuckoo insertion: take a slot, move its occupant to its other slot.
                    let mut i = h1(key);
                    loop {
                        std::mem::swap(&mut t.keys[i], &mut key);
                        std::mem::swap(&mut t.squares[i], &mut squares);
                        if key == 0 {
                            break;
                        }
                        i = if i == h1(key) { h2(key) } else { h1(key) };
                    }
                }
            }
        }
    }
    t
}

/// The two squares of the reversible move that changes a key by `diff`, if there is one
/// (the squares in index order: which one the piece stands on is the board's to say).
#[inline]
pub fn lookup(diff: u64) -> Option<(Square, Square)> {
    let t = table();
    let i = h1(diff);
    if t.keys[i] == diff {
        return Some(t.squares[i]);
    }
    let j = h2(diff);
    if t.keys[j] == diff {
        return Some(t.squares[j]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reversible_move_is_found_and_nothing_else() {
        let t = table();
        assert_eq!(t.keys.iter().filter(|&&k| k != 0).count(), MOVES);
        let mut found = 0;
        for color in [Color::White, Color::Black] {
            for kind in &PieceKind::ALL[1..] {
                let piece = Piece::new(color, *kind);
                for a in 0..64u8 {
                    for b in 0..64u8 {
                        let (sa, sb) = (Square::from_index(a), Square::from_index(b));
                        let diff = zobrist::piece_square(piece, sa)
                            ^ zobrist::piece_square(piece, sb)
                            ^ zobrist::white_to_move();
                        let hit = lookup(diff);
                        if piece_attacks(*kind, sa, Bitboard::EMPTY).has(sb) {
                            let (lo, hi) = if a < b { (sa, sb) } else { (sb, sa) };
                            assert_eq!(hit, Some((lo, hi)), "{piece:?} {sa}-{sb}");
                            found += 1;
                        } else if a != b {
                            assert_eq!(hit, None, "{piece:?} {sa}-{sb}");
                        }
                    }
                }
            }
        }
        assert_eq!(found, 2 * MOVES, "each move both ways");
        // A pawn move, or a key difference without the side to move, is no reversible move.
        let pawn = Piece::new(Color::White, PieceKind::Pawn);
        let e2 = Square::parse("e2").unwrap();
        let e3 = Square::parse("e3").unwrap();
        let d = zobrist::piece_square(pawn, e2) ^ zobrist::piece_square(pawn, e3);
        assert_eq!(lookup(d ^ zobrist::white_to_move()), None);
        let n = Piece::new(Color::White, PieceKind::Knight);
        let g1 = Square::parse("g1").unwrap();
        let f3 = Square::parse("f3").unwrap();
        assert_eq!(
            lookup(zobrist::piece_square(n, g1) ^ zobrist::piece_square(n, f3)),
            None
        );
    }
}
