//! Study `aging`: how entries of earlier searches in a game age.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "When the table is kept from move to move, how much do the generation counter and age- \
     aware replacement help, and how much weight should one search of age carry against \
     depth?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Aging,
        &Demo::Lines {
            x_label: "move of the game (dummy)",
            y_label: "nodes (dummy)",
            log_x: false,
            log_y: false,
            series: &["dummy A", "dummy B"],
        },
    )
}
