//! The `engram perft` command line, run as a real process.

use crate::common;

use common::Engine;
use std::process::Command;
use std::time::Duration;

fn engram(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_engram"))
        .args(args)
        .output()
        .expect("engram runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_startpos() {
    let (ok, out, _) = engram(&["perft", "4"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"Nodes searched: 197281"));
    assert!(lines.contains(&"e2e4: 13160"), "{out}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        20
    );
}

#[test]
fn perft_fen_and_chess960() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (ok, out, _) = engram(&["perft", "3", "--fen", kiwipete]);
    assert!(ok);
    assert!(
        out.contains("e1g1: ") && out.ends_with("Nodes searched: 97862\n"),
        "{out}"
    );
    let (ok, out, _) = engram(&["perft", "3", "--fen", kiwipete, "--chess960"]);
    assert!(ok);
    assert!(
        out.contains("e1h1: ") && out.ends_with("Nodes searched: 97862\n"),
        "{out}"
    );
    let fischer = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let (ok, out, _) = engram(&["perft", "4", "--chess960", "--fen", fischer]);
    assert!(ok);
    assert!(out.ends_with("Nodes searched: 326672\n"), "{out}");
}

#[test]
fn perft_hash_and_threads_print_the_same_divide() {
    // A 1 MiB table (replacement and collisions at depth 5), one and two threads, and
    // Chess960 castling.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let fischer = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    for (base, total) in [
        (vec!["perft", "5"], "4865609"),
        (vec!["perft", "4", "--fen", kiwipete], "4085603"),
        (vec!["perft", "4", "--fen", fischer, "--chess960"], "326672"),
        (vec!["perft", "1"], "20"),
        (vec!["perft", "0"], "1"),
    ] {
        let (ok, want, _) = engram(&base);
        assert!(
            ok && want.ends_with(&format!("\nNodes searched: {total}\n")),
            "{want}"
        );
        for extra in [
            &["--hash", "1"][..],
            &["--threads", "2"],
            &["--hash", "1", "--threads", "2"],
            &["--threads", "3", "--hash", "3"],
        ] {
            let args: Vec<&str> = base.iter().chain(extra).copied().collect();
            let (ok, out, err) = engram(&args);
            assert!(ok, "{args:?}: {err}");
            assert_eq!(out, want, "{args:?}");
            assert!(err.starts_with("time "), "{args:?}: {err}");
        }
    }
}

#[test]
fn perft_hash_and_threads_out_of_range() {
    for args in [
        &["perft", "3", "--threads", "0"][..],
        &["perft", "3", "--threads", "1025"],
        &["perft", "3", "--hash", "1048577"],
        &["perft", "3", "--hash", "-1"],
        &["perft", "3", "--hash", "x"],
    ] {
        let (ok, out, err) = engram(args);
        assert!(!ok && out.is_empty(), "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
#[cfg(target_os = "linux")]
fn perft_hash_larger_than_the_memory_is_refused() {
    // In range, but more than this machine has: refused before allocating, exit code 1.
    let (ok, out, err) = engram(&["perft", "1", "--hash", "1048576"]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.starts_with("error: a perft table of 1048576 MiB"),
        "{err}"
    );
}

#[test]
fn perft_bad_input_is_an_error_not_a_panic() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["perft", "3", "--fen"],
        &["perft", "3", "--fen", "not a fen"],
        &["perft", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["frobnicate"],
    ] {
        let (ok, _, err) = engram(args);
        assert!(!ok, "{args:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn perft_from_the_shell_equals_go_perft() {
    let mut e = Engine::start();
    e.send("position startpos");
    for depth in 0..=3 {
        let (ok, out, err) = engram(&["perft", &depth.to_string()]);
        assert!(ok, "perft {depth}: {err}");
        assert!(
            err.starts_with("time "),
            "the timing line goes to stderr: {err}"
        );
        let seen = e.log.len();
        e.send(&format!("go perft {depth}"));
        e.wait_for(Duration::from_secs(10), |l| l.starts_with("Nodes searched"));
        let uci: Vec<&str> = e.log[seen..].iter().map(String::as_str).collect();
        let shell: Vec<&str> = out.lines().collect();
        assert_eq!(shell, uci, "depth {depth}");
        let moves = shell
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count();
        let total = ["1", "20", "400", "8902"][depth];
        assert_eq!(moves, if depth == 0 { 0 } else { 20 }, "depth {depth}");
        assert_eq!(
            shell[shell.len() - 2..],
            ["", &format!("Nodes searched: {total}")]
        );
    }
    e.quit();
}
