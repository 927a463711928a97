//! SVG plots for the report: line plots (optionally with logarithmic axes) and horizontal bar
//! charts, drawn with plotters' SVG backend (text is written as SVG `<text>`, so no fonts are
//! needed to render) and written atomically.
//!
//! ```no_run
//! use engram_lab::plot::{LinePlot, Series};
//!
//! let plot = LinePlot {
//!     title: "Nodes to depth 12".into(),
//!     x_label: "table size (MiB)".into(),
//!     y_label: "nodes".into(),
//!     log_x: true,
//!     log_y: false,
//!     series: vec![Series::new("depth-preferred", vec![(1.0, 5e6), (16.0, 3e6), (256.0, 2.5e6)])],
//! };
//! plot.render(std::path::Path::new("docs/img/tt-example.svg"))?;
//! # Ok::<(), anyhow::Error>(())
//! ```

use anyhow::Context as _;
use plotters::coord::ranged1d::{AsRangedCoord, IntoSegmentedCoord, SegmentValue, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::io::Write as _;
use std::path::Path;

/// Width of every plot in pixels.
pub const WIDTH: u32 = 800;
/// Height of every plot in pixels.
pub const HEIGHT: u32 = 500;

const FONT: &str = "sans-serif";

/// Series colours: distinct, readable on white, in order of use.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
];

/// One named line of a [`LinePlot`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// Legend text (an empty name gets no legend entry).
    pub name: String,
    /// The points `(x, y)`, drawn in the given order.
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A series named `name` with these points.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
        }
    }
}

/// A line plot: each series is a line with a marker on every point, in its own colour and
/// marker shape, with a legend.
///
/// Points that cannot be drawn (NaN or infinite coordinates, or values ≤ 0 on a logarithmic
/// axis) are left out and counted in a note on the plot. A plot with nothing to draw is an
/// empty frame saying "no data".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinePlot {
    /// Caption above the plot.
    pub title: String,
    /// X axis description.
    pub x_label: String,
    /// Y axis description.
    pub y_label: String,
    /// Logarithmic x axis (the range is widened to whole powers of ten).
    pub log_x: bool,
    /// Logarithmic y axis (the range is widened to whole powers of ten).
    pub log_y: bool,
    /// The lines.
    pub series: Vec<Series>,
}

/// A horizontal bar chart: one bar per label, top to bottom in the given order, each with
/// its value written beside it. Non-finite values get no bar and the text `n/a`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BarPlot {
    /// Caption above the plot.
    pub title: String,
    /// Description of the values (drawn under the value axis).
    pub y_label: String,
    /// `(label, value)` pairs.
    pub bars: Vec<(String, f64)>,
}

impl LinePlot {
    /// Renders the plot as an SVG file at `path` (written atomically).
    pub fn render(&self, path: &Path) -> anyhow::Result<()> {
        write_svg(path, &self.to_svg()?)
    }

    /// The plot as SVG text.
    pub fn to_svg(&self) -> anyhow::Result<String> {
        // The drawable points of each series, and how many were dropped.
        let ok = |v: f64, log: bool| v.is_finite() && (!log || v > 0.0);
        let mut dropped = 0;
        let series: Vec<Drawn> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .copied()
                    .filter(|&(x, y)| ok(x, self.log_x) && ok(y, self.log_y))
                    .collect();
                dropped += s.points.len() - pts.len();
                Drawn {
                    index: i,
                    name: &s.name,
                    points: pts,
                }
            })
            .collect();
        let xs = series.iter().flat_map(|d| d.points.iter().map(|p| p.0));
        let ys = series.iter().flat_map(|d| d.points.iter().map(|p| p.1));
        let (x0, x1) = axis_range(xs, self.log_x);
        let (y0, y1) = axis_range(ys, self.log_y);
        let npoints: usize = series.iter().map(|d| d.points.len()).sum();
        let mut notes = Vec::new();
        if npoints == 0 {
            notes.push("no data".to_string());
        }
        if dropped > 0 {
            notes.push(format!(
                "{dropped} point(s) not drawn (NaN, infinite, or not positive on a log axis)"
            ));
        }
        let legend = legend_corner(&series, (x0, x1, self.log_x), (y0, y1, self.log_y));
        let job = LineJob {
            plot: self,
            series: &series,
            notes: &notes,
            legend,
        };
        let log = |lo: f64, hi: f64| {
            let (bold, light) = log_ticks(lo, hi);
            (lo..hi)
                .log_scale()
                .with_key_points(bold)
                .with_light_points(light)
        };
        svg_string(|area| match (self.log_x, self.log_y) {
            (false, false) => job.draw(area, x0..x1, y0..y1),
            (true, false) => job.draw(area, log(x0, x1), y0..y1),
            (false, true) => job.draw(area, x0..x1, log(y0, y1)),
            (true, true) => job.draw(area, log(x0, x1), log(y0, y1)),
        })
    }
}

/// A series as drawn: its place in the plot (for colour and marker), name and the points
/// that can be drawn.
struct Drawn<'s> {
    index: usize,
    name: &'s str,
    points: Vec<(f64, f64)>,
}

/// Everything a line plot needs once the axis types are chosen.
struct LineJob<'p> {
    plot: &'p LinePlot,
    series: &'p [Drawn<'p>],
    notes: &'p [String],
    legend: SeriesLabelPosition,
}

impl LineJob<'_> {
    fn draw<X, Y>(&self, area: &DrawingArea<SVGBackend, Shift>, x: X, y: Y) -> anyhow::Result<()>
    where
        X: AsRangedCoord<Value = f64>,
        Y: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(area)
            .caption(&self.plot.title, (FONT, 24))
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .x_desc(&self.plot.x_label)
            .y_desc(&self.plot.y_label)
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .max_light_lines(4)
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(205, 205, 205))
            .draw()?;

        let mut labelled = false;
        for Drawn {
            index: i,
            name,
            points: pts,
        } in self.series
        {
            if pts.is_empty() {
                continue;
            }
            let color = PALETTE[i % PALETTE.len()];
            let line = color.stroke_width(2);
            chart.draw_series(LineSeries::new(pts.iter().copied(), line))?;
            let shape = i % 4;
            let anno = match shape {
                0 => chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))?,
                1 => chart.draw_series(
                    pts.iter()
                        .map(|&p| TriangleMarker::new(p, 6, color.filled())),
                )?,
                2 => chart.draw_series(pts.iter().map(|&p| Cross::new(p, 5, line)))?,
                _ => chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, line)))?,
            };
            if name.is_empty() {
                continue;
            }
            labelled = true;
            let anno = anno.label(*name);
            let stroke = move |(x, y): (i32, i32)| {
                EmptyElement::at((x, y)) + PathElement::new(vec![(-10, 0), (10, 0)], line)
            };
            match shape {
                0 => anno.legend(move |p| stroke(p) + Circle::new((0, 0), 4, color.filled())),
                1 => {
                    anno.legend(move |p| stroke(p) + TriangleMarker::new((0, 0), 6, color.filled()))
                }
                2 => anno.legend(move |p| stroke(p) + Cross::new((0, 0), 5, line)),
                _ => anno.legend(move |p| stroke(p) + Circle::new((0, 0), 4, line)),
            };
        }
        if labelled {
            chart
                .configure_series_labels()
                .position(self.legend.clone())
                .margin(12)
                .legend_area_size(30)
                .label_font((FONT, 16))
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(160, 160, 160))
                .draw()?;
        }
        draw_notes(area, self.notes)?;
        Ok(())
    }
}

impl BarPlot {
    /// Renders the chart as an SVG file at `path` (written atomically).
    pub fn render(&self, path: &Path) -> anyhow::Result<()> {
        write_svg(path, &self.to_svg()?)
    }

    /// The chart as SVG text.
    pub fn to_svg(&self) -> anyhow::Result<String> {
        let n = self.bars.len();
        let values = self.bars.iter().map(|b| b.1).filter(|v| v.is_finite());
        let (lo, hi) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if lo == hi { (0.0, 1.0) } else { (lo, hi) };
        // Room for the value text beside the bars.
        let span = hi - lo;
        let x0 = if lo < 0.0 { lo - 0.18 * span } else { 0.0 };
        let x1 = if hi > 0.0 { hi + 0.18 * span } else { 0.0 };
        let longest = self
            .bars
            .iter()
            .map(|b| b.0.chars().count())
            .max()
            .unwrap_or(0);
        let label_area = (longest as u32 * 8 + 24).clamp(60, 320);
        let mut notes = Vec::new();
        if n == 0 {
            notes.push("no data".to_string());
        }

        svg_string(|area| {
            let mut chart = ChartBuilder::on(area)
                .caption(&self.title, (FONT, 24))
                .margin(16)
                .x_label_area_size(50)
                .y_label_area_size(label_area)
                // A discrete usize range holds both ends: 0..=n-1 gives n segments.
                .build_cartesian_2d(x0..x1, (0..n.max(1) - 1).into_segmented())?;
            let name_of = |v: &SegmentValue<usize>| match v {
                SegmentValue::CenterOf(k) if *k < n => self.bars[n - 1 - k].0.clone(),
                _ => String::new(),
            };
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(n.max(1))
                .x_desc(&self.y_label)
                .x_label_formatter(&|v| tick_label(*v))
                .y_label_formatter(&name_of)
                .label_style((FONT, 15))
                .axis_desc_style((FONT, 17))
                .max_light_lines(4)
                .light_line_style(RGBColor(235, 235, 235))
                .bold_line_style(RGBColor(205, 205, 205))
                .draw()?;
            let color = PALETTE[0];
            let text = |anchor| {
                TextStyle::from((FONT, 15).into_font())
                    .color(&BLACK)
                    .pos(Pos::new(anchor, VPos::Center))
            };
            for (i, (_, v)) in self.bars.iter().enumerate() {
                let k = n - 1 - i;
                if !v.is_finite() {
                    chart.draw_series([Text::new(
                        "n/a",
                        (0.0, SegmentValue::CenterOf(k)),
                        text(HPos::Left),
                    )])?;
                    continue;
                }
                let mut bar = Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(k)),
                        (*v, SegmentValue::Exact(k + 1)),
                    ],
                    color.mix(0.85).filled(),
                );
                bar.set_margin(5, 5, 0, 0);
                chart.draw_series([bar])?;
                let (anchor, dx) = if *v < 0.0 {
                    (HPos::Right, -5)
                } else {
                    (HPos::Left, 5)
                };
                chart.draw_series([EmptyElement::at((*v, SegmentValue::CenterOf(k)))
                    + Text::new(tick_label(*v), (dx, 0), text(anchor))])?;
            }
            draw_notes(area, &notes)?;
            Ok(())
        })
    }
}

/// Draws into a fresh white SVG canvas and returns the SVG text.
fn svg_string(
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()>,
) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        area.fill(&WHITE)?;
        draw(&area)?;
        area.present()?;
    }
    Ok(svg)
}

fn write_svg(path: &Path, svg: &str) -> anyhow::Result<()> {
    engram_tt::write_atomic(path, |f| f.write_all(svg.as_bytes()))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Grey notes in the lower left corner of the canvas, one per line.
fn draw_notes(area: &DrawingArea<SVGBackend, Shift>, notes: &[String]) -> anyhow::Result<()> {
    let style = TextStyle::from((FONT, 15).into_font()).color(&RGBColor(120, 120, 120));
    for (i, note) in notes.iter().enumerate() {
        let y = HEIGHT as i32 - 8 - 16 * (notes.len() - 1 - i) as i32;
        area.draw(&Text::new(note.as_str(), (8, y - 12), style.clone()))?;
    }
    Ok(())
}

/// The axis range for these values: padded by 5% on a linear axis, widened to whole powers
/// of ten on a logarithmic one; a sensible default when there are no values or only one.
fn axis_range(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if log {
        if lo > hi {
            return (1.0, 10.0);
        }
        let (a, b) = (lo.log10().floor(), hi.log10().ceil());
        let (a, b) = if a == b { (a - 1.0, b + 1.0) } else { (a, b) };
        // A hair wider, so that rounding cannot drop the end decades' ticks.
        (10f64.powf(a) * (1.0 - 1e-9), 10f64.powf(b) * (1.0 + 1e-9))
    } else {
        if lo > hi {
            return (0.0, 1.0);
        }
        if lo == hi {
            let d = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
            return (lo - d, hi + d);
        }
        let pad = (hi - lo) * 0.05;
        (lo - pad, hi + pad)
    }
}

/// Labelled ("bold") and unlabelled ("light") grid values of a logarithmic axis over
/// `lo..hi` (whole powers of ten, see [`axis_range`]): at most about ten labelled powers of
/// ten, plus 2 and 5 times each power when the axis spans at most two decades; light lines
/// at 2…9 times each power when it spans at most six.
fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let a = lo.log10().round() as i32;
    let b = hi.log10().round() as i32;
    let decades = (b - a).max(1);
    let step = (decades + 9) / 10;
    let inside = |v: f64| v >= lo && v <= hi;
    let mut bold = Vec::new();
    let mut light = Vec::new();
    for k in a..=b {
        let p = 10f64.powi(k);
        if (k - a) % step == 0 {
            bold.push(p);
        } else {
            light.push(p);
        }
        for m in 2..=9 {
            let v = f64::from(m) * p;
            if !inside(v) {
                continue;
            }
            if decades <= 2 && (m == 2 || m == 5) {
                bold.push(v);
            } else if decades <= 6 {
                light.push(v);
            }
        }
    }
    (bold, light)
}

/// The legend corner with the fewest data points near it.
fn legend_corner(
    series: &[Drawn],
    (x0, x1, log_x): (f64, f64, bool),
    (y0, y1, log_y): (f64, f64, bool),
) -> SeriesLabelPosition {
    let unit = |v: f64, a: f64, b: f64, log: bool| {
        if log {
            (v.log10() - a.log10()) / (b.log10() - a.log10())
        } else {
            (v - a) / (b - a)
        }
    };
    let corners = [
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::UpperLeft, false, true),
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::LowerLeft, false, false),
    ];
    let count = |right: bool, upper: bool| {
        series
            .iter()
            .flat_map(|d| d.points.iter())
            .filter(|&&(x, y)| {
                let (u, w) = (unit(x, x0, x1, log_x), unit(y, y0, y1, log_y));
                (if right { u > 0.55 } else { u < 0.45 })
                    && (if upper { w > 0.55 } else { w < 0.45 })
            })
            .count()
    };
    corners
        .into_iter()
        .min_by_key(|&(_, right, upper)| count(right, upper))
        .map_or(SeriesLabelPosition::UpperRight, |c| c.0)
}

/// A short axis label for `v`: up to 4 significant decimals, scientific for very large or
/// very small magnitudes.
pub fn tick_label(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        let text = format!("{v:e}");
        // 1.5e6 stays, 1e-4 stays; trim long mantissas.
        return match text.split_once('e') {
            Some((m, e)) if m.len() > 6 => format!(
                "{}e{e}",
                trim_zeros(&format!("{:.3}", m.parse::<f64>().unwrap_or(0.0)))
            ),
            _ => text,
        };
    }
    let decimals = if a >= 100.0 { 1 } else { 4 };
    trim_zeros(&format!("{v:.decimals$}"))
}

fn trim_zeros(text: &str) -> String {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crude well-formedness check: after an optional prolog the text is one `<svg>`
    /// element whose tags nest properly.
    pub(crate) fn assert_svg(svg: &str) {
        let mut body = svg.trim();
        if body.starts_with("<?xml") {
            body = body[body.find("?>").unwrap() + 2..].trim_start();
        }
        assert!(body.starts_with("<svg"), "{}", &body[..body.len().min(80)]);
        assert!(body.ends_with("</svg>"));
        let mut stack: Vec<String> = Vec::new();
        let mut rest = body;
        while let Some(start) = rest.find('<') {
            let end = start + rest[start..].find('>').expect("unclosed tag");
            let tag = &rest[start + 1..end];
            rest = &rest[end + 1..];
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop().as_deref(), Some(name.trim()));
            } else if !tag.ends_with('/') {
                stack.push(tag.split_whitespace().next().unwrap().to_string());
            }
        }
        assert!(stack.is_empty(), "unclosed: {stack:?}");
    }

    fn line(log_x: bool, log_y: bool, series: Vec<Series>) -> LinePlot {
        LinePlot {
            title: "t <&> \"q\"".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            log_x,
            log_y,
            series,
        }
    }

    #[test]
    fn line_plots_with_every_axis_kind() {
        let a = Series::new(
            "a",
            (0..7)
                .map(|i| (10f64.powi(i - 3), 10f64.powi(3 - i)))
                .collect(),
        );
        let b = Series::new("b", (0..7).map(|i| (10f64.powi(i - 3), 2.0)).collect());
        for (lx, ly) in [(false, false), (true, false), (false, true), (true, true)] {
            let svg = line(lx, ly, vec![a.clone(), b.clone()]).to_svg().unwrap();
            assert_svg(&svg);
            assert!(svg.contains("&lt;&amp;&gt;"), "title is escaped");
            assert!(svg.contains("\na\n") && svg.contains("\nb\n"), "legend");
            assert!(svg.contains("<text"), "text is drawn as SVG text");
        }
        let svg = line(true, true, vec![a]).to_svg().unwrap();
        for tick in ["0.001", "1000"] {
            assert!(svg.contains(&format!("\n{tick}\n")), "log tick {tick}");
        }
    }

    #[test]
    fn degenerate_line_plots_do_not_panic() {
        let cases = vec![
            vec![],
            vec![Series::new("empty", vec![])],
            vec![Series::new("one", vec![(1.0, 1.0)])],
            vec![Series::new("flat", vec![(0.0, 0.0), (0.0, 0.0)])],
            vec![Series::new(
                "bad",
                vec![(f64::NAN, 1.0), (1.0, f64::INFINITY)],
            )],
            vec![Series::new(
                "neg",
                vec![(-1.0, -5.0), (0.0, 2.0), (3.0, 4.0)],
            )],
            vec![Series::new("", vec![(1.0, 2.0), (2.0, 3.0)])],
        ];
        for series in cases {
            for (lx, ly) in [(false, false), (true, true)] {
                let svg = line(lx, ly, series.clone()).to_svg().unwrap();
                assert_svg(&svg);
            }
        }
        let svg = line(false, false, vec![]).to_svg().unwrap();
        assert!(svg.contains("no data"));
        let svg = line(
            true,
            true,
            vec![Series::new("neg", vec![(-1.0, 1.0), (1.0, 1.0)])],
        );
        assert!(svg.to_svg().unwrap().contains("1 point(s) not drawn"));
    }

    #[test]
    fn many_series_get_distinct_colours() {
        let series: Vec<Series> = (0..PALETTE.len())
            .map(|k| {
                Series::new(
                    format!("s{k}"),
                    vec![(0.0, k as f64), (1.0, k as f64 + 1.0)],
                )
            })
            .collect();
        let svg = line(false, false, series).to_svg().unwrap();
        for c in PALETTE {
            assert!(
                svg.contains(&format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)),
                "{c:?}"
            );
        }
    }

    #[test]
    fn bar_charts() {
        let plot = BarPlot {
            title: "bars".into(),
            y_label: "value".into(),
            bars: vec![
                ("first".into(), 3.0),
                ("second, longer".into(), 1.5),
                ("none".into(), f64::NAN),
                ("negative".into(), -2.0),
            ],
        };
        let svg = plot.to_svg().unwrap();
        assert_svg(&svg);
        for label in [
            "first",
            "second, longer",
            "negative",
            "n/a",
            "bars",
            "value",
        ] {
            assert!(svg.contains(label), "{label}");
        }
        for bars in [vec![], vec![("zero".to_string(), 0.0)]] {
            let svg = BarPlot {
                bars,
                ..plot.clone()
            }
            .to_svg()
            .unwrap();
            assert_svg(&svg);
        }
    }

    #[test]
    fn render_writes_the_file() {
        let dir = std::env::temp_dir().join(format!("engram-lab-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.svg");
        line(
            false,
            false,
            vec![Series::new("a", vec![(0.0, 1.0), (1.0, 2.0)])],
        )
        .render(&path)
        .unwrap();
        assert_svg(&std::fs::read_to_string(&path).unwrap());
        assert!(BarPlot::default().render(&dir.join("none/p.svg")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn ticks() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(0.1 + 0.2), "0.3");
        assert_eq!(tick_label(1000.0), "1000");
        assert_eq!(tick_label(0.001), "0.001");
        assert_eq!(tick_label(1e6), "1e6");
        assert_eq!(tick_label(2.5e-5), "2.5e-5");
        assert_eq!(tick_label(-12.5), "-12.5");
        assert_eq!(tick_label(123.456), "123.5");
    }

    #[test]
    fn log_axis_ticks() {
        let (bold, light) = log_ticks(0.999_999_999e-3, 1.000_000_001e3);
        assert_eq!(bold.len(), 7);
        assert_eq!(light.len(), 6 * 8);
        let (bold, light) = log_ticks(1.0, 10.0);
        let labels: Vec<String> = bold.iter().map(|&v| tick_label(v)).collect();
        assert_eq!(labels, ["1", "2", "5", "10"]);
        assert_eq!(light.len(), 6);
        let (bold, light) = log_ticks(1e-10, 1e30);
        assert!((9..=11).contains(&bold.len()), "{}", bold.len());
        assert_eq!(bold.len() + light.len(), 41);
    }

    #[test]
    fn ranges() {
        assert_eq!(axis_range([].into_iter(), false), (0.0, 1.0));
        assert_eq!(axis_range([].into_iter(), true), (1.0, 10.0));
        let close = |(a, b): (f64, f64), (c, d): (f64, f64)| {
            assert!(
                (a - c).abs() < 1e-6 * c.abs() && (b - d).abs() < 1e-6 * d.abs(),
                "{a} {b}"
            );
        };
        close(axis_range([5.0].into_iter(), true), (1.0, 10.0));
        close(axis_range([10.0].into_iter(), true), (1.0, 100.0));
        close(axis_range([1e-3, 1e3].into_iter(), true), (1e-3, 1e3));
        close(axis_range([2.0, 2.0].into_iter(), false), (1.8, 2.2));
        assert_eq!(axis_range([0.0, 10.0].into_iter(), false), (-0.5, 10.5));
    }
}
