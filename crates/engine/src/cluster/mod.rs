//! One search over several processes (MPI ranks, one per machine), as Stockfish's `cluster`
//! branch does it: every rank runs the normal threaded search with its own table; table
//! entries deeper than a threshold travel round a ring of the ranks and are stored into
//! every other rank's table ([`exchange`]); rank 0 reads UCI, sends every command that
//! changes state to the others, owns the clock, and when its search ends stops the others,
//! collects their results and plays the move of a vote weighted by score and depth
//! ([`crate::pool::pick_best`], the same vote as between threads).
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | [`Peers`], what the UCI engine asks of the cluster; results on the wire |
//! | `exchange.rs` | the shared entries: per-thread outboxes, the batch format, storing |
//! | `mpi.rs` | the MPI transport (cargo feature `cluster`): the communication thread |
//!
//! The default build has no MPI: [`Peers`] and the exchange are compiled and tested
//! without it, and only `mpi.rs` needs the feature (docs/cluster.md).

pub mod exchange;
#[cfg(feature = "cluster")]
pub mod mpi;

use crate::search::SearchResult;
use engram_chess::Move;
use exchange::Exchange;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The shallowest depth of the entries a rank shares (`Cluster Depth`).
pub static MIN_DEPTH: AtomicI32 = AtomicI32::new(exchange::MIN_DEPTH_DEFAULT);
/// Entries a search thread collects before it hands them over (`Cluster Outbox`).
pub static OUTBOX: AtomicUsize = AtomicUsize::new(exchange::OUTBOX_DEFAULT);
/// Milliseconds between two batches sent round the ring (`Cluster Period`).
pub static PERIOD_MS: AtomicU64 = AtomicU64::new(PERIOD_MS_DEFAULT);
/// The default period between batches, in milliseconds.
pub const PERIOD_MS_DEFAULT: u64 = 1;

/// The period between two batches sent round the ring.
pub fn period() -> Duration {
    Duration::from_millis(PERIOD_MS.load(Ordering::Relaxed).max(1))
}

/// The exchange's settings as the options left them, applied to `exchange` (at each search).
pub fn configure(exchange: &Exchange) {
    exchange.set_min_depth(MIN_DEPTH.load(Ordering::Relaxed));
    exchange.set_outbox_size(OUTBOX.load(Ordering::Relaxed));
}

/// What the UCI engine of one rank asks of the others. Rank 0 (the leader) forwards
/// commands, starts and ends searches; the other ranks (followers) report to it.
pub trait Peers: Send + Sync {
    /// This process's rank (0 is the leader).
    fn rank(&self) -> usize;
    /// How many ranks there are.
    fn ranks(&self) -> usize;
    /// Leader: sends a UCI command line to every other rank.
    fn forward(&self, line: &str);
    /// Leader: sends a search's `go` line to every other rank; returns the search's number.
    fn start_search(&self, go: &str) -> u64;
    /// Leader: the nodes the other ranks have searched in search `id`, as last reported.
    fn remote_nodes(&self, id: u64) -> u64;
    /// Leader: stops the other ranks' search `id` and waits for their results (those that
    /// do not answer within a time limit are left out, with an error on standard error).
    fn gather(&self, id: u64) -> Vec<SearchResult>;
    /// Follower: sends this rank's result of search `id` to the leader.
    fn send_result(&self, id: u64, result: &SearchResult);
    /// Follower: tells the leader how many nodes this rank has searched in search `id`.
    fn send_nodes(&self, id: u64, nodes: u64);
    /// The entries this rank shares and receives.
    fn exchange(&self) -> Arc<Exchange>;
}

/// A search result on the wire: search number (8 bytes), move and ponder move (2 each, 0:
/// none), score and depth (4 each), selective depth (4), nodes (8), then the principal
/// variation's moves (2 each); little-endian.
pub fn encode_result(id: u64, r: &SearchResult) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + 2 * r.pv.len());
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(&r.best.to_u16().to_le_bytes());
    out.extend_from_slice(&r.ponder.map_or(0, |m| m.to_u16()).to_le_bytes());
    out.extend_from_slice(&r.score.to_le_bytes());
    out.extend_from_slice(&r.depth.to_le_bytes());
    out.extend_from_slice(&(r.seldepth as u32).to_le_bytes());
    out.extend_from_slice(&r.nodes.to_le_bytes());
    for m in &r.pv {
        out.extend_from_slice(&m.to_u16().to_le_bytes());
    }
    out
}

/// The search number and result of [`encode_result`]'s bytes, or `None` if they are too
/// short.
pub fn decode_result(b: &[u8]) -> Option<(u64, SearchResult)> {
    if b.len() < 32 {
        return None;
    }
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
    let ponder = u16_at(10);
    Some((
        u64_at(0),
        SearchResult {
            best: Move::from_u16(u16_at(8)),
            ponder: (ponder != 0).then(|| Move::from_u16(ponder)),
            score: u32_at(12) as i32,
            depth: u32_at(16) as i32,
            seldepth: u32_at(20) as usize,
            nodes: u64_at(24),
            pv: b[32..]
                .chunks_exact(2)
                .map(|c| Move::from_u16(u16::from_le_bytes([c[0], c[1]])))
                .collect(),
        },
    ))
}

/// A node count on the wire: search number and nodes, 8 bytes each.
pub fn encode_nodes(id: u64, nodes: u64) -> Vec<u8> {
    [id.to_le_bytes(), nodes.to_le_bytes()].concat()
}

/// The search number and nodes of [`encode_nodes`]' bytes.
pub fn decode_nodes(b: &[u8]) -> Option<(u64, u64)> {
    let id = u64::from_le_bytes(b.get(..8)?.try_into().ok()?);
    let nodes = u64::from_le_bytes(b.get(8..16)?.try_into().ok()?);
    Some((id, nodes))
}

/// A command on the wire: the search number it belongs to (8 bytes), then the UCI line.
pub fn encode_command(id: u64, line: &str) -> Vec<u8> {
    [&id.to_le_bytes()[..], line.as_bytes()].concat()
}

/// The search number and line of [`encode_command`]'s bytes.
pub fn decode_command(b: &[u8]) -> Option<(u64, String)> {
    let id = u64::from_le_bytes(b.get(..8)?.try_into().ok()?);
    Some((id, String::from_utf8_lossy(&b[8..]).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_chess::Board;

    #[test]
    fn messages_survive_the_wire() {
        let b = Board::startpos();
        let e4 = b.parse_uci("e2e4").unwrap();
        let mut after = b;
        after.play(e4);
        let e5 = after.parse_uci("e7e5").unwrap();
        let r = SearchResult {
            best: e4,
            ponder: Some(e5),
            score: -1234,
            depth: 17,
            nodes: 9_876_543_210,
            pv: vec![e4, e5],
            seldepth: 25,
        };
        assert_eq!(decode_result(&encode_result(42, &r)), Some((42, r.clone())));
        let none = SearchResult {
            ponder: None,
            pv: vec![],
            ..r
        };
        assert_eq!(decode_result(&encode_result(1, &none)), Some((1, none)));
        assert_eq!(decode_result(&[0; 31]), None);
        assert_eq!(decode_nodes(&encode_nodes(7, 123)), Some((7, 123)));
        assert_eq!(decode_nodes(&[1, 2, 3]), None);
        assert_eq!(
            decode_command(&encode_command(3, "position startpos moves e2e4")),
            Some((3, "position startpos moves e2e4".to_string()))
        );
        assert_eq!(decode_command(&[0; 4]), None);
    }
}
