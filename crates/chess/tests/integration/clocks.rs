//! Issue 13, fault 5b: the halfmove clock and fullmove number of a FEN can be 65535, the
//! largest `u16`; playing on must saturate them, not overflow (a panic with overflow checks,
//! a silent wrap to 0 without).

use engram_chess::{Board, Position};

fn play(pos: &mut Position, uci: &str) {
    let mv = pos.board().parse_uci(uci).expect("legal move");
    pos.make(mv);
}

fn clocks(pos: &Position) -> (u16, u16) {
    (pos.board().halfmove_clock(), pos.board().fullmove_number())
}

/// The FEN of the current position, after checking that it reads back as the same board.
fn round_trip(pos: &Position) -> String {
    let fen = pos.board().to_fen();
    let again = Board::from_fen(&fen, false).expect("to_fen gives a valid FEN");
    assert_eq!(again.to_fen(), fen);
    assert_eq!(again.key(), pos.board().key());
    assert_eq!(
        (again.halfmove_clock(), again.fullmove_number()),
        clocks(pos)
    );
    fen
}

#[test]
fn clocks_at_65535_saturate_on_quiet_moves() {
    let fen = "4k3/8/8/8/8/8/P7/4K2R w - - 65535 65535";
    let mut pos = Position::new(Board::from_fen(fen, false).unwrap());
    assert!(pos.is_fifty_move_draw());
    play(&mut pos, "h1h2"); // White, quiet, not a pawn: the halfmove clock would be 65536
    assert_eq!(clocks(&pos), (65535, 65535));
    assert!(pos.is_fifty_move_draw());
    assert_eq!(round_trip(&pos), "4k3/8/8/8/8/8/P6R/4K3 b - - 65535 65535");
    play(&mut pos, "e8d8"); // Black: the fullmove number would be 65536 too
    assert_eq!(clocks(&pos), (65535, 65535));
    assert!(pos.is_fifty_move_draw());
    assert_eq!(round_trip(&pos), "3k4/8/8/8/8/8/P6R/4K3 w - - 65535 65535");
    // The reversible history is what was played, whatever the clock says.
    assert_eq!(pos.repetitions(), 0);
    assert_eq!(pos.reversible_tail().ply(), 2);
    pos.make_null();
    assert_eq!(clocks(&pos), (65535, 65535));
    pos.unmake();
    // A pawn move still resets the halfmove clock; the fullmove number stays at the top.
    play(&mut pos, "a2a3");
    assert_eq!(clocks(&pos), (0, 65535));
    assert!(!pos.is_fifty_move_draw());
    play(&mut pos, "d8c8");
    assert_eq!(clocks(&pos), (1, 65535));
    assert_eq!(round_trip(&pos), "2k5/8/8/8/8/P7/7R/4K3 w - - 1 65535");
    // Taking moves back restores the saturated clocks exactly.
    for _ in 0..4 {
        pos.unmake();
    }
    assert_eq!(pos.board().to_fen(), fen);
}

#[test]
fn clocks_at_65535_with_black_to_move() {
    let fen = "4k3/8/8/8/8/8/8/4K2R b - - 65535 65535";
    let mut pos = Position::new(Board::from_fen(fen, false).unwrap());
    play(&mut pos, "e8f7");
    assert_eq!(clocks(&pos), (65535, 65535));
    assert_eq!(round_trip(&pos), "8/5k2/8/8/8/8/8/4K2R w - - 65535 65535");
    // Just below the top: one more move reaches 65535 and stays there.
    let mut pos =
        Position::new(Board::from_fen("4k3/8/8/8/8/8/8/4K2R b - - 65534 65534", false).unwrap());
    for (mv, expected) in [("e8e7", (65535, 65535)), ("h1h2", (65535, 65535))] {
        play(&mut pos, mv);
        assert_eq!(clocks(&pos), expected, "after {mv}");
    }
}
