//! Training speed on synthetic positions: `cargo run --release -p engram-nnue --example
//! train_speed -- [hidden] [threads] [positions] [epochs]` (defaults 128, 1, 200000, 3).
//! Prints each epoch's positions per second and their median (batch 16,384, SCReLU).

use engram_nnue::train::synthetic::random_positions;
use engram_nnue::train::{fit, Progress, TrainParams};

fn main() {
    let arg = |i: usize, default: usize| -> usize {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (hidden, threads, n, epochs) = (arg(1, 128), arg(2, 1), arg(3, 200_000), arg(4, 3));
    let positions = random_positions(n, 1);
    let params = TrainParams {
        hidden,
        threads,
        epochs,
        val_fraction: 0.0,
        ..TrainParams::default()
    };
    let mut speeds = Vec::new();
    fit(positions, &params, &mut |p| {
        if let Progress::Epoch(e) = p {
            println!("{}", e.line());
            speeds.push(e.positions_per_second());
        }
    })
    .expect("training runs");
    speeds.sort_by(f64::total_cmp);
    println!(
        "hidden {hidden}, threads {threads}: median {:.0} positions/s over {epochs} epochs",
        speeds[speeds.len() / 2]
    );
}
