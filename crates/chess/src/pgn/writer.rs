//! Writing games in PGN export format: the Seven Tag Roster first, then the set-up tags and the
//! others; movetext with SAN generated from the board, move numbers (`3...` after a comment or a
//! variation), `$n` NAGs, `{ }` comments, `( )` variations, the result, lines of at most 80
//! characters, and a blank line after each game.

use super::game::{Game, IllegalMove, Notes};
use super::reader::variant_is_chess960;
use crate::board::Board;
use crate::chess_move::Move;
use crate::types::Color;

/// The longest movetext line written.
pub const LINE_WIDTH: usize = 80;

/// The Seven Tag Roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Comment words longer than this are cut (a word cannot be wrapped), leaving room for the
/// space that protects a line starting with `%` or `[`.
const LONGEST_WORD: usize = LINE_WIDTH - 2;

/// Movetext tokens laid out in lines of at most [`LINE_WIDTH`] characters.
struct Lines {
    text: String,
    /// Characters on the current line.
    width: usize,
}

impl Lines {
    fn token(&mut self, token: &str) {
        let len = token.chars().count();
        if self.width > 0 && self.width + 1 + len > LINE_WIDTH {
            self.text.push('\n');
            self.width = 0;
        }
        // A space before it, even at the start of a line: `%` in column 1 starts an escape line,
        // and a comment line that looks like a tag pair would end the comment for our reader.
        if self.width > 0 || token.starts_with(['%', '[']) {
            self.text.push(' ');
            self.width += 1;
        }
        self.text.push_str(token);
        self.width += len;
    }

    /// A `{ }` comment: whitespace runs collapse to one space, `}` (which would end it) becomes
    /// `)`, and words too long for a line are cut.
    fn comment(&mut self, text: &str) {
        if text.split_whitespace().next().is_none() {
            return;
        }
        self.token("{");
        for word in text.split_whitespace() {
            let word = word.replace('}', ")");
            let chars: Vec<char> = word.chars().collect();
            for piece in chars.chunks(LONGEST_WORD) {
                self.token(&piece.iter().collect::<String>());
            }
        }
        self.token("}");
    }
}

/// Tag values are one line, with `\` and `"` escaped.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A tag name as PGN allows it (letters, digits, `_`); other characters become `_`.
fn tag_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes a line of movetext (the mainline or a variation) from `board`.
fn write_line(
    lines: &mut Lines,
    mut board: Board,
    comments: &[String],
    moves: &[Move],
    notes: &[Notes],
    in_variation: bool,
) -> Result<(), IllegalMove> {
    for c in comments {
        lines.comment(c);
    }
    let mut number_due = true;
    for (i, &mv) in moves.iter().enumerate() {
        if !board.is_legal(mv) {
            return Err(IllegalMove {
                number: board.fullmove_number(),
                side: board.side_to_move(),
                uci: board.to_uci(mv),
                in_variation,
            });
        }
        // A move number stays on the line of its move.
        let n = board.fullmove_number();
        let san = board.to_san(mv);
        match board.side_to_move() {
            Color::White => lines.token(&format!("{n}. {san}")),
            Color::Black if number_due => lines.token(&format!("{n}... {san}")),
            Color::Black => lines.token(&san),
        }
        number_due = false;
        let before = board;
        board.play(mv);
        let Some(notes) = notes.get(i) else { continue };
        for nag in &notes.nags {
            lines.token(&nag.to_string());
        }
        for c in &notes.comments {
            if c.split_whitespace().next().is_some() {
                lines.comment(c);
                number_due = true;
            }
        }
        for v in &notes.variations {
            if v.moves.is_empty() && v.comments.is_empty() {
                continue;
            }
            lines.token("(");
            write_line(lines, before, &v.comments, &v.moves, &v.notes, true)?;
            lines.token(")");
            number_due = true;
        }
    }
    Ok(())
}

impl Game {
    /// The tag pairs as exported: the Seven Tag Roster in order (`?` when missing, `????.??.??`
    /// for the date, and `Result` always equal to [`Game::result`]); then `Variant` when the
    /// start is in Chess960 mode (`Chess960` unless the game's own tag already says so; a
    /// variant tag that is neither standard nor Chess960 is dropped); then `SetUp "1"` and
    /// `FEN` when the start is not the standard start position (the FEN written from
    /// [`Game::start`], whatever the tags said); then the other tags in order. Duplicate names
    /// are written once; characters a tag name cannot hold become `_`.
    pub fn export_tags(&self) -> Vec<(String, String)> {
        let result = self.export_result();
        let mut out: Vec<(String, String)> = SEVEN_TAG_ROSTER
            .iter()
            .map(|&name| {
                let value = match name {
                    "Result" => result,
                    "Date" => self.tag(name).unwrap_or("????.??.??"),
                    _ => self.tag(name).unwrap_or("?"),
                };
                (name.to_string(), value.to_string())
            })
            .collect();
        let variant = self.tag("Variant");
        if self.start.is_chess960() {
            let v = variant.filter(|v| variant_is_chess960(v) == Ok(true));
            out.push(("Variant".into(), v.unwrap_or("Chess960").into()));
        } else if let Some(v) = variant.filter(|v| variant_is_chess960(v) == Ok(false)) {
            out.push(("Variant".into(), v.into()));
        }
        let mut standard = self.start;
        standard.set_chess960(false);
        if standard != Board::startpos() {
            out.push(("SetUp".into(), "1".into()));
            out.push(("FEN".into(), self.start.to_fen()));
        }
        for (name, value) in &self.tags {
            let name = tag_name(name);
            let handled = ["Variant", "SetUp", "FEN"].contains(&name.as_str());
            if name.is_empty() || handled || out.iter().any(|(n, _)| *n == name) {
                continue;
            }
            out.push((name, value.clone()));
        }
        out
    }

    /// [`Game::result`] if it is a termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), else `*`.
    fn export_result(&self) -> &str {
        match self.result.trim() {
            r @ ("1-0" | "0-1" | "1/2-1/2" | "*") => r,
            _ => "*",
        }
    }

    /// The game in PGN export format: tag pairs ([`Game::export_tags`]), a blank line, the
    /// movetext (SAN generated from the board, whatever [`Game::sans`] holds) wrapped at 80
    /// characters, the result, and a blank line, so that games written one after another make
    /// a PGN file. An error if a move of the mainline or a variation is not legal in turn.
    pub fn to_pgn(&self) -> Result<String, IllegalMove> {
        let mut out = String::new();
        for (name, value) in self.export_tags() {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
        }
        out.push('\n');
        let mut lines = Lines {
            text: String::new(),
            width: 0,
        };
        write_line(
            &mut lines,
            self.start,
            &self.comments,
            &self.moves,
            &self.notes,
            false,
        )?;
        lines.token(self.export_result());
        out.push_str(&lines.text);
        out.push_str("\n\n");
        Ok(out)
    }
}

/// Several games in PGN export format, one after another.
pub fn write_games(games: &[Game]) -> Result<String, IllegalMove> {
    let mut out = String::new();
    for game in games {
        out.push_str(&game.to_pgn()?);
    }
    Ok(out)
}
