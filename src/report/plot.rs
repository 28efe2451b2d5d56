//! SVG figures for the Markdown reports, drawn with plotters from the same numbers that go to
//! the figure's CSV (which pgfplots reads for LaTeX). Pure: numbers in, SVG text out. plotters'
//! SVG backend writes no timestamps or ids, and every label is placed by the estimate in
//! [`label::width`], so the bytes depend only on the input.
//!
//! plotters draws the axes, grid and data; three things it does not do for us.
//!
//! - It rounds every coordinate to a whole pixel, which turns a straight line of slope 11/16
//!   into a staircase: so the figure is drawn [`OVERSAMPLE`] times larger and the `<svg>`
//!   element shown at [`SIZE`] (its `viewBox` keeps the drawing size), leaving a rounding error
//!   of a fraction of a display pixel.
//! - Its text is one plain string, and labels hold TeX (`$f_N(5,4,2)$`): the axis titles, the
//!   legend and the vertical lines' labels are written here instead, with sub- and superscripts
//!   as scripts ([`label::svg_text`]).
//! - It puts the legend in a fixed corner, where it may hide data, and labels where they may
//!   run into each other: [`layout`] places each line's label beside its line (right, else
//!   left, else a row lower) so no two labels or a label and another line meet, then tries the
//!   legend at six places in the plot and keeps the one covering the least data. The LaTeX
//!   figure is given the same places ([`LegendPlace`], [`LabelPlace`]), so both renderings agree.

use plotters::prelude::*;

use super::context::{Bounds, SeriesStyle, VLine};
use super::label::{self, Anchor, TextStyle};
use crate::error::{Error, Result};

/// Width and height of every figure, in SVG pixels.
pub const SIZE: (u32, u32) = (720, 420);

/// How many drawing units make one display pixel (see the module documentation).
pub const OVERSAMPLE: u32 = 4;

/// A length in display pixels as drawing units.
fn px(n: u32) -> u32 {
    n * OVERSAMPLE
}

/// A length in display pixels as signed drawing units (offsets, radii).
fn ipx(n: i32) -> i32 {
    n * OVERSAMPLE as i32
}

/// A length in display pixels as drawing units, for layout arithmetic.
fn fpx(n: f64) -> f64 {
    n * f64::from(OVERSAMPLE)
}

/// The space around the chart, below it for the x axis and left of it for the y axis, in
/// display pixels: plotters lays the chart out from these, and [`Frame`] finds the plotting
/// area from the same numbers.
const MARGIN: u32 = 18;
const X_LABEL_AREA: u32 = 44;
const Y_LABEL_AREA: u32 = 60;

/// Font sizes in display pixels: axis titles, legend entries, vertical lines' labels.
const TITLE_FONT: f64 = 13.0;
const LEGEND_FONT: f64 = 12.0;
const LINE_LABEL_FONT: f64 = 11.0;

/// A curve to draw.
#[derive(Clone, Debug)]
pub struct Curve {
    /// Legend entry.
    pub label: String,
    /// pgfplots color name (see [`rgb`]).
    pub color: String,
    /// Points in the order drawn.
    pub points: Vec<(f64, f64)>,
    /// Line, line with markers, markers only, or a dashed reference line.
    pub style: SeriesStyle,
}

/// Everything a figure shows.
#[derive(Clone, Debug)]
pub struct Plot {
    /// x axis label.
    pub x_label: String,
    /// y axis label.
    pub y_label: String,
    /// Axis bounds.
    pub bounds: Bounds,
    /// Curves, drawn in this order (later ones on top).
    pub curves: Vec<Curve>,
    /// Marked points and their legend entry.
    pub marks: Option<(String, Vec<(f64, f64)>)>,
    /// Vertical dashed lines, sorted by x.
    pub vlines: Vec<VLine>,
}

/// The RGB value of a pgfplots color name, so both renderings use the same colors.
pub fn rgb(name: &str) -> RGBColor {
    match name {
        "red" => RGBColor(255, 0, 0),
        "teal" => RGBColor(0, 128, 128),
        "orange" => RGBColor(255, 128, 0),
        "violet" => RGBColor(128, 0, 128),
        "gray" => RGBColor(128, 128, 128),
        "black" => RGBColor(0, 0, 0),
        _ => RGBColor(0, 0, 255),
    }
}

/// A colour as SVG writes it.
fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn axis_number(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", *v as i64)
    } else {
        format!("{v}")
    }
}

/// A rectangle in drawing units (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Rect {
    fn grown(self, by: f64) -> Rect {
        Rect {
            x0: self.x0 - by,
            y0: self.y0 - by,
            x1: self.x1 + by,
            y1: self.y1 + by,
        }
    }

    /// Whether the two rectangles share more than an edge.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        self.x0 <= x && x <= self.x1 && self.y0 <= y && y <= self.y1
    }
}

/// The plotting area of a chart `width` display pixels wide, and the map from data to it.
#[derive(Clone, Copy, Debug)]
struct Frame {
    area: Rect,
    bounds: Bounds,
}

impl Frame {
    fn new(bounds: Bounds, width: u32) -> Frame {
        Frame {
            area: Rect {
                x0: fpx(f64::from(MARGIN + Y_LABEL_AREA)),
                y0: fpx(f64::from(MARGIN)),
                x1: fpx(f64::from(width - MARGIN)),
                y1: fpx(f64::from(SIZE.1 - MARGIN - X_LABEL_AREA)),
            },
            bounds,
        }
    }

    /// A data point in drawing units.
    fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let b = self.bounds;
        let (x0, x1) = (b.x_min as f64, b.x_max as f64);
        let (y0, y1) = (b.y_min as f64, b.y_max as f64);
        let a = self.area;
        (
            a.x0 + (x - x0) / (x1 - x0) * (a.x1 - a.x0),
            a.y1 - (y - y0) / (y1 - y0) * (a.y1 - a.y0),
        )
    }

    /// A point given as fractions of the plotting area (pgfplots' `axis description cs`).
    fn fraction(&self, (fx, fy): (f64, f64)) -> (f64, f64) {
        let a = self.area;
        (a.x0 + fx * (a.x1 - a.x0), a.y1 - fy * (a.y1 - a.y0))
    }
}

/// Which side of its line a vertical line's label is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Right of the line (its text starts there).
    Right,
    /// Left of the line (its text ends there).
    Left,
}

/// Where a vertical line's label goes: a side of the line and a row below the top (row 0 at
/// the top, each row one line of text lower).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelPlace {
    /// Side of the line.
    pub side: Side,
    /// Row.
    pub row: usize,
}

/// Where the legend goes: a point of the plotting area as fractions of its width and height
/// from the lower left (pgfplots' `at`) and the legend's point put there (`anchor`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegendPlace {
    /// The point, as fractions.
    pub at: (f64, f64),
    /// The legend's compass point at `at`, as pgfplots names it.
    pub anchor: &'static str,
}

/// The places tried for the legend, in order of preference (ties go to the earlier): the
/// upper corners and middle first (the bounds leave room above the data), then the lower ones.
pub const LEGEND_PLACES: [LegendPlace; 6] = [
    LegendPlace {
        at: (0.03, 0.97),
        anchor: "north west",
    },
    LegendPlace {
        at: (0.97, 0.97),
        anchor: "north east",
    },
    LegendPlace {
        at: (0.5, 0.97),
        anchor: "north",
    },
    LegendPlace {
        at: (0.03, 0.03),
        anchor: "south west",
    },
    LegendPlace {
        at: (0.97, 0.03),
        anchor: "south east",
    },
    LegendPlace {
        at: (0.5, 0.03),
        anchor: "south",
    },
];

/// Where a figure's labels and legend go.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// One place per vertical line, in the plot's order.
    pub labels: Vec<LabelPlace>,
    /// The legend's place.
    pub legend: LegendPlace,
}

/// A legend entry's sample.
#[derive(Clone, Copy, Debug)]
enum Sample {
    /// A line of the given width (display pixels).
    Line(RGBColor, u32),
    /// A thin dashed line.
    Dashed(RGBColor),
    /// A thin line through a marker.
    Markers(RGBColor),
    /// A marker.
    Dot(RGBColor),
    /// A large black marker (marked points).
    Mark,
}

/// The legend's entries in drawing order.
fn legend_entries(plot: &Plot) -> Vec<(String, Sample)> {
    let mut entries: Vec<(String, Sample)> = plot
        .curves
        .iter()
        .map(|c| {
            let color = rgb(&c.color);
            let sample = match c.style {
                SeriesStyle::Line => Sample::Line(color, 2),
                SeriesStyle::Dashed => Sample::Dashed(color),
                SeriesStyle::Markers => Sample::Markers(color),
                SeriesStyle::Dots => Sample::Dot(color),
            };
            (c.label.clone(), sample)
        })
        .collect();
    if let Some((label, _)) = &plot.marks {
        entries.push((label.clone(), Sample::Mark));
    }
    entries
}

/// Legend metrics in display pixels: inner padding, row height, sample length, sample-to-text
/// gap.
const LEGEND_PAD: f64 = 7.0;
const LEGEND_ROW: f64 = 19.0;
const LEGEND_SAMPLE: f64 = 24.0;
const LEGEND_GAP: f64 = 7.0;

/// The legend's box at `place`.
fn legend_box(frame: &Frame, entries: &[(String, Sample)], place: LegendPlace) -> Rect {
    let text = entries
        .iter()
        .map(|(l, _)| label::width(&label::runs(l), fpx(LEGEND_FONT)))
        .fold(0.0, f64::max);
    let w = fpx(2.0 * LEGEND_PAD + LEGEND_SAMPLE + LEGEND_GAP) + text;
    let h = fpx(2.0 * LEGEND_PAD - 4.0 + LEGEND_ROW * entries.len() as f64);
    let (x, y) = frame.fraction(place.at);
    let x0 = if place.anchor.ends_with("west") {
        x
    } else if place.anchor.ends_with("east") {
        x - w
    } else {
        x - w / 2.0
    };
    let y0 = if place.anchor.starts_with("north") {
        y
    } else {
        y - h
    };
    Rect {
        x0,
        y0,
        x1: x0 + w,
        y1: y0 + h,
    }
}

/// The box of a vertical line's label at `place`.
fn line_label_box(frame: &Frame, v: &VLine, place: LabelPlace) -> Rect {
    let w = label::width(&label::runs(&v.label), fpx(LINE_LABEL_FONT));
    let (x, _) = frame.at((v.x as f64, 0.0));
    let (x0, x1) = match place.side {
        Side::Right => (x + fpx(4.0), x + fpx(4.0) + w),
        Side::Left => (x - fpx(4.0) - w, x - fpx(4.0)),
    };
    let y0 = frame.area.y0 + fpx(4.0) + fpx(LINE_LABEL_FONT * 1.35) * place.row as f64;
    Rect {
        x0,
        y0,
        x1,
        y1: y0 + fpx(LINE_LABEL_FONT * 1.2),
    }
}

/// Points along the drawn data, in drawing units, no two neighbours on a line more than two
/// display pixels apart: what a legend must not cover.
fn data_samples(frame: &Frame, plot: &Plot) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for c in &plot.curves {
        let pts: Vec<(f64, f64)> = c.points.iter().map(|&p| frame.at(p)).collect();
        out.extend(&pts);
        if c.style == SeriesStyle::Dots {
            continue;
        }
        for w in pts.windows(2) {
            let ((ax, ay), (bx, by)) = (w[0], w[1]);
            let steps = ((bx - ax).hypot(by - ay) / fpx(2.0)).ceil().max(1.0) as usize;
            out.extend((1..steps).map(|s| {
                let t = s as f64 / steps as f64;
                (ax + t * (bx - ax), ay + t * (by - ay))
            }));
        }
    }
    if let Some((_, points)) = &plot.marks {
        out.extend(points.iter().map(|&p| frame.at(p)));
    }
    out
}

/// Where the labels and the legend go (see the module documentation).
pub fn layout(plot: &Plot) -> Layout {
    let frame = Frame::new(plot.bounds, SIZE.0);
    let line_xs: Vec<f64> = plot
        .vlines
        .iter()
        .map(|v| frame.at((v.x as f64, 0.0)).0)
        .collect();
    let mut labels = Vec::new();
    let mut boxes: Vec<Rect> = Vec::new();
    for (i, v) in plot.vlines.iter().enumerate() {
        // Clear of the other labels always, of the other lines when it can be: lines closer
        // than a label is wide leave no such place, and a line behind a label still reads.
        let fits = |place: LabelPlace, clear_of_lines: bool| {
            let r = line_label_box(&frame, v, place);
            let inside = r.x0 >= frame.area.x0 && r.x1 <= frame.area.x1;
            let clear_of_labels = boxes.iter().all(|b| !b.grown(fpx(2.0)).overlaps(&r));
            let lines_clear = line_xs
                .iter()
                .enumerate()
                .all(|(j, &x)| j == i || x < r.x0 - fpx(2.0) || x > r.x1 + fpx(2.0));
            inside && clear_of_labels && (lines_clear || !clear_of_lines)
        };
        let candidates = (0..=plot.vlines.len())
            .flat_map(|row| [Side::Right, Side::Left].map(|side| LabelPlace { side, row }));
        let place = candidates
            .clone()
            .find(|&p| fits(p, true))
            .or_else(|| candidates.clone().find(|&p| fits(p, false)))
            .unwrap_or_else(|| {
                // Nowhere in the plot: the side with room, a row of its own.
                let side = if line_xs[i] > (frame.area.x0 + frame.area.x1) / 2.0 {
                    Side::Left
                } else {
                    Side::Right
                };
                LabelPlace { side, row: i }
            });
        boxes.push(line_label_box(&frame, v, place));
        labels.push(place);
    }
    let entries = legend_entries(plot);
    let samples = data_samples(&frame, plot);
    // What a legend at each place would hide: data points, and far worse a line's label.
    let cost = |place: LegendPlace| -> usize {
        let r = legend_box(&frame, &entries, place);
        let padded = r.grown(fpx(5.0));
        let inside = r.x0 >= frame.area.x0 - 1.0
            && r.x1 <= frame.area.x1 + 1.0
            && r.y0 >= frame.area.y0 - 1.0
            && r.y1 <= frame.area.y1 + 1.0;
        let data = samples.iter().filter(|&&p| padded.contains(p)).count();
        let labels = boxes.iter().filter(|b| b.overlaps(&padded)).count();
        let lines = line_xs
            .iter()
            .filter(|&&x| padded.x0 <= x && x <= padded.x1)
            .count();
        data + 1000 * labels + 20 * lines + if inside { 0 } else { 100_000 }
    };
    let legend = LEGEND_PLACES
        .iter()
        .copied()
        .min_by_key(|&p| cost(p))
        .expect("six places");
    Layout { labels, legend }
}

/// Draws a plot as SVG text.
pub fn svg(plot: &Plot) -> Result<String> {
    let mut out = String::new();
    draw(plot, &mut out).map_err(|e| Error::invalid(format!("drawing the figure: {e}")))?;
    let frame = Frame::new(plot.bounds, SIZE.0);
    let layout = layout(plot);
    let mut overlay = axis_titles(&frame, &plot.x_label, &plot.y_label);
    overlay.push_str(&line_labels(&frame, plot, &layout));
    overlay.push_str(&legend_svg(&frame, &legend_entries(plot), layout.legend));
    Ok(finish(out, &overlay))
}

/// The SVG shown at [`SIZE`] (the drawing keeps its own units through the viewBox), with the
/// text drawn here added on top of plotters' drawing.
fn finish(drawn: String, overlay: &str) -> String {
    let big = format!("<svg width=\"{}\" height=\"{}\"", px(SIZE.0), px(SIZE.1));
    let shown = format!("<svg width=\"{}\" height=\"{}\"", SIZE.0, SIZE.1);
    let mut out = drawn.replacen(&big, &shown, 1);
    let end = out.rfind("</svg>").unwrap_or(out.len());
    out.insert_str(end, overlay);
    out
}

/// The axis titles: x centred below the plotting area, y centred left of it reading upwards.
fn axis_titles(frame: &Frame, x_label: &str, y_label: &str) -> String {
    let a = frame.area;
    let style = TextStyle {
        size: fpx(TITLE_FONT),
        fill: "#000000",
        anchor: Anchor::Middle,
        vertical: false,
    };
    let mut out = label::svg_text(
        x_label,
        ((a.x0 + a.x1) / 2.0, fpx(f64::from(SIZE.1) - 16.0)),
        style,
    );
    out.push_str(&label::svg_text(
        y_label,
        (fpx(f64::from(MARGIN) + 12.0), (a.y0 + a.y1) / 2.0),
        TextStyle {
            vertical: true,
            ..style
        },
    ));
    out
}

/// The vertical lines' labels at their places.
fn line_labels(frame: &Frame, plot: &Plot, layout: &Layout) -> String {
    let mut out = String::new();
    for (v, &place) in plot.vlines.iter().zip(&layout.labels) {
        let r = line_label_box(frame, v, place);
        let (x, anchor) = match place.side {
            Side::Right => (r.x0, Anchor::Start),
            Side::Left => (r.x1, Anchor::End),
        };
        out.push_str(&label::svg_text(
            &v.label,
            (x, r.y0 + fpx(LINE_LABEL_FONT * 0.85)),
            TextStyle {
                size: fpx(LINE_LABEL_FONT),
                fill: &hex(rgb("gray")),
                anchor,
                vertical: false,
            },
        ));
    }
    out
}

/// The legend: a light box with one row per entry, its sample and its label.
fn legend_svg(frame: &Frame, entries: &[(String, Sample)], place: LegendPlace) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let r = legend_box(frame, entries, place);
    let mut out = format!(
        "<rect x=\"{:.0}\" y=\"{:.0}\" width=\"{:.0}\" height=\"{:.0}\" fill=\"#FFFFFF\" fill-opacity=\"0.85\" stroke=\"#A0A0A0\" stroke-width=\"{}\"/>\n",
        r.x0,
        r.y0,
        r.x1 - r.x0,
        r.y1 - r.y0,
        px(1)
    );
    for (i, (text, sample)) in entries.iter().enumerate() {
        let y = r.y0 + fpx(LEGEND_PAD + 7.0 + LEGEND_ROW * i as f64);
        let (x0, x1) = (
            r.x0 + fpx(LEGEND_PAD),
            r.x0 + fpx(LEGEND_PAD + LEGEND_SAMPLE),
        );
        let line = |color: RGBColor, width: u32, dashed: bool| {
            format!(
                "<line x1=\"{x0:.0}\" y1=\"{y:.0}\" x2=\"{x1:.0}\" y2=\"{y:.0}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
                hex(color),
                width,
                if dashed {
                    format!(" stroke-dasharray=\"{} {}\"", px(4), px(3))
                } else {
                    String::new()
                }
            )
        };
        let dot = |color: RGBColor, radius: f64| {
            format!(
                "<circle cx=\"{:.0}\" cy=\"{y:.0}\" r=\"{radius:.0}\" fill=\"{}\"/>\n",
                (x0 + x1) / 2.0,
                hex(color)
            )
        };
        out.push_str(&match *sample {
            Sample::Line(color, width) => line(color, px(width), false),
            Sample::Dashed(color) => line(color, DASHED_WIDTH, true),
            Sample::Markers(color) => line(color, px(1), false) + &dot(color, fpx(MARKER_RADIUS)),
            Sample::Dot(color) => dot(color, fpx(MARKER_RADIUS)),
            Sample::Mark => dot(BLACK, fpx(4.0)),
        });
        out.push_str(&label::svg_text(
            text,
            (x1 + fpx(LEGEND_GAP), y + fpx(LEGEND_FONT * 0.35)),
            TextStyle {
                size: fpx(LEGEND_FONT),
                fill: "#000000",
                anchor: Anchor::Start,
                vertical: false,
            },
        ));
    }
    out
}

/// A marker's radius in display pixels.
const MARKER_RADIUS: f64 = 2.5;

/// A dashed reference line's width in drawing units (one and a half display pixels).
const DASHED_WIDTH: u32 = 3 * OVERSAMPLE / 2;

/// Everything a heat map shows.
#[derive(Clone, Debug)]
pub struct HeatPlot {
    /// x axis label.
    pub x_label: String,
    /// y axis label.
    pub y_label: String,
    /// The colour bar's label.
    pub z_label: String,
    /// Axis bounds.
    pub bounds: Bounds,
    /// The cells: centre (x, y) and value.
    pub cells: Vec<(f64, f64, f64)>,
    /// A cell's width and height.
    pub cell: (f64, f64),
    /// The least and greatest value (the colour scale's ends).
    pub range: (f64, f64),
}

/// The width of a heat map's chart in display pixels (the colour bar takes the rest).
const HEAT_CHART_WIDTH: u32 = SIZE.0 - 110;

/// A heat map as SVG text: a viridis-coloured rectangle per cell (the colormap pgfplots names
/// `viridis`, so both renderings agree), and a colour bar with the scale's ends.
pub fn heatmap_svg(plot: &HeatPlot) -> Result<String> {
    let mut out = String::new();
    draw_heatmap(plot, &mut out).map_err(|e| Error::invalid(format!("drawing the figure: {e}")))?;
    let frame = Frame::new(plot.bounds, HEAT_CHART_WIDTH);
    let mut overlay = axis_titles(&frame, &plot.x_label, &plot.y_label);
    // Under the colour bar (see draw_heatmap for its place).
    overlay.push_str(&label::svg_text(
        &plot.z_label,
        (
            fpx(f64::from(HEAT_CHART_WIDTH + 10)),
            fpx(f64::from(SIZE.1 - 30) + 14.0),
        ),
        TextStyle {
            size: fpx(TITLE_FONT),
            fill: "#000000",
            anchor: Anchor::Start,
            vertical: false,
        },
    ));
    Ok(finish(out, &overlay))
}

fn draw_heatmap(
    plot: &HeatPlot,
    out: &mut String,
) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(out, (px(SIZE.0), px(SIZE.1))).into_drawing_area();
    root.fill(&WHITE)?;
    let (main, bar) = root.split_horizontally(px(HEAT_CHART_WIDTH));
    let mut chart = axes(&main, plot.bounds, Mesh::None)?;
    let (lo, hi) = plot.range;
    let colour = |v: f64| -> RGBColor {
        if hi > lo {
            ViridisRGB::get_color_normalized(v, lo, hi)
        } else {
            ViridisRGB::get_color(0.5)
        }
    };
    let (w, h) = (plot.cell.0 / 2.0, plot.cell.1 / 2.0);
    chart.draw_series(
        plot.cells
            .iter()
            .map(|&(x, y, v)| Rectangle::new([(x - w, y - h), (x + w, y + h)], colour(v).filled())),
    )?;
    // The colour bar: the scale from the least value (bottom) to the greatest (top); its label
    // goes below it (heatmap_svg).
    let bar = bar.margin(px(30), px(60), px(10), px(30));
    let bar_h = bar.dim_in_pixel().1;
    let steps = 64u32;
    let strip = bar_h / steps + 1;
    for i in 0..steps {
        let t = f64::from(i) / f64::from(steps - 1);
        let top = bar_h.saturating_sub((i + 1) * bar_h / steps) as i32;
        bar.draw(&Rectangle::new(
            [(0, top), (ipx(20), top + strip as i32)],
            ViridisRGB::get_color(t).filled(),
        ))?;
    }
    let font = ("sans-serif", px(14)).into_font();
    bar.draw(&Text::new(axis_number(&hi), (ipx(24), 0), font.clone()))?;
    bar.draw(&Text::new(
        axis_number(&lo),
        (ipx(24), bar_h as i32 - ipx(14)),
        font,
    ))?;
    root.present()?;
    Ok(())
}

/// The grid lines behind a chart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mesh {
    /// Light grid lines at the labelled ticks (curves).
    Grid,
    /// None (a heat map's cells fill the plane).
    None,
}

/// A chart on `area` with the given bounds, ticked as every figure is; its axis titles are
/// drawn by [`axis_titles`].
fn axes<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    b: Bounds,
    mesh: Mesh,
) -> std::result::Result<
    ChartContext<
        'a,
        SVGBackend<'b>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    Box<dyn std::error::Error>,
> {
    let (x0, x1) = (b.x_min as f64, b.x_max as f64);
    let (y0, y1) = (b.y_min as f64, b.y_max as f64);
    let mut chart = ChartBuilder::on(area)
        .margin(px(MARGIN))
        .x_label_area_size(px(X_LABEL_AREA))
        .y_label_area_size(px(Y_LABEL_AREA))
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let mut style = chart.configure_mesh();
    style
        .x_label_formatter(&axis_number)
        .y_label_formatter(&axis_number)
        .axis_style(BLACK.stroke_width(px(1)))
        .set_tick_mark_size(LabelAreaPosition::Left, ipx(5))
        .set_tick_mark_size(LabelAreaPosition::Bottom, ipx(5))
        .label_style(("sans-serif", px(14)));
    match mesh {
        Mesh::Grid => style
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(210, 210, 210).stroke_width(px(1))),
        Mesh::None => style.disable_mesh(),
    };
    style.draw()?;
    Ok(chart)
}

fn draw(plot: &Plot, out: &mut String) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let b = plot.bounds;
    let (y0, y1) = (b.y_min as f64, b.y_max as f64);
    let root = SVGBackend::with_string(out, (px(SIZE.0), px(SIZE.1))).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = axes(&root, b, Mesh::Grid)?;
    for v in &plot.vlines {
        let x = v.x as f64;
        chart.draw_series(DashedLineSeries::new(
            [(x, y0), (x, y1)],
            px(6),
            px(4),
            rgb("gray").stroke_width(px(1)),
        ))?;
    }
    let radius = fpx(MARKER_RADIUS).round() as i32;
    for c in &plot.curves {
        let color = rgb(&c.color);
        match c.style {
            SeriesStyle::Line | SeriesStyle::Markers => {
                let width = px(if c.style == SeriesStyle::Line { 2 } else { 1 });
                chart.draw_series(LineSeries::new(
                    c.points.iter().copied(),
                    color.stroke_width(width),
                ))?;
            }
            SeriesStyle::Dashed => {
                chart.draw_series(DashedLineSeries::new(
                    c.points.iter().copied(),
                    px(5),
                    px(3),
                    color.stroke_width(DASHED_WIDTH),
                ))?;
            }
            SeriesStyle::Dots => {}
        }
        if matches!(c.style, SeriesStyle::Markers | SeriesStyle::Dots) {
            chart.draw_series(
                c.points
                    .iter()
                    .map(|&p| Circle::new(p, radius, color.filled())),
            )?;
        }
    }
    if let Some((_, points)) = &plot.marks {
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, ipx(4), BLACK.filled())),
        )?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_plot(style: SeriesStyle) -> Plot {
        Plot {
            x_label: "$n$".into(),
            y_label: "$f^{\\mathrm{I}}(n)$".into(),
            bounds: Bounds {
                x_min: 0,
                x_max: 16,
                y_min: 0,
                y_max: 12,
                x_step: 2,
                y_step: 2,
            },
            curves: vec![Curve {
                label: "$f^{\\mathrm{I}}$".into(),
                color: "blue".into(),
                points: (0..=16)
                    .map(|n| (f64::from(n), f64::from(n) * 11.0 / 16.0))
                    .collect(),
                style,
            }],
            marks: None,
            vlines: vec![VLine {
                x: 8,
                label: "$n_0$".into(),
            }],
        }
    }

    #[test]
    fn labels_of_neighbouring_lines_never_overlap_each_other_or_a_line() {
        // Figure 6's lines (one unit apart on a window of 14), lines a label apart, and a
        // crowd closer than a label is wide (where a label must cross a line, but no other
        // label).
        for (xs, span, room) in [
            (vec![-1, 0], 7, true),
            (vec![-3, 0, 3, 6], 10, true),
            (vec![2, 3, 4, 5, 6], 10, false),
        ] {
            let mut p = a_plot(SeriesStyle::Line);
            p.bounds.x_min = -span;
            p.bounds.x_max = span;
            p.vlines = xs
                .iter()
                .map(|&x| VLine {
                    x,
                    label: format!("$N = {x}$"),
                })
                .collect();
            let frame = Frame::new(p.bounds, SIZE.0);
            let l = layout(&p);
            let boxes: Vec<Rect> = p
                .vlines
                .iter()
                .zip(&l.labels)
                .map(|(v, &pl)| line_label_box(&frame, v, pl))
                .collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    assert!(!a.overlaps(b), "{a:?} and {b:?} overlap");
                }
                for (j, v) in p.vlines.iter().enumerate() {
                    let x = frame.at((v.x as f64, 0.0)).0;
                    let clear = j == i || x < a.x0 || x > a.x1;
                    assert!(clear || !room, "label {i} crosses line {j}");
                }
                let legend = legend_box(&frame, &legend_entries(&p), l.legend);
                assert!(!legend.overlaps(a), "the legend covers label {i}");
            }
        }
        // Two lines one unit apart: the left label left of its line, both in the top row.
        let mut p = a_plot(SeriesStyle::Line);
        (p.bounds.x_min, p.bounds.x_max) = (-7, 7);
        p.vlines = vec![
            VLine {
                x: -1,
                label: "$N = -1$".into(),
            },
            VLine {
                x: 0,
                label: "$N = 0$".into(),
            },
        ];
        let l = layout(&p);
        assert_eq!(
            l.labels,
            [
                LabelPlace {
                    side: Side::Left,
                    row: 0
                },
                LabelPlace {
                    side: Side::Right,
                    row: 0
                }
            ]
        );
    }

    #[test]
    fn the_legend_goes_where_it_covers_no_data() {
        // A line rising from the lower left to the upper right, with no headroom: the upper
        // left and the lower right are free, the upper right is not.
        let mut p = a_plot(SeriesStyle::Line);
        p.vlines.clear();
        p.bounds.y_max = 11;
        let frame = Frame::new(p.bounds, SIZE.0);
        let l = layout(&p);
        let r = legend_box(&frame, &legend_entries(&p), l.legend);
        assert!(data_samples(&frame, &p).iter().all(|&s| !r.contains(s)));
        // Flipped (falling), the upper left is covered and the legend moves.
        for c in &mut p.curves {
            for pt in &mut c.points {
                pt.1 = 11.0 - pt.1;
            }
        }
        let flipped = layout(&p);
        assert_ne!(flipped.legend, l.legend);
        let r = legend_box(&frame, &legend_entries(&p), flipped.legend);
        assert!(data_samples(&frame, &p).iter().all(|&s| !r.contains(s)));
    }

    #[test]
    fn the_svg_is_shown_at_its_size_with_no_tex_in_its_text() {
        let svg = svg(&a_plot(SeriesStyle::Line)).unwrap();
        let (w, h) = (SIZE.0 * OVERSAMPLE, SIZE.1 * OVERSAMPLE);
        assert!(svg.starts_with(&format!(
            "<svg width=\"{}\" height=\"{}\" viewBox=\"0 0 {w} {h}\"",
            SIZE.0, SIZE.1
        )));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(!svg.contains('$') && !svg.contains("mathrm"));
        // f^I with its superscript as a script, n_0 with its subscript.
        assert!(svg.contains(">f</tspan><tspan dy=") && svg.contains(">I</tspan>"));
        assert!(svg.contains(">n</tspan><tspan dy=") && svg.contains(">0</tspan>"));
        // No markers asked, none drawn; asked, one per point and one in the legend.
        assert!(!svg.contains("<circle"));
        let marked = super::svg(&a_plot(SeriesStyle::Markers)).unwrap();
        assert_eq!(marked.matches("<circle").count(), 17 + 1);
        assert!(marked.contains("<polyline"));
        let dots = super::svg(&a_plot(SeriesStyle::Dots)).unwrap();
        assert_eq!(dots.matches("<circle").count(), 17 + 1);
        let dashed = super::svg(&a_plot(SeriesStyle::Dashed)).unwrap();
        assert!(dashed.contains("stroke-dasharray") && !dashed.contains("<circle"));
    }

    #[test]
    fn lines_are_not_rounded_to_display_pixels() {
        // Slope 11/16 over 16 units: drawn at OVERSAMPLE times the size, consecutive points of
        // the polyline differ by amounts that are not all multiples of OVERSAMPLE, i.e. the
        // line is placed finer than a display pixel.
        let svg = svg(&a_plot(SeriesStyle::Line)).unwrap();
        let line = svg
            .lines()
            .find(|l| l.contains("<polyline") && l.contains("#0000FF"))
            .unwrap();
        let start = line.find("points=\"").unwrap() + 8;
        let ys: Vec<i64> = line[start..]
            .split_whitespace()
            .filter_map(|p| p.split(',').nth(1)?.trim_end_matches('"').parse().ok())
            .collect();
        assert_eq!(ys.len(), 17);
        assert!(ys.iter().any(|y| y % i64::from(OVERSAMPLE) != 0));
    }
}
