//! What the search tells the outside world: [`Event`]s (an [`Info`] per principal variation
//! after each iteration, the move searched now, the best move, errors) handed to a
//! [`Reporter`]. The search never prints; `uci.rs` writes UCI lines from the events and
//! `engram analyse` text for a person, or JSON.

use engram_chess::Move;
use engram_tt::Bound;
use std::fmt;
use std::sync::Arc;

/// One principal variation at the end of an iteration (or of an aspiration re-search).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The iteration's depth.
    pub depth: i32,
    /// The principal variation's selective depth.
    pub seldepth: usize,
    /// Which variation (1 = best), as `multipv` counts.
    pub multipv: usize,
    /// The score, side to move's view (mates as `MATE - plies`).
    pub score: i32,
    /// `Exact`, or `Lower`/`Upper` when an aspiration window failed.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Tablebase probes that found the position, by all threads.
    pub tbhits: u64,
    /// Milliseconds since the search started (at least 1).
    pub time_ms: u64,
    /// Table occupancy in permille, if the table is used.
    pub hashfull: Option<u32>,
    /// The moves, best first.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// What a search tells the outside world. The search never prints: it hands these to the
/// [`Reporter`] of its limits, and the front end (`uci.rs`, `analyse`) turns them into text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A principal variation at the end of an iteration (or of an aspiration re-search).
    Info(Info),
    /// The root move being searched, once the search has run for a second.
    CurrMove {
        /// The iteration.
        depth: i32,
        /// The move.
        mv: Move,
        /// Its number in the root move list (1 = first).
        number: usize,
    },
    /// The position has no legal move: mated (a mate score) or stalemate (0).
    NoMoves {
        /// The score, side to move's view.
        score: i32,
    },
    /// The search's answer (sent by the pool once all threads have stopped).
    BestMove {
        /// The move to play (`Move::NULL` if there is none).
        best: Move,
        /// The expected reply, if known and legal.
        ponder: Option<Move>,
    },
    /// Something went wrong, and the engine plays on (a search thread that failed).
    Error(String),
}

/// Where a search sends its [`Event`]s (the main thread's `Info` and `CurrMove`, the pool's
/// `BestMove`, any thread's `Error`).
#[derive(Clone)]
pub struct Reporter(pub Arc<dyn Fn(&Event) + Send + Sync>);

impl Reporter {
    /// A reporter that calls `f`.
    pub fn new(f: impl Fn(&Event) + Send + Sync + 'static) -> Reporter {
        Reporter(Arc::new(f))
    }

    /// Hands `event` over.
    pub fn report(&self, event: &Event) {
        (self.0)(event)
    }
}

impl fmt::Debug for Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reporter")
    }
}
