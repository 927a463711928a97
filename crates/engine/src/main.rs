//! The `engram` binary: without arguments, the UCI engine. Also
//! `engram perft <depth> [--fen FEN] [--chess960] [--hash MiB] [--threads N]` (a divide, as
//! Stockfish's `go perft` prints; optionally with a perft table and threads)
//! and `engram bench [depth] [--no-tt] [--threads N] [--hash MiB] [--private-tt] [--lazy-smp]`
//! (the search signature and speed; the flags serve the TT and SMP measurements). The
//! arguments are defined in [`engram::cli`]; `engram --help` lists them.

use clap::Parser;
use engram::cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Bad arguments: clap prints its message and exits with code 2; `--help` and
    // `--version` exit with 0.
    match Cli::parse().run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
