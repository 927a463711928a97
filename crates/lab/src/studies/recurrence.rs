//! Study `recurrence`: positions coming back in later searches of a game.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "How many positions searched for one move of a game are met again in the searches of \
     the following moves, and how much of the table's content is still useful by then?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Recurrence,
        &Demo::Lines {
            x_label: "moves later (dummy)",
            y_label: "share met again (dummy)",
            log_x: false,
            log_y: false,
            series: &["dummy A", "dummy B"],
        },
    )
}
