//! Reading PGN text game by game. A game that cannot be read becomes a [`PgnError`] and the
//! reader resynchronises: it skips to the game's result token or the next tag section (or, for a
//! comment without its `}`, to the next line that is a whole tag pair) and goes on.

use super::error::{PgnError, PgnErrorKind};
use super::game::{tag_value, Game, Notes, Variation};
use super::lexer::{LexError, LexErrorKind, Lexer, Tok, Token};
use super::{Nag, MAX_NESTING};
use crate::board::Board;
use crate::chess_move::Move;
use crate::fen::STARTPOS;

/// Reads every game of `text`: the n-th item is game n, read or not.
///
/// ```
/// use engram_chess::pgn;
/// let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
///             1. d4 d5 2. Nd5 *\n\n1. c4 *\n";
/// let games = pgn::read_games(text);
/// assert_eq!(games.len(), 3);
/// let first = games[0].as_ref().unwrap();
/// assert_eq!(first.tag("White"), Some("A"));
/// assert_eq!((first.moves.len(), first.result.as_str()), (7, "1-0"));
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!(err.to_string(), "game 2, line 6: 2. Nd5: illegal move 'Nd5'");
/// assert_eq!(games[2].as_ref().unwrap().sans, ["c4"]);
/// ```
pub fn read_games(text: &str) -> Vec<Result<Game, PgnError>> {
    Reader::new(text).collect()
}

/// An iterator over the games of a PGN text: the n-th item is game n, read or not. It never
/// panics and always ends, whatever the text.
pub struct Reader<'a> {
    lex: Lexer<'a>,
    games: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text` (a byte-order mark is skipped; CRLF line ends are fine).
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            lex: Lexer::new(text),
            games: 0,
        }
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if matches!(self.lex.peek(), Ok(Token { tok: Tok::Eof, .. })) {
                return None;
            }
            // Each call consumes at least one token, so this loop ends.
            if let Some(game) = self.game(self.games + 1) {
                self.games += 1;
                return Some(game);
            }
        }
    }
}

/// Whether `s` is a game termination marker.
fn is_result(s: &str) -> bool {
    matches!(s, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// A comment's text with its whitespace runs collapsed to one space.
fn normalize(comment: &str) -> String {
    comment.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The NAG of a move's suffix (`e4!?`, `Nf3+!`), if it has a known one.
fn suffix_nag(san: &str) -> Option<Nag> {
    let marks = ['!', '?'];
    let core = san.trim_end_matches(['+', '#']);
    let suffix = &core[core.trim_end_matches(marks).len()..];
    let suffix = if suffix.is_empty() {
        &san[san.trim_end_matches(marks).len()..]
    } else {
        suffix
    };
    Nag::from_suffix(suffix)
}

/// Whether a `Variant` tag value means Chess960 (`Ok(true)`), standard chess (`Ok(false)`) or
/// something else.
pub(super) fn variant_is_chess960(variant: &str) -> Result<bool, PgnErrorKind> {
    let name: String = variant
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .collect::<String>()
        .to_ascii_lowercase();
    match name.as_str() {
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Ok(true),
        "" | "standard" | "chess" | "normal" | "fromposition" => Ok(false),
        _ => Err(PgnErrorKind::Variant(variant.into())),
    }
}

/// The start position the tags give.
fn start_board(tags: &[(String, String)]) -> Result<Board, PgnErrorKind> {
    let chess960 = match tag_value(tags, "Variant") {
        Some(v) => variant_is_chess960(v)?,
        None => false,
    };
    match (tag_value(tags, "FEN"), tag_value(tags, "SetUp")) {
        (Some(fen), _) => {
            Board::from_fen(fen.trim(), chess960).map_err(|error| PgnErrorKind::Fen {
                fen: fen.into(),
                error,
            })
        }
        (None, Some(s)) if s.trim() == "1" => Err(PgnErrorKind::SetUpWithoutFen),
        (None, _) => Ok(Board::from_fen(STARTPOS, chess960).expect("the start position is valid")),
    }
}

/// A line of movetext being read: the game's mainline or a variation.
struct Frame {
    comments: Vec<String>,
    moves: Vec<Move>,
    sans: Vec<String>,
    notes: Vec<Notes>,
    /// The position after the last move.
    board: Board,
    /// The position before the last move, where a variation of it starts.
    before: Board,
    /// The line of the `(` that opened it (for the mainline, where the movetext starts).
    opened: usize,
}

impl Frame {
    fn new(board: Board, opened: usize) -> Frame {
        Frame {
            opened,
            comments: Vec::new(),
            moves: Vec::new(),
            sans: Vec::new(),
            notes: Vec::new(),
            board,
            before: board,
        }
    }

    fn into_variation(self) -> Variation {
        Variation {
            comments: self.comments,
            moves: self.moves,
            sans: self.sans,
            notes: self.notes,
        }
    }
}

/// A problem found while reading a game, before it is dressed as a [`PgnError`].
struct Fault {
    kind: PgnErrorKind,
    line: usize,
    /// Whether the rest of the game is still ahead and must be skipped.
    skip_rest: bool,
}

impl From<LexError> for Fault {
    fn from(e: LexError) -> Fault {
        let kind = match e.kind {
            LexErrorKind::UnterminatedString => PgnErrorKind::UnterminatedString,
            LexErrorKind::UnterminatedComment => PgnErrorKind::UnterminatedComment,
            LexErrorKind::BadNag(s) => PgnErrorKind::BadNag(s),
            LexErrorKind::Unexpected(s) => PgnErrorKind::Unexpected(s),
        };
        // After an unterminated comment the lexer already stands at the next game.
        let skip_rest = kind != PgnErrorKind::UnterminatedComment;
        Fault {
            kind,
            line: e.line,
            skip_rest,
        }
    }
}

/// How a token reads in an error message.
fn describe(tok: &Tok<'_>) -> String {
    match tok {
        Tok::LBracket => "'['".into(),
        Tok::RBracket => "']'".into(),
        Tok::LParen => "'('".into(),
        Tok::RParen => "')'".into(),
        Tok::Period => "'.'".into(),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Symbol(s) => format!("'{s}'"),
        Tok::Nag(n) => format!("'{n}'"),
        Tok::Comment(_) => "a comment".into(),
        Tok::Eof => "the end of the text".into(),
    }
}

impl Reader<'_> {
    /// Reads game `number`: `None` when there was nothing but comments and stray move numbers
    /// (no tags, no move, no result), which is not a game.
    fn game(&mut self, number: usize) -> Option<Result<Game, PgnError>> {
        let mut tags = Vec::new();
        let mut tag_lines = Vec::new();
        let mut leading = Vec::new();
        loop {
            match self.lex.peek() {
                Ok(Token {
                    tok: Tok::LBracket,
                    line,
                }) => {
                    let line = *line;
                    self.lex.next_token().ok();
                    if let Err(fault) = self.tag_pair(&mut tags) {
                        if fault.skip_rest {
                            self.lex.skip_tag_lines();
                            self.skip_movetext();
                        }
                        return Some(Err(PgnError {
                            game: number,
                            line: fault.line,
                            tags,
                            kind: fault.kind,
                        }));
                    }
                    tag_lines.push(line);
                    // Comments before a tag pair are not part of any game.
                    leading.clear();
                }
                Ok(Token {
                    tok: Tok::Comment(c),
                    ..
                }) => {
                    leading.push(normalize(c));
                    self.lex.next_token().ok();
                }
                _ => break,
            }
        }
        leading.retain(|c| !c.is_empty());
        let start = match start_board(&tags) {
            Ok(board) => board,
            Err(kind) => {
                let name = match kind {
                    PgnErrorKind::Variant(_) => "Variant",
                    PgnErrorKind::SetUpWithoutFen => "SetUp",
                    _ => "FEN",
                };
                let line = tags
                    .iter()
                    .position(|(n, _)| n == name)
                    .map_or(self.lex.line(), |i| tag_lines[i]);
                self.skip_movetext();
                return Some(Err(PgnError {
                    game: number,
                    line,
                    tags,
                    kind,
                }));
            }
        };
        match self.movetext(start, leading) {
            Ok((main, result)) => {
                if tags.is_empty() && main.moves.is_empty() && result.is_none() {
                    return None;
                }
                let result = result
                    .or_else(|| {
                        tag_value(&tags, "Result")
                            .filter(|r| is_result(r))
                            .map(String::from)
                    })
                    .unwrap_or_else(|| "*".into());
                Some(Ok(Game {
                    tags,
                    start,
                    comments: main.comments,
                    moves: main.moves,
                    sans: main.sans,
                    notes: main.notes,
                    result,
                }))
            }
            Err(fault) => {
                if fault.skip_rest {
                    self.skip_movetext();
                }
                Some(Err(PgnError {
                    game: number,
                    line: fault.line,
                    tags,
                    kind: fault.kind,
                }))
            }
        }
    }

    /// The rest of a tag pair after its `[`.
    fn tag_pair(&mut self, tags: &mut Vec<(String, String)>) -> Result<(), Fault> {
        let bad = |found: &Token<'_>, wanted: &str| Fault {
            kind: PgnErrorKind::Tag(format!("expected {wanted}, found {}", describe(&found.tok))),
            line: found.line,
            skip_rest: true,
        };
        let name = self.lex.next_token()?;
        let name = match name.tok {
            Tok::Symbol(s) if s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => s,
            _ => return Err(bad(&name, "a tag name")),
        };
        let value = self.lex.next_token()?;
        let value = match value.tok {
            Tok::Str(s) => s,
            _ => return Err(bad(&value, "a quoted tag value")),
        };
        let close = self.lex.next_token()?;
        if close.tok != Tok::RBracket {
            return Err(bad(&close, "']'"));
        }
        tags.push((name.into(), value));
        Ok(())
    }

    /// Skips the rest of a game that cannot be read: up to and including its result token, or
    /// up to the next tag section or the end of the text.
    fn skip_movetext(&mut self) {
        loop {
            if matches!(
                self.lex.peek(),
                Ok(Token {
                    tok: Tok::LBracket | Tok::Eof,
                    ..
                })
            ) {
                return;
            }
            match self.lex.next_token() {
                Ok(Token {
                    tok: Tok::Symbol(s),
                    ..
                }) if is_result(s) => return,
                Err(LexError {
                    kind: LexErrorKind::UnterminatedComment,
                    ..
                }) => return,
                _ => {}
            }
        }
    }

    /// The movetext of a game from `start`: its mainline (variations attached) and its result
    /// token, if it has one (a game may end at the next tag section or the end of the text).
    fn movetext(
        &mut self,
        start: Board,
        leading: Vec<String>,
    ) -> Result<(Variation, Option<String>), Fault> {
        let mut stack = vec![Frame::new(start, self.lex.line())];
        stack[0].comments = leading;
        let mut result = None;
        loop {
            if matches!(
                self.lex.peek(),
                Ok(Token {
                    tok: Tok::LBracket,
                    ..
                })
            ) {
                break;
            }
            let Token { tok, line } = self.lex.next_token()?;
            let fault = |kind| Fault {
                kind,
                line,
                skip_rest: true,
            };
            let depth = stack.len() - 1;
            let in_variation = depth > 0;
            let frame = stack.last_mut().expect("the mainline is never popped");
            match tok {
                Tok::Eof | Tok::LBracket => break,
                Tok::Symbol(s) if is_result(s) => {
                    if in_variation {
                        return Err(Fault {
                            kind: PgnErrorKind::UnterminatedVariation,
                            line: frame.opened,
                            skip_rest: false,
                        });
                    }
                    result = Some(s.to_string());
                    break;
                }
                // Move numbers: `12`, then `.` or `...` (or nothing).
                Tok::Symbol(s) if s.bytes().all(|b| b.is_ascii_digit()) => {}
                Tok::Period => {}
                Tok::Symbol(s) => match frame.board.parse_san(s) {
                    Ok(mv) => {
                        frame.before = frame.board;
                        frame.board.play(mv);
                        frame.moves.push(mv);
                        frame.sans.push(s.into());
                        frame.notes.push(Notes {
                            nags: suffix_nag(s).into_iter().collect(),
                            ..Notes::default()
                        });
                    }
                    Err(error) => {
                        return Err(fault(PgnErrorKind::Move {
                            number: frame.board.fullmove_number(),
                            side: frame.board.side_to_move(),
                            text: s.into(),
                            error,
                            in_variation,
                        }))
                    }
                },
                // A NAG before the first move of a line annotates nothing: dropped.
                Tok::Nag(nag) => {
                    if let Some(notes) = frame.notes.last_mut() {
                        notes.nags.push(nag);
                    }
                }
                Tok::Comment(c) => {
                    let c = normalize(c);
                    if !c.is_empty() {
                        match frame.notes.last_mut() {
                            Some(notes) => notes.comments.push(c),
                            None => frame.comments.push(c),
                        }
                    }
                }
                Tok::LParen => {
                    if frame.moves.is_empty() {
                        return Err(fault(PgnErrorKind::VariationWithoutMove));
                    }
                    if depth >= MAX_NESTING {
                        return Err(fault(PgnErrorKind::TooDeep));
                    }
                    let before = frame.before;
                    stack.push(Frame::new(before, line));
                }
                Tok::RParen => {
                    if !in_variation {
                        return Err(fault(PgnErrorKind::Unexpected(")".into())));
                    }
                    let variation = stack.pop().expect("in a variation").into_variation();
                    let parent = stack.last_mut().expect("the mainline is never popped");
                    parent
                        .notes
                        .last_mut()
                        .expect("a variation follows a move")
                        .variations
                        .push(variation);
                }
                Tok::RBracket => return Err(fault(PgnErrorKind::Unexpected("]".into()))),
                Tok::Str(s) => return Err(fault(PgnErrorKind::Unexpected(format!("\"{s}\"")))),
            }
        }
        if let Some(open) = stack.get(1..).and_then(|s| s.last()) {
            return Err(Fault {
                kind: PgnErrorKind::UnterminatedVariation,
                line: open.opened,
                skip_rest: false,
            });
        }
        let main = stack.pop().expect("the mainline").into_variation();
        Ok((main, result))
    }
}
