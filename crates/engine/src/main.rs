//! The `engram` binary: without arguments, the UCI engine. Also
//! `engram perft <depth> [--fen FEN] [--chess960]` (a divide, as Stockfish's `go perft` prints)
//! and `engram bench [depth] [--no-tt] [--threads N] [--hash MiB] [--private-tt] [--lazy-smp]` (the search
//! signature and speed; the flags serve the TT and SMP measurements).

use engram::{bench, perft, uci};
use engram_chess::{Board, STARTPOS};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: engram                 (UCI engine)\n       engram perft <depth> [--fen FEN] [--chess960]\n       engram bench [depth] [--no-tt] [--threads N] [--hash MiB] [--private-tt] [--lazy-smp]";

fn perft_command(args: &[String]) -> Result<(), String> {
    let mut depth = None;
    let mut fen = STARTPOS.to_string();
    let mut chess960 = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                i += 1;
                fen = args.get(i).ok_or("--fen needs a FEN")?.clone();
            }
            "--chess960" => chess960 = true,
            s => {
                if depth.is_some() {
                    return Err(format!("unexpected argument '{s}'"));
                }
                let d: u32 = s.parse().map_err(|_| format!("bad depth '{s}'"))?;
                if d > perft::MAX_DEPTH {
                    return Err(format!("depth {d} is too deep (max {})", perft::MAX_DEPTH));
                }
                depth = Some(d);
            }
        }
        i += 1;
    }
    let depth = depth.ok_or("perft needs a depth")?;
    let board = Board::from_fen(&fen, chess960).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let total = perft::print_divide(&board, depth);
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn bench_command(args: &[String]) -> Result<(), String> {
    let mut cfg = bench::Config::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--no-tt" => cfg.use_tt = false,
            "--private-tt" => cfg.private_tt = true,
            "--lazy-smp" => cfg.lazy_smp = true,
            "--threads" => {
                let n = it.next().ok_or("--threads needs a number")?;
                cfg.threads = n.parse().map_err(|_| format!("bad thread count '{n}'"))?;
                if !(1..=1024).contains(&cfg.threads) {
                    return Err(format!("threads {} out of range 1..=1024", cfg.threads));
                }
            }
            "--hash" => {
                let n = it.next().ok_or("--hash needs a size in MiB")?;
                cfg.hash = n.parse().map_err(|_| format!("bad hash size '{n}'"))?;
            }
            d => {
                cfg.depth = d.parse().map_err(|_| format!("bad depth '{d}'"))?;
                if !(1..=64).contains(&cfg.depth) {
                    return Err(format!("depth {} out of range 1..=64", cfg.depth));
                }
            }
        }
    }
    bench::print(cfg)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        None => {
            uci::Engine::new().run();
            Ok(())
        }
        Some("-h") | Some("--help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
