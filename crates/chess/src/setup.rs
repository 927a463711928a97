//! `Setup`: a position as plain, unvalidated data — piece placement, side to move, castling
//! rights, en-passant square and clocks — and [`SetupError`], why one is not a legal position.
//!
//! A `Setup` is what a FEN string says, field by field; [`crate::Board::from_setup`] checks it
//! and builds the board (keys, checkers, pins). The FEN parser fills a `Setup`, so the board
//! knows nothing about FEN.

use crate::castling::{CastleSide, CastlingRights};
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use core::fmt;

/// A position before validation. Fill the fields, then build with [`crate::Board::from_setup`].
///
/// ```
/// use engram_chess::{Board, Color, Piece, PieceKind, Setup, Square};
/// let mut setup = Setup::empty();
/// setup.put(Piece::new(Color::White, PieceKind::King), Square::A1);
/// setup.put(Piece::new(Color::Black, PieceKind::King), Square::H8);
/// let board = Board::from_setup(setup, false).unwrap();
/// assert_eq!(board.count_moves(), 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`] (a1 = 0, h8 = 63).
    pub placement: [Option<Piece>; 64],
    /// The side to move.
    pub side: Color,
    /// The castling rights: for each colour and side, the file of the rook that may castle.
    pub castling: CastlingRights,
    /// The square a pawn capturing en passant would land on, as given (a FEN may name it even
    /// when no capture is possible; the board keeps it only when one is, the Polyglot rule).
    pub ep: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u16,
    /// The move number; 0 is read as 1.
    pub fullmove: u16,
}

impl Default for Setup {
    fn default() -> Self {
        Setup::empty()
    }
}

impl Setup {
    /// An empty board, White to move, no castling rights, no en passant, clocks `0 1`.
    pub const fn empty() -> Setup {
        Setup {
            placement: [None; 64],
            side: Color::White,
            castling: CastlingRights::EMPTY,
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Setup {
        use PieceKind::*;
        const BACK: [PieceKind; 8] = [Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook];
        let mut setup = Setup::empty();
        for color in Color::ALL {
            let back = color.back_rank();
            let pawns = color.relative_rank(Rank::Second);
            for (file, kind) in File::ALL.into_iter().zip(BACK) {
                setup.put(Piece::new(color, kind), Square::new(file, back));
                setup.put(Piece::new(color, Pawn), Square::new(file, pawns));
            }
        }
        setup.castling = CastlingRights::STANDARD;
        setup
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.placement[sq.index()]
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    #[inline]
    pub fn put(&mut self, piece: Piece, sq: Square) {
        self.placement[sq.index()] = Some(piece);
    }

    /// The squares holding `piece`, a1 first.
    pub fn squares_of(&self, piece: Piece) -> impl Iterator<Item = Square> + '_ {
        Square::all().filter(move |&sq| self.piece_on(sq) == Some(piece))
    }
}

/// Why a [`Setup`] is not a legal chess position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A side does not have exactly one king.
    KingCount {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// A side has more than eight pawns.
    PawnCount {
        /// The side.
        color: Color,
        /// How many pawns it has.
        count: u32,
    },
    /// A side has more than sixteen pieces.
    PieceCount {
        /// The side.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// A castling right of `color`, whose king is not on its first rank.
    CastlingKing(Color),
    /// A castling right without a rook of its colour on its square, on that side of the king.
    CastlingRook {
        /// The side the right belongs to.
        color: Color,
        /// King side or queen side.
        side: CastleSide,
        /// Where the rook should stand.
        rook: Square,
    },
    /// In standard (not Chess960) mode a castling right needs the king on e and the rook on a
    /// or h.
    CastlingNotStandard {
        /// The side the right belongs to.
        color: Color,
        /// King side or queen side.
        side: CastleSide,
    },
    /// The en-passant square is not on the 6th rank (3rd for Black to move).
    EnPassantRank(Square),
    /// No enemy pawn stands in front of the en-passant square, as after a double push.
    EnPassantNoPawn(Square),
    /// The en-passant square or the square the pawn came from is occupied.
    EnPassantOccupied(Square),
    /// The checks on the king cannot follow the double push the en-passant square implies.
    EnPassantChecks(Square),
    /// The side that just moved is in check.
    OpponentInCheck,
    /// More than two pieces give check.
    TooManyCheckers(u32),
}

fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn side_name(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "king-side",
        CastleSide::Queen => "queen-side",
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SetupError::KingCount { color, count } => {
                write!(f, "{} has {count} kings", name(color))
            }
            SetupError::PawnCount { color, count } => {
                write!(f, "{} has {count} pawns", name(color))
            }
            SetupError::PieceCount { color, count } => {
                write!(f, "{} has {count} pieces, more than 16", name(color))
            }
            SetupError::PawnOnBackRank(sq) => write!(f, "a pawn on {sq}, the first or last rank"),
            SetupError::CastlingKing(color) => write!(
                f,
                "{} may castle but the king is not on its first rank",
                name(color)
            ),
            SetupError::CastlingRook { color, side, rook } => write!(
                f,
                "{} {} right but no rook on {rook} on that side of the king",
                name(color),
                side_name(side)
            ),
            SetupError::CastlingNotStandard { color, side } => write!(
                f,
                "{} {} right needs the king on e and the rook on a or h (or Chess960 mode)",
                name(color),
                side_name(side)
            ),
            SetupError::EnPassantRank(sq) => write!(f, "{sq} is not on the en-passant rank"),
            SetupError::EnPassantNoPawn(sq) => write!(
                f,
                "{sq} but no pawn in front of it that could have just moved two squares"
            ),
            SetupError::EnPassantOccupied(sq) => {
                write!(f, "{sq} or the square the pawn came from is occupied")
            }
            SetupError::EnPassantChecks(sq) => write!(f, "{sq} is impossible with these checks"),
            SetupError::OpponentInCheck => f.write_str("the side not to move is in check"),
            SetupError::TooManyCheckers(n) => write!(f, "{n} pieces give check"),
        }
    }
}

impl std::error::Error for SetupError {}
