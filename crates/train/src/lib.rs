//! Engram's network training: the self-play data the network learns from, and the trainer
//! that fits it on the CPU and quantises it to an [`engram_nnue::Network`].
//!
//! - [`data`]: self-play games stored as moves and scores (chunk files, format version 4,
//!   about 1.1 bytes a position), and the 32-byte positions the trainer reads.
//! - [`run`] (re-exported here): [`TrainParams`], [`TrainConfig`], the validation splits,
//!   [`fit`], [`fit_split`] and a whole run, [`train`].
//! - [`float_net`]: the network in `f32` (with its output buckets and the king buckets'
//!   factoriser), its forward pass and quantisation.
//! - [`loss`]: `(sigmoid(out) − t)²` with `t = λ · result + (1 − λ) · sigmoid(score / 400)`;
//!   **λ (`wdl`) weights the game result** (bullet's convention; nnue-pytorch's is the opposite).
//! - [`grad`]: gradients over a batch, split across threads, reduced in a fixed order.
//! - [`adamw`]: AdamW with weights clipped to ±1.98; [`schedule`]: a step drop of the rate.
//! - [`loader`]: positions from directories of games chunks; [`synthetic`]: random positions
//!   scored by material, for tests and speed measurements.
//! - [`report`], [`plot`]: per-epoch reports, the JSON summary and the SVG loss plot.
//! - [`rng`]: the seeded generator (SplitMix64) behind all of the crate's randomness (and
//!   the engine's self-play openings); [`random`]: seeded random networks for tests.
//!
//! A run is deterministic: the same data, settings, seed and thread count give the same
//! network, byte for byte.
#![deny(missing_docs)]

pub mod adamw;
pub mod data;
pub mod float_net;
pub mod grad;
pub mod loader;
pub mod loss;
pub mod plot;
pub mod random;
pub mod report;
pub mod rng;
pub mod run;
pub mod schedule;
pub mod synthetic;

pub use adamw::{AdamW, AdamWConfig};
pub use float_net::FloatNet;
pub use loader::{load_dir, LoadReport, Loaded};
pub use report::{EpochReport, TrainReport};
pub use run::{
    fit, fit_split, split, split_games, train, Fit, Progress, TrainConfig, TrainParams,
    DEFAULT_BATCH, DEFAULT_BUCKETS, DEFAULT_EPOCHS, DEFAULT_HIDDEN, DEFAULT_LR,
    DEFAULT_VAL_FRACTION, MAX_SMOOTH,
};
