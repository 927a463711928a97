//! The accumulator primitives of inference, on `i16` slices of the hidden size `H` (a
//! multiple of 16): adding and subtracting feature columns (alone, or fused for the cases of
//! a quiet move, a capture, and castling or a promotion with capture), a refresh from
//! scratch, and the output layer.
//!
//! Each primitive has two implementations, chosen by [`Simd`]:
//!
//! - [`Simd::Portable`]: plain loops over fixed-width chunks that LLVM vectorises for the
//!   build's target (SSE2 on a generic x86-64 build, wider with `-C target-cpu=native`);
//! - [`Simd::Avx2`]: `std::arch` AVX2 intrinsics (`accumulator/avx2.rs`), used when the CPU
//!   has AVX2 (detected once at run time), whatever the build's target.
//!
//! The free functions use [`Simd::detect`]. Both give exactly the results of the scalar
//! references [`Network::refresh_scalar`] and [`Network::output_scalar`] (arithmetic on the
//! accumulators wraps, as there).
//!
//! The SCReLU output uses `(clamp(x)·w)·clamp(x)` with the first product in `i16` (`pmullw`,
//! then `pmaddwd`): exact while every output weight is in `-128..=128` (255 · 128 fits an
//! `i16`), which [`Network::from_bytes`] checks for SCReLU networks ([`MADD_WEIGHT_MAX`]).

mod avx2;
mod portable;
#[cfg(test)]
mod tests;

use crate::net::{Activation, Network, QA, QB, SCALE};
use std::sync::atomic::{AtomicU8, Ordering};

/// Largest output-weight magnitude of a SCReLU network: `QA · w` must fit an `i16`.
pub const MADD_WEIGHT_MAX: i16 = 128;

/// Elements of one output block: its `i32` lane sums cannot overflow (64 steps of 16 lanes,
/// each step adding at most `2 · 255 · 255 · 128` to a lane); blocks are summed as `i64`.
const OUTPUT_BLOCK: usize = 1024;

/// Which implementation the primitives run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simd {
    /// Portable loops, vectorised by the compiler for the build's target.
    Portable,
    /// AVX2 intrinsics; falls back to [`Simd::Portable`] on a CPU without AVX2.
    Avx2,
}

/// 0: not yet detected, 1: no AVX2, 2: AVX2.
static AVX2: AtomicU8 = AtomicU8::new(0);

/// Whether this CPU has AVX2 (detected once, then cached).
#[inline]
pub fn has_avx2() -> bool {
    match AVX2.load(Ordering::Relaxed) {
        0 => {
            #[cfg(target_arch = "x86_64")]
            let yes = std::arch::is_x86_feature_detected!("avx2");
            #[cfg(not(target_arch = "x86_64"))]
            let yes = false;
            AVX2.store(1 + yes as u8, Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}

impl Simd {
    /// The fastest implementation this CPU runs: AVX2 if present, else portable.
    #[inline]
    pub fn detect() -> Simd {
        if has_avx2() {
            Simd::Avx2
        } else {
            Simd::Portable
        }
    }

    /// Whether the AVX2 code is asked for (its wrappers check that the CPU has it).
    #[inline(always)]
    fn avx2(self) -> bool {
        self == Simd::Avx2
    }

    /// `acc += col`.
    #[inline]
    pub fn add_column(self, acc: &mut [i16], col: &[i16]) {
        check(acc.len(), &[col]);
        if self.avx2() {
            avx2::update(acc, None, [col], []);
        } else {
            portable::update(acc, None, [col], []);
        }
    }

    /// `acc -= col`.
    #[inline]
    pub fn sub_column(self, acc: &mut [i16], col: &[i16]) {
        check(acc.len(), &[col]);
        if self.avx2() {
            avx2::update(acc, None, [], [col]);
        } else {
            portable::update(acc, None, [], [col]);
        }
    }

    /// `out = input + add - sub` (a quiet move: the piece leaves one square for another).
    #[inline]
    pub fn add_sub(self, out: &mut [i16], input: &[i16], add: &[i16], sub: &[i16]) {
        self.update(out, input, [add], [sub]);
    }

    /// `out = input + add - sub1 - sub2` (a capture, en passant included).
    #[inline]
    pub fn add_sub_sub(
        self,
        out: &mut [i16],
        input: &[i16],
        add: &[i16],
        sub1: &[i16],
        sub2: &[i16],
    ) {
        self.update(out, input, [add], [sub1, sub2]);
    }

    /// `out = input + add1 + add2 - sub1 - sub2` (castling; a promotion with capture).
    #[inline]
    pub fn add_add_sub_sub(
        self,
        out: &mut [i16],
        input: &[i16],
        adds: [&[i16]; 2],
        subs: [&[i16]; 2],
    ) {
        self.update(out, input, adds, subs);
    }

    /// `out = input + Σ adds - Σ subs`, for `A` and `S` columns fixed at compile time.
    #[inline(always)]
    fn update<const A: usize, const S: usize>(
        self,
        out: &mut [i16],
        input: &[i16],
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        check(out.len(), &[input]);
        check(out.len(), &adds);
        check(out.len(), &subs);
        if self.avx2() {
            avx2::update(out, Some(input), adds, subs);
        } else {
            portable::update(out, Some(input), adds, subs);
        }
    }

    /// `acc = net's bias + the columns of features` (an accumulator from scratch).
    #[inline]
    pub fn refresh(self, acc: &mut [i16], net: &Network, features: &[usize]) {
        assert_eq!(
            acc.len(),
            net.hidden,
            "accumulator length is the hidden size"
        );
        // Every feature's column lies inside the weights (what the AVX2 refresh relies on).
        assert!(features
            .iter()
            .all(|&f| (f + 1) * net.hidden <= net.ft_weights.len()));
        if self.avx2() {
            avx2::refresh(acc, net, features);
        } else {
            portable::refresh(acc, net, features);
        }
    }

    /// The output layer of `bucket` (see [`Network::bucket`]) on two accumulators (side to
    /// move's first), in centipawns: the same value as [`Network::output_scalar`] (for
    /// SCReLU given output weights within ±[`MADD_WEIGHT_MAX`], as loaded networks have).
    #[inline]
    pub fn output(self, net: &Network, stm: &[i16], ntm: &[i16], bucket: usize) -> i32 {
        let h = net.hidden;
        assert!(stm.len() == h && ntm.len() == h && net.out_weights.len() == net.buckets * 2 * h);
        let (w_stm, w_ntm) = net.bucket_weights(bucket).split_at(h);
        let mut sum = match net.activation {
            Activation::CReLU => self.crelu_sum(stm, w_stm) + self.crelu_sum(ntm, w_ntm),
            Activation::SCReLU => {
                (self.screlu_sum(stm, w_stm) + self.screlu_sum(ntm, w_ntm)) / QA as i64
            }
        };
        sum += net.out_bias[bucket] as i64;
        (sum * SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// `Σ clamp(acc, 0, QA) · w`.
    #[inline]
    pub fn crelu_sum(self, acc: &[i16], w: &[i16]) -> i64 {
        check(acc.len(), &[w]);
        if self.avx2() {
            avx2::dot::<false>(acc, w)
        } else {
            portable::dot::<false>(acc, w)
        }
    }

    /// `Σ clamp(acc, 0, QA)² · w` (with `|w| ≤` [`MADD_WEIGHT_MAX`]).
    #[inline]
    pub fn screlu_sum(self, acc: &[i16], w: &[i16]) -> i64 {
        check(acc.len(), &[w]);
        if self.avx2() {
            avx2::dot::<true>(acc, w)
        } else {
            portable::dot::<true>(acc, w)
        }
    }
}

/// Every slice as long as the accumulator, a multiple of 16 (what the chunked loops assume).
#[inline(always)]
fn check(len: usize, others: &[&[i16]]) {
    assert!(
        len.is_multiple_of(16),
        "length {len} is not a multiple of 16"
    );
    for o in others {
        assert_eq!(o.len(), len, "slices of different lengths");
    }
}

/// `acc += col` with [`Simd::detect`].
pub fn add_column(acc: &mut [i16], col: &[i16]) {
    Simd::detect().add_column(acc, col)
}

/// `acc -= col` with [`Simd::detect`].
pub fn sub_column(acc: &mut [i16], col: &[i16]) {
    Simd::detect().sub_column(acc, col)
}

/// `out = input + add - sub` with [`Simd::detect`].
pub fn add_sub(out: &mut [i16], input: &[i16], add: &[i16], sub: &[i16]) {
    Simd::detect().add_sub(out, input, add, sub)
}

/// `out = input + add - sub1 - sub2` with [`Simd::detect`].
pub fn add_sub_sub(out: &mut [i16], input: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    Simd::detect().add_sub_sub(out, input, add, sub1, sub2)
}

/// `out = input + add1 + add2 - sub1 - sub2` with [`Simd::detect`].
pub fn add_add_sub_sub(out: &mut [i16], input: &[i16], adds: [&[i16]; 2], subs: [&[i16]; 2]) {
    Simd::detect().add_add_sub_sub(out, input, adds, subs)
}

/// An accumulator from scratch with [`Simd::detect`].
pub fn refresh(acc: &mut [i16], net: &Network, features: &[usize]) {
    Simd::detect().refresh(acc, net, features)
}

/// The output layer of `bucket` with [`Simd::detect`].
pub fn output(net: &Network, stm: &[i16], ntm: &[i16], bucket: usize) -> i32 {
    Simd::detect().output(net, stm, ntm, bucket)
}
