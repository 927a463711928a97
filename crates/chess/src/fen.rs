//! FEN parsing and output, with Shredder-FEN and X-FEN castling for Chess960.
//!
//! Parsing reads the fields into a [`Setup`] (`str::parse`), and [`Board::from_fen`] builds the
//! board from it with [`Board::from_setup`], which checks the position. The parser never panics
//! and never accepts an illegal position: every malformed or impossible input is a [`FenError`]
//! saying what is wrong.

use crate::board::Board;
use crate::castling::{CastleSide, CastlingRights};
use crate::setup::{Setup, SetupError};
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use core::fmt;
use core::str::FromStr;

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than 4 or more than 6 space-separated fields.
    FieldCount(usize),
    /// The piece placement field is malformed (the text says how).
    Board(String),
    /// The side to move is not `w` or `b`.
    SideToMove(String),
    /// The castling field is malformed or names a right without its king or rook.
    Castling(String),
    /// The en-passant field is malformed or impossible.
    EnPassant(String),
    /// The halfmove clock or fullmove number is not a valid number.
    Clock(String),
    /// The fields parse but do not make a legal chess position (the text says why; castling
    /// and en-passant problems are [`FenError::Castling`] and [`FenError::EnPassant`]).
    Illegal(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields, expected 4 to 6"),
            FenError::Board(s) => write!(f, "bad piece placement: {s}"),
            FenError::SideToMove(s) => write!(f, "bad side to move '{s}', expected 'w' or 'b'"),
            FenError::Castling(s) => write!(f, "bad castling rights: {s}"),
            FenError::EnPassant(s) => write!(f, "bad en-passant square: {s}"),
            FenError::Clock(s) => write!(f, "bad move counter: {s}"),
            FenError::Illegal(s) => write!(f, "illegal position: {s}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<SetupError> for FenError {
    fn from(e: SetupError) -> FenError {
        let text = e.to_string();
        match e {
            SetupError::CastlingKing(_)
            | SetupError::CastlingRook { .. }
            | SetupError::CastlingNotStandard { .. } => FenError::Castling(text),
            SetupError::EnPassantRank(_)
            | SetupError::EnPassantNoPawn(_)
            | SetupError::EnPassantOccupied(_)
            | SetupError::EnPassantChecks(_) => FenError::EnPassant(text),
            SetupError::KingCount { .. }
            | SetupError::PawnCount { .. }
            | SetupError::PieceCount { .. }
            | SetupError::PawnOnBackRank(_)
            | SetupError::OpponentInCheck
            | SetupError::TooManyCheckers(_) => FenError::Illegal(text),
        }
    }
}

fn parse_placement(setup: &mut Setup, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board(format!(
            "{} ranks, expected 8",
            ranks.len()
        )));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::from_index(7 - i as u8);
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::Board(format!(
                        "digit {d} on rank {}",
                        rank.to_char()
                    )));
                }
                file += d as u8;
            } else if let Some(piece) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(FenError::Board(format!(
                        "rank {} is too long",
                        rank.to_char()
                    )));
                }
                setup.put(piece, Square::new(File::from_index(file), rank));
                file += 1;
            } else {
                return Err(FenError::Board(format!("unexpected character '{c}'")));
            }
            if file > 8 {
                return Err(FenError::Board(format!(
                    "rank {} is too long",
                    rank.to_char()
                )));
            }
        }
        if file != 8 {
            return Err(FenError::Board(format!(
                "rank {} has {file} squares, expected 8",
                rank.to_char()
            )));
        }
    }
    Ok(())
}

/// The file of the outermost rook of `color` on its first rank beyond `king` towards `side`.
fn outer_rook(setup: &Setup, color: Color, king: Square, side: CastleSide) -> Option<File> {
    let rook = Piece::new(color, PieceKind::Rook);
    let mut files = File::ALL
        .into_iter()
        .filter(|&f| setup.piece_on(Square::new(f, color.back_rank())) == Some(rook));
    match side {
        CastleSide::King => files.rev().find(|&f| f > king.file()),
        CastleSide::Queen => files.find(|&f| f < king.file()),
    }
}

/// Reads the castling field: `-`, X-FEN `KQkq` (the outermost rook on that side of the king) or
/// Shredder-FEN rook files (`HAha`). Whether the rights fit the position is
/// [`Board::from_setup`]'s to check.
fn parse_castling(setup: &Setup, field: &str) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::EMPTY;
    if field == "-" {
        return Ok(rights);
    }
    if field.is_empty() || field.len() > 4 {
        return Err(FenError::Castling(format!("'{field}'")));
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        if !matches!(c.to_ascii_lowercase(), 'k' | 'q' | 'a'..='h') {
            return Err(FenError::Castling(format!("unexpected character '{c}'")));
        }
        let king = setup
            .squares_of(Piece::new(color, PieceKind::King))
            .next()
            .ok_or_else(|| FenError::Castling(format!("'{c}' but there is no king")))?;
        let (side, file) = match c.to_ascii_lowercase() {
            'k' => (
                CastleSide::King,
                outer_rook(setup, color, king, CastleSide::King),
            ),
            'q' => (
                CastleSide::Queen,
                outer_rook(setup, color, king, CastleSide::Queen),
            ),
            lower => {
                let file = File::from_char(lower).expect("a..h is a file");
                (
                    CastleSide::of(king, Square::new(file, king.rank())),
                    Some(file),
                )
            }
        };
        let file = file.ok_or_else(|| {
            FenError::Castling(format!("'{c}' but there is no rook to castle with"))
        })?;
        if rights.has(color, side) {
            return Err(FenError::Castling(format!("'{c}' repeats a right")));
        }
        rights.set(color, side, Some(file));
    }
    Ok(rights)
}

fn parse_clock(field: Option<&str>, what: &str, default: u16) -> Result<u16, FenError> {
    match field {
        Some(s) => s
            .parse()
            .map_err(|_| FenError::Clock(format!("{what} '{s}'"))),
        None => Ok(default),
    }
}

/// Reads the fields of a FEN (4 to 6; missing clocks default to `0 1`) without checking that
/// they make a legal position: that is [`Board::from_setup`]'s job, and [`Board::from_fen`]
/// does both.
///
/// ```
/// use engram_chess::{Board, Setup};
/// let setup: Setup = engram_chess::STARTPOS.parse().unwrap();
/// assert_eq!(setup, Setup::startpos());
/// let no_kings: Setup = "8/8/8/8/8/8/8/8 w - -".parse().unwrap();
/// assert!(Board::from_setup(no_kings, false).is_err());
/// ```
impl FromStr for Setup {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut setup = Setup::empty();
        parse_placement(&mut setup, fields[0])?;
        setup.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::SideToMove(s.into())),
        };
        setup.castling = parse_castling(&setup, fields[2])?;
        if fields[3] != "-" {
            let ep = Square::parse(fields[3])
                .ok_or_else(|| FenError::EnPassant(format!("'{}' is not a square", fields[3])))?;
            setup.ep = Some(ep);
        }
        setup.halfmove = parse_clock(fields.get(4).copied(), "halfmove clock", 0)?;
        setup.fullmove = parse_clock(fields.get(5).copied(), "fullmove number", 1)?;
        Ok(setup)
    }
}

impl Board {
    /// Parses a FEN (4 to 6 fields; missing clocks default to `0 1`). In Chess960 mode castling
    /// rights may name any rook (X-FEN `KQkq` for the outermost rook, or Shredder-FEN file
    /// letters); in standard mode they must be the standard king and rook squares.
    ///
    /// ```
    /// use engram_chess::Board;
    /// let board = Board::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1", false).unwrap();
    /// assert_eq!(board.count_moves(), 3);
    /// assert!(Board::from_fen("8/8/8/8/8/8/8/K7 w - - 0 1", false).is_err());
    /// ```
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Board, FenError> {
        let setup: Setup = fen.parse()?;
        Ok(Board::from_setup(setup, chess960)?)
    }

    /// The FEN of this position. Castling is `KQkq` in standard mode and Shredder-FEN (rook
    /// files) in Chess960 mode; the en-passant square is given only when a capture is possible.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_on(Square::new(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *rank != Rank::First {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side_to_move().to_char());
        s.push(' ');
        let castling = self.castling_rights();
        if !castling.any() {
            s.push('-');
        }
        for (color, side, file) in castling.iter() {
            let c = if self.is_chess960() {
                file.to_char()
            } else if side == CastleSide::King {
                'k'
            } else {
                'q'
            };
            s.push(if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
        s.push(' ');
        match self.en_passant() {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        s
    }
}

/// A board displays as its FEN.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

/// A board debug-prints as `Board(<FEN>)`.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for fen in [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            assert_eq!(Board::from_fen(fen, false).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn rejects_bad_input() {
        let bad = [
            "",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
            "4k3/8/8/8/8/8/8/4K2R b K - 0 1 extra",
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
            "4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1",
        ];
        for fen in bad {
            assert!(Board::from_fen(fen, false).is_err(), "accepted {fen}");
        }
    }

    #[test]
    fn startpos_matches_setup() {
        assert_eq!(Board::from_fen(STARTPOS, false).unwrap(), Board::startpos());
        assert_eq!(Board::startpos().to_fen(), STARTPOS);
        assert_eq!(STARTPOS.parse::<Setup>().unwrap(), Setup::startpos());
    }

    #[test]
    fn error_kinds() {
        let kind = |fen: &str| match Board::from_fen(fen, false) {
            Err(FenError::FieldCount(_)) => "fields",
            Err(FenError::Board(_)) => "board",
            Err(FenError::SideToMove(_)) => "side",
            Err(FenError::Castling(_)) => "castling",
            Err(FenError::EnPassant(_)) => "en passant",
            Err(FenError::Clock(_)) => "clock",
            Err(FenError::Illegal(_)) => "illegal",
            Ok(_) => "ok",
        };
        assert_eq!(kind("4k3/8/8/8/8/8/8/4K3 w - -"), "ok");
        assert_eq!(kind("4k3/8/8/8/8/8/8/4K3 w -"), "fields");
        assert_eq!(kind("4k3/8/8/8/8/8/8/4K2 w - - 0 1"), "board");
        assert_eq!(kind("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), "side");
        assert_eq!(kind("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), "castling");
        assert_eq!(kind("4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1"), "castling");
        assert_eq!(kind("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"), "en passant");
        assert_eq!(kind("4k3/8/8/8/8/8/8/4K3 w - - x 1"), "clock");
        assert_eq!(kind("4k3/8/8/8/8/8/8/4KK2 w - - 0 1"), "illegal");
        assert_eq!(kind("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), "illegal");
    }

    #[test]
    fn chess960_castling() {
        let b = Board::from_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            true,
        )
        .unwrap();
        assert_eq!(
            b.to_fen(),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
        );
        let x = Board::from_fen(
            "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1",
            true,
        )
        .unwrap();
        assert_eq!(
            x.castling_rook(Color::White, CastleSide::King),
            Some(Square::E1)
        );
        assert_eq!(
            x.castling_rook(Color::White, CastleSide::Queen),
            Some(Square::A1)
        );
    }
}
