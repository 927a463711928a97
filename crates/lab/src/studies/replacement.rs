//! Study `replacement`: which slot of a full cluster a store overwrites.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "Which of engram-tt's replacement policies gives the smallest search trees and the best \
     time to depth, and how does the ranking change as the table fills up?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Replacement,
        &Demo::Bars {
            y_label: "nodes to depth (dummy)",
            labels: &["variant A", "variant B", "variant C", "variant D"],
        },
    )
}
