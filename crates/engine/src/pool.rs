//! The search thread pool: `Threads` persistent threads, each with its own [`Searcher`]
//! (history, killers, pawn hash), all sharing one transposition table. Thread 0 is the main
//! thread: it runs the clock, prints `info`, and when it is done stops the helpers, takes the
//! result the threads vote for and reports `bestmove`. The threads search the same position,
//! each on its own iteration schedule (Lazy SMP, `search/smp.rs`), and talk to each other
//! only through the table and the few counters of `search/smp.rs`.

use crate::config::EngineConfig;
use crate::search::report::{Event, Info};
use crate::search::tt::tb_rank_score;
use crate::search::TbUse;
use crate::search::{
    is_decisive, thread_slots, Control, NodeCounters, SearchLimits, SearchResult, Searcher,
    TB_BOUND,
};
use crate::tablebase;
use engram_chess::{Move, Position};
use engram_tt::Table;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// What a worker is asked to do.
enum Msg {
    /// Search as the main thread: report the chosen result on `result` (after the
    /// `BestMove` event, when the limits have a reporter).
    Main {
        pos: Position,
        limits: SearchLimits,
        config: Arc<EngineConfig>,
        helpers: Receiver<SearchResult>,
        n_helpers: usize,
        result: Sender<SearchResult>,
    },
    /// Search as a helper until stopped; send the result on `done`. With `may_finish`, a
    /// helper that completes the depth limit ends the search for all.
    Helper {
        may_finish: bool,
        pos: Position,
        limits: SearchLimits,
        config: Arc<EngineConfig>,
        done: Sender<SearchResult>,
    },
    /// Forget history (new game); acknowledge.
    Clear(Sender<()>),
    /// Use another table (after `Hash` changed); acknowledge.
    SetTable(Arc<Table>, Sender<()>),
    /// Publish node counts here (the pool's thread count changed); acknowledge.
    Counters(NodeCounters, Sender<()>),
    /// Send the laboratory's counters of table use.
    #[cfg(feature = "lab")]
    TtUse(Sender<crate::search::lab::TtUse>),
}

struct Worker {
    tx: Sender<Msg>,
    handle: JoinHandle<()>,
}

/// A pool of search threads sharing one table.
pub struct Pool {
    workers: Vec<Worker>,
    control: Arc<Control>,
    tt: Arc<Table>,
    counters: NodeCounters,
    results: Option<Receiver<SearchResult>>,
    /// Per-thread tables, when [`Pool::set_private_tables`] is in effect.
    private: Vec<Arc<Table>>,
}

/// Chooses the result to play among the main thread's and the helpers' by a vote, as
/// Stockfish does: each thread that completed an iteration votes for its best move with the
/// weight `(score − worst score + VOTE_BASE) × depth`, so a move that deeper threads agree on
/// wins over a lone deep thread's, and a thread that saw more (deeper) counts more. The thread
/// to play is the first whose move has the most votes; a proven mate overrides the vote (the
/// shortest mate found, or when being mated, the longest defence). Returns the chosen result
/// and whether it is a helper's. A thread with no completed iteration never wins.
///
/// With `deepest_only` (a search to a fixed depth) only the threads that completed the
/// deepest iteration vote, so that `go depth N` plays a move searched to depth N.
pub fn pick_best(
    main: SearchResult,
    helpers: Vec<SearchResult>,
    deepest_only: bool,
) -> (SearchResult, bool) {
    let mut voters: Vec<&SearchResult> = std::iter::once(&main)
        .chain(&helpers)
        .filter(|r| !r.best.is_null() && r.depth > 0)
        .collect();
    if deepest_only {
        let deepest = voters.iter().map(|r| r.depth).max().unwrap_or(0);
        voters.retain(|r| r.depth == deepest);
    }
    let Some(worst) = voters.iter().map(|r| r.score).min() else {
        return (main, false);
    };
    let mut votes: Vec<(Move, i64)> = Vec::new();
    for r in &voters {
        let weight = i64::from(r.score - worst + VOTE_BASE) * i64::from(r.depth);
        match votes.iter_mut().find(|(m, _)| *m == r.best) {
            Some((_, v)) => *v += weight,
            None => votes.push((r.best, weight)),
        }
    }
    let votes_for = |m: Move| votes.iter().find(|(v, _)| *v == m).map_or(0, |&(_, n)| n);
    let mut best = voters[0];
    for &r in &voters[1..] {
        let better = if is_decisive(best.score) {
            // A proven result: the shortest mate, or the longest way to be mated.
            r.score > best.score
        } else {
            r.score >= TB_BOUND || (r.score > -TB_BOUND && votes_for(r.best) > votes_for(best.best))
        };
        if better {
            best = r;
        }
    }
    let from_helper = !std::ptr::eq(best, &main);
    let chosen = SearchResult {
        nodes: main.nodes,
        ..best.clone()
    };
    (chosen, from_helper)
}

/// Decides how the search of `pos` uses the tablebases (`limits.tb`): probes inside the tree
/// up to `SyzygyProbeLimit` pieces; and when the root itself is in the tables, its moves
/// ranked by DTZ (`tablebase::rank_root`) and the search restricted to the best-ranked
/// (among `searchmoves`, if they keep any), the tables' score shown, and no probes below
/// (they could only tell what the ranking said), unless the ranking had only WDL to go by
/// and the root is won.
fn use_tablebases(pos: &Position, limits: &mut SearchLimits, config: &EngineConfig) {
    let rule50 = config.syzygy_50_move_rule;
    let cardinality = tablebase::max_pieces().min(config.syzygy_probe_limit);
    limits.tb = TbUse {
        cardinality,
        probe_depth: config.syzygy_probe_depth,
        rule50,
        root_score: None,
    };
    if cardinality == 0 || pos.board().occupied().len() > cardinality {
        return;
    }
    let Some(ranking) = tablebase::rank_root(pos, rule50) else {
        return;
    };
    let kept: Vec<Move> = ranking
        .moves
        .into_iter()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .collect();
    if kept.is_empty() {
        return;
    }
    let score = tb_rank_score(ranking.rank, rule50);
    limits.searchmoves = kept;
    limits.tb.root_score = Some(score);
    if ranking.by_dtz || score <= 0 {
        limits.tb.cardinality = 0;
    }
}

/// The vote's base weight in centipawns: a thread whose score is the worst still votes with
/// `VOTE_BASE × depth` (Stockfish's 14 in its internal units, about 7 cp).
const VOTE_BASE: i32 = 7;

/// The move to play when a search has none: the first legal move, among `searchmoves` if
/// given (`Move::NULL` when there is no legal move).
fn fallback_move(pos: &Position, searchmoves: &[Move]) -> Move {
    let legal = pos.board().legal_moves();
    legal
        .iter()
        .find(|m| searchmoves.contains(m))
        .or(legal.first())
        .copied()
        .unwrap_or(Move::NULL)
}

/// Runs a search; should it panic (a bug), reports it, replaces the searcher by a fresh one
/// and returns a fallback move (`fallback_move`), so that the GUI still gets a legal
/// `bestmove` and the engine keeps running.
fn guarded_search(
    searcher: &mut Box<Searcher>,
    pos: &Position,
    limits: SearchLimits,
    config: &Arc<EngineConfig>,
) -> SearchResult {
    let searchmoves = limits.searchmoves.clone();
    let reporter = limits.reporter.clone();
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        searcher.search(pos, limits, config)
    }));
    run.unwrap_or_else(|_| {
        if let Some(r) = &reporter {
            r.report(&Event::Error(format!(
                "search thread {} failed; playing a fallback move",
                searcher.id
            )));
        }
        let mut fresh = Box::new(Searcher::new(searcher.tt.clone(), searcher.control()));
        fresh.id = searcher.id;
        fresh.counters = searcher.counters.clone();
        *searcher = fresh;
        let best = fallback_move(pos, &searchmoves);
        SearchResult {
            best,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![best],
            seldepth: 0,
        }
    })
}

fn worker_loop(mut searcher: Box<Searcher>, rx: Receiver<Msg>, control: Arc<Control>) {
    while let Ok(msg) = rx.recv() {
        match msg {
            Msg::Main {
                pos,
                limits,
                config,
                helpers,
                n_helpers,
                result,
            } => {
                let started = Instant::now();
                let searchmoves = limits.searchmoves.clone();
                let reporter = limits.reporter.clone();
                let fixed_depth = limits.depth.is_some();
                let gather = limits.gather.clone();
                let mut main = guarded_search(&mut searcher, &pos, limits, &config);
                if main.best.is_null() {
                    // Keep a legal move even if the search had no time to find one.
                    main.best = fallback_move(&pos, &searchmoves);
                }
                // The main thread decides when the search ends; the helpers follow.
                control.stop.store(true, Ordering::Relaxed);
                let results: Vec<SearchResult> =
                    (0..n_helpers).filter_map(|_| helpers.recv().ok()).collect();
                let mut total = main.nodes + results.iter().map(|r| r.nodes).sum::<u64>();
                // A strength limit's move is the main thread's pick: no vote.
                let (mut best, mut from_helper) = if config.skill().is_some() {
                    (main, false)
                } else {
                    pick_best(main, results, fixed_depth)
                };
                best.nodes = total;
                // A cluster's other ranks: their results join the vote.
                if let Some(gather) = gather {
                    let others = (gather.0)(&best);
                    total += others.iter().map(|r| r.nodes).sum::<u64>();
                    if !others.is_empty() && config.skill().is_none() {
                        let (chosen, from_other) = pick_best(best, others, fixed_depth);
                        best = chosen;
                        from_helper |= from_other;
                    }
                    best.nodes = total;
                }
                if let Some(r) = &reporter {
                    if from_helper {
                        // The move comes from a helper: show its line, so the last `info`
                        // matches the `bestmove`.
                        r.report(&Event::Info(Info {
                            depth: best.depth,
                            seldepth: best.seldepth,
                            multipv: 1,
                            score: best.score,
                            bound: engram_tt::Bound::Exact,
                            nodes: total,
                            tbhits: searcher.counters.iter().map(|c| c.tbhits()).sum(),
                            time_ms: started.elapsed().as_millis().max(1) as u64,
                            hashfull: config.use_tt.then(|| searcher.tt.hashfull()),
                            pv: best.pv.clone(),
                        }));
                    }
                    control.searching.store(false, Ordering::Release);
                    r.report(&Event::BestMove {
                        best: best.best,
                        ponder: best.ponder,
                    });
                }
                let _ = result.send(best);
            }
            Msg::Helper {
                may_finish,
                pos,
                limits,
                config,
                done,
            } => {
                let depth_limit = limits.depth;
                let r = guarded_search(&mut searcher, &pos, limits, &config);
                // A helper that completed the depth limit ends the search for everyone: with
                // the table's help it often gets there before the main thread.
                if may_finish && depth_limit.is_some_and(|d| r.depth >= d) {
                    control.stop.store(true, Ordering::Relaxed);
                }
                let _ = done.send(r);
            }
            Msg::Clear(ack) => {
                searcher.clear();
                let _ = ack.send(());
            }
            Msg::SetTable(tt, ack) => {
                searcher.tt = tt;
                let _ = ack.send(());
            }
            Msg::Counters(counters, ack) => {
                searcher.counters = counters;
                let _ = ack.send(());
            }
            #[cfg(feature = "lab")]
            Msg::TtUse(reply) => {
                let _ = reply.send(searcher.tt_use.clone());
            }
        }
    }
}

impl Pool {
    /// A pool of one search thread on `tt` ([`Pool::set_threads`] for more).
    pub fn new(tt: Arc<Table>, control: Arc<Control>) -> Pool {
        let mut pool = Pool {
            workers: Vec::new(),
            control,
            tt,
            counters: Arc::from(Vec::new()),
            results: None,
            private: Vec::new(),
        };
        // One thread always starts (`set_threads` panics only if none can).
        let _ = pool.set_threads(1);
        pool
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// The shared table.
    pub fn table(&self) -> &Arc<Table> {
        &self.tt
    }

    /// Replaces the threads by `n` fresh ones (history is lost). Only while idle. If the
    /// system refuses a thread, the pool keeps the ones it could start (at least one) and
    /// says how many in the error.
    pub fn set_threads(&mut self, n: usize) -> Result<(), String> {
        self.shutdown();
        self.private.clear();
        let n = n.max(1);
        let counters: NodeCounters = thread_slots(n);
        let mut failure = None;
        for id in 0..n {
            match self.spawn(id, &counters) {
                Ok(w) => self.workers.push(w),
                Err(e) if id == 0 => {
                    // Without a single thread there is no engine; the old ones are gone, so
                    // this is the system refusing any thread at all.
                    panic!("the system cannot start a search thread: {e}")
                }
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        self.counters = counters;
        let Some(e) = failure else {
            return Ok(());
        };
        // Fewer threads than asked: the threads count each other by their counters.
        let counters: NodeCounters = thread_slots(self.workers.len());
        self.counters = counters.clone();
        self.broadcast(|ack| Msg::Counters(counters.clone(), ack));
        Err(format!(
            "could not start search thread {} of {n} ({e}); searching with {}",
            self.workers.len() + 1,
            self.workers.len()
        ))
    }

    /// Starts search thread `id`, publishing its node count in `counters`.
    fn spawn(&self, id: usize, counters: &NodeCounters) -> std::io::Result<Worker> {
        #[cfg(test)]
        if id != 0 && id >= tests::FAIL_SPAWN_FROM.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("injected: no more threads"));
        }
        let (tx, rx) = channel();
        let (tt, control, counters) = (self.tt.clone(), self.control.clone(), counters.clone());
        let handle = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(64 << 20)
            .spawn(move || {
                // The thread's own data (histories, accumulators, stacks) is allocated by the
                // thread itself, so that the memory is first touched by it (local to its node
                // on a NUMA machine).
                let mut searcher = Box::new(Searcher::new(tt, control.clone()));
                searcher.id = id;
                searcher.counters = counters;
                worker_loop(searcher, rx, control)
            })?;
        Ok(Worker { tx, handle })
    }

    fn broadcast(&self, make: impl Fn(Sender<()>) -> Msg) {
        let (ack_tx, ack_rx) = channel();
        for w in &self.workers {
            let _ = w.tx.send(make(ack_tx.clone()));
        }
        for _ in &self.workers {
            let _ = ack_rx.recv();
        }
    }

    /// Switches every thread to `tt` and drops the pool's hold on the old table. Only while idle.
    pub fn set_table(&mut self, tt: Arc<Table>) {
        self.private.clear();
        self.tt = tt.clone();
        self.broadcast(|ack| Msg::SetTable(tt.clone(), ack));
    }

    /// Gives every thread a private table of `mib` MiB instead of the shared one (the lab's
    /// "shared versus per-thread tables" measurement). Only while idle.
    pub fn set_private_tables(&mut self, mib: usize) -> Result<(), engram_tt::TableError> {
        let tables = (0..self.workers.len())
            .map(|_| Table::new(mib).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()?;
        let (ack_tx, ack_rx) = channel();
        for (w, t) in self.workers.iter().zip(&tables) {
            let _ = w.tx.send(Msg::SetTable(t.clone(), ack_tx.clone()));
        }
        for _ in &self.workers {
            let _ = ack_rx.recv();
        }
        self.private = tables;
        Ok(())
    }

    /// How the threads used the table since they started, summed (the TT lab's counters).
    /// Only while idle.
    #[cfg(feature = "lab")]
    pub fn tt_use(&self) -> crate::search::lab::TtUse {
        let (tx, rx) = channel();
        for w in &self.workers {
            let _ = w.tx.send(Msg::TtUse(tx.clone()));
        }
        let mut sum = crate::search::lab::TtUse::default();
        for _ in &self.workers {
            if let Ok(t) = rx.recv() {
                sum.add(&t);
            }
        }
        sum
    }

    /// Nodes searched by all threads in the current (or last) search, as last published.
    pub fn nodes(&self) -> u64 {
        self.counters.iter().map(|c| c.nodes()).sum()
    }

    /// Forgets the history tables of every thread (`ucinewgame`). Only while idle.
    pub fn clear(&self) {
        self.broadcast(Msg::Clear);
    }

    /// Starts a search of `pos` configured by `config`; collect the result with
    /// [`Pool::wait`]. With a reporter in `limits`, the main thread reports `BestMove` itself
    /// (clearing `Control::searching` just before). Only while idle.
    pub fn start(&mut self, pos: &Position, mut limits: SearchLimits, config: &Arc<EngineConfig>) {
        use_tablebases(pos, &mut limits, config);
        self.control.stop.store(false, Ordering::Relaxed);
        self.control.smp.reset();
        self.tt.new_search();
        for t in &self.private {
            t.new_search();
        }
        let (done_tx, done_rx) = channel();
        for w in self.workers.iter().skip(1) {
            // Helpers have no clock: the main thread stops them. The reporter is for errors
            // only (helpers report nothing else).
            let helper_limits = SearchLimits {
                searchmoves: limits.searchmoves.clone(),
                tb: limits.tb,
                depth: limits.depth,
                // A node limit counts every thread's nodes (`Searcher::check_limits`).
                nodes: limits.nodes,
                reporter: limits.reporter.clone(),
                ..SearchLimits::default()
            };
            let _ = w.tx.send(Msg::Helper {
                // Several PVs are the main thread's job: then only it may end the search.
                may_finish: config.multipv <= 1,
                pos: pos.clone(),
                limits: helper_limits,
                config: config.clone(),
                done: done_tx.clone(),
            });
        }
        let (result_tx, result_rx) = channel();
        let _ = self.workers[0].tx.send(Msg::Main {
            pos: pos.clone(),
            limits,
            config: config.clone(),
            helpers: done_rx,
            n_helpers: self.workers.len() - 1,
            result: result_tx,
        });
        self.results = Some(result_rx);
    }

    /// Whether a started search has not been collected yet.
    pub fn busy(&self) -> bool {
        self.results.is_some()
    }

    /// Waits for the search started last and returns its result (`None` if none was started).
    pub fn wait(&mut self) -> Option<SearchResult> {
        let rx = self.results.take()?;
        Some(rx.recv().unwrap_or(SearchResult {
            best: Move::NULL,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            seldepth: 0,
        }))
    }

    /// Searches `pos` to completion and returns the result.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: SearchLimits,
        config: &Arc<EngineConfig>,
    ) -> SearchResult {
        self.start(pos, limits, config);
        self.wait().expect("a search was started")
    }

    fn shutdown(&mut self) {
        self.control.stop.store(true, Ordering::Relaxed);
        let _ = self.wait();
        for w in self.workers.drain(..) {
            drop(w.tx);
            let _ = w.handle.join();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;
    use engram_chess::Board;
    use std::sync::atomic::AtomicUsize;

    /// Threads from this index on fail to start (tests of `set_threads`' fallback).
    pub(super) static FAIL_SPAWN_FROM: AtomicUsize = AtomicUsize::new(usize::MAX);

    /// Issue 13, fault 5: a thread the system refuses is reported, not a panic; the pool
    /// searches on with the threads it could start.
    #[test]
    fn a_thread_that_cannot_start_leaves_a_working_pool() {
        let tt = Arc::new(Table::new(4).unwrap());
        let mut pool = Pool::new(tt, Arc::new(Control::default()));
        FAIL_SPAWN_FROM.store(3, Ordering::Relaxed);
        let err = pool.set_threads(6).unwrap_err();
        FAIL_SPAWN_FROM.store(usize::MAX, Ordering::Relaxed);
        assert!(
            err.contains("thread 4 of 6") && err.contains("with 3"),
            "{err}"
        );
        assert_eq!(pool.threads(), 3);
        assert_eq!(pool.counters.len(), 3);
        let limits = SearchLimits {
            depth: Some(8),
            ..SearchLimits::default()
        };
        let config = Arc::new(EngineConfig::default());
        let result = pool.search(&Position::new(Board::startpos()), limits, &config);
        assert!(Board::startpos().is_legal(result.best));
        assert_eq!(result.depth, 8);
    }

    fn r(mv: u16, score: i32, depth: i32) -> SearchResult {
        SearchResult {
            best: Move::from_u16(mv),
            ponder: None,
            score,
            depth,
            nodes: 1,
            pv: vec![Move::from_u16(mv)],
            seldepth: 1,
        }
    }

    #[test]
    fn the_fallback_move_respects_searchmoves() {
        let pos = Position::new(Board::startpos());
        let d2d3 = pos.board().parse_uci("d2d3").unwrap();
        assert_eq!(fallback_move(&pos, &[d2d3]), d2d3);
        assert!(pos.board().is_legal(fallback_move(&pos, &[])));
        let mated = Board::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", false).unwrap();
        assert!(fallback_move(&Position::new(mated), &[]).is_null());
    }

    #[test]
    fn best_thread_vote() {
        let m = Move::from_u16;
        // Agreement beats a lone thread: A has (0 + 7) · 10 + (1 + 7) · 11 = 158 votes, B
        // (2 + 7) · 11 = 99; the first thread with A (the main thread) plays.
        let (best, helper) = pick_best(r(1, 10, 10), vec![r(2, 12, 11), r(1, 11, 11)], false);
        assert_eq!((best.best, best.depth, helper), (m(1), 10, false));
        // A deeper thread with a clearly better score outvotes the main thread.
        let (best, helper) = pick_best(r(1, 10, 10), vec![r(2, 40, 12)], false);
        assert_eq!((best.best, best.score, helper), (m(2), 40, true));
        // Equal weight: the main thread keeps its move.
        assert_eq!(
            pick_best(r(1, 10, 10), vec![r(2, 10, 10)], false).0.best,
            m(1)
        );
        // A proven mate overrides the vote: the shortest one found.
        assert_eq!(
            pick_best(
                r(1, 500, 20),
                vec![r(2, MATE - 9, 8), r(3, MATE - 5, 7)],
                false
            )
            .0
            .best,
            m(3)
        );
        // Being mated: the longest defence.
        assert_eq!(
            pick_best(r(1, -MATE + 4, 10), vec![r(2, -MATE + 8, 9)], false)
                .0
                .best,
            m(2)
        );
        // A helper that completed nothing never wins; nor does a null move.
        assert_eq!(
            pick_best(r(1, 10, 10), vec![r(0, 900, 12), r(4, 900, 0)], false)
                .0
                .best,
            m(1)
        );
        // A main thread that completed nothing gives way to a helper that did.
        assert_eq!(
            pick_best(r(1, 0, 0), vec![r(2, -30, 3)], false).0.best,
            m(2)
        );
        // The chosen result carries the main thread's node count (the pool sums them).
        let mut main = r(1, 10, 10);
        main.nodes = 77;
        assert_eq!(pick_best(main, vec![r(2, 90, 12)], false).0.nodes, 77);
        // A fixed-depth search: only the deepest threads vote, whatever the others' scores.
        let (best, helper) = pick_best(r(1, 10, 9), vec![r(2, 80, 8), r(3, 5, 9)], true);
        assert_eq!((best.best, helper), (m(1), false));
        assert_eq!(
            pick_best(r(1, 10, 8), vec![r(2, 80, 8), r(3, 5, 9)], true)
                .0
                .best,
            m(3)
        );
    }
}
