//! Study `bits`: how many signature bits an entry needs.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "How do false-hit rates and search results change as the stored signature is cut from \
     16 bits down to a few bits, and how many bits are enough?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Bits,
        &Demo::Lines {
            x_label: "signature bits (dummy)",
            y_label: "false hits per probe (dummy)",
            log_x: false,
            log_y: true,
            series: &["dummy A"],
        },
    )
}
