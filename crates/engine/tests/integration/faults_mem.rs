//! Issue 13, faults 5b, 5c and 6 through the real binary: clocks at the top of their range
//! in a FEN, huge and negative `go` clock values, and a `Hash` larger than the memory
//! available.

use crate::common;

use common::{best, Engine};
use engram_chess::Board;
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(20);

fn legal(fen: &str, mv: &str) -> bool {
    Board::from_fen(fen, false).unwrap().parse_uci(mv).is_ok()
}

/// Fault 5b: a halfmove clock and fullmove number of 65535 (the largest the FEN may give);
/// the search plays moves from it, which must not overflow the clocks (a panic in a debug
/// build).
#[test]
fn clocks_at_65535_in_a_fen_are_searched() {
    let mut e = Engine::start();
    for fen in [
        "4k3/8/8/8/8/8/P7/4K2R w - - 65535 65535",
        "4k3/p7/8/8/8/8/8/4K2R b - - 65535 65535",
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 5");
        let bm = e.bestmove(T);
        assert!(legal(fen, best(&bm)), "{fen}: {bm}");
    }
    e.sync(T);
    assert!(!e.log.iter().any(|l| l.contains("error")), "{:?}", e.log);
    e.quit();
}

/// Fault 5c: huge (up to what `go` accepts, and beyond), negative and mixed clock values
/// give a legal `bestmove`, at once or right after `stop`.
#[test]
fn huge_and_negative_clock_values_give_a_legal_bestmove() {
    const WHITE: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const BLACK: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let cases = [
        (
            WHITE,
            "go wtime 18446744073709551615 winc 18446744073709551615 movestogo 1",
        ),
        (
            WHITE,
            "go wtime 9223372036854775807 winc 9223372036854775807 movestogo 1",
        ),
        (
            WHITE,
            "go wtime 9223372036854775807 btime 9223372036854775807 \
             winc 9223372036854775807 binc 9223372036854775807",
        ),
        (
            BLACK,
            "go btime 9223372036854775807 binc 9223372036854775807 \
             movestogo 9223372036854775807",
        ),
        (WHITE, "go wtime 1000 winc 9223372036854775807"),
        (WHITE, "go movetime 9223372036854775807"),
        (WHITE, "go movetime 18446744073709551615"),
        (WHITE, "go wtime -5 winc -100 movestogo -3"),
        (
            WHITE,
            "go wtime -9223372036854775808 btime -1 winc 9223372036854775807",
        ),
        (BLACK, "go btime -1 binc -1 movestogo 1"),
        (WHITE, "go movetime -1"),
    ];
    let mut e = Engine::start();
    for (fen, go) in cases {
        e.send(&format!("position fen {fen}"));
        let from = e.log.len();
        let start = Instant::now();
        e.send(go);
        std::thread::sleep(Duration::from_millis(200));
        e.send("stop");
        let bm = e.bestmove(T);
        assert!(legal(fen, best(&bm)), "{go}: {bm}");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{go}: {:?}",
            start.elapsed()
        );
        e.sync(T);
        // The only complaint allowed: a value beyond i64 is not a number to `go` (the search
        // failing, say on an overflow in a debug build, shows as an error with a fallback
        // move).
        for line in &e.log[from..] {
            assert!(
                !line.contains("error") || line.ends_with("needs a number; ignored"),
                "{go}: {line}"
            );
        }
    }
    e.quit();
}

/// Fault 6b (Linux: the check reads `/proc/meminfo`).
#[cfg(target_os = "linux")]
mod hash {
    use super::*;
    use std::process::Command;

    /// A field of `/proc/meminfo`, in MiB.
    fn meminfo_mib(field: &str) -> Option<u64> {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
        let kb: u64 = line.split_whitespace().next()?.parse().ok()?;
        Some(kb / 1024)
    }

    /// The engine with its address space limited to `mib` MiB (`ulimit -v`).
    fn start_limited(mib: u64) -> Engine {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(r#"ulimit -v "$1" && exec "$2""#)
            .arg("sh")
            .arg((mib * 1024).to_string())
            .arg(env!("CARGO_BIN_EXE_engram"));
        Engine::spawn(cmd)
    }

    /// Sends `go`, waits for its `bestmove`; returns it and the node count of its last `info`.
    fn search(e: &mut Engine, go: &str) -> (String, u64) {
        let from = e.log.len();
        e.send(go);
        let bm = e.bestmove(T);
        let nodes = e.log[from..]
            .iter()
            .rev()
            .find_map(|l| {
                let mut words = l.split_whitespace().skip_while(|&w| w != "nodes");
                words.nth(1)?.parse().ok()
            })
            .expect("an info line with nodes");
        (bm, nodes)
    }

    /// Fault 6b: `Hash` above `MemAvailable` is refused at once with an error naming the sizes,
    /// and nothing changes: the old table keeps its size and its entries (the next search finds
    /// them, node for node like an engine that was never asked).
    ///
    /// The size asked for lies above `MemAvailable` and, when the machine leaves room, halfway
    /// to `MemTotal + SwapTotal`, the most one mapping may have under Linux's default heuristic
    /// overcommit: `mmap` accepts it, and before the fix the engine faulted it in and was killed.
    /// So that this test can never do that (on code without the check, or a machine whose
    /// memory changes under it), the engine runs with its address space limited to that size:
    /// code without the check fails to map the table and reports a plain allocation failure,
    /// which the test tells apart.
    #[test]
    fn hash_over_the_available_memory_is_refused_and_changes_nothing() {
        let available = meminfo_mib("MemAvailable").expect("MemAvailable in /proc/meminfo");
        let ceiling =
            meminfo_mib("MemTotal").expect("MemTotal") + meminfo_mib("SwapTotal").unwrap_or(0);
        let ask = if ceiling > available + 2 {
            available + (ceiling - available) / 2
        } else {
            available + 1
        };
        if ask > 1 << 20 {
            eprintln!("more than the largest Hash (1 TiB) available: nothing to test");
            return;
        }
        const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let run = |refuse: bool| -> u64 {
            let mut e = start_limited(ask);
            e.send("setoption name Hash value 32");
            e.send("position startpos");
            search(&mut e, "go depth 8");
            if refuse {
                let start = Instant::now();
                e.send(&format!("setoption name Hash value {ask}"));
                e.sync(T);
                assert!(
                    start.elapsed() < Duration::from_secs(2),
                    "refused at once, not after touching memory: {:?}",
                    start.elapsed()
                );
                let errors: Vec<&String> = e.log.iter().filter(|l| l.contains("error")).collect();
                assert_eq!(errors.len(), 1, "{errors:?}");
                let err = errors[0];
                assert!(
                    err.starts_with("info string error: ")
                        && err.contains(&format!("{ask} MiB"))
                        && err.contains("does not fit in the memory available")
                        && err.contains("MiB available, at most")
                        && err.contains("the table stays at 32 MiB"),
                    "{err}"
                );
            }
            let (bm, nodes) = search(&mut e, "go depth 8");
            assert!(legal(STARTPOS, best(&bm)), "{bm}");
            if refuse {
                // Still searches, and other sizes are still accepted.
                e.send("setoption name Hash value 64");
                let (bm, _) = search(&mut e, "go depth 5");
                assert!(legal(STARTPOS, best(&bm)), "{bm}");
                e.sync(T);
                assert_eq!(e.log.iter().filter(|l| l.contains("error")).count(), 1);
            }
            e.quit();
            nodes
        };
        let expected = run(false);
        assert_eq!(
            run(true),
            expected,
            "after the refusal the search finds the old table's entries"
        );
    }
}
