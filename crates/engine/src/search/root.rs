//! The root: one pass over the root moves at a given depth and window. The root has its own
//! move list (`Searcher::root_moves`, kept with scores and lines across iterations), its own
//! reductions, and Lazy SMP's deferral of moves other threads are searching.

use super::history::PieceTo;
use super::move_loop::Child;
use super::params;
use super::picker::is_noisy;
use super::{Frame, Searcher, SmpMode, INF, OFF};
use engram_chess::{Board, Move};
use engram_tt::Bound;

impl Searcher {
    /// Searches the root moves from principal variation `pv_idx` on with window
    /// `(alpha, beta)` at `depth`; records each move's score, bound and line; returns the best
    /// score.
    pub(super) fn root(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let board = *self.pos.board();
        let mut best = -INF;
        for rm in &mut self.root_moves[pv_idx..] {
            rm.score = -INF;
        }
        self.stack[OFF - 1] = Frame::default();
        self.stack[OFF - 2] = Frame::default();
        self.stack[OFF].eval = if board.in_check() {
            -INF
        } else {
            self.eval.evaluate(&self.pos)
        };
        // Lazy SMP at the root: a move another thread is searching in this iteration is put
        // off to the end of the list, where its result is usually in the table already
        // (ABDADA's deferral, at the root only; the first move is never put off).
        let threads = self.counters.len();
        let defer = self.mode == SmpMode::Lazy;
        let mut order: Vec<(usize, bool)> = (pv_idx..self.root_moves.len())
            .map(|i| (i, defer && i > pv_idx))
            .collect();
        let mut k = 0;
        while k < order.len() {
            let (i, may_defer) = order[k];
            k += 1;
            let mv = self.root_moves[i].mv;
            if may_defer
                && self
                    .control
                    .smp
                    .busy_elsewhere(self.id, threads, depth, mv.to_u16())
            {
                order.push((i, false));
                continue;
            }
            if defer {
                self.control.smp.set_current(self.id, depth, mv.to_u16());
            }
            self.report_currmove(depth, mv, i + 1);
            let n = i - pv_idx;
            let child = Child::root(mv, n);
            let before = self.nodes;
            let score = self.root_move(&board, &child, alpha, beta, depth);
            self.root_moves[i].nodes += self.nodes - before;
            if self.stopped() {
                break;
            }
            if n == 0 || score > alpha {
                let child_pv = &self.pv[1][1..self.pv_len[1].max(1)];
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.bound = bound(score, alpha, beta);
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(child_pv);
            }
            if n > 0 && pv_idx == 0 && score > alpha {
                self.root_changes += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if defer {
            self.control.smp.set_current(self.id, depth, 0);
        }
        best
    }

    /// Searches root move `c` (`c.n` 0: the first) at `depth`.
    fn root_move(&mut self, board: &Board, c: &Child, alpha: i32, beta: i32, depth: i32) -> i32 {
        let (mv, n) = (c.mv, c.n);
        let quiet = !is_noisy(board, mv);
        self.enter(board, mv, 0);
        self.stack[1 + OFF].double_exts = 0;
        let gives_check = self.pos.board().in_check();
        let new_depth = depth - 1 + gives_check as i32;
        let score = if n == 0 {
            -self.negamax::<true>(-beta, -alpha, new_depth, 1, false)
        } else {
            let r = if depth >= params::lmr_min_depth()
                && quiet
                && n >= params::lmr_skip_root() as usize
                && !gives_check
            {
                (self.lmr[depth.min(63) as usize][n.min(63)] - 1).clamp(0, new_depth - 1)
            } else {
                0
            };
            // The root is a PV node; its re-search at full depth expects a fail high.
            self.later_move::<true>(alpha, beta, new_depth, r, 0, false, alpha)
        };
        self.pos.unmake();
        score
    }
}

/// The bound a root move's score is in the window `(alpha, beta)`.
pub(super) fn bound(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score <= alpha {
        Bound::Upper
    } else {
        Bound::Exact
    }
}

impl Child {
    /// Root move `mv`, the `n`th searched in this pass (0: the first).
    fn root(mv: Move, n: usize) -> Child {
        Child {
            mv,
            n,
            quiet: false,
            hist: 0,
            pt: PieceTo::NONE,
            ext: 0,
        }
    }
}
