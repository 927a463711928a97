//! The `tune` feature (`cargo test -p engram --release --features tune --test tune`): every
//! parameter of `search/params.rs` is a UCI spin option, and setting one changes the search.
//! Without the feature this file is empty; `.ci/run` runs it with the feature.
#![cfg(feature = "tune")]

mod common;

use common::Engine;
use engram::search::params::PARAMS;
use std::time::Duration;

const T: Duration = Duration::from_secs(60);

/// A middlegame with a halfmove clock of 60, so that `tt_cut_halfmove` matters too.
const FEN: &str = "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 60 40";

/// A position whose side to move, a tempo down, can repeat: the parameters of draw scores
/// act only where the search meets a repetition, which the middlegame above rarely does.
const REPEATING: &str = "startpos moves g1f3 g8f6 f3g1 f6g8 g1f3";

/// The node count of `go depth <depth>` in the middlegame `FEN` from a cleared table and
/// history.
fn nodes(engine: &mut Engine, depth: u32) -> u64 {
    nodes_in(engine, &format!("fen {FEN}"), depth)
}

/// The node count of `go depth <depth>` in `position <position>` from a cleared table and
/// history.
fn nodes_in(engine: &mut Engine, position: &str, depth: u32) -> u64 {
    engine.send("ucinewgame");
    engine.send(&format!("position {position}"));
    engine.send(&format!("go depth {depth}"));
    engine.bestmove(T);
    let info = engine
        .log
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" nodes "))
        .expect("an info line with nodes");
    let mut words = info.split_whitespace();
    words.find(|&w| w == "nodes");
    words.next().unwrap().parse().unwrap()
}

#[test]
fn uci_lists_every_parameter_as_a_spin_option() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.wait_for(T, |l| l == "uciok");
    for p in PARAMS {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            p.name, p.default, p.min, p.max
        );
        let count = engine.log.iter().filter(|l| **l == line).count();
        assert_eq!(count, 1, "'{line}' listed {count} times");
    }
    engine.send("setoption name rfp_margin value 9999");
    let err = engine.wait_for(T, |l| l.starts_with("info string"));
    assert!(err.contains("out of range 30..=200"), "{err}");
    engine.send("tune");
    engine.sync(T);
    assert!(engine
        .log
        .iter()
        .any(|l| l == "rfp_margin, int, 80, 30, 200, 8.5, 0.002"));
}

#[test]
fn setting_a_parameter_changes_the_search() {
    // Parameters that a single-thread search to a fixed depth never reads: the time
    // management's.
    let idle = |name: &str| name.starts_with("tm_");
    let mut engine = Engine::start();
    let depth = 9;
    let baseline = nodes(&mut engine, depth);
    assert_eq!(nodes(&mut engine, depth), baseline, "repeatable");
    // Some parameters act only under another setting: those of enhanced transposition
    // cutoffs with the option `ETC` on, the residual correction's with `corr_mode` 1. The
    // setting a parameter needs, and what it is set back to.
    let needs = |name: &str| -> Option<(&str, &str, &str)> {
        if name.starts_with("etc_") {
            Some(("ETC", "true", "false"))
        } else if name.starts_with("corr_w_") || name == "corr_rate" {
            Some(("corr_mode", "1", "0"))
        } else {
            None
        }
    };
    // The parameters of draw scores act only where the search meets a repetition.
    let draws = |name: &str| name == "draw_jitter";
    // The singular search's multi-cut acts only in deeper nodes than depth 9 reaches here.
    let deep = |name: &str| name == "se_multicut";
    let count = |engine: &mut Engine, name: &str| {
        if draws(name) {
            nodes_in(engine, REPEATING, depth)
        } else if deep(name) {
            nodes(engine, depth + 1)
        } else {
            nodes(engine, depth)
        }
    };
    let mut unchanged = Vec::new();
    for p in PARAMS.iter().filter(|p| !idle(p.name)) {
        let need = needs(p.name);
        if let Some((option, on, _)) = need {
            engine.send(&format!("setoption name {option} value {on}"));
        }
        let base = count(&mut engine, p.name);
        // Either end of the range must change the node count (a depth limit's maximum, say,
        // may be beyond this search's depth).
        let changed = [p.min, p.max].into_iter().any(|value| {
            engine.send(&format!("setoption name {} value {value}", p.name));
            count(&mut engine, p.name) != base
        });
        engine.send(&format!("setoption name {} value {}", p.name, p.default));
        if let Some((option, _, off)) = need {
            engine.send(&format!("setoption name {option} value {off}"));
        }
        if !changed {
            unchanged.push(p.name);
        }
    }
    assert!(
        unchanged.is_empty(),
        "no effect on the search: {unchanged:?}"
    );
    assert_eq!(nodes(&mut engine, depth), baseline, "defaults restored");
    assert!(
        !engine
            .log
            .iter()
            .any(|l| l.starts_with("info string error")),
        "{:?}",
        engine
            .log
            .iter()
            .filter(|l| l.contains("error"))
            .collect::<Vec<_>>()
    );
}
