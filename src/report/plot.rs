//! SVG figures for the Markdown reports, drawn with plotters from the same numbers that go to
//! the figure's CSV (which pgfplots reads for LaTeX). Pure: numbers in, SVG text out. plotters'
//! SVG backend with its built-in text metrics writes no timestamps, ids or font-dependent
//! layout, so the bytes depend only on the input.

use plotters::prelude::*;

use super::context::{Bounds, VLine};
use crate::error::{Error, Result};

/// Width and height of every figure, in SVG pixels.
pub const SIZE: (u32, u32) = (720, 420);

/// The legend in the upper left corner (pgfplots' name).
pub const LEGEND_NORTH_WEST: &str = "north west";

/// The legend in the upper right corner (pgfplots' name).
pub const LEGEND_NORTH_EAST: &str = "north east";

/// A curve to draw.
#[derive(Clone, Debug)]
pub struct Curve {
    /// Legend entry.
    pub label: String,
    /// pgfplots color name (see [`rgb`]).
    pub color: String,
    /// Points in the order drawn.
    pub points: Vec<(f64, f64)>,
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
    /// Curves.
    pub curves: Vec<Curve>,
    /// Marked points and their legend entry.
    pub marks: Option<(String, Vec<(f64, f64)>)>,
    /// Vertical dashed lines.
    pub vlines: Vec<VLine>,
    /// The legend's corner: `north east`, or else upper left.
    pub legend: String,
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

fn axis_number(v: &f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", *v as i64)
    } else {
        format!("{v}")
    }
}

/// Draws a plot as SVG text.
pub fn svg(plot: &Plot) -> Result<String> {
    let mut out = String::new();
    draw(plot, &mut out).map_err(|e| Error::invalid(format!("drawing the figure: {e}")))?;
    Ok(out)
}

fn draw(plot: &Plot, out: &mut String) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let b = plot.bounds;
    let (x0, x1) = (b.x_min as f64, b.x_max as f64);
    let (y0, y1) = (b.y_min as f64, b.y_max as f64);
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(18)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    chart
        .configure_mesh()
        .x_desc(plot.x_label.as_str())
        .y_desc(plot.y_label.as_str())
        .x_label_formatter(&axis_number)
        .y_label_formatter(&axis_number)
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(210, 210, 210))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()?;
    for v in &plot.vlines {
        let x = v.x as f64;
        chart.draw_series(DashedLineSeries::new(
            [(x, y0), (x, y1)],
            6,
            4,
            rgb("gray").stroke_width(1),
        ))?;
        let label = EmptyElement::at((x, y1))
            + Text::new(
                v.label.clone(),
                (5, 5),
                ("sans-serif", 13).into_font().color(&rgb("gray")),
            );
        chart.draw_series(std::iter::once(label))?;
    }
    for c in &plot.curves {
        let color = rgb(&c.color);
        chart
            .draw_series(LineSeries::new(
                c.points.iter().copied(),
                color.stroke_width(2),
            ))?
            .label(c.label.as_str())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    if let Some((label, points)) = &plot.marks {
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 4, BLACK.filled())))?
            .label(label.as_str())
            .legend(|(x, y)| Circle::new((x + 10, y), 4, BLACK.filled()));
    }
    chart
        .configure_series_labels()
        .position(if plot.legend == LEGEND_NORTH_EAST {
            SeriesLabelPosition::UpperRight
        } else {
            SeriesLabelPosition::UpperLeft
        })
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(160, 160, 160))
        .label_font(("sans-serif", 14))
        .draw()?;
    root.present()?;
    Ok(())
}
