//! The MPI transport (cargo feature `cluster`): `mpirun -np N engram` is one UCI engine.
//!
//! Each rank has one communication thread, the only thread that calls MPI (it initializes
//! and finalizes it too, so `MPI_THREAD_FUNNELED` is enough). It loops: it sends what the
//! engine queued (commands from rank 0, results and node counts to rank 0) and, every
//! [`super::period`], the batch of deep table entries this rank's threads collected to
//! the next rank of the ring; it receives whatever arrived: a command goes to the engine's
//! main loop, a result or node count to rank 0's waiting search, and an entry batch into
//! the table, then on round the ring until the rank before its origin. Sends are
//! non-blocking and the thread keeps receiving while they complete, so two ranks sending
//! each other large batches never wait on each other.
//!
//! Messages: `CMD` (rank 0 to all: search number and a UCI line), `RESULT` and `NODES`
//! (to rank 0), `ENTRIES` (the ring: the origin rank, 4 bytes, then entries in
//! [`super::exchange`]'s format), `DONE` (each rank to all when it quits: nothing follows
//! it from that rank). A rank finalizes MPI after it has every rank's `DONE` and its own
//! sends are complete, so `quit` ends every rank and leaves none running.
//!
//! A rank that dies (a crash, a kill) makes `mpirun` end the whole job with an error; a
//! panic in the communication thread aborts its process for the same effect. A follower
//! that does not answer rank 0's `stop` within [`RESULT_TIMEOUT`] is left out of the vote.

use super::exchange::Exchange;
use super::{
    decode_command, decode_nodes, decode_result, encode_command, encode_nodes, encode_result, Peers,
};
use crate::search::SearchResult;
use mpi::traits::*;
use mpi::Threading;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

const CMD: i32 = 1;
const RESULT: i32 = 2;
const NODES: i32 = 3;
const ENTRIES: i32 = 4;
const DONE: i32 = 5;

/// How long rank 0 waits for the other ranks' results after telling them to stop.
pub const RESULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A message to send: to whom, its tag, its bytes.
struct Out {
    to: To,
    tag: i32,
    bytes: Vec<u8>,
}

enum To {
    Rank(usize),
    Followers,
}

/// What the engine's threads and the communication thread share.
struct State {
    rank: usize,
    ranks: usize,
    outgoing: Mutex<Vec<Out>>,
    /// Rank 0: the last result each rank sent, with its search number.
    results: Mutex<Vec<Option<(u64, SearchResult)>>>,
    arrived: Condvar,
    /// Rank 0: the last node count each rank sent, with its search number.
    nodes: Mutex<Vec<(u64, u64)>>,
    /// The search in progress (rank 0 numbers them).
    search: AtomicU64,
    quit: AtomicBool,
    exchange: Arc<Exchange>,
}

impl State {
    fn queue(&self, to: To, tag: i32, bytes: Vec<u8>) {
        self.outgoing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Out { to, tag, bytes });
    }
}

/// The cluster as the UCI engine of one rank sees it.
pub struct MpiPeers {
    state: Arc<State>,
}

impl Peers for MpiPeers {
    fn rank(&self) -> usize {
        self.state.rank
    }

    fn ranks(&self) -> usize {
        self.state.ranks
    }

    fn forward(&self, line: &str) {
        let id = self.state.search.load(Ordering::Relaxed);
        self.state
            .queue(To::Followers, CMD, encode_command(id, line));
    }

    fn start_search(&self, go: &str) -> u64 {
        let id = self.state.search.fetch_add(1, Ordering::Relaxed) + 1;
        self.state
            .nodes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
            .for_each(|n| *n = (0, 0));
        self.state.queue(To::Followers, CMD, encode_command(id, go));
        id
    }

    fn remote_nodes(&self, id: u64) -> u64 {
        let nodes = self.state.nodes.lock().unwrap_or_else(|e| e.into_inner());
        nodes.iter().filter(|n| n.0 == id).map(|n| n.1).sum()
    }

    fn gather(&self, id: u64) -> Vec<SearchResult> {
        self.state
            .queue(To::Followers, CMD, encode_command(id, "stop"));
        let deadline = Instant::now() + RESULT_TIMEOUT;
        let mut results = self.state.results.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let missing: Vec<usize> = (1..self.state.ranks)
                .filter(|&r| !matches!(&results[r], Some((i, _)) if *i == id))
                .collect();
            let now = Instant::now();
            if missing.is_empty() || now >= deadline {
                if !missing.is_empty() {
                    eprintln!(
                        "error: rank(s) {missing:?} did not answer within {} s; the move is \
                         chosen without them",
                        RESULT_TIMEOUT.as_secs()
                    );
                }
                return (1..self.state.ranks)
                    .filter_map(|r| match &results[r] {
                        Some((i, res)) if *i == id => Some(res.clone()),
                        _ => None,
                    })
                    .collect();
            }
            results = self
                .state
                .arrived
                .wait_timeout(results, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn send_result(&self, id: u64, result: &SearchResult) {
        self.state
            .queue(To::Rank(0), RESULT, encode_result(id, result));
    }

    fn send_nodes(&self, id: u64, nodes: u64) {
        self.state
            .queue(To::Rank(0), NODES, encode_nodes(id, nodes));
    }

    fn exchange(&self) -> Arc<Exchange> {
        self.state.exchange.clone()
    }
}

/// Runs this process as one rank of `mpirun`: rank 0 the UCI engine on standard input and
/// output, the others its followers (their standard output discarded). A single process
/// (no `mpirun`, or `-np 1`) is the plain engine.
pub fn run() -> Result<(), String> {
    let (ready_tx, ready_rx) = channel();
    let (lines_tx, lines_rx) = channel();
    let exchange = Arc::new(Exchange::default());
    let comm = {
        let exchange = exchange.clone();
        std::thread::Builder::new()
            .name("cluster".into())
            .spawn(move || {
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    communicate(ready_tx, lines_tx, exchange)
                }));
                if run.is_err() {
                    eprintln!("error: the cluster's communication thread failed; aborting");
                    std::process::abort();
                }
            })
            .map_err(|e| format!("cannot start the cluster thread: {e}"))?
    };
    let state: Arc<State> = ready_rx
        .recv()
        .map_err(|_| "MPI could not be initialized".to_string())??;
    let peers = Arc::new(MpiPeers {
        state: state.clone(),
    });
    if state.ranks == 1 {
        crate::uci::Engine::new().run();
    } else if state.rank == 0 {
        let mut engine = crate::uci::Engine::with_peers(peers);
        engine.run();
        drop(engine);
    } else {
        silence_stdout();
        let mut engine = crate::uci::Engine::with_peers(peers);
        engine.follow(lines_rx);
        drop(engine);
    }
    state.quit.store(true, Ordering::Relaxed);
    comm.join()
        .map_err(|_| "the cluster thread failed".to_string())
}

/// The communication thread: initializes MPI, hands the shared state to the engine through
/// `ready`, loops until every rank has quit, finalizes MPI.
fn communicate(
    ready: Sender<Result<Arc<State>, String>>,
    lines: Sender<(u64, String)>,
    exchange: Arc<Exchange>,
) {
    let Some((universe, threading)) = mpi::initialize_with_threading(Threading::Multiple) else {
        let _ = ready.send(Err("MPI was already initialized".into()));
        return;
    };
    if threading == Threading::Single {
        let _ = ready.send(Err(
            "the MPI library offers no thread support (MPI_THREAD_SINGLE)".into(),
        ));
        return;
    }
    let world = universe.world();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let state = Arc::new(State {
        rank,
        ranks,
        outgoing: Mutex::new(Vec::new()),
        results: Mutex::new(vec![None; ranks]),
        arrived: Condvar::new(),
        nodes: Mutex::new(vec![(0, 0); ranks]),
        search: AtomicU64::new(0),
        quit: AtomicBool::new(false),
        exchange,
    });
    if ready.send(Ok(state.clone())).is_err() {
        return;
    }
    if ranks == 1 {
        while !state.quit.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20));
        }
        return;
    }
    let next = (rank + 1) % ranks;
    let mut done = vec![false; ranks];
    let mut quitting = false;
    let mut forwards: Vec<Out> = Vec::new();
    let mut last_batch = Instant::now();
    loop {
        let mut out: Vec<(usize, i32, Vec<u8>)> = Vec::new();
        let queued = std::mem::take(&mut *state.outgoing.lock().unwrap_or_else(|e| e.into_inner()));
        for o in queued.into_iter().chain(forwards.drain(..)) {
            match o.to {
                To::Rank(r) => out.push((r, o.tag, o.bytes)),
                To::Followers => {
                    for r in 1..ranks {
                        out.push((r, o.tag, o.bytes.clone()));
                    }
                }
            }
        }
        if !quitting && last_batch.elapsed() >= super::period() {
            last_batch = Instant::now();
            let batch = state.exchange.take_batch();
            if !batch.is_empty() {
                let mut bytes = (rank as u32).to_le_bytes().to_vec();
                bytes.extend_from_slice(&batch);
                out.push((next, ENTRIES, bytes));
            }
        }
        if !quitting && state.quit.load(Ordering::Relaxed) {
            quitting = true;
            done[rank] = true;
            for r in (0..ranks).filter(|&r| r != rank) {
                out.push((r, DONE, Vec::new()));
            }
        }
        let sent_any = !out.is_empty();
        let mut handle = |from: usize, tag: i32, bytes: Vec<u8>| {
            receive(
                &state,
                &lines,
                &mut done,
                &mut forwards,
                quitting,
                next,
                from,
                tag,
                bytes,
            )
        };
        let entry_bytes: usize = out
            .iter()
            .filter(|o| o.1 == ENTRIES)
            .map(|o| o.2.len() - 4)
            .sum();
        state
            .exchange
            .sent_bytes
            .fetch_add(entry_bytes as u64, Ordering::Relaxed);
        mpi::request::scope(|scope| {
            let mut pending: Vec<_> = out
                .iter()
                .map(|(to, tag, bytes)| {
                    world.process_at_rank(*to as i32).immediate_send_with_tag(
                        scope,
                        &bytes[..],
                        *tag,
                    )
                })
                .collect();
            while !pending.is_empty() {
                poll(&world, &mut handle);
                pending = pending.into_iter().filter_map(|r| r.test().err()).collect();
                if !pending.is_empty() {
                    std::thread::sleep(Duration::from_micros(50));
                }
            }
        });
        let received = poll(&world, &mut handle);
        if quitting && done.iter().all(|&d| d) && forwards.is_empty() {
            break;
        }
        if !sent_any && !received {
            std::thread::sleep(Duration::from_micros(500));
        }
    }
    // What went round the ring, on standard error (docs/cluster.md).
    eprintln!("cluster rank {rank}: {}", state.exchange.summary());
    drop(universe);
}

/// Receives every message waiting; returns whether there was any.
fn poll(
    world: &mpi::topology::SimpleCommunicator,
    handle: &mut impl FnMut(usize, i32, Vec<u8>),
) -> bool {
    let mut any = false;
    use mpi::point_to_point::MatchedReceiveVec;
    while let Some(probed) = world.any_process().immediate_matched_probe() {
        let (bytes, status) = probed.matched_receive_vec::<u8>();
        handle(status.source_rank() as usize, status.tag(), bytes);
        any = true;
    }
    any
}

/// Acts on one received message.
#[allow(clippy::too_many_arguments)]
fn receive(
    state: &State,
    lines: &Sender<(u64, String)>,
    done: &mut [bool],
    forwards: &mut Vec<Out>,
    quitting: bool,
    next: usize,
    from: usize,
    tag: i32,
    bytes: Vec<u8>,
) {
    match tag {
        CMD => {
            if let Some((id, line)) = decode_command(&bytes) {
                state.search.store(id, Ordering::Relaxed);
                let _ = lines.send((id, line));
            }
        }
        RESULT => {
            if let Some((id, result)) = decode_result(&bytes) {
                let mut results = state.results.lock().unwrap_or_else(|e| e.into_inner());
                results[from] = Some((id, result));
                state.arrived.notify_all();
            }
        }
        NODES => {
            if let Some((id, n)) = decode_nodes(&bytes) {
                state.nodes.lock().unwrap_or_else(|e| e.into_inner())[from] = (id, n);
            }
        }
        ENTRIES if bytes.len() >= 4 => {
            let origin = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as usize;
            state.exchange.store_batch(&bytes[4..]);
            if next != origin && !quitting {
                forwards.push(Out {
                    to: To::Rank(next),
                    tag: ENTRIES,
                    bytes,
                });
            }
        }
        DONE => done[from] = true,
        _ => {}
    }
}

/// Sends this process's standard output to `/dev/null` (a follower prints nothing; rank 0
/// speaks for the cluster).
fn silence_stdout() {
    use std::os::fd::AsRawFd;
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        // SAFETY: `dup2` only makes file descriptor 1 refer to the open file `null`
        // (duplicated, so dropping `null` afterwards leaves fd 1 valid); no memory is
        // touched. Standard output is written through fd 1 by `println!` after this.
        unsafe {
            libc::dup2(null.as_raw_fd(), 1);
        }
    }
}
