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
//!
//! **Residual tables** (the experiment `corr_mode` 1, Stockfish's shape): four tables by side
//! to move instead, keyed by the pawns, the minor pieces (knights and bishops, with the
//! kings), and each colour's pieces other than pawns (king included); the correction is
//! their weighted sum. Each is pulled toward what the *corrected* evaluation still missed
//! (search score minus corrected evaluation), by a step that grows with depth, under
//! gravity (an entry near its limit moves less), so the tables fit the residual together
//! rather than each the whole error.

use super::params;
use super::TB_BOUND;
use engram_chess::{Bitboard, Board, Color, PieceKind};

/// Entries per side (a power of two: the pawn key's low bits index it).
pub const SIZE: usize = 16_384;
/// An entry holds the correction in 1/`GRAIN` centipawns.
pub const GRAIN: i32 = 256;
/// The weights of the average are out of `WEIGHT_SCALE`.
const WEIGHT_SCALE: i32 = 1024;

/// A residual table's entries stay within ±`LIMIT` (1/`GRAIN` cp: 64 cp).
const LIMIT: i32 = 64 * GRAIN;

/// A residual table: by side to move, then the key's low bits.
type Residual = Box<[[i16; SIZE]; 2]>;

/// One search thread's correction tables.
pub struct Correction {
    table: Box<[[i16; SIZE]; 2]>,
    /// The residual tables of `corr_mode` 1: pawns, minor pieces, White's and Black's
    /// pieces other than pawns.
    residual: [Residual; 4],
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: Box::new([[0; SIZE]; 2]),
            residual: std::array::from_fn(|_| Box::new([[0; SIZE]; 2])),
        }
    }
}

/// A 64-bit mixer (splitmix64's finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A key of the pieces of `kinds` of both colours (each colour's and kind's bitboard mixed
/// with its own salt), or of one colour's.
fn pieces_key(board: &Board, colors: &[Color], kinds: &[PieceKind]) -> u64 {
    let mut key = 0;
    for &c in colors {
        for &k in kinds {
            let Bitboard(bits) = board.colored(c, k);
            let salt = (c.index() * 8 + k as usize + 1) as u64;
            key ^= mix(bits ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        }
    }
    key
}

/// The keys of the residual tables: pawns, minor pieces (and kings), White's and Black's
/// pieces other than pawns.
fn residual_keys(board: &Board) -> [u64; 4] {
    use PieceKind::*;
    [
        board.pawn_key(),
        pieces_key(board, &Color::ALL, &[Knight, Bishop, King]),
        pieces_key(board, &[Color::White], &[Knight, Bishop, Rook, Queen, King]),
        pieces_key(board, &[Color::Black], &[Knight, Bishop, Rook, Queen, King]),
    ]
}

/// The residual tables' weights, out of 1024.
fn residual_weights() -> [i32; 4] {
    [
        params::corr_w_pawn(),
        params::corr_w_minor(),
        params::corr_w_non_pawn(),
        params::corr_w_non_pawn(),
    ]
}

impl Correction {
    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|t| t.fill(0));
        for r in &mut self.residual {
            r.iter_mut().for_each(|t| t.fill(0));
        }
    }

    /// The correction of `board`'s static evaluation, in centipawns, by the mode in
    /// `corr_mode`.
    #[inline]
    pub fn of(&self, board: &Board) -> i32 {
        self.of_mode(board, params::corr_mode())
    }

    /// [`Correction::of`] in mode `mode`.
    #[inline]
    fn of_mode(&self, board: &Board, mode: i32) -> i32 {
        let us = board.side_to_move();
        if mode == 0 {
            return self.get(us, board.pawn_key());
        }
        let keys = residual_keys(board);
        let sum: i32 = residual_weights()
            .iter()
            .zip(keys)
            .zip(&self.residual)
            .map(|((&w, key), t)| w * i32::from(t[us.index()][Self::index(key)]))
            .sum();
        sum / (1024 * GRAIN)
    }

    /// `raw`, `board`'s raw static evaluation, corrected, kept clear of the mate scores.
    #[inline]
    pub fn correct(&self, board: &Board, raw: i32) -> i32 {
        (raw + self.of(board)).clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }

    /// Learns from a search of `board` to `depth` that scored `score`, where the raw static
    /// evaluation was `raw` and the corrected one `corrected`.
    pub fn learn(&mut self, board: &Board, depth: i32, score: i32, raw: i32, corrected: i32) {
        self.learn_mode(board, depth, score, raw, corrected, params::corr_mode());
    }

    /// [`Correction::learn`] in mode `mode`.
    fn learn_mode(
        &mut self,
        board: &Board,
        depth: i32,
        score: i32,
        raw: i32,
        corrected: i32,
        mode: i32,
    ) {
        let us = board.side_to_move();
        if mode == 0 {
            self.update(us, board.pawn_key(), depth, score - raw);
            return;
        }
        let step = i64::from(score - corrected)
            * i64::from(GRAIN * depth.clamp(1, 16) * params::corr_rate())
            / 1024;
        let bonus = step.clamp(i64::from(-LIMIT / 4), i64::from(LIMIT / 4)) as i32;
        for (key, t) in residual_keys(board).into_iter().zip(&mut self.residual) {
            let e = &mut t[us.index()][Self::index(key)];
            let old = i32::from(*e);
            // Gravity: the step shrinks as the entry nears ±LIMIT, so it stays within it.
            *e = (old + bonus - old * bonus.abs() / LIMIT).clamp(-LIMIT, LIMIT) as i16;
        }
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

    const BLACK_TO_MOVE: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3";

    #[test]
    fn a_corrected_evaluation_never_reaches_a_mate_score() {
        let board = Board::from_fen(BLACK_TO_MOVE, false).unwrap();
        let mut c = Correction::default();
        for _ in 0..100 {
            c.update(Color::Black, board.pawn_key(), 20, 1_000);
        }
        assert!(c.correct(&board, TB_BOUND + 5) < TB_BOUND);
        let white = Board::from_fen(&BLACK_TO_MOVE.replace(" b ", " w "), false).unwrap();
        assert_eq!(c.correct(&white, 15), 15);
    }

    #[test]
    fn residual_tables_fit_the_gap_together_and_stay_bounded() {
        let board = Board::from_fen(BLACK_TO_MOVE, false).unwrap();
        let mut c = Correction::default();
        assert_eq!(c.of_mode(&board, 1), 0);
        // A search that keeps finding the position 40 cp better than its raw evaluation of
        // 10: the corrected evaluation closes in on 50 without overshooting far.
        for _ in 0..300 {
            let corrected = 10 + c.of_mode(&board, 1);
            c.learn_mode(&board, 8, 50, 10, corrected, 1);
        }
        let fit = c.of_mode(&board, 1);
        assert!((36..=44).contains(&fit), "{fit}");
        // Mode 0's table is untouched, and the other side to move learnt nothing.
        assert_eq!(c.of_mode(&board, 0), 0);
        let white = Board::from_fen(&BLACK_TO_MOVE.replace(" b ", " w "), false).unwrap();
        assert_eq!(c.of_mode(&white, 1), 0);
        // A huge gap moves each entry by at most a quarter of its limit, and entries never
        // pass the limit.
        let mut d = Correction::default();
        d.learn_mode(&board, 16, 20_000, 0, 0, 1);
        let once = d.of_mode(&board, 1);
        let total_weight: i32 = residual_weights().iter().sum();
        assert_eq!(once, LIMIT / 4 * total_weight / (1024 * GRAIN), "{once}");
        for _ in 0..1000 {
            d.learn_mode(&board, 16, 20_000, 0, 0, 1);
        }
        assert!(d.of_mode(&board, 1) <= LIMIT * total_weight / (1024 * GRAIN));
        // A position differing only in a knight shares the pawn entry, not the minor one.
        let moved = Board::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 4 4",
            false,
        )
        .unwrap();
        assert_ne!(residual_keys(&moved)[1], residual_keys(&board)[1]);
        assert_eq!(residual_keys(&moved)[0], residual_keys(&board)[0]);
        d.clear();
        assert_eq!(d.of_mode(&board, 1), 0);
    }
}
