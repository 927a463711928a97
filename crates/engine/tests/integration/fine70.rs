//! Fine #70 (Lasker–Reichhelm 1901): only Kb1 wins, and seeing it needs the transposition
//! table (seed 003, "See also"). The full test is the issue's: `go movetime 5000` with Hash 16
//! on the release binary; CI runs a fixed-depth version that takes well under a second.

use crate::common;

use common::{best, Engine};
use std::time::Duration;

const FINE70: &str = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1";

#[test]
fn fine70_fixed_depth() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 16");
    e.send(&format!("position fen {FINE70}"));
    e.send("go depth 28");
    assert_eq!(best(&e.bestmove(Duration::from_secs(60))), "a1b1");
    e.quit();
}

#[test]
#[ignore = "5 s of search; run with --ignored on a release build"]
fn fine70_within_five_seconds() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 16");
    e.send(&format!("position fen {FINE70}"));
    e.send("go movetime 5000");
    assert_eq!(best(&e.bestmove(Duration::from_secs(10))), "a1b1");
    e.quit();
}
