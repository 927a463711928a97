//! `bench`: a fixed-depth search over a built-in set of varied positions, printing the total
//! node count (the `Bench: N` signature of commits that change the search) and the speed.

use crate::config::EngineConfig;
use crate::search::SearchLimits;
use crate::session::Session;
use engram_chess::{Board, Position};
use std::time::Instant;

/// The default bench depth.
pub const DEFAULT_DEPTH: i32 = 13;
/// Deepest bench accepted, from the shell and from the UCI `bench` command (the shallowest is 1).
pub const MAX_DEPTH: i32 = 64;

/// Bench positions: the CPW perft positions, Bratko–Kopec, LCT II, endgames and zugzwangs
/// (from the project's shared EPD corpora).
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "r3kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K2R w KQkq - 0 1",
    "1k1r3r/pp2qpp1/3b1n1p/3pNQ2/2pP1P2/2N1P3/PP4PP/1K1RR3 b - - 0 1",
    "r6k/pp4p1/2p1b3/3pP3/7q/P2B3r/1PP2Q1P/2K1R1R1 w - - 0 1",
    "1nr5/2rbkppp/p3p3/Np6/2PRPP2/8/PKP1B1PP/3R4 b - - 0 1",
    "2r2rk1/1p1bq3/p3p2p/3pPpp1/1P1Q4/P7/2P2PPP/2R1RBK1 b - - 0 1",
    "3r1bk1/p4ppp/Qp2p3/8/1P1B4/Pq2P1P1/2r2P1P/R3R1K1 b - - 0 1",
    "r1b2r1k/pp2q1pp/2p2p2/2p1n2N/4P3/1PNP2QP/1PP2RP1/5RK1 w - - 0 1",
    "r2qrnk1/pp3ppb/3b1n1p/1Pp1p3/2P1P2N/P5P1/1B1NQPBP/R4RK1 w - - 0 1",
    "5nk1/Q4bpp/5p2/8/P1n1PN2/q4P2/6PP/1R4K1 w - - 0 1",
    "r3k2r/3bbp1p/p1nppp2/5P2/1p1NP3/5NP1/PPPK3P/3R1B1R b kq - 0 1",
    "bn6/1q4n1/1p1p1kp1/2pPp1pp/1PP1P1P1/3N1P1P/4B1K1/2Q2N2 w - - 0 1",
    "3r2k1/pp2npp1/2rqp2p/8/3PQ3/1BR3P1/PP3P1P/3R2K1 b - - 0 1",
    "8/8/8/8/8/1K2B3/b6k/8 w - - 0 1",
    "8/8/8/8/5k2/3Kb3/8/1N6 w - - 0 1",
    "8/8/K7/5k2/3R4/8/7b/8 w - - 0 1",
    "8/8/2r5/6bk/8/8/6K1/8 b - - 0 1",
    "8/8/1k6/8/2R2R2/8/6K1/8 w - - 0 1",
    "K7/5N2/8/8/3p4/8/k7/8 w - - 0 1",
    "2k5/8/8/1q2K1n1/8/8/8/8 w - - 0 1",
    "8/8/3p1k2/8/8/6K1/8/4n3 w - - 0 1",
    "3k4/8/4K3/2R5/8/8/8/8 w - - 0 1",
    "1k6/7R/2K5/8/8/8/8/8 w - - 0 1",
    "8/3k4/8/8/3PK3/8/8/8 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
];

/// How to run the bench.
#[derive(Clone, Debug)]
pub struct Config {
    /// Search depth per position.
    pub depth: i32,
    /// The engine: threads, table size, `use_tt` (off only to measure what the table saves),
    /// ETC, the network.
    pub engine: EngineConfig,
    /// Give each thread its own table instead of sharing one.
    pub private_tt: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            depth: DEFAULT_DEPTH,
            engine: EngineConfig::default(),
            private_tt: false,
        }
    }
}

/// Runs the bench with a fresh table and returns `(nodes, milliseconds)`. With one thread
/// the node count is deterministic.
pub fn run(cfg: Config, verbose: bool) -> Result<(u64, u128), String> {
    let hash = cfg.engine.hash;
    let mut session = Session::new(cfg.engine)?;
    if cfg.private_tt {
        session.set_private_tables(hash)?;
    }
    let mut nodes = 0;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = Board::from_fen(fen, false).expect("bench positions are valid");
        let pos = Position::new(board);
        let limits = SearchLimits {
            depth: Some(cfg.depth),
            ..SearchLimits::default()
        };
        let lap = Instant::now();
        let result = session.search(&pos, limits);
        if verbose {
            eprintln!(
                "Position {:>2}/{}: {:>9} nodes {:>6} ms  bestmove {}  {fen}",
                i + 1,
                POSITIONS.len(),
                result.nodes,
                lap.elapsed().as_millis(),
                board.to_uci(result.best)
            );
        }
        nodes += result.nodes;
    }
    Ok((nodes, start.elapsed().as_millis().max(1)))
}

/// Runs the bench and prints its summary as Stockfish does.
pub fn print(cfg: Config) -> Result<(), String> {
    let (nodes, ms) = run(cfg, true)?;
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {nodes}");
    println!("Nodes/second    : {}", nodes as u128 * 1000 / ms);
    Ok(())
}
