//! Static-evaluation correction by pawn structure: a small hash table, indexed by the side to
//! move and the pawn key, of how far searches of positions with that pawn structure have
//! landed from the raw static evaluation. The search adds the entry to every static
//! evaluation it uses for pruning and stand pat; the table stores the raw one.
//!
//! After a node not in check whose best move is quiet (or which has none), the search score
//! says where the evaluation should have been, within the bound: an exact score always, a
//! lower bound only above the evaluation, an upper bound only below it. The entry moves toward
//! that difference by a weighted average whose weight grows with the square of the depth
//! (deeper searches are better evidence) up to `corr_weight_max` / 1024, and it is bounded,
//! so a single odd search cannot drag the evaluation far.

use super::params;
use super::TB_BOUND;
use engram_chess::Color;

/// Entries per side (a power of two: the pawn key's low bits index it).
pub const SIZE: usize = 16_384;
/// An entry holds the correction in 1/`GRAIN` centipawns.
pub const GRAIN: i32 = 256;
/// The weights of the average are out of `WEIGHT_SCALE`.
const WEIGHT_SCALE: i32 = 1024;

/// One search thread's correction table.
pub struct Correction {
    table: Box<[[i16; SIZE]; 2]>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: Box::new([[0; SIZE]; 2]),
        }
    }
}

impl Correction {
    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|t| t.fill(0));
    }

    #[inline]
    fn index(pawn_key: u64) -> usize {
        pawn_key as usize & (SIZE - 1)
    }

    /// The correction for `side` to move with pawn structure `pawn_key`, in centipawns.
    #[inline]
    pub fn get(&self, side: Color, pawn_key: u64) -> i32 {
        i32::from(self.table[side.index()][Self::index(pawn_key)]) / GRAIN
    }

    /// `raw` corrected, kept clear of the mate scores.
    #[inline]
    pub fn apply(&self, side: Color, pawn_key: u64, raw: i32) -> i32 {
        (raw + self.get(side, pawn_key)).clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }

    /// Moves the entry toward `diff` (search score minus raw evaluation, centipawns) after a
    /// search to `depth`.
    pub fn update(&mut self, side: Color, pawn_key: u64, depth: i32, diff: i32) {
        let max = params::corr_max() * GRAIN;
        let d = depth.clamp(0, 63) + 1;
        let weight = (d * d).min(params::corr_weight_max());
        let entry = &mut self.table[side.index()][Self::index(pawn_key)];
        let target = diff.saturating_mul(GRAIN).clamp(-max, max);
        let old = i32::from(*entry);
        // An average of two values within ±max stays within it, and max ≤ 127 · 256 fits
        // an i16.
        *entry = ((old * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_moves_toward_the_search_and_stays_bounded() {
        let mut c = Correction::default();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(c.get(Color::White, key), 0);
        c.update(Color::White, key, 8, 40);
        let once = c.get(Color::White, key);
        assert!(once > 0 && once < 40, "{once}");
        for _ in 0..200 {
            c.update(Color::White, key, 8, 40);
        }
        let settled = c.get(Color::White, key);
        assert!((38..=40).contains(&settled), "{settled}");
        // The other side to move and another pawn structure are untouched.
        assert_eq!(c.get(Color::Black, key), 0);
        assert_eq!(c.get(Color::White, key ^ 1), 0);
        // A huge difference is bounded.
        for _ in 0..200 {
            c.update(Color::White, key, 20, -100_000);
        }
        let floor = c.get(Color::White, key);
        assert!(
            (-params::corr_max()..=-params::corr_max() + 2).contains(&floor),
            "{floor}"
        );
        // Deeper searches weigh more.
        let mut shallow = Correction::default();
        let mut deep = Correction::default();
        shallow.update(Color::White, key, 1, 50);
        deep.update(Color::White, key, 10, 50);
        assert!(deep.get(Color::White, key) > shallow.get(Color::White, key));
        c.clear();
        assert_eq!(c.get(Color::White, key), 0);
    }

    #[test]
    fn a_corrected_evaluation_never_reaches_a_mate_score() {
        let mut c = Correction::default();
        for _ in 0..100 {
            c.update(Color::Black, 7, 20, 1_000);
        }
        assert!(c.apply(Color::Black, 7, TB_BOUND + 5) < TB_BOUND);
        assert_eq!(c.apply(Color::White, 7, 15), 15);
    }
}
