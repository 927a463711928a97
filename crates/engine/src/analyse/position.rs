//! `engram analyse --fen FEN [--moves ...]`: one position, live lines for a person (or JSON
//! lines for a program), then a summary.

use super::session::{Limits, Session};
use super::text::{self, Json};
use crate::search::report::Info;
use engram_chess::{Board, Move, Position};
use engram_tt::Bound;
use std::time::Instant;

/// The position `fen` (a FEN, with `chess960` castling) after `moves` (UCI or SAN, separated
/// by spaces). An error names the move number and text of a move that does not parse.
pub fn setup(fen: &str, moves: &str, chess960: bool) -> Result<Position, String> {
    let board = Board::from_fen(fen, chess960).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let mut pos = Position::new(board);
    for text in moves.split_whitespace() {
        let b = *pos.board();
        let mv = parse_move(&b, text)
            .map_err(|e| format!("move {}: {e}", engram_chess::pgn::move_label(&b, text)))?;
        pos.make(mv);
    }
    Ok(pos)
}

/// A move in UCI (`e2e4`, `e7e8q`) or SAN (`e4`, `Nf3`, `O-O`) notation: text shaped like a
/// UCI move is read as one, anything else as SAN.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, String> {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    let uci_shaped = (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3]);
    if uci_shaped {
        board.parse_uci(text).map_err(|e| e.to_string())
    } else {
        board.parse_san(text).map_err(|e| e.to_string())
    }
}

/// One live line for a person: `depth 12/18  +0.35  1. e4 e5 2. Nf3  (1.23 M nodes, ...)`.
pub fn human_line(board: &Board, info: &Info) -> String {
    let pv = if info.multipv > 1 || info.bound != Bound::Exact {
        let bound = match info.bound {
            Bound::Lower if board.side_to_move() == engram_chess::Color::White => " (at least)",
            Bound::Upper if board.side_to_move() == engram_chess::Color::Black => " (at least)",
            Bound::Lower | Bound::Upper => " (at most)",
            _ => "",
        };
        format!("[{}]{bound} ", info.multipv)
    } else {
        String::new()
    };
    format!(
        "depth {:>2}/{:<2} {:>7}  {pv}{}  ({} nodes, {} nodes/s, {:.1} s)",
        info.depth,
        info.seldepth,
        text::pawns(text::white_view(board, info.score)),
        text::san_line(board, &info.pv),
        text::count(info.nodes),
        text::count(info.nps()),
        info.time_ms as f64 / 1000.0
    )
}

/// The JSON object of one iteration's line.
pub fn json_info(board: &Board, info: &Info) -> Json {
    let (san, uci) = text::move_texts(board, &info.pv);
    let bound = match info.bound {
        Bound::Lower => "lower",
        Bound::Upper => "upper",
        _ => "exact",
    };
    Json::new()
        .str("type", "info")
        .num("depth", info.depth)
        .num("seldepth", info.seldepth)
        .num("multipv", info.multipv)
        .score("score", text::white_view(board, info.score))
        .str("bound", bound)
        .num("nodes", info.nodes)
        .num("nps", info.nps())
        .num("time_ms", info.time_ms)
        .strs("pv", &san)
        .strs("pv_uci", &uci)
}

/// Analyses `pos` and prints the lines and the summary.
pub fn run(session: &mut Session, pos: &Position, limits: &Limits, json: bool) {
    let board = *pos.board();
    if json {
        println!(
            "{}",
            Json::new()
                .str("type", "position")
                .str("fen", &board.to_fen())
                .line()
        );
    } else {
        println!("Position: {}", board.to_fen());
    }
    let start = Instant::now();
    let result = session.search(pos, limits, move |info| {
        if json {
            println!("{}", json_info(&board, info).line());
        } else if info.bound == Bound::Exact || info.multipv == 1 {
            println!("{}", human_line(&board, info));
        }
    });
    let ms = start.elapsed().as_millis().max(1) as u64;
    let white = text::white_view(&board, result.score);
    if json {
        let (san, uci) = text::move_texts(&board, &result.pv);
        let mut line = Json::new().str("type", "result");
        line = if result.best.is_null() {
            line.raw("bestmove", "null")
        } else {
            line.str("bestmove", &board.to_san(result.best))
                .str("bestmove_uci", &board.to_uci(result.best))
        };
        println!(
            "{}",
            line.score("score", white)
                .raw("wdl", {
                    let (w, d, l) = text::white_wdl(&board, result.score);
                    format!("[{w},{d},{l}]")
                })
                .num("depth", result.depth)
                .num("nodes", result.nodes)
                .num("time_ms", ms)
                .strs("pv", &san)
                .strs("pv_uci", &uci)
                .line()
        );
        return;
    }
    if result.best.is_null() {
        let what = if board.in_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        println!("No legal move: {what}.");
        return;
    }
    println!(
        "Best move: {}   score {}   depth {}   {} nodes in {:.1} s ({} nodes/s)",
        board.to_san(result.best),
        text::pawns(white),
        result.depth,
        text::count(result.nodes),
        ms as f64 / 1000.0,
        text::count(result.nodes * 1000 / ms)
    );
    println!("Line: {}", text::san_line(&board, &result.pv));
    println!("Chances: {}", text::chances(&board, result.score));
}
