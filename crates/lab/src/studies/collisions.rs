//! Study `collisions`: false hits from signature collisions.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "How often do probes during real searches return an entry of a different position (a \
     false hit), and do such hits ever change the move or score a search returns?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Collisions,
        &Demo::Lines {
            x_label: "probes (dummy)",
            y_label: "false hits (dummy)",
            log_x: true,
            log_y: true,
            series: &["dummy A", "dummy B", "dummy C"],
        },
    )
}
