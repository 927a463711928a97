//! Self-play data: games stored as moves and scores, and the positions trained on.
//!
//! `engram datagen` writes **chunks**: files of whole games, each game its random opening
//! moves then, for every later ply, the move played and the search's score of the position
//! before it. The games are range-coded (`coded.rs`, which lists the models): an opening move
//! as its index among the legal moves (ordered by their 16-bit encoding), a later move as its
//! rank in a move order (`order.rs`: captures and safe moves first, then the moves played
//! most often so far in the chunk), and a score only for the positions the trainer learns
//! from ([`trained_ply`]: not the first 16 plies, positions in check, or those whose move is
//! a capture, en passant or promotion; about a third of all positions are left out),
//! rounded to 4 cp ([`quantise_score`]: at most 2 cp off, without bias). That is about 1.1
//! bytes a position: a hundred million positions fit in about 110 MB, and the data of a
//! first net in a few tens of megabytes — small enough to keep in the repository, from which
//! every net can be retrained.
//!
//! This is format version 4, the one read and written. Versions 1 to 3 (3, 1.7 and 1.4 bytes
//! a position) are no longer read: every chunk in `data/selfplay` is version 4, and older
//! images in the git history are read (and rewritten in version 4 by `engram datagen
//! --recode`) by the code of commit 98c958f and before.
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
//! | 8 | 4 | format version (4) |
//! | 12 | 4 | games |
//! | 16 | 8 | scored positions (plies after the opening, summed over the games) |
//! | 24 | 8 | the seed of the run |
//! | 32 | 8 | the chunk's index in the run |
//! | 40 | 8 | nodes searched per move |
//! | 48 | 8 | generator: 0 for the hand-crafted evaluation, else the xxh3-64 of the net file |
//! | 56 | 8 | body length in bytes |
//! | 64 | 8 | xxh3-64 of the body |
//!
//! The body holds, for each game in turn: the plies in all, the opening (random, unscored)
//! plies, the result from White's view (0 Black won, 1 draw, 2 White won), how it ended
//! ([`End`]), the opening moves, then for each scored ply its move and, for a position
//! [`trained_ply`] accepts, its score (centipawns from the side to move's view, a multiple of
//! 4; mate scores as the engine gives them, ±(32000 − plies), rounded). The scores not stored
//! read back as [`UNSCORED`] ([`GameRecord::as_stored`]). Scored positions (the header's
//! count) are every ply after the opening.
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
    /// A format version this build does not read (it reads version 4 only).
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
            DataError::Version(v) => write!(
                f,
                "games chunk version {v} is not supported (this build reads version {})",
                chunk::VERSION
            ),
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
