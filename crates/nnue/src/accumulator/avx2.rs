//! The AVX2 primitives (`std::arch`), behind safe wrappers that run the portable code on a
//! CPU without AVX2.

use super::portable;
use crate::net::Network;

/// `out = (input or out) + Σ adds - Σ subs` (slices of equal length, a multiple of 16).
#[inline(always)]
pub(super) fn update<const A: usize, const S: usize>(
    out: &mut [i16],
    input: Option<&[i16]>,
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    #[cfg(target_arch = "x86_64")]
    if super::has_avx2() {
        // SAFETY: the CPU has AVX2 (checked just above); the slices' lengths were checked
        // by the caller (`super::check`), which is all `imp::update` reads and writes.
        unsafe { imp::update(out, input, adds, subs) };
        return;
    }
    portable::update(out, input, adds, subs)
}

/// `acc = bias + Σ columns of features` (`acc.len()` is the hidden size, every feature's
/// column inside `ft_weights`).
pub(super) fn refresh(acc: &mut [i16], net: &Network, features: &[usize]) {
    #[cfg(target_arch = "x86_64")]
    if super::has_avx2() {
        // SAFETY: AVX2 is present; the caller checked `acc.len() == net.hidden` and that
        // every feature's column, `(f + 1) · hidden` values, lies inside `ft_weights`.
        unsafe { imp::refresh(acc, net, features) };
        return;
    }
    portable::refresh(acc, net, features)
}

/// The output layer's dot product of one half (see `portable::dot`).
pub(super) fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if super::has_avx2() {
        // SAFETY: AVX2 is present; the caller checked both slices have the same length, a
        // multiple of 16.
        return unsafe { imp::dot::<SQUARE>(acc, w) };
    }
    portable::dot::<SQUARE>(acc, w)
}

#[cfg(target_arch = "x86_64")]
mod imp {
    use super::super::OUTPUT_BLOCK;
    use crate::net::{Network, QA};
    use std::arch::x86_64::*;

    /// Registers of one refresh tile (8 × 16 values), kept in registers over all columns.
    const TILE: usize = 8;

    /// The `i`-th 16-value vector of `s`.
    ///
    /// # Safety
    /// AVX2 is present and `16 · (i + 1) ≤ s.len()`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(s: &[i16], i: usize) -> __m256i {
        debug_assert!(16 * (i + 1) <= s.len());
        // SAFETY: in bounds (the caller's contract); `loadu` needs no alignment.
        unsafe { _mm256_loadu_si256(s.as_ptr().add(16 * i) as *const __m256i) }
    }

    /// # Safety
    /// AVX2 is present and every slice is as long as `out`, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update<const A: usize, const S: usize>(
        out: &mut [i16],
        input: Option<&[i16]>,
        adds: [&[i16]; A],
        subs: [&[i16]; S],
    ) {
        for i in 0..out.len() / 16 {
            // SAFETY: `i < len / 16` and all slices have `out`'s length (the contract).
            unsafe {
                let mut v = load(input.unwrap_or(out), i);
                for a in adds {
                    v = _mm256_add_epi16(v, load(a, i));
                }
                for s in subs {
                    v = _mm256_sub_epi16(v, load(s, i));
                }
                _mm256_storeu_si256(out.as_mut_ptr().add(16 * i) as *mut __m256i, v);
            }
        }
    }

    /// Bias plus columns for `R` registers from register `start`.
    ///
    /// # Safety
    /// AVX2 is present, `16 · (start + R) ≤ net.hidden == acc.len()`, every feature's column
    /// inside `ft_weights`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn tile<const R: usize>(
        acc: &mut [i16],
        net: &Network,
        features: &[usize],
        start: usize,
    ) {
        let h = net.hidden;
        // SAFETY: every index is below `start + R` registers within a column of `h` values
        // (the contract), and the columns lie inside `ft_weights` (the contract).
        unsafe {
            let mut r = [_mm256_setzero_si256(); R];
            for (k, reg) in r.iter_mut().enumerate() {
                *reg = load(&net.ft_bias, start + k);
            }
            for &f in features {
                let col = &net.ft_weights[f * h..(f + 1) * h];
                for (k, reg) in r.iter_mut().enumerate() {
                    *reg = _mm256_add_epi16(*reg, load(col, start + k));
                }
            }
            for (k, reg) in r.iter().enumerate() {
                _mm256_storeu_si256(acc.as_mut_ptr().add(16 * (start + k)) as *mut __m256i, *reg);
            }
        }
    }

    /// # Safety
    /// AVX2 is present, `acc.len() == net.hidden` (a multiple of 16), and every feature's
    /// column lies inside `net.ft_weights` (`(f + 1) · hidden ≤ len`).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn refresh(acc: &mut [i16], net: &Network, features: &[usize]) {
        let regs = net.hidden / 16;
        let mut start = 0;
        // SAFETY: each tile ends at or before `regs` registers (the contract's bound).
        unsafe {
            while start + TILE <= regs {
                tile::<TILE>(acc, net, features, start);
                start += TILE;
            }
            while start < regs {
                tile::<1>(acc, net, features, start);
                start += 1;
            }
        }
    }

    /// # Safety
    /// AVX2 is present; `acc` and `w` have the same length, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16]) -> i64 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut total = 0i64;
        for (ab, wb) in acc.chunks(OUTPUT_BLOCK).zip(w.chunks(OUTPUT_BLOCK)) {
            let mut sum = zero;
            for i in 0..ab.len() / 16 {
                // SAFETY: `i < len / 16` and both blocks have the same length.
                let (a, wv) = unsafe { (load(ab, i), load(wb, i)) };
                let x = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let p = if SQUARE {
                    _mm256_madd_epi16(_mm256_mullo_epi16(x, wv), x)
                } else {
                    _mm256_madd_epi16(x, wv)
                };
                sum = _mm256_add_epi32(sum, p);
            }
            let mut lanes = [0i32; 8];
            // SAFETY: `lanes` holds exactly 8 `i32`, 32 bytes.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
            total += lanes.iter().map(|&l| l as i64).sum::<i64>();
        }
        total
    }
}
