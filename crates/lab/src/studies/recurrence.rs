//! Study `recurrence`: how often the search meets a position the table knows, and what
//! the entry then gives it (a move, a cutoff), by remaining depth and game phase.

use super::StudyId;
use crate::context::Ctx;
use crate::plot::{LinePlot, Series};
use crate::positions;
use crate::report::{format_f, format_int, Align, Section, Table};
use crate::runner::{positions as game_positions, single, Lab, TableSpec};
use engram::search::lab::{TtUse, DEPTHS, PHASES};
use engram_tt::Policy;

/// The question this study answers.
pub const QUESTION: &str =
    "How often does the search meet a position the table already holds, and how often does \
     the entry then supply a move or end the node, by remaining depth and by game phase?";

/// Phase groups: (name, lowest phase, highest phase), phase 24 = all pieces on the board.
pub const PHASE_GROUPS: [(&str, usize, usize); 3] = [
    ("phase 17–24 (most pieces)", 17, 24),
    ("phase 9–16", 9, 16),
    ("phase 0–8 (endgame)", 0, 8),
];

/// Sums of one counter over depths `d0..=d1` and phases `p0..=p1`.
fn sum(c: &[[u64; PHASES]], d0: usize, d1: usize, p0: usize, p1: usize) -> u64 {
    c[d0..=d1.min(DEPTHS - 1)]
        .iter()
        .map(|row| row[p0..=p1].iter().sum::<u64>())
        .sum()
}

/// Hit, move and cut shares (of probes) over the given depths and phases.
pub fn shares(u: &TtUse, d0: usize, d1: usize, p0: usize, p1: usize) -> (u64, f64, f64, f64) {
    let probes = sum(&u.probes, d0, d1, p0, p1);
    let share = |c: &[[u64; PHASES]]| sum(c, d0, d1, p0, p1) as f64 / probes.max(1) as f64;
    (probes, share(&u.hits), share(&u.moves), share(&u.cuts))
}

/// Settings: sequences, searches each, depth, singles, table entries (log₂).
fn settings(quick: bool) -> (usize, usize, i32, bool, u32) {
    if quick {
        (2, 4, 5, true, 12)
    } else {
        (24, 40, 11, false, 20)
    }
}

/// Runs the study.
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    let (n_seqs, searches, depth, quick_singles, log_entries) = settings(ctx.quick);
    let seqs: Vec<_> = positions::sequences().into_iter().take(n_seqs).collect();
    let singles = positions::singles(quick_singles);
    let spec = TableSpec::entries(Policy::default(), 1 << log_entries);
    let bar = ctx.bar((seqs.len() + singles.len()) as u64, "recurrence");

    // Game sequences: table kept across a game's searches.
    let mut games = Lab::new(spec.build()?, true);
    for s in &seqs {
        let ps = game_positions(s, searches)?;
        games.forget();
        for p in &ps {
            games.search(p, depth);
        }
        bar.inc(1);
    }
    // Single positions: empty table each.
    let mut fresh = Lab::new(spec.build()?, true);
    for p in &singles {
        single(&mut fresh, p, depth)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let (g, f) = (&games.tt_use(), &fresh.tt_use());

    let mut sec = Section::new(StudyId::Recurrence.title());
    sec.para(format!("**Question.** {QUESTION}"));
    sec.para(
        "**Source.** Seed 001: \"although same chess positions do often re-occur during an \
         alpha beta search, we can only count on having this happen somewhere between \
         15%-20%\" (no measurement given).",
    );
    sec.para(format!(
        "**Method.** Engram's search with the `lab` counters: at every node that reaches \
         its table probe (quiescence included, remaining depth 0) it counts the probe, \
         whether it hit, whether the entry had a move, and whether it ended the node (a \
         bound cutoff, non-PV nodes only). *Games:* {} games, the first {} positions of one \
         side each, searched to depth {} one after the other (table kept across a game). \
         *Singles:* {} positions, each from an empty table. One thread, buckets k=8, {} \
         entries (no pressure). Phase: knights and bishops 1, rooks 2, queens 4 (24 at the \
         start).",
        seqs.len(),
        searches,
        depth,
        singles.len(),
        format_int(spec.n_entries() as u64)
    ));

    let all = (0, PHASES - 1);
    let mut t = Table::new(&[
        ("remaining depth", Align::Left),
        ("probes (games)", Align::Right),
        ("hit", Align::Right),
        ("with a move", Align::Right),
        ("cut", Align::Right),
        ("probes (singles)", Align::Right),
        ("hit ", Align::Right),
        ("with a move ", Align::Right),
        ("cut ", Align::Right),
    ]);
    let pct = |x: f64| format!("{}%", format_f(100.0 * x, 1));
    let max_d = (depth as usize).min(DEPTHS - 1);
    let mut rows: Vec<(String, usize, usize)> =
        (0..=max_d).map(|d| (d.to_string(), d, d)).collect();
    rows.push(("all".into(), 0, DEPTHS - 1));
    for (label, d0, d1) in &rows {
        let (gp, gh, gm, gc) = shares(g, *d0, *d1, all.0, all.1);
        let (fp, fh, fm, fc) = shares(f, *d0, *d1, all.0, all.1);
        t.row([
            label.clone(),
            format_int(gp),
            pct(gh),
            pct(gm),
            pct(gc),
            format_int(fp),
            pct(fh),
            pct(fm),
            pct(fc),
        ]);
    }
    sec.para("Shares of probes, by remaining depth (0 = quiescence):");
    sec.table(t);

    let mut t = Table::new(&[
        ("phase (games)", Align::Left),
        ("probes", Align::Right),
        ("hit", Align::Right),
        ("with a move", Align::Right),
        ("cut", Align::Right),
    ]);
    for (name, p0, p1) in PHASE_GROUPS {
        let (p, h, m, c) = shares(g, 0, DEPTHS - 1, p0, p1);
        t.row([name.to_string(), format_int(p), pct(h), pct(m), pct(c)]);
    }
    sec.para("By game phase, games:");
    sec.table(t);

    let mut series: Vec<Series> = PHASE_GROUPS
        .iter()
        .map(|&(name, p0, p1)| {
            Series::new(
                format!("games, {name}"),
                (0..=max_d)
                    .filter(|&d| shares(g, d, d, p0, p1).0 > 0)
                    .map(|d| (d as f64, 100.0 * shares(g, d, d, p0, p1).1))
                    .collect(),
            )
        })
        .collect();
    series.push(Series::new(
        "singles, all phases",
        (0..=max_d)
            .filter(|&d| shares(f, d, d, all.0, all.1).0 > 0)
            .map(|d| (d as f64, 100.0 * shares(f, d, d, all.0, all.1).1))
            .collect(),
    ));
    let (file, link) = ctx.img_path("recurrence");
    LinePlot {
        title: "Share of probes that hit, by remaining depth".into(),
        x_label: "remaining depth (0 = quiescence)".into(),
        y_label: "hits, % of probes".into(),
        log_x: false,
        log_y: false,
        series,
    }
    .render(&file)?;
    sec.image(link, "hit share by remaining depth");

    let (_, gh, gm, gc) = shares(g, 0, DEPTHS - 1, all.0, all.1);
    let (_, fh, _, fc) = shares(f, 0, DEPTHS - 1, all.0, all.1);
    let (_, gh1, _, _) = shares(g, 1, DEPTHS - 1, all.0, all.1);
    sec.para(format!(
        "**Result.** In games {} of all probes hit ({} at remaining depth ≥ 1), {} found a \
         move and {} ended the node; on single positions from an empty table {} hit and {} \
         cut.",
        pct(gh),
        pct(gh1),
        pct(gm),
        pct(gc),
        pct(fh),
        pct(fc)
    ));
    sec.para(format!(
        "**Compared with the source.** Seed 001's 15–20% {} what Engram's search meets: \
         {} of probes in games and {} on single positions find their position in the table.",
        if (0.15..=0.20).contains(&gh) {
            "matches"
        } else if gh > 0.20 {
            "is below"
        } else {
            "is above"
        },
        pct(gh),
        pct(fh)
    ));
    Ok(sec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_sum_over_depths_and_phases() {
        let mut u = TtUse::default();
        u.probes[0][24] = 10;
        u.hits[0][24] = 5;
        u.moves[0][24] = 2;
        u.cuts[0][24] = 1;
        u.probes[3][0] = 10;
        assert_eq!(shares(&u, 0, 0, 0, 24), (10, 0.5, 0.2, 0.1));
        assert_eq!(shares(&u, 0, DEPTHS - 1, 0, 24), (20, 0.25, 0.1, 0.05));
        assert_eq!(shares(&u, 0, DEPTHS - 1, 0, 8).1, 0.0);
        assert_eq!(shares(&u, 5, 6, 0, 24).0, 0);
    }
}
