//! Engram's learned evaluation: an efficiently updatable neural network (NNUE).
//!
//! - [`accumulator`]: the vectorised accumulator updates, refresh and output layer.
//! - [`features`]: the 768 inputs per perspective (piece × square).
//! - [`net`]: the quantised network `(768 → H) × 2 → 1` (with 1 to 16 output buckets chosen
//!   by material) and its validated file format.
//! - [`data`]: self-play games stored as moves and scores (3 bytes a position), and the
//!   32-byte positions the trainer reads.
//! - [`train`]: the trainer (float network, AdamW on CPU threads, quantisation).
//! - [`random`]: seeded random networks for tests, benchmarks and placeholders.
//! - [`rng`]: the seeded generator (SplitMix64) behind all of the crate's randomness.
#![deny(missing_docs)]

pub mod accumulator;
pub mod data;
pub mod features;
pub mod net;
pub mod random;
pub mod rng;
pub mod train;

pub use accumulator::Simd;
pub use features::{Layout, INPUTS};
pub use net::{Activation, NetError, Network};
