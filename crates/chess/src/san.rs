//! SAN (standard algebraic notation), the move text of people and PGN files: out
//! ([`Board::to_san`], with the `+`/`#` suffix) and in ([`Board::parse_san`], which also takes
//! what real PGN files contain: annotation suffixes, `0-0`, `e8Q`, a missing or superfluous `x`,
//! over-specified disambiguation).

use crate::board::Board;
use crate::castling::CastleSide;
use crate::chess_move::{Move, MoveKind};
use crate::types::{File, PieceKind, Rank, Square};
use core::fmt;

/// Why a SAN move was rejected. Each variant holds the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN: empty, a character that has no place in a move, a bad square, a promotion by a
    /// piece other than a pawn.
    Syntax(String),
    /// The null move (`--`, `Z0`, `0000`, `@@`): a placeholder, not a move a board can play.
    NullMove(String),
    /// Well formed, but no legal move here fits it.
    Illegal(String),
    /// Well formed, but several legal moves fit it; `candidates` are their full SAN texts.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The SAN of every legal move that fits.
        candidates: Vec<String>,
    },
}

impl SanError {
    /// The rejected text.
    pub fn text(&self) -> &str {
        match self {
            SanError::Syntax(s) | SanError::NullMove(s) | SanError::Illegal(s) => s,
            SanError::Ambiguous { text, .. } => text,
        }
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(s) => write!(f, "malformed move '{s}'"),
            SanError::NullMove(s) => write!(f, "null move '{s}' cannot be played"),
            SanError::Illegal(s) => write!(f, "illegal move '{s}'"),
            SanError::Ambiguous { text, candidates } => {
                write!(f, "ambiguous move '{text}' (")?;
                for (i, c) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(c)?;
                }
                f.write_str(")")
            }
        }
    }
}

impl std::error::Error for SanError {}

/// The parts of a SAN move other than castling, as written.
struct SanParts {
    piece: PieceKind,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<PieceKind>,
}

/// Splits `[piece][file][rank][x]square[[=]promotion]` (the check and annotation suffixes
/// already removed). `None` when the text does not have that shape.
fn split(core: &[u8]) -> Option<SanParts> {
    let (piece, mut rest) = match core.first()? {
        b'N' => (PieceKind::Knight, &core[1..]),
        b'B' => (PieceKind::Bishop, &core[1..]),
        b'R' => (PieceKind::Rook, &core[1..]),
        b'Q' => (PieceKind::Queen, &core[1..]),
        b'K' => (PieceKind::King, &core[1..]),
        b'P' => (PieceKind::Pawn, &core[1..]),
        _ => (PieceKind::Pawn, core),
    };
    // A letter at the end can only be a promotion piece: a square ends with its rank digit.
    let mut promotion = None;
    if let Some((&last, head)) = rest.split_last() {
        if last.is_ascii_alphabetic() {
            promotion = match last.to_ascii_lowercase() {
                b'n' => Some(PieceKind::Knight),
                b'b' => Some(PieceKind::Bishop),
                b'r' => Some(PieceKind::Rook),
                b'q' => Some(PieceKind::Queen),
                _ => return None,
            };
            rest = head.strip_suffix(b"=").unwrap_or(head);
        }
    }
    if promotion.is_some() && piece != PieceKind::Pawn {
        return None;
    }
    let split_at = rest.len().checked_sub(2)?;
    let (head, square) = rest.split_at(split_at);
    let to = Square::new(
        File::from_char(char::from(square[0]))?,
        Rank::from_char(char::from(square[1]))?,
    );
    let (head, capture) = match head.strip_suffix(b"x") {
        Some(head) => (head, true),
        None => (head, false),
    };
    let file_of = |b: u8| File::from_char(char::from(b));
    let rank_of = |b: u8| Rank::from_char(char::from(b));
    let (file, rank) = match *head {
        [] => (None, None),
        [c] => match (file_of(c), rank_of(c)) {
            (Some(f), _) => (Some(f), None),
            (None, Some(r)) => (None, Some(r)),
            (None, None) => return None,
        },
        [f, r] => (Some(file_of(f)?), Some(rank_of(r)?)),
        _ => return None,
    };
    // A pawn capture names the pawn's file (`exd5`): `xd5` says nothing.
    if piece == PieceKind::Pawn && capture && file.is_none() {
        return None;
    }
    Some(SanParts {
        piece,
        file,
        rank,
        to,
        promotion,
    })
}

impl Board {
    /// Parses a move in SAN and finds it among the legal moves.
    ///
    /// Besides strict SAN it accepts what PGN files in the wild contain: check, mate and
    /// annotation suffixes (`+`, `#`, `!`, `?`, `!!`, `??`, `!?`, `?!`; they are not checked
    /// against the position), castling with zeros (`0-0`, `0-0-0`), promotion without `=` or
    /// with a lower-case piece (`e8Q`, `e8=q`), a missing or superfluous `x` (but a pawn capture
    /// must name its file), a pawn written with `P`, and more disambiguation than needed
    /// (`Ngf3`, `Ng1f3`, so also `e2e4`). A pawn move without a from-file moves along its file
    /// (`d6` is never `exd6`). In Chess960 `O-O` is castling with the rook on the king's h-side
    /// (the king ends on g), `O-O-O` with the rook on the a-side.
    ///
    /// Never panics; any text that is not a legal move here is a [`SanError`].
    ///
    /// ```
    /// use engram_chess::{Board, SanError};
    /// let board = Board::startpos();
    /// let mv = board.parse_san("Nf3!?").unwrap();
    /// assert_eq!(board.to_uci(mv), "g1f3");
    /// assert!(matches!(board.parse_san("Nf4"), Err(SanError::Illegal(_))));
    /// assert!(matches!(board.parse_san("Xf3"), Err(SanError::Syntax(_))));
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let core = text.trim_end_matches(['+', '#', '!', '?']);
        if core.is_empty() || core.len() > 8 || !core.is_ascii() {
            return Err(SanError::Syntax(text.into()));
        }
        let moves = self.legal_moves();
        let castle = match core {
            "--" | "Z0" | "0000" | "@@" => return Err(SanError::NullMove(text.into())),
            "O-O" | "0-0" => Some(CastleSide::King),
            "O-O-O" | "0-0-0" => Some(CastleSide::Queen),
            _ => None,
        };
        if let Some(side) = castle {
            return moves
                .iter()
                .copied()
                .find(|m| m.is_castling() && CastleSide::of(m.from(), m.to()) == side)
                .ok_or_else(|| SanError::Illegal(text.into()));
        }
        let parts = split(core.as_bytes()).ok_or_else(|| SanError::Syntax(text.into()))?;
        let file = match (parts.piece, parts.file) {
            (PieceKind::Pawn, None) => Some(parts.to.file()),
            (_, file) => file,
        };
        let fits = |m: &Move| {
            !m.is_castling()
                && m.to() == parts.to
                && self.piece_on(m.from()).map(|p| p.kind()) == Some(parts.piece)
                && file.is_none_or(|f| m.from().file() == f)
                && parts.rank.is_none_or(|r| m.from().rank() == r)
                && m.promotion_kind() == parts.promotion
        };
        let mut found = moves.iter().copied().filter(fits);
        match (found.next(), found.next()) {
            (None, _) => Err(SanError::Illegal(text.into())),
            (Some(mv), None) => Ok(mv),
            (Some(_), Some(_)) => Err(SanError::Ambiguous {
                text: text.into(),
                candidates: moves
                    .iter()
                    .copied()
                    .filter(fits)
                    .map(|m| self.to_san(m))
                    .collect(),
            }),
        }
    }

    /// The SAN text of a legal move (`Nf3`, `exd5`, `O-O`, `e8=Q+`, `Qh4#`).
    pub fn to_san(&self, mv: Move) -> String {
        let mut s = String::new();
        let from = mv.from();
        let to = mv.to();
        let piece = self.piece_on(from).map_or(PieceKind::Pawn, |p| p.kind());
        if mv.kind() == MoveKind::Castling {
            s.push_str(if to.file() > from.file() {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let capture = self.piece_on(to).is_some() || mv.is_en_passant();
            if piece == PieceKind::Pawn {
                if capture {
                    s.push(from.file().to_char());
                }
            } else {
                s.push(piece.to_char().to_ascii_uppercase());
                let others: Vec<Square> = self
                    .legal_moves()
                    .iter()
                    .filter(|m| {
                        m.to() == to
                            && m.from() != from
                            && !m.is_castling()
                            && self.piece_on(m.from()).map(|p| p.kind()) == Some(piece)
                    })
                    .map(|m| m.from())
                    .collect();
                if !others.is_empty() {
                    let same_file = others.iter().any(|o| o.file() == from.file());
                    let same_rank = others.iter().any(|o| o.rank() == from.rank());
                    if !same_file {
                        s.push(from.file().to_char());
                    } else if !same_rank {
                        s.push(from.rank().to_char());
                    } else {
                        s.push_str(&from.to_string());
                    }
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(k) = mv.promotion_kind() {
                s.push('=');
                s.push(k.to_char().to_ascii_uppercase());
            }
        }
        let mut after = *self;
        after.play(mv);
        if after.in_check() {
            s.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(board: &Board, san: &str) -> String {
        match board.parse_san(san) {
            Ok(mv) => board.to_uci(mv),
            Err(e) => panic!("{board}: {san}: {e}"),
        }
    }

    #[test]
    fn forms_found_in_pgn_files() {
        let b = Board::startpos();
        for (san, expected) in [
            ("e4", "e2e4"),
            ("Nf3", "g1f3"),
            ("Nf3!", "g1f3"),
            ("Nf3?!", "g1f3"),
            ("Nf3!!", "g1f3"),
            ("Nf3??", "g1f3"),
            ("Nf3+", "g1f3"),
            ("Ngf3", "g1f3"),
            ("Ng1f3", "g1f3"),
            ("N1f3", "g1f3"),
            ("e2e4", "e2e4"),
            ("Pe4", "e2e4"),
        ] {
            assert_eq!(uci(&b, san), expected, "{san}");
        }
        let kiwipete = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        for (san, expected) in [
            ("O-O", "e1g1"),
            ("0-0", "e1g1"),
            ("O-O-O", "e1c1"),
            ("0-0-0+", "e1c1"),
            ("dxe6", "d5e6"),
            ("de6", "d5e6"),
            ("Nxg6", "e5g6"),
            ("Ng6", "e5g6"),
            ("Bxa6", "e2a6"),
        ] {
            assert_eq!(uci(&kiwipete, san), expected, "{san}");
        }
    }

    #[test]
    fn promotion_and_en_passant() {
        let b = Board::from_fen("1n5k/P7/8/3pP3/8/8/8/6K1 w - d6 0 2", false).unwrap();
        assert_eq!(uci(&b, "exd6"), "e5d6");
        assert!(b.parse_san("exd6").unwrap().is_en_passant());
        assert!(matches!(b.parse_san("d6"), Err(SanError::Illegal(_))));
        for (san, expected) in [
            ("a8=Q", "a7a8q"),
            ("a8Q", "a7a8q"),
            ("a8=q", "a7a8q"),
            ("a8N+", "a7a8n"),
            ("axb8=R", "a7b8r"),
            ("axb8B", "a7b8b"),
            ("ab8=Q+", "a7b8q"),
        ] {
            assert_eq!(uci(&b, san), expected, "{san}");
        }
        // A pawn reaching the last rank must say what it becomes.
        assert!(matches!(b.parse_san("a8"), Err(SanError::Illegal(_))));
        assert!(matches!(b.parse_san("Ka8=Q"), Err(SanError::Syntax(_))));
        assert!(matches!(b.parse_san("a8=K"), Err(SanError::Syntax(_))));
    }

    #[test]
    fn ambiguity_counts_legal_moves_only() {
        let b = Board::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", false).unwrap();
        let err = b.parse_san("Nd2").unwrap_err();
        assert_eq!(
            err,
            SanError::Ambiguous {
                text: "Nd2".into(),
                candidates: vec!["Nbd2".into(), "Nfd2".into()],
            }
        );
        assert_eq!(err.to_string(), "ambiguous move 'Nd2' (Nbd2, Nfd2)");
        assert_eq!(uci(&b, "Nbd2"), "b1d2");
        assert_eq!(uci(&b, "Nfd2"), "f3d2");
        // The knight on f3 is pinned: only one Nd2 is legal, and it needs no disambiguation.
        let pinned = Board::from_fen("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", false).unwrap();
        assert_eq!(uci(&pinned, "Nd2"), "b1d2");
        assert_eq!(pinned.to_san(pinned.parse_san("Nd2").unwrap()), "Nd2");
    }

    #[test]
    fn chess960_castling() {
        // King on b1, rooks on a1 and h1.
        let b = Board::from_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", true).unwrap();
        assert_eq!(uci(&b, "O-O"), "b1h1");
        assert_eq!(uci(&b, "O-O-O"), "b1a1");
        assert_eq!(b.to_san(b.parse_san("O-O").unwrap()), "O-O");
        // A king move to the king's castling square is not castling.
        let k = Board::from_fen("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", true).unwrap();
        assert_eq!(uci(&k, "O-O"), "e1g1");
        assert!(k.parse_san("O-O").unwrap().is_castling());
        assert!(matches!(k.parse_san("O-O-O"), Err(SanError::Illegal(_))));
    }

    #[test]
    fn rejects_what_is_not_a_move() {
        let b = Board::startpos();
        for text in ["--", "Z0", "0000", "@@"] {
            assert_eq!(b.parse_san(text), Err(SanError::NullMove(text.into())));
        }
        for text in [
            "", "+", "!!", "e", "e9", "i4", "Nf", "N", "xe4", "Nxx3", "Nabc3", "e4=Q=", "O-O-O-O",
            "é4", "Ñf3", "e4 ", " e4", "e2-e4", "Nf3f3f3", "=Q", "K=Q", "1-0", "*",
        ] {
            let err = b.parse_san(text).expect_err(text);
            assert!(
                matches!(err, SanError::Syntax(_) | SanError::Illegal(_)),
                "{text:?}: {err:?}"
            );
            assert_eq!(err.text(), text);
        }
        assert!(matches!(b.parse_san("O-O"), Err(SanError::Illegal(_))));
        assert!(matches!(b.parse_san("e5"), Err(SanError::Illegal(_))));
        assert!(matches!(b.parse_san("Ke2"), Err(SanError::Illegal(_))));
        assert!(matches!(b.parse_san("Q"), Err(SanError::Syntax(_))));
    }
}
