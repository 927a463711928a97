//! The quantised network and its file format.
//!
//! Architecture: `(768 → H) × 2 → 1`. One feature transformer (weights `768 × H`, bias `H`) is
//! shared by both perspectives; the side to move's accumulator comes first in the output
//! layer (weights `2H`, one bias). The hidden activation is clipped ReLU (`clamp(x, 0, 1)`) or
//! squared clipped ReLU (`clamp(x, 0, 1)²`).
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
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | inputs (768) |
//! | 16 | 4 | hidden size H |
//! | 20 | 1 | activation: 0 CReLU, 1 SCReLU |
//! | 21 | 3 | zero |
//! | 24 | 2 | QA · 26 2 QB · 28 2 SCALE |
//! | 30 | 2 | zero |
//! | 32 | 8 | payload length in bytes |
//! | 40 | 8 | xxh3-64 of the payload |
//! | 48 | 16 | zero |
//!
//! Payload: feature-transformer weights `i16[768][H]` (feature-major: one feature's column of
//! H weights is contiguous, the unit of an incremental update), its bias `i16[H]`, output
//! weights `i16[2H]` (side to move's half first), output bias `i32`. A SCReLU network's
//! output weights are within ±128 (the trainer clips them; inference relies on it).

use crate::features::{self, INPUTS};
use engram_chess::{Board, Color};
use std::fmt;
use xxhash_rust::xxh3::xxh3_64;

/// Scale of the feature transformer's weights and biases.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (before the sigmoid).
pub const SCALE: i32 = 400;
/// The file format version this code reads and writes.
pub const VERSION: u32 = 1;
/// The magic bytes a network file starts with.
pub const MAGIC: &[u8; 8] = b"ENGRAMNN";
/// Bytes in the header.
pub const HEADER_LEN: usize = 64;
/// Largest hidden size accepted from a file.
pub const MAX_HIDDEN: usize = 4096;

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
                "network format version {v} is not supported (this build reads version {VERSION})"
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
    /// Output weights: `2H` values, the side to move's half first.
    pub out_weights: Vec<i16>,
    /// Output bias (scaled by `QA · QB`).
    pub out_bias: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network(768 -> {} x 2 -> 1, {})",
            self.hidden,
            self.activation.name()
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
    /// The payload length in bytes for hidden size `hidden`.
    pub fn payload_len(hidden: usize) -> usize {
        2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
    }

    /// A network of zeros (every position evaluates to 0), for tests and as a shape template.
    pub fn zeros(hidden: usize, activation: Activation) -> Network {
        Network {
            hidden,
            activation,
            ft_weights: vec![0; INPUTS * hidden],
            ft_bias: vec![0; hidden],
            out_weights: vec![0; 2 * hidden],
            out_bias: 0,
        }
    }

    /// The file image: header and payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(Self::payload_len(self.hidden));
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        payload.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.push(self.activation.code());
        out.extend_from_slice(&[0; 3]);
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
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let inputs = u32_at(bytes, 12) as usize;
        if inputs != INPUTS {
            return Err(NetError::Shape(format!(
                "{inputs} inputs, expected {INPUTS}"
            )));
        }
        let hidden = u32_at(bytes, 16) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
            return Err(NetError::Shape(format!(
                "hidden size {hidden} (must be a multiple of 16, at most {MAX_HIDDEN})"
            )));
        }
        let activation = Activation::from_code(bytes[20])
            .ok_or_else(|| NetError::Shape(format!("activation code {}", bytes[20])))?;
        let (qa, qb, scale) = (u16_at(bytes, 24), u16_at(bytes, 26), u16_at(bytes, 28));
        if (qa as i32, qb as i32, scale as i32) != (QA, QB, SCALE) {
            return Err(NetError::Shape(format!(
                "quantisation QA {qa}, QB {qb}, scale {scale} (this build uses {QA}, {QB}, {SCALE})"
            )));
        }
        let declared = u64_at(bytes, 32);
        let expected = Self::payload_len(hidden);
        if declared != expected as u64 {
            return Err(NetError::Shape(format!(
                "payload of {declared} bytes for hidden size {hidden} (expected {expected})"
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
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden);
        let out_bias = i32::from_le_bytes(payload[expected - 4..].try_into().expect("4 bytes"));
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
            out_weights,
            out_bias,
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
        for f in features::active(board, perspective) {
            for (a, &w) in acc.iter_mut().zip(self.column(f)) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    /// The output layer on two accumulators (side to move's first), in centipawns, with
    /// plain scalar code.
    pub fn output_scalar(&self, stm: &[i16], ntm: &[i16]) -> i32 {
        let h = self.hidden;
        let mut sum: i64 = 0;
        for (acc, w) in [(stm, &self.out_weights[..h]), (ntm, &self.out_weights[h..])] {
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
        ((sum + self.out_bias as i64) * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation of `board` in centipawns from the side to move's view, from scratch
    /// with scalar code (the reference; the engine updates accumulators incrementally).
    pub fn evaluate_scalar(&self, board: &Board) -> i32 {
        let us = board.side_to_move();
        let stm = self.refresh_scalar(board, us);
        let ntm = self.refresh_scalar(board, !us);
        self.output_scalar(&stm, &ntm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let mut net = Network::zeros(16, Activation::SCReLU);
        for (i, w) in net.ft_weights.iter_mut().enumerate() {
            *w = ((i * 7919) % 61) as i16 - 30;
        }
        for (i, w) in net.out_weights.iter_mut().enumerate() {
            *w = ((i * 31) % 41) as i16 - 20;
        }
        net.ft_bias.fill(40);
        net.out_bias = 1234;
        net
    }

    #[test]
    fn round_trip() {
        let net = sample();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_LEN + Network::payload_len(16));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
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
        assert_eq!(net.evaluate_scalar(&a), net.evaluate_scalar(&b));
        assert_ne!(net.evaluate_scalar(&a), 0);
    }
}
