//! Threads and big tables, through the real binary (issue 76): the table is in memory when
//! `readyok` comes, and many threads on few cores (oversubscribed) keep the protocol: exactly
//! one legal `bestmove` per `go`, node limits kept.

use crate::common;

use common::{best, Engine};
use engram_chess::Board;
use std::time::Duration;

const T: Duration = Duration::from_secs(60);

/// The engine's resident memory in MiB (`VmRSS` of `/proc/<pid>/status`).
#[cfg(target_os = "linux")]
fn resident_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("VmRSS in /proc/<pid>/status");
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib >> 10
}

/// `setoption name Hash` clears the new table with the search threads before `readyok`, so
/// its memory is resident then (a fresh mapping is only faulted in when written), and the
/// first search does not pay for it. The same after `Clear Hash` and `ucinewgame`.
#[cfg(target_os = "linux")]
#[test]
fn the_table_is_in_memory_at_readyok() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.sync(T);
    let before = resident_mib(e.pid());
    e.send("setoption name Hash value 512");
    e.sync(T);
    let after = resident_mib(e.pid());
    // (The 16 MiB table before it is given back.)
    assert!(
        after >= 500 && after >= before + 450,
        "resident {before} MiB before, {after} MiB after a 512 MiB table"
    );
    for cmd in ["setoption name Clear Hash", "ucinewgame"] {
        e.send(cmd);
        e.sync(T);
        assert!(resident_mib(e.pid()) >= 500, "{cmd}");
    }
    // Smaller again: the old table's memory is given back.
    e.send("setoption name Hash value 16");
    e.sync(T);
    assert!(resident_mib(e.pid()) < after - 400);
    e.quit();
}

/// The legal moves after `moves` from the start position.
fn legal_after(moves: &[&str], bm: &str) -> bool {
    let mut b = Board::startpos();
    for m in moves {
        let mv = b.parse_uci(m).unwrap();
        b.play(mv);
    }
    b.parse_uci(bm).is_ok_and(|m| b.is_legal(m))
}

/// The `nodes` of the last `info` line with a score before the `bestmove` at `log[end]`.
fn last_nodes(log: &[String], end: usize) -> Option<u64> {
    log[..end]
        .iter()
        .rev()
        .take_while(|l| !l.starts_with("bestmove"))
        .find(|l| l.starts_with("info depth") && l.contains(" nodes "))
        .and_then(|l| {
            let mut it = l.split_whitespace().skip_while(|&t| t != "nodes");
            it.nth(1)?.parse().ok()
        })
}

/// Sixteen threads on however few cores the machine has: `go nodes`, `go depth`, `go
/// movetime`, `go infinite` + `stop`, `go ponder` + `ponderhit` and + `stop`, a `go` that
/// replaces a running one: exactly one legal `bestmove` each, node limits kept within the
/// threads' publishing slack (each thread publishes its count every 1024 nodes).
#[test]
fn sixteen_threads_oversubscribed_keep_the_protocol() {
    let threads = 16u64;
    let mut e = Engine::start();
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("setoption name Hash value 64");
    e.send("ucinewgame");
    e.sync(T);
    let moves = ["e2e4", "c7c5", "g1f3"];
    let position = format!("position startpos moves {}", moves.join(" "));
    let mut gos = 0;
    for limit in [1u64, 500, 5_000, 40_000] {
        e.send(&position);
        e.send(&format!("go nodes {limit}"));
        let bm = e.bestmove(T);
        gos += 1;
        assert!(legal_after(&moves, best(&bm)), "{bm}");
        let end = e.log.len() - 1;
        if let Some(n) = last_nodes(&e.log, end) {
            assert!(
                n <= limit + threads * 1024,
                "go nodes {limit}: {n} nodes with {threads} threads"
            );
        }
    }
    for depth in [1, 5, 9] {
        e.send(&position);
        e.send(&format!("go depth {depth}"));
        let bm = e.bestmove(T);
        gos += 1;
        assert!(legal_after(&moves, best(&bm)), "{bm}");
    }
    e.send(&position);
    e.send("go movetime 200");
    assert!(legal_after(&moves, best(&e.bestmove(T))));
    gos += 1;
    for stop in ["stop", "ponderhit"] {
        e.send(&position);
        e.send(if stop == "stop" {
            "go infinite"
        } else {
            "go ponder wtime 2000 btime 2000 winc 10 binc 10"
        });
        std::thread::sleep(Duration::from_millis(150));
        e.send(stop);
        assert!(legal_after(&moves, best(&e.bestmove(T))), "{stop}");
        gos += 1;
    }
    e.send(&position);
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    assert!(legal_after(&moves, best(&e.bestmove(T))));
    gos += 1;
    // A `go` while one runs: the running search ends with its own `bestmove` first.
    e.send(&position);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send(&position);
    e.send("go nodes 3000");
    gos += 2;
    e.bestmove(T);
    e.bestmove(T);
    // Nothing else comes: no third `bestmove`.
    e.sync(T);
    e.drain(Duration::from_millis(300));
    let bestmoves: Vec<&String> = e.log.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), gos, "one bestmove per go: {bestmoves:?}");
    for bm in bestmoves {
        assert!(legal_after(&moves, best(bm)), "{bm}");
    }
    e.quit();
}
