//! `Board::gives_check` against playing the move and asking `in_check`, for every legal move
//! of the perft corpora's positions and of the positions one or two moves after them
//! (castling in Chess960 too, en passant, double checks and promotions included).

use crate::common;

use engram_chess::Board;

/// Checks every legal move of `board` and, `depth` more plies down, of its descendants;
/// counts the moves and the checks among them.
fn walk(board: &Board, depth: u32, checks: &mut u64, moves: &mut u64) {
    for &mv in board.legal_moves().iter() {
        let mut after = *board;
        after.play(mv);
        let expected = after.in_check();
        assert_eq!(
            board.gives_check(mv),
            expected,
            "{}: {}",
            board.to_fen(),
            board.to_uci(mv)
        );
        *moves += 1;
        *checks += expected as u64;
        if depth > 0 {
            walk(&after, depth - 1, checks, moves);
        }
    }
}

fn suite(file: &str, chess960: bool, depth: u32) -> (u64, u64) {
    let (mut checks, mut moves) = (0, 0);
    for case in common::load(file) {
        let board = Board::from_fen(&case.fen, chess960).expect("the corpus FEN is valid");
        walk(&board, depth, &mut checks, &mut moves);
    }
    (checks, moves)
}

#[test]
fn gives_check_agrees_with_playing_the_move() {
    let mut total = (0, 0);
    for (file, chess960, depth) in [
        ("cpw.epd", false, 2),
        ("tricky.epd", false, 2),
        ("ferdy_double_check.epd", false, 1),
        ("ferdy_enpassant_1000.epd", false, 1),
        ("tricky960.epd", true, 2),
        ("random_marcel_1500.epd", false, 1),
    ] {
        let (checks, moves) = suite(file, chess960, depth);
        assert!(checks > 0, "{file}: no checking move met");
        total.0 += checks;
        total.1 += moves;
    }
    eprintln!("checking moves, moves: {total:?}");
    // Enough moves, and checks among them, for the test to mean something.
    assert!(total.0 > 10_000 && total.1 > 1_000_000, "{total:?}");
}
