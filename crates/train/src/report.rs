//! What a training run reports: a line per epoch, and the whole run's summary as JSON (for a
//! net's provenance).

use crate::loader::LoadReport;
use engram_nnue::net::Network;

/// One epoch's results.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Epochs in the run.
    pub epochs: usize,
    /// The learning rate used.
    pub lr: f32,
    /// Mean loss over the epoch's training positions (each measured before the step of its
    /// batch).
    pub train_loss: f64,
    /// Mean loss over the validation positions after the epoch (`None` without a split).
    pub val_loss: Option<f64>,
    /// Training positions in the epoch.
    pub positions: usize,
    /// Seconds the epoch took (training and validation).
    pub seconds: f64,
    /// Seconds since training started.
    pub elapsed: f64,
}

impl EpochReport {
    /// Training positions per second in this epoch.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }

    /// One line for people.
    pub fn line(&self) -> String {
        let val = self
            .val_loss
            .map_or_else(|| "-".to_string(), |v| format!("{v:.6}"));
        format!(
            "epoch {:>3}/{}  lr {:.2e}  train loss {:.6}  val loss {val}  {:.0} pos/s  {:.1} s",
            self.epoch,
            self.epochs,
            self.lr,
            self.train_loss,
            self.positions_per_second(),
            self.elapsed
        )
    }
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// What was loaded.
    pub load: LoadReport,
    /// Positions trained on.
    pub train_positions: usize,
    /// Positions held out for validation.
    pub val_positions: usize,
    /// Every epoch.
    pub epochs: Vec<EpochReport>,
    /// Seconds of training (loading excluded).
    pub seconds: f64,
    /// The quantised network.
    pub network: Network,
    /// The xxh3-64 of the network file.
    pub checksum: u64,
}

fn json_f64(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".into()
    }
}

pub(crate) fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            c if (c as u32) < 0x20 => out += &format!("\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out + "\""
}

impl TrainReport {
    /// The network's shape for people: `(I -> H) x 2 -> 1, ACTIVATION` (I = 768, or 3072
    /// with king buckets), with
    /// `, N output buckets` before the activation when there is more than one, and
    /// `, king-mirrored` after it for that layout.
    pub fn shape(&self) -> String {
        let net = &self.network;
        format!(
            "({} -> {}) x 2 -> 1{}, {}{}",
            net.layout.inputs(),
            net.hidden,
            net.buckets_text(),
            net.activation.name(),
            net.layout_text()
        )
    }

    /// The summary as JSON: the settings (`settings`, given by the caller as `(name, value)`
    /// pairs of JSON text), the data, every epoch's losses and speed, the total time and the
    /// net's checksum.
    pub fn to_json(&self, settings: &[(&str, String)]) -> String {
        let mut s = String::from("{\n  \"settings\": {");
        let fields: Vec<String> = settings
            .iter()
            .map(|(k, v)| format!("\n    {}: {v}", json_str(k)))
            .collect();
        s += &fields.join(",");
        s += "\n  },\n";
        let l = &self.load;
        let damaged: Vec<String> = l
            .damaged
            .iter()
            .map(|(p, why)| json_str(&format!("{}: {why}", p.display())))
            .collect();
        s += &format!(
            "  \"data\": {{\"files\": {}, \"games\": {}, \"scored\": {}, \"kept\": {}, \
             \"damaged\": [{}], \"train_positions\": {}, \"val_positions\": {}}},\n",
            l.files,
            l.games,
            l.scored,
            l.kept,
            damaged.join(", "),
            self.train_positions,
            self.val_positions
        );
        s += "  \"epochs\": [";
        let epochs: Vec<String> = self
            .epochs
            .iter()
            .map(|e| {
                format!(
                    "\n    {{\"epoch\": {}, \"lr\": {}, \"train_loss\": {}, \"val_loss\": {}, \
                     \"positions_per_second\": {:.0}, \"seconds\": {:.3}}}",
                    e.epoch,
                    e.lr,
                    json_f64(e.train_loss),
                    e.val_loss.map_or_else(|| "null".into(), json_f64),
                    e.positions_per_second(),
                    e.seconds
                )
            })
            .collect();
        s += &epochs.join(",");
        s += &format!(
            "\n  ],\n  \"seconds\": {:.3},\n  \"net\": {{\"hidden\": {}, \"activation\": {}, \
             \"output_buckets\": {}, \"layout\": {}, \"xxh3\": \"{:016x}\"}}\n}}\n",
            self.seconds,
            self.network.hidden,
            json_str(self.network.activation.name()),
            self.network.buckets,
            json_str(self.network.layout.name()),
            self.checksum
        );
        s
    }
}
