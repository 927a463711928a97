//! Random and mutated FEN strings never panic, and whatever is accepted is a consistent,
//! legal position that survives a FEN round trip.

use engram_chess::{Board, Color};
use proptest::prelude::*;

fn check(fen: &str, chess960: bool) {
    if let Ok(board) = Board::from_fen(fen, chess960) {
        assert_eq!(board.keys(), board.compute_keys(), "{fen}");
        let them = !board.side_to_move();
        assert!(
            !board.is_attacked(board.king(them), board.side_to_move(), board.occupied()),
            "{fen}"
        );
        for c in Color::ALL {
            assert_eq!(board.colored(c, engram_chess::PieceKind::King).len(), 1);
        }
        let again = Board::from_fen(&board.to_fen(), chess960)
            .unwrap_or_else(|e| panic!("{fen} -> {board}: {e}"));
        assert_eq!(again, board, "{fen}");
        // Whatever was accepted can be searched without trouble.
        let _ = engram_chess::perft(&board, 2);
        for &m in board.legal_moves().iter() {
            let _ = board.to_san(m);
        }
    }
}

const SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,100}") {
        check(&s, false);
        check(&s, true);
    }

    #[test]
    fn fen_shaped_strings_never_panic(
        s in "([pnbrqkPNBRQK1-9]{1,9}/){7}[pnbrqkPNBRQK1-9]{1,9} [wbx] (-|[KQkqA-Ha-h]{1,4}) (-|[a-h][1-8]) [0-9]{1,3} [0-9]{1,3}"
    ) {
        check(&s, false);
        check(&s, true);
    }

    #[test]
    fn mutated_fens_never_panic(seed in 0usize..5, edits in proptest::collection::vec((0usize..100, 0u8..128, 0u8..3), 1..6)) {
        let mut bytes = SEEDS[seed].as_bytes().to_vec();
        for (pos, byte, op) in edits {
            let i = pos % (bytes.len() + 1);
            match op {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        let s = String::from_utf8_lossy(&bytes).into_owned();
        check(&s, false);
        check(&s, true);
    }
}
