//! A game as PGN holds it: tag pairs, the start position, the mainline with its SAN, NAGs,
//! comments and variations, and the result. The reader fills it in; a caller can also build or
//! extend one (`push`, `add_variation`) and write it out ([`Game::to_pgn`]).

use super::Nag;
use crate::board::Board;
use crate::chess_move::Move;
use crate::types::Color;
use core::fmt;

/// What follows a move in the movetext: its NAGs, the comments after it, and the variations
/// that are alternatives to it (they start from the position before the move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Annotation glyphs, in order (a suffix like `e4!?` is read as [`Nag::SPECULATIVE`]).
    pub nags: Vec<Nag>,
    /// Comments after the move, whitespace runs collapsed to one space.
    pub comments: Vec<String>,
    /// Alternatives to the move, each starting from the position before it.
    pub variations: Vec<Variation>,
}

/// A variation: moves replacing one move of the line it hangs from, played from the position
/// before that move. It has the shape of a game's movetext, so variations nest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// Comments before its first move.
    pub comments: Vec<String>,
    /// Its moves, legal in turn from the position before the move it replaces.
    pub moves: Vec<Move>,
    /// The SAN of each move: as written in the file when read, generated when built.
    pub sans: Vec<String>,
    /// What follows each move (may be shorter than `moves`; missing entries are empty).
    pub notes: Vec<Notes>,
}

/// A move that is not legal where a game or variation puts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move number of the position it was to be played in.
    pub number: u16,
    /// The side to move there.
    pub side: Color,
    /// The move in UCI.
    pub uci: String,
    /// Whether it is in a variation (rather than the mainline).
    pub in_variation: bool,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.side == Color::White {
            "."
        } else {
            "..."
        };
        write!(f, "illegal move {}{dots} {}", self.number, self.uci)?;
        if self.in_variation {
            f.write_str(" in a variation")?;
        }
        Ok(())
    }
}

impl std::error::Error for IllegalMove {}

/// `12. e4` or `12... e5`: the move number and side of `board`, then `san`.
pub fn move_label(board: &Board, san: &str) -> String {
    let dots = if board.side_to_move() == Color::White {
        "."
    } else {
        "..."
    };
    format!("{}{dots} {san}", board.fullmove_number())
}

/// Plays `mv` on `board` if it is legal there, else says where it failed.
fn play_checked(board: &mut Board, mv: Move, in_variation: bool) -> Result<(), IllegalMove> {
    if !board.is_legal(mv) {
        return Err(IllegalMove {
            number: board.fullmove_number(),
            side: board.side_to_move(),
            uci: board.to_uci(mv),
            in_variation,
        });
    }
    board.play(mv);
    Ok(())
}

impl Variation {
    /// The variation of `moves` from `board` (the position before the move it replaces), with
    /// their SAN; an error if a move is not legal in turn.
    pub fn new(board: &Board, moves: &[Move]) -> Result<Variation, IllegalMove> {
        let mut board = *board;
        let mut sans = Vec::with_capacity(moves.len());
        for &mv in moves {
            let before = board;
            play_checked(&mut board, mv, true)?;
            sans.push(before.to_san(mv));
        }
        Ok(Variation {
            comments: Vec::new(),
            moves: moves.to_vec(),
            sans,
            notes: vec![Notes::default(); moves.len()],
        })
    }
}

/// A game: what one PGN game holds, and what [`Game::to_pgn`] writes.
///
/// `moves`, `sans` and `notes` run in parallel (`notes` may be shorter; missing entries are
/// empty). The moves are legal in turn from `start`: the reader guarantees it, the building
/// methods check it, and the writer checks it again.
///
/// ```
/// use engram_chess::pgn::{Game, Nag};
/// use engram_chess::Board;
///
/// let mut game = Game::new(Board::startpos());
/// game.set_tag("White", "Engram");
/// let e4 = Board::startpos().parse_san("e4").unwrap();
/// game.push(e4).unwrap().nags.push(Nag::GOOD);
/// let c5 = game.end().parse_san("c5").unwrap();
/// game.push(c5).unwrap().comments.push("the Sicilian".into());
/// game.result = "*".into();
/// assert!(game.to_pgn().unwrap().contains("1. e4 $1 c5 { the Sicilian } *"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The tag pairs, in the order read (or set).
    pub tags: Vec<(String, String)>,
    /// The position before the first move (from the `FEN` tag, or the standard start), in
    /// Chess960 mode when the `Variant` tag says so.
    pub start: Board,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The mainline.
    pub moves: Vec<Move>,
    /// The SAN of each mainline move: as written in the file when read (suffixes included),
    /// generated when pushed.
    pub sans: Vec<String>,
    /// What follows each mainline move.
    pub notes: Vec<Notes>,
    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`. When the movetext has none
    /// the reader takes the `Result` tag, else `*`.
    pub result: String,
}

impl Game {
    /// An empty game from `start`: no tags, no moves, result `*`.
    pub fn new(start: Board) -> Game {
        Game {
            tags: Vec::new(),
            start,
            comments: Vec::new(),
            moves: Vec::new(),
            sans: Vec::new(),
            notes: Vec::new(),
            result: "*".into(),
        }
    }

    /// The value of the first tag called `name` (exact match), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_value(&self.tags, name)
    }

    /// Sets tag `name` to `value`: replaces the first tag of that name, or adds one at the end.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.into(),
            None => self.tags.push((name.into(), value.into())),
        }
    }

    /// The position before each mainline move, then the position after the last: one more
    /// board than moves. Stops early at a move that is not legal (only a game changed by hand
    /// can hold one).
    pub fn positions(&self) -> Vec<Board> {
        let mut boards = Vec::with_capacity(self.moves.len() + 1);
        let mut board = self.start;
        boards.push(board);
        for &mv in &self.moves {
            if play_checked(&mut board, mv, false).is_err() {
                break;
            }
            boards.push(board);
        }
        boards
    }

    /// The position after the mainline.
    pub fn end(&self) -> Board {
        *self.positions().last().expect("positions holds the start")
    }

    /// `12... Nf6`: mainline move `ply` (0-based) with its move number and side, as errors and
    /// reports name moves. `None` past the end.
    pub fn move_label(&self, ply: usize) -> Option<String> {
        let board = self.positions().get(ply).copied()?;
        Some(move_label(&board, self.sans.get(ply)?))
    }

    /// Appends a legal move to the mainline (its SAN generated) and returns its notes, to add
    /// NAGs, comments or variations to.
    pub fn push(&mut self, mv: Move) -> Result<&mut Notes, IllegalMove> {
        let before = self.end();
        let mut after = before;
        play_checked(&mut after, mv, false)?;
        self.sans.resize(self.moves.len(), String::new());
        self.notes.resize_with(self.moves.len(), Notes::default);
        self.moves.push(mv);
        self.sans.push(before.to_san(mv));
        self.notes.push(Notes::default());
        Ok(self.notes.last_mut().expect("just pushed"))
    }

    /// Adds `moves` as a variation of mainline move `ply` (0-based): an alternative to it,
    /// played from the position before it. Returns the variation, to annotate. An error if
    /// `ply` is past the end or a move is not legal in turn.
    pub fn add_variation(
        &mut self,
        ply: usize,
        moves: &[Move],
    ) -> Result<&mut Variation, IllegalMove> {
        let positions = self.positions();
        let Some(before) = positions.get(ply).filter(|_| ply < self.moves.len()) else {
            let end = positions.last().expect("positions holds the start");
            return Err(IllegalMove {
                number: end.fullmove_number(),
                side: end.side_to_move(),
                uci: moves.first().map_or("-".into(), |&m| end.to_uci(m)),
                in_variation: true,
            });
        };
        let variation = Variation::new(before, moves)?;
        if self.notes.len() <= ply {
            self.notes.resize_with(ply + 1, Notes::default);
        }
        let variations = &mut self.notes[ply].variations;
        variations.push(variation);
        Ok(variations.last_mut().expect("just pushed"))
    }
}

/// The value of the first tag called `name` in `tags`.
pub(crate) fn tag_value<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}
