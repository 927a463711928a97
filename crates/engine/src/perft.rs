//! The perft divide as both `go perft N` and `engram perft N` print it, and its depth limit.

use engram_chess::{divide, Board};
use std::io::{self, Write};

/// Deepest perft accepted, from the shell and from `go perft`.
pub const MAX_DEPTH: u32 = 20;

/// Writes the divide of `board` at `depth`, as Stockfish's `go perft` does: one `move: count`
/// line per legal move, an empty line, then `Nodes searched: N`. At depth 0 there are no move
/// lines and the total is 1 (the position itself). Returns the total.
pub fn write_divide(out: &mut impl Write, board: &Board, depth: u32) -> io::Result<u64> {
    let mut total = 1;
    if depth > 0 {
        total = 0;
        for (mv, n) in divide(board, depth) {
            writeln!(out, "{}: {n}", board.to_uci(mv))?;
            total += n;
        }
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    Ok(total)
}

/// [`write_divide`] to standard output; a failed write (stdout closed) gives 0 instead of a panic.
pub fn print_divide(board: &Board, depth: u32) -> u64 {
    write_divide(&mut io::stdout().lock(), board, depth).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(fen: &str, depth: u32) -> (String, u64) {
        let board = Board::from_fen(fen, false).unwrap();
        let mut out = Vec::new();
        let total = write_divide(&mut out, &board, depth).unwrap();
        (String::from_utf8(out).unwrap(), total)
    }

    #[test]
    fn depth_zero_is_the_position_itself() {
        let (out, total) = text(engram_chess::STARTPOS, 0);
        assert_eq!((out.as_str(), total), ("\nNodes searched: 1\n", 1));
    }

    #[test]
    fn depth_two_divides_by_root_move() {
        let (out, total) = text(engram_chess::STARTPOS, 2);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 22);
        assert!(lines.contains(&"e2e4: 20"));
        assert_eq!(lines[20..], ["", "Nodes searched: 400"]);
        assert_eq!(total, 400);
    }

    #[test]
    fn no_legal_move() {
        let (out, total) = text("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", 3);
        assert_eq!((out.as_str(), total), ("\nNodes searched: 0\n", 0));
    }
}
