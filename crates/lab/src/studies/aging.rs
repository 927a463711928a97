//! Study `aging`: the game sequences with the table's generation used versus ignored.

use super::StudyId;
use crate::context::Ctx;
use crate::plot::{LinePlot, Series};
use crate::positions;
use crate::report::{format_f, format_int, Align, Section, Table};
use crate::runner::{self, policy_name, Lab, TableSpec};
use engram_tt::Policy;

/// The question this study answers.
pub const QUESTION: &str =
    "When the table is kept from move to move, how much do the generation counter and \
     age-aware replacement save, and when in a game does it start to matter?";

/// The policies compared (those whose rules look at the age).
pub const POLICIES: [Policy; 4] = [
    Policy::DepthPreferred,
    Policy::TwoTier,
    Policy::Buckets { age_weight: 8 },
    Policy::TwoBig1,
];

/// Sizes (log₂ entries), sequences, searches per sequence and depth of a run.
fn settings(quick: bool) -> (Vec<u32>, usize, usize, i32) {
    if quick {
        (vec![10], 2, 6, 5)
    } else {
        (vec![12, 15, 18], 24, 40, 11)
    }
}

/// Nodes of each search index (summed over the sequences), with aging on or off.
struct Run {
    by_search: Vec<u64>,
}

impl Run {
    fn total(&self) -> u64 {
        self.by_search.iter().sum()
    }
}

fn run_one(
    spec: &TableSpec,
    seqs: &[positions::Sequence],
    searches: usize,
    depth: i32,
) -> anyhow::Result<Run> {
    let mut by_search = vec![0u64; searches];
    let mut i = 0;
    runner::sequences(&mut Lab::on(spec)?, seqs, searches, depth, |r| {
        by_search[i % searches] += r.nodes;
        i += 1;
    })?;
    Ok(Run { by_search })
}

/// The ratio of nodes without aging to nodes with it, per block of `block` search indices.
fn ratio_by_block(on: &Run, off: &Run, block: usize) -> Vec<(f64, f64)> {
    on.by_search
        .chunks(block)
        .zip(off.by_search.chunks(block))
        .enumerate()
        .map(|(b, (a, o))| {
            let (a, o): (u64, u64) = (a.iter().sum(), o.iter().sum());
            (
                (b * block + block / 2 + 1) as f64,
                o as f64 / a.max(1) as f64,
            )
        })
        .collect()
}

/// Runs the study.
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    let (sizes, n_seqs, searches, depth) = settings(ctx.quick);
    let seqs: Vec<_> = positions::sequences().into_iter().take(n_seqs).collect();
    let bar = ctx.bar((POLICIES.len() * sizes.len() * 2) as u64, "aging");
    let mut results = Vec::new(); // (policy, size, on, off)
    for policy in POLICIES {
        for &s in &sizes {
            let mut spec = TableSpec::entries(policy, 1 << s);
            bar.set_message(format!("{} 2^{s}", policy_name(policy)));
            let on = run_one(&spec, &seqs, searches, depth)?;
            bar.inc(1);
            spec.aging = false;
            let off = run_one(&spec, &seqs, searches, depth)?;
            bar.inc(1);
            results.push((policy, s, on, off));
        }
    }
    bar.finish_and_clear();

    let mut sec = Section::new(StudyId::Aging.title());
    sec.para(format!("**Question.** {QUESTION}"));
    sec.para(
        "**Source.** Seed 001 (the blog article in `../shared/seeds/`) marks entries \
         \"ancient\" after every search so that old entries are replaced first; the \
         transposition-table page's \"Aging\" section describes the same idea as a search \
         counter stored in each entry. Stockfish weighs one search of age like 8 plies of \
         depth (commit 9dbb3ae8b, +2.4 Elo at 2 MB, +0.4 at 16 MB; see \
         `../shared/docs/tt-literature.md`).",
    );
    sec.para(format!(
        "**Method.** {} games, the first {} positions of one side each, searched to depth {} \
         one after the other on one thread, table and histories kept across a game (cleared \
         between games). Each policy and size twice: with aging (the generation advances \
         per search) and without (`Table::set_aging(false)`: every entry looks current, so \
         no rule ever prefers an old entry). Sizes 2^k entries for k in {:?}.",
        seqs.len(),
        searches,
        depth,
        sizes
    ));
    let mut t = Table::new(&[
        ("policy", Align::Left),
        ("entries", Align::Right),
        ("nodes, aging", Align::Right),
        ("nodes, no aging", Align::Right),
        ("no aging ÷ aging", Align::Right),
    ]);
    for (policy, s, on, off) in &results {
        t.row([
            policy_name(*policy),
            format!("2^{s}"),
            format_int(on.total()),
            format_int(off.total()),
            format_f(off.total() as f64 / on.total().max(1) as f64, 3),
        ]);
    }
    sec.table(t);

    // Plot: the ratio over the course of a game for the default policy at each size.
    let block = if searches >= 10 { 5 } else { 1 };
    let series: Vec<Series> = results
        .iter()
        .filter(|(p, ..)| *p == Policy::default())
        .map(|(_, s, on, off)| {
            Series::new(format!("2^{s} entries"), ratio_by_block(on, off, block))
        })
        .collect();
    let (file, link) = ctx.img_path("aging");
    LinePlot {
        title: "Aging: nodes without aging ÷ nodes with aging (buckets k=8)".into(),
        x_label: format!("search of the game (move of one side; blocks of {block})"),
        y_label: "nodes without ÷ with aging".into(),
        log_x: false,
        log_y: false,
        series,
    }
    .render(&file)?;
    sec.image(
        link,
        "ratio of nodes without and with aging along the games",
    );

    let ratios: Vec<f64> = results
        .iter()
        .map(|(_, _, on, off)| off.total() as f64 / on.total().max(1) as f64)
        .collect();
    let best = results
        .iter()
        .zip(&ratios)
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|((p, s, ..), r)| format!("{} at 2^{s} ({})", policy_name(*p), format_f(*r, 3)));
    let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    // Where in the games the default policy's saving appears: first and last block.
    let default_runs: Vec<_> = results
        .iter()
        .filter(|(p, ..)| *p == Policy::default())
        .map(|(_, s, on, off)| (s, ratio_by_block(on, off, block)))
        .collect();
    let along = default_runs
        .iter()
        .filter_map(|(s, r)| {
            let (first, last) = (r.first()?, r.last()?);
            Some(format!(
                "2^{s}: {} in the first block, {} in the last",
                format_f(first.1, 3),
                format_f(last.1, 3)
            ))
        })
        .collect::<Vec<_>>()
        .join("; ");
    sec.para(format!(
        "**Result.** Without aging the sequences took {} times the nodes on average over \
         these policies and sizes (above 1: aging saves nodes); the largest ratio: {}. \
         Along the games, for the default policy (ratio without ÷ with aging): {}.",
        format_f(mean, 3),
        best.unwrap_or_else(|| "-".into()),
        along
    ));
    sec.para(
        "**Compared with the source.** Seed 001 gives no measurement, only the rule; \
         Stockfish's few Elo at small hashes are consistent with a saving that appears \
         only under hash pressure.",
    );
    Ok(sec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_by_block() {
        let on = Run {
            by_search: vec![10, 10, 10, 10],
        };
        let off = Run {
            by_search: vec![10, 10, 20, 20],
        };
        assert_eq!(on.total(), 40);
        assert_eq!(ratio_by_block(&on, &off, 2), vec![(2.0, 1.0), (4.0, 2.0)]);
    }
}
