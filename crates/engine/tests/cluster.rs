//! The cluster build under `mpirun` (feature `cluster`; skipped with a message when
//! `mpirun` is missing): `mpirun -np 2` and `-np 3 --oversubscribe` driven through a UCI
//! session, each search answered by exactly one legal `bestmove`, and no rank left running
//! after `quit`.
#![cfg(feature = "cluster")]

mod common;

use common::{best, Engine};
use engram_chess::Board;
use std::process::Command;
use std::time::Duration;

const T: Duration = Duration::from_secs(60);

fn mpirun(ranks: usize) -> Option<Engine> {
    if Command::new("mpirun").arg("--version").output().is_err() {
        eprintln!("mpirun not found: cluster tests skipped");
        return None;
    }
    let mut cmd = Command::new("mpirun");
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["-np", &ranks.to_string(), "--oversubscribe"])
        .arg(env!("CARGO_BIN_EXE_engram"));
    Some(Engine::spawn(cmd))
}

/// Runs `go ...` and checks that exactly one `bestmove` comes, legal in `board`; returns
/// the lines of the search.
fn search(e: &mut Engine, board: &Board, go: &str) -> Vec<String> {
    let from = e.log.len();
    e.send(go);
    let line = e.bestmove(T);
    assert!(board.parse_uci(best(&line)).is_ok(), "{go}: {line}");
    e.sync(T);
    let lines = e.log[from..].to_vec();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{go}: {lines:?}"
    );
    lines
}

fn nodes(line: &str) -> u64 {
    let mut it = line.split_whitespace();
    it.find(|&t| t == "nodes");
    it.next().unwrap().parse().unwrap()
}

fn session(ranks: usize) {
    let Some(mut e) = mpirun(ranks) else { return };
    e.send("uci");
    e.wait_for(T, |l| l == "uciok");
    assert!(e.log.iter().any(|l| l.contains("Cluster Depth")));
    e.sync(T);
    let start = Board::startpos();
    search(&mut e, &start, "go depth 8");
    let lines = search(&mut e, &start, "go nodes 40000");
    let last = lines.iter().rev().find(|l| l.contains(" nodes ")).unwrap();
    // Each rank gets its share; each may overshoot by its last check (documented slack).
    assert!(nodes(last) <= 40_000 + 10_000 * ranks as u64, "{last}");
    e.send("position startpos moves e2e4 e7e5");
    let mut after = start;
    for m in ["e2e4", "e7e5"] {
        let mv = after.parse_uci(m).unwrap();
        after.play(mv);
    }
    search(&mut e, &after, "go movetime 300");
    e.send("ucinewgame");
    e.send("setoption name Hash value 8");
    e.send("position startpos moves e2e4 e7e5");
    let from = e.log.len();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let line = e.bestmove(T);
    assert!(after.parse_uci(best(&line)).is_ok(), "{line}");
    e.sync(T);
    assert_eq!(
        e.log[from..]
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        1
    );
    // The ranks: mpirun's children.
    let ranks_pids: Vec<String> = Command::new("pgrep")
        .args(["-P", &e.pid().to_string()])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    e.quit_within(Duration::from_secs(20));
    // No rank left running after `quit`.
    std::thread::sleep(Duration::from_millis(200));
    for pid in &ranks_pids {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        assert!(
            state.is_empty() || state.contains(") Z "),
            "rank process {pid} still running: {state}"
        );
    }
}

#[test]
fn two_ranks_play_a_uci_session() {
    session(2);
}

#[test]
fn three_ranks_oversubscribed_play_a_uci_session() {
    session(3);
}
