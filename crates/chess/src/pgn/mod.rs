//! PGN (Portable Game Notation): reading game collections and writing annotated games.
//!
//! - [`read_games`] / [`Reader`] read a PGN text, game by game, into [`Game`]s: tag pairs in
//!   order, the start position (`FEN` and `SetUp` tags; `Variant "Chess960"` gives a Chess960
//!   board), the mainline as [`crate::Move`]s with their SAN as written, NAGs, comments and
//!   variations (nested to any depth up to [`MAX_NESTING`]), and the result. Import format is
//!   taken as found in the wild: a byte-order mark, CRLF, `%` escape lines, `;` comments, move
//!   numbers as `12.`, `12...` or `12.e4`, suffix annotations, games without tags or without a
//!   result.
//! - A game that cannot be read is a [`PgnError`] naming the game (number and tags), the line,
//!   and for a move its number, side and text (`12... Nf6`); the reader then skips to the
//!   game's result or the next tag section and reads on. It never panics, whatever the text.
//! - [`Game::to_pgn`] / [`write_games`] write export format; [`Game::push`] and
//!   [`Game::add_variation`] build or annotate a game move by move.
//!
//! ```
//! use engram_chess::pgn::{self, Nag};
//!
//! let text = "[Event \"Casual\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 *\n";
//! let mut game = pgn::read_games(text).remove(0).unwrap();
//! assert_eq!(game.sans, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5"]);
//!
//! // Annotate 4. Nxe5 (ply 6) as a mistake, with a comment and a better move instead.
//! let before = game.positions()[6];
//! game.notes[6].nags.push(Nag::MISTAKE);
//! game.notes[6].comments.push("-1.50/18".into());
//! game.add_variation(6, &[before.parse_san("O-O").unwrap()]).unwrap();
//! let out = game.to_pgn().unwrap();
//! assert!(out.starts_with("[Event \"Casual\"]\n[Site \"?\"]\n"));
//! assert!(out.contains("4. Nxe5 $2 { -1.50/18 } ( 4. O-O ) *\n"));
//! ```

mod error;
mod game;
mod lexer;
mod nag;
mod reader;
mod writer;

pub use error::{PgnError, PgnErrorKind};
pub use game::{move_label, Game, IllegalMove, Notes, Variation};
pub use nag::Nag;
pub use reader::{read_games, Reader};
pub use writer::{write_games, LINE_WIDTH, SEVEN_TAG_ROSTER};

/// The deepest nesting of variations the reader takes (a variation inside a variation inside
/// ...): deeper is an error, so that no text can make it use unbounded memory for boards.
pub const MAX_NESTING: usize = 100;
