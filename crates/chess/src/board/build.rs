//! Building a board from a [`Setup`]: every rule a legal position must obey is checked here,
//! then the derived state (keys, checkers, pins) is computed.

use super::{Board, Keys, NO_PIECE};
use crate::attacks::pawn_attacks;
use crate::bitboard::Bitboard;
use crate::castling::CastleSide;
use crate::setup::{Setup, SetupError};
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use crate::zobrist;

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_setup(Setup::startpos(), false).expect("the start position is valid")
    }

    /// Checks that `setup` is a legal position and builds its board. In Chess960 mode a
    /// castling right may name any rook on its first rank beyond the king; in standard mode the
    /// king must stand on e and the rook on a or h. An en-passant square that passes every check
    /// is kept only when a pawn of the side to move stands ready to capture (the Polyglot rule).
    ///
    /// ```
    /// use engram_chess::{Board, Setup, SetupError};
    /// assert_eq!(Board::from_setup(Setup::startpos(), false).unwrap(), Board::startpos());
    /// assert!(matches!(
    ///     Board::from_setup(Setup::empty(), false),
    ///     Err(SetupError::KingCount { .. })
    /// ));
    /// ```
    pub fn from_setup(setup: Setup, chess960: bool) -> Result<Board, SetupError> {
        let mut board = Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            mailbox: [NO_PIECE; 64],
            side: setup.side,
            castling: setup.castling,
            ep: None,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            key: 0,
            pawn_key: 0,
            chess960,
        };
        for sq in Square::all() {
            if let Some(piece) = setup.piece_on(sq) {
                let bb = Bitboard::from_square(sq);
                board.pieces[piece.kind().index()] |= bb;
                board.colors[piece.color().index()] |= bb;
                board.mailbox[sq.index()] = piece.index() as u8;
            }
        }
        board.check_material()?;
        board.check_castling()?;
        if let Some(ep) = setup.ep {
            board.check_en_passant(ep)?;
        }

        let us = board.side;
        if board.is_attacked(board.king(us.flip()), us, board.occupied()) {
            return Err(SetupError::OpponentInCheck);
        }
        board.update_check_info();
        if board.checkers.len() > 2 {
            return Err(SetupError::TooManyCheckers(board.checkers.len()));
        }
        if let Some(ep) = setup.ep {
            // A double push can only give check directly or by discovery; a check by anything
            // else means the en-passant square cannot be real.
            let pushed = Square::new(ep.file(), us.relative_rank(Rank::Fifth));
            let others = board.checkers.without(pushed);
            if others.has_many() || (board.checkers.has_many() && !board.checkers.has(pushed)) {
                return Err(SetupError::EnPassantChecks(ep));
            }
            if (pawn_attacks(us.flip(), ep) & board.colored(us, PieceKind::Pawn)).any() {
                board.ep = Some(ep);
            }
        }

        let keys = board.compute_keys();
        board.key = keys.key;
        board.pawn_key = keys.pawn;
        Ok(board)
    }

    /// One king per side, at most eight pawns and sixteen pieces, no pawn on a back rank.
    fn check_material(&self) -> Result<(), SetupError> {
        for color in Color::ALL {
            let count = self.colored(color, PieceKind::King).len();
            if count != 1 {
                return Err(SetupError::KingCount { color, count });
            }
            let count = self.colored(color, PieceKind::Pawn).len();
            if count > 8 {
                return Err(SetupError::PawnCount { color, count });
            }
            let count = self.color(color).len();
            if count > 16 {
                return Err(SetupError::PieceCount { color, count });
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        match (self.pieces(PieceKind::Pawn) & back_ranks).first() {
            Some(sq) => Err(SetupError::PawnOnBackRank(sq)),
            None => Ok(()),
        }
    }

    /// Every castling right has its king on the first rank and its rook on that rank, on its
    /// side of the king (on the standard squares unless in Chess960 mode).
    fn check_castling(&self) -> Result<(), SetupError> {
        for (color, side, file) in self.castling.iter() {
            let king = self.king(color);
            let rank = color.back_rank();
            if king.rank() != rank {
                return Err(SetupError::CastlingKing(color));
            }
            let rook = Square::new(file, rank);
            let beyond_king = match side {
                CastleSide::King => file > king.file(),
                CastleSide::Queen => file < king.file(),
            };
            if !beyond_king || self.piece_on(rook) != Some(Piece::new(color, PieceKind::Rook)) {
                return Err(SetupError::CastlingRook { color, side, rook });
            }
            let standard_rook = match side {
                CastleSide::King => File::H,
                CastleSide::Queen => File::A,
            };
            if !self.chess960 && (king.file() != File::E || file != standard_rook) {
                return Err(SetupError::CastlingNotStandard { color, side });
            }
        }
        Ok(())
    }

    /// The en-passant square `ep` could follow a double push by the side that just moved: it
    /// is on the right rank, the pawn stands in front of it, and it and the square behind it
    /// are empty.
    fn check_en_passant(&self, ep: Square) -> Result<(), SetupError> {
        let us = self.side;
        if ep.rank() != us.relative_rank(Rank::Sixth) {
            return Err(SetupError::EnPassantRank(ep));
        }
        let down: i8 = if us == Color::White { -8 } else { 8 };
        let pushed = ep.offset(down).expect("on the board");
        let origin = ep.offset(-down).expect("on the board");
        if self.piece_on(pushed) != Some(Piece::new(us.flip(), PieceKind::Pawn)) {
            return Err(SetupError::EnPassantNoPawn(ep));
        }
        if self.piece_on(ep).is_some() || self.piece_on(origin).is_some() {
            return Err(SetupError::EnPassantOccupied(ep));
        }
        Ok(())
    }

    /// Computes both keys from scratch (for tests and for building a position).
    pub fn compute_keys(&self) -> Keys {
        let mut keys = Keys { key: 0, pawn: 0 };
        for sq in self.occupied() {
            let piece = self.piece_on(sq).expect("occupied square has a piece");
            let k = zobrist::piece_square(piece, sq);
            keys.key ^= k;
            if matches!(piece.kind(), PieceKind::Pawn | PieceKind::King) {
                keys.pawn ^= k;
            }
        }
        for (color, side, _) in self.castling.iter() {
            keys.key ^= zobrist::castling(color, side);
        }
        if let Some(ep) = self.ep {
            keys.key ^= zobrist::en_passant(ep.file());
        }
        if self.side == Color::White {
            keys.key ^= zobrist::white_to_move();
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::castling::CastlingRights;

    fn kings(white: Square, black: Square) -> Setup {
        let mut setup = Setup::empty();
        setup.put(Piece::new(Color::White, PieceKind::King), white);
        setup.put(Piece::new(Color::Black, PieceKind::King), black);
        setup
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn startpos() {
        let board = Board::startpos();
        assert_eq!(board.occupied().len(), 32);
        assert_eq!(board.castling_rights(), CastlingRights::STANDARD);
        assert_eq!(board.count_moves(), 20);
        assert_eq!(board.keys(), board.compute_keys());
    }

    #[test]
    fn material_errors() {
        assert_eq!(
            Board::from_setup(Setup::empty(), false),
            Err(SetupError::KingCount {
                color: Color::White,
                count: 0
            })
        );
        let mut setup = kings(Square::E1, Square::E8);
        setup.put(Piece::new(Color::Black, PieceKind::Pawn), Square::A1);
        assert_eq!(
            Board::from_setup(setup, false),
            Err(SetupError::PawnOnBackRank(Square::A1))
        );
    }

    #[test]
    fn castling_errors() {
        let rook = Piece::new(Color::White, PieceKind::Rook);
        let mut setup = kings(Square::E1, Square::E8);
        setup
            .castling
            .set(Color::White, CastleSide::King, Some(File::H));
        assert_eq!(
            Board::from_setup(setup, false),
            Err(SetupError::CastlingRook {
                color: Color::White,
                side: CastleSide::King,
                rook: Square::H1
            })
        );
        setup.put(rook, Square::H1);
        assert!(Board::from_setup(setup, false).is_ok());

        let mut setup = kings(Square::D1, Square::E8);
        setup.put(rook, Square::H1);
        setup
            .castling
            .set(Color::White, CastleSide::King, Some(File::H));
        assert_eq!(
            Board::from_setup(setup, false),
            Err(SetupError::CastlingNotStandard {
                color: Color::White,
                side: CastleSide::King
            })
        );
        assert!(Board::from_setup(setup, true).is_ok());
    }

    #[test]
    fn en_passant_kept_only_when_capturable() {
        let mut setup = kings(Square::E1, Square::E8);
        setup.put(Piece::new(Color::White, PieceKind::Pawn), sq("d4"));
        setup.side = Color::Black;
        setup.ep = Some(sq("d3"));
        let board = Board::from_setup(setup, false).unwrap();
        assert_eq!(board.en_passant(), None, "no black pawn can take");

        setup.put(Piece::new(Color::Black, PieceKind::Pawn), sq("e4"));
        let board = Board::from_setup(setup, false).unwrap();
        assert_eq!(board.en_passant(), Some(sq("d3")));
        assert_eq!(board.keys(), board.compute_keys());

        setup.ep = Some(sq("d6"));
        assert_eq!(
            Board::from_setup(setup, false),
            Err(SetupError::EnPassantRank(sq("d6")))
        );
        setup.ep = Some(sq("c3"));
        assert_eq!(
            Board::from_setup(setup, false),
            Err(SetupError::EnPassantNoPawn(sq("c3")))
        );
    }

    #[test]
    fn check_errors() {
        let mut setup = kings(Square::E1, Square::E8);
        setup.put(Piece::new(Color::White, PieceKind::Rook), sq("e5"));
        assert_eq!(
            Board::from_setup(setup, false),
            Err(SetupError::OpponentInCheck)
        );
        setup.side = Color::Black;
        let board = Board::from_setup(setup, false).unwrap();
        assert_eq!(board.checkers(), Bitboard::from_square(sq("e5")));
    }
}
