//! The search's tunable constants, in one place: every margin, depth limit and divisor the
//! search uses, with its value and what it does.
//!
//! In the default build each parameter is a `const fn` that returns its value, so the compiler
//! folds it exactly as it would a literal. With the cargo feature `tune` each one is an atomic
//! instead, exposed as a UCI `spin` option under its name (`setoption name rfp_margin value 90`),
//! so an SPSA tuner (OpenBench, weather-factory) can tune the search without a code change; the
//! UCI command `tune` prints the parameters in OpenBench's SPSA input format and `tune json` as
//! weather-factory's config.
//!
//! Values are integers: fractions are given in hundredths (`lmr_base` 75 is 0.75).

/// One tunable parameter: its UCI name, value and range, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name, as a UCI option and a function of this module.
    pub name: &'static str,
    /// The value the engine ships with.
    pub default: i32,
    /// The smallest value a tuner may try.
    pub min: i32,
    /// The largest value a tuner may try.
    pub max: i32,
    /// One line on what it does.
    pub doc: &'static str,
}

impl Param {
    /// The SPSA step a tuner should start with: a twentieth of the range, at least 1
    /// (OpenBench's `c_end`; its `r_end` is 0.002).
    pub fn step(&self) -> f64 {
        (f64::from(self.max - self.min) / 20.0).max(1.0)
    }
}

macro_rules! params {
    ($($(#[doc = $doc:literal])+ $name:ident: $default:literal, $min:literal..=$max:literal;)+) => {
        /// Every parameter, in the order the search meets them.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            doc: concat!($($doc),+).trim_ascii(),
        }),+];

        $(
            $(#[doc = $doc])+
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])+
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                tuned::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )+

        /// The current values under `tune`, one atomic per parameter.
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod tuned {
            use std::sync::atomic::AtomicI32;
            $(pub static $name: AtomicI32 = AtomicI32::new($default);)+
        }

        /// Sets parameter `name` (case-insensitive) to `value`, within its range.
        #[cfg(feature = "tune")]
        pub fn set(name: &str, value: i32) -> Result<(), String> {
            $(
                if name.eq_ignore_ascii_case(stringify!($name)) {
                    if !($min..=$max).contains(&value) {
                        return Err(format!(
                            "option '{}': {value} is out of range {}..={}",
                            stringify!($name), $min, $max
                        ));
                    }
                    tuned::$name.store(value, std::sync::atomic::Ordering::Relaxed);
                    return Ok(());
                }
            )+
            Err(format!("unknown option '{name}'"))
        }
    };
}

params! {
    /// Iterations from this depth on start with an aspiration window around the last score.
    asp_min_depth: 5, 1..=12;
    /// Half-width of the first aspiration window, in centipawns.
    asp_delta: 20, 5..=100;
    /// How much the window widens after each failure, in percent of its half-width.
    asp_growth: 50, 10..=200;
    /// Share of the soft time limit used when the best move is stable, in percent.
    tm_base: 70, 30..=150;
    /// Extra share of the soft limit per unit of best-move instability, in percent.
    tm_instability: 60, 0..=200;
    /// Extra share of the soft limit when the score dropped by `tm_drop_cp`, in percent.
    tm_drop: 50, 0..=200;
    /// The score drop, in centipawns, that earns the full `tm_drop` extra time.
    tm_drop_cp: 100, 20..=400;
    /// Node share: the soft limit is scaled by `(base − share) · mul`, where `share` is the
    /// part of the search's nodes the best move took; `base` in hundredths.
    tm_node_base: 150, 100..=250;
    /// Node share: the factor `mul` of `(base − share) · mul`, in hundredths.
    tm_node_mul: 135, 50..=300;
    /// No cutoff from a table score once the halfmove clock reaches this (the fifty-move rule
    /// may void the stored score).
    tt_cut_halfmove: 90, 50..=100;
    /// Pawn-structure correction of the static evaluation: the largest correction, in
    /// centipawns (at most 127, so an entry fits an `i16` in 1/256 cp).
    corr_max: 100, 16..=127;
    /// Pawn-structure correction: the largest weight, out of 1024, a search's result gets
    /// in the entry's average (the weight is `(depth + 1)²` up to this).
    corr_weight_max: 128, 16..=512;
    /// Reverse futility pruning: only at this depth or less.
    rfp_max_depth: 8, 2..=14;
    /// Reverse futility pruning: the margin per ply of depth, in centipawns.
    rfp_margin: 80, 30..=200;
    /// Null-move pruning: only at this depth or more.
    nmp_min_depth: 3, 1..=6;
    /// Null-move pruning: the base reduction.
    nmp_base: 3, 1..=6;
    /// Null-move pruning: one more ply of reduction per this many plies of depth.
    nmp_depth_div: 4, 2..=8;
    /// Null-move pruning: one more ply of reduction per this many centipawns above beta.
    nmp_eval_div: 200, 50..=500;
    /// Null-move pruning: at most this many plies of reduction from the eval margin.
    nmp_eval_max: 3, 0..=6;
    /// Internal iterative reduction: nodes without a table move lose a ply from this depth on.
    iir_min_depth: 4, 2..=10;
    /// Singular extensions: only at this depth or more.
    se_min_depth: 8, 4..=14;
    /// Singular extensions: the table entry must be at most this many plies shallower.
    se_tt_depth: 3, 1..=6;
    /// Singular extensions: the singular search's beta is the table score minus this many
    /// centipawns per ply of depth.
    se_margin: 2, 1..=8;
    /// Singular extensions: a table move whose singular search fails low by this many
    /// centipawns more than the margin is extended by two plies (not at PV nodes).
    se_double_margin: 20, 0..=200;
    /// Singular extensions: at most this many double extensions on a path from the root.
    se_double_max: 6, 0..=20;
    /// Shallowest zero-window node that looks its children up for an enhanced transposition
    /// cutoff (`enhanced_cutoffs.rs`).
    etc_min_depth: 6, 2..=16;
    /// Late-move pruning: quiet moves searched before the rest are skipped, plus depth².
    lmp_base: 3, 1..=10;
    /// Futility pruning: only at this depth or less.
    fp_max_depth: 8, 2..=14;
    /// Futility pruning: the margin at depth 0, in centipawns.
    fp_base: 100, 0..=300;
    /// Futility pruning: the margin per ply of depth, in centipawns.
    fp_per_depth: 100, 30..=250;
    /// SEE pruning: only at this depth or less.
    see_max_depth: 8, 2..=14;
    /// SEE pruning: a quiet move losing more than this times depth is skipped (centipawns).
    see_quiet: 60, 10..=200;
    /// SEE pruning: a capture losing more than this times depth is skipped (centipawns).
    see_noisy: 100, 20..=300;
    /// Late-move reductions: the constant term of `base + ln(depth)·ln(move)/divisor`, in
    /// hundredths.
    lmr_base: 75, 0..=200;
    /// Late-move reductions: the divisor of `base + ln(depth)·ln(move)/divisor`, in hundredths.
    lmr_divisor: 225, 100..=400;
    /// Late-move reductions: only at this depth or more.
    lmr_min_depth: 3, 2..=6;
    /// Late-move reductions: moves searched unreduced at a PV node.
    lmr_skip_pv: 3, 1..=8;
    /// Late-move reductions: moves searched unreduced at a zero-window node.
    lmr_skip: 1, 1..=6;
    /// Late-move reductions: moves searched unreduced at the root (where reductions are one
    /// ply smaller).
    lmr_skip_root: 3, 1..=10;
    /// Late-move reductions: one ply less per this much history score.
    lmr_history_div: 8192, 2048..=32768;
    /// Hindsight: a node whose parent reduced the move into it by at least this many plies,
    /// and whose evaluation is no better than the parent's was, gets a ply back.
    hindsight_min_r: 3, 1..=8;
    /// Hindsight: a reduced node loses a ply when its evaluation and its parent's, each
    /// from its own side, add up to more than this many centipawns.
    hindsight_margin: 200, 0..=800;
    /// Late-move reductions: a reduced move that beats alpha by more than this many
    /// centipawns, plus `lmr_deeper_per_ply` per ply of reduction, is verified a ply deeper.
    lmr_deeper_base: 24, 0..=200;
    /// Late-move reductions: the verification margin's part per ply of reduction.
    lmr_deeper_per_ply: 4, 0..=40;
    /// Quiescence delta pruning: a capture that cannot raise the score to alpha with this
    /// margin is skipped, in centipawns.
    qs_delta_margin: 200, 0..=600;
    /// History bonus for a cutoff at depth d, `mul·d − sub` up to `max`: the factor.
    hist_bonus_mul: 300, 50..=600;
    /// History bonus for a cutoff at depth d, `mul·d − sub` up to `max`: the offset.
    hist_bonus_sub: 250, 0..=600;
    /// History bonus for a cutoff at depth d, `mul·d − sub` up to `max`: the cap.
    hist_bonus_max: 2500, 500..=8000;
    // Experiments waiting for a match (docs/search-candidates.md section 4): each default
    // keeps the search as it was, so a `tune` build plays the old and the new search with
    // one binary (`option.name=value` on one side); a switch that passes is made the
    // default in its own commit, one that fails is removed.
    /// Experiment (0 off, 1 on): a table fail high ends a node only from a strictly deeper
    /// entry, and at depth 5 or less only where the node's type agrees (a cut node's fail
    /// high, an all node's fail low).
    tt_cut_strict: 0, 0..=1;
    /// Experiment (0 off): once a move raises alpha at a PV node without failing high, the
    /// later moves are searched a ply shallower, at depths 3 to this.
    ar_max_depth: 0, 0..=16;
    /// Experiment (0 off, 1 on): the first move's child of a zero-window node is the
    /// opposite node type (a cut node's first child an all node, and the reverse), not
    /// always an all node.
    cut_first_child: 0, 0..=1;
    /// Experiment (0 off, 1 on): no late-move pruning in check, and no futility pruning of
    /// quiet moves that give check.
    check_guards: 0, 0..=1;
    /// Experiment (0 off, 1 on): a repetition inside the search scores -1 or +1 by the node
    /// count, not 0, so that the search does not take every draw as equal.
    draw_jitter: 0, 0..=1;
    /// Experiment (0 off, 1 on): a reduced move whose full-depth re-search is due is
    /// searched a ply shallower when its reduced score was not 10 cp better than the best.
    lmr_shallower: 0, 0..=1;
    /// Quiescence SEE pruning: a capture that loses more than this many centipawns is
    /// skipped (0: every losing capture, as before).
    qs_see_margin: 0, 0..=200;
    /// Experiment: the static evaluation's correction (`correction.rs`): 0 the pawn table
    /// as before, 1 the residual tables (pawns, minor pieces, each colour's other pieces).
    corr_mode: 0, 0..=1;
    /// Experiment (0 off): a node whose table entry has the PV flag keeps it when it stores
    /// (a sticky "was on a PV" flag), and its later moves are reduced this many plies less.
    ttpv_lmr: 0, 0..=2;
    /// Experiment: continuation histories of moves further back that order quiet moves and
    /// learn from cutoffs: 0 none (plies 1 and 2 only), 1 also ply 4, 2 also plies 4 and 6.
    cont_far: 0, 0..=2;
    /// Experiment (0 off, 1 on): the time management's instability counts every change of
    /// the best root move within an iteration, not only a different best move between two.
    tm_changes: 0, 0..=1;
    /// Experiment (0 off, 1 on): null-move pruning only at cut nodes (expected fail highs),
    /// as Stockfish and Reckless do.
    nmp_cut_only: 0, 0..=1;
    /// Experiment (0 off, 1 on): the singular search's multi-cut also ends the node when the
    /// search without the table move fails high by itself, and a cut node's table move that
    /// is not singular loses two plies.
    se_multicut: 0, 0..=1;
    /// Experiment (0 off, 1 on): no extension for a move that gives check.
    no_check_ext: 0, 0..=1;
    /// Capture ordering: the capture history's weight beside the victim's value, in 16ths
    /// (1: a history worth up to 0.64 pawn, as before; 8 near Stockfish's balance).
    capt_hist_w: 1, 0..=16;
    /// Experiment (0 off, 1 on): a node whose side to move can repeat an earlier position
    /// with one reversible move (`Position::upcoming_repetition`) raises alpha to the draw
    /// score, and fails high on it when that reaches beta (Stockfish's `has_game_cycle`).
    upcoming_rep: 0, 0..=1;
    /// Residual correction (`corr_mode` 1): the pawn table's weight, out of 1024.
    corr_w_pawn: 1024, 0..=2048;
    /// Residual correction: the minor-piece table's weight, out of 1024.
    corr_w_minor: 800, 0..=2048;
    /// Residual correction: each colour's non-pawn table's weight, out of 1024.
    corr_w_non_pawn: 900, 0..=2048;
    /// Residual correction: the step per ply of depth (up to 16), out of 1024 of the
    /// residual.
    corr_rate: 12, 1..=64;
}

/// The late-move reduction for move number `moves` at `depth` (both capped at 63), before
/// the node's adjustments.
pub fn lmr_table() -> Vec<[i32; 64]> {
    let base = f64::from(lmr_base()) / 100.0;
    let divisor = f64::from(lmr_divisor()) / 100.0;
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

/// The parameters in OpenBench's SPSA input format: `name, int, value, min, max, c_end, r_end`.
pub fn openbench() -> String {
    PARAMS
        .iter()
        .map(|p| {
            format!(
                "{}, int, {}, {}, {}, {}, 0.002\n",
                p.name,
                p.default,
                p.min,
                p.max,
                p.step()
            )
        })
        .collect()
}

/// The parameters as weather-factory's config (JSON: name → value, min, max, step).
pub fn weather_factory() -> String {
    let body: Vec<String> = PARAMS
        .iter()
        .map(|p| {
            format!(
                "  \"{}\": {{\"value\": {}, \"min_value\": {}, \"max_value\": {}, \"step\": {}}}",
                p.name,
                p.default,
                p.min,
                p.max,
                p.step()
            )
        })
        .collect();
    format!("{{\n{}\n}}\n", body.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_in_range_and_names_unique() {
        for p in PARAMS {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(!p.doc.is_empty());
            assert_eq!(PARAMS.iter().filter(|q| q.name == p.name).count(), 1);
        }
        assert_eq!(rfp_margin(), 80);
    }

    #[test]
    fn lmr_table_matches_the_formula() {
        let t = lmr_table();
        assert_eq!(t[0][10], 0);
        assert_eq!(t[10][0], 0);
        // 0.75 + ln 10 · ln 10 / 2.25 = 3.11
        assert_eq!(t[10][10], 3);
        assert_eq!(t[63][63], (0.75 + 63f64.ln() * 63f64.ln() / 2.25) as i32);
    }

    #[test]
    fn tuner_formats_list_every_parameter() {
        assert_eq!(openbench().lines().count(), PARAMS.len());
        assert!(openbench().starts_with("asp_min_depth, int, 5, 1, 12, 1, 0.002\n"));
        let json = weather_factory();
        assert_eq!(json.matches("\"min_value\"").count(), PARAMS.len());
        assert!(json.contains("\"rfp_margin\": {\"value\": 80, \"min_value\": 30"));
    }
}
