//! `Move`: a move packed in 16 bits, the form the transposition table stores.
//!
//! Layout: bits 0–5 from-square, 6–11 to-square, 12–13 promotion piece (knight, bishop, rook,
//! queen), 14–15 kind (normal, promotion, en passant, castling). Castling is encoded as "king
//! takes own rook" (from = king square, to = rook square), which works alike for standard chess
//! and Chess960. The all-zero value is [`Move::NULL`]; it is never a legal move (a1a1).

use crate::types::{PieceKind, Square};
use core::fmt;

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal,
    /// A pawn promotion (to the piece given by [`Move::promotion`]).
    Promotion,
    /// An en-passant capture.
    EnPassant,
    /// Castling; the to-square is the castling rook's square.
    Castling,
}

/// A move in 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const PROMO: u16 = 1 << 14;
const EP: u16 = 2 << 14;
const CASTLE: u16 = 3 << 14;

impl Move {
    /// The null move: no move at all (and the "no move" value of the TT).
    pub const NULL: Move = Move(0);

    /// A plain move or capture.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A promotion to `kind` (knight, bishop, rook or queen; anything else becomes a knight).
    #[inline]
    pub const fn promotion(from: Square, to: Square, kind: PieceKind) -> Move {
        let p = (kind as u16).wrapping_sub(1) & 3;
        Move(Move::normal(from, to).0 | p << 12 | PROMO)
    }

    /// An en-passant capture landing on `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(Move::normal(from, to).0 | EP)
    }

    /// Castling: the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(Move::normal(king, rook).0 | CASTLE)
    }

    /// The raw 16 bits.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Any 16-bit value as a move. It may be nonsense; [`crate::Board::is_legal`] vets it.
    #[inline]
    pub const fn from_u16(bits: u16) -> Move {
        Move(bits)
    }

    /// Whether this is the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The from-square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u8)
    }

    /// The to-square (the rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as u8)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The promotion piece, for promotions.
    #[inline]
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        if self.0 & CASTLE == PROMO {
            Some(PieceKind::ALL[(self.0 >> 12 & 3) as usize + 1])
        } else {
            None
        }
    }

    /// Whether this is castling.
    #[inline]
    pub const fn is_castling(self) -> bool {
        self.0 & CASTLE == CASTLE
    }

    /// Whether this is an en-passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 & CASTLE == EP
    }

    /// Whether this is a promotion.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & CASTLE == PROMO
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        match self.kind() {
            MoveKind::Normal => Ok(()),
            MoveKind::Promotion => write!(f, "={}", self.promotion_kind().unwrap().to_char()),
            MoveKind::EnPassant => f.write_str("ep"),
            MoveKind::Castling => f.write_str("(castle)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing() {
        let e2 = Square::parse("e2").unwrap();
        let e4 = Square::parse("e4").unwrap();
        let m = Move::normal(e2, e4);
        assert_eq!((m.from(), m.to(), m.kind()), (e2, e4, MoveKind::Normal));
        for kind in [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            let p = Move::promotion(e2, e4, kind);
            assert_eq!(p.promotion_kind(), Some(kind));
            assert!(p.is_promotion() && !p.is_castling() && !p.is_en_passant());
            assert_eq!(Move::from_u16(p.to_u16()), p);
        }
        assert!(Move::castling(Square::E1, Square::H1).is_castling());
        assert!(Move::en_passant(e2, e4).is_en_passant());
        assert!(Move::NULL.is_null());
        assert_eq!(Move::NULL.promotion_kind(), None);
    }
}
