//! The faults found in review (issue 13), each driven through the real binary where a user
//! could hit it: a `go` right after `stop`, node limits with threads, a huge halfmove clock,
//! huge clock values, idle helpers burning a core.

use crate::common;

use common::{best, Engine};
use engram_chess::{Board, Position};
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

fn legal(mv: &str) -> bool {
    Position::new(Board::startpos())
        .board()
        .parse_uci(mv)
        .is_ok()
}

fn bestmoves(e: &Engine) -> usize {
    e.log.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// Fault 1: `stop` and the next `go` in one write (a ponder miss does this) must give two
/// `bestmove`s, not an error and a GUI waiting forever.
#[test]
fn go_right_after_stop_is_carried_out() {
    for threads in [1, 2] {
        let mut e = Engine::start();
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        e.send("stop\ngo depth 5");
        let first = e.bestmove(T);
        let second = e.bestmove(T);
        assert!(
            legal(best(&first)) && legal(best(&second)),
            "{first} / {second}"
        );
        e.sync(T);
        assert!(
            !e.log.iter().any(|l| l.contains("error")),
            "threads {threads}: {:?}",
            e.log
        );
        assert_eq!(bestmoves(&e), 2);
        e.quit();
    }
}

/// Fault 1: thirty `go infinite`/`stop` pairs sent at once get thirty `bestmove`s.
#[test]
fn every_go_of_a_burst_gets_its_bestmove() {
    for threads in [1, 2] {
        let mut e = Engine::start();
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("position startpos");
        let burst = vec!["go infinite\nstop"; 30].join("\n");
        e.send(&burst);
        for _ in 0..30 {
            let bm = e.bestmove(T);
            assert!(legal(best(&bm)), "{bm}");
        }
        e.sync(T);
        assert_eq!(bestmoves(&e), 30, "threads {threads}");
        assert!(!e.log.iter().any(|l| l.contains("error")), "{:?}", e.log);
        e.quit();
    }
}

/// A `go` while a search runs (no `stop` between) stops that search first: still one
/// `bestmove` per `go`.
#[test]
fn go_during_a_search_stops_it_first() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("go depth 4");
    e.bestmove(T);
    e.bestmove(T);
    e.sync(T);
    assert_eq!(bestmoves(&e), 2);
    e.quit();
}

/// CPU time (user + system) the process `pid` has used, in clock ticks (Linux).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("Linux /proc");
    // The fields after the command name (which may hold spaces) start at the last ')'.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Fault 5: with two threads, `go infinite` in a position searched to the depth limit in a
/// moment (a bare-kings draw) leaves the main thread waiting for `stop`; the helper must wait
/// parked, not spin on a core.
#[test]
#[cfg(target_os = "linux")]
fn idle_helpers_do_not_burn_a_core() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("position fen 8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 127"));
    std::thread::sleep(Duration::from_millis(200));
    let before = cpu_ticks(e.pid());
    std::thread::sleep(Duration::from_secs(1));
    let used = cpu_ticks(e.pid()) - before;
    e.send("stop");
    e.bestmove(T);
    // A spinning thread uses about 100 ticks a second; parked threads next to nothing.
    assert!(used < 25, "{used} ticks of CPU in one idle second");
    e.quit();
}

/// Fault 4: `go nodes N` stops at N nodes in all, with any thread count (within the
/// documented slack of about 1024 nodes per thread).
#[test]
fn node_limits_count_every_thread() {
    use engram::config::EngineConfig;
    use engram::search::SearchLimits;
    use engram::session::Session;
    let n = 200_000;
    for threads in [1, 2, 3] {
        for fen in [
            engram_chess::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let mut session = Session::new(EngineConfig {
                threads,
                ..EngineConfig::default()
            })
            .unwrap();
            let limits = SearchLimits {
                nodes: Some(n),
                ..SearchLimits::default()
            };
            let pos = Position::new(Board::from_fen(fen, false).unwrap());
            let result = session.search(&pos, limits);
            let slack = 2048 * threads as u64;
            eprintln!("threads {threads}: {} nodes", result.nodes);
            assert!(
                (n..=n + slack).contains(&result.nodes),
                "threads {threads}: {} nodes for a limit of {n}",
                result.nodes
            );
            assert!(pos.board().is_legal(result.best));
        }
    }
}
