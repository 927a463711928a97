//! Soak test: Engram plays itself through the UCI binary at 1 s + 0.01 s per side, refereed
//! here with engram-chess. Asserts no illegal move, no time loss and no crash over the games.
//! Behind `#[ignore]` (a few minutes): `cargo test --release -p engram --test integration -- --ignored soak::`.
//! `SOAK_GAMES` (default 50) and `SOAK_THREADS` (default 1) change the run.

use crate::common;

use common::{best, Engine};
use engram_chess::{Board, Position};
use std::time::{Duration, Instant};

const BASE_MS: i64 = 1_000;
const INC_MS: i64 = 10;
/// Slack for process scheduling on a loaded 2-core machine, as match runners allow.
const MARGIN_MS: i64 = 100;

const OPENINGS: &[&str] = &[
    "e2e4 e7e5 g1f3 b8c6",
    "d2d4 d7d5 c2c4 e7e6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 g8f6 c2c4 g7g6",
    "c2c4 e7e5 b1c3 g8f6",
    "e2e4 e7e6 d2d4 d7d5",
    "g1f3 d7d5 g2g3 g8f6",
    "e2e4 c7c6 d2d4 d7d5",
];

enum Outcome {
    Decided,
    Drawn,
}

fn play_game(engines: &mut [Engine; 2], opening: &str, threads: usize) -> Outcome {
    let mut pos = Position::new(Board::startpos());
    let mut moves: Vec<String> = Vec::new();
    for m in opening.split_whitespace() {
        let mv = pos.board().parse_uci(m).unwrap();
        pos.make(mv);
        moves.push(m.to_string());
    }
    for e in engines.iter_mut() {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        e.sync(Duration::from_secs(10));
    }
    let mut clock = [BASE_MS, BASE_MS];
    loop {
        let board = *pos.board();
        if !board.has_legal_moves() {
            return if board.in_check() {
                Outcome::Decided
            } else {
                Outcome::Drawn
            };
        }
        if pos.is_draw_by_rule() || pos.ply() > 400 {
            return Outcome::Drawn;
        }
        let side = board.side_to_move().index();
        let e = &mut engines[side];
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let start = Instant::now();
        e.send(&format!(
            "go wtime {} btime {} winc {INC_MS} binc {INC_MS}",
            clock[0].max(1),
            clock[1].max(1)
        ));
        let line = e.bestmove(Duration::from_millis((clock[side] + 5_000) as u64));
        let used = start.elapsed().as_millis() as i64;
        clock[side] -= used;
        assert!(
            clock[side] + MARGIN_MS >= 0,
            "time loss: side {side} used {used} ms, clock {} ms, after {moves:?}",
            clock[side]
        );
        clock[side] += INC_MS;
        let text = best(&line);
        let mv = board
            .parse_uci(text)
            .unwrap_or_else(|e| panic!("illegal move {text}: {e} after {moves:?}"));
        pos.make(mv);
        moves.push(text.to_string());
    }
}

#[test]
#[ignore = "plays 50 games at 1s+0.01s (minutes)"]
fn soak_self_play() {
    let games: usize = std::env::var("SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let threads: usize = std::env::var("SOAK_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut engines = [Engine::start(), Engine::start()];
    let (mut decided, mut drawn) = (0, 0);
    for g in 0..games {
        match play_game(&mut engines, OPENINGS[g % OPENINGS.len()], threads) {
            Outcome::Decided => decided += 1,
            Outcome::Drawn => drawn += 1,
        }
        engines.swap(0, 1);
    }
    println!(
        "{games} games: {decided} decided, {drawn} drawn; no illegal move, no time loss, no crash"
    );
    let [a, b] = engines;
    a.quit();
    b.quit();
}
