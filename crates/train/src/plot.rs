//! The SVG plot of the training and validation loss per epoch (plotters' SVG backend: text is
//! written as SVG `<text>`, so no fonts are needed).

use crate::report::EpochReport;
use plotters::prelude::*;

/// Width and height of the plot in pixels.
pub const SIZE: (u32, u32) = (800, 500);

fn err(e: impl std::fmt::Display) -> String {
    format!("cannot draw the loss plot: {e}")
}

/// The SVG text of a plot of train and validation loss against the epoch.
pub fn loss_svg(title: &str, epochs: &[EpochReport]) -> Result<String, String> {
    let train: Vec<(f64, f64)> = epochs
        .iter()
        .map(|e| (e.epoch as f64, e.train_loss))
        .filter(|p| p.1.is_finite())
        .collect();
    let val: Vec<(f64, f64)> = epochs
        .iter()
        .filter_map(|e| Some((e.epoch as f64, e.val_loss?)))
        .filter(|p| p.1.is_finite())
        .collect();
    let ys = train.iter().chain(&val).map(|p| p.1);
    let lo = ys.clone().fold(f64::INFINITY, f64::min);
    let hi = ys.fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() {
        let pad = ((hi - lo) * 0.05).max(hi.abs() * 1e-3).max(1e-9);
        (lo - pad, hi + pad)
    } else {
        (0.0, 1.0)
    };
    let last = epochs.len().max(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0.5..last + 0.5, lo..hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("loss")
            .y_label_formatter(&|v| format!("{v:.5}"))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(err)?;
        for (name, points, color) in [("train", train, BLUE), ("validation", val, RED)] {
            chart
                .draw_series(LineSeries::new(
                    points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(err)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .border_style(BLACK)
            .background_style(WHITE.mix(0.9))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
