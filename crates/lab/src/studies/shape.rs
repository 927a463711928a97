//! Study `shape`: cluster shape and memory layout.
//!
//! Placeholder: states the question and shows dummy numbers until the real study is
//! written.

use super::{placeholder, Demo, StudyId};
use crate::context::Ctx;
use crate::report::Section;

/// The question this study answers.
pub const QUESTION: &str =
    "How do the entries per cluster, the cluster's size and alignment, and prefetching \
     affect the cost of a probe and the efficiency of the search?";

/// Runs the study (for now: the placeholder section).
pub fn run(ctx: &Ctx) -> anyhow::Result<Section> {
    placeholder(
        ctx,
        StudyId::Shape,
        &Demo::Bars {
            y_label: "probe cost (dummy)",
            labels: &[
                "variant A",
                "variant B",
                "variant C",
                "variant D",
                "variant E",
            ],
        },
    )
}
