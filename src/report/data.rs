//! Tables and figures from data tables: one [`Table`] of numbers becomes the CSV file, the SVG
//! drawn from it, and the context the templates read (pgfplots reads the same CSV), so the three
//! can never disagree. Knows no game.

use super::context::{Axis, Bounds, Figure, Marks, Series, TableSection, VLine};
use super::files::Files;
use super::plot::{self, Curve, Plot};
use crate::error::{Error, Result};
use crate::export::{Cell, Format, Table};

/// A table to show, with the CSV holding all its rows.
#[derive(Clone, Debug)]
pub struct TableSpec {
    /// Heading.
    pub title: String,
    /// What it shows.
    pub caption: String,
    /// CSV file name (relative to the report).
    pub csv: String,
    /// The command that reproduces the CSV.
    pub command: String,
    /// The data.
    pub data: Table,
    /// Show at most this many rows (the CSV has all).
    pub show: usize,
}

/// Adds a table's CSV to `files` (unless a figure already wrote the same bytes there) and
/// returns its section.
pub fn table(spec: TableSpec, files: &mut Files) -> Result<TableSection> {
    files.share(&spec.csv, spec.data.render(Format::Csv))?;
    let rows: Vec<Vec<String>> = spec
        .data
        .rows
        .iter()
        .take(spec.show)
        .map(|r| r.iter().map(cell_text).collect())
        .collect();
    Ok(TableSection {
        title: spec.title,
        caption: spec.caption,
        csv: spec.csv,
        command: spec.command,
        columns: spec.data.columns.clone(),
        omitted: spec.data.rows.len() - rows.len(),
        rows,
    })
}

fn cell_text(c: &Cell) -> String {
    c.text()
}

/// Points marked on a figure, from their own table.
#[derive(Clone, Debug)]
pub struct MarkSpec {
    /// Legend entry.
    pub label: String,
    /// CSV file name.
    pub csv: String,
    /// The command that reproduces the points.
    pub command: String,
    /// Two columns: x and y.
    pub data: Table,
}

/// A figure to draw.
#[derive(Clone, Debug)]
pub struct FigureSpec {
    /// File stem of the SVG and CSV files.
    pub id: String,
    /// Heading.
    pub title: String,
    /// What the figure shows.
    pub caption: String,
    /// The command that reproduces the data.
    pub command: String,
    /// The x column and its label.
    pub x: Axis,
    /// The y axis label.
    pub y_label: String,
    /// One curve per column.
    pub series: Vec<Series>,
    /// The data: the x column and every series column.
    pub data: Table,
    /// Marked points.
    pub marks: Option<MarkSpec>,
    /// Vertical lines.
    pub vlines: Vec<VLine>,
}

fn column(t: &Table, name: &str, what: &str) -> Result<usize> {
    t.columns
        .iter()
        .position(|c| c == name)
        .ok_or_else(|| Error::invalid(format!("{what}: no column `{name}` in the data")))
}

fn number(c: &Cell) -> Option<f64> {
    match c {
        Cell::Int(n) => Some(*n as f64),
        Cell::UInt(n) => Some(*n as f64),
        Cell::Rational(q) => Some(q.to_f64_lossy()),
        _ => None,
    }
}

/// Points (x, y) of two columns; rows without a number in either are gaps and left out.
fn points(t: &Table, x: usize, y: usize) -> Vec<(f64, f64)> {
    t.rows
        .iter()
        .filter_map(|r| Some((number(&r[x])?, number(&r[y])?)))
        .collect()
}

/// Integer bounds around the points, with room above for the legend.
fn bounds<'a>(all: impl Iterator<Item = &'a (f64, f64)>, vlines: &[VLine]) -> Bounds {
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    for v in vlines {
        x0 = x0.min(v.x as f64);
        x1 = x1.max(v.x as f64);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let span = (y1 - y0).max(1.0);
    let below = (span / 20.0).ceil().max(1.0);
    let above = (span * 0.3).ceil().max(2.0);
    Bounds {
        x_min: x0.floor() as i64,
        x_max: (x1.ceil() as i64).max(x0.floor() as i64 + 1),
        y_min: (y0 - below).floor() as i64,
        y_max: (y1 + above).ceil() as i64,
    }
}

/// The legend's corner: the vertical lines' labels sit at the top, right of their lines, so
/// the legend goes to the upper corner of the half holding fewer of them (left on a tie).
fn legend_corner(b: &Bounds, vlines: &[VLine]) -> &'static str {
    let left = vlines
        .iter()
        .filter(|v| 2 * v.x < b.x_min + b.x_max)
        .count();
    if 2 * left > vlines.len() {
        plot::LEGEND_NORTH_EAST
    } else {
        plot::LEGEND_NORTH_WEST
    }
}

/// Adds a figure's CSV files and SVG to `files` and returns its context.
pub fn figure(spec: FigureSpec, files: &mut Files) -> Result<Figure> {
    let what = format!("figure {}", spec.id);
    let x = column(&spec.data, &spec.x.column, &what)?;
    let mut curves = Vec::new();
    for s in &spec.series {
        let y = column(&spec.data, &s.column, &what)?;
        curves.push(Curve {
            label: s.label.clone(),
            color: s.color.clone(),
            points: points(&spec.data, x, y),
        });
    }
    let marked = match &spec.marks {
        Some(m) if m.data.columns.len() == 2 => Some((m.label.clone(), points(&m.data, 0, 1))),
        Some(_) => {
            return Err(Error::invalid(format!(
                "{what}: marks need exactly two columns"
            )));
        }
        None => None,
    };
    let b = bounds(
        curves
            .iter()
            .flat_map(|c| &c.points)
            .chain(marked.iter().flat_map(|m| &m.1)),
        &spec.vlines,
    );
    let legend = legend_corner(&b, &spec.vlines).to_string();
    let plot = Plot {
        x_label: spec.x.label.clone(),
        y_label: spec.y_label.clone(),
        bounds: b,
        curves,
        marks: marked,
        vlines: spec.vlines.clone(),
        legend: legend.clone(),
    };
    let svg = format!("{}.svg", spec.id);
    let csv = format!("{}.csv", spec.id);
    files.insert(&svg, plot::svg(&plot)?.into_bytes())?;
    files.insert(&csv, spec.data.render(Format::Csv))?;
    let marks = match spec.marks {
        Some(m) => {
            files.insert(&m.csv, m.data.render(Format::Csv))?;
            Some(Marks {
                x: m.data.columns[0].clone(),
                y: m.data.columns[1].clone(),
                csv: m.csv,
                label: m.label,
                command: m.command,
            })
        }
        None => None,
    };
    Ok(Figure {
        title: spec.title,
        caption: spec.caption,
        svg,
        csv,
        command: spec.command,
        x: spec.x,
        y_label: spec.y_label,
        series: spec.series,
        marks,
        vlines: spec.vlines,
        bounds: b,
        legend,
    })
}
