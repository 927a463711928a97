//! The loss: squared error between the network's predicted score and a blend of the game's
//! result and the search's score.
//!
//! ```text
//! t    = λ · result + (1 − λ) · sigmoid(score / SCALE)
//! loss = (sigmoid(out) − t)²
//! ```
//!
//! with `result` ∈ {0, ½, 1} and `score` (centipawns) both from the side to move's view.
//!
//! **λ weights the game RESULT** (λ = 1: learn only results, λ = 0: only search scores). This
//! is bullet's convention (its `wdl` parameter). **nnue-pytorch's `lambda_` is the opposite**
//! (it weights the evaluation): a λ copied from an nnue-pytorch recipe must be turned into
//! `1 − λ` here.

use crate::data::Packed;
use crate::float_net::sigmoid;
use engram_nnue::net::SCALE;

/// The default λ (weight of the game result): 0.25.
pub const DEFAULT_WDL: f32 = 0.25;

/// The target of `pos`: `λ · result + (1 − λ) · sigmoid(score / SCALE)`, where **λ (`wdl`)
/// weights the game result** (bullet's convention, the opposite of nnue-pytorch's).
#[inline]
pub fn target(pos: &Packed, wdl: f32) -> f32 {
    wdl * pos.result_score() + (1.0 - wdl) * sigmoid(pos.score as f32 / SCALE as f32)
}

/// The loss of output `out` against target `t`, and its derivative with respect to `out`:
/// `((σ − t)², 2 (σ − t) σ (1 − σ))` with `σ = sigmoid(out)`.
#[inline]
pub fn loss_and_slope(out: f32, t: f32) -> (f32, f32) {
    let s = sigmoid(out);
    let e = s - t;
    (e * e, 2.0 * e * s * (1.0 - s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lambda_weights_the_result() {
        let mut p = Packed {
            score: 0,
            result: 2,
            ..Packed::default()
        };
        assert_eq!(target(&p, 1.0), 1.0);
        assert_eq!(target(&p, 0.0), 0.5);
        p.result = 0;
        assert!((target(&p, 0.25) - 0.375).abs() < 1e-6);
        let (l, d) = loss_and_slope(0.0, 0.5);
        assert_eq!((l, d), (0.0, 0.0));
        let (l, d) = loss_and_slope(1.0, 0.0);
        assert!(l > 0.5 && d > 0.0);
    }
}
