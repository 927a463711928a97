//! Study `shape`: today's cluster (3 entries in 32 bytes) against a bucket of the whole
//! 64-byte cache line (6 entries), the alternative the crate's layout allows without a
//! rewrite.

use super::StudyId;
use crate::context::Ctx;
use crate::plot::{LinePlot, Series};
use crate::positions;
use crate::report::{format_f, format_int, Align, Section, Table};
use crate::runner::{self, positions as game_positions, Lab, Spread, TableSpec, Totals};
use engram_tt::Policy;

/// The question this study answers.
pub const QUESTION: &str =
    "Would a larger bucket — all six entries of a 64-byte cache line instead of the three of \
     a 32-byte cluster — search fewer nodes under pressure, and what does reading the whole \
     line cost?";

/// The two shapes compared.
pub const SHAPES: [(&str, Policy); 2] = [
    (
        "3 entries / 32 B (buckets k=8)",
        Policy::Buckets { age_weight: 8 },
    ),
    (
        "6 entries / 64 B line (line buckets k=8)",
        Policy::LineBuckets { age_weight: 8 },
    ),
];

struct Settings {
    sizes: Vec<u32>,
    depth: i32,
    seq_sizes: Vec<u32>,
    seqs: usize,
    searches: usize,
    seq_depth: i32,
    big_mib: usize,
    rounds: usize,
}

fn settings(quick: bool) -> Settings {
    if quick {
        Settings {
            sizes: vec![10],
            depth: 5,
            seq_sizes: vec![10],
            seqs: 2,
            searches: 4,
            seq_depth: 5,
            big_mib: 4,
            rounds: 1,
        }
    } else {
        Settings {
            sizes: (10..=20).step_by(2).collect(),
            depth: 12,
            seq_sizes: (12..=20).step_by(2).collect(),
            seqs: 24,
            searches: 40,
            seq_depth: 11,
            big_mib: 1024,
            rounds: 3,
        }
    }
}

/// Runs the study.
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    let set = settings(ctx.quick);
    let singles = positions::singles(ctx.quick);
    let seqs: Vec<_> = positions::sequences().into_iter().take(set.seqs).collect();
    let games = seqs
        .iter()
        .map(|s| game_positions(s, set.searches))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let bar = ctx.bar(
        (SHAPES.len() * (set.sizes.len() + set.seq_sizes.len() + set.rounds)) as u64,
        "shape",
    );
    // nodes[shape] per size, singles and sequences.
    let mut single_nodes: Vec<Vec<Totals>> = vec![Vec::new(); SHAPES.len()];
    let mut seq_nodes: Vec<Vec<Totals>> = vec![Vec::new(); SHAPES.len()];
    for (i, &(_, policy)) in SHAPES.iter().enumerate() {
        for &s in &set.sizes {
            let spec = TableSpec::entries(policy, 1 << s);
            single_nodes[i].push(runner::singles(
                &mut Lab::on(&spec)?,
                &singles,
                set.depth,
                |_, _| {},
            )?);
            bar.inc(1);
        }
        for &s in &set.seq_sizes {
            let spec = TableSpec::entries(policy, 1 << s);
            seq_nodes[i].push(runner::sequences(
                &mut Lab::on(&spec)?,
                &seqs,
                set.searches,
                set.seq_depth,
                |_| {},
            )?);
            bar.inc(1);
        }
    }
    // Speed on a large table, interleaved.
    let mut speeds: Vec<Vec<f64>> = vec![Vec::new(); SHAPES.len()];
    for _ in 0..set.rounds {
        for (i, &(_, policy)) in SHAPES.iter().enumerate() {
            let mut lab = Lab::new(TableSpec::mib(policy, set.big_mib).build()?, true);
            speeds[i].push(runner::play(&mut lab, &games, set.seq_depth).nps());
            bar.inc(1);
        }
    }
    bar.finish_and_clear();

    let mut sec = Section::new(StudyId::Shape.title());
    sec.para(format!("**Question.** {QUESTION}"));
    sec.para(
        "**Source.** Beal and Smith (1996), \"Multiple probes of transposition tables\": \
         buckets of N entries sized to a cache line, the shallowest overwritten (their numbers \
         are unconfirmed here). Stockfish uses 3 entries in 32 bytes; other engines use 4 in \
         64 (Berserk, Ethereal) or larger buckets (`../shared/docs/`).",
    );
    sec.para(
        "**Why only this alternative.** A cluster is four 64-bit words: one tag word holding \
         the three 16-bit signatures, a 15-bit check word and the busy bit, and one data word \
         per entry; every access is a single atomic word, and the tag word is what makes a \
         torn cluster a miss (crate docs, \"Concurrency\"). Four or seven entries in 64 \
         bytes need a tag word with four or seven signatures (16 or 8 bits each, leaving no \
         room for the check word) or signatures moved into the data words: a new cluster \
         type and a new concurrency argument, a rewrite. A two-slot two-tier cluster would \
         waste a third of each cluster at the same layout. What the layout allows as it is: \
         treating the two clusters of a cache line as one bucket of six \
         (`Policy::LineBuckets`, added for this study), each store claiming only the cluster \
         it writes.",
    );
    sec.para(format!(
        "**Method.** As in the replacement study: {} single positions to depth {} from an \
         empty table, and {} games × {} searches to depth {} with the table kept; one thread; \
         sizes 2^k entries, k in {:?} (singles) and {:?} (sequences), the same memory for \
         both shapes. Speed: the sequences at {} MiB, {} interleaved round(s), median nodes \
         per second.",
        singles.len(),
        set.depth,
        seqs.len(),
        set.searches,
        set.seq_depth,
        set.sizes,
        set.seq_sizes,
        set.big_mib,
        set.rounds
    ));
    let mut t = Table::new(&[
        ("set", Align::Left),
        ("entries", Align::Right),
        ("nodes, 3 / 32 B", Align::Right),
        ("nodes, 6 / 64 B", Align::Right),
        ("6 / 64 B ÷ 3 / 32 B", Align::Right),
    ]);
    let mut series = [Vec::new(), Vec::new()];
    for (k, (label, sizes, nodes)) in [
        ("singles", &set.sizes, &single_nodes),
        ("sequences", &set.seq_sizes, &seq_nodes),
    ]
    .into_iter()
    .enumerate()
    {
        for (j, &s) in sizes.iter().enumerate() {
            let (a, b) = (nodes[0][j], nodes[1][j]);
            let r = b.nodes as f64 / a.nodes.max(1) as f64;
            t.row([
                label.to_string(),
                format!("2^{s}"),
                format_int(a.nodes),
                format_int(b.nodes),
                format_f(r, 3),
            ]);
            let entries = TableSpec::entries(Policy::default(), 1 << s).n_entries();
            series[k].push((a.mean_nodes() / entries as f64, r));
        }
    }
    sec.table(t);
    let (file, link) = ctx.img_path("shape");
    LinePlot {
        title: "Six entries per cache line ÷ three per cluster: nodes".into(),
        x_label: "load factor (nodes per search ÷ entries)".into(),
        y_label: "nodes, 6 / 64 B ÷ 3 / 32 B".into(),
        log_x: true,
        log_y: false,
        series: vec![
            Series::new("singles", series[0].clone()),
            Series::new("sequences", series[1].clone()),
        ],
    }
    .render(&file)?;
    sec.image(link, "node ratio of the two shapes against load factor");

    let spreads: Vec<Spread> = speeds.iter().map(|v| Spread::of(v)).collect();
    let speed: Vec<f64> = spreads.iter().map(|s| s.median).collect();
    let mut t = Table::new(&[
        ("shape", Align::Left),
        ("nodes/s (median)", Align::Right),
        ("min–max", Align::Right),
    ]);
    for ((label, _), sp) in SHAPES.iter().zip(&spreads) {
        t.row([
            label.to_string(),
            format_int(sp.median as u64),
            sp.range_text(),
        ]);
    }
    sec.para(format!("Speed at {} MiB:", set.big_mib));
    sec.table(t);
    let pressured: Vec<f64> = series
        .iter()
        .flatten()
        .filter(|&&(load, _)| load >= 1.0)
        .map(|&(_, r)| r)
        .collect();
    let mean = pressured.iter().sum::<f64>() / pressured.len().max(1) as f64;
    sec.para(format!(
        "**Result.** Under pressure (load ≥ 1) the line bucket searched {} times the nodes \
         of today's cluster on average ({}), at {} times its speed on a large table.",
        format_f(mean, 3),
        if pressured.is_empty() {
            "no size was under pressure"
        } else if mean < 1.0 {
            "fewer"
        } else {
            "not fewer"
        },
        format_f(speed[1] / speed[0], 3)
    ));
    sec.para(
        "**Compared with the source.** Beal and Smith argue for probing a whole cache line; \
         the table says whether the extra choice pays on Engram's search once the second \
         cluster's read is paid for.",
    );
    Ok(sec)
}
