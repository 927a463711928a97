//! Zobrist keys: Polyglot test vectors, incremental = from-scratch over random games, and a
//! cross-check against shakmaty's Polyglot-compatible `Zobrist64`.

use crate::common;

use engram_chess::{Board, MoveKind, Position};

#[test]
fn polyglot_vectors() {
    let path = format!(
        "{}/tests/data/zobrist-vectors.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (fen, key) = line.split_once(';').unwrap();
        let key = u64::from_str_radix(key.trim(), 16).unwrap();
        let board = Board::from_fen(fen.trim(), false).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(board.key(), key, "{fen}");
        checked += 1;
    }
    assert!(checked >= 2000, "only {checked} vectors");
}

/// Random games from varied starts: after every make and every unmake, every incremental key
/// equals the key computed from scratch, and unmake restores the board exactly.
#[test]
fn incremental_keys_and_unmake() {
    let mut rng = common::Rng(0xdead_beef);
    let starts = common::random_positions(200, 7);
    for start in starts {
        let mut pos = Position::new(start);
        let mut history = vec![start];
        for _ in 0..60 {
            let b = *pos.board();
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            if !b.in_check() && rng.below(10) == 0 {
                pos.make_null();
            } else {
                pos.make(moves[rng.below(moves.len())]);
            }
            let now = pos.board();
            assert_eq!(now.keys(), now.compute_keys(), "after a move to {now}");
            history.push(*now);
        }
        while history.len() > 1 {
            history.pop();
            pos.unmake();
            assert_eq!(pos.board(), history.last().unwrap());
            assert_eq!(pos.board().keys(), pos.board().compute_keys());
        }
    }
}

/// `key_after` is a prefetch hint: it must equal the child's key in the cases its documentation
/// calls exact (normal moves that leave no en-passant square and change no castling right).
#[test]
fn key_after_exact_where_documented() {
    let (mut exact, mut other) = (0, 0);
    for board in common::random_positions(2_000, 5) {
        for &mv in board.legal_moves().iter() {
            let mut child = board;
            child.play(mv);
            if mv.kind() == MoveKind::Normal
                && child.en_passant().is_none()
                && child.castling_rights() == board.castling_rights()
            {
                assert_eq!(board.key_after(mv), child.key(), "{board} {mv:?}");
                exact += 1;
            } else {
                other += 1;
            }
        }
    }
    assert!(
        exact > 10_000 && other > 100,
        "{exact} exact, {other} other"
    );
}

#[test]
fn keys_match_shakmaty() {
    use shakmaty::zobrist::Zobrist64;
    use shakmaty::{fen::Fen, CastlingMode, Chess, EnPassantMode, Position as _};
    let mut checked = 0;
    for board in common::random_positions(5_000, 11) {
        if board.is_chess960() {
            continue;
        }
        let fen: Fen = board.to_fen().parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let theirs = pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0;
        assert_eq!(board.key(), theirs, "{board}");
        checked += 1;
    }
    assert!(checked > 1_500, "only {checked} standard positions");
}
