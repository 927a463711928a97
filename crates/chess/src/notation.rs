//! Move text: UCI coordinates in and out (standard `e1g1` castling, or Chess960 king-takes-rook
//! `e1h1`). SAN, for people and PGN files, is in [`crate::san`].

use crate::board::Board;
use crate::castling::CastleSide;
use crate::chess_move::Move;
use crate::types::Square;
use core::fmt;

/// Why a UCI move string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `e2e4` / `e7e8q`.
    Syntax(String),
    /// Well formed, but not a legal move in this position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "malformed move '{s}'"),
            MoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Board {
    /// The UCI text of `mv` (`e2e4`, `e7e8q`; castling as `e1g1`, or `e1h1` in Chess960 mode).
    pub fn to_uci(&self, mv: Move) -> String {
        if mv.is_null() {
            return "0000".into();
        }
        let mut to = mv.to();
        if mv.is_castling() && !self.is_chess960() {
            let side = CastleSide::of(mv.from(), to);
            to = Square::new(side.king_to(), mv.from().rank());
        }
        let mut s = format!("{}{}", mv.from(), to);
        if let Some(k) = mv.promotion_kind() {
            s.push(k.to_char());
        }
        s
    }

    /// Parses a UCI move and checks it is legal here. Castling is accepted in either form
    /// (king to its target square, or king takes rook) when that is unambiguous.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let bytes = text.as_bytes();
        let well_formed = (bytes.len() == 4 || bytes.len() == 5)
            && text.is_ascii()
            && Square::parse(&text[0..2]).is_some()
            && Square::parse(&text[2..4]).is_some()
            && (bytes.len() == 4 || matches!(bytes[4], b'n' | b'b' | b'r' | b'q'));
        if !well_formed {
            return Err(MoveError::Syntax(text.into()));
        }
        let moves = self.legal_moves();
        if let Some(&mv) = moves.iter().find(|&&m| self.to_uci(m) == text) {
            return Ok(mv);
        }
        // The other castling notation.
        let from = Square::parse(&text[0..2]).expect("checked");
        let to = Square::parse(&text[2..4]).expect("checked");
        moves
            .iter()
            .copied()
            .find(|m| {
                m.is_castling() && bytes.len() == 4 && m.from() == from && {
                    let side = CastleSide::of(from, m.to());
                    let king_to = Square::new(side.king_to(), from.rank());
                    if self.is_chess960() {
                        to == king_to
                    } else {
                        to == m.to()
                    }
                }
            })
            .ok_or_else(|| MoveError::Illegal(text.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_and_san() {
        let b = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let castle = b.parse_uci("e1g1").unwrap();
        assert!(castle.is_castling());
        assert_eq!(b.to_uci(castle), "e1g1");
        assert_eq!(b.to_san(castle), "O-O");
        assert_eq!(b.to_san(b.parse_uci("e1c1").unwrap()), "O-O-O");
        assert_eq!(b.to_san(b.parse_uci("d5e6").unwrap()), "dxe6");
        assert_eq!(b.to_san(b.parse_uci("c3b5").unwrap()), "Nb5");
        assert_eq!(b.to_san(b.parse_uci("e5g6").unwrap()), "Nxg6");
        assert_eq!(b.to_san(b.parse_uci("e2a6").unwrap()), "Bxa6");
        assert!(matches!(b.parse_uci("e1e3"), Err(MoveError::Illegal(_))));
        assert!(matches!(b.parse_uci("e1"), Err(MoveError::Syntax(_))));
        assert!(matches!(b.parse_uci("e7e8k"), Err(MoveError::Syntax(_))));
        assert!(matches!(b.parse_uci("é1e2"), Err(MoveError::Syntax(_))));
        let mut c = b;
        c.set_chess960(true);
        assert_eq!(c.to_uci(castle), "e1h1");
        assert_eq!(c.parse_uci("e1h1").unwrap(), castle);

        let r = Board::from_fen("6k1/5ppp/8/8/8/R7/8/R5K1 w - - 0 1", false).unwrap();
        assert_eq!(r.to_san(r.parse_uci("a1a2").unwrap()), "R1a2");
        let m = Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false).unwrap();
        assert_eq!(m.to_san(m.parse_uci("a1a8").unwrap()), "Ra8#");
        let p = Board::from_fen("8/P5k1/8/8/8/8/8/6K1 w - - 0 1", false).unwrap();
        assert_eq!(p.to_san(p.parse_uci("a7a8q").unwrap()), "a8=Q");
    }
}
