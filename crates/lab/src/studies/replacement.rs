//! Study `replacement`: which entry a store overwrites, under hash pressure.
//!
//! Every policy of `engram-tt`, at table sizes from 2¹⁰ to 2²² entries, on single positions
//! (fresh table each) and on game sequences (table kept across a game's searches); nodes and
//! time to a fixed depth, against the load factor (nodes per search ÷ entries) as Breuker,
//! Uiterwijk and van den Herik plot it.

use super::StudyId;
use crate::context::Ctx;
use crate::plot::{LinePlot, Series};
use crate::positions;
use crate::report::{format_f, format_int, Align, Section, Table};
use crate::runner::{self, policy_name, Lab, TableSpec, Totals};
use engram_tt::Policy;

/// The question this study answers.
pub const QUESTION: &str =
    "Which replacement policy searches the fewest nodes to a fixed depth when the table is \
     too small for the search, and does the two-level, subtree-size scheme that Breuker, \
     Uiterwijk and van den Herik recommended still win on a modern search?";

/// The policies compared, in table order.
pub const POLICIES: [Policy; 10] = [
    Policy::AlwaysReplace,
    Policy::DepthPreferred,
    Policy::TwoTier,
    Policy::Buckets { age_weight: 0 },
    Policy::Buckets { age_weight: 2 },
    Policy::Buckets { age_weight: 4 },
    Policy::Buckets { age_weight: 8 },
    Policy::Buckets { age_weight: 16 },
    Policy::MicroMax,
    Policy::TwoBig1,
];

/// The sizes and depths of a run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Table sizes for single positions, as log₂ of the entries.
    pub sizes: Vec<u32>,
    /// Depth of the single-position searches.
    pub depth: i32,
    /// Table sizes for the sequences (log₂ entries).
    pub seq_sizes: Vec<u32>,
    /// Sequences used.
    pub seqs: usize,
    /// Searches per sequence.
    pub searches: usize,
    /// Depth of the sequence searches.
    pub seq_depth: i32,
}

impl Settings {
    /// The published run, or a quick one.
    pub fn new(quick: bool) -> Settings {
        if quick {
            Settings {
                sizes: vec![10, 14],
                depth: 5,
                seq_sizes: vec![10, 14],
                seqs: 2,
                searches: 4,
                seq_depth: 5,
            }
        } else {
            Settings {
                sizes: (10..=22).step_by(2).collect(),
                depth: 10,
                seq_sizes: (10..=22).step_by(2).collect(),
                seqs: 24,
                searches: 40,
                seq_depth: 9,
            }
        }
    }
}

/// One policy's totals at each size.
struct Grid {
    sizes: Vec<u32>,
    /// `cells[p][s]`: policy `p` at size `s`.
    cells: Vec<Vec<Totals>>,
}

impl Grid {
    /// The reference: the default policy at the largest size.
    fn reference(&self) -> Totals {
        let p = POLICIES
            .iter()
            .position(|&p| p == Policy::default())
            .expect("the default policy is compared");
        *self.cells[p].last().expect("at least one size")
    }

    /// The load factor at size `s`: reference nodes per search ÷ entries.
    fn load(&self, s: usize) -> f64 {
        let entries = TableSpec::entries(Policy::default(), 1 << self.sizes[s]).n_entries();
        self.reference().mean_nodes() / entries as f64
    }

    /// Nodes of `p` at `s` relative to the reference.
    fn rel(&self, p: usize, s: usize) -> f64 {
        self.cells[p][s].nodes as f64 / self.reference().nodes as f64
    }
}

/// Runs one grid: every policy at every size, through `run`, with internal iterative
/// reduction on (the engine's search) or off.
fn grid(
    ctx: &Ctx,
    label: &str,
    sizes: &[u32],
    iir: bool,
    mut run: impl FnMut(&mut Lab) -> anyhow::Result<Totals>,
) -> anyhow::Result<Grid> {
    let bar = ctx.bar((POLICIES.len() * sizes.len()) as u64, label);
    let mut cells = Vec::new();
    for policy in POLICIES {
        let mut row = Vec::new();
        for &s in sizes {
            bar.set_message(format!("{} 2^{s}", policy_name(policy)));
            let mut lab = Lab::on(&TableSpec::entries(policy, 1 << s))?;
            lab.set_iir(iir);
            row.push(run(&mut lab)?);
            bar.inc(1);
        }
        cells.push(row);
    }
    bar.finish_and_clear();
    Ok(Grid {
        sizes: sizes.to_vec(),
        cells,
    })
}

/// A metric of a cell relative to the reference's.
#[derive(Clone, Copy)]
enum Metric {
    Nodes,
    Time,
}

impl Metric {
    fn of(self, t: &Totals) -> f64 {
        match self {
            Metric::Nodes => t.nodes as f64,
            Metric::Time => t.time.as_secs_f64(),
        }
    }
}

/// The table of `metric` relative to the reference, policy by size; the best cell of each
/// size in bold.
fn table(g: &Grid, metric: Metric) -> Table {
    let heads: Vec<String> = g
        .sizes
        .iter()
        .enumerate()
        .map(|(s, &b)| format!("2^{b} (load {})", format_f(g.load(s), 2)))
        .collect();
    let mut cols = vec![("policy", Align::Left)];
    cols.extend(heads.iter().map(|h| (h.as_str(), Align::Right)));
    let mut t = Table::new(&cols);
    let reference = metric.of(&g.reference()).max(1e-12);
    for (p, &policy) in POLICIES.iter().enumerate() {
        let best = |s: usize| {
            (0..POLICIES.len()).all(|q| metric.of(&g.cells[q][s]) >= metric.of(&g.cells[p][s]))
        };
        let mut row = vec![policy_name(policy)];
        row.extend((0..g.sizes.len()).map(|s| {
            let v = format_f(metric.of(&g.cells[p][s]) / reference, 3);
            if best(s) {
                format!("**{v}**")
            } else {
                v
            }
        }));
        t.row(row);
    }
    t
}

/// Time relative to the reference, per policy, summed over the sizes whose load factor is at
/// least 1 (where the policy matters).
fn time_under_pressure(g: &Grid, p: usize) -> f64 {
    let pressured: Vec<usize> = (0..g.sizes.len()).filter(|&s| g.load(s) >= 1.0).collect();
    let t: f64 = pressured
        .iter()
        .map(|&s| g.cells[p][s].time.as_secs_f64())
        .sum();
    let n: f64 = pressured.iter().map(|&s| g.cells[p][s].nodes as f64).sum();
    n / t.max(1e-9)
}

/// Internal iterative reductions per 1,000 nodes of `p`, over the sizes whose load factor
/// is in `lo..=hi`.
fn iir_rate(g: &Grid, p: usize, lo: f64, hi: f64) -> f64 {
    let (iir, nodes) = (0..g.sizes.len())
        .filter(|&s| (lo..=hi).contains(&g.load(s)))
        .fold((0, 0), |(i, n), s| {
            (i + g.cells[p][s].iir, n + g.cells[p][s].nodes)
        });
    1000.0 * iir as f64 / nodes.max(1) as f64
}

/// Mean of the relative node counts over the sizes whose load factor is in `lo..=hi`.
fn mean_rel(g: &Grid, p: usize, lo: f64, hi: f64) -> f64 {
    let sizes: Vec<usize> = (0..g.sizes.len())
        .filter(|&s| (lo..=hi).contains(&g.load(s)))
        .collect();
    if sizes.is_empty() {
        return f64::NAN;
    }
    sizes.iter().map(|&s| g.rel(p, s)).sum::<f64>() / sizes.len() as f64
}

/// The policies ranked by `score` (lowest first), NaNs last.
fn ranking(score: impl Fn(usize) -> f64) -> Vec<(usize, f64)> {
    let mut r: Vec<(usize, f64)> = (0..POLICIES.len()).map(|p| (p, score(p))).collect();
    r.sort_by(|a, b| a.1.total_cmp(&b.1));
    r
}

fn plot(ctx: &Ctx, name: &str, title: &str, g: &Grid) -> anyhow::Result<String> {
    let (file, link) = ctx.img_path(name);
    LinePlot {
        title: title.into(),
        x_label: "load factor (reference nodes per search ÷ entries)".into(),
        y_label: "nodes ÷ nodes of buckets k=8 at the largest size".into(),
        log_x: true,
        log_y: false,
        series: POLICIES
            .iter()
            .enumerate()
            .map(|(p, &policy)| {
                Series::new(
                    policy_name(policy),
                    (0..g.sizes.len())
                        .map(|s| (g.load(s), g.rel(p, s)))
                        .collect(),
                )
            })
            .collect(),
    }
    .render(&file)?;
    Ok(link)
}

/// Runs the study.
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    let set = Settings::new(ctx.quick);
    let singles = positions::singles(ctx.quick);
    let seqs: Vec<_> = positions::sequences().into_iter().take(set.seqs).collect();

    let singles_grid = |label: &str, iir: bool| {
        grid(ctx, label, &set.sizes, iir, |lab| {
            runner::singles(lab, &singles, set.depth, |_, _| {})
        })
    };
    let games_grid = |label: &str, iir: bool| {
        grid(ctx, label, &set.seq_sizes, iir, |lab| {
            runner::sequences(lab, &seqs, set.searches, set.seq_depth, |_| {})
        })
    };
    let single = singles_grid("replacement: singles", true)?;
    let games = games_grid("replacement: sequences", true)?;
    let single_off = singles_grid("replacement: singles, IIR off", false)?;
    let games_off = games_grid("replacement: sequences, IIR off", false)?;

    let mut sec = Section::new(StudyId::Replacement.title());
    sec.para(format!("**Question.** {QUESTION}"));
    sec.para(
        "**Source.** D. M. Breuker, J. W. H. M. Uiterwijk and H. J. van den Herik, \
         \"Replacement schemes for transposition tables\", ICCA Journal 17(4), 1994, and \
         \"Replacement schemes and two-level tables\", ICCA Journal 19(3), 1996: seven schemes \
         on chess middle-game positions; a two-level table that keeps the entry with the \
         larger searched subtree (TwoBig1) \"performed best\" and was recommended. Their \
         node savings per table size could not be read here (see \
         `../shared/docs/tt-literature.md`), so only the ranking is compared.",
    );
    sec.para(format!(
        "**Method.** One thread, fixed depth, Engram's full search. *Singles:* {} positions \
         (bench and suites), each searched to depth {} on an empty table with fresh \
         histories. *Sequences:* {} games, the first {} positions of one side each, searched \
         to depth {} one after the other with the table and histories kept (the table's \
         generation advances per search). Table sizes 2^k entries (rounded up to whole \
         3-entry clusters) for k in {:?} (singles) and {:?} (sequences). Policies: always \
         replace; depth-preferred; two-tier (Belle); buckets, victim = lowest depth − k · age \
         (Stockfish's rule at k = 8, the default); micro-Max's 8-entry re-probe; TwoBig1 \
         (added to `engram-tt` for this study: slot 0 keeps the larger subtree, the loser \
         moves to the always-replace slots; the subtree size, 16 bits on a log scale, takes \
         the place of the cached static evaluation, which is then recomputed on hits). Each \
         cell is the total node count divided by that of the default policy at the largest \
         size; the load factor is that reference's nodes per search divided by the entries. \
         Bold: fewest nodes at that size.",
        singles.len(),
        set.depth,
        seqs.len(),
        set.searches,
        set.seq_depth,
        set.sizes,
        set.seq_sizes
    ));

    for (g, what, name) in [
        (&single, "single positions", "replacement-singles"),
        (&games, "game sequences", "replacement-sequences"),
    ] {
        let r = g.reference();
        sec.para(format!(
            "*{}*: the reference (buckets k=8, 2^{} entries) searched {} nodes in {} \
             searches ({} per search) at {} nodes/s.",
            what,
            g.sizes.last().copied().unwrap_or(0),
            format_int(r.nodes),
            r.searches,
            format_int(r.mean_nodes() as u64),
            format_int(r.nps() as u64)
        ));
        sec.para("Nodes, relative to the reference:");
        sec.table(table(g, Metric::Nodes));
        let link = plot(ctx, name, &format!("Replacement policies: {what}"), g)?;
        sec.image(link, format!("relative nodes against load factor, {what}"));
        sec.para("Time to depth, relative to the reference (one run each, so within a few per cent of noise):");
        sec.table(table(g, Metric::Time));
    }

    // Findings, from the numbers.
    let mut t = Table::new(&[
        ("policy", Align::Left),
        ("singles, load ≥ 1", Align::Right),
        ("sequences, load ≥ 1", Align::Right),
        ("singles, load 0.1–3", Align::Right),
        ("sequences, load 0.1–3", Align::Right),
        ("nodes/s under pressure (singles)", Align::Right),
    ]);
    for (p, &policy) in POLICIES.iter().enumerate() {
        t.row([
            policy_name(policy),
            format_f(mean_rel(&single, p, 1.0, f64::INFINITY), 3),
            format_f(mean_rel(&games, p, 1.0, f64::INFINITY), 3),
            format_f(mean_rel(&single, p, 0.1, 3.0), 3),
            format_f(mean_rel(&games, p, 0.1, 3.0), 3),
            format_int(time_under_pressure(&single, p) as u64),
        ]);
    }
    sec.para(
        "Mean relative nodes over the sizes in each load-factor range (lower is better), \
         and the speed in nodes per second over the sizes with load ≥ 1. The range 0.1–3 \
         is about what games reach per search: at 10s+0.1s Engram searches roughly 0.5 M \
         nodes a move, at 60s+0.6s 3 M, into 16 to 256 MiB (1.6 to 25 M entries).",
    );
    sec.table(t);

    // The confound: internal iterative reduction.
    sec.para(
        "**A confound: internal iterative reduction.** Engram, like most engines of the \
         last years, searches a PV or cut node one ply shallower when the table offers no \
         move there (internal iterative reduction, IIR, from remaining depth 4). A policy \
         that loses more entries therefore searches *shallower* trees to the same nominal \
         depth, and the papers' measure, nodes to a fixed depth (taken on programs without \
         such reductions), flatters it. The next table counts those reductions and repeats \
         both grids with the reduction turned off (a switch of the `lab` build; the engine \
         always has it on). With IIR off, each cell is relative to the same reference \
         searched with IIR off.",
    );
    let mut t = Table::new(&[
        ("policy", Align::Left),
        ("IIR per 1,000 nodes, singles, load ≥ 1", Align::Right),
        ("IIR per 1,000 nodes, singles, load < 0.1", Align::Right),
        ("IIR off: singles, load ≥ 1", Align::Right),
        ("IIR off: sequences, load ≥ 1", Align::Right),
        ("IIR off: sequences, load 0.1–3", Align::Right),
    ]);
    for (p, &policy) in POLICIES.iter().enumerate() {
        t.row([
            policy_name(policy),
            format_f(iir_rate(&single, p, 1.0, f64::INFINITY), 2),
            format_f(iir_rate(&single, p, 0.0, 0.1), 2),
            format_f(mean_rel(&single_off, p, 1.0, f64::INFINITY), 3),
            format_f(mean_rel(&games_off, p, 1.0, f64::INFINITY), 3),
            format_f(mean_rel(&games_off, p, 0.1, 3.0), 3),
        ]);
    }
    sec.table(t);
    for (g, what, name) in [
        (
            &single_off,
            "single positions, IIR off",
            "replacement-singles-no-iir",
        ),
        (
            &games_off,
            "game sequences, IIR off",
            "replacement-sequences-no-iir",
        ),
    ] {
        sec.para(format!(
            "*{what}*: nodes relative to buckets k=8 at the largest size, also with IIR off \
             ({} nodes):",
            format_int(g.reference().nodes)
        ));
        sec.table(table(g, Metric::Nodes));
        let link = plot(ctx, name, &format!("Replacement policies: {what}"), g)?;
        sec.image(link, format!("relative nodes against load factor, {what}"));
    }

    let pressured = ranking(|p| mean_rel(&single, p, 1.0, f64::INFINITY));
    let games_rank = ranking(|p| mean_rel(&games, p, 1.0, f64::INFINITY));
    let real = ranking(|p| mean_rel(&games, p, 0.1, 3.0));
    let pos = |r: &[(usize, f64)], policy: Policy| {
        r.iter()
            .position(|&(p, _)| POLICIES[p] == policy)
            .map_or(0, |i| i + 1)
    };
    let name = |r: &[(usize, f64)], i: usize| {
        r.get(i).map_or("-".to_string(), |&(p, v)| {
            format!("{} ({})", policy_name(POLICIES[p]), format_f(v, 3))
        })
    };
    sec.para(format!(
        "**Result.** Under pressure (load ≥ 1) the fewest nodes on single positions: {}, \
         then {}; the most: {}. On game sequences: {}, then {}. In the range games reach \
         (0.1–3, sequences): {}, then {}. TwoBig1 ranks {} of {} on single positions and {} \
         on sequences under pressure.",
        name(&pressured, 0),
        name(&pressured, 1),
        name(&pressured, POLICIES.len() - 1),
        name(&games_rank, 0),
        name(&games_rank, 1),
        name(&real, 0),
        name(&real, 1),
        pos(&pressured, Policy::TwoBig1),
        POLICIES.len(),
        pos(&games_rank, Policy::TwoBig1),
    ));
    let always = 0;
    let default = POLICIES
        .iter()
        .position(|&p| p == Policy::default())
        .expect("the default policy is compared");
    let off_pressured = ranking(|p| mean_rel(&single_off, p, 1.0, f64::INFINITY));
    let off_games = ranking(|p| mean_rel(&games_off, p, 1.0, f64::INFINITY));
    let off_real = ranking(|p| mean_rel(&games_off, p, 0.1, 3.0));
    sec.para(format!(
        "Under pressure on single positions, always-replace makes {} internal iterative \
         reductions per 1,000 nodes against {} for {} ({} and {} when the table is large). \
         With IIR off, under pressure the fewest nodes on single positions: {}, then {}; on \
         sequences: {}, then {}; in the range games reach: {}, then {}. So fixed-depth node \
         counts rank policies by how much they lose as well as by what they keep: the \
         ranking that matters is decided by games (see [Defaults](#defaults)).",
        format_f(iir_rate(&single, always, 1.0, f64::INFINITY), 2),
        format_f(iir_rate(&single, default, 1.0, f64::INFINITY), 2),
        policy_name(POLICIES[default]),
        format_f(iir_rate(&single, always, 0.0, 0.1), 2),
        format_f(iir_rate(&single, default, 0.0, 0.1), 2),
        name(&off_pressured, 0),
        name(&off_pressured, 1),
        name(&off_games, 0),
        name(&off_games, 1),
        name(&off_real, 0),
        name(&off_real, 1),
    ));
    sec.para(format!(
        "**Compared with the source.** Breuker et al. found TwoBig1 best of their seven \
         schemes (one- and two-entry slots, no aging, no multi-entry buckets). {}",
        if pos(&pressured, Policy::TwoBig1) == 1 {
            "Here, too, it searches the fewest nodes under pressure on single positions."
                .to_string()
        } else {
            format!(
                "Here it does not come first under pressure on single positions: {} does.",
                name(&pressured, 0)
            )
        }
    ));
    Ok(sec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn toy() -> Grid {
        let t = |nodes: u64| Totals {
            searches: 2,
            nodes,
            time: Duration::from_millis(10),
            iir: nodes / 100,
        };
        Grid {
            sizes: vec![10, 12],
            cells: (0..POLICIES.len())
                .map(|p| vec![t(4000 + 100 * p as u64), t(2000)])
                .collect(),
        }
    }

    #[test]
    fn relative_nodes_and_load_factors() {
        let g = toy();
        // Reference: buckets k=8 (index 6) at 2^12: 2000 nodes, 1000 per search.
        assert_eq!(g.reference().nodes, 2000);
        assert!((g.rel(6, 0) - 2.3).abs() < 1e-9);
        assert!((g.load(1) - 1000.0 / 4098.0).abs() < 1e-9);
        assert!(g.load(0) > 0.9);
        let r = ranking(|p| g.rel(p, 0));
        assert_eq!(
            r[0].0, 0,
            "always replace has the fewest nodes in the toy grid"
        );
        assert!(mean_rel(&g, 0, 100.0, 200.0).is_nan());
        assert!((iir_rate(&g, 0, 0.0, f64::INFINITY) - 10.0).abs() < 1e-9);
        assert_eq!(iir_rate(&g, 0, 100.0, 200.0), 0.0);
        let t = table(&g, Metric::Nodes);
        assert_eq!(t.rows.len(), POLICIES.len());
        assert_eq!(table(&g, Metric::Time).rows[0][2], "**1.000**");
        assert!(t.rows[0][1].starts_with("**"), "the best cell is bold");
    }

    #[test]
    fn every_policy_has_a_distinct_name() {
        let names: std::collections::HashSet<_> =
            POLICIES.iter().map(|&p| policy_name(p)).collect();
        assert_eq!(names.len(), POLICIES.len());
        assert!(POLICIES.contains(&Policy::default()));
    }
}
