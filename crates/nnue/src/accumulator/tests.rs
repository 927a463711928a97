//! Every primitive, portable and AVX2, against plain scalar code on random data.

use super::*;
use crate::net::Network;
use crate::INPUTS;

/// SplitMix64, as `engram_train::rng::Rng` (the inference crate does not depend on the
/// training crate): a seeded source of test data.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// `n` values uniform in `lo..=hi`.
fn values(rng: &mut Rng, n: usize, lo: i32, hi: i32) -> Vec<i16> {
    (0..n)
        .map(|_| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16)
        .collect()
}

const SIZES: [usize; 4] = [16, 128, 256, 512];
const BOTH: [Simd; 2] = [Simd::Portable, Simd::Avx2];

fn random_net(rng: &mut Rng, h: usize, activation: Activation, buckets: usize) -> Network {
    let mut net = Network::zeros(h, activation, buckets);
    net.ft_weights = values(rng, INPUTS * h, -200, 200);
    net.ft_bias = values(rng, h, -300, 300);
    net.out_weights = values(rng, buckets * 2 * h, -128, 128);
    for b in &mut net.out_bias {
        *b = rng.next_u64() as i32 % 100_000;
    }
    net
}

#[test]
fn updates_match_scalar() {
    let mut rng = Rng::new(1);
    for h in SIZES {
        for _ in 0..20 {
            // Full i16 range: arithmetic wraps the same way everywhere.
            let input = values(&mut rng, h, -32768, 32767);
            let cols: Vec<Vec<i16>> = (0..4).map(|_| values(&mut rng, h, -32768, 32767)).collect();
            let expect = |adds: &[usize], subs: &[usize]| -> Vec<i16> {
                (0..h)
                    .map(|k| {
                        let mut v = input[k];
                        for &a in adds {
                            v = v.wrapping_add(cols[a][k]);
                        }
                        for &s in subs {
                            v = v.wrapping_sub(cols[s][k]);
                        }
                        v
                    })
                    .collect()
            };
            for simd in BOTH {
                let mut acc = input.clone();
                simd.add_column(&mut acc, &cols[0]);
                assert_eq!(acc, expect(&[0], &[]), "{simd:?} add {h}");
                let mut acc = input.clone();
                simd.sub_column(&mut acc, &cols[0]);
                assert_eq!(acc, expect(&[], &[0]), "{simd:?} sub {h}");
                let mut out = vec![0; h];
                simd.add_sub(&mut out, &input, &cols[0], &cols[1]);
                assert_eq!(out, expect(&[0], &[1]), "{simd:?} add_sub {h}");
                simd.add_sub_sub(&mut out, &input, &cols[0], &cols[1], &cols[2]);
                assert_eq!(out, expect(&[0], &[1, 2]), "{simd:?} add_sub_sub {h}");
                simd.add_add_sub_sub(&mut out, &input, [&cols[0], &cols[1]], [&cols[2], &cols[3]]);
                assert_eq!(
                    out,
                    expect(&[0, 1], &[2, 3]),
                    "{simd:?} add_add_sub_sub {h}"
                );
            }
        }
    }
}

#[test]
fn refresh_matches_scalar() {
    let mut rng = Rng::new(2);
    for h in SIZES {
        let net = random_net(&mut rng, h, Activation::SCReLU, 1);
        for n in [0, 1, 2, 17, 32] {
            let features: Vec<usize> = (0..n).map(|_| rng.next_u64() as usize % INPUTS).collect();
            let mut expect = net.ft_bias.clone();
            for &f in &features {
                for (e, &w) in expect.iter_mut().zip(net.column(f)) {
                    *e = e.wrapping_add(w);
                }
            }
            for simd in BOTH {
                let mut acc = vec![7; h];
                simd.refresh(&mut acc, &net, &features);
                assert_eq!(acc, expect, "{simd:?} refresh {h} with {n} features");
            }
        }
    }
}

#[test]
fn output_matches_scalar() {
    let mut rng = Rng::new(3);
    for (h, buckets) in SIZES.into_iter().flat_map(|h| [(h, 1), (h, 8)]) {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let mut net = random_net(&mut rng, h, activation, buckets);
            for round in 0..20 {
                if round == 10 {
                    // Extremes: every weight at its limit, accumulators saturated.
                    let w = if activation == Activation::SCReLU {
                        MADD_WEIGHT_MAX
                    } else {
                        i16::MAX
                    };
                    net.out_weights.fill(w);
                }
                let stm = values(&mut rng, h, -400, 700);
                let ntm = if round >= 10 {
                    vec![i16::MAX; h]
                } else {
                    values(&mut rng, h, -400, 700)
                };
                // Every bucket in turn; the last bucket is where a slicing slip would show.
                let bucket = (round + buckets - 1) % buckets;
                let expect = net.output_scalar(&stm, &ntm, bucket);
                for simd in BOTH {
                    assert_eq!(
                        simd.output(&net, &stm, &ntm, bucket),
                        expect,
                        "{simd:?} {activation:?} {h} {buckets} buckets, bucket {bucket}, round {round}"
                    );
                }
                assert_eq!(output(&net, &stm, &ntm, bucket), expect);
            }
        }
    }
}

#[test]
fn large_hidden_sizes_do_not_overflow() {
    // 4096 saturated values at the weight limit: the i32 lanes are flushed per block.
    let h = crate::net::MAX_HIDDEN;
    let mut net = Network::zeros(h, Activation::SCReLU, 2);
    net.out_weights.fill(MADD_WEIGHT_MAX);
    let acc = vec![QA as i16; h];
    for simd in BOTH {
        for bucket in 0..2 {
            assert_eq!(
                simd.output(&net, &acc, &acc, bucket),
                net.output_scalar(&acc, &acc, bucket)
            );
        }
    }
}

#[test]
fn detection_is_cached() {
    let first = has_avx2();
    assert_eq!(has_avx2(), first);
    assert_eq!(Simd::detect() == Simd::Avx2, first);
}

#[test]
#[should_panic(expected = "multiple of 16")]
fn lengths_are_checked() {
    let mut acc = vec![0; 8];
    add_column(&mut acc, &[0; 8]);
}
