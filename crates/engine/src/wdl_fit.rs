//! `engram fit-wdl`: fits the win/draw/loss model of [`crate::eval::wdl`] on self-play games.
//!
//! Every scored position of the games (not mate scores) gives a sample: the material on the
//! board (clamped to the model's 17–78), the search's score from the side to move's view
//! (binned by 10 cp, clamped to ±2000) and how the game ended for that side. The fit:
//!
//! 1. for each material value, the `a` and `b` that maximise the likelihood of the observed
//!    wins, draws and losses under the model (win `σ((v − a) / b)`, loss `σ((−v − a) / b)`),
//!    by a coarse then a fine grid search;
//! 2. the cubic polynomials in `material / 58` closest to those `a` and `b` (least squares,
//!    each material value weighted alike: every one has well over 100,000 samples in the
//!    self-play data, except the clamped end, 17, which holds all the lighter endings and
//!    would otherwise pull the curve to itself), which are the model's coefficients.
//!
//! 3. then the two curves at once, from there, to the likelihood of all the games
//!    (the clamped end, 17, holds every lighter ending, a quarter of the positions: the
//!    polynomials alone would fit it as one material value among 62).
//!
//! It prints the coefficients as the Rust constant to paste into `eval/wdl.rs`, the mean log
//! loss of the fitted model beside that of the per-material fits and of a model that knows
//! only the overall rates, and (`--plot`) draws the model against the games.

use crate::eval::wdl::{WdlModel, MATERIAL_MAX, MATERIAL_MIN};
use clap::Args;
use engram_chess::Board;
use engram_train::data::chunk::read_chunk_file;
use engram_train::data::{GameResult, MATE_SCORE, UNSCORED};
use engram_train::plot::{curves_svg, Series};
use std::path::PathBuf;

/// Score bins: 10 cp wide, from −2000 to 2000.
const BIN_CP: i32 = 10;
const BINS: usize = 401;
const MATERIALS: usize = (MATERIAL_MAX - MATERIAL_MIN + 1) as usize;

/// `engram fit-wdl --data DIR [--data DIR ...] [--plot FILE]`.
#[derive(Debug, Args)]
pub struct FitWdlArgs {
    /// A directory of `engram datagen` chunks (repeatable).
    #[arg(long, value_name = "DIR", required = true)]
    pub data: Vec<PathBuf>,
    /// Write an SVG plot of the model against the games here.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// Wins, draws and losses (side to move's view) per material and score bin.
pub struct Counts {
    cells: Vec<[u64; 3]>,
}

impl Default for Counts {
    fn default() -> Self {
        Counts {
            cells: vec![[0; 3]; MATERIALS * BINS],
        }
    }
}

fn bin_of(cp: i32) -> usize {
    ((cp.clamp(-2000, 2000) + 2000 + BIN_CP / 2) / BIN_CP) as usize
}

fn cp_of(bin: usize) -> f64 {
    (bin as i32 * BIN_CP - 2000) as f64
}

impl Counts {
    /// Adds one position: material (any; clamped), score (cp, side to move) and the side to
    /// move's result (0 loss, 1 draw, 2 win).
    pub fn add(&mut self, material: u32, cp: i32, outcome: usize) {
        let m = (material.clamp(MATERIAL_MIN, MATERIAL_MAX) - MATERIAL_MIN) as usize;
        self.cells[m * BINS + bin_of(cp)][outcome] += 1;
    }

    fn row(&self, m: usize) -> &[[u64; 3]] {
        &self.cells[m * BINS..(m + 1) * BINS]
    }

    /// Samples in all.
    pub fn total(&self) -> u64 {
        self.cells.iter().flatten().sum()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Summed negative log-likelihood of the cells of one material under `(a, b)`.
fn nll(row: &[[u64; 3]], a: f64, b: f64) -> f64 {
    let mut sum = 0.0;
    for (bin, c) in row.iter().enumerate() {
        if c == &[0, 0, 0] {
            continue;
        }
        let v = cp_of(bin);
        let w = sigmoid((v - a) / b).clamp(1e-9, 1.0);
        let l = sigmoid((-v - a) / b).clamp(1e-9, 1.0);
        let d = (1.0 - w - l).max(1e-9);
        sum -= c[2] as f64 * w.ln() + c[1] as f64 * d.ln() + c[0] as f64 * l.ln();
    }
    sum
}

/// The `(a, b)` of one material's cells: a grid search, then a finer one around the best.
fn fit_row(row: &[[u64; 3]]) -> (f64, f64) {
    let search =
        |best: &mut (f64, f64, f64), a_range: (f64, f64, f64), b_range: (f64, f64, f64)| {
            let mut a = a_range.0;
            while a <= a_range.1 {
                let mut b = b_range.0;
                while b <= b_range.1 {
                    let e = nll(row, a, b);
                    if e < best.0 {
                        *best = (e, a, b);
                    }
                    b += b_range.2;
                }
                a += a_range.2;
            }
        };
    let mut best = (f64::INFINITY, 150.0, 80.0);
    search(&mut best, (0.0, 800.0, 8.0), (10.0, 400.0, 8.0));
    let (_, a0, b0) = best;
    search(
        &mut best,
        (a0 - 8.0, a0 + 8.0, 0.5),
        (b0 - 8.0, b0 + 8.0, 0.5),
    );
    (best.1, best.2)
}

/// The cubic `((c0·m + c1)·m + c2)·m + c3` closest to the points `(m, y)` with weights `w`.
fn cubic_fit(points: &[(f64, f64, f64)]) -> [f64; 4] {
    // Normal equations in the powers m³, m², m, 1.
    let mut ata = [[0.0f64; 4]; 4];
    let mut atb = [0.0f64; 4];
    for &(m, y, w) in points {
        let row = [m * m * m, m * m, m, 1.0];
        for i in 0..4 {
            for j in 0..4 {
                ata[i][j] += w * row[i] * row[j];
            }
            atb[i] += w * row[i] * y;
        }
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&x, &y| ata[x][col].abs().total_cmp(&ata[y][col].abs()))
            .unwrap();
        ata.swap(col, pivot);
        atb.swap(col, pivot);
        for r in 0..4 {
            if r != col {
                let f = ata[r][col] / ata[col][col];
                let pivot_row = ata[col];
                for (x, p) in ata[r].iter_mut().zip(pivot_row) {
                    *x -= f * p;
                }
                atb[r] -= f * atb[col];
            }
        }
    }
    [0, 1, 2, 3].map(|i| atb[i] / ata[i][i])
}

/// What the fit found.
pub struct Fit {
    /// The model.
    pub model: WdlModel,
    /// Per material with samples: material, samples, `a`, `b` of its own fit.
    pub per_material: Vec<(u32, u64, f64, f64)>,
    /// Mean log loss per sample: the model, the per-material fits, the overall rates only.
    pub log_loss: (f64, f64, f64),
}

/// Fits the model on `counts` (materials with fewer than 1,000 samples are left out of the
/// polynomials).
pub fn fit(counts: &Counts) -> Fit {
    let mut per_material = Vec::new();
    for m in 0..MATERIALS {
        let row = counts.row(m);
        let n: u64 = row.iter().flatten().sum();
        if n >= 1000 {
            let (a, b) = fit_row(row);
            per_material.push((MATERIAL_MIN + m as u32, n, a, b));
        }
    }
    let xs = |f: fn(&(u32, u64, f64, f64)) -> f64| -> Vec<(f64, f64, f64)> {
        per_material
            .iter()
            .map(|p| (f64::from(p.0) / 58.0, f(p), 1.0))
            .collect()
    };
    let start = WdlModel {
        a: cubic_fit(&xs(|p| p.2)),
        b: cubic_fit(&xs(|p| p.3)),
    };
    let model = refine(counts, start);
    let total = counts.total().max(1) as f64;
    let model_nll = total_nll(counts, &model);
    let own_nll: f64 = per_material
        .iter()
        .map(|&(mat, _, a, b)| nll(counts.row((mat - MATERIAL_MIN) as usize), a, b))
        .sum();
    let mut rates = [0u64; 3];
    for c in &counts.cells {
        for k in 0..3 {
            rates[k] += c[k];
        }
    }
    let base_nll: f64 = rates
        .iter()
        .map(|&r| {
            if r == 0 {
                0.0
            } else {
                -(r as f64) * (r as f64 / total).ln()
            }
        })
        .sum();
    Fit {
        model,
        per_material,
        log_loss: (model_nll / total, own_nll / total, base_nll / total),
    }
}

/// The negative log-likelihood of all the counts under `model`.
fn total_nll(counts: &Counts, model: &WdlModel) -> f64 {
    (0..MATERIALS)
        .map(|m| {
            let (a, b) = model.params(MATERIAL_MIN + m as u32);
            if b <= 1.0 {
                return f64::INFINITY;
            }
            nll(counts.row(m), a, b)
        })
        .sum()
}

/// The materials at which [`refine`] moves the curves: a cubic is fixed by its values at
/// four points, and values (in centipawns) are far less tied to each other than the
/// polynomial's coefficients, so moving one at a time converges quickly.
const NODES: [u32; 4] = [17, 37, 57, 78];

/// The model whose `a` and `b` take these values at [`NODES`].
fn through(values: &[f64; 8]) -> WdlModel {
    let points = |off: usize| -> Vec<(f64, f64, f64)> {
        (0..4)
            .map(|k| (f64::from(NODES[k]) / 58.0, values[off + k], 1.0))
            .collect()
    };
    WdlModel {
        a: cubic_fit(&points(0)),
        b: cubic_fit(&points(4)),
    }
}

/// Step 3: from the polynomials of the per-material fits, the model that maximises the
/// likelihood of all the games at once (coordinate descent on the curves' values at
/// [`NODES`]: each moved up or down while that helps, the steps halved when nothing does).
fn refine(counts: &Counts, start: WdlModel) -> WdlModel {
    let mut values = [0.0; 8];
    for (k, &m) in NODES.iter().enumerate() {
        (values[k], values[4 + k]) = start.params(m);
    }
    let mut best = total_nll(counts, &through(&values));
    let mut step = 16.0;
    let mut evaluations = 0;
    while step > 0.05 && evaluations < 5000 {
        let mut improved = false;
        for k in 0..8 {
            for sign in [1.0, -1.0] {
                let mut next = values;
                next[k] += sign * step;
                evaluations += 1;
                let e = total_nll(counts, &through(&next));
                if e < best {
                    (values, best, improved) = (next, e, true);
                    break;
                }
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    through(&values)
}

/// Reads the games of the chunk files in `dirs` into counts; returns them and the number of
/// games.
pub fn count_games(dirs: &[PathBuf]) -> Result<(Counts, u64), String> {
    let mut counts = Counts::default();
    let mut games = 0u64;
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "games"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(format!("{}: no chunk files (*.games)", dir.display()));
        }
        for file in files {
            let chunk = read_chunk_file(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            for game in &chunk.games {
                games += 1;
                let mut board = Board::startpos();
                for &mv in &game.opening {
                    board.play(mv);
                }
                for &(mv, score) in &game.scored {
                    if score != UNSCORED && i32::from(score).abs() < MATE_SCORE {
                        let white = board.side_to_move() == engram_chess::Color::White;
                        let outcome = match (game.result, white) {
                            (GameResult::Draw, _) => 1,
                            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 2,
                            _ => 0,
                        };
                        let material = crate::eval::wdl::material(&board);
                        counts.add(material, i32::from(score), outcome);
                    }
                    board.play(mv);
                }
            }
        }
    }
    Ok((counts, games))
}

/// The plot: observed win and loss rates against the score for three material bands, with
/// the model at each band's middle.
fn plot(counts: &Counts, model: &WdlModel) -> Result<String, String> {
    let bands = [(17u32, 30u32), (40, 55), (66, 78)];
    let mut series = Vec::new();
    for (k, &(lo, hi)) in bands.iter().enumerate() {
        let mut win = Vec::new();
        let mut draw = Vec::new();
        for bin in (0..BINS).step_by(2) {
            let mut c = [0u64; 3];
            for m in lo..=hi {
                for b in bin..(bin + 2).min(BINS) {
                    let cell = counts.row((m - MATERIAL_MIN) as usize)[b];
                    for i in 0..3 {
                        c[i] += cell[i];
                    }
                }
            }
            let n: u64 = c.iter().sum();
            if n >= 200 {
                let v = cp_of(bin) + f64::from(BIN_CP) / 2.0;
                win.push((v, c[2] as f64 / n as f64));
                draw.push((v, c[1] as f64 / n as f64));
            }
        }
        let mid = (lo + hi) / 2;
        series.push(Series {
            name: format!("games, material {lo}-{hi}: win"),
            points: win,
            line: false,
            colour: k,
        });
        series.push(Series {
            name: format!("model at {mid}: win"),
            points: (-1000..=1000)
                .step_by(10)
                .map(|cp| (f64::from(cp), model.win_chance(f64::from(cp), mid)))
                .collect(),
            line: true,
            colour: k,
        });
        if k == 1 {
            series.push(Series {
                name: format!("games, material {lo}-{hi}: draw"),
                points: draw,
                line: false,
                colour: 4,
            });
            series.push(Series {
                name: format!("model at {mid}: draw"),
                points: (-1000..=1000)
                    .step_by(10)
                    .map(|cp| {
                        let (_, d, _) = model.wdl(cp, mid);
                        (f64::from(cp), f64::from(d) / 1000.0)
                    })
                    .collect(),
                line: true,
                colour: 4,
            });
        }
    }
    curves_svg(
        "Engram's WDL model against its self-play games",
        ("score (cp, side to move)", -1000.0..1000.0),
        ("share of games", 0.0..1.0),
        &series,
    )
}

impl FitWdlArgs {
    /// Reads the games, fits, prints the model (and writes the plot).
    pub fn run(&self) -> Result<(), String> {
        let (counts, games) = count_games(&self.data)?;
        let fit = fit(&counts);
        println!(
            "{games} games, {} scored positions (not mate scores), {} materials fitted",
            counts.total(),
            fit.per_material.len()
        );
        println!("material  samples        a        b");
        for &(m, n, a, b) in &fit.per_material {
            let (ma, mb) = fit.model.params(m);
            println!("{m:>8} {n:>8} {a:>8.1} {b:>8.1}   model {ma:>8.1} {mb:>8.1}");
        }
        let (model, own, base) = fit.log_loss;
        println!(
            "mean log loss: model {model:.5}, per-material fits {own:.5}, overall rates only {base:.5}"
        );
        let c = |x: &[f64; 4]| {
            x.iter()
                .map(|v| format!("{v:.2}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "pub const MODEL: WdlModel = WdlModel {{\n    a: [{}],\n    b: [{}],\n}};",
            c(&fit.model.a),
            c(&fit.model.b)
        );
        if let Some(path) = &self.plot {
            let svg = plot(&counts, &fit.model)?;
            engram_tt::write_atomic(path, |f| std::io::Write::write_all(f, svg.as_bytes()))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            println!("plot: {}", path.display());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_model_it_sampled_from() {
        // Counts drawn (in expectation) from a known model: the fit must find it again.
        let truth = WdlModel {
            a: [-50.0, 150.0, -100.0, 180.0],
            b: [-20.0, 60.0, -40.0, 90.0],
        };
        let mut counts = Counts::default();
        for material in MATERIAL_MIN..=MATERIAL_MAX {
            for bin in 0..BINS {
                let cp = cp_of(bin);
                let w = truth.win_chance(cp, material);
                let l = truth.win_chance(-cp, material);
                let n = 400.0;
                let m = (material - MATERIAL_MIN) as usize;
                counts.cells[m * BINS + bin] = [
                    (n * l).round() as u64,
                    (n * (1.0 - w - l)).round() as u64,
                    (n * w).round() as u64,
                ];
            }
        }
        let fit = fit(&counts);
        for material in [17, 30, 50, 78] {
            let (a, b) = fit.model.params(material);
            let (ta, tb) = truth.params(material);
            assert!(
                (a - ta).abs() < 3.0 && (b - tb).abs() < 3.0,
                "{material}: {a} {b} vs {ta} {tb}"
            );
        }
        assert!(fit.log_loss.0 < fit.log_loss.2);
    }

    #[test]
    fn the_cubic_fit_is_exact_on_a_cubic() {
        let c = [2.0, -3.0, 0.5, 7.0];
        let points: Vec<(f64, f64, f64)> = (0..20)
            .map(|i| {
                let m = 0.3 + i as f64 * 0.05;
                (m, ((c[0] * m + c[1]) * m + c[2]) * m + c[3], 1.0)
            })
            .collect();
        let got = cubic_fit(&points);
        for i in 0..4 {
            assert!((got[i] - c[i]).abs() < 1e-6, "{got:?}");
        }
    }
}
