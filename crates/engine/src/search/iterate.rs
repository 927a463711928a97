//! Iterative deepening: the search's entry point, the loop over depths with aspiration
//! windows, when to stop (time, nodes, `stop`, another thread), and the `info` lines.

use super::params;
use super::report::{Event, Info};
use super::see::capture_value;
use super::{
    is_decisive, RootMove, SearchLimits, SearchResult, Searcher, SmpMode, Unwind, INF, MATE,
    MATE_BOUND, MAX_PLY,
};
use crate::config::EngineConfig;
use crate::time::{self, Clock, Timer};
use engram_chess::{Move, Position};
use engram_tt::Bound;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

impl Searcher {
    /// Searches `pos` within `limits`, configured by `config` (shared by all threads of the
    /// search), and returns the best move. The caller bumps the table's generation
    /// (`Table::new_search`) once per search, before any thread starts.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: SearchLimits,
        config: &Arc<EngineConfig>,
    ) -> SearchResult {
        self.config = config.clone();
        self.use_tt = config.use_tt;
        self.prefetch = config.prefetching();
        #[cfg(feature = "lab")]
        {
            self.tt_use.iir_on = config.iir;
        }
        self.pos = pos.clone();
        self.nodes = 0;
        self.tbhits = 0;
        self.seldepth = 0;
        self.reset_slot();
        self.unwind = None;
        self.was_pondering = self.control.pondering.load(Ordering::Relaxed);
        self.timer = Timer::new(time::allocate(&limits.clock, config.move_overhead));
        self.eval.configure(config.nnue());
        self.limits = limits;
        self.killers.fill([Move::NULL; 2]);
        *self.outbox.get_mut() =
            crate::cluster::exchange::Outbox::new(self.control.exchange.get().cloned());
        #[cfg(feature = "tune")]
        {
            self.lmr = params::lmr_table();
        }
        let threads = self.counters.len();
        // Several PVs are the main thread's job; the helpers search one.
        self.multipv = if self.id == 0 {
            config.multipv.max(1)
        } else {
            1
        };
        self.skill = config.skill().filter(|_| self.id == 0);
        if let Some(skill) = self.skill {
            self.multipv = self.multipv.max(skill.lines());
        }
        self.mode = if threads > 1 && self.multipv == 1 {
            SmpMode::Lazy
        } else {
            // One thread; or several PVs, which are the main thread's job: it iterates on its
            // own schedule, while the helpers spread around it.
            SmpMode::Single
        };

        let board = *self.pos.board();
        self.root_moves = board
            .legal_moves()
            .iter()
            .filter(|m| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                bound: Bound::None,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
        if self.root_moves.is_empty() {
            let score = if board.in_check() { -MATE } else { 0 };
            self.report(Event::NoMoves { score });
            self.wait_if_required();
            return SearchResult::no_move(score, 0);
        }
        if self.id == 0 && self.limits.tb.root_score.is_some() {
            // The pool's ranking of the root probed every legal move (counted as Stockfish
            // counts it).
            self.tbhits = board.legal_moves().len() as u64;
        }
        // Order the root once by a cheap guess: captures by value, then the rest.
        self.root_moves
            .sort_by_key(|rm| -capture_value(&board, rm.mv));

        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .min(
                self.skill
                    .map_or(MAX_PLY as i32, |s| s.depth(crate::random::random_u64)),
            )
            .clamp(1, MAX_PLY as i32 - 1);
        let single_reply = self.root_moves.len() == 1
            && self.limits.clock != Clock::default()
            && !self.limits.infinite;
        let multipv = self.multipv.min(self.root_moves.len());
        let mut completed = 0;
        let mut instability = 0.0f64;
        let mut last_best = Move::NULL;
        let mut last_score = 0;
        // The strength limit picks among the lines of the last completed iteration: an
        // iteration cut off by the clock leaves the lines half re-sorted.
        let mut skill_lines: Vec<(Move, i32)> = Vec::new();

        // Lazy SMP (`smp.rs`): every thread searches every iteration; threads in the same
        // iteration put off each other's root moves (`root.rs`). (Chosen by games, see
        // docs/measurements.md: a leapfrog in which the threads skipped the iterations others
        // were in reached greater depths sooner but gained no Elo over one thread.)
        for depth in 1..=max_depth {
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            self.iter_depth = depth;
            self.root_changes = 0;
            for pv_idx in 0..multipv {
                self.aspiration(depth, pv_idx);
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                break;
            }
            completed = depth;
            if self.skill.is_some() {
                skill_lines.clear();
                skill_lines.extend(
                    self.root_moves[..multipv]
                        .iter()
                        .map(|rm| (rm.mv, rm.score)),
                );
            }
            if self.reports() {
                // The lines asked for (a strength limit searches more than it shows).
                for i in 0..multipv.min(self.config.multipv.max(1)) {
                    self.report_info(depth, i);
                }
            }

            // Decide whether to go deeper.
            let best = self.root_moves[0].mv;
            let score = self.root_moves[0].score;
            instability *= 0.5;
            if params::tm_changes() != 0 {
                // The experiment `tm_changes`: every change of the best move within the
                // iteration counts (re-searches of the aspiration window included).
                instability += f64::from(self.root_changes);
            } else if best != last_best && depth > 1 {
                instability += 1.0;
            }
            let drop = if depth > 1 {
                let cp = params::tm_drop_cp();
                (last_score - score).clamp(0, cp) as f64 / cp as f64
            } else {
                0.0
            };
            last_best = best;
            last_score = score;
            if let Some(m) = self.limits.mate {
                if score >= MATE_BOUND && (MATE - score + 1) / 2 <= m {
                    break;
                }
            }
            if single_reply {
                break;
            }
            let pondering = self.control.pondering.load(Ordering::Relaxed);
            let scale = time_scale(instability, drop, self.best_move_share());
            if !pondering && self.timer.soft_expired(scale) {
                break;
            }
        }
        if let (Some(skill), false) = (self.skill, skill_lines.is_empty()) {
            // The strength limit plays a move of its choice among the lines, and shows it.
            let pick = skill.pick(&skill_lines, crate::random::random_u64);
            if let Some(i) = self.root_moves.iter().position(|rm| rm.mv == pick) {
                if i > 0 {
                    self.root_moves[..=i].rotate_right(1);
                    if self.reports() {
                        self.report_info(completed, 0);
                    }
                }
            }
        }
        self.wait_if_required();
        self.publish_nodes();
        self.outbox.get_mut().flush();

        let best = &self.root_moves[0];
        SearchResult {
            best: best.mv,
            ponder: best.pv.get(1).copied(),
            // Stopped before this move's search in the interrupted iteration ended: its score
            // is the last completed iteration's (as `report_info` shows it).
            score: self.shown(if best.score == -INF {
                best.prev_score
            } else {
                best.score
            }),
            depth: completed,
            nodes: self.nodes,
            pv: best.pv.clone(),
            seldepth: best.seldepth,
        }
    }

    /// Searches principal variation `pv_idx` of iteration `depth` in a window around its
    /// last score, widening it on each failure; leaves the root moves sorted by score.
    fn aspiration(&mut self, depth: i32, pv_idx: usize) {
        self.seldepth = 0;
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = params::asp_delta();
        let (mut alpha, mut beta) = if depth >= params::asp_min_depth() && !is_decisive(prev) {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root(depth, alpha, beta, pv_idx);
            self.root_moves[pv_idx..].sort_by_key(|rm| -rm.score);
            if self.stopped() {
                break;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta {
                beta = (score + delta).min(INF);
            } else {
                break;
            }
            if self.reports() && self.timer.elapsed() > Duration::from_secs(1) {
                self.report_info(depth, pv_idx);
            }
            delta += delta * params::asp_growth() / 100;
        }
        self.root_moves[..=pv_idx].sort_by_key(|rm| -rm.score);
    }

    /// The share of this search's nodes (this thread's) spent below the best root move.
    fn best_move_share(&self) -> f64 {
        (self.root_moves[0].nodes as f64 / self.nodes.max(1) as f64).clamp(0.0, 1.0)
    }

    /// `go infinite` and `go ponder` never end on their own: wait for `stop` or `ponderhit`.
    fn wait_if_required(&self) {
        while !self.control.stop.load(Ordering::Relaxed)
            && (self.limits.infinite || self.control.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Whether this thread reports (the main thread, when the limits have a reporter).
    fn reports(&self) -> bool {
        self.id == 0 && self.limits.reporter.is_some()
    }

    /// Hands `event` to the limits' reporter, if this thread reports.
    pub(super) fn report(&self, event: Event) {
        if let (true, Some(r)) = (self.id == 0, &self.limits.reporter) {
            r.report(&event);
        }
    }

    /// Reports principal variation `idx` at `depth`.
    pub(super) fn report_info(&self, depth: i32, idx: usize) {
        let rm = &self.root_moves[idx];
        let (score, bound) = if rm.score == -INF {
            (rm.prev_score, Bound::Exact)
        } else {
            (rm.score, rm.bound)
        };
        if score == -INF || !self.reports() {
            return;
        }
        let score = self.shown(score);
        self.report(Event::Info(Info {
            depth,
            seldepth: self.max_seldepth(rm.seldepth),
            multipv: idx + 1,
            score,
            bound,
            nodes: self.total_nodes(),
            tbhits: self.total_tbhits(),
            time_ms: self.timer.elapsed().as_millis().max(1) as u64,
            hashfull: self.use_tt.then(|| self.tt.hashfull()),
            pv: rm.pv.clone(),
        }));
    }

    /// The score to show for a root score `score`: the tables' verdict on the root when it
    /// was probed, unless the search proved a mate.
    fn shown(&self, score: i32) -> i32 {
        match self.limits.tb.root_score {
            Some(tb) if score.abs() < MATE_BOUND && score != -INF => tb,
            _ => score,
        }
    }

    /// Reports the root move searched now, once the search has run for a second.
    pub(super) fn report_currmove(&self, depth: i32, mv: Move, number: usize) {
        if self.reports() && self.timer.elapsed() > Duration::from_secs(1) {
            self.report(Event::CurrMove { depth, mv, number });
        }
    }

    /// The check at the top of every node: sets `unwind` when the search must end (`stop`,
    /// the node limit, every 1024 nodes the clock), or (Lazy SMP) when another thread
    /// completed this iteration.
    ///
    /// A node limit counts the nodes of all threads: each thread's own count every node,
    /// everyone's as published every 1024 nodes, so with `T` threads a search stops within
    /// about `T × 1024` nodes past the limit (exactly at it with one thread).
    #[inline]
    pub(super) fn check_limits(&mut self) {
        if self.control.stop.load(Ordering::Relaxed) {
            self.unwind = Some(Unwind::Stop);
            return;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.unwind = Some(Unwind::Stop);
                return;
            }
        }
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.nodes_exhausted() {
                self.unwind = Some(Unwind::Stop);
                return;
            }
            self.check_time();
        }
    }

    /// Stops at the hard time limit (not while pondering; the clock restarts at `ponderhit`).
    pub(super) fn check_time(&mut self) {
        let pondering = self.control.pondering.load(Ordering::Relaxed);
        if pondering {
            return;
        }
        if self.was_pondering {
            self.was_pondering = false;
            let at = *self
                .control
                .ponderhit
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            self.timer.restart_at(at.unwrap_or_else(Instant::now));
        }
        if self.timer.hard_expired() {
            self.unwind = Some(Unwind::Stop);
        }
    }

    /// Whether all threads together have searched the node limit (as last published).
    pub(super) fn nodes_exhausted(&self) -> bool {
        self.limits
            .nodes
            .is_some_and(|n| self.counters.len() > 1 && self.total_nodes() >= n)
    }
}

/// How much of the soft time limit to use, from the best move's instability and the score's
/// drop (0 to 1) over the last iterations, scaled by the share of the nodes the best move
/// took (0 to 1): a move that took nearly all of them is clear, one that took few has rivals.
fn time_scale(instability: f64, drop: f64, share: f64) -> f64 {
    let pct = |p: i32| f64::from(p) / 100.0;
    let stability = pct(params::tm_base())
        + pct(params::tm_instability()) * instability
        + pct(params::tm_drop()) * drop;
    stability * (pct(params::tm_node_base()) - share) * pct(params::tm_node_mul())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Control;
    use crate::time::Limits;
    use engram_tt::Table;
    use std::sync::Arc;

    /// The soft limit shrinks as the best move takes more of the nodes and grows with its
    /// instability: `(1.5 − share) · 1.35` times the stability factor.
    #[test]
    fn time_scales_with_the_best_moves_node_share() {
        assert!(time_scale(0.0, 0.0, 0.95) < time_scale(0.0, 0.0, 0.5));
        assert!(time_scale(1.0, 0.0, 0.5) > time_scale(0.0, 0.0, 0.5));
        assert!((time_scale(0.0, 0.0, 0.5) - 0.70 * 1.35).abs() < 1e-9);
        assert!((time_scale(0.0, 1.0, 1.0) - 1.20 * 0.5 * 1.35).abs() < 1e-9);
    }

    /// Issue 13, fault 5: after `ponderhit` the clock runs from the moment it arrived, not
    /// from when the search next checks the time.
    #[test]
    fn the_clock_starts_at_ponderhit() {
        let control = Arc::new(Control::default());
        let mut s = Searcher::new(Arc::new(Table::new(1).unwrap()), control.clone());
        let limit = Duration::from_millis(300);
        s.timer = Timer::new(Some(Limits {
            soft: limit,
            hard: limit,
        }));
        s.was_pondering = true;
        // `ponderhit` came 500 ms ago; the search looks at the clock only now.
        *control.ponderhit.lock().unwrap() = Some(Instant::now() - Duration::from_millis(500));
        control.pondering.store(false, Ordering::Relaxed);
        s.check_time();
        assert_eq!(s.unwind, Some(Unwind::Stop), "300 ms were up 200 ms ago");
    }
}
