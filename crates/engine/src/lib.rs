//! Engram: a UCI chess engine built around its transposition table. This library holds the
//! search, evaluation, time management and the UCI protocol; `main.rs` is the thin binary.
//! The `datagen` and `train` subcommands (`datagen`, `train_cmd`) need the `train` feature
//! (on by default), which links the training crate, `engram-train`.

pub mod analyse;
pub mod args;
pub mod bench;
pub mod cli;
pub mod cluster;
pub mod config;
#[cfg(feature = "train")]
pub mod datagen;
pub mod eval;
pub mod hashfile;
pub mod options;
pub mod perft;
pub mod pool;
pub mod random;
pub mod search;
pub mod session;
pub mod tablebase;
pub mod time;
#[cfg(feature = "train")]
pub mod train_cmd;
pub mod uci;
#[cfg(feature = "train")]
pub mod wdl_fit;

/// Engine name and version, as `id name` reports it.
pub const NAME: &str = concat!("Engram ", env!("CARGO_PKG_VERSION"));
