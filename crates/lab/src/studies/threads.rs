//! Study `threads`: sharing one table between threads.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "With several search threads (split points, Lazy SMP), how does one shared table \
     compare with a private table per thread in time to depth and nodes?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Threads,
        &Demo::Bars {
            y_label: "time to depth (dummy)",
            labels: &["variant A", "variant B", "variant C"],
        },
    )
}
