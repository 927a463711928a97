//! A training run: its settings ([`TrainParams`], [`TrainConfig`]), the validation splits,
//! [`fit`] and [`fit_split`] on positions in memory, and [`train`], a whole run from chunk
//! files to the network file, plot and summary.

use crate::data::Packed;
use crate::grad::{self, Gradients};
use crate::loader::{load_dir, LoadReport};
use crate::report::{self, EpochReport, TrainReport};
use crate::rng::Rng;
use crate::schedule::StepDrop;
use crate::{loss, plot, AdamW, AdamWConfig, FloatNet};
use engram_nnue::net::{Activation, MAX_BUCKETS, MAX_HIDDEN};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Default hidden size.
pub const DEFAULT_HIDDEN: usize = 128;
/// Default batch size (positions per optimiser step).
pub const DEFAULT_BATCH: usize = 16_384;
/// Default learning rate.
pub const DEFAULT_LR: f32 = 0.001;
/// Default share of the positions held out for validation.
pub const DEFAULT_VAL_FRACTION: f64 = 0.02;
/// Default number of epochs.
pub const DEFAULT_EPOCHS: usize = 40;
/// The most scores [`TrainParams::smooth`] may average.
pub const MAX_SMOOTH: usize = 16;
/// Default number of output buckets (one: the plain network).
pub const DEFAULT_BUCKETS: usize = 1;

/// The settings of a fit: network shape, optimisation, threads and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainParams {
    /// Hidden size H (a multiple of 16, at most [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// The hidden activation.
    pub activation: Activation,
    /// Output buckets N, 1 to [`MAX_BUCKETS`]: output layers chosen by the number of pieces
    /// ([`engram_nnue::net::output_bucket`]). One bucket trains exactly the network the trainer
    /// trained before buckets, bit for bit.
    pub buckets: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Starting learning rate.
    pub lr: f32,
    /// First epoch (1-based) at a tenth of the rate; `None` for the default, after 75% of the
    /// epochs ([`StepDrop::default_drop`]).
    pub lr_drop_epoch: Option<usize>,
    /// First epoch (1-based) at a hundredth of the rate, if any; after the first drop.
    pub lr_drop2_epoch: Option<usize>,
    /// λ: **the weight of the game result** in the target (bullet's `wdl`; nnue-pytorch's
    /// `lambda_` is `1 − λ`).
    pub wdl: f32,
    /// AdamW's settings (weight decay among them).
    pub adamw: AdamWConfig,
    /// Threads computing gradients.
    pub threads: usize,
    /// Share of the positions held out for validation, in `[0, 1)`.
    pub val_fraction: f64,
    /// Seed of the initialisation, the validation split and the shuffles.
    pub seed: u64,
    /// Also train on every training position mirrored left to right
    /// ([`Packed::mirrored`]), doubling the positions of an epoch (the validation positions
    /// stay as they are).
    pub mirror: bool,
    /// Train a king-mirrored network ([`engram_nnue::features::Layout::KingMirror`]): from a
    /// perspective whose king is on files e–h, squares are mirrored left to right. A position
    /// and its mirror image then light the same features, so `mirror` would only repeat
    /// positions and is refused with it.
    pub king_mirror: bool,
    /// Train a network with king buckets ([`engram_nnue::features::Layout::KingBuckets4`]):
    /// king-mirrored, with four sets of inputs by the region of the perspective's king and a
    /// shared set that every bucket adds (the factoriser, folded in when quantised). Refused
    /// with `mirror` for the same reason as `king_mirror`.
    pub king_buckets: bool,
    /// Score smoothing: each position's target score is the mean of its own search score
    /// and those of up to `smooth − 1` later positions with the same side to move
    /// ([`crate::data::extract_smoothed`]); 1 is the position's own score.
    pub smooth: usize,
}

impl Default for TrainParams {
    fn default() -> Self {
        TrainParams {
            hidden: DEFAULT_HIDDEN,
            activation: Activation::SCReLU,
            buckets: DEFAULT_BUCKETS,
            epochs: DEFAULT_EPOCHS,
            batch: DEFAULT_BATCH,
            lr: DEFAULT_LR,
            lr_drop_epoch: None,
            lr_drop2_epoch: None,
            wdl: loss::DEFAULT_WDL,
            adamw: AdamWConfig::default(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            val_fraction: DEFAULT_VAL_FRACTION,
            seed: 1,
            mirror: false,
            king_mirror: false,
            king_buckets: false,
            smooth: 1,
        }
    }
}

impl TrainParams {
    /// Checks the settings, naming the first bad one.
    pub fn validate(&self) -> Result<(), String> {
        if self.hidden == 0 || !self.hidden.is_multiple_of(16) || self.hidden > MAX_HIDDEN {
            return Err(format!(
                "hidden size {} must be a positive multiple of 16, at most {MAX_HIDDEN}",
                self.hidden
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(format!(
                "{} output buckets: must be 1 to {MAX_BUCKETS}",
                self.buckets
            ));
        }
        if self.epochs == 0 || self.batch == 0 || self.threads == 0 {
            return Err("epochs, batch size and threads must be at least 1".into());
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return Err(format!("learning rate {} must be positive", self.lr));
        }
        if !(0.0..=1.0).contains(&self.wdl) {
            return Err(format!("wdl (λ) {} must be in [0, 1]", self.wdl));
        }
        if !(0.0..1.0).contains(&self.val_fraction) {
            return Err(format!(
                "validation fraction {} must be in [0, 1)",
                self.val_fraction
            ));
        }
        if self.mirror && (self.king_mirror || self.king_buckets) {
            return Err(
                "mirror adds nothing to a king-mirrored network: a position and its \
                        mirror image light the same features"
                    .into(),
            );
        }
        if !(1..=MAX_SMOOTH).contains(&self.smooth) {
            return Err(format!(
                "score smoothing {} must be 1 to {MAX_SMOOTH}",
                self.smooth
            ));
        }
        if self.lr_drop_epoch == Some(0) {
            return Err("the learning-rate drop epoch counts from 1".into());
        }
        if let Some(second) = self.lr_drop2_epoch {
            let first = self.schedule().drop_epoch;
            if second <= first {
                return Err(format!(
                    "the second learning-rate drop (epoch {second}) must come after the first \
                     (epoch {first})"
                ));
            }
        }
        Ok(())
    }

    /// The learning-rate schedule.
    pub fn schedule(&self) -> StepDrop {
        StepDrop {
            lr: self.lr,
            drop_epoch: self
                .lr_drop_epoch
                .unwrap_or_else(|| StepDrop::default_drop(self.epochs)),
            second_drop: self.lr_drop2_epoch,
        }
    }

    /// The settings as `(name, JSON value)` pairs, for the summary.
    pub fn json_fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("hidden", self.hidden.to_string()),
            ("activation", report::json_str(self.activation.name())),
            ("output_buckets", self.buckets.to_string()),
            ("epochs", self.epochs.to_string()),
            ("batch", self.batch.to_string()),
            ("lr", self.lr.to_string()),
            ("lr_drop_epoch", self.schedule().drop_epoch.to_string()),
            (
                "lr_drop2_epoch",
                self.lr_drop2_epoch
                    .map_or_else(|| "null".to_string(), |e| e.to_string()),
            ),
            ("wdl", self.wdl.to_string()),
            ("weight_decay", self.adamw.decay.to_string()),
            ("threads", self.threads.to_string()),
            ("val_fraction", self.val_fraction.to_string()),
            ("seed", self.seed.to_string()),
            ("mirror", self.mirror.to_string()),
            ("king_mirror", self.king_mirror.to_string()),
            ("king_buckets", self.king_buckets.to_string()),
            ("smooth", self.smooth.to_string()),
        ]
    }
}

/// A training run: where the data is, the settings, and where the results go.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Directories of `*.games` chunk files.
    pub data: Vec<PathBuf>,
    /// The quantised network file to write.
    pub out: PathBuf,
    /// The SVG loss plot to write, if any.
    pub plot: Option<PathBuf>,
    /// The JSON summary to write, if any.
    pub summary: Option<PathBuf>,
    /// The fit's settings.
    pub params: TrainParams,
}

/// What a run tells its caller as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// The data is loaded.
    Loaded(&'a LoadReport),
    /// The split is made: positions to train on and held out.
    Split {
        /// Training positions.
        train: usize,
        /// Validation positions.
        val: usize,
    },
    /// A batch of an epoch is done.
    Batch {
        /// The epoch, from 1.
        epoch: usize,
        /// Training positions done in this epoch.
        done: usize,
        /// Training positions in an epoch.
        total: usize,
    },
    /// An epoch is done.
    Epoch(&'a EpochReport),
}

/// A fitted float network and its history.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The network after the last epoch.
    pub net: FloatNet,
    /// Every epoch.
    pub epochs: Vec<EpochReport>,
    /// Positions trained on.
    pub train_positions: usize,
    /// Positions held out.
    pub val_positions: usize,
    /// Seconds of training.
    pub seconds: f64,
}

/// Seeds of the run's random streams, derived from the one seed.
fn stream(seed: u64, what: u64) -> Rng {
    Rng::new(seed ^ what.wrapping_mul(0xd6e8_feb8_6659_fd93))
}

fn val_count(n: usize, fraction: f64) -> usize {
    if fraction > 0.0 {
        ((n as f64 * fraction).round() as usize).clamp(1, n)
    } else {
        0
    }
}

/// Splits `positions` (shuffled with the seed) into training and validation positions,
/// position by position: for data without game boundaries (positions of one game can fall
/// on both sides, which flatters the validation loss; [`split_games`] does not).
pub fn split(mut positions: Vec<Packed>, params: &TrainParams) -> (Vec<Packed>, Vec<Packed>) {
    stream(params.seed, 1).shuffle(&mut positions);
    let val = val_count(positions.len(), params.val_fraction);
    let train = positions.split_off(val);
    (train, positions)
}

/// Splits `positions` into training and validation positions by whole games (`game_ends`
/// as in [`Loaded`](crate::loader::Loaded)): games taken in an order shuffled with the seed
/// are held out until they hold the validation fraction of the positions. Positions after the last game
/// end, if any, count as one more game.
pub fn split_games(
    positions: Vec<Packed>,
    game_ends: &[usize],
    params: &TrainParams,
) -> (Vec<Packed>, Vec<Packed>) {
    let mut ends: Vec<usize> = game_ends
        .iter()
        .copied()
        .filter(|&e| e <= positions.len())
        .collect();
    if ends.last() != Some(&positions.len()) {
        ends.push(positions.len());
    }
    let want = val_count(positions.len(), params.val_fraction);
    let mut order: Vec<usize> = (0..ends.len()).collect();
    stream(params.seed, 1).shuffle(&mut order);
    let mut held = vec![false; ends.len()];
    let mut val_len = 0;
    for g in order {
        if val_len >= want {
            break;
        }
        held[g] = true;
        val_len += ends[g] - if g == 0 { 0 } else { ends[g - 1] };
    }
    let (mut train, mut val) = (Vec::with_capacity(positions.len() - val_len), Vec::new());
    let mut start = 0;
    for (g, &end) in ends.iter().enumerate() {
        let end = end.max(start);
        let side = if held[g] { &mut val } else { &mut train };
        side.extend_from_slice(&positions[start..end]);
        start = end;
    }
    (train, val)
}

/// Trains a network from a fresh initialisation on `positions`, split position by position
/// by [`split`]; see [`fit_split`].
pub fn fit(
    positions: Vec<Packed>,
    params: &TrainParams,
    progress: &mut dyn FnMut(Progress),
) -> Result<Fit, String> {
    params.validate()?;
    let (train, val) = split(positions, params);
    fit_split(train, val, params, progress)
}

/// Trains a network from a fresh initialisation on `train`, reporting the loss on `val`
/// after each epoch: `epochs` passes, each over the training positions shuffled anew, in
/// batches, with AdamW and the step-drop schedule.
pub fn fit_split(
    mut train: Vec<Packed>,
    val: Vec<Packed>,
    params: &TrainParams,
    progress: &mut dyn FnMut(Progress),
) -> Result<Fit, String> {
    params.validate()?;
    if train.is_empty() {
        return Err("no positions to train on".into());
    }
    if params.mirror {
        let mirrored: Vec<Packed> = train.iter().map(Packed::mirrored).collect();
        train.extend(mirrored);
    }
    progress(Progress::Split {
        train: train.len(),
        val: val.len(),
    });
    let mut net = FloatNet::init(
        params.hidden,
        params.activation,
        params.buckets,
        stream(params.seed, 2).next_u64(),
    );
    if params.king_buckets {
        net = net.with_layout(engram_nnue::features::Layout::KingBuckets4);
    } else if params.king_mirror {
        net = net.with_layout(engram_nnue::features::Layout::KingMirror);
    }
    let mut opt = AdamW::like(&net, params.adamw);
    let mut buffers = vec![Gradients::like(&net); params.threads];
    let schedule = params.schedule();
    let start = Instant::now();
    let mut epochs = Vec::with_capacity(params.epochs);
    for epoch in 1..=params.epochs {
        let epoch_start = Instant::now();
        stream(params.seed, 100 + epoch as u64).shuffle(&mut train);
        let lr = schedule.lr(epoch);
        let mut loss = 0.0;
        let mut done = 0;
        for batch in train.chunks(params.batch) {
            loss += grad::batch_gradients(&net, batch, params.wdl, &mut buffers);
            opt.step(&mut net, &buffers[0], lr);
            done += batch.len();
            progress(Progress::Batch {
                epoch,
                done,
                total: train.len(),
            });
        }
        let val_loss = (!val.is_empty())
            .then(|| grad::loss_sum(&net, &val, params.wdl, params.threads) / val.len() as f64);
        let report = EpochReport {
            epoch,
            epochs: params.epochs,
            lr,
            train_loss: loss / train.len() as f64,
            val_loss,
            positions: train.len(),
            seconds: epoch_start.elapsed().as_secs_f64(),
            elapsed: start.elapsed().as_secs_f64(),
        };
        progress(Progress::Epoch(&report));
        epochs.push(report);
    }
    Ok(Fit {
        net,
        epochs,
        train_positions: train.len(),
        val_positions: val.len(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    engram_tt::write_atomic(path, |f| f.write_all(bytes)).map_err(|e| e.to_string())
}

/// A whole run: loads the chunks of `config.data` (damaged files skipped and reported),
/// holds out whole games for validation ([`split_games`]), [`fit_split`]s, quantises (refusing a network that would overflow), and writes the network
/// file, and the plot and summary if asked, each atomically.
pub fn train(
    config: &TrainConfig,
    progress: &mut dyn FnMut(Progress),
) -> Result<TrainReport, String> {
    config.params.validate()?;
    let loaded = load_dir(&config.data, config.params.threads, config.params.smooth)?;
    let load = loaded.report;
    progress(Progress::Loaded(&load));
    if loaded.positions.is_empty() {
        return Err(format!("no training positions found ({})", load.summary()));
    }
    let (train, val) = split_games(loaded.positions, &loaded.game_ends, &config.params);
    let fit = fit_split(train, val, &config.params, progress)?;
    let network = fit
        .net
        .quantise()
        .map_err(|e| format!("quantisation failed, no network written: {e}"))?;
    let bytes = network.to_bytes();
    write_file(&config.out, &bytes)?;
    let report = TrainReport {
        load,
        train_positions: fit.train_positions,
        val_positions: fit.val_positions,
        epochs: fit.epochs,
        seconds: fit.seconds,
        network,
        checksum: xxhash_rust::xxh3::xxh3_64(&bytes),
    };
    if let Some(path) = &config.plot {
        let title = format!("{}: loss per epoch", report.shape());
        write_file(path, plot::loss_svg(&title, &report.epochs)?.as_bytes())?;
    }
    if let Some(path) = &config.summary {
        let mut settings = config.params.json_fields();
        let dirs: Vec<String> = config
            .data
            .iter()
            .map(|d| report::json_str(&d.display().to_string()))
            .collect();
        settings.push(("data", format!("[{}]", dirs.join(", "))));
        write_file(path, report.to_json(&settings).as_bytes())?;
    }
    Ok(report)
}
