//! The cost of the accumulator primitives, portable code against AVX2, for H = 128, 256, 384, 512:
//!
//! * `update`: one quiet move's incremental update, both perspectives (`add_sub` twice);
//! * `refresh`: one accumulator from scratch with 32 pieces;
//! * `output`: the SCReLU output layer on two accumulators.
//!
//! Run: `cargo bench -p engram-nnue --bench accumulator` (about a minute). Medians end up in
//! `target/criterion/h<H>/<bench>/<simd>/new/estimates.json`.

use criterion::{criterion_group, criterion_main, Criterion};
use engram_nnue::accumulator::has_avx2;
use engram_nnue::{Activation, Network, Simd, INPUTS};
use std::hint::black_box;
use std::time::Duration;

fn net(h: usize) -> Network {
    let mut net = Network::zeros(h, Activation::SCReLU, 1);
    let mut x = 12345u32;
    let mut next = move |m: i32| {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        ((x >> 8) as i32 % (2 * m + 1) - m) as i16
    };
    net.ft_weights.iter_mut().for_each(|w| *w = next(100));
    net.ft_bias.iter_mut().for_each(|w| *w = next(100));
    net.out_weights.iter_mut().for_each(|w| *w = next(127));
    net
}

fn bench(c: &mut Criterion) {
    let simds: Vec<Simd> = if has_avx2() {
        vec![Simd::Portable, Simd::Avx2]
    } else {
        vec![Simd::Portable]
    };
    for h in [128, 256, 384, 512] {
        let net = net(h);
        let features: Vec<usize> = (0..32).map(|i| (i * 97 + 13) % INPUTS).collect();
        let mut group = c.benchmark_group(format!("h{h}"));
        group
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        for &simd in &simds {
            let name = format!("{simd:?}").to_lowercase();
            let input = [net.ft_bias.clone(), net.ft_bias.clone()];
            let mut out = [vec![0i16; h], vec![0i16; h]];
            group.bench_function(format!("update/{name}"), |b| {
                b.iter(|| {
                    for p in 0..2 {
                        simd.add_sub(
                            &mut out[p],
                            &input[p],
                            net.column(black_box(100 + p)),
                            net.column(black_box(200 + p)),
                        );
                    }
                    black_box(&out);
                })
            });
            let mut acc = vec![0i16; h];
            group.bench_function(format!("refresh/{name}"), |b| {
                b.iter(|| {
                    simd.refresh(&mut acc, &net, black_box(&features));
                    black_box(&acc);
                })
            });
            let (stm, ntm) = (out[0].clone(), out[1].clone());
            group.bench_function(format!("output/{name}"), |b| {
                b.iter(|| simd.output(&net, black_box(&stm), black_box(&ntm), 0))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
