//! The chess core's integration tests, one module a file, in one test binary: linked as a
//! binary apiece (the release profile's thin LTO), they cost some 15 s of CPU each in
//! `.ci/run`; one binary links once. One file's tests: `cargo test -p engram-chess --release
//! --test integration perft_suites::`.

#[path = "../common/mod.rs"]
mod common;

mod clocks;
mod crosscheck;
mod fen_fuzz;
mod gives_check;
mod perft_suites;
mod perft_table;
mod pgn;
mod pgn_fuzz;
mod san;
mod zobrist_keys;
