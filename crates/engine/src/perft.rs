//! The perft divide as both `go perft N` and `engram perft N` print it, and its depth limit.

use engram_chess::perft::{divide_with, PerftTable};
use engram_chess::Board;
use std::io::{self, Write};

/// Deepest perft accepted, from the shell and from `go perft`.
pub const MAX_DEPTH: u32 = 20;

/// A perft table of `mib` MiB (at least 1), refused with a message before allocating when it
/// does not fit in the memory available (the check `engram-tt` makes for the `Hash` table:
/// above [`engram_tt::UNCHECKED_MIB`], against [`engram_tt::table_budget`]), or when the
/// allocator refuses it.
pub fn new_table(mib: usize) -> Result<PerftTable, String> {
    if mib > engram_tt::UNCHECKED_MIB {
        if let Some(available) = engram_tt::mem_available() {
            let budget = engram_tt::table_budget(available);
            if (mib as u64).saturating_mul(1 << 20) > budget {
                return Err(format!(
                    "a perft table of {mib} MiB does not fit in the memory available: \
                     {} MiB available, at most {} MiB for the table",
                    available >> 20,
                    budget >> 20
                ));
            }
        }
    }
    PerftTable::new(mib).map_err(|e| format!("a perft table of {mib} MiB: {e}"))
}

/// Writes the divide of `board` at `depth`, as Stockfish's `go perft` does: one `move: count`
/// line per legal move, an empty line, then `Nodes searched: N`. At depth 0 there are no move
/// lines and the total is 1 (the position itself). Returns the total.
pub fn write_divide(out: &mut impl Write, board: &Board, depth: u32) -> io::Result<u64> {
    write_divide_with(out, board, depth, None, 1)
}

/// [`write_divide`] counted with a shared perft table (none: every node is visited) on
/// `threads` threads; the same text, whatever the table and the threads.
pub fn write_divide_with(
    out: &mut impl Write,
    board: &Board,
    depth: u32,
    table: Option<&PerftTable>,
    threads: usize,
) -> io::Result<u64> {
    let mut total = 1;
    if depth > 0 {
        total = 0;
        for (mv, n) in divide_with(board, depth, table, threads) {
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
    print_divide_with(board, depth, None, 1)
}

/// [`write_divide_with`] to standard output, as [`print_divide`].
pub fn print_divide_with(
    board: &Board,
    depth: u32,
    table: Option<&PerftTable>,
    threads: usize,
) -> u64 {
    write_divide_with(&mut io::stdout().lock(), board, depth, table, threads).unwrap_or(0)
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
    fn a_table_and_threads_give_the_same_text() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let board = Board::from_fen(kiwipete, false).unwrap();
        let (want, total) = text(kiwipete, 3);
        let table = PerftTable::with_buckets(16).unwrap();
        for (table, threads) in [(None, 2), (Some(&table), 1), (Some(&table), 2)] {
            let mut out = Vec::new();
            let n = write_divide_with(&mut out, &board, 3, table, threads).unwrap();
            assert_eq!((String::from_utf8(out).unwrap(), n), (want.clone(), total));
        }
    }

    #[test]
    fn no_legal_move() {
        let (out, total) = text("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", 3);
        assert_eq!((out.as_str(), total), ("\nNodes searched: 0\n", 0));
    }
}
