//! Self-play data: games stored as moves and scores, and the positions trained on.
//!
//! `engram datagen` writes **chunks**: files of whole games, each game its random opening
//! moves then, for every later ply, the move played and the search's score of the position
//! before it. A move is its rank among the legal moves (ordered by their 16-bit encoding) and
//! a score is an `i16`. Version 1 stores them as 3 bytes a position; version 2 range-codes
//! the same fields (`coded.rs`), about 1.7 bytes a position on self-play data (1.85× smaller
//! on five chunks of gen0 and gen5), and version 3 leaves out the scores of the positions the
//! trainer never learns from ([`trained_ply`]: the first 16 plies, positions in check, and
//! those whose move is a capture, en passant or promotion), about a third of them, for about
//! 1.4 bytes a position. Version 4 codes each scored move by its rank in a move order
//! (`order.rs`: captures and safe moves first, then the moves played most often so far in
//! the chunk) and rounds the scores to 4 cp ([`quantise_score`]: at most 2 cp off, without
//! bias), for about 1.1 bytes a position: a hundred million positions fit in about 110 MB,
//! and the data of a first net in a few tens of megabytes — small enough to keep in the
//! repository, from which every net can be retrained. All four versions are read; version 4
//! is written.
//!
//! The trainer replays the games ([`chunk::read_chunk`]) and keeps the positions worth learning
//! from ([`extract`]), packed into 32 bytes each ([`Packed`]).
//!
//! ## Chunk file (integers little-endian)
//!
//! A 72-byte header, then the games:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `ENGRAMGM` |
//! | 8 | 4 | format version (1 to 4) |
//! | 12 | 4 | games |
//! | 16 | 8 | scored positions (plies after the opening, summed over the games) |
//! | 24 | 8 | the seed of the run |
//! | 32 | 8 | the chunk's index in the run |
//! | 40 | 8 | nodes searched per move |
//! | 48 | 8 | generator: 0 for the hand-crafted evaluation, else the xxh3-64 of the net file |
//! | 56 | 8 | body length in bytes |
//! | 64 | 8 | xxh3-64 of the body |
//!
//! The body of version 1, each game: `u16` plies in all, `u8` opening plies (random, not
//! scored), `u8` result from White's view (0 Black won, 1 draw, 2 White won), `u8` how it
//! ended ([`End`]); then one byte per opening move; then three bytes per scored ply: the
//! move's byte and the score (`i16`, centipawns from the side to move's view; mate scores as
//! the engine gives them, ±(32000 − plies)).
//!
//! The body of version 2 holds the same fields in the same order, coded by an adaptive binary
//! range coder; its models are listed in `coded.rs`. The body of version 3 is version 2's
//! without the score of any position [`trained_ply`] refuses; those read back as
//! [`UNSCORED`]. Scored positions (the header's count) are still every ply after the opening.
//! The body of version 4 is version 3's with each scored move coded as its rank in the move
//! order rather than its index among the legal moves, and each stored score as a number of
//! 4 cp quanta; its scores read back as multiples of 4 ([`GameRecord::in_version`]).
//!
//! ## Which positions are trained on
//!
//! [`extract`] keeps the position before a scored ply unless: it is within the first
//! [`MIN_PLY`] plies of the game, the side to move is in check, the move played (the search's
//! best move) is a capture, en passant or promotion, or the score is a mate score
//! (|score| ≥ [`MATE_SCORE`]). [`extract_smoothed`] (the trainer's `--smooth N`) keeps the
//! same positions with each score replaced by the mean of the scores of that position and of
//! up to N − 1 later ones with the same side to move.

pub mod chunk;
mod coded;
mod order;
mod packed;
mod range;
mod record;

pub use chunk::{read_chunk, write_chunk, Chunk, ChunkHeader};
pub use packed::{extract, extract_smoothed, trained_ply, Packed, MATE_SCORE, MIN_PLY};
pub use record::{
    decode_move, encode_move, quantise_score, End, GameRecord, GameResult, SCORE_QUANTUM, UNSCORED,
};

use std::fmt;

/// Why a data file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataError {
    /// Not a chunk file.
    BadMagic,
    /// A format version this build does not read.
    Version(u32),
    /// The file ends early.
    Truncated {
        /// What was being read.
        what: &'static str,
    },
    /// The body does not match the header's checksum or length.
    Checksum,
    /// The body is consistent but its content is impossible (an illegal move index, a bad
    /// result code, counts that disagree with the header).
    Malformed {
        /// The game (0-based) in the chunk.
        game: usize,
        /// What is wrong.
        why: String,
    },
    /// Reading or writing the file failed.
    Io(String),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::BadMagic => write!(f, "not an Engram games chunk (bad magic)"),
            DataError::Version(v) => write!(f, "games chunk version {v} is not supported"),
            DataError::Truncated { what } => write!(f, "games chunk truncated (in {what})"),
            DataError::Checksum => write!(f, "games chunk damaged: checksum or length mismatch"),
            DataError::Malformed { game, why } => {
                write!(f, "games chunk malformed: game {game}: {why}")
            }
            DataError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DataError {}
