//! The strength limit (`UCI_LimitStrength`, `UCI_Elo`), as Stockfish plays weaker: a skill
//! level from the Elo asked for; a search of at least four principal variations that stops
//! at the level's depth (1 + level), and a move picked among those variations by a rule that
//! gives up more the lower the level: each move's score is pushed up by a deterministic
//! term, which narrows the gaps between the moves, and a random one, up to the spread of the
//! scores (at most [`SPREAD_MAX`] centipawns); the move with the highest pushed score is played. So a weak level
//! plays a reasonable move that a deeper search would not, rather than a blunder at random.
//!
//! The level for an Elo is read off Engram's own calibration, [`CALIBRATION`]: the Elo on
//! Stockfish 15.1's `UCI_Elo` scale that each measured level played at 10s+0.1s, made
//! monotone, linear in between (README, "Strength limit").

use engram_chess::Move;

/// The smallest `UCI_Elo`.
pub const ELO_MIN: i32 = 1320;
/// The largest `UCI_Elo`: Engram's full strength on Stockfish's scale at 10s+0.1s, the last
/// point of [`CALIBRATION`].
pub const ELO_MAX: i32 = 2647;
/// Engram's calibration, `(level, Elo)` with both rising: levels played 40 games each at
/// 10s+0.1s against Stockfish 15.1 AVX2 with `UCI_LimitStrength` (the points in
/// `docs/data/strength-levels.csv`), made monotone by weighted isotonic regression
/// (`scripts/strength-calibration.py fit` prints this table). Stockfish's own form,
/// `a + b · level^0.806`, missed these points by up to ~230 Elo.
const CALIBRATION: [(f64, f64); 7] = [
    (3.0, 1403.0),
    (4.0, 1589.0),
    (5.0, 1608.0),
    (9.0, 2089.0),
    (14.5, 2315.0),
    (19.0, 2474.0),
    (20.0, ELO_MAX as f64),
];
/// Levels at or above this are full strength.
const FULL: f64 = 20.0;
/// The largest spread of the scores the random term scales with, in centipawns: a third of
/// a pawn. Stockfish caps it at its `PawnValueMg`, 126 of its internal units, which it
/// shows as 32 cp (it divides by 394 for centipawns in 15.1); a cap of a whole pawn (100 cp)
/// gave moves up to 4 times as far below the best a chance, and levels 13 and 17 then
/// played alike, some 450 Elo below Stockfish's level 13 (docs/measurements.md).
pub const SPREAD_MAX: i32 = 32;
/// The levels over which the pick's weakness falls to nothing (see [`Skill::weakness`]).
const TAPER: f64 = 8.0;
/// Principal variations a limited search looks at (at least), up to level 12; above it the
/// lines fall with the weakness (see [`Skill::lines`]).
pub const MULTIPV: usize = 4;

/// A strength limit: the skill level, 0 (weakest) to 20 (full strength).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// The level, fractional.
    pub level: f64,
}

impl Skill {
    /// The level that plays at `elo` (clamped to [`ELO_MIN`]..=[`ELO_MAX`]).
    pub fn from_elo(elo: i32) -> Skill {
        let e = f64::from(elo.clamp(ELO_MIN, ELO_MAX));
        // The segment the Elo falls in; below the first point, the first segment extended.
        let i = (1..CALIBRATION.len())
            .find(|&i| e < CALIBRATION[i].1)
            .unwrap_or(CALIBRATION.len() - 1);
        let ((l0, e0), (l1, e1)) = (CALIBRATION[i - 1], CALIBRATION[i]);
        let level = l0 + (l1 - l0) * (e - e0) / (e1 - e0);
        Skill {
            level: level.clamp(0.0, FULL),
        }
    }

    /// Whether the level is below full strength.
    pub fn limits(&self) -> bool {
        self.level < FULL
    }

    /// The depth at which the move is picked and the search stops: `1 + level` for a whole
    /// level; between two whole levels, the lower one's depth or a ply more, drawn for each
    /// search with the fraction as the chance of the ply more (`random` a source of random
    /// numbers), so that the strength rises smoothly between the whole levels instead of
    /// jumping at each. A ply is worth some 100–200 Elo at the low levels, where the weakness
    /// of the pick hardly changes from one level to the next: levels 3 and 3.64 (both depth
    /// 4) played some 1400 on Stockfish's scale, level 4 (depth 5) some 1590
    /// (docs/measurements.md).
    pub fn depth(&self, mut random: impl FnMut() -> u64) -> i32 {
        let whole = self.level.floor();
        let chance = self.level - whole;
        // A uniform draw in [0, 1) from the top 53 bits.
        let draw = (random() >> 11) as f64 / (1u64 << 53) as f64;
        1 + whole as i32 + i32::from(draw < chance)
    }

    /// How much the pick gives up: Stockfish's `120 - 2 level`, tapered to 0 over the
    /// last [`TAPER`] levels below full strength, so that the levels rise to full strength
    /// instead of stopping short of it. With Stockfish's weakness (80 at level 20), levels 15
    /// and 17 played some 2200 on Stockfish's scale at 10s+0.1s, and full strength
    /// (Engram's ~2650 there) was out of reach of every level below 20.
    pub fn weakness(&self) -> i64 {
        let stockfish = 120.0 - 2.0 * self.level;
        (stockfish * self.taper()) as i64
    }

    /// How many principal variations the search looks at (at least): [`MULTIPV`] while the
    /// weakness is Stockfish's, then fewer as it tapers, down to 2 just below full strength.
    /// With a small weakness only the moves within a few centipawns of the best can be
    /// picked, and the lines further down cost depth for nothing: with 4 lines at every
    /// level, levels 14 and 17 played alike at 10s+0.1s (~2370 and ~2270 on Stockfish's
    /// scale), far below Engram's full strength (docs/measurements.md).
    pub fn lines(&self) -> usize {
        (1 + (3.0 * self.taper()).ceil() as usize).clamp(2, MULTIPV)
    }

    /// 1 up to [`TAPER`] levels below full strength, then falling to 0 at full strength.
    fn taper(&self) -> f64 {
        ((FULL - self.level) / TAPER).clamp(0.0, 1.0)
    }

    /// The move to play among `lines` (move and score, best first, at least one), with
    /// `random` a source of random numbers.
    pub fn pick(&self, lines: &[(Move, i32)], mut random: impl FnMut() -> u64) -> Move {
        let top = lines[0].1;
        let delta = (top - lines[lines.len() - 1].1).clamp(0, SPREAD_MAX);
        let weakness = self.weakness();
        let mut best = (lines[0].0, i64::MIN);
        for &(mv, score) in lines {
            let push = (weakness * i64::from(top - score)
                + i64::from(delta) * (random() % weakness.max(1) as u64) as i64)
                / 128;
            let pushed = i64::from(score) + push;
            if pushed >= best.1 {
                best = (mv, pushed);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_chess::Square;

    /// A small deterministic source of random numbers (xorshift64).
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    fn mv(i: u8) -> Move {
        Move::normal(Square::from_index(i), Square::from_index(i + 8))
    }

    #[test]
    fn levels_rise_with_the_elo() {
        // The calibration's points map to their levels, its ends to the ends.
        for (level, elo) in CALIBRATION {
            assert!(
                (Skill::from_elo(elo as i32).level - level).abs() < 1e-9,
                "{elo}"
            );
        }
        assert!(CALIBRATION
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert!((Skill::from_elo(ELO_MIN).level - 2.55).abs() < 0.01);
        assert_eq!(Skill::from_elo(ELO_MAX).level, FULL);
        assert!(!Skill::from_elo(ELO_MAX).limits());
        assert!((Skill::from_elo(2000).level - 8.26).abs() < 0.01);
        let mut last = -1.0;
        for elo in (ELO_MIN..=ELO_MAX).step_by(100) {
            let s = Skill::from_elo(elo);
            assert!(s.level >= last, "{elo}");
            last = s.level;
        }
        assert!(Skill::from_elo(1500).limits());
        assert!(Skill::from_elo(1500).depth(|| 0) < Skill::from_elo(2500).depth(|| 0));
    }

    /// A whole level searches to one depth; a fractional one to its whole level's or a ply
    /// deeper, the deeper as often as the fraction says.
    #[test]
    fn fractional_levels_mix_two_depths() {
        assert_eq!(Skill { level: 4.0 }.depth(|| u64::MAX), 5);
        assert_eq!(Skill { level: 4.0 }.depth(|| 0), 5);
        assert_eq!(Skill { level: 4.25 }.depth(|| 0), 6);
        assert_eq!(Skill { level: 4.25 }.depth(|| u64::MAX), 5);
        let mut rng = xorshift(0x2545_F491_4F6C_DD1Du64);
        let deeper = (0..4000)
            .filter(|_| Skill { level: 4.25 }.depth(&mut rng) == 6)
            .count();
        assert!((800..1200).contains(&deeper), "{deeper}");
    }

    /// Without randomness (the random term zero) the deterministic push never lifts a worse
    /// move above a better one; with it, weaker levels play the other moves more often.
    #[test]
    fn weaker_levels_give_up_more() {
        let lines = [(mv(8), 50), (mv(9), 20), (mv(10), -10), (mv(11), -300)];
        for level in [0.0, 10.0, 19.0] {
            assert_eq!(Skill { level }.pick(&lines, || 0), mv(8));
        }
        let mut rng = xorshift(0x9E37_79B9_7F4A_7C15u64);
        let not_best = |level: f64, rng: &mut dyn FnMut() -> u64| {
            (0..2000)
                .filter(|_| Skill { level }.pick(&lines, &mut *rng) != mv(8))
                .count()
        };
        let weak = not_best(0.0, &mut rng);
        let strong = not_best(19.0, &mut rng);
        assert!(weak > strong, "{weak} {strong}");
        assert!(weak > 200, "{weak}");
        // The weakness is Stockfish's up to level 12, then falls to 0 at level 20.
        assert_eq!(Skill { level: 0.0 }.weakness(), 120);
        assert_eq!(Skill { level: 12.0 }.weakness(), 96);
        assert_eq!(Skill { level: 16.0 }.weakness(), 44);
        assert_eq!(Skill { level: 20.0 }.weakness(), 0);
        // Four lines while the weakness is Stockfish's, then fewer, down to 2.
        assert_eq!(Skill { level: 0.0 }.lines(), MULTIPV);
        assert_eq!(Skill { level: 14.0 }.lines(), 4);
        assert_eq!(Skill { level: 16.0 }.lines(), 3);
        assert_eq!(Skill { level: 18.0 }.lines(), 2);
        assert_eq!(Skill { level: 19.9 }.lines(), 2);
        // The last line loses three pawns: a strong level never plays it.
        assert!((0..2000).all(|_| Skill { level: 19.0 }.pick(&lines, &mut rng) != mv(11)));
    }
}
