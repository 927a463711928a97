//! Several threads on one tree: young brothers wait. Once a node of depth ≥
//! `params::split_min_depth` has searched its first move, the thread searching it may publish
//! a *split point*: a PV node (the root included) always does, any other node when a thread is
//! idle. Every idle thread joins it and takes the node's remaining moves one at a time, on its
//! own copy of the position, sharing the node's alpha. The thread that split searches moves
//! too, then waits for the helpers' last moves (helping, meanwhile, at split points opened under
//! its own). A move that fails high cuts the split point off: threads still under it unwind
//! (`Unwind::SplitCut`) and abandon their moves.
//!
//! A split point holds a mutex and a copy of the position: splitting costs more than a node,
//! so only nodes with depth left split, and the helpers' units of work are whole subtrees.
//!
//! The data (`SplitPoint`, its shared `State`, the `Registry` of open split points) and the
//! algorithm (`Searcher::split`, `work`, `join`, `help`) are both here.

use super::history::{History, PieceTo};
use super::node::{next_child, Node};
use super::picker::MovePicker;
use super::root::bound;
use super::{Frame, Searcher, Unwind, OFF};
use engram_chess::{Move, Position};
use engram_tt::Bound;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// A move to search at a split point, with what its search needs from the node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub mv: Move,
    /// The move's number among the moves searched, for reductions: at an inner node 1 is
    /// the first; at the root 0 is the first of this pass.
    pub n: usize,
    pub quiet: bool,
    /// History score of a quiet move.
    pub hist: i32,
    /// Continuation-history key of the move.
    pub pt: PieceTo,
    /// At the root: the index of the move in the root move list.
    pub idx: usize,
    /// Plies of extension (or, negative, reduction) from the singular search.
    pub ext: i32,
}

/// The result of one root move searched under a root split point.
#[derive(Debug)]
pub(super) struct RootResult {
    pub idx: usize,
    pub score: i32,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

/// What the threads of a split point share (under its mutex).
pub(super) struct State {
    /// The moves left: from the node's picker, or (at the root) a list.
    pub picker: Option<Box<MovePicker>>,
    /// Moves handed out by the picker so far (the first included).
    pub searched: usize,
    pub moves: Vec<Child>,
    pub next: usize,
    pub alpha: i32,
    pub best_score: i32,
    pub best_move: Move,
    /// The line of the best move (from the node on).
    pub pv: Vec<Move>,
    /// Threads other than the owner searching a move here now.
    pub helpers: usize,
    /// At the root: the moves that raised alpha or failed high.
    pub root: Vec<RootResult>,
    /// Moves searched that did not become best (for history).
    pub quiets: Vec<(Move, PieceTo)>,
    pub captures: Vec<Move>,
}

impl State {
    /// The state after the first move: `best_score` and `best_move` from it, `pv` its line.
    pub fn new(
        moves: Vec<Child>,
        alpha: i32,
        best_score: i32,
        best_move: Move,
        pv: Vec<Move>,
    ) -> Self {
        State {
            picker: None,
            searched: 1,
            moves,
            next: 0,
            alpha,
            best_score,
            best_move,
            pv,
            helpers: 0,
            root: Vec::new(),
            quiets: Vec::new(),
            captures: Vec::new(),
        }
    }
}

/// A node whose remaining moves are open to all threads.
pub(super) struct SplitPoint {
    /// The position at the node (with its history, for repetitions).
    pub pos: Position,
    /// Search stack frames of plies `ply - 2 ..= ply`.
    pub frames: [Frame; 3],
    pub ply: usize,
    pub node: Node,
    pub beta: i32,
    /// The split point the owning thread was working under when it split.
    parent: Option<Arc<SplitPoint>>,
    /// Set when a move failed high: the node is done.
    cut: AtomicBool,
    /// Set once every move has been handed out.
    exhausted: AtomicBool,
    state: Mutex<State>,
}

impl SplitPoint {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        pos: Position,
        frames: [Frame; 3],
        ply: usize,
        node: Node,
        beta: i32,
        parent: Option<Arc<SplitPoint>>,
        state: State,
    ) -> SplitPoint {
        SplitPoint {
            pos,
            frames,
            ply,
            node,
            beta,
            parent,
            cut: AtomicBool::new(false),
            exhausted: AtomicBool::new(false),
            state: Mutex::new(state),
        }
    }

    /// The shared state (a thread that panicked holding it left nothing half-written that
    /// matters: the search it belonged to is being abandoned).
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands out the next move (chosen and pruned as the node's own loop would, with the
    /// history of the thread asking) and the current alpha, or `None` when there is none left
    /// or the node was cut off.
    pub fn take(&self, history: &History) -> Option<(Child, i32)> {
        let mut guard = self.lock();
        let st = &mut *guard;
        if self.is_cut() || self.exhausted.load(Ordering::Relaxed) {
            return None;
        }
        let c = match st.picker.as_mut() {
            Some(picker) => next_child(
                picker,
                self.pos.board(),
                history,
                &self.node,
                &mut st.searched,
                st.best_score,
                st.alpha,
            ),
            None => {
                st.next += 1;
                st.moves.get(st.next - 1).copied()
            }
        };
        if c.is_none() {
            self.exhausted.store(true, Ordering::Relaxed);
        }
        Some((c?, st.alpha))
    }

    /// The node's alpha now.
    pub fn alpha(&self) -> i32 {
        self.lock().alpha
    }

    /// Registers a helper, unless there is nothing left to take; the helper is unregistered
    /// when the guard drops, also when its search panics (the owner waits for the count to
    /// reach zero).
    pub fn enter(&self) -> Option<Helping<'_>> {
        let mut st = self.lock();
        if self.is_cut() || self.exhausted.load(Ordering::Relaxed) {
            return None;
        }
        st.helpers += 1;
        Some(Helping(self))
    }

    /// Marks the node as cut off.
    pub fn cut(&self) {
        self.cut.store(true, Ordering::Relaxed);
    }

    /// Whether a move of this node failed high.
    pub fn is_cut(&self) -> bool {
        self.cut.load(Ordering::Relaxed)
    }

    /// Whether this node or one it was split under was cut off: work here is wasted.
    pub fn aborted(&self) -> bool {
        self.is_cut() || self.parent.as_ref().is_some_and(|p| p.aborted())
    }

    /// Whether a split point this one was split under was cut off.
    pub fn parent_aborted(&self) -> bool {
        self.parent.as_ref().is_some_and(|p| p.aborted())
    }

    /// Whether `other` is this split point or one it was split under.
    fn under(&self, other: &SplitPoint) -> bool {
        std::ptr::eq(self, other) || self.parent.as_ref().is_some_and(|p| p.under(other))
    }

    fn open(&self) -> bool {
        !self.exhausted.load(Ordering::Relaxed) && !self.aborted()
    }
}

/// A helper's registration at a split point ([`SplitPoint::enter`]), withdrawn when dropped.
pub(super) struct Helping<'a>(&'a SplitPoint);

impl Drop for Helping<'_> {
    fn drop(&mut self) {
        self.0.lock().helpers -= 1;
    }
}

/// The split points open in one search.
#[derive(Default)]
pub(super) struct Registry {
    list: Mutex<Vec<Arc<SplitPoint>>>,
    len: AtomicUsize,
    /// Threads looking for work now.
    idle: AtomicUsize,
    /// Threads asleep until a split point opens (or a moment passes).
    parked: Mutex<Vec<std::thread::Thread>>,
}

/// A split point's place in the registry ([`Registry::publish`]), withdrawn when dropped, also
/// when the owner's search panics (helpers must not join a node nobody owns).
pub(super) struct Published<'a> {
    registry: &'a Registry,
    sp: Arc<SplitPoint>,
}

impl Drop for Published<'_> {
    fn drop(&mut self) {
        let mut list = self.registry.list();
        list.retain(|s| !Arc::ptr_eq(s, &self.sp));
        self.registry.len.store(list.len(), Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Registry({} open)", self.len.load(Ordering::Relaxed))
    }
}

impl Registry {
    fn list(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens `sp` to all threads (and wakes the parked ones) until the guard drops.
    pub fn publish(&self, sp: Arc<SplitPoint>) -> Published<'_> {
        {
            let mut list = self.list();
            list.push(sp.clone());
            self.len.store(list.len(), Ordering::Relaxed);
        }
        self.wake();
        Published { registry: self, sp }
    }

    /// Wakes every parked thread.
    pub fn wake(&self) {
        let parked = std::mem::take(&mut *self.parked.lock().unwrap_or_else(|e| e.into_inner()));
        for t in parked {
            t.unpark();
        }
    }

    /// Parks the calling thread until a split point is published or `timeout` passes.
    fn park(&self, timeout: std::time::Duration) {
        self.parked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(std::thread::current());
        // A publish between the push and the park leaves the token: park returns at once.
        std::thread::park_timeout(timeout);
    }

    /// Forgets every split point (a new search; no thread is searching).
    pub fn clear(&self) {
        let mut list = self.list();
        list.clear();
        self.len.store(0, Ordering::Relaxed);
        self.idle.store(0, Ordering::Relaxed);
    }

    /// How many threads are looking for work now.
    pub fn idle(&self) -> usize {
        self.idle.load(Ordering::Relaxed)
    }

    /// An open split point with moves left (under `under` if given), the one with the most
    /// depth left: its moves are the largest pieces of work.
    pub fn find(&self, under: Option<&SplitPoint>) -> Option<Arc<SplitPoint>> {
        if self.len.load(Ordering::Relaxed) == 0 {
            return None;
        }
        self.list()
            .iter()
            .filter(|sp| sp.open() && under.is_none_or(|u| sp.under(u)))
            .max_by_key(|sp| sp.node.depth)
            .cloned()
    }
}

/// A thread's entry in the count of idle threads, withdrawn when dropped.
pub(super) struct Idle<'a> {
    registry: &'a Registry,
    on: bool,
}

impl<'a> Idle<'a> {
    pub fn new(registry: &'a Registry) -> Self {
        Idle {
            registry,
            on: false,
        }
    }

    /// Counts this thread as idle or not.
    pub fn set(&mut self, on: bool) {
        if on != self.on {
            if on {
                self.registry.idle.fetch_add(1, Ordering::Relaxed);
            } else {
                self.registry.idle.fetch_sub(1, Ordering::Relaxed);
            }
            self.on = on;
        }
    }
}

impl Drop for Idle<'_> {
    fn drop(&mut self) {
        self.set(false);
    }
}

impl Searcher {
    /// Opens the rest of the node at `ply` to all threads (`state` holds the moves left and
    /// the result of the first), searches its share, waits for the others and returns the
    /// split point with the node's result. Sets `unwind` if the search must unwind.
    pub(super) fn split(
        &mut self,
        ply: usize,
        node: Node,
        beta: i32,
        state: State,
    ) -> Arc<SplitPoint> {
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
        let control = self.control.clone();
        let published = control.smp.splits().publish(sp.clone());
        self.splits.push(sp.clone());
        self.work(&sp);
        drop(published);
        // Wait for the helpers' last moves, helping at split points opened under this one.
        let mut idle = 0u32;
        let mut waiting = Idle::new(control.smp.splits());
        while !self.stopped() && !sp.is_cut() && sp.lock().helpers > 0 {
            self.poll();
            if self.stopped() {
                break;
            }
            waiting.set(true);
            if let Some(inner) = self.control.smp.splits().find(Some(&sp)) {
                waiting.set(false);
                self.join(&inner);
                // The inner split point was cut off: that ends the help there, not this node.
                if self.unwind == Some(Unwind::SplitCut) && !sp.aborted() {
                    self.unwind = None;
                }
            } else {
                idle = pause(idle, control.smp.splits());
            }
        }
        drop(waiting);
        self.splits.pop();
        // A move of this node failed high elsewhere: that ends this node, not the search.
        if self.unwind == Some(Unwind::SplitCut)
            && sp.is_cut()
            && !sp.parent_aborted()
            && !self.control.stop.load(Ordering::Relaxed)
        {
            self.unwind = None;
        }
        sp
    }

    /// Searches moves of `sp` (positioned at its node) until none is left, the node is cut
    /// off, or the search unwinds.
    fn work(&mut self, sp: &Arc<SplitPoint>) {
        let board = *self.pos.board();
        let ply = sp.ply;
        while let Some((c, alpha)) = sp.take(&self.history) {
            let score = if ply == 0 {
                self.print_currmove(sp.node.depth, c.mv, c.idx + 1);
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
            if self.stopped() {
                return;
            }
            let line = &self.pv[ply + 1][ply + 1..self.pv_len[ply + 1].max(ply + 1)];
            let mut st = sp.lock();
            if ply == 0 && score > st.alpha {
                // Above the node's alpha now, so above every alpha the ladder searched this
                // move against: the score of its full-window search, exact or a lower bound.
                let mut pv = vec![c.mv];
                pv.extend_from_slice(line);
                let bound = bound(score, st.alpha, sp.beta);
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
        let Some(_helping) = sp.enter() else {
            return;
        };
        #[cfg(test)]
        tests::maybe_panic_in_helper(self.id);
        let pos = std::mem::replace(&mut self.pos, sp.pos.clone());
        let base = sp.ply + OFF - 2;
        let frames = [self.stack[base], self.stack[base + 1], self.stack[base + 2]];
        self.stack[base..base + 3].copy_from_slice(&sp.frames);
        self.splits.push(sp.clone());
        self.work(sp);
        self.splits.pop();
        self.pos = pos;
        self.stack[base..base + 3].copy_from_slice(&frames);
    }

    /// A helper's search: join split points until the search stops.
    pub(super) fn help(&mut self) {
        let mut idle = 0u32;
        let control = self.control.clone();
        let mut waiting = Idle::new(control.smp.splits());
        while !self.control.stop.load(Ordering::Relaxed) {
            waiting.set(true);
            if self.nodes_exhausted() {
                // The node limit is reached: nothing more to search, wait for the stop.
                idle = pause(idle.max(2048), control.smp.splits());
                continue;
            }
            if let Some(sp) = self.control.smp.splits().find(None) {
                waiting.set(false);
                self.join(&sp);
                self.unwind = None;
                idle = 0;
            } else {
                idle = pause(idle, control.smp.splits());
            }
        }
        self.publish_nodes();
    }
}

/// Waits a moment for work, the `idle`th time in a row: spins first, then yields the core
/// (more threads than cores), then parks until a split point opens, so a thread with nothing
/// to do (the main thread waiting for `stop` after `go infinite` or `go ponder` reached its
/// depth limit) does not burn a core. Within a search split points open every few
/// microseconds, long before the third stage.
fn pause(idle: u32, registry: &Registry) -> u32 {
    if idle < 256 {
        std::hint::spin_loop();
    } else if idle < 2048 {
        std::thread::yield_now();
    } else {
        registry.park(std::time::Duration::from_millis(1));
    }
    idle.saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_chess::Board;

    fn sp(parent: Option<Arc<SplitPoint>>, moves: usize, depth: i32) -> Arc<SplitPoint> {
        let child = Child {
            mv: Move::NULL,
            n: 2,
            quiet: true,
            hist: 0,
            pt: PieceTo::NONE,
            idx: 0,
            ext: 0,
        };
        Arc::new(SplitPoint::new(
            Position::new(Board::startpos()),
            [Frame::default(); 3],
            1,
            Node {
                depth,
                ..Node::default()
            },
            100,
            parent,
            State::new(vec![child; moves], 0, 0, Move::NULL, Vec::new()),
        ))
    }

    #[test]
    fn hands_out_each_move_once() {
        let a = sp(None, 3, 5);
        let helping = a.enter();
        assert!(helping.is_some());
        assert_eq!(a.lock().helpers, 1);
        let history = History::default();
        let taken: Vec<usize> = std::iter::from_fn(|| a.take(&history))
            .map(|(c, _)| c.n)
            .collect();
        assert_eq!(taken.len(), 3);
        assert!(a.enter().is_none(), "nothing left to join");
        assert!(!a.open());
        drop(helping);
        assert_eq!(a.lock().helpers, 0);
    }

    #[test]
    fn cut_off_propagates_down_not_up() {
        let a = sp(None, 3, 9);
        let b = sp(Some(a.clone()), 3, 5);
        let reg = Registry::default();
        let published_a = reg.publish(a.clone());
        let published_b = reg.publish(b.clone());
        // The deepest remaining depth first; under `b` only `b`.
        assert!(Arc::ptr_eq(&reg.find(None).unwrap(), &a));
        assert!(Arc::ptr_eq(&reg.find(Some(&b)).unwrap(), &b));
        b.cut();
        assert!(b.aborted() && !b.parent_aborted() && !a.aborted());
        assert!(reg.find(Some(&b)).is_none());
        a.cut();
        assert!(b.parent_aborted());
        assert!(
            a.take(&History::default()).is_none(),
            "a cut node hands out nothing"
        );
        assert!(reg.find(None).is_none());
        drop(published_a);
        drop(published_b);
        assert_eq!(reg.len.load(Ordering::Relaxed), 0);
        reg.clear();
    }

    #[test]
    fn a_parked_thread_wakes_when_a_split_point_opens() {
        let reg = Arc::new(Registry::default());
        let (tx, rx) = std::sync::mpsc::channel();
        let r = reg.clone();
        let t = std::thread::spawn(move || {
            r.park(std::time::Duration::from_secs(60));
            tx.send(()).unwrap();
        });
        while reg.parked.lock().unwrap().is_empty() {
            std::thread::yield_now();
        }
        let _open = reg.publish(sp(None, 1, 5));
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("woken by publish, not by the timeout");
        t.join().unwrap();
    }

    /// Set to make the next helper that joins a split point panic there (issue 13, fault 2).
    static PANIC_IN_HELPER: AtomicBool = AtomicBool::new(false);

    pub(super) fn maybe_panic_in_helper(id: usize) {
        if id != 0 && PANIC_IN_HELPER.swap(false, Ordering::SeqCst) {
            panic!("injected: a helper fails at a split point");
        }
    }

    /// Issue 13, fault 2: a helper that panics at a split point leaves it (its guard drops
    /// on unwind), so the owner does not wait forever; the search ends with a legal move.
    #[test]
    fn a_panicking_helper_does_not_strand_the_owner() {
        use crate::pool::Pool;
        use crate::search::SearchLimits;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let tt = Arc::new(engram_tt::Table::new(4).unwrap());
            let mut pool = Pool::new(2, tt, Arc::new(crate::search::Control::default()));
            pool.set_verbose(false);
            PANIC_IN_HELPER.store(true, Ordering::SeqCst);
            // Until a thread has joined a split point and failed there (on a busy machine a
            // short search may end before the helper gets a core).
            for _ in 0..50 {
                let limits = SearchLimits {
                    depth: Some(10),
                    multipv: 1,
                    ..SearchLimits::default()
                };
                let result = pool.search(&Position::new(Board::startpos()), limits);
                let failed = !PANIC_IN_HELPER.load(Ordering::SeqCst);
                tx.send((result, failed)).unwrap();
                if failed {
                    break;
                }
            }
        });
        loop {
            let (result, failed) = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .expect("the search ends although a helper panicked");
            assert!(Board::startpos().is_legal(result.best));
            if failed {
                break;
            }
        }
    }

    /// A searcher without table or output, on `board` with `mv` made at the root.
    fn after(board: Board, mv: Move) -> Searcher {
        let tt = Arc::new(engram_tt::Table::new(1).unwrap());
        let mut s = Searcher::new(tt, Arc::new(crate::search::Control::default()));
        s.use_tt = false;
        s.prefetch = false;
        s.verbose = false;
        s.pos = Position::new(board);
        s.enter(&board, mv, 0);
        s
    }

    /// Issue 13, fault 3: at a PV split point, a zero-window search at the alpha the move
    /// was taken with (`a0`) fails high with `s0`, while another thread has raised the node's
    /// alpha to `s0` meanwhile. The move's true score is above `s0`, so it must be searched
    /// again, not taken for a fail low. (Fresh searchers without a table make each search
    /// repeatable, so the ladder's first step returns exactly `s0`.)
    #[test]
    fn a_fail_high_against_a_stale_alpha_is_searched_again() {
        use crate::search::INF;
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let mv = board.parse_uci("e1c1").unwrap();
        let depth = 5;
        let a0 = -429;
        let s0 = -after(board, mv).negamax::<false>(-a0 - 1, -a0, depth, 1, true);
        let v = -after(board, mv).negamax::<true>(-INF, INF, depth, 1, false);
        assert!(a0 < s0 && s0 < v, "the scenario: {a0} < {s0} < {v}");
        let raised = Arc::new(SplitPoint::new(
            Position::new(board),
            [Frame::default(); 3],
            0,
            Node {
                depth: depth + 1,
                pv: true,
                ..Node::default()
            },
            INF,
            None,
            State::new(Vec::new(), s0, s0, Move::NULL, Vec::new()),
        ));
        let got = after(board, mv).later_move::<true>(a0, INF, depth, 0, 0, false, Some(&raised));
        assert!(
            got > s0,
            "{got}: the move's score is {v}, above the raised alpha {s0}"
        );
    }

    #[test]
    fn idle_count_follows_its_guard() {
        let reg = Registry::default();
        {
            let mut a = Idle::new(&reg);
            let mut b = Idle::new(&reg);
            a.set(true);
            a.set(true);
            b.set(true);
            assert_eq!(reg.idle(), 2);
            b.set(false);
            assert_eq!(reg.idle(), 1);
        }
        assert_eq!(reg.idle(), 0, "dropping a guard withdraws it");
    }
}
