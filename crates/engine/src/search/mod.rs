//! The search: iterative deepening with aspiration windows over an explicit root move list,
//! principal-variation search (negamax, fail-soft) with the transposition table at every node,
//! and quiescence search; the static evaluation is corrected by pawn structure. Pruning:
//! reverse futility, null move, futility, late-move pruning and reductions (a reduced move
//! that fails high by a margin is verified a ply deeper), SEE pruning, internal iterative
//! reduction; check and singular extensions (double ones, a bounded number on a path).
//!
//! One [`Searcher`] per thread; its code is split by concern:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the types: limits, results, the searcher's state, why a search unwinds |
//! | `iterate.rs` | iterative deepening, aspiration windows, time and node limits |
//! | `report.rs` | what an iteration reports: the UCI `info` line, or a callback |
//! | `root.rs` | the root's move loop (its own reductions, Lazy SMP's deferral) |
//! | `node.rs` | negamax: pruning, the move loop, the later-move ladder, history updates |
//! | `move_loop.rs` | the move loop's choice of moves: late-move, futility and SEE pruning |
//! | `qsearch.rs` | quiescence search |
//! | `tt.rs` | how the search uses the table: probe to cutoff, store, mate scores |
//! | `tablebases.rs` | Syzygy WDL probes inside the tree (the root is ranked by the pool) |
//! | `enhanced_cutoffs.rs` | enhanced transposition cutoffs: the children's entries before the moves |
//! | `correction.rs` | the static evaluation's correction by pawn structure (or, the experiment `corr_mode` 1, residual tables) |
//! | `smp.rs` | Lazy SMP's bookkeeping (threads spread over depths) |
//! | `skill.rs` | the strength limit: a capped MultiPV search and a randomized pick |
//! | `params.rs` | every tunable constant, named |
//! | `picker.rs`, `history.rs`, `see.rs` | move ordering, its statistics, static exchange |

mod correction;
mod enhanced_cutoffs;
pub mod history;
mod iterate;
#[cfg(feature = "lab")]
pub mod lab;
mod move_loop;
mod node;
pub mod params;
pub mod picker;
mod qsearch;
pub mod report;
mod root;
pub mod see;
pub mod skill;
pub mod smp;
mod tablebases;
pub mod tt;

use crate::cluster::exchange::{Exchange, Outbox};
use crate::config::EngineConfig;
use crate::eval::Evaluator;
use crate::time::{Clock, Timer};
use correction::Correction;
use engram_chess::{Board, Move, Position};
use engram_tt::{Bound, Table};
use history::{History, PieceTo};
use smp::Smp;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;
pub use tt::{is_decisive, INF, MATE, MATE_BOUND, MAX_PLY, TB_BOUND, TB_WIN};

/// Flags shared between the UCI thread and the search.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop the search as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering: no time limit applies until `ponderhit` clears it.
    pub pondering: AtomicBool,
    /// When `ponderhit` arrived (set by the UCI thread before it clears `pondering`): the
    /// search's clock starts then, not when the search next looks at it.
    pub ponderhit: Mutex<Option<Instant>>,
    /// True from `go` until the search has decided its move (set by the UCI thread, cleared
    /// by the search thread just before it prints `bestmove`).
    pub searching: AtomicBool,
    /// What the threads of one search share besides the table: Lazy SMP's iterations
    /// (reset by the pool per search).
    pub smp: Smp,
    /// Where the threads copy their deep table entries for the other ranks of a cluster
    /// (set once, by the cluster; unset, nothing is copied).
    pub exchange: OnceLock<Arc<Exchange>>,
}

/// What one search thread publishes every 1024 nodes for the others and for `info`: its
/// node count and selective depth in this search. Each slot has a cache line pair of its own
/// (128 bytes: x86's adjacent-line prefetcher fetches lines in pairs), so that a thread's
/// writes never evict another thread's slot from that thread's cache.
#[derive(Debug, Default)]
#[repr(align(128))]
pub struct ThreadSlot {
    nodes: AtomicU64,
    seldepth: AtomicU64,
    tbhits: AtomicU64,
}

impl ThreadSlot {
    /// The last published node count.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The last published count of tablebase hits.
    pub fn tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
    }

    /// The last published selective depth.
    pub fn seldepth(&self) -> usize {
        self.seldepth.load(Ordering::Relaxed) as usize
    }
}

/// The slots of all search threads of a pool, index = thread id.
pub type NodeCounters = Arc<[ThreadSlot]>;

/// `n` slots at zero.
pub fn thread_slots(n: usize) -> NodeCounters {
    (0..n).map(|_| ThreadSlot::default()).collect()
}

/// What to search for: the parameters of one `go`, and where to report. Everything else the
/// search reads (`MultiPV`, `Move Overhead`, `ETC`, the network, ...) is the engine's
/// configuration ([`EngineConfig`]), which every thread of a search shares.
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
    /// Where the search sends its [`report::Event`]s; `None`: a silent search.
    pub reporter: Option<report::Reporter>,
    /// How the search uses the tablebases (set by the pool from the root's probe).
    pub tb: TbUse,
    /// Other searches to vote with, fetched by the pool's main thread once its own threads
    /// have voted (a cluster's other ranks).
    pub gather: Option<Gather>,
}

/// The results of other searches of the same position to vote with: called with this
/// search's own result, it returns theirs (a cluster's follower sends its result to the
/// leader and returns none).
#[derive(Clone)]
pub struct Gather(pub Arc<GatherFn>);

/// What a [`Gather`] calls.
pub type GatherFn = dyn Fn(&SearchResult) -> Vec<SearchResult> + Send + Sync;

impl std::fmt::Debug for Gather {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Gather")
    }
}

/// How a search uses the Syzygy tablebases, decided once at the root by the pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TbUse {
    /// Probe WDL at nodes with at most this many pieces (0: never).
    pub cardinality: u32,
    /// At exactly `cardinality` pieces, probe only from this depth on (`SyzygyProbeDepth`).
    pub probe_depth: i32,
    /// Cursed wins and blessed losses are draws (`Syzygy50MoveRule`).
    pub rule50: bool,
    /// The root's score from the tables, shown instead of the search's unless that is a mate.
    pub root_score: Option<i32>,
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

impl SearchResult {
    /// A result with no move (no legal move, or a helper's): `score`, `nodes`, nothing else.
    pub fn no_move(score: i32, nodes: u64) -> SearchResult {
        SearchResult {
            best: Move::NULL,
            ponder: None,
            score,
            depth: 0,
            nodes,
            pv: Vec::new(),
            seldepth: 0,
        }
    }
}

/// Why a search is unwinding: set by the checks at the top of each node, read after every
/// child's search (which then returns at once, with a meaningless score).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unwind {
    /// The whole search ends: `stop`, the hard time limit or the node limit.
    Stop,
}

/// How the threads of a search share the work, decided once per search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SmpMode {
    /// This thread searches the whole tree on its own schedule (one thread, or several
    /// principal variations).
    Single,
    /// Lazy SMP (`smp.rs`): every thread searches every iteration; they put off each
    /// other's root moves.
    Lazy,
}

/// One root move, with its result in the current and the last iteration.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Bound,
    seldepth: usize,
    pv: Vec<Move>,
    /// Nodes this thread has spent below this move in this search (time management's
    /// node share).
    nodes: u64,
}

/// What the search keeps per ply.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Static evaluation (`-INF` in check).
    eval: i32,
    /// Continuation-history key of the move made at this ply.
    pt: PieceTo,
    /// The move made at this ply (null for a null move).
    mv: Move,
    /// The move a singular search at this ply leaves out (null: none, a normal search).
    excluded: Move,
    /// Double extensions on the path from the root to this ply.
    double_exts: i32,
    /// The late-move reduction of the move being searched from this ply (0 when none).
    reduction: i32,
    /// The node at this ply is or was on a principal variation (a PV node, or its table
    /// entry says so; the experiment `ttpv_lmr` only).
    tt_pv: bool,
}

/// Stack frames before ply 0, so `ply - 2` is always valid.
const OFF: usize = 2;

/// One search thread's state; reused across searches (history survives until `ucinewgame`).
pub struct Searcher {
    /// The shared transposition table.
    pub tt: Arc<Table>,
    /// The engine's configuration for this search (shared by all threads).
    config: Arc<EngineConfig>,
    /// Whether to use the table (`EngineConfig::use_tt`, off only for measurements).
    use_tt: bool,
    /// Whether to prefetch children's table entries (`EngineConfig::prefetching`).
    prefetch: bool,
    /// How the table was used (feature `lab`): counts by remaining depth and phase.
    #[cfg(feature = "lab")]
    pub tt_use: lab::TtUse,
    /// This thread's index in the pool (0 = main thread; helpers diversify by it).
    pub id: usize,
    /// Where this thread publishes its node count (index `id`), and reads the others'.
    pub counters: NodeCounters,
    /// Evaluation and its pawn hash.
    pub eval: Evaluator,
    /// Move-ordering statistics.
    pub history: History,
    /// Static-evaluation correction by pawn structure.
    correction: Correction,
    killers: Vec<[Move; 2]>,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    /// Tablebase probes that found the position, in this search.
    tbhits: u64,
    seldepth: usize,
    pos: Position,
    control: Arc<Control>,
    timer: Timer,
    limits: SearchLimits,
    /// Set when the search must unwind, and why.
    unwind: Option<Unwind>,
    /// How the threads share this search.
    mode: SmpMode,
    /// Principal variations this thread searches (`MultiPV` for the main thread, else 1;
    /// at least `Skill::lines` under a strength limit).
    multipv: usize,
    /// The strength limit, if the main thread plays weaker (`UCI_LimitStrength`).
    skill: Option<skill::Skill>,
    /// The iteration in progress.
    iter_depth: i32,
    /// Times a root move other than the first became the best in the iteration in progress
    /// (for the time management's instability, the experiment `tm_changes`).
    root_changes: u32,
    was_pondering: bool,
    root_moves: Vec<RootMove>,
    /// Late-move reductions by depth and move number (`params::lmr_table`).
    lmr: Vec<[i32; 64]>,
    /// Deep entries copied for a cluster's other ranks (`Control::exchange`).
    outbox: RefCell<Outbox>,
}

impl Searcher {
    /// A searcher on `tt`, controlled through `control`.
    pub fn new(tt: Arc<Table>, control: Arc<Control>) -> Searcher {
        Searcher {
            tt,
            config: Arc::new(EngineConfig::default()),
            use_tt: true,
            prefetch: true,
            #[cfg(feature = "lab")]
            tt_use: lab::TtUse::default(),
            id: 0,
            counters: thread_slots(1),
            eval: Evaluator::default(),
            history: History::default(),
            correction: Correction::default(),
            killers: vec![[Move::NULL; 2]; MAX_PLY + 2],
            stack: vec![Frame::default(); MAX_PLY + OFF + 2],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            tbhits: 0,
            seldepth: 0,
            pos: Position::new(Board::startpos()),
            control,
            timer: Timer::new(None),
            limits: SearchLimits::default(),
            unwind: None,
            mode: SmpMode::Single,
            multipv: 1,
            skill: None,
            iter_depth: 0,
            root_changes: 0,
            was_pondering: false,
            root_moves: Vec::new(),
            lmr: params::lmr_table(),
            outbox: RefCell::new(Outbox::default()),
        }
    }

    /// Forgets all learned statistics (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
        self.eval.clear();
        self.killers.fill([Move::NULL; 2]);
    }

    /// The control flags this searcher obeys.
    pub fn control(&self) -> Arc<Control> {
        self.control.clone()
    }

    /// Whether the search is unwinding.
    #[inline]
    fn stopped(&self) -> bool {
        self.unwind.is_some()
    }

    /// Whether a node that qualifies for internal iterative reduction gets it: always,
    /// except in the laboratory, which can turn it off (and counts it).
    #[inline(always)]
    fn iir(&mut self) -> bool {
        #[cfg(feature = "lab")]
        return self.tt_use.reduce();
        #[cfg(not(feature = "lab"))]
        true
    }

    /// Nodes searched by all threads of the pool, as last published.
    fn total_nodes(&self) -> u64 {
        self.counters
            .iter()
            .enumerate()
            .map(|(i, c)| if i == self.id { self.nodes } else { c.nodes() })
            .sum()
    }

    /// Tablebase hits of all threads of the pool, as last published.
    fn total_tbhits(&self) -> u64 {
        self.counters
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == self.id {
                    self.tbhits
                } else {
                    c.tbhits()
                }
            })
            .sum()
    }

    /// The deepest selective depth of all threads of the pool, as last published, and
    /// `own`.
    fn max_seldepth(&self, own: usize) -> usize {
        self.counters
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.id)
            .map(|(_, c)| c.seldepth())
            .fold(own, usize::max)
    }

    fn publish_nodes(&self) {
        if let Some(c) = self.counters.get(self.id) {
            c.nodes.store(self.nodes, Ordering::Relaxed);
            c.tbhits.store(self.tbhits, Ordering::Relaxed);
            c.seldepth
                .fetch_max(self.seldepth as u64, Ordering::Relaxed);
        }
    }

    /// Starts this thread's slot afresh for a new search.
    fn reset_slot(&self) {
        if let Some(c) = self.counters.get(self.id) {
            c.nodes.store(0, Ordering::Relaxed);
            c.tbhits.store(0, Ordering::Relaxed);
            c.seldepth.store(0, Ordering::Relaxed);
        }
    }
}

/// A fail high's `score` (≥ `beta`) drawn toward `beta`: `(score · weight + beta) /
/// (weight + 1)`, still ≥ `beta` (Rust's division truncates toward zero, which only rounds
/// a negative result up). A fail high far above beta says the node is good, not by how much;
/// the lower `weight`, the less of the excess is kept. Mate scores, or a mate-range `beta`,
/// are left alone.
pub(crate) fn toward_beta(score: i32, beta: i32, weight: i32) -> i32 {
    if !is_decisive(score) && !is_decisive(beta) {
        (score * weight + beta) / (weight + 1)
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fail_highs_drawn_toward_beta_stay_at_or_above_it() {
        assert_eq!(toward_beta(100, 20, 1), 60);
        assert_eq!(toward_beta(100, 20, 3), 80);
        for (score, beta) in [(-5, -10), (-1, -2), (7, 7), (-300, -301)] {
            for w in 1..8 {
                let t = toward_beta(score, beta, w);
                assert!(t >= beta && t <= score, "{score} {beta} {w}: {t}");
            }
        }
        assert_eq!(toward_beta(MATE - 3, 0, 1), MATE - 3, "mate scores kept");
        assert_eq!(
            toward_beta(0, -MATE + 5, 1),
            0,
            "no mix with a mate-range beta"
        );
    }
}
