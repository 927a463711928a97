//! What the search tells the outside world after each iteration: an [`Info`] per principal
//! variation, printed as a UCI `info` line, or handed to a [`Reporter`] (`engram analyse`
//! prints it for a person, or as JSON).

use super::{pv_text, score_text};
use engram_chess::{Board, Move};
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

    /// The UCI `info` line, with the principal variation as UCI moves from `board`.
    pub fn uci_line(&self, board: &Board) -> String {
        let bound = match self.bound {
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
            _ => "",
        };
        let hashfull = self
            .hashfull
            .map(|h| format!(" hashfull {h}"))
            .unwrap_or_default();
        format!(
            "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} time {}{hashfull} pv{}",
            self.depth,
            self.seldepth.max(1),
            self.multipv,
            score_text(self.score),
            self.nodes,
            self.nps(),
            self.time_ms,
            pv_text(board, &self.pv),
        )
    }
}

/// Where the main search thread sends its [`Info`]s instead of printing UCI lines.
#[derive(Clone)]
pub struct Reporter(pub Arc<dyn Fn(&Info) + Send + Sync>);

impl Reporter {
    /// A reporter that calls `f`.
    pub fn new(f: impl Fn(&Info) + Send + Sync + 'static) -> Reporter {
        Reporter(Arc::new(f))
    }

    /// Hands `info` over.
    pub fn report(&self, info: &Info) {
        (self.0)(info)
    }
}

impl fmt::Debug for Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reporter")
    }
}
