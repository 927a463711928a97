//! The loss plot of a finished run, drawn from its `--summary` JSON (for a run started
//! without `--plot`): `cargo run --release -p engram-train --example plot_summary --
//! SUMMARY.json OUT.svg`. The plot is the one `engram train --plot` draws.
//!
//! The summary is the trainer's own JSON (`TrainReport::to_json`), so this reads only what it
//! writes: the `"net"` object's shape and the `"epochs"` array of flat objects of numbers.

use engram_train::plot::loss_svg;
use engram_train::report::EpochReport;
use std::io::Write as _;

/// The text after the first `"key":` in `object`, leading blanks trimmed.
fn after_key<'a>(object: &'a str, key: &str) -> Option<&'a str> {
    let start = object.find(&format!("\"{key}\":"))? + key.len() + 3;
    Some(object[start..].trim_start())
}

/// The number after `"key":` in `object`, if any (`null` is `None`).
fn number(object: &str, key: &str) -> Option<f64> {
    let rest = after_key(object, key)?;
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

/// The string after `"key":` in `object`, if any.
fn string<'a>(object: &'a str, key: &str) -> Option<&'a str> {
    let rest = after_key(object, key)?.strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// The epochs of a summary, or why they cannot be read.
fn epochs(json: &str) -> Result<Vec<EpochReport>, String> {
    // `"epochs"` is also a setting (a number); the array is the one followed by `[`.
    let body = json
        .match_indices("\"epochs\":")
        .map(|(i, key)| json[i + key.len()..].trim_start())
        .find(|rest| rest.starts_with('['))
        .ok_or("no \"epochs\" array in the summary")?;
    let body = &body[..body.find(']').ok_or("\"epochs\" is not closed")?];
    let objects: Vec<&str> = body.split('}').filter(|o| o.contains('{')).collect();
    let total = objects.len();
    let mut elapsed = 0.0;
    objects
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let field = |key| number(o, key).ok_or(format!("epoch {}: no number {key}", i + 1));
            let seconds = field("seconds")?;
            elapsed += seconds;
            Ok(EpochReport {
                epoch: field("epoch")? as usize,
                epochs: total,
                lr: field("lr")? as f32,
                train_loss: field("train_loss")?,
                val_loss: number(o, "val_loss"),
                positions: (field("positions_per_second")? * seconds).round() as usize,
                seconds,
                elapsed,
            })
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [summary, out] = args.as_slice() else {
        eprintln!("usage: plot_summary SUMMARY.json OUT.svg");
        std::process::exit(2);
    };
    let run = || -> Result<(), String> {
        let json = std::fs::read_to_string(summary).map_err(|e| format!("{summary}: {e}"))?;
        let epochs = epochs(&json).map_err(|e| format!("{summary}: {e}"))?;
        let net = &json[json.find("\"net\":").ok_or("no \"net\" in the summary")?..];
        let hidden = number(net, "hidden").ok_or("no hidden size")?;
        let activation = string(net, "activation").ok_or("no activation")?;
        let buckets = number(net, "output_buckets").unwrap_or(1.0);
        let shape = match buckets as usize {
            1 => format!("(768 -> {hidden}) x 2 -> 1, {activation}"),
            n => format!("(768 -> {hidden}) x 2 -> 1, {n} output buckets, {activation}"),
        };
        let svg = loss_svg(&format!("{shape}: loss per epoch"), &epochs)?;
        engram_tt::write_atomic(std::path::Path::new(out), |f| f.write_all(svg.as_bytes()))
            .map_err(|e| e.to_string())
    };
    if let Err(e) = run() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
