//! The UCI text of the search's events: `info`, `bestmove`, `info string error`. The one place
//! where the engine's answers become UCI lines.

use crate::eval::wdl;
use crate::search::report::{Event, Info};
use crate::search::tt::display_cp;
use crate::search::{MATE, MATE_BOUND};
use engram_chess::{Board, BookMove, Move};
use engram_tt::Bound;

/// A principal variation as UCI text from `board`: ` move move ...`, each move preceded by a
/// space, cut at the first move that is not legal (a line pieced together from the table
/// may not be).
pub fn pv_text(board: &Board, pv: &[Move]) -> String {
    let mut text = String::new();
    let mut b = *board;
    for &m in pv {
        if !b.is_legal(m) {
            break;
        }
        text.push(' ');
        text.push_str(&b.to_uci(m));
        b.play(m);
    }
    text
}

/// A score as UCI text: `cp N` or `mate N` (negative when being mated).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        // Mated now (no legal move) is `mate 0`, as Stockfish prints it, not `mate -0`.
        match (MATE + score) / 2 {
            0 => "mate 0".into(),
            n => format!("mate -{n}"),
        }
    } else {
        format!("cp {}", display_cp(score))
    }
}

/// ` wdl W D L` (per mille, side to move) for `score` at `board`'s material, as
/// `UCI_ShowWDL` adds it after the score (the model of [`crate::eval::wdl`]).
pub fn wdl_text(board: &Board, score: i32) -> String {
    let (w, d, l) = wdl::MODEL.wdl(score, wdl::material(board));
    format!(" wdl {w} {d} {l}")
}

/// The UCI `info` line of `info`, with the principal variation as UCI moves from `board`
/// (and with `wdl`, the win/draw/loss chances after the score).
pub fn info_line(board: &Board, info: &Info, wdl: bool) -> String {
    let bound = match info.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    let hashfull = info
        .hashfull
        .map(|h| format!(" hashfull {h}"))
        .unwrap_or_default();
    let wdl = if wdl {
        wdl_text(board, info.score)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl}{bound} nodes {} nps {} tbhits {} time {}{hashfull} pv{}",
        info.depth,
        info.seldepth.max(1),
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps(),
        info.tbhits,
        info.time_ms,
        pv_text(board, &info.pv),
    )
}

/// The `info string` that says a move came from the opening book: its weight among the
/// book's moves here.
pub fn book_line(board: &Board, choice: BookMove, offered: &[BookMove]) -> String {
    let total: u64 = offered.iter().map(|b| u64::from(b.weight)).sum();
    let others: Vec<String> = offered
        .iter()
        .filter(|b| b.mv != choice.mv)
        .map(|b| format!("{} {}", board.to_uci(b.mv), b.weight))
        .collect();
    let others = if others.is_empty() {
        String::new()
    } else {
        format!("; also {}", others.join(", "))
    };
    format!(
        "info string book move {} (weight {} of {total}{others})",
        board.to_uci(choice.mv),
        choice.weight
    )
}

/// The `bestmove` line for `best` in `board` (`0000` when there is no move; the ponder move
/// only when it is legal after the best move).
pub fn bestmove_line(board: &Board, best: Move, ponder: Option<Move>) -> String {
    if best.is_null() {
        return "bestmove 0000".into();
    }
    let mut out = format!("bestmove {}", board.to_uci(best));
    if let Some(p) = ponder {
        let mut after = *board;
        after.play(best);
        if after.is_legal(p) {
            out.push_str(&format!(" ponder {}", after.to_uci(p)));
        }
    }
    out
}

/// The UCI line of a search's `event` at the root `board` (with `wdl`, scores carry the
/// win/draw/loss chances: `UCI_ShowWDL`).
pub fn event_line(board: &Board, event: &Event, wdl: bool) -> String {
    match event {
        Event::Info(info) => info_line(board, info, wdl),
        Event::CurrMove { depth, mv, number } => format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            board.to_uci(*mv)
        ),
        Event::NoMoves { score } => format!(
            "info depth 0 score {}{}",
            score_text(*score),
            if wdl {
                wdl_text(board, *score)
            } else {
                String::new()
            }
        ),
        Event::BestMove { best, ponder } => bestmove_line(board, *best, *ponder),
        Event::Error(e) => format!("info string error: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_as_uci_text() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(MATE - 1), "mate 1");
        assert_eq!(score_text(MATE - 4), "mate 2");
        assert_eq!(score_text(-MATE + 2), "mate -1");
        assert_eq!(score_text(-MATE), "mate 0", "mated in the position itself");
    }

    #[test]
    fn events_as_uci_lines() {
        let b = Board::startpos();
        let e4 = b.parse_uci("e2e4").unwrap();
        let e5 = {
            let mut a = b;
            a.play(e4);
            a.parse_uci("e7e5").unwrap()
        };
        assert_eq!(
            event_line(
                &b,
                &Event::BestMove {
                    best: e4,
                    ponder: Some(e5)
                },
                false
            ),
            "bestmove e2e4 ponder e7e5"
        );
        assert_eq!(
            event_line(
                &b,
                &Event::BestMove {
                    best: Move::NULL,
                    ponder: None
                },
                false
            ),
            "bestmove 0000"
        );
        // A ponder move that is not legal after the best move is left out.
        assert_eq!(
            event_line(
                &b,
                &Event::BestMove {
                    best: e4,
                    ponder: Some(e4)
                },
                false
            ),
            "bestmove e2e4"
        );
        let info = Info {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: 31,
            bound: Bound::Lower,
            nodes: 2000,
            tbhits: 0,
            time_ms: 4,
            hashfull: Some(12),
            pv: vec![e4, e5],
        };
        assert_eq!(
            event_line(&b, &Event::Info(info.clone()), false),
            "info depth 7 seldepth 9 multipv 1 score cp 31 lowerbound nodes 2000 nps 500000 tbhits 0 \
             time 4 hashfull 12 pv e2e4 e7e5"
        );
        // UCI_ShowWDL: the chances follow the score, before the bound (as Stockfish prints).
        let (w, d, l) = wdl::MODEL.wdl(31, 78);
        assert_eq!(w + d + l, 1000);
        assert_eq!(
            event_line(&b, &Event::Info(info), true),
            format!(
                "info depth 7 seldepth 9 multipv 1 score cp 31 wdl {w} {d} {l} lowerbound \
                 nodes 2000 nps 500000 tbhits 0 time 4 hashfull 12 pv e2e4 e7e5"
            )
        );
        assert_eq!(
            event_line(&b, &Event::NoMoves { score: -MATE }, true),
            "info depth 0 score mate 0 wdl 0 0 1000"
        );
        assert_eq!(
            event_line(
                &b,
                &Event::CurrMove {
                    depth: 3,
                    mv: e4,
                    number: 2
                },
                false
            ),
            "info depth 3 currmove e2e4 currmovenumber 2"
        );
        assert_eq!(
            event_line(&b, &Event::NoMoves { score: -MATE }, false),
            "info depth 0 score mate 0"
        );
        assert_eq!(
            event_line(&b, &Event::Error("x".into()), false),
            "info string error: x"
        );
    }
}
