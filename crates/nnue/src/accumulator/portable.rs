//! The portable primitives: loops over fixed-width chunks that LLVM vectorises for the
//! build's target.

use super::OUTPUT_BLOCK;
use crate::net::{Network, QA};

/// `i16` lanes per step (two SSE2 registers, one AVX2 register).
const W: usize = 16;
/// `i16` values of one refresh tile, kept in registers while every column is added.
const TILE: usize = 64;

/// `out = (input or out) + Σ adds - Σ subs`, chunk by chunk.
#[inline(always)]
pub(super) fn update<const A: usize, const S: usize>(
    out: &mut [i16],
    input: Option<&[i16]>,
    adds: [&[i16]; A],
    subs: [&[i16]; S],
) {
    let n = out.len();
    let mut input = input.map(|s| s[..n].chunks_exact(W));
    let mut adds = adds.map(|s| s[..n].chunks_exact(W));
    let mut subs = subs.map(|s| s[..n].chunks_exact(W));
    for o in out.chunks_exact_mut(W) {
        let mut v: [i16; W] = match &mut input {
            Some(inp) => inp
                .next()
                .expect("same length")
                .try_into()
                .expect("W values"),
            None => (&*o).try_into().expect("W values"),
        };
        for a in adds.iter_mut() {
            let a = a.next().expect("same length");
            for k in 0..W {
                v[k] = v[k].wrapping_add(a[k]);
            }
        }
        for s in subs.iter_mut() {
            let s = s.next().expect("same length");
            for k in 0..W {
                v[k] = v[k].wrapping_sub(s[k]);
            }
        }
        o.copy_from_slice(&v);
    }
}

/// One tile of `N` values from `start`: bias plus every feature's column.
#[inline(always)]
fn tile<const N: usize>(acc: &mut [i16], net: &Network, features: &[usize], start: usize) {
    let h = net.hidden;
    let mut t: [i16; N] = net.ft_bias[start..start + N].try_into().expect("N values");
    for &f in features {
        let c = &net.ft_weights[f * h + start..f * h + start + N];
        for k in 0..N {
            t[k] = t[k].wrapping_add(c[k]);
        }
    }
    acc[start..start + N].copy_from_slice(&t);
}

/// `acc = bias + Σ columns`, a tile of [`TILE`] values at a time (16 at the end).
pub(super) fn refresh(acc: &mut [i16], net: &Network, features: &[usize]) {
    let h = net.hidden;
    let mut start = 0;
    while start + TILE <= h {
        tile::<TILE>(acc, net, features, start);
        start += TILE;
    }
    while start < h {
        tile::<W>(acc, net, features, start);
        start += W;
    }
}

/// `Σ clamp(a, 0, QA)² · w` (`SQUARE`, through `(x·w as i16)·x`) or `Σ clamp(a, 0, QA) · w`,
/// in `i32` lanes summed pairwise (the `pmaddwd` shape) per block, blocks summed as `i64`.
pub(super) fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16]) -> i64 {
    let mut total = 0i64;
    for (ab, wb) in acc.chunks(OUTPUT_BLOCK).zip(w.chunks(OUTPUT_BLOCK)) {
        let mut lanes = [0i32; W / 2];
        for (a, w) in ab.chunks_exact(W).zip(wb.chunks_exact(W)) {
            let mut x = [0i16; W];
            let mut y = [0i16; W];
            for k in 0..W {
                x[k] = a[k].clamp(0, QA as i16);
                y[k] = if SQUARE {
                    x[k].wrapping_mul(w[k])
                } else {
                    w[k]
                };
            }
            for (j, lane) in lanes.iter_mut().enumerate() {
                *lane +=
                    x[2 * j] as i32 * y[2 * j] as i32 + x[2 * j + 1] as i32 * y[2 * j + 1] as i32;
            }
        }
        total += lanes.iter().map(|&l| l as i64).sum::<i64>();
    }
    total
}
