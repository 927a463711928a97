//! The command-line arguments that several subcommands share, declared once: the parsers of
//! `--threads` and `--hash` and the [`EngineArgs`] that `bench` and `analyse` flatten in.
//! A leaf module (the subcommands' own argument structs use it; `cli` uses them), so that the
//! command line and its subcommands do not import each other.

use crate::config::EngineConfig;
use crate::options::{HASH_MAX, THREADS_MAX};
use clap::builder::RangedU64ValueParser;
use clap::Args;

/// The parser of every `--threads`: 1 to the `Threads` option's maximum.
pub fn threads_parser() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=THREADS_MAX as u64)
}

/// The parser of every `--hash` (MiB): `min` to the `Hash` option's maximum.
pub fn hash_parser(min: u64) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(min..=HASH_MAX as u64)
}

/// `--threads` and `--hash` of the subcommands that search as the engine does (`bench`,
/// `analyse`): the UCI options `Threads` and `Hash`, declared once.
#[derive(Clone, Copy, Debug, Args)]
pub struct EngineArgs {
    /// Search threads (the UCI option `Threads`).
    #[arg(
        long,
        value_name = "N",
        default_value_t = EngineConfig::default().threads,
        value_parser = threads_parser(),
    )]
    pub threads: usize,
    /// Table size in MiB (the UCI option `Hash`).
    #[arg(
        long,
        value_name = "MiB",
        default_value_t = EngineConfig::default().hash,
        value_parser = hash_parser(1),
    )]
    pub hash: usize,
}
