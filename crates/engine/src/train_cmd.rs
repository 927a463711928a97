//! `engram train`: trains a network on self-play chunks (`engram-nnue`'s trainer) and writes
//! it, with an optional loss plot (SVG) and JSON summary. Prints one line per epoch, with a
//! progress bar on a terminal.

use clap::builder::RangedU64ValueParser;
use clap::{value_parser, Args};
use engram_nnue::Activation;
use engram_train::{self as train, Progress, TrainConfig, TrainParams};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;

fn activation(s: &str) -> Result<Activation, String> {
    match s.to_ascii_lowercase().as_str() {
        "screlu" => Ok(Activation::SCReLU),
        "crelu" => Ok(Activation::CReLU),
        _ => Err(format!("'{s}' is not an activation (screlu or crelu)")),
    }
}

fn fraction(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    (0.0..1.0)
        .contains(&v)
        .then_some(v)
        .ok_or_else(|| format!("{v} is not in [0, 1)"))
}

fn unit(s: &str) -> Result<f32, String> {
    let v: f32 = s.parse().map_err(|e| format!("{e}"))?;
    (0.0..=1.0)
        .contains(&v)
        .then_some(v)
        .ok_or_else(|| format!("{v} is not in [0, 1]"))
}

fn positive(s: &str) -> Result<f32, String> {
    let v: f32 = s.parse().map_err(|e| format!("{e}"))?;
    (v.is_finite() && v > 0.0)
        .then_some(v)
        .ok_or_else(|| format!("{v} is not positive"))
}

fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `engram train --data DIR --out FILE [...]`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// A directory of `*.games` chunks (`engram datagen`'s output); repeat for several.
    /// Damaged chunks are skipped and listed.
    #[arg(long, value_name = "DIR", required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write (atomically).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// Hidden size H of `(768 -> H) x 2 -> 1` (a multiple of 16).
    #[arg(
        long,
        value_name = "H",
        default_value_t = train::DEFAULT_HIDDEN,
        value_parser = RangedU64ValueParser::<usize>::new().range(16..=engram_nnue::net::MAX_HIDDEN as u64),
    )]
    pub hidden: usize,
    /// The hidden activation: `screlu` (clamp(x, 0, 1)²) or `crelu` (clamp(x, 0, 1)).
    #[arg(long, value_name = "screlu|crelu", default_value = "screlu", value_parser = activation)]
    pub activation: Activation,
    /// Output buckets, 1 to 16: output layers chosen by the number of pieces on the board
    /// (kings included), bucket ((pieces - 2) * N / 32).min(N - 1). 1 is the plain network.
    #[arg(
        long,
        value_name = "N",
        default_value_t = train::DEFAULT_BUCKETS,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=engram_nnue::net::MAX_BUCKETS as u64),
    )]
    pub output_buckets: usize,
    /// Passes over the training positions.
    #[arg(long, value_name = "N", default_value_t = train::DEFAULT_EPOCHS,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, value_name = "N", default_value_t = train::DEFAULT_BATCH,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub batch: usize,
    /// Starting learning rate (AdamW).
    #[arg(long, value_name = "RATE", default_value_t = train::DEFAULT_LR, value_parser = positive)]
    pub lr: f32,
    /// λ, the weight of the GAME RESULT in the target (bullet's `wdl`; nnue-pytorch's
    /// `lambda` is 1 − λ): t = λ·result + (1 − λ)·sigmoid(score / 400).
    #[arg(long, value_name = "λ", default_value_t = train::loss::DEFAULT_WDL, value_parser = unit)]
    pub wdl: f32,
    /// First epoch (from 1) at a tenth of the learning rate [default: after 75% of the
    /// epochs].
    #[arg(long, value_name = "EPOCH", value_parser = value_parser!(u64).range(1..))]
    pub lr_drop_epoch: Option<u64>,
    /// First epoch (from 1) at a hundredth of the learning rate, after --lr-drop-epoch
    /// [default: none].
    #[arg(long, value_name = "EPOCH", value_parser = value_parser!(u64).range(1..))]
    pub lr_drop2_epoch: Option<u64>,
    /// AdamW's decoupled weight decay.
    #[arg(long, value_name = "D", default_value_t = 0.01, value_parser = unit)]
    pub weight_decay: f32,
    /// Threads computing gradients [default: all cores].
    #[arg(long, value_name = "N", default_value_t = all_cores(), hide_default_value = true,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub threads: usize,
    /// Share of the positions held out for validation (fixed before training).
    #[arg(long, value_name = "F", default_value_t = train::DEFAULT_VAL_FRACTION, value_parser = fraction)]
    pub val_fraction: f64,
    /// Seed of the initialisation, the validation split and the shuffles (same seed, data
    /// and threads: the same network, byte for byte).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Also train on every training position mirrored left to right (file a <-> h), twice
    /// the positions an epoch.
    #[arg(long)]
    pub mirror: bool,
    /// A king-mirrored network: from a perspective whose king is on files e-h, every square
    /// is mirrored left to right (file a <-> h). Not with --mirror, which it makes redundant.
    #[arg(long, conflicts_with = "mirror")]
    pub king_mirror: bool,
    /// King buckets: king-mirrored, with four sets of inputs chosen by where the
    /// perspective's own king stands (castled on its first rank, elsewhere on its first rank,
    /// its second rank, further up), trained through a shared set (a factoriser). Not with
    /// --mirror.
    #[arg(long, conflicts_with = "mirror")]
    pub king_buckets: bool,
    /// Score smoothing: each position's target score is the mean of its own search score
    /// and those of up to N - 1 later positions with the same side to move (every second
    /// ply), stopping at a mate score or the game's end. 1: the position's own score.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=train::MAX_SMOOTH as u64))]
    pub smooth: usize,
    /// Also write an SVG plot of the train and validation loss per epoch.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Also write a JSON summary (settings, data counts, losses, speed, the net's checksum).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
}

impl TrainArgs {
    /// The trainer's configuration.
    pub fn config(&self) -> TrainConfig {
        let mut params = TrainParams {
            hidden: self.hidden,
            activation: self.activation,
            buckets: self.output_buckets,
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            lr_drop_epoch: self.lr_drop_epoch.map(|e| e as usize),
            lr_drop2_epoch: self.lr_drop2_epoch.map(|e| e as usize),
            wdl: self.wdl,
            threads: self.threads,
            val_fraction: self.val_fraction,
            seed: self.seed,
            mirror: self.mirror,
            king_mirror: self.king_mirror,
            king_buckets: self.king_buckets,
            smooth: self.smooth,
            ..TrainParams::default()
        };
        params.adamw.decay = self.weight_decay;
        TrainConfig {
            data: self.data.clone(),
            out: self.out.clone(),
            plot: self.plot.clone(),
            summary: self.summary.clone(),
            params,
        }
    }

    /// Runs the training, printing the data counts and one line per epoch.
    pub fn run(&self) -> Result<(), String> {
        let config = self.config();
        config.params.validate()?;
        let style = ProgressStyle::with_template(
            "epoch {msg} {bar:30} {pos}/{len} positions, {per_sec}, about {eta} left",
        )
        .expect("the template is valid");
        let mut bar: Option<ProgressBar> = None;
        let report = train::train(&config, &mut |event| match event {
            Progress::Loaded(load) => {
                println!("data: {}", load.summary());
                for (path, why) in &load.damaged {
                    eprintln!("warning: skipped {}: {why}", path.display());
                }
            }
            Progress::Split { train, val } => {
                println!("training on {train} positions, {val} held out for validation");
            }
            Progress::Batch { epoch, done, total } => {
                let b = bar.get_or_insert_with(|| {
                    let b = ProgressBar::with_draw_target(
                        Some(total as u64),
                        ProgressDrawTarget::stderr(),
                    );
                    b.set_style(style.clone());
                    b.set_message(epoch.to_string());
                    b
                });
                b.set_position(done as u64);
            }
            Progress::Epoch(e) => {
                if let Some(b) = bar.take() {
                    b.finish_and_clear();
                }
                println!("{}", e.line());
            }
        })?;
        println!(
            "wrote {} ({}, xxh3 {:016x}) in {:.1} s",
            config.out.display(),
            report.shape(),
            report.checksum,
            report.seconds
        );
        for path in config.plot.iter().chain(&config.summary) {
            println!("wrote {}", path.display());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        train: TrainArgs,
    }

    fn parse(args: &[&str]) -> Result<TrainArgs, clap::Error> {
        Cli::try_parse_from(["train"].iter().chain(args)).map(|c| c.train)
    }

    #[test]
    fn defaults_are_the_trainers() {
        let args = parse(&["--data", "d1", "--data", "d2", "-o", "n.nnue"]).unwrap();
        let config = args.config();
        assert_eq!(config.data.len(), 2);
        let expected = TrainParams {
            threads: all_cores(),
            ..TrainParams::default()
        };
        assert_eq!(config.params, expected);
    }

    #[test]
    fn bad_values_are_refused() {
        let base = ["--data", "d", "-o", "n"];
        for bad in [
            &["--activation", "relu"][..],
            &["--wdl", "1.5"],
            &["--val-fraction", "1"],
            &["--lr", "0"],
            &["--epochs", "0"],
            &["--hidden", "8"],
            &["--output-buckets", "0"],
            &["--output-buckets", "17"],
            &["--output-buckets", "two"],
        ] {
            let args: Vec<&str> = base.iter().chain(bad).copied().collect();
            assert!(parse(&args).is_err(), "{bad:?}");
        }
        let odd = parse(&["--data", "d", "-o", "n", "--hidden", "100"]).unwrap();
        assert!(odd.config().params.validate().is_err());
        let crelu = parse(&["--data", "d", "-o", "n", "--activation", "CReLU"]).unwrap();
        assert_eq!(crelu.activation, Activation::CReLU);
        let eight = parse(&["--data", "d", "-o", "n", "--output-buckets", "8"]).unwrap();
        assert_eq!(eight.config().params.buckets, 8);
        assert!(eight.config().params.validate().is_ok());
        let sixteen = parse(&["--data", "d", "-o", "n", "--output-buckets", "16"]).unwrap();
        assert_eq!(sixteen.config().params.buckets, 16);
    }
}
