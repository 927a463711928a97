//! The TT lab: transposition-table experiments on Engram's own search, written up as a
//! Markdown report with SVG plots.
#![deny(missing_docs)]

pub mod plot;
pub mod positions;
pub mod report;
