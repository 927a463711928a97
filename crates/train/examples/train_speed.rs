//! Training speed on synthetic positions: `cargo run --release -p engram-train --example
//! train_speed -- [hidden] [threads] [positions] [epochs] [rounds]` (defaults 128, 1, 200000,
//! 3, 5).
//!
//! Two measurements, each printed with its median:
//! - a whole `fit` (batch 16,384, SCReLU, one output bucket), its positions per second for
//!   each epoch, with the kernel this CPU picks;
//! - the gradient kernel alone (8 output buckets, king-mirrored, one thread), the portable
//!   and the AVX2 build interleaved for `rounds` rounds over the same positions: each
//!   build's median positions per second, its range, and the median of the per-round
//!   ratios AVX2 / portable.

use engram_nnue::{Activation, Layout, Simd};
use engram_train::grad::{accumulate_on, Gradients};
use engram_train::synthetic::random_positions;
use engram_train::{fit, FloatNet, Progress, TrainParams};
use std::time::Instant;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let arg = |i: usize, default: usize| -> usize {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (hidden, threads, n, epochs, rounds) = (
        arg(1, 128),
        arg(2, 1),
        arg(3, 200_000),
        arg(4, 3),
        arg(5, 5),
    );
    let positions = random_positions(n, 1);
    let params = TrainParams {
        hidden,
        threads,
        epochs,
        val_fraction: 0.0,
        ..TrainParams::default()
    };
    let mut speeds = Vec::new();
    fit(positions.clone(), &params, &mut |p| {
        if let Progress::Epoch(e) = p {
            println!("{}", e.line());
            speeds.push(e.positions_per_second());
        }
    })
    .expect("training runs");
    println!(
        "fit, hidden {hidden}, threads {threads}: median {:.0} positions/s over {epochs} epochs",
        median(&mut speeds)
    );

    let mut net = FloatNet::init(hidden, Activation::SCReLU, 8, 1);
    net.layout = Layout::KingMirror;
    let mut grads = Gradients::zeros(hidden, 8);
    let scale = 1.0 / n as f32;
    let mut time = |simd: Simd| -> f64 {
        let start = Instant::now();
        std::hint::black_box(accumulate_on(
            simd, &net, &positions, 0.1, scale, &mut grads,
        ));
        n as f64 / start.elapsed().as_secs_f64()
    };
    let (mut portable, mut avx2, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds.max(1) {
        let p = time(Simd::Portable);
        let a = time(Simd::Avx2);
        portable.push(p);
        avx2.push(a);
        ratios.push(a / p);
    }
    for (name, v) in [("portable", &mut portable), ("avx2", &mut avx2)] {
        let m = median(v);
        println!(
            "gradient kernel {name:8}: median {m:.0} positions/s (range {:.0}-{:.0}), hidden {hidden}, 1 thread",
            v[0],
            v[v.len() - 1]
        );
    }
    println!(
        "gradient kernel avx2 / portable: median ratio {:.3} (range {:.3}-{:.3}) over {} rounds",
        median(&mut ratios),
        ratios[0],
        ratios[ratios.len() - 1],
        ratios.len()
    );
}
