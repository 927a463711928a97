//! How a move is judged: the drop in the mover's winning chances between the best move and
//! the move played, both as the engine scores them, and the NAG it earns.
//!
//! A centipawn drop means little in a decided position (+9 to +6 still wins), so the
//! thresholds apply to the **expected score** (a win is 100, a draw 50) that a centipawn
//! score stands for, on the logistic curve lichess uses for its annotations:
//! `E(cp) = 50 + 50 · (2 / (1 + exp(-0.00368208 · cp)) - 1)`. A mate for the mover is 100,
//! a mate against 0.
//!
//! | drop in expected score | NAG | PGN |
//! |---|---|---|
//! | ≥ 30 | blunder | `??` (`$4`) |
//! | ≥ 20 | mistake | `?` (`$2`) |
//! | ≥ 10 | dubious (inaccuracy) | `?!` (`$6`) |
//!
//! The move the engine itself would play earns no NAG, whatever the scores say (a later search
//! that sees deeper is no reason to blame it).

use super::text::mate_moves;
use engram_chess::pgn::Nag;

/// Drop in expected score, in points of 100, for `??`.
pub const BLUNDER: f64 = 30.0;
/// Drop for `?`.
pub const MISTAKE: f64 = 20.0;
/// Drop for `?!`.
pub const DUBIOUS: f64 = 10.0;

/// A move's judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// `?!`: an inaccuracy.
    Dubious,
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl Judgement {
    /// The PGN NAG (`$6`, `$2`, `$4`).
    pub fn nag(self) -> Nag {
        match self {
            Judgement::Dubious => Nag::DUBIOUS,
            Judgement::Mistake => Nag::MISTAKE,
            Judgement::Blunder => Nag::BLUNDER,
        }
    }

    /// The word for people: `Inaccuracy`, `Mistake`, `Blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Dubious => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// The expected score (0–100) of a score in centipawns from the mover's view.
pub fn expected(score: i32) -> f64 {
    match mate_moves(score) {
        Some(n) if n > 0 => 100.0,
        Some(_) => 0.0,
        None => 50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(score)).exp()) - 1.0),
    }
}

/// The NAG for a move scored `played` when the best move scores `best` (both from the mover's
/// view); `None` when `is_best` (the engine's own choice) or the drop is below [`DUBIOUS`].
pub fn judge(best: i32, played: i32, is_best: bool) -> Option<Judgement> {
    if is_best {
        return None;
    }
    let drop = expected(best) - expected(played);
    if drop >= BLUNDER {
        Some(Judgement::Blunder)
    } else if drop >= MISTAKE {
        Some(Judgement::Mistake)
    } else if drop >= DUBIOUS {
        Some(Judgement::Dubious)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn expected_score_curve() {
        assert!((expected(0) - 50.0).abs() < 1e-9);
        assert!((expected(100) + expected(-100) - 100.0).abs() < 1e-9);
        assert!(expected(300) > 75.0 && expected(300) < 76.0);
        assert_eq!(expected(MATE - 3), 100.0);
        assert_eq!(expected(-(MATE - 2)), 0.0);
    }

    #[test]
    fn thresholds() {
        // Even to a pawn down: about 9 points, not yet dubious.
        assert_eq!(judge(0, -100, false), None);
        assert_eq!(judge(0, -150, false), Some(Judgement::Dubious));
        assert_eq!(judge(0, -250, false), Some(Judgement::Mistake));
        assert_eq!(judge(100, -300, false), Some(Judgement::Blunder));
        // A mate thrown away into a lost position.
        assert_eq!(judge(MATE - 5, -400, false), Some(Judgement::Blunder));
        // Decided positions: +9 to +6 is no mistake.
        assert_eq!(judge(900, 600, false), None);
        // The engine's own move is never blamed.
        assert_eq!(judge(100, -300, true), None);
    }
}
