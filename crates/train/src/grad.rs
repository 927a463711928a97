//! Gradients of the loss over a batch, computed on several threads.
//!
//! The batch is cut into one contiguous part per thread; each thread accumulates into its
//! own [`Gradients`] buffer, and the buffers are then summed in thread order, so a result
//! depends only on the batch and the thread count, never on timing.
//!
//! Sparsity: a position lights about 32 features per perspective, so its forward pass sums
//! about 32 weight columns per accumulator, and the backward pass adds the accumulator's
//! gradient to those same columns only. Every inner loop runs over plain `H`-long slices,
//! which the compiler vectorises.
//!
//! Output buckets: a position's output (and its gradient) involves only the output layer of
//! its bucket ([`FloatNet::bucket`] of its piece count); the other buckets' gradients get
//! nothing from it. The operations on that layer are those of a one-bucket network, in the
//! same order, so one bucket computes exactly what the trainer did before buckets.

use crate::data::Packed;
use crate::float_net::{activate, add_column, FloatNet};
use crate::loss::{loss_and_slope, target};
use engram_nnue::net::Activation;
use engram_nnue::Simd;

/// Gradients of the loss with respect to each parameter of a [`FloatNet`], in its layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradients {
    /// With respect to the feature-transformer weights (as [`FloatNet::ft_weights`]).
    pub ft_weights: Vec<f32>,
    /// With respect to the feature-transformer bias (`H`).
    pub ft_bias: Vec<f32>,
    /// With respect to the output weights (`N · 2H`, bucket by bucket).
    pub out_weights: Vec<f32>,
    /// With respect to the output biases (`N`).
    pub out_bias: Vec<f32>,
}

impl Gradients {
    /// Zero gradients shaped like `net` (its king buckets' and shared blocks included).
    pub fn like(net: &FloatNet) -> Gradients {
        Gradients {
            ft_weights: vec![0.0; net.ft_weights.len()],
            ft_bias: vec![0.0; net.ft_bias.len()],
            out_weights: vec![0.0; net.out_weights.len()],
            out_bias: vec![0.0; net.out_bias.len()],
        }
    }

    /// Zero gradients for hidden size `hidden` and `buckets` output buckets, 768 inputs.
    pub fn zeros(hidden: usize, buckets: usize) -> Gradients {
        Gradients::like(&FloatNet::zeros(hidden, Activation::CReLU, buckets))
    }

    /// Sets every gradient to zero.
    pub fn clear(&mut self) {
        self.ft_weights.fill(0.0);
        self.ft_bias.fill(0.0);
        self.out_weights.fill(0.0);
        self.out_bias.fill(0.0);
    }

    /// Adds `other` to these gradients.
    pub fn add(&mut self, other: &Gradients) {
        add_column(&mut self.ft_weights, &other.ft_weights);
        add_column(&mut self.ft_bias, &other.ft_bias);
        add_column(&mut self.out_weights, &other.out_weights);
        add_column(&mut self.out_bias, &other.out_bias);
    }
}

/// Adds `scale ·` the gradient of the loss summed over `positions` to `grads` (so
/// `scale = 1 / batch size` gives the batch mean); returns the loss summed over `positions`.
/// Runs the AVX2 build of the kernel where the CPU has it ([`Simd::detect`]).
pub fn accumulate(
    net: &FloatNet,
    positions: &[Packed],
    wdl: f32,
    scale: f32,
    grads: &mut Gradients,
) -> f64 {
    accumulate_on(Simd::detect(), net, positions, wdl, scale, grads)
}

/// [`accumulate`] with the kernel compiled for `simd`: [`Simd::Avx2`] is the same Rust code
/// built with AVX2 enabled (it falls back to the portable build on a CPU without AVX2).
///
/// Both builds compute bit-identical results: every vectorised loop is element by element,
/// the one sum (the output) runs in the same order in both, and neither fuses a multiply
/// with an add (FMA is not enabled). So a network trained with or without AVX2 is the same,
/// byte for byte.
pub fn accumulate_on(
    simd: Simd,
    net: &FloatNet,
    positions: &[Packed],
    wdl: f32,
    scale: f32,
    grads: &mut Gradients,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if simd == Simd::Avx2 && engram_nnue::accumulator::has_avx2() {
        // SAFETY: `accumulate_avx2` only needs AVX2, which this CPU has (checked just above).
        return unsafe { accumulate_avx2(net, positions, wdl, scale, grads) };
    }
    let _ = simd;
    accumulate_portable(net, positions, wdl, scale, grads)
}

/// The kernel built with AVX2: twice the lanes of SSE2 for the column sums that dominate
/// training (measured in `examples/train_speed.rs`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn accumulate_avx2(
    net: &FloatNet,
    positions: &[Packed],
    wdl: f32,
    scale: f32,
    grads: &mut Gradients,
) -> f64 {
    accumulate_portable(net, positions, wdl, scale, grads)
}

/// The kernel for the net's activation, built for the target's baseline (SSE2 on x86-64),
/// or for AVX2 where [`accumulate_avx2`] inlines it.
#[inline(always)]
fn accumulate_portable(
    net: &FloatNet,
    positions: &[Packed],
    wdl: f32,
    scale: f32,
    grads: &mut Gradients,
) -> f64 {
    match net.activation {
        Activation::CReLU => accumulate_with::<false>(net, positions, wdl, scale, grads),
        Activation::SCReLU => accumulate_with::<true>(net, positions, wdl, scale, grads),
    }
}

/// The kernel itself, inlined into each build above so that each compiles it for its own
/// instruction set.
#[inline(always)]
fn accumulate_with<const SQUARED: bool>(
    net: &FloatNet,
    positions: &[Packed],
    wdl: f32,
    scale: f32,
    g: &mut Gradients,
) -> f64 {
    let h = net.hidden;
    let (mut stm, mut ntm) = (vec![0.0f32; h], vec![0.0f32; h]);
    let (mut act_s, mut act_n) = (vec![0.0f32; h], vec![0.0f32; h]);
    let (mut d_s, mut d_n) = (vec![0.0f32; h], vec![0.0f32; h]);
    let mut loss = 0.0f64;
    for pos in positions {
        let (fs, fo, n) = net.accumulate(pos, &mut stm, &mut ntm);
        let bucket = net.bucket(n);
        let (w_s, w_n) = net.bucket_weights(bucket).split_at(h);
        // Forward: activations and their slopes (kept in d_*), element by element (this
        // loop vectorises), then the output, summed in order in a loop of its own.
        for (acc, act, d) in [(&stm, &mut act_s, &mut d_s), (&ntm, &mut act_n, &mut d_n)] {
            for ((&a, x), dx) in acc.iter().zip(act.iter_mut()).zip(d.iter_mut()) {
                (*x, *dx) = activate::<SQUARED>(a);
            }
        }
        let mut out = net.out_bias[bucket];
        for (act, w) in [(&act_s, w_s), (&act_n, w_n)] {
            for (&y, &w) in act.iter().zip(w) {
                out += y * w;
            }
        }
        let (l, slope) = loss_and_slope(out, target(pos, wdl));
        loss += l as f64;
        // Backward.
        let d = slope * scale;
        g.out_bias[bucket] += d;
        let (g_s, g_n) = g.out_weights[2 * h * bucket..2 * h * (bucket + 1)].split_at_mut(h);
        for (act, dact, gw, w) in [(&act_s, &mut d_s, g_s, w_s), (&act_n, &mut d_n, g_n, w_n)] {
            for (((&x, dx), gw), &w) in act.iter().zip(dact.iter_mut()).zip(gw).zip(w) {
                *gw += d * x;
                *dx *= d * w;
            }
        }
        for ((b, &x), &y) in g.ft_bias.iter_mut().zip(&d_s).zip(&d_n) {
            *b += x + y;
        }
        for k in 0..n {
            let (fs, fo) = (fs[k] as usize, fo[k] as usize);
            add_column(&mut g.ft_weights[fs * h..(fs + 1) * h], &d_s);
            add_column(&mut g.ft_weights[fo * h..(fo + 1) * h], &d_n);
            if let (Some(fs), Some(fo)) = (net.shared(fs), net.shared(fo)) {
                add_column(&mut g.ft_weights[fs * h..(fs + 1) * h], &d_s);
                add_column(&mut g.ft_weights[fo * h..(fo + 1) * h], &d_n);
            }
        }
    }
    loss
}

/// The contiguous parts `batch` is cut into for `threads` threads (the last may be shorter,
/// some may be empty).
fn parts(batch: &[Packed], threads: usize) -> std::slice::Chunks<'_, Packed> {
    batch.chunks(batch.len().div_ceil(threads.max(1)).max(1))
}

/// The mean gradient of the loss over `batch`, computed on `buffers.len()` threads, left in
/// `buffers[0]` (every buffer is overwritten); returns the loss summed over the batch.
pub fn batch_gradients(
    net: &FloatNet,
    batch: &[Packed],
    wdl: f32,
    buffers: &mut [Gradients],
) -> f64 {
    if batch.is_empty() {
        buffers[0].clear();
        return 0.0;
    }
    let scale = 1.0 / batch.len() as f32;
    let losses: Vec<f64> = std::thread::scope(|scope| {
        let mut work = parts(batch, buffers.len()).zip(buffers.iter_mut());
        let first = work.next();
        let handles: Vec<_> = work
            .map(|(part, g)| {
                scope.spawn(move || {
                    g.clear();
                    accumulate(net, part, wdl, scale, g)
                })
            })
            .collect();
        let mut losses = Vec::with_capacity(handles.len() + 1);
        if let Some((part, g)) = first {
            g.clear();
            losses.push(accumulate(net, part, wdl, scale, g));
        }
        losses.extend(
            handles
                .into_iter()
                .map(|h| h.join().expect("gradient thread")),
        );
        losses
    });
    let used = losses.len();
    let (head, rest) = buffers.split_at_mut(1);
    for g in &rest[..used.saturating_sub(1)] {
        head[0].add(g);
    }
    losses.iter().sum()
}

/// The loss summed over `positions`, computed on `threads` threads.
pub fn loss_sum(net: &FloatNet, positions: &[Packed], wdl: f32, threads: usize) -> f64 {
    let one = |part: &[Packed]| -> f64 {
        let mut stm = vec![0.0; net.hidden];
        let mut ntm = vec![0.0; net.hidden];
        part.iter()
            .map(|p| {
                let (_, _, pieces) = net.accumulate(p, &mut stm, &mut ntm);
                let out = net.output(&stm, &ntm, net.bucket(pieces));
                loss_and_slope(out, target(p, wdl)).0 as f64
            })
            .sum()
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts(positions, threads)
            .map(|part| scope.spawn(move || one(part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    })
}
