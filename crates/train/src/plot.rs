//! SVG plots: the training and validation loss per epoch, and curves against measurements
//! (the WDL model against the games). plotters' SVG backend: text is written as SVG
//! `<text>`, so no fonts are needed.

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

/// One series of [`curves_svg`]: points drawn as dots (measurements) or joined by a line
/// (a model), in one of a few colours by `colour` (0, 1, 2, ...).
pub struct Series {
    /// The legend's text.
    pub name: String,
    /// The points, `(x, y)`.
    pub points: Vec<(f64, f64)>,
    /// Dots (`false`) or a line (`true`).
    pub line: bool,
    /// The colour's index.
    pub colour: usize,
}

/// The SVG text of a plot of several series over the given ranges, with axis descriptions
/// (e.g. the WDL model against the games it was fitted on).
pub fn curves_svg(
    title: &str,
    (x_desc, x_range): (&str, std::ops::Range<f64>),
    (y_desc, y_range): (&str, std::ops::Range<f64>),
    series: &[Series],
) -> Result<String, String> {
    const COLOURS: [RGBColor; 5] = [BLUE, RED, RGBColor(0, 150, 0), MAGENTA, BLACK];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x_range, y_range)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(err)?;
        for s in series {
            let colour = COLOURS[s.colour % COLOURS.len()];
            if s.line {
                chart
                    .draw_series(LineSeries::new(
                        s.points.iter().copied(),
                        colour.stroke_width(2),
                    ))
                    .map_err(err)?
                    .label(s.name.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                    });
            } else {
                chart
                    .draw_series(
                        s.points
                            .iter()
                            .map(|&p| Circle::new(p, 2, colour.mix(0.6).filled())),
                    )
                    .map_err(err)?
                    .label(s.name.clone())
                    .legend(move |(x, y)| Circle::new((x + 10, y), 3, colour.filled()));
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .border_style(BLACK)
            .background_style(WHITE.mix(0.9))
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
