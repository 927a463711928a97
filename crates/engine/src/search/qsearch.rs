//! Quiescence search: at depth 0, only captures and promotions (every move in check) until the
//! position is quiet, with stand pat on the static evaluation, move-count, delta and SEE
//! pruning, and the table probed and stored at draft 0.

use super::params;
use super::picker::MovePicker;
use super::see::{capture_value, see_ge};
use super::tt::EVAL_NONE;
use super::{toward_beta, Searcher, INF, MATE, MAX_PLY};

impl Searcher {
    /// Searches the captures of the node at `ply` with window `(alpha, beta)`.
    pub(super) fn qsearch<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.check_limits();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw() {
            return 0;
        }
        if let Some(score) = self.upcoming_draw(&mut alpha, beta, ply) {
            return score;
        }
        let nodes_before = self.nodes;
        let board = *self.pos.board();
        let in_check = board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.eval.evaluate(&self.pos)
            };
        }

        let key = board.key();
        let tt = self.probe(key, ply, board.halfmove_clock());
        let cut = if PV { None } else { tt.cutoff(0, alpha, beta) };
        #[cfg(feature = "lab")]
        self.tt_use.count(0, &board, &tt, cut.is_some());
        if let Some(score) = cut {
            return score;
        }

        let mut best = -INF;
        let mut raw_eval = -INF;
        if !in_check {
            // Stand pat: the side to move need not capture (on the evaluation corrected by
            // pawn structure, `correction.rs`, then by the table score where its bound says
            // it is the better estimate; the table keeps the raw evaluation).
            raw_eval = tt.eval().unwrap_or_else(|| self.eval.evaluate(&self.pos));
            best = tt.refine(self.correction.correct(&board, raw_eval));
            if best >= beta {
                // Stand pat fails high: a quarter of the way back toward beta.
                return toward_beta(best, beta, 3);
            }
            alpha = alpha.max(best);
        }
        let stand_pat = best;

        let original_alpha = alpha;
        let mut best_move = engram_chess::Move::NULL;
        let mut picker = MovePicker::qsearch(&board, tt.mv);
        let mut searched = 0;
        let mut seen = 0;
        while let Some(mv) = picker.next(&board, &self.history) {
            seen += 1;
            if !in_check {
                // Delta pruning: even winning this material does not reach alpha.
                if !mv.is_promotion()
                    && stand_pat + capture_value(&board, mv) + params::qs_delta_margin() <= alpha
                {
                    continue;
                }
                // Move-count pruning (as Stockfish): after the first two captures, only
                // promotions and checks.
                if seen > 2 && !mv.is_promotion() && !board.gives_check(mv) {
                    continue;
                }
                if !see_ge(&board, mv, -params::qs_see_margin()) {
                    continue;
                }
            }
            self.enter(&board, mv, ply);
            searched += 1;
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1);
            self.pos.unmake();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && searched == 0 {
            return -MATE + ply as i32;
        }
        // A capture's fail high: halfway back toward beta.
        if best >= beta {
            best = toward_beta(best, beta, 1);
        }
        let eval = if in_check { EVAL_NONE } else { raw_eval as i16 };
        let subtree = self.nodes - nodes_before;
        self.store::<PV>(
            key,
            ply,
            0,
            best,
            original_alpha,
            beta,
            best_move,
            eval,
            subtree,
            false,
        );
        best
    }
}
