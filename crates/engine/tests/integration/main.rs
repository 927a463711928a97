//! The engine's integration tests, one module a file, in one test binary: `.ci/run`'s release
//! build linked each test file as its own binary (with the release profile's thin LTO, some
//! 14 s of CPU apiece), and one binary links once. Run one file's tests with a filter, e.g.
//! `cargo test -p engram --release --test integration uci_protocol::`.
//!
//! Three files stay binaries of their own: `tablebases.rs` (it sets the process-wide
//! tablebase path, which would reach the in-process searches here), and the feature-gated
//! `tune.rs` and `cluster.rs`.

#[path = "../common/mod.rs"]
mod common;

mod analyse;
mod book;
mod cli_args;
mod datagen;
mod faults;
mod faults_mem;
mod fine70;
mod fit_wdl;
mod hash_files;
mod mates;
mod nnue_options;
mod options_table;
mod perft_cli;
mod soak;
mod strength_limit;
mod structure;
mod threads;
mod uci_fuzz;
mod uci_protocol;
