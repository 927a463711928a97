//! The UCI protocol, spoken to the real binary: handshake, isready during search, stop,
//! ponder/ponderhit, every `go` limit, one-sided clocks, Chess960 castling, bad input.

use crate::common;

use common::{best, Engine};
use engram_chess::{Board, Position};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(10);

fn legal_after(moves: &[&str], mv: &str) -> bool {
    let mut pos = Position::new(Board::startpos());
    for m in moves {
        let mv = pos.board().parse_uci(m).unwrap();
        pos.make(mv);
    }
    pos.board().parse_uci(mv).is_ok()
}

#[test]
fn handshake() {
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for(T, |l| l == "uciok");
    let log = e.log.join("\n");
    assert!(log.contains("id name Engram"));
    assert!(log.contains("id author"));
    for opt in [
        "Hash type spin default 16 min 1 max 1048576",
        "Threads type spin default 1 min 1 max 1024",
        "Clear Hash type button",
        "Ponder type check",
        "MultiPV type spin",
        "Move Overhead type spin",
        "UCI_Chess960 type check default false",
    ] {
        assert!(
            log.contains(&format!("option name {opt}")),
            "missing {opt}:\n{log}"
        );
    }
    e.sync(T);
    e.send("ucinewgame");
    e.sync(T);
    assert!(e.quit() < Duration::from_secs(2));
}

#[test]
fn isready_during_search_does_not_stop_it() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    e.send("isready");
    e.wait_for(T, |l| l == "readyok");
    assert!(start.elapsed() < Duration::from_millis(500));
    assert!(
        !e.log.iter().any(|l| l.starts_with("bestmove")),
        "isready stopped the search"
    );
    // Infinite never ends on its own.
    let later = e.drain(Duration::from_millis(300));
    assert!(!later.iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    let bm = e.bestmove(T);
    assert!(legal_after(&["e2e4"], best(&bm)), "{bm}");
    e.quit();
}

#[test]
fn immediate_stop_still_gives_one_legal_bestmove() {
    let mut e = Engine::start();
    for _ in 0..5 {
        e.send("position startpos");
        e.send("go infinite");
        e.send("stop");
        let bm = e.bestmove(T);
        assert!(legal_after(&[], best(&bm)), "{bm}");
    }
    e.sync(T);
    let extra = e.log.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(extra, 5, "exactly one bestmove per go");
    e.quit();
}

#[test]
fn go_limits() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5 g1f3");
    // depth
    e.send("go depth 6");
    let bm = e.bestmove(T);
    assert!(legal_after(&["e2e4", "e7e5", "g1f3"], best(&bm)));
    let last_info = e
        .log
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" pv "))
        .unwrap()
        .clone();
    assert!(last_info.starts_with("info depth 6 "), "{last_info}");
    for field in [
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(last_info.contains(field), "{field} missing in {last_info}");
    }
    // nodes
    e.send("go nodes 5000");
    let bm = e.bestmove(T);
    assert!(legal_after(&["e2e4", "e7e5", "g1f3"], best(&bm)));
    // movetime
    let start = Instant::now();
    e.send("go movetime 300");
    e.bestmove(T);
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    // clocks with increments and movestogo
    let start = Instant::now();
    e.send("go wtime 2000 btime 2000 winc 10 binc 10 movestogo 5");
    e.bestmove(T);
    assert!(start.elapsed() < Duration::from_millis(1500));
    // mate
    e.send("position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 0 1");
    e.send("go mate 2");
    let bm = e.bestmove(T);
    assert_eq!(best(&bm), "d5f6");
    assert!(e.log.iter().any(|l| l.contains("score mate 2")));
    // searchmoves
    e.send("position startpos");
    e.send("go depth 5 searchmoves a2a3 h2h3");
    let bm = e.bestmove(T);
    assert!(["a2a3", "h2h3"].contains(&best(&bm)), "{bm}");
    e.quit();
}

#[test]
fn one_sided_clocks() {
    let mut e = Engine::start();
    for (pos, go) in [
        ("startpos", "go wtime 100"),
        ("startpos moves e2e4", "go wtime 100"),
        ("startpos moves e2e4", "go btime 100"),
        ("startpos", "go btime 100 binc 10"),
    ] {
        e.send(&format!("position {pos}"));
        let start = Instant::now();
        e.send(go);
        let bm = e.bestmove(T);
        assert!(
            start.elapsed() < Duration::from_millis(1000),
            "{pos} {go}: {:?}",
            start.elapsed()
        );
        assert!(best(&bm).len() >= 4);
        // The last info before bestmove has a score, time and nps (fastchess checks this).
        let info = e
            .log
            .iter()
            .rev()
            .find(|l| l.starts_with("info") && l.contains("score"))
            .unwrap();
        assert!(info.contains(" time ") && info.contains(" nps "), "{info}");
    }
    e.quit();
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    let waited = e.drain(Duration::from_millis(1500));
    assert!(
        !waited.iter().any(|l| l.starts_with("bestmove")),
        "ponder ended on its own"
    );
    let start = Instant::now();
    e.send("ponderhit");
    let bm = e.bestmove(T);
    assert!(
        start.elapsed() < Duration::from_millis(1000),
        "{:?}",
        start.elapsed()
    );
    assert!(legal_after(&["e2e4", "e7e5"], best(&bm)));
    if let Some(p) = bm.split_whitespace().nth(3) {
        assert!(legal_after(&["e2e4", "e7e5", best(&bm)], p), "{bm}");
    }

    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let bm = e.bestmove(T);
    assert!(legal_after(&["e2e4", "e7e5"], best(&bm)));
    e.quit();
}

#[test]
fn setoption_between_searches_and_quit_during_search() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 64");
    e.send("setoption name threads value 2");
    e.send("setoption name MultiPV value 3");
    e.send("setoption name Clear Hash");
    e.send("setoption name move overhead value 50");
    e.sync(T);
    e.send("position startpos");
    e.send("go depth 6");
    e.bestmove(T);
    for k in 1..=3 {
        assert!(
            e.log
                .iter()
                .any(|l| l.starts_with("info depth 6 ") && l.contains(&format!(" multipv {k} "))),
            "multipv {k}"
        );
    }
    assert!(!e.log.iter().any(|l| l.contains("error")), "{:?}", e.log);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.quit() < Duration::from_secs(1));
}

#[test]
fn chess960_castling_output() {
    let mut e = Engine::start();
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {kiwipete}"));
    e.send("go depth 3 searchmoves e1g1");
    assert_eq!(best(&e.bestmove(T)), "e1g1");
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {kiwipete}"));
    e.send("go depth 3 searchmoves e1h1");
    assert_eq!(best(&e.bestmove(T)), "e1h1");
    // X-FEN castling rights on a Chess960 board, castling given in the move list as
    // king-takes-rook, and Shredder-FEN output.
    e.send("position fen r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1 moves c1e1");
    e.send("d");
    let fen = e.wait_for(T, |l| l.starts_with("Fen:"));
    assert_eq!(
        fen,
        "Fen: r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R4RKQ b ea - 1 1"
    );
    e.send("go depth 2 searchmoves c8a8");
    assert_eq!(best(&e.bestmove(T)), "c8a8");
    e.quit();
}

#[test]
fn single_legal_move_and_no_legal_move() {
    let mut e = Engine::start();
    // Only Kxh2... here: the king in check has exactly one move.
    e.send("position fen 7k/8/8/8/8/8/6q1/7K w - - 0 1");
    e.send("go wtime 10000 btime 10000");
    assert_eq!(best(&e.bestmove(T)), "h1g2");
    // Checkmated: no move at all.
    e.send("position fen 7k/8/8/8/8/8/5PPP/r5K1 w - - 0 1");
    e.send("go depth 5");
    assert_eq!(best(&e.bestmove(T)), "0000");
    e.quit();
}

#[test]
fn bad_input_is_reported_and_survived() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    for bad in [
        "frobnicate",
        "position fen not/a/fen w - - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e9e4",
        "position",
        "setoption name Hash value 0",
        "setoption name Hash value 99999999",
        "setoption name Hash value lots",
        "setoption name Threads value 5000",
        "setoption name NoSuchOption value 1",
        "setoption name Ponder value maybe",
        "setoption",
        "go perft x",
        "bench 0",
        "\u{1b}[A\u{0}",
    ] {
        e.send(bad);
        e.wait_for(T, |l| l.starts_with("info string error: "));
        e.sync(T);
    }
    // The position is still the one set before the bad commands.
    e.send("d");
    let fen = e.wait_for(T, |l| l.starts_with("Fen:"));
    assert_eq!(
        fen,
        "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // A go with a malformed value still searches and answers.
    e.send("go depth x movetime 200");
    e.wait_for(T, |l| l.starts_with("info string error: "));
    let bm = e.bestmove(T);
    assert!(legal_after(&["e2e4"], best(&bm)));
    // Empty lines and stray stop/ponderhit while idle are harmless.
    e.send("");
    e.send("stop");
    e.send("ponderhit");
    e.sync(T);
    e.quit();
}

#[test]
fn extra_commands() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("d");
    assert_eq!(
        e.wait_for(T, |l| l.starts_with("Key:")),
        "Key: 463B96181691FC9C"
    );
    e.send("go perft 3");
    assert_eq!(
        e.wait_for(T, |l| l.starts_with("Nodes searched")),
        "Nodes searched: 8902"
    );
    e.send("eval");
    e.wait_for(T, |l| l.starts_with("Static eval"));
    e.send("bench 4");
    e.wait_for(T, |l| l.starts_with("Nodes searched  :"));
    e.wait_for(T, |l| l.starts_with("Nodes/second    :"));
    e.quit();
}

#[test]
fn bench_is_deterministic() {
    let run = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_engram"))
            .args(["bench", "7"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let nodes = text
            .lines()
            .find(|l| l.starts_with("Nodes searched  :"))
            .unwrap()
            .to_string();
        assert!(text
            .lines()
            .last()
            .unwrap()
            .starts_with("Nodes/second    :"));
        nodes
    };
    assert_eq!(run(), run());
}

#[test]
fn every_replacement_policy_plays() {
    let mut e = Engine::start();
    for policy in [
        "TwoTier",
        "DepthPreferred",
        "AlwaysReplace",
        "TwoBig1",
        "LineBuckets",
        "MicroMax",
        "Buckets",
    ] {
        e.send(&format!("setoption name Replacement value {policy}"));
        e.send("setoption name Hash value 1");
        e.send("position startpos moves e2e4");
        e.send("go depth 7");
        let bm = e.bestmove(T);
        assert!(legal_after(&["e2e4"], best(&bm)), "{policy}: {bm}");
        e.send("setoption name Hash value 16");
    }
    e.send("setoption name Replacement Age value 2");
    e.send("go depth 5");
    assert!(legal_after(&["e2e4"], best(&e.bestmove(T))));
    e.send("setoption name Replacement value Newest");
    e.wait_for(T, |l| {
        l.starts_with("info string error: option 'Replacement'")
    });
    e.sync(T);
    e.quit();
}

#[test]
fn two_threads() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.sync(T);
    e.send("position startpos moves d2d4");
    e.send("go depth 8");
    let bm = e.bestmove(T);
    assert!(legal_after(&["d2d4"], best(&bm)), "{bm}");
    // The last line before `bestmove` reports depth 8 and a PV that starts with the move
    // played, whichever thread found it (fastchess warns otherwise).
    let last = e
        .log
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" pv "))
        .unwrap();
    assert!(last.starts_with("info depth 8 "), "{last}");
    assert_eq!(
        last.split(" pv ").nth(1).unwrap().split_whitespace().next(),
        Some(best(&bm)),
        "{last}"
    );
    // The thread design is no option any more (issue 76): the old option is refused.
    e.send("setoption name SMP value Lazy");
    e.wait_for(T, |l| {
        l.starts_with("info string error: ") && l.contains("SMP")
    });
    // Stop during a search.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    assert!(legal_after(&["d2d4"], best(&e.bestmove(T))));
    // Ponder, then ponderhit; ponder, then stop.
    e.send("go ponder wtime 500 btime 500");
    std::thread::sleep(Duration::from_millis(300));
    e.send("ponderhit");
    assert!(legal_after(&["d2d4"], best(&e.bestmove(T))));
    e.send("go ponder wtime 500 btime 500");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    assert!(legal_after(&["d2d4"], best(&e.bestmove(T))));
    // Changing threads and hash between searches is quick.
    let start = Instant::now();
    e.send("setoption name Threads value 3");
    e.send("setoption name Hash value 32");
    e.send("setoption name Threads value 1");
    e.sync(T);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    e.send("setoption name Threads value 2");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.quit() < Duration::from_secs(1));
}

#[test]
fn show_wdl_adds_chances_after_the_score() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 6");
    let line = e.wait_for(T, |l| l.starts_with("info depth 6 "));
    assert!(!line.contains(" wdl "), "{line}");
    e.bestmove(T);
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position fen 8/8/8/8/8/2k5/8/4K2Q w - - 0 1");
    e.send("go depth 6");
    let line = e.wait_for(T, |l| l.starts_with("info depth 6 "));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|&w| w == "wdl")
        .expect("wdl in the line");
    assert_eq!(words[at - 3], "score", "{line}");
    let wdl: Vec<u32> = words[at + 1..at + 4]
        .iter()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
    assert!(wdl[0] > 900, "a queen up wins: {line}");
    e.bestmove(T);
    e.quit();
}
