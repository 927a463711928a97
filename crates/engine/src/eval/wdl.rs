//! Win, draw and loss chances from a score: the model behind `UCI_ShowWDL` and `engram
//! analyse`'s win chance, fitted on Engram's own self-play games (`engram fit-wdl`, see
//! `docs/wdl.md`).
//!
//! The model is Stockfish's: the chance that the side to move wins a position scored `v`
//! centipawns is a logistic curve `1 / (1 + exp((a − v) / b))`, whose centre `a` and spread
//! `b` are cubic polynomials in the material on the board (pawn 1, knight and bishop 3, rook
//! 5, queen 9, both sides; clamped to 17–78 and divided by 58). Its chance to lose is the same
//! curve at `−v`; the draw takes the rest. With less material the same score converts more
//! often (a smaller `a`): a pawn up in a rook ending is not a pawn up with queens on.

use crate::search::TB_BOUND;
use engram_chess::{Board, PieceKind};

/// The coefficients of `a(m)` and `b(m)`, highest power first: `((c0·m + c1)·m + c2)·m + c3`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The centre: the score at which the side to move wins half its games.
    pub a: [f64; 4],
    /// The spread: how fast the chance grows with the score.
    pub b: [f64; 4],
}

/// The model fitted on the self-play games (`docs/wdl.md` gives the data and the fit).
pub const MODEL: WdlModel = WdlModel {
    a: [-636.45, 1822.43, -1741.45, 693.31],
    b: [-135.65, 293.56, -103.57, 112.09],
};

/// Material counted as the model counts it, clamped to its range.
pub const MATERIAL_MIN: u32 = 17;
/// See [`MATERIAL_MIN`].
pub const MATERIAL_MAX: u32 = 78;

/// The material on the board: pawn 1, knight and bishop 3, rook 5, queen 9, both sides.
pub fn material(board: &Board) -> u32 {
    [
        (PieceKind::Pawn, 1),
        (PieceKind::Knight, 3),
        (PieceKind::Bishop, 3),
        (PieceKind::Rook, 5),
        (PieceKind::Queen, 9),
    ]
    .iter()
    .map(|&(kind, value)| board.pieces(kind).len() * value)
    .sum()
}

impl WdlModel {
    /// `a` and `b` at this much material.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let m = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / 58.0;
        let poly = |c: &[f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
        (poly(&self.a), poly(&self.b))
    }

    /// The chance (0 to 1) that the side to move wins with a score of `cp` at this material.
    pub fn win_chance(&self, cp: f64, material: u32) -> f64 {
        let (a, b) = self.params(material);
        1.0 / (1.0 + ((a - cp.clamp(-4000.0, 4000.0)) / b).exp())
    }

    /// Win, draw and loss in per mille (they add up to 1000) for a search score (mate scores
    /// included) at this material, from the side to move's view.
    pub fn wdl(&self, score: i32, material: u32) -> (u32, u32, u32) {
        if score >= TB_BOUND {
            return (1000, 0, 0);
        }
        if score <= -TB_BOUND {
            return (0, 0, 1000);
        }
        let w = (1000.0 * self.win_chance(f64::from(score), material)).round() as u32;
        let l = (1000.0 * self.win_chance(-f64::from(score), material)).round() as u32;
        let l = l.min(1000 - w.min(1000));
        (w.min(1000), 1000 - w.min(1000) - l, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn chances_add_up_and_grow_with_the_score() {
        for material in [0, 17, 40, 78, 100] {
            let mut last = 0;
            for cp in (-3000..=3000).step_by(25) {
                let (w, d, l) = MODEL.wdl(cp, material);
                assert_eq!(w + d + l, 1000, "{cp} {material}");
                assert!(w >= last, "{cp} {material}");
                last = w;
                // Symmetric: the other side's view swaps win and loss.
                let (w2, d2, l2) = MODEL.wdl(-cp, material);
                assert_eq!((w, d, l), (l2, d2, w2), "{cp} {material}");
            }
        }
        assert_eq!(MODEL.wdl(MATE - 5, 40), (1000, 0, 0));
        assert_eq!(MODEL.wdl(-MATE + 6, 40), (0, 0, 1000));
    }

    #[test]
    fn an_even_score_is_a_likely_draw_and_a_big_one_mostly_a_win() {
        let (w, d, l) = MODEL.wdl(0, 60);
        assert!(d > w && w == l, "{w} {d} {l}");
        let (w, _, _) = MODEL.wdl(600, 60);
        assert!(w > 800, "{w}");
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Board::startpos()), 78);
        let rook_ending = Board::from_fen("8/5k2/8/3r4/8/2R5/4K3/8 w - - 0 1", false).unwrap();
        assert_eq!(material(&rook_ending), 10);
    }
}
