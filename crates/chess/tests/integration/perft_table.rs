//! Perft with a hash table, on one and two threads, gives the counts of perft without one.
//! The tables are small (1 MiB, shared by every position of a test, or a few buckets) so that
//! replacement and index collisions happen all the time.

use crate::common;

use engram_chess::perft::{divide_with, perft_with_table, PerftTable};
use engram_chess::{divide, perft, Board};

/// A fresh 1 MiB table.
fn small_table() -> PerftTable {
    PerftTable::new(1).unwrap()
}

/// Checks every `(depth, count)` of `file` with at most `max_nodes` nodes, on at most `lines`
/// positions: one thread with table `one`, two threads with table `two` (both kept across
/// positions). Returns how many counts were checked.
fn check_suite(
    file: &str,
    chess960: bool,
    lines: usize,
    max_nodes: u64,
    one: &PerftTable,
    two: &PerftTable,
) -> usize {
    let mut checked = 0;
    for case in common::load(file).iter().take(lines) {
        let board = Board::from_fen(&case.fen, chess960).unwrap();
        for &(depth, expected) in &case.counts {
            if expected > max_nodes {
                continue;
            }
            let got = perft_with_table(&board, depth, one);
            assert_eq!(
                got, expected,
                "{file}: {} depth {depth}, 1 thread",
                case.fen
            );
            let got: u64 = divide_with(&board, depth, Some(two), 2)
                .iter()
                .map(|&(_, n)| n)
                .sum();
            let got = if depth == 0 { 1 } else { got };
            assert_eq!(
                got, expected,
                "{file}: {} depth {depth}, 2 threads",
                case.fen
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn cpw_positions() {
    let (one, two) = (small_table(), small_table());
    // Startpos to D6, Kiwipete D5, position 3 D7, position 4 (and mirrored) D5, 5 and 6 D5.
    assert_eq!(
        check_suite("cpw.epd", false, 7, 200_000_000, &one, &two),
        38
    );
}

#[test]
fn suite_samples() {
    let (one, two) = (small_table(), small_table());
    let mut checked = 0;
    checked += check_suite("standard.epd", false, 128, 2_000_000, &one, &two);
    checked += check_suite("tricky.epd", false, 41, 5_000_000, &one, &two);
    checked += check_suite("tricky960.epd", true, 5, u64::MAX, &one, &two);
    checked += check_suite("fischer960.epd", true, 60, 1_000_000, &one, &two);
    checked += check_suite("ferdy_double_check.epd", false, 60, u64::MAX, &one, &two);
    checked += check_suite(
        "ferdy_enpassant_1000.epd",
        false,
        200,
        2_000_000,
        &one,
        &two,
    );
    checked += check_suite("random_marcel_1500.epd", false, 200, 1_000_000, &one, &two);
    assert!(checked >= 1_900, "{checked}");
}

#[test]
fn divide_with_equals_divide_move_for_move() {
    let table = small_table();
    for case in common::load("cpw.epd") {
        let board = Board::from_fen(&case.fen, false).unwrap();
        for depth in 0..=4 {
            let want = divide(&board, depth);
            for threads in [1, 2, 3] {
                assert_eq!(divide_with(&board, depth, None, threads), want);
                assert_eq!(divide_with(&board, depth, Some(&table), threads), want);
            }
        }
    }
}

#[test]
fn a_table_of_one_bucket_under_four_threads() {
    // Every entry lands in the same three slots, written by four threads at once: torn and
    // colliding slots everywhere, and still the exact counts.
    for buckets in [1, 3] {
        let table = PerftTable::with_buckets(buckets).unwrap();
        let board = Board::startpos();
        let total: u64 = divide_with(&board, 5, Some(&table), 4)
            .iter()
            .map(|&(_, n)| n)
            .sum();
        assert_eq!(total, 4_865_609);
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let board = Board::from_fen(kiwipete, false).unwrap();
        assert_eq!(perft_with_table(&board, 4, &table), 4_085_603);
    }
}

#[test]
fn one_table_for_chess960_roots_that_differ_only_in_the_castling_rook() {
    // Same pieces and the same Polyglot key; the king-side right is the f-rook's in one and
    // the h-rook's in the other, so the trees differ. A table shared by both must not mix them.
    let table = small_table();
    for fens in [
        [
            "4k3/8/8/8/8/8/8/1K3R1R w F - 0 1",
            "4k3/8/8/8/8/8/8/1K3R1R w H - 0 1",
        ],
        [
            "6k1/8/8/8/8/8/8/1R3RK1 w B - 0 1",
            "6k1/8/8/8/8/8/8/1R3RK1 w F - 0 1",
        ],
    ] {
        let [a, b] = fens.map(|f| Board::from_fen(f, true).unwrap());
        assert_eq!(a.key(), b.key());
        for depth in 2..=4 {
            let (want_a, want_b) = (perft(&a, depth), perft(&b, depth));
            assert_ne!(want_a, want_b, "{fens:?} depth {depth}");
            assert_eq!(perft_with_table(&a, depth, &table), want_a);
            assert_eq!(perft_with_table(&b, depth, &table), want_b);
        }
    }
}
