//! Cross-checks of the move generator against cozy-chess, and of `is_pseudo_legal` /
//! `is_legal` against the generator for all 65,536 move values.

use crate::common;

use engram_chess::{Board, GenType, Move, MoveList};
use std::collections::BTreeSet;

fn cozy_moves(board: &Board) -> BTreeSet<String> {
    let mut b = *board;
    b.set_chess960(true);
    let cozy = cozy_chess::Board::from_fen(&b.to_fen(), true)
        .unwrap_or_else(|e| panic!("cozy rejects {b}: {e:?}"));
    let mut set = BTreeSet::new();
    cozy.generate_moves(|moves| {
        set.extend(moves.into_iter().map(|m| m.to_string()));
        false
    });
    set
}

fn our_moves(board: &Board) -> BTreeSet<String> {
    let mut b = *board;
    b.set_chess960(true); // king-takes-rook castling, as cozy-chess writes it
    b.legal_moves().iter().map(|&m| b.to_uci(m)).collect()
}

#[test]
fn same_legal_moves_as_cozy_chess() {
    let positions = common::random_positions(20_000, 1);
    for board in &positions {
        assert_eq!(our_moves(board), cozy_moves(board), "{board}");
        assert_eq!(board.count_moves(), board.legal_moves().len() as u64);
    }
}

#[test]
fn stages_partition_the_moves() {
    for board in common::random_positions(5_000, 2) {
        let all = board.legal_moves();
        let (mut noisy, mut quiet) = (MoveList::new(), MoveList::new());
        board.generate(GenType::Noisy, &mut noisy);
        board.generate(GenType::Quiet, &mut quiet);
        let mut union: Vec<u16> = noisy
            .iter()
            .chain(quiet.iter())
            .map(|m| m.to_u16())
            .collect();
        union.sort();
        let mut expected: Vec<u16> = all.iter().map(|m| m.to_u16()).collect();
        expected.sort();
        assert_eq!(union, expected, "{board}");
        for &m in noisy.iter() {
            let capture = board.piece_on(m.to()).is_some() && !m.is_castling() || m.is_en_passant();
            let queen_promo = m.promotion_kind() == Some(engram_chess::PieceKind::Queen);
            assert!(capture || queen_promo, "{board}: {m:?} is not noisy");
            assert!(m.promotion_kind().is_none() || queen_promo);
        }
        let mut ev = MoveList::new();
        board.evasions(&mut ev);
        assert_eq!(ev.len(), if board.in_check() { all.len() } else { 0 });
    }
}

#[test]
fn legality_tests_agree_with_generator_for_every_move_value() {
    let positions = common::random_positions(300, 3);
    for board in &positions {
        let legal = board.legal_moves();
        let mut n_legal = 0;
        for bits in 0..=u16::MAX {
            let mv = Move::from_u16(bits);
            let is_legal = board.is_legal(mv);
            assert_eq!(
                is_legal,
                legal.contains(mv),
                "{board}: {mv:?} ({bits:#06x})"
            );
            if is_legal {
                n_legal += 1;
                assert!(board.is_pseudo_legal(mv));
            }
            if board.is_pseudo_legal(mv) {
                // A pseudo-legal move can be played on a copy without corrupting it, and is
                // legal exactly when it leaves the own king unattacked.
                let mut after = *board;
                after.play(mv);
                let us = board.side_to_move();
                let king_safe = !after.is_attacked(after.king(us), !us, after.occupied());
                if !mv.is_castling() {
                    assert_eq!(king_safe, is_legal, "{board}: {mv:?}");
                }
            }
        }
        assert_eq!(n_legal, legal.len());
    }
}
