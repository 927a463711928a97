//! The search: iterative deepening with aspiration windows over an explicit root move list,
//! principal-variation search (negamax, fail-soft) with the transposition table at every node,
//! and quiescence search. Pruning: reverse futility, null move, futility, late-move pruning and
//! reductions, SEE pruning, internal iterative reduction; check extension. Several threads
//! share the work by splitting nodes (young brothers wait, `split.rs`) or, as Lazy SMP,
//! by spreading over depths (`smp.rs`).

pub mod history;
pub mod picker;
pub mod see;
pub mod smp;
mod split;
pub mod tt;

use crate::eval::{non_pawn_material, Evaluator};
use crate::time::{self, Clock, Timer};
use engram_chess::{Board, Move, Position};
use engram_tt::{Bound, Record, Table};
use history::{bonus, History, PieceTo};
use picker::{is_noisy, MovePicker};
use see::{capture_value, see_ge};
use smp::Smp;
use split::{Child, Idle, RootResult, SplitPoint, State};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tt::{cuts, from_tt, to_tt, EVAL_NONE};
pub use tt::{INF, MATE, MATE_BOUND, MAX_PLY};

/// Flags shared between the UCI thread and the search.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: no time limit applies until `ponderhit` clears it.
    pub pondering: AtomicBool,
    /// True from `go` until the search has decided its move (set by the UCI thread, cleared
    /// by the search thread just before it prints `bestmove`).
    pub searching: AtomicBool,
    /// Lazy SMP: which iterations the threads are in (reset by the pool per search).
    pub smp: Smp,
}

/// Node counts of all search threads, published every 1024 nodes so `info` can sum them.
pub type NodeCounters = Arc<[AtomicU64]>;

/// What to search for: the parameters of `go`, plus options that shape the search.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    /// Clock parameters.
    pub clock: Clock,
    /// Search until `stop`.
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// `Move Overhead` in milliseconds.
    pub move_overhead: u64,
    /// With several threads: spread them over depths (Lazy SMP, `smp.rs`) instead of
    /// splitting the tree (young brothers wait, `split.rs`).
    pub lazy_smp: bool,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`Move::NULL` if there is no legal move).
    pub best: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// The score of the best move, side to move's view.
    pub score: i32,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
    /// The selective depth of the principal variation.
    pub seldepth: usize,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Bound,
    seldepth: usize,
    pv: Vec<Move>,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    eval: i32,
    pt: PieceTo,
    mv: Move,
}

/// Stack frames before ply 0, so `ply - 2` is always valid.
const OFF: usize = 2;

/// One search thread's state; reused across searches (history survives until `ucinewgame`).
pub struct Searcher {
    /// The shared transposition table.
    pub tt: Arc<Table>,
    /// Whether to use the table (off only for measurements).
    pub use_tt: bool,
    /// Print `info` lines.
    pub verbose: bool,
    /// This thread's index in the pool (0 = main thread; helpers diversify by it).
    pub id: usize,
    /// Where this thread publishes its node count (index `id`), and reads the others'.
    pub counters: NodeCounters,
    /// Evaluation and its pawn hash.
    pub eval: Evaluator,
    /// Move-ordering statistics.
    pub history: History,
    killers: Vec<[Move; 2]>,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    pos: Position,
    control: Arc<Control>,
    timer: Timer,
    limits: SearchLimits,
    stopped: bool,
    /// Set with `stopped` when another thread completed the current iteration.
    abandoned: bool,
    /// The iteration in progress.
    iter_depth: i32,
    was_pondering: bool,
    root_moves: Vec<RootMove>,
    lmr: Vec<[i32; 64]>,
    /// Young brothers wait at PV nodes (`split.rs`) instead of spreading over depths.
    ybw: bool,
    /// The split points this thread works under, innermost last.
    splits: Vec<Arc<SplitPoint>>,
    /// Set with `stopped` when a split point this thread works under was cut off.
    split_abort: bool,
}

impl Searcher {
    /// A searcher on `tt`, controlled through `control`.
    pub fn new(tt: Arc<Table>, control: Arc<Control>) -> Searcher {
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
                    }
                }
                row
            })
            .collect();
        Searcher {
            tt,
            use_tt: true,
            verbose: true,
            id: 0,
            counters: Arc::from(vec![AtomicU64::new(0)]),
            eval: Evaluator::default(),
            history: History::default(),
            killers: vec![[Move::NULL; 2]; MAX_PLY + 2],
            stack: vec![Frame::default(); MAX_PLY + OFF + 2],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            pos: Position::new(Board::startpos()),
            control,
            timer: Timer::new(None),
            limits: SearchLimits::default(),
            stopped: false,
            abandoned: false,
            iter_depth: 0,
            was_pondering: false,
            root_moves: Vec::new(),
            lmr,
            ybw: false,
            splits: Vec::new(),
            split_abort: false,
        }
    }

    /// Forgets all learned statistics (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.history.clear();
        self.eval.pawns.clear();
        self.killers.fill([Move::NULL; 2]);
    }

    /// Nodes searched by the current or last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The control flags this searcher obeys.
    pub fn control(&self) -> Arc<Control> {
        self.control.clone()
    }

    /// Nodes searched by all threads of the pool, as last published.
    fn total_nodes(&self) -> u64 {
        self.counters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == self.id {
                    self.nodes
                } else {
                    c.load(Ordering::Relaxed)
                }
            })
            .sum()
    }

    fn publish_nodes(&self) {
        if let Some(c) = self.counters.get(self.id) {
            c.store(self.nodes, Ordering::Relaxed);
        }
    }

    /// Searches `pos` within `limits` and returns the best move. The caller bumps the table's
    /// generation (`Table::new_search`) once per search, before any thread starts.
    pub fn search(&mut self, pos: &Position, limits: SearchLimits) -> SearchResult {
        self.pos = pos.clone();
        self.nodes = 0;
        self.publish_nodes();
        self.stopped = false;
        self.was_pondering = self.control.pondering.load(Ordering::Relaxed);
        self.timer = Timer::new(time::allocate(&limits.clock, limits.move_overhead));
        self.limits = limits;
        self.killers.fill([Move::NULL; 2]);
        self.split_abort = false;
        self.splits.clear();
        self.ybw = self.counters.len() > 1 && !self.limits.lazy_smp;
        if self.ybw && self.id != 0 {
            self.help();
            return SearchResult {
                best: Move::NULL,
                ponder: None,
                score: 0,
                depth: 0,
                nodes: self.nodes,
                pv: Vec::new(),
                seldepth: 0,
            };
        }

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
            })
            .collect();
        if self.root_moves.is_empty() {
            let score = if board.in_check() { -MATE } else { 0 };
            if self.verbose {
                println!("info depth 0 score {}", score_text(score));
            }
            self.wait_if_required();
            return SearchResult {
                best: Move::NULL,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                seldepth: 0,
            };
        }
        // Order the root once by a cheap guess: captures by value, then the rest.
        self.root_moves
            .sort_by_key(|rm| -capture_value(&board, rm.mv));

        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let single_reply = self.root_moves.len() == 1
            && self.limits.clock != Clock::default()
            && !self.limits.infinite;
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        let mut completed = 0;
        let mut instability = 0.0f64;
        let mut last_best = Move::NULL;
        let mut last_score = 0;

        // With several threads the default is to split nodes (`split.rs`: the main thread
        // runs the iterations, helpers join its split points). With `SMP Lazy` (`smp.rs`)
        // and one PV, threads spread over
        // depths. The main thread skips an iteration another thread is in, a helper one that
        // half the threads are in; any thread skips, or abandons, an iteration another
        // thread has completed; threads in the same iteration put off each other's root
        // moves (`root`). (Measured on `bench 16 --threads 2`, README: the leapfrog beat odd
        // helpers skipping even depths and plain Lazy SMP; ABDADA's deferral inside the tree
        // gained nothing measurable, at the root it helps the shared last iteration.)
        let threads = self.counters.len();
        let spread = threads > 1 && multipv == 1 && !self.ybw;
        let mut saved = Vec::new();
        for depth in 1..=max_depth {
            if spread && depth > 1 && depth < max_depth {
                let smp = &self.control.smp;
                let others = smp.searchers(depth);
                if smp.done() >= depth
                    || (self.id == 0 && others >= 1)
                    || (self.id != 0 && 2 * others >= threads)
                {
                    continue;
                }
            }
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            if spread {
                saved.clone_from(&self.root_moves);
            }
            self.iter_depth = depth;
            self.control.smp.enter(depth);
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 20;
                let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let score = self.root(depth, alpha, beta, pv_idx);
                    self.root_moves[pv_idx..].sort_by_key(|rm| -rm.score);
                    if self.stopped {
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
                    if self.verbose && self.timer.elapsed() > Duration::from_secs(1) {
                        self.print_info(depth, pv_idx);
                    }
                    delta += delta / 2;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| -rm.score);
                if self.stopped {
                    break;
                }
            }
            self.control.smp.leave(depth);
            if self.abandoned {
                // Another thread completed this iteration: start the next one from its
                // results in the table, with this thread's last completed ordering.
                self.abandoned = false;
                self.stopped = false;
                std::mem::swap(&mut self.root_moves, &mut saved);
                let pondering = self.control.pondering.load(Ordering::Relaxed);
                if !pondering && self.timer.soft_expired(0.7 + 0.6 * instability) {
                    break;
                }
                continue;
            }
            if self.stopped {
                break;
            }
            completed = depth;
            self.control.smp.complete(depth);
            if self.verbose {
                for i in 0..multipv {
                    self.print_info(depth, i);
                }
            }

            // Decide whether to go deeper.
            let best = self.root_moves[0].mv;
            let score = self.root_moves[0].score;
            instability *= 0.5;
            if best != last_best && depth > 1 {
                instability += 1.0;
            }
            let drop = if depth > 1 {
                (last_score - score).clamp(0, 100) as f64 / 100.0
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
            if !pondering
                && self
                    .timer
                    .soft_expired(0.7 + 0.6 * instability + 0.5 * drop)
            {
                break;
            }
        }
        self.wait_if_required();
        self.publish_nodes();

        let best = &self.root_moves[0];
        SearchResult {
            best: best.mv,
            ponder: best.pv.get(1).copied(),
            // Stopped before this move's search in the interrupted iteration ended: its score
            // is the last completed iteration's (as `print_info` shows it).
            score: if best.score == -INF {
                best.prev_score
            } else {
                best.score
            },
            depth: completed,
            nodes: self.nodes,
            pv: best.pv.clone(),
            seldepth: best.seldepth,
        }
    }

    /// `go infinite` and `go ponder` never end on their own: wait for `stop` or `ponderhit`.
    fn wait_if_required(&self) {
        while !self.control.stop.load(Ordering::Relaxed)
            && (self.limits.infinite || self.control.pondering.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn print_info(&self, depth: i32, idx: usize) {
        let rm = &self.root_moves[idx];
        let (score, bound) = if rm.score == -INF {
            (rm.prev_score, Bound::Exact)
        } else {
            (rm.score, rm.bound)
        };
        if score == -INF {
            return;
        }
        let ms = self.timer.elapsed().as_millis().max(1) as u64;
        let bound = match bound {
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
            _ => "",
        };
        let board = self.pos.board();
        let mut pv_text = String::new();
        let mut b = *board;
        for &m in &rm.pv {
            if !b.is_legal(m) {
                break;
            }
            pv_text.push(' ');
            pv_text.push_str(&b.to_uci(m));
            b.play(m);
        }
        let hashfull = if self.use_tt {
            format!(" hashfull {}", self.tt.hashfull())
        } else {
            String::new()
        };
        println!(
            "info depth {depth} seldepth {} multipv {} score {}{bound} nodes {} nps {} time {ms}{hashfull} pv{pv_text}",
            rm.seldepth.max(1),
            idx + 1,
            score_text(score),
            self.total_nodes(),
            self.total_nodes() * 1000 / ms,
        );
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
                return;
            }
        }
        if let Some(sp) = self.splits.last() {
            if sp.aborted() {
                self.stopped = true;
                self.split_abort = true;
                return;
            }
        }
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.counters.len() > 1
                && !self.ybw
                && self.limits.multipv <= 1
                && self.control.smp.done() >= self.iter_depth
                && self.iter_depth < self.limits.depth.unwrap_or(i32::MAX)
            {
                self.stopped = true;
                self.abandoned = true;
                return;
            }
            self.check_time();
        }
    }

    /// Stops at the hard time limit (not while pondering; the clock restarts at `ponderhit`).
    fn check_time(&mut self) {
        let pondering = self.control.pondering.load(Ordering::Relaxed);
        if pondering {
            return;
        }
        if self.was_pondering {
            self.was_pondering = false;
            self.timer.restart();
        }
        if self.timer.hard_expired() {
            self.stopped = true;
        }
    }

    /// `check_limits` for a thread that searches no nodes (waiting at a split point).
    fn poll(&mut self) {
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if self.splits.last().is_some_and(|sp| sp.aborted()) {
            self.stopped = true;
            self.split_abort = true;
        } else {
            self.check_time();
        }
    }

    fn root(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
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
            self.eval.evaluate(&board)
        };
        // Lazy SMP at the root: a move another thread is searching in this iteration is put
        // off to the end of the list, where its result is usually in the table already
        // (ABDADA's deferral, at the root only; the first move is never put off).
        let threads = self.counters.len();
        let defer = threads > 1 && self.limits.multipv <= 1 && !self.ybw;
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
            if self.verbose && self.timer.elapsed() > Duration::from_secs(1) {
                println!(
                    "info depth {depth} currmove {} currmovenumber {}",
                    board.to_uci(mv),
                    i + 1
                );
            }
            let n = i - pv_idx;
            let child = Child {
                mv,
                n,
                quiet: false,
                hist: 0,
                pt: PieceTo::NONE,
                idx: i,
            };
            let score = self.root_move(&board, &child, alpha, beta, depth, None);
            if self.stopped {
                break;
            }
            if n == 0 || score > alpha {
                let child_pv = &self.pv[1][1..self.pv_len[1].max(1)];
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(child_pv);
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
            if self.ybw && n == 0 && k < order.len() && depth >= 2 {
                // Young brothers wait: the other moves go to all threads.
                let rest = order[k..]
                    .iter()
                    .map(|&(i, _)| Child {
                        mv: self.root_moves[i].mv,
                        n: i - pv_idx,
                        quiet: false,
                        hist: 0,
                        pt: PieceTo::NONE,
                        idx: i,
                    })
                    .collect();
                let best_move = if best > -INF { mv } else { Move::NULL };
                let node = Node {
                    depth,
                    pv: true,
                    ..Node::default()
                };
                let state = State::new(rest, alpha, best, best_move, Vec::new());
                let sp = self.split(0, node, beta, state);
                let mut st = sp.lock();
                for r in st.root.drain(..) {
                    let rm = &mut self.root_moves[r.idx];
                    rm.score = r.score;
                    rm.bound = r.bound;
                    rm.seldepth = r.seldepth;
                    rm.pv = r.pv;
                }
                best = best.max(st.best_score);
                break;
            }
        }
        if defer {
            self.control.smp.set_current(self.id, depth, 0);
        }
        best
    }

    /// Makes `mv` at `ply`, recording it on the stack (prefetching the child's TT entry first).
    #[inline]
    fn enter(&mut self, board: &Board, mv: Move, ply: usize) {
        if self.use_tt {
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

    /// Searches one move of a node: the first with the full window, the others with a
    /// (reduced) zero window first.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_move<const PV: bool>(
        &mut self,
        board: &Board,
        c: &Child,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
        improving: bool,
        shared: Option<&SplitPoint>,
    ) -> i32 {
        self.enter(board, c.mv, ply);
        let gives_check = self.pos.board().in_check();
        let new_depth = depth - 1 + gives_check as i32;
        let score = if c.n == 1 {
            -self.negamax::<PV>(-beta, -alpha, new_depth, ply + 1, false)
        } else {
            let mut r = 0;
            if depth >= 3 && c.n > 1 + 2 * PV as usize && (c.quiet || !see_ge(board, c.mv, 0)) {
                r = self.lmr[depth.min(63) as usize][c.n.min(63)];
                r += !PV as i32;
                r += cut_node as i32;
                r -= gives_check as i32;
                r -= improving as i32;
                r -= c.hist / 8_192;
                r = r.clamp(0, new_depth - 1);
            }
            self.later_move::<PV>(alpha, beta, new_depth, r, ply, cut_node, shared)
        };
        self.pos.unmake();
        score
    }

    /// The search of a move after the first (already made, at `ply + 1`): a zero window at
    /// depth `new_depth - r`, again at full depth if it beat alpha, then at a PV node with the
    /// full window if it is inside it. At a split point (`shared`) alpha is re-read between
    /// the steps: another thread may have raised it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn later_move<const PV: bool>(
        &mut self,
        alpha: i32,
        beta: i32,
        new_depth: i32,
        r: i32,
        ply: usize,
        cut_node: bool,
        shared: Option<&SplitPoint>,
    ) -> i32 {
        let mut s = -self.negamax::<false>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
        let alpha = shared.map_or(alpha, |sp| sp.alpha().max(alpha));
        if s > alpha && r > 0 {
            s = -self.negamax::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        }
        let alpha = shared.map_or(alpha, |sp| sp.alpha().max(alpha));
        if PV && s > alpha && s < beta {
            s = -self.negamax::<true>(-beta, -alpha, new_depth, ply + 1, false);
        }
        s
    }

    /// Searches root move `c` (`c.n` 0: the first).
    fn root_move(
        &mut self,
        board: &Board,
        c: &Child,
        alpha: i32,
        beta: i32,
        depth: i32,
        shared: Option<&SplitPoint>,
    ) -> i32 {
        let (mv, n) = (c.mv, c.n);
        let quiet = !is_noisy(board, mv);
        self.enter(board, mv, 0);
        let gives_check = self.pos.board().in_check();
        let new_depth = depth - 1 + gives_check as i32;
        let score = if n == 0 {
            -self.negamax::<true>(-beta, -alpha, new_depth, 1, false)
        } else {
            let r = if depth >= 3 && quiet && n >= 3 && !gives_check {
                (self.lmr[depth.min(63) as usize][n.min(63)] - 1).clamp(0, new_depth - 1)
            } else {
                0
            };
            // The root is a PV node; its re-search at full depth expects a fail high.
            self.later_move::<true>(alpha, beta, new_depth, r, 0, false, shared)
        };
        self.pos.unmake();
        score
    }

    /// Opens the rest of a PV node to all threads (`state` holds the moves left and the
    /// result of the first), searches its share, waits for the others and returns the split
    /// point with the node's result. `self.stopped` is set if the search must unwind.
    fn split(&mut self, ply: usize, node: Node, beta: i32, state: State) -> Arc<SplitPoint> {
        let base = ply + OFF - 2;
        let frames = [self.stack[base], self.stack[base + 1], self.stack[base + 2]];
        let sp = Arc::new(SplitPoint::new(
            self.pos.reversible_tail(),
            frames,
            ply,
            node,
            beta,
            self.splits.last().cloned(),
            state,
        ));
        self.control.smp.splits().publish(sp.clone());
        self.splits.push(sp.clone());
        self.work(&sp);
        self.control.smp.splits().withdraw(&sp);
        // Wait for the helpers' last moves, helping at split points opened under this one.
        let mut idle = 0u32;
        let control = self.control.clone();
        let mut waiting = Idle::new(control.smp.splits());
        while !self.stopped && !sp.is_cut() && sp.lock().helpers > 0 {
            self.poll();
            if self.stopped {
                break;
            }
            waiting.set(true);
            if let Some(inner) = self.control.smp.splits().find(Some(&sp)) {
                waiting.set(false);
                self.join(&inner);
                if self.stopped && !self.control.stop.load(Ordering::Relaxed) && !sp.aborted() {
                    self.stopped = false;
                    self.split_abort = false;
                }
            } else {
                idle = pause(idle);
            }
        }
        drop(waiting);
        self.splits.pop();
        // A move of this node failed high elsewhere: that ends this node, not the search.
        if self.stopped
            && self.split_abort
            && sp.is_cut()
            && !sp.parent_aborted()
            && !self.control.stop.load(Ordering::Relaxed)
        {
            self.stopped = false;
            self.split_abort = false;
        }
        sp
    }

    /// Searches moves of `sp` (positioned at its node) until none is left, the node is cut
    /// off, or the search stops.
    fn work(&mut self, sp: &Arc<SplitPoint>) {
        let board = *self.pos.board();
        let ply = sp.ply;
        while let Some((c, alpha)) = sp.take(&self.history) {
            let score = if ply == 0 {
                if self.verbose && self.timer.elapsed() > Duration::from_secs(1) {
                    println!(
                        "info depth {} currmove {} currmovenumber {}",
                        sp.node.depth,
                        board.to_uci(c.mv),
                        c.idx + 1
                    );
                }
                self.root_move(&board, &c, alpha, sp.beta, sp.node.depth, Some(sp))
            } else if sp.node.pv {
                self.search_move::<true>(
                    &board,
                    &c,
                    alpha,
                    sp.beta,
                    sp.node.depth,
                    ply,
                    false,
                    sp.node.improving,
                    Some(sp),
                )
            } else {
                self.search_move::<false>(
                    &board,
                    &c,
                    alpha,
                    sp.beta,
                    sp.node.depth,
                    ply,
                    sp.node.cut_node,
                    sp.node.improving,
                    Some(sp),
                )
            };
            if self.stopped {
                return;
            }
            let line = &self.pv[ply + 1][ply + 1..self.pv_len[ply + 1].max(ply + 1)];
            let mut st = sp.lock();
            if ply == 0 && score > alpha {
                let bound = if score >= sp.beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                let mut pv = vec![c.mv];
                pv.extend_from_slice(line);
                st.root.push(RootResult {
                    idx: c.idx,
                    score,
                    bound,
                    seldepth: self.seldepth,
                    pv,
                });
            }
            if score > st.best_score {
                st.best_score = score;
                if score > st.alpha {
                    st.best_move = c.mv;
                    st.pv.clear();
                    st.pv.push(c.mv);
                    st.pv.extend_from_slice(line);
                    if score >= sp.beta {
                        sp.cut();
                        return;
                    }
                    st.alpha = score;
                    continue;
                }
            }
            // Moves that did not become best, for the node's history update.
            if c.quiet {
                st.quiets.push((c.mv, c.pt));
            } else {
                st.captures.push(c.mv);
            }
        }
    }

    /// Joins split point `sp` as a helper: takes its moves on a copy of its position, then
    /// puts this thread's own position and stack back.
    fn join(&mut self, sp: &Arc<SplitPoint>) {
        if !sp.enter() {
            return;
        }
        let pos = std::mem::replace(&mut self.pos, sp.pos.clone());
        let base = sp.ply + OFF - 2;
        let frames = [self.stack[base], self.stack[base + 1], self.stack[base + 2]];
        self.stack[base..base + 3].copy_from_slice(&sp.frames);
        self.splits.push(sp.clone());
        self.work(sp);
        self.splits.pop();
        sp.leave();
        self.pos = pos;
        self.stack[base..base + 3].copy_from_slice(&frames);
    }

    /// A helper's search: join split points until the search stops.
    fn help(&mut self) {
        let mut idle = 0u32;
        let control = self.control.clone();
        let mut waiting = Idle::new(control.smp.splits());
        while !self.control.stop.load(Ordering::Relaxed) {
            waiting.set(true);
            if let Some(sp) = self.control.smp.splits().find(None) {
                waiting.set(false);
                self.join(&sp);
                self.stopped = false;
                self.split_abort = false;
                idle = 0;
            } else {
                idle = pause(idle);
            }
        }
        self.publish_nodes();
    }

    fn is_draw(&self) -> bool {
        self.pos.is_repetition()
            || self.pos.board().is_insufficient_material()
            || self.pos.is_fifty_move_draw()
    }

    fn negamax<const PV: bool>(
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
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw() {
            return 0;
        }
        let board = *self.pos.board();
        if ply >= MAX_PLY - 1 {
            return if board.in_check() {
                0
            } else {
                self.eval.evaluate(&board)
            };
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = board.hash();
        let entry = if self.use_tt {
            self.tt.probe(key)
        } else {
            None
        };
        let mut tt_move = Move::NULL;
        let mut tt_score = -INF;
        if let Some(e) = &entry {
            tt_move = Move::from_u16(e.mv);
            tt_score = from_tt(e.score, ply, board.halfmove_clock());
            if !PV && board.halfmove_clock() < 90 && cuts(e, tt_score, depth, alpha, beta) {
                return tt_score;
            }
        }

        let in_check = board.in_check();
        let static_eval = if in_check {
            -INF
        } else {
            match &entry {
                Some(e) if e.eval != EVAL_NONE => e.eval as i32,
                _ => self.eval.evaluate(&board),
            }
        };
        // A TT score is a better estimate than the static eval when its bound points the right way.
        let eval = match &entry {
            Some(e) if !in_check && tt_score.abs() < MATE_BOUND => match e.bound {
                Bound::Lower if tt_score > static_eval => tt_score,
                Bound::Upper if tt_score < static_eval => tt_score,
                Bound::Exact => tt_score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        self.stack[ply + OFF].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply + OFF - 2].eval;
        let us = board.side_to_move();

        if !PV && !in_check {
            // Reverse futility pruning.
            if depth <= 8
                && eval.abs() < MATE_BOUND
                && eval - 80 * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Null-move pruning, not in pawn endings (zugzwang).
            if depth >= 3
                && eval >= beta
                && static_eval >= beta
                && !self.stack[ply + OFF - 1].mv.is_null()
                && non_pawn_material(&board, us) > 0
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.stack[ply + OFF].mv = Move::NULL;
                self.stack[ply + OFF].pt = PieceTo::NONE;
                self.pos.make_null();
                self.nodes += 1;
                let score = -self.negamax::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a TT move this node is likely mis-ordered.
        if self.use_tt && tt_move.is_null() && depth >= 4 && (PV || cut_node) {
            depth -= 1;
        }

        let prev = self.stack[ply + OFF - 1].pt;
        let prev2 = self.stack[ply + OFF - 2].pt;
        let counter = self.history.counter[prev.0 as usize];
        let mut picker =
            MovePicker::new(&board, tt_move, self.killers[ply], counter, [prev, prev2]);
        let mut best_score = -INF;
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        let mut searched = 0usize;
        let mut quiets: [(Move, PieceTo); 64] = [(Move::NULL, PieceTo::NONE); 64];
        let mut n_quiets = 0;
        let mut captures: [Move; 32] = [Move::NULL; 32];
        let mut n_captures = 0;
        let node = Node {
            depth,
            pv: PV,
            cut_node,
            improving,
            in_check,
            static_eval,
            has_material: non_pawn_material(&board, us) > 0,
            prev,
            prev2,
        };
        // Young brothers wait: after the first move of a PV node, the others go to all threads.
        let mut split = false;

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
                &board, &child, alpha, beta, depth, ply, cut_node, improving, None,
            );
            if self.stopped {
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
                }
            }
            if mv != best_move {
                if quiet && n_quiets < quiets.len() {
                    quiets[n_quiets] = (mv, pt);
                    n_quiets += 1;
                } else if !quiet && n_captures < captures.len() {
                    captures[n_captures] = mv;
                    n_captures += 1;
                }
            }
            // PV nodes split after their first move; others (young brothers wait) when a
            // thread is idle.
            if self.ybw && depth >= SPLIT_DEPTH && (PV || self.control.smp.splits().idle() > 0) {
                split = true;
                break;
            }
        }
        if split {
            let pv = self.pv[ply][ply..self.pv_len[ply]].to_vec();
            let mut state = State::new(Vec::new(), alpha, best_score, best_move, pv);
            state.picker = Some(Box::new(picker));
            state.searched = searched;
            let sp = self.split(ply, node, beta, state);
            if self.stopped {
                return 0;
            }
            let st = sp.lock();
            best_score = st.best_score;
            best_move = st.best_move;
            if !best_move.is_null() {
                self.pv[ply][ply..ply + st.pv.len()].copy_from_slice(&st.pv);
                self.pv_len[ply] = ply + st.pv.len();
            }
            for &q in st.quiets.iter().filter(|q| q.0 != best_move) {
                if n_quiets < quiets.len() {
                    quiets[n_quiets] = q;
                    n_quiets += 1;
                }
            }
            for &c in st.captures.iter().filter(|&&c| c != best_move) {
                if n_captures < captures.len() {
                    captures[n_captures] = c;
                    n_captures += 1;
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

        if best_score >= beta {
            self.update_histories(
                &board,
                ply,
                depth,
                best_move,
                &quiets[..n_quiets],
                &captures[..n_captures],
                prev,
                prev2,
            );
        }

        let eval = if in_check {
            EVAL_NONE
        } else {
            static_eval as i16
        };
        self.store::<PV>(
            key,
            ply,
            depth,
            best_score,
            original_alpha,
            beta,
            best_move,
            eval,
        );
        best_score
    }

    /// Stores a node's result: a lower bound on a fail high, exact when a PV node raised alpha,
    /// otherwise an upper bound (see `tt.rs` for the rules).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store<const PV: bool>(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        best: i32,
        alpha: i32,
        beta: i32,
        mv: Move,
        eval: i16,
    ) {
        if !self.use_tt {
            return;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let record = Record {
            mv: mv.to_u16(),
            score: to_tt(best, ply),
            eval,
            depth,
            bound,
            pv: PV,
        };
        self.tt.store(key, record);
    }

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
            for &(mv, pt) in quiets {
                history::update(
                    &mut self.history.butterfly[us.index()][mv.from().index()][mv.to().index()],
                    -b,
                );
                history::update(self.history.cont_mut(prev, pt), -b);
                history::update(self.history.cont_mut(prev2, pt), -b);
            }
        } else {
            history::update(self.history.capture_mut(board, best), b);
        }
        for &mv in captures {
            history::update(self.history.capture_mut(board, mv), -b);
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn qsearch<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw() {
            return 0;
        }
        let board = *self.pos.board();
        let in_check = board.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.eval.evaluate(&board)
            };
        }

        let key = board.hash();
        let entry = if self.use_tt {
            self.tt.probe(key)
        } else {
            None
        };
        let mut tt_move = Move::NULL;
        if let Some(e) = &entry {
            tt_move = Move::from_u16(e.mv);
            let s = from_tt(e.score, ply, board.halfmove_clock());
            if !PV && board.halfmove_clock() < 90 && cuts(e, s, 0, alpha, beta) {
                return s;
            }
        }

        let mut best = -INF;
        let mut static_eval = -INF;
        if !in_check {
            static_eval = match &entry {
                Some(e) if e.eval != EVAL_NONE => e.eval as i32,
                _ => self.eval.evaluate(&board),
            };
            best = static_eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        let original_alpha = alpha;
        let mut best_move = Move::NULL;
        let mut picker = MovePicker::qsearch(&board, tt_move);
        let mut searched = 0;
        while let Some(mv) = picker.next(&board, &self.history) {
            if !in_check {
                // Delta pruning: even winning this material does not reach alpha.
                if !mv.is_promotion() && static_eval + capture_value(&board, mv) + 200 <= alpha {
                    continue;
                }
                if !see_ge(&board, mv, 0) {
                    continue;
                }
            }
            self.enter(&board, mv, ply);
            searched += 1;
            let score = -self.qsearch::<PV>(-beta, -alpha, ply + 1);
            self.pos.unmake();
            if self.stopped {
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
        let eval = if in_check {
            EVAL_NONE
        } else {
            static_eval as i16
        };
        self.store::<PV>(key, ply, 0, best, original_alpha, beta, best_move, eval);
        best
    }
}

/// What a node's move loop needs to choose and prune its moves.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    depth: i32,
    /// A PV node (else a zero-window one).
    pv: bool,
    /// A zero-window node expected to fail high.
    cut_node: bool,
    improving: bool,
    in_check: bool,
    static_eval: i32,
    /// The side to move has pieces besides pawns.
    has_material: bool,
    /// Continuation-history keys of the moves one and two plies back.
    prev: PieceTo,
    prev2: PieceTo,
}

/// The next move of a node worth searching: moves come from `picker`, late-move, futility
/// and SEE pruning drop some; `searched` counts the moves handed out.
fn next_child(
    picker: &mut MovePicker,
    board: &Board,
    history: &History,
    node: &Node,
    searched: &mut usize,
    best_score: i32,
    alpha: i32,
) -> Option<Child> {
    let Node {
        depth,
        improving,
        in_check,
        static_eval,
        has_material,
        prev,
        prev2,
        ..
    } = *node;
    let us = board.side_to_move();
    while let Some(mv) = picker.next(board, history) {
        let quiet = !is_noisy(board, mv);
        let pt = board
            .piece_on(mv.from())
            .map_or(PieceTo::NONE, |p| PieceTo::new(p, mv.to()));
        let hist = if quiet {
            history.quiet(us, mv) + history.cont(prev, pt) + history.cont(prev2, pt)
        } else {
            0
        };
        if best_score > -MATE_BOUND && has_material {
            if quiet {
                // Late-move pruning.
                let lmp = (3 + depth * depth) / (2 - improving as i32);
                if *searched as i32 >= lmp {
                    picker.skip_quiets = true;
                    continue;
                }
                // Futility pruning.
                if !in_check && depth <= 8 && static_eval + 100 + 100 * depth <= alpha {
                    picker.skip_quiets = true;
                    continue;
                }
            }
            // SEE pruning.
            let threshold = if quiet { -60 * depth } else { -100 * depth };
            if depth <= 8 && !see_ge(board, mv, threshold) {
                continue;
            }
        }
        *searched += 1;
        return Some(Child {
            mv,
            n: *searched,
            quiet,
            hist,
            pt,
            idx: 0,
        });
    }
    None
}

/// Waits a moment for work: spins first, then yields the core (more threads than cores).
fn pause(idle: u32) -> u32 {
    if idle < 256 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
    idle.saturating_add(1)
}

/// Nodes with less depth left than this are not split between threads (measured on
/// `bench 16 --threads 2`: 2 beat 1, 3, 4, 5 and 7).
const SPLIT_DEPTH: i32 = 2;

/// A score as UCI text: `cp N` or `mate N` (negative when being mated).
pub fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}
