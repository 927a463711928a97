//! The quantised network and its file format.
//!
//! Architecture: `(768 → H) × 2 → 1`, with `N` output buckets (1 to [`MAX_BUCKETS`]). One
//! feature transformer (weights `768 × H`, bias `H`) is shared by both perspectives; the side
//! to move's accumulator comes first in the output layer (weights `2H`, one bias). The hidden
//! activation is clipped ReLU (`clamp(x, 0, 1)`) or squared clipped ReLU (`clamp(x, 0, 1)²`).
//!
//! **Output buckets.** A network may have `N` output layers instead of one; a position uses
//! the one of its material, bucket [`output_bucket`]`(pieces, N) = ((pieces − 2) · N / 32)
//! .min(N − 1)` where `pieces` counts every piece on the board, kings included (2 to 32).
//! For N = 8 that is `(pieces − 2) / 4`: 2–5 pieces in bucket 0, …, 30–32 in bucket 7. The
//! feature transformer and the accumulators are shared, so the buckets cost nothing in an
//! incremental update. `N = 1` is the plain network, and its file is exactly the format's
//! before buckets existed.
//!
//! Quantisation (the trainer's floats to integers): feature-transformer weights and biases are
//! multiplied by [`QA`] = 255 and stored as `i16`; output weights by [`QB`] = 64 as `i16`; the
//! output bias by `QA · QB` as `i32`. The accumulators are `i16`, the output sum `i32` per half
//! (summed as `i64`). The evaluation in centipawns is
//!
//! - CReLU: `(Σ clamp(a, 0, QA) · w + bias) · SCALE / (QA · QB)`
//! - SCReLU: `(Σ clamp(a, 0, QA)² · w / QA + bias) · SCALE / (QA · QB)`
//!
//! with [`SCALE`] = 400: the network is trained to predict `sigmoid(cp / SCALE)`.
//!
//! The file (all integers little-endian) is a 64-byte header, then the payload:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `ENGRAMNN` |
//! | 8 | 4 | format version: 1, or 2 for a network with an input layout other than plain |
//! | 12 | 4 | inputs per perspective: 768, or 3,072 with king buckets |
//! | 16 | 4 | hidden size H |
//! | 20 | 1 | activation: 0 CReLU, 1 SCReLU |
//! | 21 | 1 | output buckets N: 0 for one (so older one-bucket files read as they are), else 1..=16 |
//! | 22 | 1 | input layout ([`Layout`]): 0 plain, 1 king-side mirrored, 2 king buckets; zero in version 1 |
//! | 23 | 1 | zero |
//! | 24 | 2 | QA · 26 2 QB · 28 2 SCALE |
//! | 30 | 2 | zero |
//! | 32 | 8 | payload length in bytes |
//! | 40 | 8 | xxh3-64 of the payload |
//! | 48 | 16 | zero |
//!
//! Payload: feature-transformer weights `i16[I][H]` for I inputs (feature-major: one feature's column of
//! H weights is contiguous, the unit of an incremental update), its bias `i16[H]`, output
//! weights `i16[N][2H]` (bucket-major; each bucket's side-to-move half first), output biases
//! `i32[N]`. With N = 1 that is output weights `i16[2H]` and one bias `i32`, as before
//! buckets. A writer stores one bucket as 0 in byte 21; a reader takes 0 and 1 both as one
//! bucket and refuses more than [`MAX_BUCKETS`]. A plain network is written as version 1
//! (byte for byte the format before layouts), any other as version 2, which older builds
//! refuse instead of misreading. A SCReLU network's output weights (every
//! bucket's) are within ±128 (the trainer clips them; inference relies on it).

use crate::features::{self, Layout, INPUTS};
use engram_chess::{Board, Color};
use std::fmt;
use xxhash_rust::xxh3::xxh3_64;

/// Scale of the feature transformer's weights and biases.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (before the sigmoid).
pub const SCALE: i32 = 400;
/// The newest file format version this code reads and writes (it reads 1 too).
pub const VERSION: u32 = 2;
/// The magic bytes a network file starts with.
pub const MAGIC: &[u8; 8] = b"ENGRAMNN";
/// Bytes in the header.
pub const HEADER_LEN: usize = 64;
/// Largest hidden size accepted from a file.
pub const MAX_HIDDEN: usize = 4096;
/// Most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;

/// The output bucket of a position with `pieces` pieces on the board (kings included) in a
/// network of `buckets` buckets (1 to [`MAX_BUCKETS`]):
/// `((pieces − 2) · buckets / 32).min(buckets − 1)`.
///
/// The 31 piece counts of real positions, 2 to 32, are spread evenly over the buckets (for 8
/// buckets, `(pieces − 2) / 4`). Counts outside that range (boards set up with more than 32
/// pieces, or without both kings) fall into the nearest end bucket. One bucket is always 0.
/// The trainer and the engine both call this, so they pick the same bucket.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    debug_assert!((1..=MAX_BUCKETS).contains(&buckets));
    (pieces.saturating_sub(2) as usize * buckets / 32).min(buckets.max(1) - 1)
}

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    CReLU,
    /// Squared clipped ReLU: `clamp(x, 0, 1)²`.
    SCReLU,
}

impl Activation {
    fn code(self) -> u8 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    fn from_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }

    /// Its name as the trainer's options spell it (`crelu`, `screlu`).
    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }
}

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// Shorter than its header, or than the payload the header announces.
    Truncated {
        /// Bytes expected.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Longer than the header says.
    TrailingBytes {
        /// Bytes expected.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Not a network file.
    BadMagic,
    /// A format version this build does not read.
    Version(u32),
    /// A shape this build does not support (inputs, hidden size, activation, constants).
    Shape(String),
    /// The payload's checksum does not match the header's.
    Checksum,
    /// Reading the file failed.
    Io(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { expected, found } => {
                write!(
                    f,
                    "network file truncated: {found} bytes, expected {expected}"
                )
            }
            NetError::TrailingBytes { expected, found } => write!(
                f,
                "network file has {found} bytes, expected {expected} (wrong size)"
            ),
            NetError::BadMagic => write!(f, "not an Engram network file (bad magic)"),
            NetError::Version(v) => write!(
                f,
                "network format version {v} is not supported (this build reads versions 1 to {VERSION})"
            ),
            NetError::Shape(s) => write!(f, "unsupported network shape: {s}"),
            NetError::Checksum => write!(f, "network file damaged: checksum mismatch"),
            NetError::Io(e) => write!(f, "cannot read network file: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

/// A quantised network, ready for inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Hidden size H (per perspective).
    pub hidden: usize,
    /// The hidden activation.
    pub activation: Activation,
    /// Feature-transformer weights, feature-major: `ft_weights[f * H + h]`.
    pub ft_weights: Vec<i16>,
    /// Feature-transformer bias, `H` values.
    pub ft_bias: Vec<i16>,
    /// Output buckets N (1 to [`MAX_BUCKETS`]): output layers chosen by material
    /// ([`output_bucket`]).
    pub buckets: usize,
    /// Output weights: `N · 2H` values, bucket by bucket (each `2H`, the side to move's half
    /// first; [`Network::bucket_weights`]).
    pub out_weights: Vec<i16>,
    /// Output biases (scaled by `QA · QB`), one per bucket.
    pub out_bias: Vec<i32>,
    /// How squares map to inputs ([`features::Layout`]).
    pub layout: Layout,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({} -> {} x 2 -> 1{}, {}{})",
            self.layout.inputs(),
            self.hidden,
            self.buckets_text(),
            self.activation.name(),
            self.layout_text()
        )
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().expect("2 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Network {
    /// The payload length in bytes for hidden size `hidden`, `buckets` output buckets and
    /// input layout `layout`.
    pub fn payload_len(hidden: usize, buckets: usize, layout: Layout) -> usize {
        2 * (layout.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
    }

    /// A network of zeros with `buckets` output buckets (every position evaluates to 0), for
    /// tests and as a shape template.
    pub fn zeros(hidden: usize, activation: Activation, buckets: usize) -> Network {
        Network {
            hidden,
            activation,
            ft_weights: vec![0; INPUTS * hidden],
            ft_bias: vec![0; hidden],
            buckets,
            out_weights: vec![0; buckets * 2 * hidden],
            out_bias: vec![0; buckets],
            layout: Layout::Plain,
        }
    }

    /// A copy with input layout `layout`; a layout with more inputs gets the current 768
    /// columns copied into each of its king buckets' blocks (tests then vary them).
    pub fn with_layout(mut self, layout: Layout) -> Network {
        let block = INPUTS * self.hidden;
        let first = self.ft_weights[..block].to_vec();
        self.ft_weights = first.repeat(layout.buckets());
        self.layout = layout;
        self
    }

    /// `", N output buckets"` for a network with more than one, else empty: the part of
    /// its shape every description (`Debug`, the trainer's report, the engine's
    /// `info string`) adds after the layers.
    pub fn buckets_text(&self) -> String {
        if self.buckets > 1 {
            format!(", {} output buckets", self.buckets)
        } else {
            String::new()
        }
    }

    /// `", king-mirrored"` (or `", king-buckets-4"`) for such a network, else empty: the part of its shape
    /// every description adds after the activation.
    pub fn layout_text(&self) -> String {
        match self.layout {
            Layout::Plain => String::new(),
            layout => format!(", {}", layout.name()),
        }
    }

    /// The output bucket of a position with `pieces` pieces (kings included):
    /// [`output_bucket`] with this network's bucket count.
    #[inline]
    pub fn bucket(&self, pieces: u32) -> usize {
        output_bucket(pieces, self.buckets)
    }

    /// The `2H` output weights of `bucket` (side to move's half first).
    #[inline]
    pub fn bucket_weights(&self, bucket: usize) -> &[i16] {
        let n = 2 * self.hidden;
        &self.out_weights[bucket * n..(bucket + 1) * n]
    }

    /// The file image: header and payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload =
            Vec::with_capacity(Self::payload_len(self.hidden, self.buckets, self.layout));
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.out_bias {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        let version: u32 = if self.layout == Layout::Plain { 1 } else { 2 };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.layout.inputs() as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.push(self.activation.code());
        // One bucket is written as 0: such a file is byte for byte the format before buckets.
        out.push(if self.buckets == 1 {
            0
        } else {
            self.buckets as u8
        });
        out.push(self.layout.code());
        out.push(0);
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(QB as u16).to_le_bytes());
        out.extend_from_slice(&(SCALE as u16).to_le_bytes());
        out.extend_from_slice(&[0; 2]);
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&xxh3_64(&payload).to_le_bytes());
        out.extend_from_slice(&[0; 16]);
        debug_assert_eq!(out.len(), HEADER_LEN);
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a network from its file image, checking the header, the size and the checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_LEN {
            if bytes.len() >= 8 && &bytes[..8] != MAGIC {
                return Err(NetError::BadMagic);
            }
            return Err(NetError::Truncated {
                expected: HEADER_LEN,
                found: bytes.len(),
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32_at(bytes, 8);
        if !(1..=VERSION).contains(&version) {
            return Err(NetError::Version(version));
        }
        let inputs = u32_at(bytes, 12) as usize;
        let hidden = u32_at(bytes, 16) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
            return Err(NetError::Shape(format!(
                "hidden size {hidden} (must be a multiple of 16, at most {MAX_HIDDEN})"
            )));
        }
        let activation = Activation::from_code(bytes[20])
            .ok_or_else(|| NetError::Shape(format!("activation code {}", bytes[20])))?;
        let buckets = match bytes[21] as usize {
            0 => 1,
            n if n <= MAX_BUCKETS => n,
            n => {
                return Err(NetError::Shape(format!(
                    "{n} output buckets (at most {MAX_BUCKETS})"
                )))
            }
        };
        let layout = match Layout::from_code(bytes[22]) {
            Some(layout) if version >= 2 || layout == Layout::Plain => layout,
            _ => {
                return Err(NetError::Shape(format!(
                    "input layout code {} in a version {version} file",
                    bytes[22]
                )))
            }
        };
        if inputs != layout.inputs() {
            return Err(NetError::Shape(format!(
                "{inputs} inputs, expected {} for a {} network",
                layout.inputs(),
                layout.name()
            )));
        }
        let (qa, qb, scale) = (u16_at(bytes, 24), u16_at(bytes, 26), u16_at(bytes, 28));
        if (qa as i32, qb as i32, scale as i32) != (QA, QB, SCALE) {
            return Err(NetError::Shape(format!(
                "quantisation QA {qa}, QB {qb}, scale {scale} (this build uses {QA}, {QB}, {SCALE})"
            )));
        }
        let declared = u64_at(bytes, 32);
        let expected = Self::payload_len(hidden, buckets, layout);
        if declared != expected as u64 {
            return Err(NetError::Shape(format!(
                "payload of {declared} bytes for hidden size {hidden} and {buckets} output \
                 buckets (expected {expected})"
            )));
        }
        let total = HEADER_LEN + expected;
        if bytes.len() < total {
            return Err(NetError::Truncated {
                expected: total,
                found: bytes.len(),
            });
        }
        if bytes.len() > total {
            return Err(NetError::TrailingBytes {
                expected: total,
                found: bytes.len(),
            });
        }
        let payload = &bytes[HEADER_LEN..];
        if xxh3_64(payload) != u64_at(bytes, 40) {
            return Err(NetError::Checksum);
        }
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let ft_weights = take(layout.inputs() * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(buckets * 2 * hidden);
        let out_bias = payload[expected - 4 * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let limit = crate::accumulator::MADD_WEIGHT_MAX;
        if activation == Activation::SCReLU
            && out_weights.iter().any(|w| !(-limit..=limit).contains(w))
        {
            return Err(NetError::Shape(format!(
                "an SCReLU output weight beyond ±{limit} (the trainer clips them)"
            )));
        }
        Ok(Network {
            hidden,
            activation,
            ft_weights,
            ft_bias,
            buckets,
            out_weights,
            out_bias,
            layout,
        })
    }

    /// Reads a network file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }

    /// One feature's column of `H` weights.
    #[inline(always)]
    pub fn column(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The accumulator of `board` from `perspective`, computed from scratch (bias plus the
    /// columns of the active features), with plain scalar code: the reference the engine's
    /// incremental, vectorised accumulators are tested against.
    pub fn refresh_scalar(&self, board: &Board, perspective: Color) -> Vec<i16> {
        let mut acc = self.ft_bias.clone();
        for f in features::active(board, perspective, self.layout) {
            for (a, &w) in acc.iter_mut().zip(self.column(f)) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    /// The output layer of `bucket` on two accumulators (side to move's first), in
    /// centipawns, with plain scalar code.
    pub fn output_scalar(&self, stm: &[i16], ntm: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let (w_stm, w_ntm) = self.bucket_weights(bucket).split_at(h);
        let mut sum: i64 = 0;
        for (acc, w) in [(stm, w_stm), (ntm, w_ntm)] {
            for (&a, &w) in acc.iter().zip(w) {
                let x = (a as i32).clamp(0, QA);
                sum += match self.activation {
                    Activation::CReLU => (x * w as i32) as i64,
                    Activation::SCReLU => (x * x * w as i32) as i64,
                };
            }
        }
        if self.activation == Activation::SCReLU {
            sum /= QA as i64;
        }
        ((sum + self.out_bias[bucket] as i64) * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of `board` in centipawns from the side to move's view, from scratch
    /// with scalar code (the reference; the engine updates accumulators incrementally),
    /// through the output bucket of the board's piece count.
    pub fn evaluate_scalar(&self, board: &Board) -> i32 {
        let us = board.side_to_move();
        let stm = self.refresh_scalar(board, us);
        let ntm = self.refresh_scalar(board, !us);
        self.output_scalar(&stm, &ntm, self.bucket(board.occupied().len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_with(buckets: usize) -> Network {
        let mut net = Network::zeros(16, Activation::SCReLU, buckets);
        for (i, w) in net.ft_weights.iter_mut().enumerate() {
            *w = ((i * 7919) % 61) as i16 - 30;
        }
        for (i, w) in net.out_weights.iter_mut().enumerate() {
            *w = ((i * 31) % 41) as i16 - 20;
        }
        net.ft_bias.fill(40);
        for (i, b) in net.out_bias.iter_mut().enumerate() {
            *b = 1234 - 1000 * i as i32;
        }
        net
    }

    fn sample() -> Network {
        sample_with(1)
    }

    #[test]
    fn round_trip() {
        let net = sample();
        let bytes = net.to_bytes();
        assert_eq!(
            bytes.len(),
            HEADER_LEN + Network::payload_len(16, 1, Layout::Plain)
        );
        assert_eq!(bytes[21], 0, "one bucket is written as 0");
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn round_trip_with_buckets() {
        let net = sample_with(8);
        let bytes = net.to_bytes();
        assert_eq!(
            bytes.len(),
            HEADER_LEN + Network::payload_len(16, 8, Layout::Plain)
        );
        assert_eq!(bytes[21], 8);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(
            back.out_bias,
            vec![1234, 234, -766, -1766, -2766, -3766, -4766, -5766]
        );
        assert_eq!(
            format!("{back:?}"),
            "Network(768 -> 16 x 2 -> 1, 8 output buckets, screlu)"
        );
        assert_eq!(
            format!("{:?}", sample()),
            "Network(768 -> 16 x 2 -> 1, screlu)"
        );
        // Byte 21 of 1 is one bucket too (a writer uses 0).
        let mut one = sample().to_bytes();
        one[21] = 1;
        assert_eq!(Network::from_bytes(&one).unwrap(), sample());
    }

    #[test]
    fn too_many_buckets_are_refused() {
        let mut net = sample_with(MAX_BUCKETS);
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
        net.buckets = MAX_BUCKETS + 1;
        net.out_weights = vec![0; net.buckets * 2 * net.hidden];
        net.out_bias = vec![0; net.buckets];
        let err = Network::from_bytes(&net.to_bytes()).unwrap_err();
        assert!(
            matches!(&err, NetError::Shape(s) if s.contains("17 output buckets")),
            "{err}"
        );
        // A bucket count the payload does not match.
        let mut bytes = sample_with(8).to_bytes();
        bytes[21] = 7;
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::Shape(_))
        ));
    }

    /// A file laid out by hand as the format was before output buckets (byte 21 zero, one
    /// output layer) loads, evaluates as one bucket, and is written back byte for byte.
    #[test]
    fn a_file_from_before_buckets_loads() {
        let h = 16;
        let net = sample();
        let mut payload = Vec::new();
        for v in net.ft_weights.iter().chain(&net.ft_bias) {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        for v in &net.out_weights[..2 * h] {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        payload.extend_from_slice(&1234i32.to_le_bytes());
        assert_eq!(payload.len(), 2 * (768 * h + h + 2 * h) + 4);
        let mut file = Vec::new();
        file.extend_from_slice(b"ENGRAMNN");
        file.extend_from_slice(&1u32.to_le_bytes());
        file.extend_from_slice(&768u32.to_le_bytes());
        file.extend_from_slice(&(h as u32).to_le_bytes());
        file.extend_from_slice(&[1, 0, 0, 0]);
        for v in [255u16, 64, 400, 0] {
            file.extend_from_slice(&v.to_le_bytes());
        }
        file.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        file.extend_from_slice(&xxh3_64(&payload).to_le_bytes());
        file.extend_from_slice(&[0; 16]);
        file.extend_from_slice(&payload);
        let loaded = Network::from_bytes(&file).unwrap();
        assert_eq!(loaded, net);
        assert_eq!(
            (loaded.buckets, loaded.out_bias.as_slice()),
            (1, &[1234][..])
        );
        assert_eq!(loaded.to_bytes(), file);
        for pieces in 0..40 {
            assert_eq!(loaded.bucket(pieces), 0);
        }
    }

    #[test]
    fn buckets_follow_the_piece_count() {
        for pieces in 2..=32 {
            assert_eq!(output_bucket(pieces, 1), 0);
            assert_eq!(
                output_bucket(pieces, 8),
                (pieces as usize - 2) / 4,
                "{pieces}"
            );
            assert_eq!(
                output_bucket(pieces, 2),
                (pieces >= 18) as usize,
                "{pieces}"
            );
        }
        for n in 1..=MAX_BUCKETS {
            // From 0 at 2 pieces to the last bucket at 32, never decreasing, none skipped.
            let all: Vec<usize> = (2..=32).map(|p| output_bucket(p, n)).collect();
            assert_eq!((all[0], all[30]), (0, n - 1), "{n} buckets");
            assert!(all.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
            // Boards set up beyond the range fall into the end buckets.
            assert_eq!(output_bucket(0, n), 0);
            assert_eq!(output_bucket(1, n), 0);
            assert_eq!(output_bucket(40, n), n - 1);
            assert_eq!(output_bucket(u32::MAX, n), n - 1);
        }
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(30, 8), 7);
    }

    #[test]
    fn each_bucket_has_its_own_output_layer() {
        let net = sample_with(8);
        let kpk = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
        let start = Board::startpos();
        // A one-bucket net with bucket b's output layer evaluates as the bucketed net on the
        // boards of bucket b: 3 pieces are bucket 0, 32 pieces bucket 7.
        for (board, bucket) in [(&kpk, 0), (&start, 7)] {
            assert_eq!(net.bucket(board.occupied().len()), bucket);
            let mut one = sample();
            one.out_weights = net.bucket_weights(bucket).to_vec();
            one.out_bias = vec![net.out_bias[bucket]];
            assert_eq!(one.evaluate_scalar(board), net.evaluate_scalar(board));
        }
        let us = start.side_to_move();
        let (stm, ntm) = (
            net.refresh_scalar(&start, us),
            net.refresh_scalar(&start, !us),
        );
        let outputs: std::collections::HashSet<i32> =
            (0..8).map(|b| net.output_scalar(&stm, &ntm, b)).collect();
        assert!(outputs.len() > 4, "buckets differ: {outputs:?}");
    }

    #[test]
    fn king_mirrored_layout_round_trips_as_version_2() {
        let plain = sample_with(8);
        let bytes = plain.to_bytes();
        assert_eq!(u32_at(&bytes, 8), 1, "a plain network keeps version 1");
        assert_eq!(bytes[22], 0);
        let mut net = plain.clone();
        net.layout = Layout::KingMirror;
        let bytes = net.to_bytes();
        assert_eq!(u32_at(&bytes, 8), 2);
        assert_eq!(bytes[22], 1);
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&net));
        // A layout code in a version 1 file, or an unknown code, is refused.
        let mut v1 = bytes.clone();
        v1[8] = 1;
        assert!(matches!(Network::from_bytes(&v1), Err(NetError::Shape(_))));
        let mut unknown = bytes.clone();
        unknown[22] = 3;
        assert!(matches!(
            Network::from_bytes(&unknown),
            Err(NetError::Shape(_))
        ));
        // The king-bucket code on a file of 768 inputs (its payload too short) is refused.
        let mut short = bytes;
        short[22] = 2;
        assert!(matches!(
            Network::from_bytes(&short),
            Err(NetError::Shape(_))
        ));
        // With the king on e1, White's features are mirrored: a network whose columns differ
        // between mirrored squares evaluates the two layouts differently, and a board and its
        // left-right mirror image the same.
        let board = Board::from_fen("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", false).unwrap();
        let mirror = Board::from_fen("3k4/8/8/8/8/8/6P1/3K4 w - - 0 1", false).unwrap();
        assert_ne!(plain.evaluate_scalar(&board), net.evaluate_scalar(&board));
        assert_eq!(net.evaluate_scalar(&board), net.evaluate_scalar(&mirror));
    }

    #[test]
    fn king_buckets_round_trip_with_four_blocks_of_inputs() {
        let net = sample_with(8).with_layout(Layout::KingBuckets4);
        assert_eq!(net.ft_weights.len(), 4 * INPUTS * 16);
        let bytes = net.to_bytes();
        assert_eq!((u32_at(&bytes, 8), bytes[22]), (2, 2));
        assert_eq!(u32_at(&bytes, 12) as usize, 4 * INPUTS);
        assert_eq!(
            bytes.len(),
            HEADER_LEN + Network::payload_len(16, 8, Layout::KingBuckets4)
        );
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&net));
        // A declared input count that does not match the layout is refused.
        let mut wrong = bytes.clone();
        wrong[12..16].copy_from_slice(&(INPUTS as u32).to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetError::Shape(_))
        ));
        // Every block a copy of the first: a king changing bucket changes nothing, and the
        // network evaluates as the king-mirrored one it came from.
        let km = Network {
            layout: Layout::KingMirror,
            ..sample_with(8)
        };
        let board = Board::from_fen("4k3/8/8/8/8/8/1P2K3/8 w - - 0 1", false).unwrap();
        assert_eq!(net.evaluate_scalar(&board), km.evaluate_scalar(&board));
    }

    #[test]
    fn damage_is_refused() {
        let bytes = sample().to_bytes();
        for len in [0, 7, 8, 63, 64, 100, bytes.len() - 1] {
            assert!(
                matches!(
                    Network::from_bytes(&bytes[..len]),
                    Err(NetError::Truncated { .. })
                ),
                "{len}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Network::from_bytes(&longer),
            Err(NetError::TrailingBytes { .. })
        ));
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + 100] ^= 1;
        assert_eq!(Network::from_bytes(&flipped), Err(NetError::Checksum));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(Network::from_bytes(&magic), Err(NetError::BadMagic));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(Network::from_bytes(&version), Err(NetError::Version(9)));
        let mut hidden = bytes.clone();
        hidden[16] = 32;
        assert!(matches!(
            Network::from_bytes(&hidden),
            Err(NetError::Shape(_))
        ));
        let mut act = bytes;
        act[20] = 7;
        assert!(matches!(Network::from_bytes(&act), Err(NetError::Shape(_))));
    }

    #[test]
    fn screlu_output_weights_are_bounded() {
        let mut net = sample();
        net.out_weights[5] = crate::accumulator::MADD_WEIGHT_MAX;
        net.out_weights[6] = -crate::accumulator::MADD_WEIGHT_MAX;
        assert!(Network::from_bytes(&net.to_bytes()).is_ok());
        net.out_weights[7] = i16::MIN;
        assert!(matches!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetError::Shape(_))
        ));
        // Every bucket is checked, the last one's last weight too.
        let mut net = sample_with(4);
        assert!(Network::from_bytes(&net.to_bytes()).is_ok());
        *net.out_weights.last_mut().unwrap() = crate::accumulator::MADD_WEIGHT_MAX + 1;
        assert!(matches!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetError::Shape(_))
        ));
        net.activation = Activation::CReLU;
        assert!(
            Network::from_bytes(&net.to_bytes()).is_ok(),
            "CReLU has no limit"
        );
    }

    #[test]
    fn symmetric() {
        let net = sample();
        let a = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let b = Board::from_fen(
            "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
            false,
        )
        .unwrap();
        for net in [net, sample_with(8)] {
            assert_eq!(net.evaluate_scalar(&a), net.evaluate_scalar(&b));
            assert_ne!(net.evaluate_scalar(&a), 0);
        }
    }
}
