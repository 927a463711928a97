//! Perft against public suites (see `tests/data/README.md` for sources). CI runs every count up
//! to a node limit; the deep counts run with `cargo test --release -- --ignored`.

use crate::common;

use engram_chess::{perft, Board};

/// Runs every `(depth, count)` of `file` whose count is at most `max_nodes`; returns how many ran.
fn run_suite(file: &str, chess960: bool, max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in common::load(file) {
        let board = Board::from_fen(&case.fen, chess960)
            .unwrap_or_else(|e| panic!("{file}: {}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if expected <= max_nodes {
                assert_eq!(
                    perft(&board, depth),
                    expected,
                    "{file}: {} depth {depth}",
                    case.fen
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn cpw_positions() {
    // All six Chess Programming Wiki positions (plus the mirrored position 4).
    assert!(run_suite("cpw.epd", false, 20_000_000) >= 30);
}

#[test]
fn kiwipete_depth_5() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(
        perft(&Board::from_fen(kiwipete, false).unwrap(), 5),
        193_690_690
    );
}

#[test]
fn standard_suite() {
    assert!(run_suite("standard.epd", false, 5_000_000) >= 600);
}

#[test]
fn tricky_suite() {
    assert_eq!(run_suite("tricky.epd", false, 100_000_000), 50);
}

#[test]
fn chess960_suites() {
    assert_eq!(run_suite("tricky960.epd", true, u64::MAX), 20);
    assert!(run_suite("fischer960.epd", true, 400_000) >= 3_000);
}

#[test]
fn check_and_en_passant_suites() {
    assert_eq!(run_suite("ferdy_double_check.epd", false, u64::MAX), 184);
    assert!(run_suite("ferdy_enpassant_1000.epd", false, 3_000_000) >= 900);
}

#[test]
fn random_positions_suite() {
    assert!(run_suite("random_marcel_1500.epd", false, 300_000) >= 5_000);
}

#[test]
#[ignore = "deep perft: minutes; run with --ignored"]
fn deep_suites() {
    run_suite("cpw.epd", false, 10_000_000_000);
    run_suite("standard.epd", false, u64::MAX);
    run_suite("fischer960.epd", true, u64::MAX);
    run_suite("random_marcel_1500.epd", false, u64::MAX);
}
