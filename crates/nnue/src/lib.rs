//! Engram's learned evaluation: an efficiently updatable neural network (NNUE).
//!
//! - [`accumulator`]: the vectorised accumulator updates, refresh and output layer.
//! - [`features`]: the inputs, 768 per perspective (piece × square) and per king bucket, in
//!   one of three layouts: plain, king-side mirrored, or king-mirrored with four king buckets
//!   (3,072 inputs).
//! - [`net`]: the quantised network `(I → H) × 2 → 1` (I = 768, or 3,072 with king buckets;
//!   1 to 16 output buckets chosen by material) and its validated file format. The network
//!   the engine embeds is `(768 → 384) × 2 → 1`, king-side mirrored, SCReLU, with 8 output
//!   buckets.
//! - [`data`]: self-play games stored as moves and scores (written in format version 4, about
//!   1.1 bytes a position; versions 1 to 3 are still read), and the 32-byte positions the
//!   trainer reads.
//! - [`train`]: the trainer (float network, AdamW on CPU threads, quantisation).
//! - [`random`]: seeded random networks for tests.
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
