//! Negamax (principal-variation search, fail-soft) at an inner node, one phase after another:
//! limits and draws, the table probe and its cutoff, static evaluation, pruning before the
//! moves (reverse futility, null move), internal iterative reduction, the singular search
//! that extends a table move without rival (or cuts the node), the move loop (moves
//! from the picker, pruned by `next_child`, each searched by the later-move ladder), mate and
//! stalemate, history updates, the store.

use super::history::{self, bonus, PieceTo};
use super::move_loop::{next_child, Child, Node};
use super::params;
use super::picker::{is_noisy, MovePicker};
use super::see::see_ge;
use super::tablebases::TbVerdict;
use super::tt::is_decisive;
use super::tt::EVAL_NONE;
use super::{toward_beta, Searcher, INF, MATE, MAX_PLY, OFF};
use crate::eval::non_pawn_material;
use engram_chess::{Board, Move};

impl Searcher {
    /// Searches the node at `ply` (the current position) to `depth` with window
    /// `(alpha, beta)`; `cut_node`: a zero-window node expected to fail high.
    pub(super) fn negamax<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        self.check_limits();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw() {
            return self.draw_score();
        }
        if let Some(score) = self.upcoming_draw(&mut alpha, beta, ply) {
            return score;
        }
        let nodes_before = self.nodes;
        let board = *self.pos.board();
        if ply >= MAX_PLY - 1 {
            return if board.in_check() {
                0
            } else {
                self.eval.evaluate(&self.pos)
            };
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = board.key();
        // A singular search (`excluded` set) searches this position again without one move:
        // its result is not the position's, so it takes no cutoff, prunes nothing before the
        // moves and stores nothing.
        let excluded = self.stack[ply + OFF].excluded;
        let singular_search = !excluded.is_null();
        let tt = self.probe(key, ply, board.halfmove_clock());
        let cut = if PV || singular_search {
            None
        } else {
            tt.node_cutoff(depth, alpha, beta, cut_node)
        };
        #[cfg(feature = "lab")]
        self.tt_use.count(depth, &board, &tt, cut.is_some());
        if let Some(score) = cut {
            return score;
        }
        // The experiment `ttpv_lmr`: a node that was once on a PV keeps the flag, and its
        // later moves are reduced less.
        let tt_pv = PV || (params::ttpv_lmr() != 0 && tt.was_pv());
        self.stack[ply + OFF].tt_pv = tt_pv;

        // Tablebases (`tablebases.rs`): a verdict that settles the node ends it; at a PV node
        // one that does not is a floor (a win) or a ceiling (a loss) for the search below.
        let (mut tb_floor, mut tb_ceiling) = (-INF, INF);
        if ply > 0 && !singular_search && self.limits.tb.cardinality > 0 {
            match self.tb_verdict::<PV>(&board, key, depth, ply, alpha, beta) {
                TbVerdict::Ends(score) => return score,
                TbVerdict::Floor(score) => (tb_floor, alpha) = (score, alpha.max(score)),
                TbVerdict::Ceiling(score) => tb_ceiling = score,
                TbVerdict::None => {}
            }
        }

        let in_check = board.in_check();
        let us = board.side_to_move();
        // The static evaluation, corrected by pawn structure (`correction.rs`); the table
        // keeps the raw one.
        let (raw_eval, static_eval, eval) = if in_check {
            (-INF, -INF, -INF)
        } else {
            let raw = tt.eval().unwrap_or_else(|| self.eval.evaluate(&self.pos));
            let e = self.correction.correct(&board, raw);
            (raw, e, tt.refine(e))
        };
        let stored_eval = if in_check { EVAL_NONE } else { raw_eval as i16 };
        self.stack[ply + OFF].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply + OFF - 2].eval;
        if !in_check && !singular_search {
            let parent = &self.stack[ply + OFF - 1];
            depth += hindsight(depth, parent.reduction, static_eval, parent.eval);
        }

        if !PV && !in_check && !singular_search {
            // Reverse futility pruning.
            if depth <= params::rfp_max_depth()
                && !is_decisive(eval)
                && eval - params::rfp_margin() * (depth - improving as i32) >= beta
            {
                // Halfway to beta: the margin says the node fails high, not by how much.
                return toward_beta(eval, beta, 1);
            }
            // Null-move pruning, not in pawn endings (zugzwang).
            if depth >= params::nmp_min_depth()
                && (cut_node || params::nmp_cut_only() == 0)
                && eval >= beta
                && static_eval >= beta
                && !self.stack[ply + OFF - 1].mv.is_null()
                && non_pawn_material(&board, us) > 0
            {
                let r = params::nmp_base()
                    + depth / params::nmp_depth_div()
                    + ((eval - beta) / params::nmp_eval_div()).min(params::nmp_eval_max());
                self.stack[ply + OFF].mv = Move::NULL;
                self.stack[ply + OFF].pt = PieceTo::NONE;
                self.stack[ply + 1 + OFF].double_exts = self.stack[ply + OFF].double_exts;
                self.pos.make_null();
                self.nodes += 1;
                let score = -self.negamax::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake();
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if is_decisive(score) { beta } else { score };
                }
            }
        }

        // Enhanced transposition cutoffs: a child's entry may prove the fail high (`enhanced_cutoffs.rs`).
        if !PV && !singular_search {
            if let Some((score, mv)) = self.etc(&board, depth, beta, ply) {
                self.store::<false>(
                    key,
                    ply,
                    depth,
                    score,
                    alpha,
                    beta,
                    mv,
                    stored_eval,
                    0,
                    false,
                );
                return score;
            }
        }

        // Internal iterative reduction: without a TT move this node is likely mis-ordered.
        if self.use_tt
            && tt.mv.is_null()
            && depth >= params::iir_min_depth()
            && (PV || cut_node)
            && self.iir()
        {
            depth -= 1;
        }

        // Singular extension: if every move but the table move fails low against a margin
        // below the table score, the table move is extended; if even without it the node
        // fails high, the node is cut (multi-cut); if the table score alone fails high, the
        // table move is reduced instead.
        let mut singular_ext = 0;
        if !singular_search
            && ply > 0
            && depth >= params::se_min_depth()
            && !tt.mv.is_null()
            && tt.proves_at_least(depth - params::se_tt_depth())
            && board.is_legal(tt.mv)
        {
            let s_beta = tt.score - params::se_margin() * depth;
            self.stack[ply + OFF].excluded = tt.mv;
            let s = self.negamax::<false>(s_beta - 1, s_beta, (depth - 1) / 2, ply, cut_node);
            self.stack[ply + OFF].excluded = Move::NULL;
            if self.stopped() {
                return 0;
            }
            if s < s_beta {
                // Far below the margin, at a non-PV node: a double extension, a bounded
                // number of times on a path.
                singular_ext = if !PV
                    && s < s_beta - params::se_double_margin()
                    && self.stack[ply + OFF].double_exts < params::se_double_max()
                {
                    2
                } else {
                    1
                };
            } else if s_beta >= beta {
                return s_beta;
            } else if params::se_multicut() != 0 && s >= beta && !is_decisive(s) {
                // The experiment `se_multicut`: without the table move the node fails high.
                return s;
            } else if tt.score >= beta {
                singular_ext = -1;
            } else if params::se_multicut() != 0 && cut_node {
                singular_ext = -2;
            }
        }

        let prev = self.stack[ply + OFF - 1].pt;
        let prev2 = self.stack[ply + OFF - 2].pt;
        let counter = self.history.counter[prev.0 as usize];
        // The experiment `cont_far`: the moves four (and six) plies back order quiet moves
        // too, and their continuation histories learn from cutoffs.
        let far = self.far_continuations(ply);
        let mut picker = MovePicker::new(&board, tt.mv, self.killers[ply], counter, [prev, prev2])
            .with_far_continuations(far.as_slice());
        let mut best_score = tb_floor;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let mut searched = 0usize;
        let mut quiets = Tried::<(Move, PieceTo), 64>::new((Move::NULL, PieceTo::NONE));
        let mut captures = Tried::<Move, 32>::new(Move::NULL);
        let mut node = Node {
            depth,
            improving,
            in_check,
            static_eval,
            has_material: non_pawn_material(&board, us) > 0,
            prev,
            prev2,
            tt_move: tt.mv,
            singular_ext,
            excluded,
        };

        while let Some(child) = next_child(
            &mut picker,
            &board,
            &self.history,
            &node,
            &mut searched,
            best_score,
            alpha,
        ) {
            let (mv, quiet, pt) = (child.mv, child.quiet, child.pt);
            let score = self.search_move::<PV>(
                &board, &child, alpha, beta, depth, ply, cut_node, improving, best_score,
            );
            if self.stopped() {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                    // The experiment `ar_max_depth`: the rest are searched a ply shallower.
                    if PV && depth > 2 && depth <= params::ar_max_depth() && !is_decisive(score) {
                        depth -= 1;
                        node.depth = depth;
                    }
                }
            }
            if mv != best_move {
                if quiet {
                    quiets.push((mv, pt));
                } else {
                    captures.push(mv);
                }
            }
        }

        if searched == 0 && best_score == -INF {
            // No legal move was searched: mate or stalemate (pruned moves imply legal ones exist).
            if !board.has_legal_moves() {
                return if in_check { -MATE + ply as i32 } else { 0 };
            }
            return alpha;
        }

        // A zero-window fail high far above beta is trusted less the shallower it is
        // (as Stockfish 16 does).
        if !PV && best_score >= beta {
            best_score = toward_beta(best_score, beta, depth);
        }

        if best_score >= beta {
            self.update_histories(
                &board,
                ply,
                depth,
                best_move,
                quiets.as_slice(),
                captures.as_slice(),
                prev,
                prev2,
                far.as_slice(),
            );
        }

        if singular_search {
            return best_score;
        }
        if PV {
            best_score = best_score.min(tb_ceiling);
        }
        // Pawn-structure correction: a quiet best move (or none) and a score that says more
        // than the evaluation did (an exact score, a fail high above it, a fail low below it).
        let plain_score = !is_decisive(best_score);
        if !in_check
            && plain_score
            && (best_move.is_null() || !is_noisy(&board, best_move))
            && !(best_score >= beta && best_score <= static_eval)
            && !(best_score <= original_alpha && best_score >= static_eval)
        {
            self.correction
                .learn(&board, depth, best_score, raw_eval, static_eval);
        }
        self.store::<PV>(
            key,
            ply,
            depth,
            best_score,
            original_alpha,
            beta,
            best_move,
            stored_eval,
            self.nodes - nodes_before,
            tt_pv,
        );
        best_score
    }

    /// The score of a drawn node: 0, or with the experiment `draw_jitter` -1 or +1 by the
    /// node count (Stockfish's `value_draw`), so that two draws need not look the same.
    #[inline]
    pub(super) fn draw_score(&self) -> i32 {
        if params::draw_jitter() == 0 {
            0
        } else {
            1 - (self.nodes & 2) as i32
        }
    }

    /// The experiment `upcoming_rep`: below the root, when the side to move can repeat an
    /// earlier position in one move, the node is worth at least a draw: `alpha` rises to the
    /// draw score, and the node ends (`Some`) if that fails high.
    #[inline]
    pub(super) fn upcoming_draw(&self, alpha: &mut i32, beta: i32, ply: usize) -> Option<i32> {
        if params::upcoming_rep() == 0 || ply == 0 {
            return None;
        }
        let draw = self.draw_score();
        if *alpha < draw && self.pos.upcoming_repetition(ply) {
            *alpha = draw;
            if draw >= beta {
                return Some(draw);
            }
        }
        None
    }

    /// Whether the current position is a draw by repetition, material or the fifty-move rule.
    pub(super) fn is_draw(&self) -> bool {
        self.pos.is_repetition()
            || self.pos.board().is_insufficient_material()
            || self.pos.is_fifty_move_draw()
    }

    /// Makes `mv` at `ply`, recording it on the stack (prefetching the child's TT entry first).
    #[inline]
    pub(super) fn enter(&mut self, board: &Board, mv: Move, ply: usize) {
        if self.prefetch {
            self.tt.prefetch(board.key_after(mv));
        }
        let pt = board
            .piece_on(mv.from())
            .map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
        self.stack[ply + OFF].mv = mv;
        self.stack[ply + OFF].pt = pt;
        self.pos.make(mv);
        self.nodes += 1;
    }

    /// Searches one move of a node: the first with the full window, the others through the
    /// later-move ladder, reduced by late-move reductions.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn search_move<const PV: bool>(
        &mut self,
        board: &Board,
        c: &Child,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
        improving: bool,
        best: i32,
    ) -> i32 {
        self.enter(board, c.mv, ply);
        self.stack[ply + 1 + OFF].double_exts =
            self.stack[ply + OFF].double_exts + (c.ext >= 2) as i32;
        let gives_check = self.pos.board().in_check() as i32;
        // A check extends by a ply (unless the experiment `no_check_ext` is on), as does a
        // singular table move; a reduced table move loses a ply or two.
        let check_ext = gives_check * (params::no_check_ext() == 0) as i32;
        let new_depth = depth - 1 + check_ext.max(c.ext) + c.ext.min(0);
        let score = if c.n == 1 {
            // The experiment `cut_first_child`: a zero-window node's first child is of the
            // opposite type.
            let child_cut = !PV && params::cut_first_child() != 0 && !cut_node;
            -self.negamax::<PV>(-beta, -alpha, new_depth, ply + 1, child_cut)
        } else {
            let mut r = 0;
            let skip = if PV {
                params::lmr_skip_pv()
            } else {
                params::lmr_skip()
            };
            if depth >= params::lmr_min_depth()
                && c.n > skip as usize
                && (c.quiet || !see_ge(board, c.mv, 0))
            {
                r = self.lmr[depth.min(63) as usize][c.n.min(63)];
                r += !PV as i32;
                r += cut_node as i32;
                r -= gives_check;
                r -= improving as i32;
                r -= c.hist / params::lmr_history_div();
                if !PV && self.stack[ply + OFF].tt_pv {
                    r -= params::ttpv_lmr();
                }
                r = r.clamp(0, new_depth - 1);
            }
            self.later_move::<PV>(alpha, beta, new_depth, r, ply, cut_node, best)
        };
        self.pos.unmake();
        score
    }

    /// The ladder for a move after the first (already made, at `ply + 1`): a zero window at
    /// depth `new_depth - r`; if a reduced search beat alpha, again at full depth (a ply
    /// deeper if it beat alpha by a margin; with the experiment `lmr_shallower` a ply
    /// shallower if it did not beat `best`, the node's best score so far, by 10 cp); then at
    /// a PV node with the full window if the score is inside it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn later_move<const PV: bool>(
        &mut self,
        alpha: i32,
        beta: i32,
        new_depth: i32,
        r: i32,
        ply: usize,
        cut_node: bool,
        best: i32,
    ) -> i32 {
        let depth = new_depth - r;
        self.stack[ply + OFF].reduction = r;
        let mut s = -self.negamax::<false>(-alpha - 1, -alpha, depth, ply + 1, true);
        self.stack[ply + OFF].reduction = 0;
        if s > alpha && depth < new_depth && !self.stopped() {
            // The reduced search failed high: verify at full depth, a ply deeper if it beat
            // alpha by a margin (Stockfish 15.1's doDeeperSearch).
            let margin =
                params::lmr_deeper_base() + params::lmr_deeper_per_ply() * (new_depth - depth);
            let shallower = params::lmr_shallower() != 0 && s < best + 10;
            let full = new_depth + (s > alpha + margin) as i32 - shallower as i32;
            s = -self.negamax::<false>(-alpha - 1, -alpha, full, ply + 1, !cut_node);
        }
        if PV && s > alpha && s < beta {
            s = -self.negamax::<true>(-beta, -alpha, new_depth, ply + 1, false);
        }
        s
    }

    /// After a cutoff by `best` at `ply`: rewards it (killer, counter move, butterfly and
    /// continuation history, or capture history) and penalises the moves tried before it.
    #[allow(clippy::too_many_arguments)]
    fn update_histories(
        &mut self,
        board: &Board,
        ply: usize,
        depth: i32,
        best: Move,
        quiets: &[(Move, PieceTo)],
        captures: &[Move],
        prev: PieceTo,
        prev2: PieceTo,
        far: &[PieceTo],
    ) {
        let b = bonus(depth);
        let us = board.side_to_move();
        if !is_noisy(board, best) {
            let k = &mut self.killers[ply];
            if k[0] != best {
                k[1] = k[0];
                k[0] = best;
            }
            if prev != PieceTo::NONE {
                self.history.counter[prev.0 as usize] = best;
            }
            let pt = board
                .piece_on(best.from())
                .map_or(PieceTo::NONE, |p| PieceTo::new(p, best.to()));
            history::update(
                &mut self.history.butterfly[us.index()][best.from().index()][best.to().index()],
                b,
            );
            history::update(self.history.cont_mut(prev, pt), b);
            history::update(self.history.cont_mut(prev2, pt), b);
            for &f in far {
                history::update(self.history.cont_mut(f, pt), b);
            }
            history::update(self.history.pawn_mut(board, pt), b);
            for &(mv, pt) in quiets {
                history::update(
                    &mut self.history.butterfly[us.index()][mv.from().index()][mv.to().index()],
                    -b,
                );
                history::update(self.history.cont_mut(prev, pt), -b);
                history::update(self.history.cont_mut(prev2, pt), -b);
                for &f in far {
                    history::update(self.history.cont_mut(f, pt), -b);
                }
                history::update(self.history.pawn_mut(board, pt), -b);
            }
        } else {
            history::update(self.history.capture_mut(board, best), b);
        }
        for &mv in captures {
            history::update(self.history.capture_mut(board, mv), -b);
        }
    }

    /// The continuation-history keys of the moves four and six plies before `ply` that the
    /// experiment `cont_far` uses (none when it is off; a move before the root counts as
    /// none).
    #[inline]
    fn far_continuations(&self, ply: usize) -> Tried<PieceTo, 2> {
        let mut far = Tried::new(PieceTo::NONE);
        for back in [4, 6].into_iter().take(params::cont_far() as usize) {
            far.push(if ply >= back {
                self.stack[ply + OFF - back].pt
            } else {
                PieceTo::NONE
            });
        }
        far
    }

    /// Makes `mv` followed by the child's line the principal variation of `ply`.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

/// The moves a node tried that did not become best, up to `N` (for the history penalty).
struct Tried<T: Copy, const N: usize> {
    list: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> Tried<T, N> {
    fn new(fill: T) -> Self {
        Tried {
            list: [fill; N],
            len: 0,
        }
    }

    /// Adds `item` if there is room.
    #[inline]
    fn push(&mut self, item: T) {
        if self.len < N {
            self.list[self.len] = item;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[T] {
        &self.list[..self.len]
    }
}

/// Hindsight on a reduction, as Stockfish 17 has it: the plies to add to a node's `depth`
/// given the late-move reduction `prior_r` its parent gave the move into it and both static
/// evaluations (each from its own side to move; `-INF` in check). A node reduced a lot,
/// whose side to move stands no better than the parent's evaluation said (the move into it
/// did not worsen things for the side that made it), gets a ply back; a reduced node where
/// both sides' evaluations say each is better off (the reduction was right) loses one.
pub(super) fn hindsight(depth: i32, prior_r: i32, static_eval: i32, parent_eval: i32) -> i32 {
    if parent_eval == -INF || static_eval == -INF {
        0
    } else if prior_r >= params::hindsight_min_r() && static_eval <= -parent_eval {
        1
    } else if prior_r >= 1 && depth >= 2 && static_eval + parent_eval > params::hindsight_margin() {
        -1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Control;
    use engram_chess::Position;
    use engram_tt::Table;
    use std::sync::Arc;

    #[test]
    fn hindsight_gives_back_a_ply_only_after_a_large_reduction() {
        // Reduced by 3, and the side to move sees itself no better off than the parent's
        // evaluation said (the move did not worsen things for the side that made it).
        assert_eq!(hindsight(6, 3, -60, 50), 1);
        assert_eq!(hindsight(6, 3, -50, 50), 1);
        // Better off than the parent said: none.
        assert_eq!(hindsight(6, 3, -49, 50), 0);
        // A small reduction: none back.
        assert_eq!(hindsight(6, 2, -60, 50), 0);
        // Reduced, and both sides think they are better by more than the margin: a ply less.
        let m = params::hindsight_margin();
        assert_eq!(hindsight(6, 1, m, 1), -1);
        assert_eq!(hindsight(6, 1, m, 0), 0);
        assert_eq!(hindsight(1, 1, m, 1), 0, "not below depth 2");
        assert_eq!(hindsight(6, 0, m, 1), 0, "not without a reduction");
        // In check at either node: no change.
        assert_eq!(hindsight(6, 5, -INF, 50), 0);
        assert_eq!(hindsight(6, 5, 50, -INF), 0);
    }

    /// Every reduction a search records on its stack is taken back after the reduced search,
    /// so no node later sees a reduction its parent did not make.
    #[test]
    fn a_search_leaves_no_reduction_on_the_stack() {
        let mut s = Searcher::new(
            Arc::new(Table::new(1).unwrap()),
            Arc::new(Control::default()),
        );
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        s.pos = Position::new(board);
        for depth in 1..=7 {
            s.negamax::<true>(-INF, INF, depth, 0, false);
            assert!(s.stack.iter().all(|f| f.reduction == 0), "depth {depth}");
        }
    }
}
