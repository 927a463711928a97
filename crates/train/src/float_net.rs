//! The network in floating point, as the trainer holds it, and its quantisation to the
//! integer [`Network`] the engine runs.

use crate::data::Packed;
use crate::rng::Rng;
use engram_nnue::features::{Layout, INPUTS};
use engram_nnue::net::{output_bucket, Activation, Network, QA, QB, SCALE};

/// Largest number of active features per perspective (32 pieces).
pub const MAX_ACTIVE: usize = 32;

/// The network `(768 → H) × 2 → 1` with `N` output buckets in `f32`, laid out as
/// [`Network`]: feature-transformer weights feature-major (`ft_weights[f * H + h]`), output
/// weights bucket by bucket, each side to move's half first. A position goes through the
/// output layer of its piece count's bucket ([`output_bucket`]).
///
/// Its output is in "sigmoid units": the evaluation in centipawns is `output · SCALE`, and
/// `sigmoid(output)` predicts the expected score of the side to move.
///
/// **Factoriser.** With king buckets ([`Layout::KingBuckets4`]) the feature weights hold one
/// more block of 768 columns after the buckets' blocks, shared by all buckets: an active
/// feature adds its bucket's column and its shared column, and its gradient goes to both.
/// So what every bucket has in common (a piece's worth on a square) is learnt from all the
/// positions, and each bucket's block learns only how its king region differs; a bucket seen
/// in few positions stays close to the shared weights. [`FloatNet::quantise`] folds the
/// shared block into each bucket's, so the engine's network has no such block.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden size H (per perspective).
    pub hidden: usize,
    /// The hidden activation.
    pub activation: Activation,
    /// Feature-transformer weights, feature-major: `768 · H`, or with king buckets
    /// `(4 + 1) · 768 · H` (the buckets' blocks, then the shared block).
    pub ft_weights: Vec<f32>,
    /// Feature-transformer bias, `H`.
    pub ft_bias: Vec<f32>,
    /// Output buckets N (1 to [`engram_nnue::net::MAX_BUCKETS`]).
    pub buckets: usize,
    /// Output weights, `N · 2H`: bucket by bucket, each the side to move's half first.
    pub out_weights: Vec<f32>,
    /// Output biases, one per bucket.
    pub out_bias: Vec<f32>,
    /// How squares map to inputs ([`Layout`]; plain unless set).
    pub layout: Layout,
}

/// The activation and its derivative at `x`, branch-free (so loops over it vectorise).
#[inline(always)]
pub fn activate<const SQUARED: bool>(x: f32) -> (f32, f32) {
    let c = x.clamp(0.0, 1.0);
    let inside = if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 };
    if SQUARED {
        (c * c, 2.0 * c * inside)
    } else {
        (c, inside)
    }
}

/// `acc += column`, element by element.
#[inline(always)]
pub fn add_column(acc: &mut [f32], column: &[f32]) {
    for (a, &w) in acc.iter_mut().zip(column) {
        *a += w;
    }
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl FloatNet {
    /// A network of zeros with `buckets` output buckets.
    pub fn zeros(hidden: usize, activation: Activation, buckets: usize) -> FloatNet {
        FloatNet {
            hidden,
            activation,
            ft_weights: vec![0.0; INPUTS * hidden],
            ft_bias: vec![0.0; hidden],
            buckets,
            out_weights: vec![0.0; buckets * 2 * hidden],
            out_bias: vec![0.0; buckets],
            layout: Layout::Plain,
        }
    }

    /// A freshly initialised network: every weight uniform in `±1/√fan_in` (768 inputs for
    /// the feature transformer, 2H for each output layer; the usual "uniform Xavier-like"
    /// start), biases zero. The feature weights are drawn first, then each bucket's output
    /// weights in turn (so one bucket draws what the network drew before buckets). The
    /// same seed gives the same network.
    pub fn init(hidden: usize, activation: Activation, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut net = FloatNet::zeros(hidden, activation, buckets);
        let ft = 1.0 / (INPUTS as f32).sqrt();
        net.ft_weights
            .iter_mut()
            .for_each(|w| *w = ft * rng.symmetric());
        let out = 1.0 / ((2 * hidden) as f32).sqrt();
        net.out_weights
            .iter_mut()
            .for_each(|w| *w = out * rng.symmetric());
        net
    }

    /// A copy with input layout `layout`. A layout with king buckets gets zero buckets'
    /// blocks and the current 768 columns as its shared block (so it starts as the network
    /// it was, mirrored); the others keep the weights as they are.
    pub fn with_layout(mut self, layout: Layout) -> FloatNet {
        let h = self.hidden;
        if layout.buckets() > 1 && self.layout.buckets() == 1 {
            let shared = std::mem::take(&mut self.ft_weights);
            self.ft_weights = vec![0.0; layout.inputs() * h];
            self.ft_weights.extend_from_slice(&shared[..INPUTS * h]);
        } else {
            assert_eq!(
                layout.buckets(),
                self.layout.buckets(),
                "with_layout changes the number of king buckets only from one"
            );
        }
        self.layout = layout;
        self
    }

    /// The shared column's index of `feature` (a factorised network's, see the type's docs),
    /// or `None` for a network without king buckets.
    #[inline(always)]
    pub fn shared(&self, feature: usize) -> Option<usize> {
        let inputs = self.layout.inputs();
        (inputs > INPUTS).then(|| inputs + feature % INPUTS)
    }

    /// One feature's column of `H` weights.
    #[inline(always)]
    pub fn column(&self, feature: usize) -> &[f32] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The two accumulators of `pos` (side to move's, other side's) into `stm` and `ntm`
    /// (each `H` long); returns the active features of each, and how many there are (the
    /// number of pieces, which picks the output bucket: [`FloatNet::bucket`]). Inlined, so
    /// that the trainer's AVX2 kernel compiles it with AVX2.
    #[inline(always)]
    pub fn accumulate(
        &self,
        pos: &Packed,
        stm: &mut [f32],
        ntm: &mut [f32],
    ) -> ([u16; MAX_ACTIVE], [u16; MAX_ACTIVE], usize) {
        stm.copy_from_slice(&self.ft_bias);
        ntm.copy_from_slice(&self.ft_bias);
        let (mut fs, mut fn_) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let mut n = 0;
        for (s, o) in pos.features(self.layout).take(MAX_ACTIVE) {
            add_column(stm, self.column(s));
            add_column(ntm, self.column(o));
            if let (Some(s), Some(o)) = (self.shared(s), self.shared(o)) {
                add_column(stm, self.column(s));
                add_column(ntm, self.column(o));
            }
            fs[n] = s as u16;
            fn_[n] = o as u16;
            n += 1;
        }
        (fs, fn_, n)
    }

    /// The output bucket of a position with `pieces` pieces ([`output_bucket`] with this
    /// network's bucket count).
    #[inline]
    pub fn bucket(&self, pieces: usize) -> usize {
        output_bucket(pieces as u32, self.buckets)
    }

    /// The `2H` output weights of `bucket` (side to move's half first).
    #[inline]
    pub fn bucket_weights(&self, bucket: usize) -> &[f32] {
        let n = 2 * self.hidden;
        &self.out_weights[bucket * n..(bucket + 1) * n]
    }

    /// The output layer of `bucket` on two accumulators.
    pub fn output(&self, stm: &[f32], ntm: &[f32], bucket: usize) -> f32 {
        match self.activation {
            Activation::CReLU => self.output_with::<false>(stm, ntm, bucket),
            Activation::SCReLU => self.output_with::<true>(stm, ntm, bucket),
        }
    }

    fn output_with<const SQUARED: bool>(&self, stm: &[f32], ntm: &[f32], bucket: usize) -> f32 {
        let (ws, wn) = self.bucket_weights(bucket).split_at(self.hidden);
        let mut sum = 0.0;
        for (acc, w) in [(stm, ws), (ntm, wn)] {
            for (&a, &w) in acc.iter().zip(w) {
                sum += activate::<SQUARED>(a).0 * w;
            }
        }
        sum + self.out_bias[bucket]
    }

    /// The network's output on `pos` in sigmoid units (`· SCALE` for centipawns from the
    /// side to move's view), through the output bucket of its piece count.
    pub fn forward(&self, pos: &Packed) -> f32 {
        let mut stm = vec![0.0; self.hidden];
        let mut ntm = vec![0.0; self.hidden];
        let (_, _, pieces) = self.accumulate(pos, &mut stm, &mut ntm);
        self.output(&stm, &ntm, self.bucket(pieces))
    }

    /// The evaluation of `pos` in centipawns (`forward · SCALE`), unrounded.
    pub fn evaluate_cp(&self, pos: &Packed) -> f32 {
        self.forward(pos) * SCALE as f32
    }

    /// The quantised network: feature-transformer weights and bias `· QA`, output weights
    /// `· QB` (as `i16`), output biases `· QA · QB` (as `i32`), all **rounded** to the
    /// nearest integer (truncation would bias every weight towards zero); every bucket's.
    ///
    /// Refused, naming the first offender, if a value does not fit its integer type, or if
    /// some position could overflow an `i16` accumulator: for each hidden unit and king
    /// bucket, the bias plus its 32 largest weights (or minus its 32 most negative) must stay
    /// within `i16`. A factorised network's shared block is added to each bucket's first.
    pub fn quantise(&self) -> Result<Network, String> {
        let h = self.hidden;
        let inputs = self.layout.inputs();
        let folded: Vec<f32>;
        let ft = if self.shared(0).is_some() {
            folded = (0..inputs * h)
                .map(|i| {
                    let (f, unit) = (i / h, i % h);
                    self.ft_weights[i] + self.column(inputs + f % INPUTS)[unit]
                })
                .collect();
            &folded[..]
        } else {
            &self.ft_weights[..]
        };
        let q16 = |what: &str, i: usize, v: f32, scale: i32| -> Result<i16, String> {
            let q = (v * scale as f32).round();
            if q.is_finite() && q >= i16::MIN as f32 && q <= i16::MAX as f32 {
                Ok(q as i16)
            } else {
                Err(format!(
                    "{what}[{i}] = {v} does not fit an i16 once multiplied by {scale}"
                ))
            }
        };
        let quantise_all = |what: &str, vs: &[f32], scale: i32| -> Result<Vec<i16>, String> {
            vs.iter()
                .enumerate()
                .map(|(i, &v)| q16(what, i, v, scale))
                .collect()
        };
        let ft_weights = quantise_all("ft_weights", ft, QA)?;
        let ft_bias = quantise_all("ft_bias", &self.ft_bias, QA)?;
        let out_weights = quantise_all("out_weights", &self.out_weights, QB)?;
        let out_bias = self
            .out_bias
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                let ob = (b * (QA * QB) as f32).round();
                if ob.is_finite() && ob >= i32::MIN as f32 && ob < -(i32::MIN as f32) {
                    Ok(ob as i32)
                } else {
                    Err(format!(
                        "out_bias[{i}] = {b} does not fit an i32 once multiplied by {}",
                        QA * QB
                    ))
                }
            })
            .collect::<Result<Vec<i32>, String>>()?;
        let mut column = vec![0i32; INPUTS];
        for (block, unit) in (0..self.layout.buckets()).flat_map(|b| (0..h).map(move |u| (b, u))) {
            for (f, c) in column.iter_mut().enumerate() {
                *c = ft_weights[(block * INPUTS + f) * h + unit] as i32;
            }
            column.sort_unstable();
            let low: i32 = column[..MAX_ACTIVE].iter().sum();
            let high: i32 = column[INPUTS - MAX_ACTIVE..].iter().sum();
            let b = ft_bias[unit] as i32;
            if b + high > i16::MAX as i32 || b + low < i16::MIN as i32 {
                return Err(format!(
                    "hidden unit {unit}: an accumulator could reach {} or {}, beyond an i16",
                    b + low,
                    b + high
                ));
            }
        }
        Ok(Network {
            hidden: h,
            activation: self.activation,
            ft_weights,
            ft_bias,
            buckets: self.buckets,
            out_weights,
            out_bias,
            layout: self.layout,
        })
    }

    /// The float network of a quantised one (each value divided by its scale): exactly the
    /// values the integer inference uses (with king buckets, and a shared block of zeros).
    pub fn dequantise(net: &Network) -> FloatNet {
        let div = |v: &[i16], s: i32| v.iter().map(|&x| x as f32 / s as f32).collect();
        let mut ft_weights: Vec<f32> = div(&net.ft_weights, QA);
        if net.layout.buckets() > 1 {
            ft_weights.resize(ft_weights.len() + INPUTS * net.hidden, 0.0);
        }
        FloatNet {
            hidden: net.hidden,
            activation: net.activation,
            ft_weights,
            ft_bias: div(&net.ft_bias, QA),
            buckets: net.buckets,
            out_weights: div(&net.out_weights, QB),
            out_bias: net
                .out_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
            layout: net.layout,
        }
    }
}
