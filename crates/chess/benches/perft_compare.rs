//! Perft speed: engram-chess against cozy-chess and shakmaty, same positions, same run.
//!
//! All three count leaves with bulk counting at the last ply (the number of legal moves is
//! added without playing them), copy-make, one thread. Every count is checked against the
//! published value (<https://www.chessprogramming.org/Perft_Results>) and the run aborts on a
//! mismatch.
//!
//! Each (engine, position) pair is measured `reps` times, the engines interleaved and their
//! order rotated every repetition so that machine noise hits all of them alike; the table
//! reports the median time of each pair as millions of nodes per second and our ratio
//! (`ours_nps / theirs_nps`) to each library. The total row is total nodes / sum of medians.
//!
//! ```text
//! cargo bench -p engram-chess --bench perft_compare            # 5 repetitions
//! cargo bench -p engram-chess --bench perft_compare -- 3       # 3 repetitions
//! PERFT_COMPARE_REPS=9 cargo bench -p engram-chess --bench perft_compare
//! ```

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Repetitions of each (engine, position) measurement when neither the argument nor the
/// environment variable says otherwise.
const DEFAULT_REPS: usize = 5;
const REPS_ENV: &str = "PERFT_COMPARE_REPS";

struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    expected: u64,
}

/// The positions of the Chess Programming Wiki "Perft Results" page (position 2 is Kiwipete).
const CASES: [Case; 6] = [
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
        expected: 119_060_324,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
        expected: 193_690_690,
    },
    Case {
        name: "cpw pos3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        depth: 7,
        expected: 178_633_661,
    },
    Case {
        name: "cpw pos4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        depth: 6,
        expected: 706_045_033,
    },
    Case {
        name: "cpw pos5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        depth: 5,
        expected: 89_941_194,
    },
    Case {
        name: "cpw pos6",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        depth: 5,
        expected: 164_075_551,
    },
];

const ENGINES: [&str; 3] = ["engram", "cozy-chess", "shakmaty"];

/// The position of one case, parsed once by each library.
struct Boards {
    engram: engram_chess::Board,
    cozy: cozy_chess::Board,
    shakmaty: Chess,
}

impl Boards {
    fn parse(case: &Case) -> Boards {
        let engram = engram_chess::Board::from_fen(case.fen, false)
            .unwrap_or_else(|e| panic!("engram-chess rejects {}: {e:?}", case.fen));
        let cozy = cozy_chess::Board::from_fen(case.fen, false)
            .unwrap_or_else(|e| panic!("cozy-chess rejects {}: {e:?}", case.fen));
        let shakmaty = case
            .fen
            .parse::<Fen>()
            .unwrap_or_else(|e| panic!("shakmaty rejects {}: {e:?}", case.fen))
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("shakmaty rejects {}: {e:?}", case.fen));
        Boards {
            engram,
            cozy,
            shakmaty,
        }
    }

    /// Perft with engine `engine` (an index into [`ENGINES`]).
    fn perft(&self, engine: usize, depth: u32) -> u64 {
        match engine {
            0 => engram_chess::perft(black_box(&self.engram), black_box(depth)),
            1 => cozy_perft(black_box(&self.cozy), black_box(depth)),
            2 => shakmaty::perft(black_box(&self.shakmaty), black_box(depth)),
            _ => unreachable!("no engine {engine}"),
        }
    }
}

/// The idiomatic cozy-chess perft: bulk counting at the last ply, clone + `play_unchecked`.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// Repetitions: the first numeric command-line argument, else `$PERFT_COMPARE_REPS`, else 5.
/// (`cargo bench` passes `--bench`, which is ignored.)
fn reps() -> usize {
    let from_arg = std::env::args().skip(1).find_map(|a| a.parse().ok());
    let from_env = || std::env::var(REPS_ENV).ok().and_then(|v| v.parse().ok());
    from_arg.or_else(from_env).unwrap_or(DEFAULT_REPS).max(1)
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64() / 1e6
}

fn main() -> ExitCode {
    let reps = reps();
    let boards: Vec<Boards> = CASES.iter().map(Boards::parse).collect();
    // times[case][engine] = one duration per repetition
    let mut times = vec![[const { Vec::new() }; ENGINES.len()]; CASES.len()];

    eprintln!(
        "perft_compare: {} positions x {} engines x {reps} repetitions",
        CASES.len(),
        ENGINES.len()
    );
    let mut failed = false;
    for rep in 0..reps {
        let started = Instant::now();
        for (c, (case, board)) in CASES.iter().zip(&boards).enumerate() {
            for k in 0..ENGINES.len() {
                let engine = (k + rep + c) % ENGINES.len();
                let t = Instant::now();
                let nodes = black_box(board.perft(engine, case.depth));
                let elapsed = t.elapsed();
                if nodes != case.expected {
                    eprintln!(
                        "MISMATCH: {} perft({}) of {} ({}) = {nodes}, expected {}",
                        ENGINES[engine], case.depth, case.name, case.fen, case.expected
                    );
                    failed = true;
                }
                times[c][engine].push(elapsed);
            }
        }
        eprintln!(
            "  repetition {}/{reps}: {:.1} s",
            rep + 1,
            started.elapsed().as_secs_f64()
        );
    }
    if failed {
        eprintln!("perft_compare: wrong node counts, no timings reported");
        return ExitCode::FAILURE;
    }

    println!();
    println!(
        "| position | depth | nodes | engram Mnps | cozy-chess Mnps | shakmaty Mnps | ratio vs cozy-chess | ratio vs shakmaty |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut total_nodes = 0u64;
    let mut total_time = [Duration::ZERO; ENGINES.len()];
    let mut worst_spread = [0f64; ENGINES.len()];
    for (case, case_times) in CASES.iter().zip(&mut times) {
        let mut rates = [0f64; ENGINES.len()];
        for (e, t) in case_times.iter_mut().enumerate() {
            let med = median(t);
            // t is sorted now: first = fastest, last = slowest
            let spread = t[t.len() - 1].as_secs_f64() / t[0].as_secs_f64() - 1.0;
            worst_spread[e] = worst_spread[e].max(spread);
            total_time[e] += med;
            rates[e] = mnps(case.expected, med);
        }
        total_nodes += case.expected;
        print_row(case.name, &case.depth.to_string(), case.expected, rates);
    }
    let total_rates: [f64; ENGINES.len()] =
        std::array::from_fn(|e| mnps(total_nodes, total_time[e]));
    print_row("**total**", "", total_nodes, total_rates);
    println!();
    println!("median of {reps} runs per cell; engine order rotated every run; all counts verified");
    println!(
        "largest (slowest/fastest - 1) over positions: engram {:.1}%, cozy-chess {:.1}%, shakmaty {:.1}%",
        worst_spread[0] * 100.0,
        worst_spread[1] * 100.0,
        worst_spread[2] * 100.0
    );
    ExitCode::SUCCESS
}

fn print_row(name: &str, depth: &str, nodes: u64, rates: [f64; ENGINES.len()]) {
    println!(
        "| {name} | {depth} | {nodes} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} |",
        rates[0],
        rates[1],
        rates[2],
        rates[0] / rates[1],
        rates[0] / rates[2]
    );
}
