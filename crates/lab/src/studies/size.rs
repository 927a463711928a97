//! Study `size`: nodes and time to depth against the table's size on the game sequences;
//! and what huge pages and prefetching bring to a large table.

use super::StudyId;
use crate::context::Ctx;
use crate::plot::{LinePlot, Series};
use crate::positions::{self, Sequence};
use crate::report::{format_f, format_int, Align, Section, Table};
use crate::runner::{play, positions as game_positions, Lab, Spread, TableSpec, Totals};
use engram_tt::Policy;

/// The question this study answers.
pub const QUESTION: &str =
    "How do nodes and time to a fixed depth fall as the table grows from 1 MiB to 1 GiB \
     over the searches of a game, and what do huge pages and prefetching bring to a large \
     table?";

/// Settings: sizes (MiB), sequences, searches each, depth, memory-test size (MiB), rounds.
struct Settings {
    sizes: Vec<usize>,
    seqs: usize,
    searches: usize,
    depth: i32,
    big: usize,
    rounds: usize,
}

fn settings(quick: bool) -> Settings {
    if quick {
        Settings {
            sizes: vec![1, 2],
            seqs: 2,
            searches: 4,
            depth: 5,
            big: 4,
            rounds: 1,
        }
    } else {
        // Deeper than the other studies' sequences (about 100,000 nodes a search), so that
        // the small tables are under pressure; 8 games keep it to a few minutes.
        Settings {
            sizes: (0..=10).map(|i| 1 << i).collect(),
            seqs: 8,
            searches: 40,
            depth: 14,
            big: 1024,
            rounds: 3,
        }
    }
}

/// Runs the study.
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    let set = settings(ctx.quick);
    let seqs: Vec<Sequence> = positions::sequences().into_iter().take(set.seqs).collect();
    let games = seqs
        .iter()
        .map(|s| game_positions(s, set.searches))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let variants = [(true, true), (false, true), (true, false), (false, false)];
    let bar = ctx.bar(
        (set.sizes.len() + variants.len() * set.rounds) as u64,
        "size",
    );

    let mut by_size = Vec::new();
    for &mib in &set.sizes {
        bar.set_message(format!("{mib} MiB"));
        let mut lab = Lab::new(TableSpec::mib(Policy::default(), mib).build()?, true);
        by_size.push((mib, play(&mut lab, &games, set.depth)));
        bar.inc(1);
    }

    // Memory: huge pages × prefetch at the big size, interleaved rounds.
    let mut speeds: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    let mut nodes = vec![0u64; variants.len()];
    for _ in 0..set.rounds {
        for (i, &(huge, prefetch)) in variants.iter().enumerate() {
            bar.set_message(format!("{} MiB huge {huge} prefetch {prefetch}", set.big));
            let spec = TableSpec {
                huge_pages: huge,
                ..TableSpec::mib(Policy::default(), set.big)
            };
            let mut lab = Lab::new(spec.build()?, prefetch);
            let t = play(&mut lab, &games, set.depth);
            speeds[i].push(t.nps());
            nodes[i] = t.nodes;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();

    let mut sec = Section::new(StudyId::Size.title());
    sec.para(format!("**Question.** {QUESTION}"));
    sec.para(
        "**Source.** The literature agrees that replacement matters only under hash \
         pressure (Rose: +19 Elo at 1 MB, ≈ +0.6 at 16–128 MB, `../shared/docs/tt-literature.md`); \
         Breuker's thesis summary: doubling the stored positions helps, with little gain \
         beyond a certain size. Huge pages and prefetching are engineering practice \
         (Stockfish advises huge pages and prefetches the child's entry before making a \
         move).",
    );
    sec.para(format!(
        "**Method.** {} games, the first {} positions of one side each, searched to depth {} \
         one after the other (table kept across a game, cleared between games), one thread, \
         buckets k=8, at Hash {:?} MiB. Memory: the same searches at {} MiB with transparent \
         huge pages advised or forbidden (`MADV_HUGEPAGE` / `MADV_NOHUGEPAGE`) and the \
         child's entry prefetched before each move or not, {} interleaved round(s), median \
         nodes per second.",
        seqs.len(),
        set.searches,
        set.depth,
        set.sizes,
        set.big,
        set.rounds
    ));
    let base = by_size.last().map(|(_, t)| *t).unwrap_or_default();
    let mut t = Table::new(&[
        ("Hash (MiB)", Align::Right),
        ("entries", Align::Right),
        ("load (nodes per search ÷ entries)", Align::Right),
        ("nodes", Align::Right),
        ("nodes vs largest", Align::Right),
        ("time (s)", Align::Right),
        ("time vs largest", Align::Right),
    ]);
    for (mib, tot) in &by_size {
        let entries = TableSpec::mib(Policy::default(), *mib).n_entries();
        t.row([
            mib.to_string(),
            format_int(entries as u64),
            format_f(tot.mean_nodes() / entries as f64, 3),
            format_int(tot.nodes),
            format_f(tot.nodes as f64 / base.nodes.max(1) as f64, 3),
            format_f(tot.time.as_secs_f64(), 2),
            format_f(
                tot.time.as_secs_f64() / base.time.as_secs_f64().max(1e-9),
                3,
            ),
        ]);
    }
    sec.table(t);
    let (file, link) = ctx.img_path("size");
    let rel = |f: &dyn Fn(&Totals) -> f64| -> Vec<(f64, f64)> {
        by_size
            .iter()
            .map(|(m, t)| (*m as f64, f(t) / f(&base).max(1e-9)))
            .collect()
    };
    LinePlot {
        title: "Nodes and time to depth against table size (game sequences)".into(),
        x_label: "Hash (MiB)".into(),
        y_label: "relative to the largest table".into(),
        log_x: true,
        log_y: false,
        series: vec![
            Series::new("nodes", rel(&|t: &Totals| t.nodes as f64)),
            Series::new("time", rel(&|t: &Totals| t.time.as_secs_f64())),
        ],
    }
    .render(&file)?;
    sec.image(link, "nodes and time against Hash");

    let mut t = Table::new(&[
        ("huge pages", Align::Left),
        ("prefetch", Align::Left),
        ("nodes/s (median)", Align::Right),
        ("min–max", Align::Right),
        ("vs both on", Align::Right),
    ]);
    let spreads: Vec<Spread> = speeds.iter().map(|v| Spread::of(v)).collect();
    let on = spreads[0].median;
    for (&(huge, prefetch), sp) in variants.iter().zip(&spreads) {
        t.row([
            if huge { "advised" } else { "forbidden" }.to_string(),
            if prefetch { "on" } else { "off" }.to_string(),
            format_int(sp.median as u64),
            sp.range_text(),
            format_f(sp.median / on, 3),
        ]);
    }
    sec.para(format!(
        "Memory at {} MiB ({} nodes per pass; the node counts of the four variants are {}):",
        set.big,
        format_int(nodes[0]),
        if nodes.iter().all(|&n| n == nodes[0]) {
            "identical"
        } else {
            "not identical (they should be: a bug)"
        }
    ));
    sec.table(t);

    // Where the curve flattens: the smallest size within 2% of the largest's nodes.
    let flat = by_size
        .iter()
        .find(|(_, t)| t.nodes as f64 <= 1.02 * base.nodes as f64)
        .map(|(m, _)| *m);
    let smallest = by_size
        .first()
        .map(|(m, t)| (*m, t.nodes as f64 / base.nodes.max(1) as f64));
    sec.para(format!(
        "**Result.** {} {} Without huge pages the large table runs at {} of the speed with \
         them; without prefetching at {}; with neither at {}.",
        smallest.map_or(String::new(), |(m, r)| format!(
            "At {m} MiB the games take {} times the nodes of the largest table.",
            format_f(r, 2)
        )),
        flat.map_or(String::new(), |m| format!(
            "From {m} MiB on, the node count is within 2% of the largest table's."
        )),
        format_f(spreads[1].median / on, 3),
        format_f(spreads[2].median / on, 3),
        format_f(spreads[3].median / on, 3),
    ));
    sec.para(
        "**Compared with the source.** As Breuker's summary says, more entries help until \
         the table holds what the searches visit, then hardly at all; the table above gives \
         the size where that happens for these searches.",
    );
    Ok(sec)
}
