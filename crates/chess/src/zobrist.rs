//! Zobrist keys on the Polyglot key set: a position's key equals the key every Polyglot book uses.
//!
//! The position key ([`crate::Board::key`]) is the XOR of one number per piece on its square,
//! one per castling right, the en-passant file (only when a pawn of the side to move stands ready
//! to capture, the Polyglot rule) and one when White is to move. The pawn key covers pawns and
//! kings (for a pawn-structure cache). Both are updated incrementally by [`crate::Board::play`];
//! [`crate::Board::compute_keys`] recomputes them from scratch for tests.

use crate::castling::CastleSide;
use crate::polyglot::POLYGLOT;
use crate::types::{Color, File, Piece, Square};

/// The key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    // Polyglot orders kinds black-first: index 2 * type + (1 if white); ours is 2 * type + black.
    POLYGLOT[64 * (piece.index() ^ 1) + sq.index()]
}

/// The key of a castling right.
#[inline(always)]
pub fn castling(color: Color, side: CastleSide) -> u64 {
    POLYGLOT[768 + 2 * color.index() + side as usize]
}

/// The key of an en-passant file.
#[inline(always)]
pub fn en_passant(file: File) -> u64 {
    POLYGLOT[772 + file.index()]
}

/// The key XORed in when White is to move.
#[inline(always)]
pub fn white_to_move() -> u64 {
    POLYGLOT[780]
}
