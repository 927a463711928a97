//! Why a game could not be read: [`PgnError`] says which game (number and tags), where (line,
//! and for a move its number, side and text), and what.

use super::game::tag_value;
use crate::fen::FenError;
use crate::san::SanError;
use crate::types::Color;
use core::fmt;

/// What was wrong with a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A tag pair is malformed (what was found instead).
    Tag(String),
    /// A tag value runs to the end of its line without its closing quote.
    UnterminatedString,
    /// A `{` comment has no `}`: it runs to the end of the text or into the next game's tags.
    UnterminatedComment,
    /// The `FEN` tag is not a valid position.
    Fen {
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// `SetUp "1"` without a `FEN` tag.
    SetUpWithoutFen,
    /// A `Variant` this library does not play (only standard chess and Chess960).
    Variant(String),
    /// A move that cannot be played where it stands.
    Move {
        /// The move number of the position it was to be played in.
        number: u16,
        /// The side to move there.
        side: Color,
        /// The move as written.
        text: String,
        /// Why it was rejected.
        error: SanError,
        /// Whether it is in a variation (rather than the mainline).
        in_variation: bool,
    },
    /// A token that has no place where it stands (the text), e.g. `)` without `(`, a tag
    /// string in the movetext, a character PGN does not use.
    Unexpected(String),
    /// A `$` NAG without a number or above 255 (the text).
    BadNag(String),
    /// A `(` variation before any move of its line.
    VariationWithoutMove,
    /// A `(` variation without its `)` (at the result, the next game or the end of the text).
    UnterminatedVariation,
    /// Variations nested deeper than [`super::MAX_NESTING`].
    TooDeep,
}

/// A game that could not be read.
///
/// Its `Display` names the game (number, and players when the tags give them), the line, and
/// for a move its number, side and text: `game 3 (Tal - Spassky), line 14: 12... Nf6: illegal
/// move 'Nf6'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the text, from 1 (games that could not be read count too).
    pub game: usize,
    /// The line (from 1) where the problem is.
    pub line: usize,
    /// The tag pairs read before the problem (all of them unless the tags were the problem).
    pub tags: Vec<(String, String)>,
    /// What the problem is.
    pub kind: PgnErrorKind,
}

impl PgnError {
    /// The value of the first tag called `name` read before the problem.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }

    /// For a move error, the move with its number and side: `12... Nf6`.
    pub fn move_label(&self) -> Option<String> {
        match &self.kind {
            PgnErrorKind::Move {
                number, side, text, ..
            } => {
                let dots = if *side == Color::White { "." } else { "..." };
                Some(format!("{number}{dots} {text}"))
            }
            _ => None,
        }
    }
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Tag(s) => write!(f, "malformed tag pair: {s}"),
            PgnErrorKind::UnterminatedString => f.write_str("tag value without its closing quote"),
            PgnErrorKind::UnterminatedComment => f.write_str("comment '{' without its '}'"),
            PgnErrorKind::Fen { fen, error } => write!(f, "bad FEN tag \"{fen}\": {error}"),
            PgnErrorKind::SetUpWithoutFen => f.write_str("SetUp \"1\" without a FEN tag"),
            PgnErrorKind::Variant(v) => write!(f, "unsupported variant \"{v}\""),
            PgnErrorKind::Move {
                number,
                side,
                text,
                error,
                in_variation,
            } => {
                let dots = if *side == Color::White { "." } else { "..." };
                let place = if *in_variation {
                    " (in a variation)"
                } else {
                    ""
                };
                write!(f, "{number}{dots} {text}{place}: {error}")
            }
            PgnErrorKind::Unexpected(s) => write!(f, "unexpected '{s}'"),
            PgnErrorKind::BadNag(s) => write!(f, "bad NAG '{s}'"),
            PgnErrorKind::VariationWithoutMove => f.write_str("variation '(' before any move"),
            PgnErrorKind::UnterminatedVariation => f.write_str("variation '(' without its ')'"),
            PgnErrorKind::TooDeep => {
                write!(f, "variations nested deeper than {}", super::MAX_NESTING)
            }
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let (Some(white), Some(black)) = (self.tag("White"), self.tag("Black")) {
            write!(f, " ({white} - {black})")?;
        }
        write!(f, ", line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for PgnError {}
