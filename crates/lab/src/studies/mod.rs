//! The studies: one module per question, each exposing `run(ctx) -> Section`, and
//! [`run`] to dispatch by [`StudyId`].
//!
//! Each study states its question and source, runs Engram's search as its method says,
//! and writes a table, a plot and its result, computed from the numbers it measured.

pub mod aging;
pub mod bits;
pub mod collisions;
pub mod recurrence;
pub mod replacement;
pub mod shape;
pub mod size;
pub mod threads;

use crate::context::Ctx;
use crate::positions;
use crate::report::{format_int, Align, Block, Section, Table};

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
