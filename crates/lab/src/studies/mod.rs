//! The studies: one module per question, each exposing `run(ctx) -> Section`, and
//! [`run`] to dispatch by [`StudyId`].
//!
//! Every study is still a placeholder: it states its question and shows a small table and
//! plot of dummy numbers, marked "placeholder (not a measurement)" in the report.

pub mod aging;
pub mod bits;
pub mod collisions;
pub mod recurrence;
pub mod replacement;
pub mod shape;
pub mod size;
pub mod threads;

use crate::context::Ctx;
use crate::plot::{BarPlot, LinePlot, Series};
use crate::positions;
use crate::report::{format_f, format_int, Align, Block, Section, Table};

/// The studies, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StudyId {
    /// Which slot a store overwrites.
    Replacement,
    /// How entries of earlier searches age.
    Aging,
    /// False hits from signature collisions.
    Collisions,
    /// How many signature bits an entry needs.
    Bits,
    /// Positions coming back in later searches of a game.
    Recurrence,
    /// Table size.
    Size,
    /// Sharing one table between threads.
    Threads,
    /// Cluster shape and layout.
    Shape,
}

impl StudyId {
    /// Every study, in report order.
    pub const ALL: [StudyId; 8] = [
        StudyId::Replacement,
        StudyId::Aging,
        StudyId::Collisions,
        StudyId::Bits,
        StudyId::Recurrence,
        StudyId::Size,
        StudyId::Threads,
        StudyId::Shape,
    ];

    /// The command-line name, also used in file names (`tt-report-<name>.md`).
    pub fn name(self) -> &'static str {
        match self {
            StudyId::Replacement => "replacement",
            StudyId::Aging => "aging",
            StudyId::Collisions => "collisions",
            StudyId::Bits => "bits",
            StudyId::Recurrence => "recurrence",
            StudyId::Size => "size",
            StudyId::Threads => "threads",
            StudyId::Shape => "shape",
        }
    }

    /// The section heading in the report.
    pub fn title(self) -> &'static str {
        match self {
            StudyId::Replacement => "Replacement policies",
            StudyId::Aging => "Aging across searches",
            StudyId::Collisions => "Key collisions and false hits",
            StudyId::Bits => "Signature bits",
            StudyId::Recurrence => "Recurrence within games",
            StudyId::Size => "Table size",
            StudyId::Threads => "Threads and a shared table",
            StudyId::Shape => "Cluster shape",
        }
    }

    /// The question the study answers.
    pub fn question(self) -> &'static str {
        match self {
            StudyId::Replacement => replacement::QUESTION,
            StudyId::Aging => aging::QUESTION,
            StudyId::Collisions => collisions::QUESTION,
            StudyId::Bits => bits::QUESTION,
            StudyId::Recurrence => recurrence::QUESTION,
            StudyId::Size => size::QUESTION,
            StudyId::Threads => threads::QUESTION,
            StudyId::Shape => shape::QUESTION,
        }
    }

    /// The study with this command-line name.
    pub fn from_name(name: &str) -> Option<StudyId> {
        StudyId::ALL.into_iter().find(|id| id.name() == name)
    }
}

/// Runs one study.
pub fn run(id: StudyId, ctx: &Ctx) -> anyhow::Result<Section> {
    match id {
        StudyId::Replacement => replacement::run(ctx),
        StudyId::Aging => aging::run(ctx),
        StudyId::Collisions => collisions::run(ctx),
        StudyId::Bits => bits::run(ctx),
        StudyId::Recurrence => recurrence::run(ctx),
        StudyId::Size => size::run(ctx),
        StudyId::Threads => threads::run(ctx),
        StudyId::Shape => shape::run(ctx),
    }
}

/// The blocks between the report's header and its first study: how to reproduce the report
/// and the position sets available to the studies.
pub fn intro(ctx: &Ctx) -> Vec<Block> {
    let mut blocks = vec![Block::Paragraph(
        "Made by `engram-lab` (crates/lab), which runs transposition-table experiments on \
         Engram's own search. Reproduce with:"
            .into(),
    )];
    blocks.push(Block::Pre(
        "cargo run --release -p engram-lab -- all            # this report, into docs/\n\
         cargo run --release -p engram-lab -- all --quick    # a quick check, into target/lab-quick/"
            .into(),
    ));
    if ctx.quick {
        blocks.push(Block::Paragraph(
            "**Quick run:** fewer positions and smaller sizes, to check that the lab works. \
             Its numbers are not for the documentation."
                .into(),
        ));
    }
    let seqs = positions::sequences();
    let moves: usize = seqs.iter().map(|s| s.moves.len()).sum();
    let mut table = Table::new(&[
        ("position set", Align::Left),
        ("count", Align::Right),
        ("source", Align::Left),
    ]);
    table.row([
        "bench".to_string(),
        format_int(positions::bench().len() as u64),
        "`engram::bench::POSITIONS`".into(),
    ]);
    table.row([
        "suites".to_string(),
        format_int(positions::suites().len() as u64),
        "`crates/lab/data/suites.epd` (from the shared EPD corpora; see its header)".into(),
    ]);
    table.row([
        "singles (this run)".to_string(),
        format_int(positions::singles(ctx.quick).len() as u64),
        "bench + suites (quick: 4 of each)".into(),
    ]);
    table.row([
        "sequences".to_string(),
        format_int(seqs.len() as u64),
        format!("`crates/lab/data/sequences.txt`, {moves} moves in all"),
    ]);
    blocks.push(Block::Table(table));
    blocks
}

/// What a placeholder study draws.
pub(crate) enum Demo<'a> {
    /// A line plot with one line per name.
    Lines {
        x_label: &'a str,
        y_label: &'a str,
        log_x: bool,
        log_y: bool,
        series: &'a [&'a str],
    },
    /// A bar chart with one bar per label.
    Bars {
        y_label: &'a str,
        labels: &'a [&'a str],
    },
}

/// The marker every placeholder carries in its text, table and plot.
pub const PLACEHOLDER: &str = "placeholder (not a measurement)";

/// A placeholder section for `id`: its question, a notice, and a table and plot of dummy
/// numbers (so the report's layout can be checked before the study exists).
pub(crate) fn placeholder(ctx: &Ctx, id: StudyId, demo: &Demo) -> anyhow::Result<Section> {
    let mut section = Section::new(id.title());
    section.para(format!("**Question.** {}", id.question()));
    section.para(
        "**Placeholder (not a measurement).** The scaffold of the lab wrote this section: \
         the table and the plot below show made-up numbers that only demonstrate the layout \
         of the report. No search was run; nothing here is a result.",
    );
    let steps: u32 = if ctx.quick { 4 } else { 8 };
    let bar = ctx.bar(u64::from(steps), id.name());
    let (file, link) = ctx.img_path(id.name());
    match demo {
        Demo::Lines {
            x_label,
            y_label,
            log_x,
            log_y,
            series,
        } => {
            // Dummy values: x = 1, 2, … (or powers of ten), y = (k + 1) · x for line k.
            let xs: Vec<f64> = (0..steps)
                .map(|i| {
                    bar.inc(1);
                    if *log_x {
                        10f64.powi(i as i32 - 2)
                    } else {
                        f64::from(i + 1)
                    }
                })
                .collect();
            let y = |k: usize, x: f64| (k as f64 + 1.0) * x;
            let mut columns = vec![(*x_label, Align::Right)];
            columns.extend(series.iter().map(|s| (*s, Align::Right)));
            let mut table = Table::new(&columns);
            for &x in &xs {
                let mut row = vec![format_f(x, 2)];
                row.extend((0..series.len()).map(|k| format_f(y(k, x), 2)));
                table.row(row);
            }
            section.para(format!("Table: dummy values, {PLACEHOLDER}."));
            section.table(table);
            LinePlot {
                title: format!("{}: {PLACEHOLDER}", id.title()),
                x_label: x_label.to_string(),
                y_label: y_label.to_string(),
                log_x: *log_x,
                log_y: *log_y,
                series: series
                    .iter()
                    .enumerate()
                    .map(|(k, name)| Series::new(*name, xs.iter().map(|&x| (x, y(k, x))).collect()))
                    .collect(),
            }
            .render(&file)?;
        }
        Demo::Bars { y_label, labels } => {
            // Dummy values: 1, 2, 3, … in label order.
            let bars: Vec<(String, f64)> = labels
                .iter()
                .enumerate()
                .map(|(i, l)| (l.to_string(), i as f64 + 1.0))
                .collect();
            bar.inc(u64::from(steps));
            let mut table = Table::new(&[("variant", Align::Left), (y_label, Align::Right)]);
            for (label, v) in &bars {
                table.row([label.clone(), format_f(*v, 1)]);
            }
            section.para(format!("Table: dummy values, {PLACEHOLDER}."));
            section.table(table);
            BarPlot {
                title: format!("{}: {PLACEHOLDER}", id.title()),
                y_label: y_label.to_string(),
                bars,
            }
            .render(&file)?;
        }
    }
    bar.finish_and_clear();
    section.image(link, format!("{}: {PLACEHOLDER}", id.title()));
    Ok(section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_titles_and_questions_are_distinct() {
        let names: HashSet<_> = StudyId::ALL.iter().map(|id| id.name()).collect();
        let titles: HashSet<_> = StudyId::ALL.iter().map(|id| id.title()).collect();
        assert_eq!(names.len(), 8);
        assert_eq!(titles.len(), 8);
        for id in StudyId::ALL {
            assert_eq!(StudyId::from_name(id.name()), Some(id));
            assert!(id.question().ends_with('?'), "{}", id.name());
        }
        assert_eq!(StudyId::from_name("all"), None);
    }
}
