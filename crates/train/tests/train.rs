//! The trainer: gradients, learning, quantisation against the integer inference, loading
//! damaged data, determinism, and a whole run writing its files.

use engram_chess::{Board, Move};
use engram_nnue::net::{Activation, Network, QA, QB, SCALE};
use engram_nnue::{Layout, Simd};
use engram_train::data::{chunk::chunk_bytes, ChunkHeader, End, GameRecord, GameResult, Packed};
use engram_train::float_net::activate;
use engram_train::grad::{accumulate_on, batch_gradients, loss_sum, Gradients};
use engram_train::rng::Rng;
use engram_train::synthetic::{material, random_positions};
use engram_train::{
    fit, load_dir, split_games, train, FloatNet, Progress, TrainConfig, TrainParams,
};
use std::path::PathBuf;

/// A net whose accumulators spread over the whole [0, 1] range (a fresh one sits near 0).
fn spread_net(hidden: usize, activation: Activation, seed: u64) -> FloatNet {
    spread_bucketed_net(hidden, activation, 1, seed)
}

/// [`spread_net`] with `buckets` output buckets (each bucket's bias a little different).
fn spread_bucketed_net(
    hidden: usize,
    activation: Activation,
    buckets: usize,
    seed: u64,
) -> FloatNet {
    let mut net = FloatNet::init(hidden, activation, buckets, seed);
    let mut rng = Rng::new(seed + 1);
    net.ft_weights.iter_mut().for_each(|w| *w *= 4.0);
    net.ft_bias
        .iter_mut()
        .for_each(|b| *b = 0.4 + 0.4 * rng.symmetric());
    net.out_weights.iter_mut().for_each(|w| *w *= 3.0);
    for (i, b) in net.out_bias.iter_mut().enumerate() {
        *b = 0.05 - 0.03 * i as f32;
    }
    net
}

/// `net` with `layout`; with king buckets, each bucket's block gets small weights of its
/// own (a fresh factorised net's are zero), so that the buckets differ.
fn king_bucketed(net: FloatNet, layout: Layout) -> FloatNet {
    let mut net = net.with_layout(layout);
    if layout.buckets() > 1 {
        let mut rng = Rng::new(77);
        let bucket_blocks = layout.inputs() * net.hidden;
        for w in &mut net.ft_weights[..bucket_blocks] {
            *w = 0.05 * rng.symmetric();
        }
    }
    net
}

fn params(hidden: usize, activation: Activation) -> TrainParams {
    TrainParams {
        hidden,
        activation,
        epochs: 6,
        batch: 128,
        lr: 0.01,
        threads: 2,
        val_fraction: 0.1,
        seed: 7,
        ..TrainParams::default()
    }
}

/// The output bucket of `pos` in a net of `buckets` buckets.
fn bucket_of(pos: &Packed, buckets: usize) -> usize {
    engram_nnue::net::output_bucket(pos.occupancy.count_ones(), buckets)
}

#[test]
fn gradients_match_finite_differences() {
    // 24 positions from the start of a game, and for the buckets a few from later in games
    // (fewer pieces): up to 3 from each bucket of 4.
    let opening = random_positions(24, 3);
    let mut later = Vec::new();
    for p in random_positions(6000, 4) {
        let b = bucket_of(&p, 4);
        if b < 3 && later.iter().filter(|q| bucket_of(q, 4) == b).count() < 3 {
            later.push(p);
        }
    }
    let wdl = 0.3;
    for (activation, buckets) in [
        (Activation::CReLU, 1),
        (Activation::SCReLU, 1),
        (Activation::CReLU, 4),
        (Activation::SCReLU, 4),
    ] {
        let net = spread_bucketed_net(16, activation, buckets, 11);
        let mut positions = opening.clone();
        if buckets > 1 {
            positions.extend_from_slice(&later);
        }
        let n = positions.len() as f64;
        let mut buffers = vec![Gradients::zeros(16, buckets); 2];
        let loss = batch_gradients(&net, &positions, wdl, &mut buffers) / n;
        assert!((loss - loss_sum(&net, &positions, wdl, 1) / n).abs() < 1e-6 * loss);
        let g = buffers[0].clone();
        // Parameters: weights of features the first position lights, biases, output layer
        // (the first position's bucket, and the last position's).
        let (fs, fo) = positions[0].features(Layout::Plain).nth(5).unwrap();
        let b0 = bucket_of(&positions[0], buckets);
        let b1 = bucket_of(&positions[positions.len() - 1], buckets);
        let (w0, w1) = (32 * b0, 32 * b1);
        let probes: Vec<(&str, usize, f32)> = vec![
            ("ft_weights", fs * 16 + 3, g.ft_weights[fs * 16 + 3]),
            ("ft_weights", fo * 16 + 9, g.ft_weights[fo * 16 + 9]),
            ("ft_weights", fs * 16 + 14, g.ft_weights[fs * 16 + 14]),
            ("ft_bias", 2, g.ft_bias[2]),
            ("ft_bias", 12, g.ft_bias[12]),
            ("out_weights", w0 + 1, g.out_weights[w0 + 1]),
            ("out_weights", w0 + 16 + 5, g.out_weights[w0 + 16 + 5]),
            ("out_weights", w1 + 7, g.out_weights[w1 + 7]),
            ("out_bias", b0, g.out_bias[b0]),
            ("out_bias", b1, g.out_bias[b1]),
        ];
        let eps = 1e-3f32;
        let mut nonzero = 0;
        for (what, i, analytic) in probes {
            let at = |delta: f32| {
                let mut m = net.clone();
                match what {
                    "ft_weights" => m.ft_weights[i] += delta,
                    "ft_bias" => m.ft_bias[i] += delta,
                    "out_weights" => m.out_weights[i] += delta,
                    _ => m.out_bias[i] += delta,
                }
                loss_sum(&m, &positions, wdl, 1) / n
            };
            let numeric = ((at(eps) - at(-eps)) / (2.0 * eps as f64)) as f32;
            let tol = 2e-2 * analytic.abs().max(numeric.abs()) + 2e-6;
            assert!(
                (analytic - numeric).abs() <= tol,
                "{activation:?} {buckets} buckets {what}[{i}]: analytic {analytic}, numeric {numeric}"
            );
            nonzero += (analytic.abs() > 1e-5) as usize;
        }
        assert!(nonzero >= 8, "{activation:?}: too few gradients to compare");
        // A bucket no position falls into gets no gradient.
        let used: Vec<usize> = positions.iter().map(|p| bucket_of(p, buckets)).collect();
        for b in (0..buckets).filter(|b| !used.contains(b)) {
            assert_eq!(g.out_bias[b], 0.0);
            assert!(g.out_weights[32 * b..32 * (b + 1)]
                .iter()
                .all(|&w| w == 0.0));
        }
        if buckets > 1 {
            let distinct: std::collections::HashSet<_> = used.iter().collect();
            assert!(distinct.len() >= 3, "too few buckets: {used:?}");
        }
    }
}

/// The AVX2 build of the gradient kernel gives exactly the portable build's gradients and
/// loss, bit for bit (so a network does not depend on the CPU that trained it), for both
/// activations, with output buckets and king mirroring. On a CPU without AVX2 both run the
/// portable build and the test checks nothing more than determinism.
#[test]
fn the_avx2_gradient_kernel_is_bit_identical_to_the_portable_one() {
    let positions = random_positions(400, 11);
    for (activation, buckets, layout) in [
        (Activation::SCReLU, 8, Layout::KingMirror),
        (Activation::CReLU, 1, Layout::Plain),
        (Activation::SCReLU, 8, Layout::KingBuckets4),
    ] {
        let net = king_bucketed(spread_bucketed_net(48, activation, buckets, 9), layout);
        let mut grads = [Gradients::like(&net), Gradients::like(&net)];
        let mut losses = [0.0; 2];
        for (simd, (g, l)) in [Simd::Portable, Simd::Avx2]
            .into_iter()
            .zip(grads.iter_mut().zip(&mut losses))
        {
            *l = accumulate_on(simd, &net, &positions, 0.3, 1.0 / 400.0, g);
        }
        assert_eq!(losses[0].to_bits(), losses[1].to_bits(), "{activation:?}");
        let bits = |g: &Gradients| -> Vec<u32> {
            g.ft_weights
                .iter()
                .chain(&g.ft_bias)
                .chain(&g.out_weights)
                .chain(&g.out_bias)
                .map(|x| x.to_bits())
                .collect()
        };
        assert!(bits(&grads[0]).iter().any(|&b| b != 0));
        assert!(bits(&grads[0]) == bits(&grads[1]), "{activation:?}");
    }
}

#[test]
fn thread_counts_agree_on_the_gradient() {
    let positions = random_positions(500, 4);
    let net = spread_bucketed_net(32, Activation::SCReLU, 3, 5);
    let mut one = vec![Gradients::zeros(32, 3)];
    let mut three = vec![Gradients::zeros(32, 3); 3];
    let l1 = batch_gradients(&net, &positions, 0.25, &mut one);
    let l3 = batch_gradients(&net, &positions, 0.25, &mut three);
    assert!((l1 - l3).abs() < 1e-9 * l1);
    let (a, b) = (&one[0], &three[0]);
    let pairs = a
        .ft_weights
        .iter()
        .zip(&b.ft_weights)
        .chain(a.ft_bias.iter().zip(&b.ft_bias))
        .chain(a.out_weights.iter().zip(&b.out_weights))
        .chain(a.out_bias.iter().zip(&b.out_bias));
    let scale = a.out_weights.iter().fold(0.0f32, |m, g| m.max(g.abs()));
    for (x, y) in pairs {
        assert!((x - y).abs() <= 1e-5 * scale, "{x} vs {y}");
    }
}

#[test]
fn training_lowers_the_validation_loss() {
    let positions = random_positions(4000, 5);
    for (activation, buckets) in [
        (Activation::CReLU, 1),
        (Activation::SCReLU, 1),
        (Activation::SCReLU, 4),
    ] {
        let p = TrainParams {
            buckets,
            ..params(32, activation)
        };
        let untrained = FloatNet::init(32, activation, buckets, 1);
        let (_, val) = engram_train::split(positions.clone(), &p);
        let before = loss_sum(&untrained, &val, p.wdl, 1) / val.len() as f64;
        let mut epochs = 0;
        let fit = fit(positions.clone(), &p, &mut |e| {
            if let Progress::Epoch(_) = e {
                epochs += 1
            }
        })
        .unwrap();
        assert_eq!(epochs, 6);
        let after = fit.epochs.last().unwrap().val_loss.unwrap();
        let first = fit.epochs[0].val_loss.unwrap();
        assert!(
            after < 0.5 * before && after < first,
            "{activation:?} {buckets} buckets: validation loss {before} untrained, {first} after \
             one epoch, {after} at the end"
        );
        assert_eq!(fit.net.buckets, buckets);
    }
}

/// Positions of random games, as boards and packed.
fn boards(n: usize, seed: u64) -> Vec<(Board, Packed)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut board = Board::startpos();
        for ply in 0..160 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply >= 4 {
                let packed = Packed::new(&board, 0, GameResult::Draw, ply);
                out.push((board, packed));
            }
            board.play(moves.as_slice()[rng.below(moves.len())]);
        }
    }
    out.truncate(n);
    out
}

/// The integer inference against the float forward pass, on 1,500 positions, in two steps.
///
/// 1. Integer inference (`Network::evaluate_scalar`) against the float forward pass of the
///    *dequantised* network (the same integers as floats): only the integer code's two
///    truncating divisions differ (the SCReLU sum by QA: under 1 / (QA · QB); the final
///    one: under 1 cp), so they agree within 1 + SCALE / (QA · QB) ≈ 1.03 cp.
/// 2. Integer inference against the *original* float network: the quantisation's rounding
///    adds up. Each accumulator sums the bias and one column per piece (`n` pieces), each
///    value rounded by at most `0.5 / QA`; each output weight by at most `0.5 / QB`; the
///    output bias by `0.5 / (QA · QB)`. Two tolerances, per position, in centipawns:
///    - worst case (every rounding the same sign, activations L-Lipschitz, L = 1 for CReLU,
///      2 for SCReLU): `SCALE · (Σ_h (L · (n + 1) · 0.5 / QA · |w_h| + act_h · 0.5 / QB) +
///      1.5 / (QA · QB)) + 1`. Never exceeded, but loose (hundreds of cp at H = 64);
///    - statistical: with the roundings modelled as independent and uniform (variance
///      `δ² / 3` for a bound `δ`), the error's standard deviation σ is
///      `SCALE · √(Σ_h slope_h² · w_h² · (n + 1) / (12 QA²) + Σ_h act_h² / (12 QB²))`, with the
///      activation's local slope. Every position must be within `6σ + 1.03` cp, and the
///      root mean square of `error / σ` must be below 2 (it is about 1 if the model holds).
///
/// Both for one output bucket and for 8: a position's error involves only its bucket's
/// output layer, so the same bounds hold with that bucket's weights.
#[test]
fn quantised_inference_matches_the_float_network() {
    let positions = boards(1500, 21);
    let truncation = 1.0 + SCALE as f64 / (QA * QB) as f64;
    for (activation, buckets, layout) in [
        (Activation::CReLU, 1, Layout::Plain),
        (Activation::SCReLU, 1, Layout::Plain),
        (Activation::CReLU, 8, Layout::Plain),
        (Activation::SCReLU, 8, Layout::Plain),
        (Activation::SCReLU, 8, Layout::KingMirror),
        (Activation::SCReLU, 8, Layout::KingBuckets4),
    ] {
        let lipschitz = if activation == Activation::SCReLU {
            2.0
        } else {
            1.0
        };
        let net = king_bucketed(spread_bucketed_net(64, activation, buckets, 31), layout);
        let q = net.quantise().unwrap();
        assert_eq!((q.buckets, q.out_bias.len()), (buckets, buckets));
        assert_eq!(q.layout, layout);
        let deq = FloatNet::dequantise(&q);
        let (mut sum_err, mut sum_z2, mut worst, mut nonzero) = (0.0f64, 0.0f64, 0.0f64, 0);
        let mut seen = vec![0usize; buckets];
        for (board, packed) in &positions {
            let bucket = q.bucket(board.occupied().len());
            assert_eq!(bucket, bucket_of(packed, buckets));
            seen[bucket] += 1;
            let int = q.evaluate_scalar(board) as f64;
            let float = net.evaluate_cp(packed) as f64;
            let exact = deq.evaluate_cp(packed) as f64;
            assert!(
                (int - exact).abs() <= truncation + 1e-3,
                "{activation:?} {buckets} buckets: integer {int}, dequantised float {exact}"
            );
            let n1 = board.occupied().0.count_ones() as f64 + 1.0;
            let mut stm = vec![0.0; 64];
            let mut ntm = vec![0.0; 64];
            net.accumulate(packed, &mut stm, &mut ntm);
            let (mut bound, mut var) = (1.5 / (QA * QB) as f64, 0.0);
            for (h, &a) in stm.iter().chain(&ntm).enumerate() {
                let (act, slope) = match activation {
                    Activation::CReLU => activate::<false>(a),
                    Activation::SCReLU => activate::<true>(a),
                };
                let (act, slope) = (act as f64, slope as f64);
                let w = q.bucket_weights(bucket)[h] as f64 / QB as f64;
                bound += lipschitz * n1 * 0.5 / QA as f64 * w.abs() + act * 0.5 / QB as f64;
                var += (slope * w).powi(2) * n1 / (12.0 * (QA * QA) as f64)
                    + act * act / (12.0 * (QB * QB) as f64);
            }
            let bound_cp = bound * SCALE as f64 + 1.0 + 1e-2;
            let sigma = var.sqrt() * SCALE as f64;
            let err = (int - float).abs();
            assert!(
                err <= bound_cp && err <= 6.0 * sigma + truncation,
                "{activation:?} {buckets} buckets: integer {int}, float {float}, bound {bound_cp}, σ {sigma}"
            );
            sum_err += err;
            sum_z2 += (err / sigma).powi(2);
            worst = worst.max(err);
            nonzero += (int != 0.0) as usize;
        }
        let mean = sum_err / positions.len() as f64;
        let rms_z = (sum_z2 / positions.len() as f64).sqrt();
        eprintln!(
            "{activation:?}, {buckets} buckets: |integer − float| mean {mean:.2} cp, worst \
             {worst:.2} cp, rms(error / σ) {rms_z:.2}; positions per bucket {seen:?}"
        );
        assert!(rms_z < 2.0, "{activation:?}: rms(error / σ) = {rms_z}");
        assert!(nonzero > 1000, "a network that says 0 tests nothing");
        let used = seen.iter().filter(|&&n| n > 0).count();
        assert!(
            used >= buckets.min(4),
            "too few buckets exercised: {seen:?}"
        );
    }
}

#[test]
fn quantisation_refuses_overflow() {
    let good = spread_net(16, Activation::SCReLU, 1);
    assert!(good.quantise().is_ok());
    let mut big = good.clone();
    big.ft_weights[100] = 200.0; // · 255 > 32767
    assert!(big.quantise().unwrap_err().contains("ft_weights[100]"));
    let mut out = good.clone();
    out.out_weights[3] = 600.0; // · 64 > 32767
    assert!(out.quantise().unwrap_err().contains("out_weights[3]"));
    let mut bias = good.clone();
    bias.out_bias[0] = 1e6; // · 16320 > 2³¹
    assert!(bias.quantise().is_err());
    // Every bucket is checked.
    let buckets = spread_bucketed_net(16, Activation::SCReLU, 8, 1);
    assert!(buckets.quantise().is_ok());
    let mut last = buckets.clone();
    last.out_bias[7] = -1e6;
    assert!(last.quantise().unwrap_err().contains("out_bias[7]"));
    let mut last = buckets;
    last.out_weights[7 * 32 + 31] = 600.0;
    assert!(last.quantise().unwrap_err().contains("out_weights[255]"));
    let mut nan = good.clone();
    nan.ft_bias[0] = f32::NAN;
    assert!(nan.quantise().is_err());
    // Each weight fits, but 32 pieces could push hidden unit 5 past an i16.
    let mut acc = good;
    for f in 0..32 {
        acc.ft_weights[f * 16 + 5] = 4.0;
    }
    acc.ft_bias[5] = 0.5;
    assert!(acc.quantise().unwrap_err().contains("hidden unit 5"));
}

fn random_game(rng: &mut Rng, plies: usize) -> GameRecord {
    let mut board = Board::startpos();
    let mut g = GameRecord {
        opening: Vec::new(),
        scored: Vec::new(),
        result: GameResult::from_code(rng.below(3) as u8).unwrap(),
        end: End::from_code(0).unwrap(),
    };
    for ply in 0..plies {
        let moves = board.legal_moves();
        if moves.is_empty() || board.halfmove_clock() >= 100 {
            break;
        }
        let mv: Move = moves.as_slice()[rng.below(moves.len())];
        if ply < 8 {
            g.opening.push(mv);
        } else {
            g.scored.push((mv, 100 * material(&board) as i16));
        }
        board.play(mv);
    }
    g
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("engram-train-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_chunk(dir: &std::path::Path, name: &str, games: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let games: Vec<_> = (0..games).map(|_| random_game(&mut rng, 120)).collect();
    let header = ChunkHeader {
        games: 0,
        positions: 0,
        seed,
        index: 0,
        nodes: 0,
        generator: 0,
    };
    let bytes = chunk_bytes(header, &games);
    std::fs::write(dir.join(name), &bytes).unwrap();
    bytes
}

#[test]
fn load_dir_reads_good_chunks_and_reports_damaged_ones() {
    let dir = temp_dir("load");
    write_chunk(&dir, "a.games", 30, 1);
    let mut bad = write_chunk(&dir, "b.games", 30, 2);
    bad[500] ^= 0x40;
    std::fs::write(dir.join("b.games"), &bad).unwrap();
    std::fs::write(dir.join("c.games"), b"ENGRAMGM").unwrap();
    std::fs::write(dir.join("notes.txt"), b"not a chunk").unwrap();
    let loaded = load_dir(std::slice::from_ref(&dir), 2, 1).unwrap();
    let (positions, report) = (&loaded.positions, &loaded.report);
    assert_eq!(report.files, 1);
    assert_eq!(loaded.game_ends.len(), 30);
    assert_eq!(loaded.game_ends.last(), Some(&positions.len()));
    assert_eq!(report.games, 30);
    assert_eq!(report.kept, positions.len() as u64);
    assert!(report.kept > 100 && report.kept < report.scored);
    let damaged: Vec<_> = report.damaged.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(damaged, vec![dir.join("b.games"), dir.join("c.games")]);
    assert!(
        report.damaged[0].1.contains("checksum"),
        "{:?}",
        report.damaged
    );
    assert!(load_dir(&[dir.join("missing")], 1, 1).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn validation_holds_out_whole_games() {
    // 50 "games" of 1..=50 positions, told apart by their ply field.
    let mut positions = Vec::new();
    let mut ends = Vec::new();
    for g in 0..50u16 {
        for i in 0..=g {
            let mut p = random_positions(1, i as u64)[0];
            p.ply = g;
            positions.push(p);
        }
        ends.push(positions.len());
    }
    let p = TrainParams {
        val_fraction: 0.1,
        ..TrainParams::default()
    };
    let (train, val) = split_games(positions.clone(), &ends, &p);
    assert_eq!(train.len() + val.len(), positions.len());
    assert!(val.len() >= 128 && val.len() < 128 + 50, "{}", val.len());
    for v in &val {
        assert!(train.iter().all(|t| t.ply != v.ply), "game {} split", v.ply);
        let whole = val.iter().filter(|w| w.ply == v.ply).count();
        assert_eq!(whole, v.ply as usize + 1);
    }
    assert_eq!((train, val), split_games(positions, &ends, &p));
}

#[test]
fn same_seed_and_threads_give_the_same_net() {
    let positions = random_positions(3000, 9);
    let p = TrainParams {
        epochs: 2,
        ..params(32, Activation::SCReLU)
    };
    let run = |p: &TrainParams| {
        let fit = fit(positions.clone(), p, &mut |_| {}).unwrap();
        fit.net.quantise().unwrap().to_bytes()
    };
    let a = run(&p);
    assert_eq!(a, run(&p));
    assert_ne!(
        a,
        run(&TrainParams {
            seed: 8,
            ..p.clone()
        })
    );
    let bucketed = TrainParams {
        buckets: 8,
        ..p.clone()
    };
    let b = run(&bucketed);
    assert_eq!(b, run(&bucketed));
    assert_eq!(Network::from_bytes(&b).unwrap().buckets, 8);
}

/// [`one_bucket_trains_the_network_of_before_buckets`]'s network's xxh3.
const GOLDEN_XXH3: &str = "119931096412b6c9";

/// One output bucket trains, bit for bit, the network the trainer trained before output
/// buckets existed: the xxh3 below is the one the code before buckets (commit b7f102c)
/// gave for this run. A change that alters the trainer's arithmetic must change it, and say
/// so.
#[test]
fn one_bucket_trains_the_network_of_before_buckets() {
    let positions = random_positions(3000, 17);
    let p = TrainParams {
        hidden: 32,
        activation: Activation::SCReLU,
        epochs: 3,
        batch: 256,
        lr: 0.01,
        threads: 2,
        val_fraction: 0.1,
        seed: 5,
        ..TrainParams::default()
    };
    assert_eq!(p.buckets, 1);
    let fit = fit(positions, &p, &mut |_| {}).unwrap();
    let bytes = fit.net.quantise().unwrap().to_bytes();
    let xxh3 = xxhash_rust::xxh3::xxh3_64(&bytes);
    assert_eq!(format!("{xxh3:016x}"), GOLDEN_XXH3);
}

#[test]
fn a_run_writes_the_net_plot_and_summary() {
    let dir = temp_dir("run");
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    write_chunk(&data, "0.games", 40, 3);
    let config = TrainConfig {
        data: vec![data],
        out: dir.join("net.nnue"),
        plot: Some(dir.join("loss.svg")),
        summary: Some(dir.join("summary.json")),
        params: TrainParams {
            epochs: 3,
            ..params(16, Activation::CReLU)
        },
    };
    let mut lines = Vec::new();
    let report = train(&config, &mut |e| {
        if let Progress::Epoch(r) = e {
            lines.push(r.line())
        }
    })
    .unwrap();
    assert_eq!(lines.len(), 3);
    let net = Network::load(&config.out).unwrap();
    assert_eq!(net, report.network);
    assert_eq!((net.hidden, net.activation), (16, Activation::CReLU));
    let svg = std::fs::read_to_string(dir.join("loss.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("validation"));
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(summary.contains("\"epochs\": [") && summary.contains("\"val_loss\""));
    assert_eq!(summary.matches("\"train_loss\"").count(), 3);
    assert_eq!(
        summary.matches("\"output_buckets\": 1").count(),
        2,
        "{summary}"
    );
    assert_eq!(report.shape(), "(768 -> 16) x 2 -> 1, crelu");
    // With buckets: the file, the summary and the shape say so.
    let config = TrainConfig {
        plot: None,
        params: TrainParams {
            buckets: 8,
            ..config.params
        },
        ..config
    };
    let report = train(&config, &mut |_| {}).unwrap();
    let net = Network::load(&config.out).unwrap();
    assert_eq!(net, report.network);
    assert_eq!(net.buckets, 8);
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert_eq!(
        summary.matches("\"output_buckets\": 8").count(),
        2,
        "{summary}"
    );
    assert_eq!(
        report.shape(),
        "(768 -> 16) x 2 -> 1, 8 output buckets, crelu"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn mirroring_doubles_the_training_positions() {
    let positions = random_positions(2000, 12);
    let p = TrainParams {
        epochs: 1,
        ..params(16, Activation::SCReLU)
    };
    let plain = fit(positions.clone(), &p, &mut |_| {}).unwrap();
    let mirrored = fit(
        positions,
        &TrainParams {
            mirror: true,
            ..p.clone()
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(mirrored.train_positions, 2 * plain.train_positions);
    assert_eq!(mirrored.val_positions, plain.val_positions);
    assert!(mirrored.epochs[0].val_loss.unwrap().is_finite());
}

#[test]
fn king_mirror_trains_a_king_mirrored_network() {
    let positions = random_positions(2000, 13);
    let p = TrainParams {
        epochs: 1,
        king_mirror: true,
        ..params(16, Activation::SCReLU)
    };
    let fit_km = fit(positions.clone(), &p, &mut |_| {}).unwrap();
    assert_eq!(fit_km.net.layout, Layout::KingMirror);
    assert_eq!(fit_km.net.quantise().unwrap().layout, Layout::KingMirror);
    assert!(fit_km.epochs[0].val_loss.unwrap().is_finite());
    let plain = fit(
        positions.clone(),
        &TrainParams {
            king_mirror: false,
            ..p.clone()
        },
        &mut |_| {},
    )
    .unwrap();
    assert_ne!(plain.net, fit_km.net, "the layout changes what is learnt");
    // Mirroring the data as well would only repeat positions: refused.
    let both = TrainParams { mirror: true, ..p };
    assert!(both.validate().is_err());
    assert!(fit(positions, &both, &mut |_| {}).is_err());
}

/// The factoriser's gradients: a king-bucketed network's bucket columns and shared columns
/// both get the gradient of the features that light them, which equals the loss's slope
/// along each (finite differences); a bucket no position's king stands in gets none.
#[test]
fn king_bucket_gradients_match_finite_differences() {
    let positions = random_positions(24, 3);
    let wdl = 0.3;
    let layout = Layout::KingBuckets4;
    let net = king_bucketed(spread_bucketed_net(16, Activation::SCReLU, 1, 11), layout);
    let n = positions.len() as f64;
    let mut buffers = vec![Gradients::like(&net); 2];
    let loss = batch_gradients(&net, &positions, wdl, &mut buffers) / n;
    assert!((loss - loss_sum(&net, &positions, wdl, 1) / n).abs() < 1e-6 * loss);
    let g = buffers[0].clone();
    let (fs, fo) = positions[0].features(layout).nth(5).unwrap();
    let (ss, so) = (net.shared(fs).unwrap(), net.shared(fo).unwrap());
    assert_eq!(ss, layout.inputs() + fs % 768);
    let probes = [
        fs * 16 + 3,
        fo * 16 + 9,
        ss * 16 + 3,
        so * 16 + 9,
        ss * 16 + 14,
    ];
    let eps = 1e-3f32;
    for i in probes {
        let at = |delta: f32| {
            let mut m = net.clone();
            m.ft_weights[i] += delta;
            loss_sum(&m, &positions, wdl, 1) / n
        };
        let numeric = ((at(eps) - at(-eps)) / (2.0 * eps as f64)) as f32;
        let analytic = g.ft_weights[i];
        let tol = 2e-2 * analytic.abs().max(numeric.abs()) + 2e-6;
        assert!(
            (analytic - numeric).abs() <= tol,
            "ft_weights[{i}]: analytic {analytic}, numeric {numeric}"
        );
        assert!(analytic.abs() > 1e-6, "ft_weights[{i}] gets a gradient");
    }
    // Early positions: every king on its first rank, so buckets 2 and 3 get nothing.
    let block = 768 * 16;
    assert!(g.ft_weights[2 * block..4 * block].iter().all(|&w| w == 0.0));
}

#[test]
fn king_buckets_train_a_factorised_network_and_fold_it() {
    let positions = random_positions(2000, 13);
    let p = TrainParams {
        epochs: 2,
        king_buckets: true,
        ..params(16, Activation::SCReLU)
    };
    let fit_kb = fit(positions.clone(), &p, &mut |_| {}).unwrap();
    assert_eq!(fit_kb.net.layout, Layout::KingBuckets4);
    assert_eq!(fit_kb.net.ft_weights.len(), 5 * 768 * 16);
    assert!(fit_kb.epochs[1].val_loss.unwrap().is_finite());
    let q = fit_kb.net.quantise().unwrap();
    assert_eq!(
        (q.layout, q.ft_weights.len()),
        (Layout::KingBuckets4, 4 * 768 * 16)
    );
    // Each bucket's quantised column is its own plus the shared one, and the file
    // round-trips.
    let (h, w) = (16, &fit_kb.net.ft_weights);
    for f in [0, 5, 767, 768 + 100, 3 * 768 + 700] {
        for u in [0, 7, 15] {
            let folded = w[f * h + u] + w[(4 * 768 + f % 768) * h + u];
            assert_eq!(q.ft_weights[f * h + u], (folded * QA as f32).round() as i16);
        }
    }
    assert_eq!(Network::from_bytes(&q.to_bytes()).unwrap(), q);
    let km = fit(
        positions.clone(),
        &TrainParams {
            king_buckets: false,
            king_mirror: true,
            ..p.clone()
        },
        &mut |_| {},
    )
    .unwrap();
    assert_ne!(
        km.net.quantise().unwrap().ft_weights[..768 * 16],
        q.ft_weights[..768 * 16]
    );
    let both = TrainParams { mirror: true, ..p };
    assert!(both.validate().is_err());
}

/// A second learning-rate drop must come after the first (given or default); a valid one
/// takes the rate to a hundredth, and its epoch is in the settings.
#[test]
fn a_second_rate_drop_must_follow_the_first() {
    let p = TrainParams {
        epochs: 40,
        lr_drop_epoch: Some(28),
        lr_drop2_epoch: Some(36),
        ..params(16, Activation::SCReLU)
    };
    assert!(p.validate().is_ok());
    let s = p.schedule();
    assert!((s.lr(36) - p.lr / 100.0).abs() < 1e-9);
    assert!(p
        .json_fields()
        .contains(&("lr_drop2_epoch", "36".to_string())));
    for second in [28, 10] {
        let bad = TrainParams {
            lr_drop2_epoch: Some(second),
            ..p.clone()
        };
        assert!(bad.validate().is_err(), "second drop at {second}");
    }
    // Against the default drop (after 75% of 40 epochs: epoch 31).
    let default_first = TrainParams {
        lr_drop_epoch: None,
        lr_drop2_epoch: Some(31),
        ..p
    };
    assert!(default_first.validate().is_err());
}
