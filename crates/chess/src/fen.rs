//! FEN parsing and output, with Shredder-FEN and X-FEN castling for Chess960.
//!
//! The parser never panics and never accepts an illegal position: every malformed or impossible
//! input is a [`FenError`] saying what is wrong.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::CastleSide;
use crate::types::{Color, File, Piece, PieceKind, Rank, Square};
use core::fmt;

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
    /// The placement parses but is not a legal chess position (the text says why).
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

fn parse_placement(board: &mut Board, field: &str) -> Result<(), FenError> {
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
                board.place(piece, Square::new(File::from_index(file), rank));
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

fn validate_material(board: &Board) -> Result<(), FenError> {
    for color in Color::ALL {
        let name = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        let kings = board.colored(color, PieceKind::King).len();
        if kings != 1 {
            return Err(FenError::Illegal(format!("{name} has {kings} kings")));
        }
        let pawns = board.colored(color, PieceKind::Pawn).len();
        if pawns > 8 {
            return Err(FenError::Illegal(format!("{name} has {pawns} pawns")));
        }
        if board.color(color).len() > 16 {
            return Err(FenError::Illegal(format!("{name} has more than 16 pieces")));
        }
    }
    if (board.pieces(PieceKind::Pawn)
        & (Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth)))
    .any()
    {
        return Err(FenError::Illegal("a pawn on the first or last rank".into()));
    }
    Ok(())
}

/// Finds the outermost rook of `color` on its back rank beyond the king towards `side`.
fn outer_rook(board: &Board, color: Color, side: CastleSide) -> Option<File> {
    let king = board.king(color);
    let rooks = board.colored(color, PieceKind::Rook) & Bitboard::rank(color.back_rank());
    let files = rooks.iter().map(|s| s.file()).filter(|f| match side {
        CastleSide::King => *f > king.file(),
        CastleSide::Queen => *f < king.file(),
    });
    match side {
        CastleSide::King => files.max(),
        CastleSide::Queen => files.min(),
    }
}

fn parse_castling(board: &mut Board, field: &str, chess960: bool) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
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
        let king = board.king(color);
        if king.rank() != color.back_rank() {
            return Err(FenError::Castling(format!(
                "'{c}' but the king is not on its first rank"
            )));
        }
        let (side, file) = match c.to_ascii_lowercase() {
            'k' => (CastleSide::King, outer_rook(board, color, CastleSide::King)),
            'q' => (
                CastleSide::Queen,
                outer_rook(board, color, CastleSide::Queen),
            ),
            'a'..='h' => {
                let file = File::from_char(c.to_ascii_lowercase()).expect("a..h is a file");
                let side = if file > king.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                (side, Some(file))
            }
            _ => return Err(FenError::Castling(format!("unexpected character '{c}'"))),
        };
        let file = file.ok_or_else(|| {
            FenError::Castling(format!("'{c}' but there is no rook to castle with"))
        })?;
        let rook_sq = Square::new(file, color.back_rank());
        if board.piece_on(rook_sq) != Some(Piece::new(color, PieceKind::Rook))
            || file == king.file()
        {
            return Err(FenError::Castling(format!(
                "'{c}' but there is no rook on {rook_sq}"
            )));
        }
        if !chess960 {
            let standard_rook = if side == CastleSide::King {
                File::H
            } else {
                File::A
            };
            if king.file() != File::E || file != standard_rook {
                return Err(FenError::Castling(format!(
                    "'{c}' needs the king on e and the rook on a or h (or Chess960 mode)"
                )));
            }
        }
        if board.castling.has(color, side) {
            return Err(FenError::Castling(format!("'{c}' repeats a right")));
        }
        board.castling.set(color, side, Some(file));
    }
    Ok(())
}

fn parse_en_passant(board: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let ep = Square::parse(field)
        .ok_or_else(|| FenError::EnPassant(format!("'{field}' is not a square")))?;
    let us = board.side;
    let them = us.flip();
    if ep.rank() != us.relative_rank(Rank::Sixth) {
        return Err(FenError::EnPassant(format!(
            "{ep} is not on the {} rank",
            if us == Color::White { "6th" } else { "3rd" }
        )));
    }
    let down: i8 = if us == Color::White { -8 } else { 8 };
    let pushed = ep.offset(down).expect("on the board");
    let origin = ep.offset(-down).expect("on the board");
    if board.piece_on(pushed) != Some(Piece::new(them, PieceKind::Pawn)) {
        return Err(FenError::EnPassant(format!(
            "no pawn on {pushed} that could have just moved two squares"
        )));
    }
    if board.piece_on(ep).is_some() || board.piece_on(origin).is_some() {
        return Err(FenError::EnPassant(format!("{ep} or {origin} is occupied")));
    }
    board.set_ep_if_capturable(ep);
    Ok(())
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
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board::empty();
        board.chess960 = chess960;
        parse_placement(&mut board, fields[0])?;
        validate_material(&board)?;
        board.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenError::SideToMove(s.into())),
        };
        parse_castling(&mut board, fields[2], chess960)?;
        parse_en_passant(&mut board, fields[3])?;
        if let Some(s) = fields.get(4) {
            board.halfmove = s
                .parse()
                .map_err(|_| FenError::Clock(format!("halfmove clock '{s}'")))?;
        }
        if let Some(s) = fields.get(5) {
            let n: u16 = s
                .parse()
                .map_err(|_| FenError::Clock(format!("fullmove number '{s}'")))?;
            board.fullmove = n.max(1);
        }

        // The side that just moved may not be in check.
        let them = board.side.flip();
        if board.is_attacked(board.king(them), board.side, board.occupied()) {
            return Err(FenError::Illegal("the side not to move is in check".into()));
        }
        board.finish_setup();
        if board.checkers.len() > 2 {
            return Err(FenError::Illegal("more than two pieces give check".into()));
        }
        if let Some(ep) = fields.get(3).and_then(|s| Square::parse(s)) {
            // A double push can only give check directly or by discovery; a check by anything
            // else means the en-passant square cannot be real.
            let pushed = Square::new(ep.file(), board.side.relative_rank(Rank::Fifth));
            let others = board.checkers.without(pushed);
            if others.has_many() || (board.checkers.has_many() && !board.checkers.has(pushed)) {
                return Err(FenError::EnPassant(format!(
                    "{ep} is impossible with these checks"
                )));
            }
        }
        Ok(board)
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
        s.push(self.side.to_char());
        s.push(' ');
        if !self.castling.any() {
            s.push('-');
        }
        for (color, side, file) in self.castling.iter() {
            let c = if self.chess960 {
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
        match self.ep {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
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
