//! Study `size`: table size.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "How do node counts and time to depth change with the table size, from far too small \
     for the search to far larger than it needs?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Size,
        &Demo::Lines {
            x_label: "table size (dummy)",
            y_label: "nodes (dummy)",
            log_x: true,
            log_y: false,
            series: &["dummy A", "dummy B", "dummy C", "dummy D"],
        },
    )
}
