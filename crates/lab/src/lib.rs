//! The TT lab: transposition-table experiments on Engram's own search, written up as a
//! Markdown report (`docs/tt-report.md`) with SVG plots (`docs/img/tt-*.svg`).
//!
//! The binary `engram-lab` parses the command line and runs the studies; this library holds
//! the pieces:
//!
//! * [`context`]: the run context handed to every study (output folders, progress bars) and
//!   the rules for where a run may write.
//! * [`studies`]: the studies, one module each, and their dispatch.
//! * [`defaults`]: the report's last section, the default policy and the match that
//!   confirmed it (recorded in `data/default-match.txt`).
//! * [`report`]: the Markdown report (sections, tables, images) and its atomic writer.
//! * [`plot`]: line plots and bar charts as SVG.
//! * [`positions`]: the positions and game sequences the studies search.
//! * [`runner`]: fixed-depth searches of single positions and of game sequences.
#![deny(missing_docs)]

pub mod context;
pub mod defaults;
pub mod plot;
pub mod positions;
pub mod report;
pub mod runner;
pub mod studies;
