//! Engram's learned evaluation: an efficiently updatable neural network (NNUE), for inference.
//!
//! - [`accumulator`]: the vectorised accumulator updates, refresh and output layer.
//! - [`features`]: the inputs, 768 per perspective (piece × square) and per king bucket, in
//!   one of three layouts: plain, king-side mirrored, or king-mirrored with four king buckets
//!   (3,072 inputs).
//! - [`net`]: the quantised network `(I → H) × 2 → 1` (I = 768, or 3,072 with king buckets;
//!   1 to 16 output buckets chosen by material) and its validated file format. The network
//!   the engine embeds is `(768 → 384) × 2 → 1`, king-side mirrored, SCReLU, with 8 output
//!   buckets.
//!
//! The self-play data format, the trainer and random networks for tests are in
//! `engram-train`.
#![deny(missing_docs)]

pub mod accumulator;
pub mod features;
pub mod net;

pub use accumulator::Simd;
pub use features::{Layout, INPUTS};
pub use net::{Activation, NetError, Network};
