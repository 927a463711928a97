//! How `engram analyse` writes for people and for programs: scores in pawns from White's
//! view (`+0.35`, `#3`, `#-2`), lines in SAN with move numbers, and a small JSON writer (one
//! object per line; no dependency needed for that).

use crate::search::tt::display_cp;
use crate::search::{MATE, MATE_BOUND};
use engram_chess::{Board, Color, Move};

/// A score from the side to move's view as White's view.
pub fn white_view(board: &Board, score: i32) -> i32 {
    match board.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// Win, draw and loss per mille for White, for a score from the side to move's view (the
/// model of [`crate::eval::wdl`], as `UCI_ShowWDL` reports it).
pub fn white_wdl(board: &Board, score: i32) -> (u32, u32, u32) {
    let (w, d, l) = crate::eval::wdl::MODEL.wdl(score, crate::eval::wdl::material(board));
    match board.side_to_move() {
        Color::White => (w, d, l),
        Color::Black => (l, d, w),
    }
}

/// White's chances for people: `White wins 31%, draws 42%, loses 27%`.
pub fn chances(board: &Board, score: i32) -> String {
    let (w, d, l) = white_wdl(board, score);
    let pct = |x: u32| (x + 5) / 10;
    format!(
        "White wins {}%, draws {}%, loses {}%",
        pct(w),
        pct(d),
        pct(l)
    )
}

/// Mate in N moves (positive: White mates), if `score` (White's view) is a mate score.
pub fn mate_moves(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score + 1) / 2))
    } else {
        None
    }
}

/// A White's-view score for people: `+0.35`, `-1.20`, `0.00`, `#3` (White mates in 3),
/// `#-2` (Black mates in 2).
pub fn pawns(score: i32) -> String {
    match mate_moves(score) {
        Some(n) => format!("#{n}"),
        None if score == 0 => "0.00".into(),
        None => format!("{:+.2}", f64::from(display_cp(score)) / 100.0),
    }
}

/// The legal prefix of `moves` from `board`, in SAN with move numbers: `12. e4 e5 13. Nf3`,
/// or `12... e5 13. Nf3` when Black moves first.
pub fn san_line(board: &Board, moves: &[Move]) -> String {
    let mut out = String::new();
    let mut b = *board;
    for (i, &mv) in moves.iter().enumerate() {
        if !b.is_legal(mv) {
            break;
        }
        let number = b.fullmove_number();
        match b.side_to_move() {
            Color::White => out += &format!("{number}. "),
            Color::Black if i == 0 => out += &format!("{number}... "),
            Color::Black => {}
        }
        out += &b.to_san(mv);
        out.push(' ');
        b.play(mv);
    }
    out.truncate(out.trim_end().len());
    out
}

/// The legal prefix of `moves` from `board` as SAN and as UCI texts.
pub fn move_texts(board: &Board, moves: &[Move]) -> (Vec<String>, Vec<String>) {
    let (mut san, mut uci) = (Vec::new(), Vec::new());
    let mut b = *board;
    for &mv in moves {
        if !b.is_legal(mv) {
            break;
        }
        san.push(b.to_san(mv));
        uci.push(b.to_uci(mv));
        b.play(mv);
    }
    (san, uci)
}

/// A count for people: `950`, `12.3 k`, `4.56 M`, `1.20 G`.
pub fn count(n: u64) -> String {
    let n = n as f64;
    if n < 1e3 {
        format!("{n}")
    } else if n < 1e6 {
        format!("{:.1} k", n / 1e3)
    } else if n < 1e9 {
        format!("{:.2} M", n / 1e6)
    } else {
        format!("{:.2} G", n / 1e9)
    }
}

/// One JSON object, written field by field.
#[derive(Default)]
pub struct Json {
    fields: Vec<String>,
}

/// `text` as a JSON string literal.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            '\n' => out += "\\n",
            '\r' => out += "\\r",
            '\t' => out += "\\t",
            c if (c as u32) < 0x20 => out += &format!("\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Json {
    /// An empty object.
    pub fn new() -> Json {
        Json::default()
    }

    /// Adds a field whose value is already JSON text.
    pub fn raw(mut self, key: &str, value: impl Into<String>) -> Json {
        self.fields.push(format!("{}:{}", quote(key), value.into()));
        self
    }

    /// Adds a string field.
    pub fn str(self, key: &str, value: &str) -> Json {
        self.raw(key, quote(value))
    }

    /// Adds a number field.
    pub fn num(self, key: &str, value: impl ToString) -> Json {
        self.raw(key, value.to_string())
    }

    /// Adds an array of strings.
    pub fn strs(self, key: &str, values: &[String]) -> Json {
        let items: Vec<String> = values.iter().map(|v| quote(v)).collect();
        self.raw(key, format!("[{}]", items.join(",")))
    }

    /// Adds a White's-view score as `{"cp":N}` or `{"mate":N}`.
    pub fn score(self, key: &str, white_score: i32) -> Json {
        let value = match mate_moves(white_score) {
            Some(n) => format!("{{\"mate\":{n}}}"),
            None => format!("{{\"cp\":{white_score}}}"),
        };
        self.raw(key, value)
    }

    /// The object as one line of JSON.
    pub fn line(&self) -> String {
        format!("{{{}}}", self.fields.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_for_people() {
        assert_eq!(pawns(35), "+0.35");
        assert_eq!(pawns(-120), "-1.20");
        assert_eq!(pawns(0), "0.00");
        assert_eq!(pawns(MATE - 5), "#3");
        assert_eq!(pawns(-(MATE - 4)), "#-2");
        assert_eq!(pawns(-MATE), "#0");
    }

    #[test]
    fn san_lines_number_their_moves() {
        let b = Board::startpos();
        let moves: Vec<Move> = ["e2e4", "e7e5", "g1f3"]
            .iter()
            .scan(b, |b, t| {
                let m = b.parse_uci(t).unwrap();
                b.play(m);
                Some(m)
            })
            .collect();
        assert_eq!(san_line(&b, &moves), "1. e4 e5 2. Nf3");
        let mut after = b;
        after.play(moves[0]);
        assert_eq!(san_line(&after, &moves[1..]), "1... e5 2. Nf3");
        // An illegal move ends the line.
        assert_eq!(san_line(&after, &moves[..1]), "");
    }

    #[test]
    fn json_is_escaped() {
        let line = Json::new()
            .str("text", "a \"b\"\\\n")
            .num("n", 3)
            .score("score", MATE - 1)
            .strs("pv", &["e4".into()])
            .line();
        assert_eq!(
            line,
            r#"{"text":"a \"b\"\\\n","n":3,"score":{"mate":1},"pv":["e4"]}"#
        );
    }
}
