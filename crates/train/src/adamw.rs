//! AdamW (Loshchilov and Hutter 2019: Adam with decoupled weight decay), with every weight
//! clipped after each step.
//!
//! Per parameter `p` with gradient `g`, at step `t` and learning rate `lr`:
//!
//! ```text
//! m = β1 m + (1 − β1) g          v = β2 v + (1 − β2) g²
//! p = p · (1 − lr · decay) − lr · m̂ / (√v̂ + ε),  m̂ = m / (1 − β1ᵗ), v̂ = v / (1 − β2ᵗ)
//! p = clamp(p, −CLIP, CLIP)
//! ```
//!
//! [`CLIP`] = 1.98 (bullet's choice) keeps `QB · w` ≤ 127, so an output weight fits an `i8`
//! and `clamp(x, 0, QA) · w` fits an `i16` (255 · 127 = 32,385): the product the engine's
//! SIMD SCReLU computes before its `madd`. Weight decay applies to biases too, as in bullet.
//! With output buckets, every bucket's weights and bias are stepped and clipped alike (a
//! bucket no position of the batch used still decays).

use crate::float_net::FloatNet;
use crate::grad::Gradients;

/// Every weight and bias is kept within `±CLIP`.
pub const CLIP: f32 = 1.98;

/// AdamW's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamWConfig {
    /// Decay rate of the first moment (0.9).
    pub beta1: f32,
    /// Decay rate of the second moment (0.999).
    pub beta2: f32,
    /// Added to the root of the second moment (1e-8).
    pub epsilon: f32,
    /// Decoupled weight decay per unit of learning rate (0.01).
    pub decay: f32,
}

impl Default for AdamWConfig {
    fn default() -> Self {
        AdamWConfig {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            decay: 0.01,
        }
    }
}

/// The optimiser's state: both moments of every parameter, and the step count.
#[derive(Clone, Debug)]
pub struct AdamW {
    config: AdamWConfig,
    m: Gradients,
    v: Gradients,
    step: i32,
}

/// One parameter slice's update.
fn update(p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], k: &StepConstants) {
    assert!(
        g.len() == p.len() && m.len() == p.len() && v.len() == p.len(),
        "the optimiser and the gradients are shaped like the network"
    );
    for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
        *m = k.beta1 * *m + (1.0 - k.beta1) * g;
        *v = k.beta2 * *v + (1.0 - k.beta2) * g * g;
        let step = k.lr_m * *m / ((*v * k.inv_bias2).sqrt() + k.epsilon);
        *p = (*p * k.keep - step).clamp(-CLIP, CLIP);
    }
}

struct StepConstants {
    beta1: f32,
    beta2: f32,
    epsilon: f32,
    /// `lr / (1 − β1ᵗ)`.
    lr_m: f32,
    /// `1 / (1 − β2ᵗ)`.
    inv_bias2: f32,
    /// `1 − lr · decay`.
    keep: f32,
}

impl AdamW {
    /// A fresh optimiser for networks shaped like `net` (its king buckets included).
    pub fn like(net: &FloatNet, config: AdamWConfig) -> AdamW {
        AdamW {
            config,
            m: Gradients::like(net),
            v: Gradients::like(net),
            step: 0,
        }
    }

    /// One step with learning rate `lr` along gradients `g` (shaped like `net`).
    pub fn step(&mut self, net: &mut FloatNet, g: &Gradients, lr: f32) {
        self.step += 1;
        let c = self.config;
        let k = StepConstants {
            beta1: c.beta1,
            beta2: c.beta2,
            epsilon: c.epsilon,
            lr_m: lr / (1.0 - c.beta1.powi(self.step)),
            inv_bias2: 1.0 / (1.0 - c.beta2.powi(self.step)),
            keep: 1.0 - lr * c.decay,
        };
        let (m, v) = (&mut self.m, &mut self.v);
        update(
            &mut net.ft_weights,
            &g.ft_weights,
            &mut m.ft_weights,
            &mut v.ft_weights,
            &k,
        );
        update(
            &mut net.ft_bias,
            &g.ft_bias,
            &mut m.ft_bias,
            &mut v.ft_bias,
            &k,
        );
        update(
            &mut net.out_weights,
            &g.out_weights,
            &mut m.out_weights,
            &mut v.out_weights,
            &k,
        );
        update(
            &mut net.out_bias,
            &g.out_bias,
            &mut m.out_bias,
            &mut v.out_bias,
            &k,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_nnue::net::Activation;

    #[test]
    fn steps_against_the_gradient_and_clips() {
        let mut net = FloatNet::zeros(16, Activation::CReLU, 4);
        net.out_weights[0] = 1.979;
        net.out_weights[3 * 32 + 7] = -1.979;
        let mut g = Gradients::zeros(16, 4);
        g.out_weights[0] = -1.0;
        g.out_weights[3 * 32 + 7] = 1.0;
        g.out_bias[2] = 1.0;
        g.ft_bias[3] = 2.0;
        let mut opt = AdamW::like(&net, AdamWConfig::default());
        for _ in 0..10 {
            opt.step(&mut net, &g, 0.01);
        }
        assert_eq!(net.out_weights[0], CLIP);
        assert_eq!(
            net.out_weights[3 * 32 + 7],
            -CLIP,
            "the last bucket is clipped too"
        );
        assert!(net.out_bias[2] < -0.05);
        assert_eq!(net.out_bias[1], 0.0);
        assert!(net.ft_bias[3] < -0.05);
        assert_eq!(net.ft_bias[4], 0.0);
    }
}
