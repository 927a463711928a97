//! Study `bits`: how many key bits an entry needs — Gillogly's table and the false-hit rates
//! it implies, next to what shadow keys measure at several table sizes.

use super::collisions::run_width;
use super::StudyId;
use crate::context::Ctx;
use crate::plot::{LinePlot, Series};
use crate::positions;
use crate::report::{format_f, format_int, Align, Section, Table};

/// The question this study answers.
pub const QUESTION: &str =
    "How many bits must a table compare to keep collisions rare, as the \"bits required\" \
     table predicts, and how do the predicted false-hit rates compare with what Engram's \
     table measures?";

/// Bits that N stored positions need for a collision probability P (Gillogly, as on the
/// transposition-table page): ⌈log₂(N² / 2P)⌉.
pub fn bits_required(n: f64, p: f64) -> u32 {
    (n * n / (2.0 * p)).log2().ceil() as u32
}

/// The page's table, as printed there (rows P, columns N = 10^5 … 10^10).
pub const PAGE_TABLE: [(f64, [u32; 6]); 4] = [
    (0.01, [39, 46, 53, 59, 66, 73]),
    (0.001, [43, 49, 56, 63, 69, 76]),
    (0.0001, [46, 53, 59, 66, 73, 79]),
    (0.00001, [49, 56, 63, 69, 76, 83]),
];

/// The predicted false-hit rate of one probe of an absent key compared with `k` occupied
/// entries of `bits`-bit signatures.
pub fn predicted_rate(bits: u32, k: u32) -> f64 {
    1.0 - (1.0 - 0.5f64.powi(bits as i32)).powi(k as i32)
}

/// Widths and table sizes (log₂ entries) measured, positions and depth.
fn settings(quick: bool) -> (Vec<u32>, Vec<u32>, usize, i32) {
    if quick {
        (vec![8, 12], vec![10], 4, 5)
    } else {
        (vec![8, 12, 16, 20], vec![10, 14, 18], 40, 10)
    }
}

/// Runs the study.
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    let (widths, sizes, n_pos, depth) = settings(ctx.quick);
    let positions: Vec<_> = positions::singles(ctx.quick)
        .into_iter()
        .take(n_pos)
        .collect();

    let mut sec = Section::new(StudyId::Bits.title());
    sec.para(format!("**Question.** {QUESTION}"));
    sec.para(
        "**Source.** The transposition-table page's \"Bits required\" (after Gillogly, WCCC \
         1989): the combined address and check bits needed to store N positions with \
         collision probability P; the page notes that a table that does not keep every \
         position needs fewer, so these are upper bounds. Per probe, the rate reduces to \
         entries compared ÷ 2^bits (Homan, CCC 1997; \"syzygy\" on talkchess: one false hit \
         per 2^16 / 3 ≈ 21,845 probes for Stockfish's 16 bits and 3-entry clusters).",
    );
    let mut t = Table::new(&[
        ("P \\ N", Align::Left),
        ("1e5", Align::Right),
        ("1e6", Align::Right),
        ("1e7", Align::Right),
        ("1e8", Align::Right),
        ("1e9", Align::Right),
        ("1e10", Align::Right),
    ]);
    let mut agree = true;
    for (p, page) in PAGE_TABLE {
        let mut row = vec![format!("{p}")];
        for (i, &want) in page.iter().enumerate() {
            let got = bits_required(10f64.powi(5 + i as i32), p);
            agree &= got == want;
            row.push(if got == want {
                got.to_string()
            } else {
                format!("{got} (page: {want})")
            });
        }
        t.row(row);
    }
    sec.para(format!(
        "Bits required, ⌈log₂(N²/2P)⌉: {} the page's table.",
        if agree {
            "every cell equals"
        } else {
            "cells differing from the page are marked; the rest equal"
        }
    ));
    sec.table(t);

    // Measured against predicted, per width and size.
    let bar = ctx.bar((widths.len() * sizes.len()) as u64, "bits");
    let mut t = Table::new(&[
        ("bits", Align::Right),
        ("entries", Align::Right),
        ("probes", Align::Right),
        ("absent-key probes", Align::Right),
        ("mean occupied slots compared", Align::Right),
        ("false hits (absent keys)", Align::Right),
        ("measured per absent probe", Align::Right),
        ("predicted, full cluster (3/2^b)", Align::Right),
        ("predicted, occupancy seen", Align::Right),
    ]);
    let mut series: Vec<Series> = Vec::new();
    // (observed, expected) false hits of every cell, for the comparison.
    let mut fits: Vec<(f64, f64)> = Vec::new();
    for &s in &sizes {
        let mut pts = Vec::new();
        for &b in &widths {
            bar.set_message(format!("{b} bits, 2^{s}"));
            let r = run_width(&positions, 1 << s, depth, b)?;
            bar.inc(1);
            let st = r.stats;
            let absent = st.absent();
            let occupied: u64 = st
                .absent_by_occupied
                .iter()
                .enumerate()
                .map(|(k, &n)| k as u64 * n)
                .sum();
            let measured = st.false_hits_absent as f64 / absent.max(1) as f64;
            t.row([
                b.to_string(),
                format!("2^{s}"),
                format_int(st.probes),
                format_int(absent),
                format_f(occupied as f64 / absent.max(1) as f64, 2),
                format_int(st.false_hits_absent),
                format!("{measured:.3e}"),
                format!("{:.3e}", predicted_rate(b, 3)),
                format!("{:.3e}", st.expected_false_hits() / absent.max(1) as f64),
            ]);
            pts.push((f64::from(b), measured));
            fits.push((st.false_hits_absent as f64, st.expected_false_hits()));
        }
        series.push(Series::new(format!("measured, 2^{s} entries"), pts));
    }
    bar.finish_and_clear();
    series.push(Series::new(
        "predicted, full cluster",
        widths
            .iter()
            .map(|&b| (f64::from(b), predicted_rate(b, 3)))
            .collect(),
    ));
    sec.para(format!(
        "**Method.** Shadow keys as in the collisions study: {} positions searched to depth \
         {} (one thread, empty table each, buckets k=8) at each width b and table size; \
         the false hits among probes of keys absent from their cluster, against the \
         predicted rate for a full cluster and for the occupancy the probes actually met.",
        positions.len(),
        depth
    ));
    sec.table(t);
    let (file, link) = ctx.img_path("bits");
    LinePlot {
        title: "False hits per absent-key probe: measured and predicted".into(),
        x_label: "signature bits".into(),
        y_label: "false hits per probe of an absent key".into(),
        log_x: false,
        log_y: true,
        series,
    }
    .render(&file)?;
    sec.image(link, "false hits per absent-key probe against bits");
    // The largest deviation, relative and in standard deviations (Poisson), over the cells
    // that expect at least 5 false hits.
    let big: Vec<(f64, f64)> = fits.iter().copied().filter(|&(_, e)| e >= 5.0).collect();
    let worst_rel = big
        .iter()
        .map(|&(o, e)| (o - e).abs() / e)
        .fold(0.0f64, f64::max);
    let worst_sd = big
        .iter()
        .map(|&(o, e)| (o - e).abs() / e.sqrt())
        .fold(0.0f64, f64::max);
    let large = fits
        .iter()
        .filter(|&&(_, e)| e >= 100.0)
        .map(|&(o, e)| (o - e).abs() / e)
        .fold(0.0f64, f64::max);
    sec.para(format!(
        "**Result.** Over the {} cells that expect at least 5 false hits, the measured count \
         of false hits on absent keys is at most {}% ({} standard deviations, Poisson) from \
         the count predicted for the occupancy the probes met; over the cells that expect at \
         least 100, at most {}%. A position is probed again and again while its cluster stays \
         the same, and one answered falsely often stores nothing, so false hits come in \
         bursts: the Poisson deviation understates the noise (measured above the formula in \
         {} of those {} cells). The full-cluster rate 3/2^b is the worst case, met in the \
         2^10-entry table; emptier tables collide less.",
        big.len(),
        format_f(100.0 * worst_rel, 1),
        format_f(worst_sd, 1),
        format_f(100.0 * large, 1),
        big.iter().filter(|&&(o, e)| o > e).count(),
        big.len(),
    ));
    sec.para(
        "**Compared with the source.** Gillogly's table asks for the bits that make even \
         one collision among all N stored positions unlikely (and the page calls it an \
         upper bound); a searching program needs false hits to be rare per probe, which is \
         why 16 stored bits plus the index bits (about 36 bits at 2^20 clusters) are the \
         norm, fewer than the 46–56 bits the table lists for 10^6 positions. Whether such \
         rates change the search's results is the collisions study's question.",
    );
    Ok(sec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_formula_reproduces_the_page_table() {
        for (p, row) in PAGE_TABLE {
            for (i, &want) in row.iter().enumerate() {
                assert_eq!(
                    bits_required(10f64.powi(5 + i as i32), p),
                    want,
                    "P {p}, N 1e{}",
                    5 + i
                );
            }
        }
    }

    #[test]
    fn predicted_rates() {
        assert_eq!(predicted_rate(0, 3), 1.0);
        assert!((predicted_rate(16, 3) - 3.0 / 65536.0).abs() < 1e-9);
        assert_eq!(predicted_rate(16, 0), 0.0);
    }
}
