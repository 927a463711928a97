//! SAN in and out: for every legal move of many positions (the perft corpora's FENs, standard and
//! Chess960, and random playouts from them) `parse_san(to_san(mv)) == mv`, the other spellings
//! found in PGN files parse to the same move, and shakmaty agrees both ways (it reads our SAN as
//! the same move, writes the same text, and we read its SAN as the same move).

use crate::common;

use engram_chess::{Board, Move, SanError};
use proptest::prelude::*;
use shakmaty::san::SanPlus;
use shakmaty::{fen::Fen, CastlingMode, Chess, Position as _};

/// The corpora's positions as given, then random positions reached from them.
fn positions() -> Vec<Board> {
    let mut boards = Vec::new();
    for (file, chess960) in [
        ("cpw.epd", false),
        ("standard.epd", false),
        ("tricky.epd", false),
        ("ferdy_double_check.epd", false),
        ("ferdy_enpassant_1000.epd", false),
        ("random_marcel_1500.epd", false),
        ("tricky960.epd", true),
        ("fischer960.epd", true),
    ] {
        for case in common::load(file) {
            let board = Board::from_fen(&case.fen, chess960)
                .unwrap_or_else(|e| panic!("{file}: {}: {e}", case.fen));
            boards.push(board);
        }
    }
    boards.extend(common::random_positions(6_000, 21));
    boards
}

/// The same move spelt from-square to-square (`Ng1f3`, `e5xd6`, `a7a8=Q`).
fn long_form(board: &Board, mv: Move) -> String {
    let piece = board.piece_on(mv.from()).unwrap().kind();
    let mut s = String::new();
    if piece != engram_chess::PieceKind::Pawn {
        s.push(piece.to_char().to_ascii_uppercase());
    }
    s.push_str(&mv.from().to_string());
    if board.piece_on(mv.to()).is_some() || mv.is_en_passant() {
        s.push('x');
    }
    s.push_str(&mv.to().to_string());
    if let Some(k) = mv.promotion_kind() {
        s.push('=');
        s.push(k.to_char().to_ascii_uppercase());
    }
    s
}

#[test]
fn san_round_trips_and_other_spellings() {
    let suffixes = ["!", "?", "!!", "??", "!?", "?!"];
    let mut moves = 0;
    let (mut castles, mut promotions, mut en_passant, mut disambiguated, mut mates) =
        (0, 0, 0, 0, 0);
    for (i, board) in positions().iter().enumerate() {
        for &mv in board.legal_moves().iter() {
            let san = board.to_san(mv);
            assert_eq!(board.parse_san(&san), Ok(mv), "{board}: {san}");
            let suffix = suffixes[(i + moves) % suffixes.len()];
            assert_eq!(
                board.parse_san(&format!("{san}{suffix}")),
                Ok(mv),
                "{board}: {san}"
            );
            if mv.is_castling() {
                castles += 1;
                assert_eq!(
                    board.parse_san(&san.replace('O', "0")),
                    Ok(mv),
                    "{board}: {san}"
                );
            } else {
                let long = long_form(board, mv);
                assert_eq!(board.parse_san(&long), Ok(mv), "{board}: {long}");
            }
            if mv.is_promotion() {
                promotions += 1;
                assert_eq!(
                    board.parse_san(&san.replace('=', "")),
                    Ok(mv),
                    "{board}: {san}"
                );
            }
            en_passant += usize::from(mv.is_en_passant());
            mates += usize::from(san.ends_with('#'));
            let piece = board.piece_on(mv.from()).unwrap().kind();
            let plain = 1 + usize::from(san.contains('x')) + 2;
            if piece != engram_chess::PieceKind::Pawn
                && !mv.is_castling()
                && san.trim_end_matches(['+', '#']).len() > plain
            {
                disambiguated += 1;
            }
            moves += 1;
        }
    }
    // The corpora cover every kind of move many times over.
    assert!(moves > 200_000, "{moves} moves");
    for (what, n) in [
        ("castling", castles),
        ("promotions", promotions),
        ("en passant", en_passant),
        ("disambiguated", disambiguated),
        ("mates", mates),
    ] {
        assert!(n > 100, "only {n} {what}");
    }
}

#[test]
fn shakmaty_agrees_both_ways() {
    let mut checked = 0;
    for board in positions() {
        let mode = if board.is_chess960() {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let fen = Fen::from_ascii(board.to_fen().as_bytes()).unwrap();
        // A few perft positions have a check shakmaty calls impossible; it can still play them.
        let pos: Chess = match fen.into_position(mode) {
            Ok(pos) => pos,
            Err(e) => e
                .ignore_impossible_check()
                .unwrap_or_else(|e| panic!("{board}: {e}")),
        };
        for &mv in board.legal_moves().iter() {
            let ours = board.to_san(mv);
            let parsed = SanPlus::from_ascii(ours.as_bytes())
                .unwrap_or_else(|e| panic!("{board}: shakmaty cannot read {ours}: {e}"));
            let theirs = parsed
                .san
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{board}: shakmaty rejects {ours}: {e}"));
            assert_eq!(
                theirs.to_uci(mode).to_string(),
                board.to_uci(mv),
                "{board}: {ours}"
            );
            assert_eq!(
                SanPlus::from_move(pos.clone(), theirs).to_string(),
                ours,
                "{board}"
            );
        }
        for m in pos.legal_moves() {
            let text = SanPlus::from_move(pos.clone(), m).to_string();
            let ours = board
                .parse_san(&text)
                .unwrap_or_else(|e| panic!("{board}: {text}: {e}"));
            assert_eq!(board.to_uci(ours), m.to_uci(mode).to_string(), "{board}");
            checked += 1;
        }
    }
    assert!(checked > 200_000, "{checked}");
}

/// Whatever `parse_san` accepts is a legal move that writes and reads back to itself.
fn check(board: &Board, text: &str) {
    match board.parse_san(text) {
        Ok(mv) => {
            assert!(board.is_legal(mv), "{board}: {text}");
            assert_eq!(
                board.parse_san(&board.to_san(mv)),
                Ok(mv),
                "{board}: {text}"
            );
        }
        Err(e) => {
            assert_eq!(e.text(), text);
            let _ = e.to_string();
            if let SanError::Ambiguous { candidates, .. } = e {
                assert!(candidates.len() >= 2, "{board}: {text}");
            }
        }
    }
}

const BOARDS: &[(&str, bool)] = &[
    (engram_chess::STARTPOS, false),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
    ("1n5k/P7/8/3pP3/8/8/8/6K1 w - d6 0 2", false),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    ("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", false),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,12}", i in 0usize..6) {
        let (fen, chess960) = BOARDS[i];
        check(&Board::from_fen(fen, chess960).unwrap(), &s);
    }

    #[test]
    fn san_shaped_text_never_panics(
        s in "[NBRQKP]?[a-h]?[1-8]?x?[a-h][1-8](=?[NBRQKnbrqk])?[+#!?]{0,2}|[O0]-[O0](-[O0])?[+#]?",
        i in 0usize..6,
    ) {
        let (fen, chess960) = BOARDS[i];
        check(&Board::from_fen(fen, chess960).unwrap(), &s);
    }
}
