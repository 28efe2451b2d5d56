//! Tables and figures from data tables: one [`Table`] of numbers becomes the CSV file, the SVG
//! drawn from it, and the context the templates read (pgfplots reads the same CSV), so the three
//! can never disagree. Knows no game.

use super::context::{
    Axis, Bounds, Figure, Heatmap, Legend, Marks, PlacedVLine, Series, TableSection, VLine,
};
use super::files::Files;
use super::plot::{self, Curve, Plot};
use crate::error::{Error, Result};
use crate::export::{Cell, Format, Table};
use crate::num::Q;

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
    /// The column headings a reader sees, in prose with `$…$` mathematics, one per column of
    /// `data` (the CSV keeps its machine-readable names); empty: the CSV's names are shown.
    pub headers: Vec<String>,
    /// Columns a reader sees otherwise than the CSV holds them (by CSV column name): cells
    /// written as `$…$` mathematics where the CSV keeps plain machine values, or the column
    /// left out of the displayed table (a constant column said once in the caption).
    pub display: Vec<(String, Shown)>,
}

/// How a column of a [`TableSpec`] is displayed, when not as the CSV's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    /// One displayed cell per row of the data, in order (prose with `$…$` mathematics).
    Cells(Vec<String>),
    /// Not displayed (the CSV still has it).
    Hidden,
}

/// Adds a table's CSV to `files` (unless a figure already wrote the same bytes there) and
/// returns its section.
///
/// # Errors
/// Headings given for a different number of columns than the data has.
pub fn table(spec: TableSpec, files: &mut Files) -> Result<TableSection> {
    let headings = match spec.headers.len() {
        0 => spec.data.columns.clone(),
        n if n == spec.data.columns.len() => spec.headers.clone(),
        n => {
            return Err(Error::invalid(format!(
                "table {}: {n} headings for {} columns",
                spec.csv,
                spec.data.columns.len()
            )));
        }
    };
    // Per CSV column: how it is shown (None: as the CSV's text).
    let mut shown: Vec<Option<&Shown>> = vec![None; spec.data.columns.len()];
    for (name, how) in &spec.display {
        let c = column(&spec.data, name, &format!("table {}", spec.csv))?;
        if let Shown::Cells(cells) = how
            && cells.len() != spec.data.rows.len()
        {
            return Err(Error::invalid(format!(
                "table {}: {} displayed cells for column `{name}` of {} rows",
                spec.csv,
                cells.len(),
                spec.data.rows.len()
            )));
        }
        shown[c] = Some(how);
    }
    let visible = |c: &usize| shown[*c] != Some(&Shown::Hidden);
    let columns = (0..headings.len())
        .filter(visible)
        .map(|c| headings[c].clone())
        .collect();
    files.share(&spec.csv, spec.data.render(Format::Csv))?;
    let rows: Vec<Vec<String>> = spec
        .data
        .rows
        .iter()
        .enumerate()
        .take(spec.show)
        .map(|(i, r)| {
            (0..r.len())
                .filter(visible)
                .map(|c| match shown[c] {
                    Some(Shown::Cells(cells)) => cells[i].clone(),
                    _ => cell_text(&r[c]),
                })
                .collect()
        })
        .collect();
    Ok(TableSection {
        title: spec.title,
        caption: spec.caption,
        csv: spec.csv,
        command: spec.command,
        columns,
        omitted: spec.data.rows.len() - rows.len(),
        rows,
        after: Vec::new(),
    })
}

/// Whether a value printed in a paper agrees with the one computed, as a side-by-side table
/// shows it: disagreements in capitals, so that they stand out in every output.
pub fn agreement(agrees: bool) -> &'static str {
    if agrees { "agree" } else { "DIFFER" }
}

fn cell_text(c: &Cell) -> String {
    c.text()
}

/// A sequence written as an OEIS-style b-file: one `n a(n)` line per term, in order.
#[derive(Clone, Debug)]
pub struct BFile {
    /// File name (relative to the report), e.g. `b-f1-3-5-6-10-11.txt`.
    pub file: String,
    /// What the sequence is, in prose with `$…$` mathematics.
    pub sequence: String,
    /// The command that reproduces the terms.
    pub command: String,
    /// The terms (n, a(n)), n increasing.
    pub terms: Vec<(i64, Cell)>,
}

/// The b-files' text: `n a(n)` lines, whole numbers only (a b-file holds integers).
///
/// # Errors
/// A term that is not a whole number, or indices that do not increase.
pub fn bfile_text(b: &BFile) -> Result<String> {
    let mut out = String::new();
    let mut last = None;
    for (n, v) in &b.terms {
        let whole = match v {
            Cell::Int(_) | Cell::UInt(_) => true,
            Cell::Rational(q) => q.is_integer(),
            _ => false,
        };
        if !whole || last.is_some_and(|l| l >= *n) {
            return Err(Error::invalid(format!(
                "b-file {}: term {n} = `{}` is not a whole number after the previous index",
                b.file,
                v.text()
            )));
        }
        last = Some(*n);
        out.push_str(&format!("{n} {}\n", v.text()));
    }
    Ok(out)
}

/// Writes every b-file into `files` and returns the table that lists them (file, sequence,
/// indices, reproduce command).
pub fn bfiles(list: Vec<BFile>, files: &mut Files) -> Result<TableSection> {
    let mut t = Table::new(&["file", "sequence", "n"]);
    for b in &list {
        files.insert(&b.file, bfile_text(b)?.into_bytes())?;
        let range = match (b.terms.first(), b.terms.last()) {
            (Some((a, _)), Some((z, _))) => format!("{a}..{z}"),
            _ => String::new(),
        };
        t.push(vec![
            b.file.clone().into(),
            b.sequence.clone().into(),
            range.into(),
        ]);
    }
    let commands: Vec<String> = list.iter().map(|b| b.command.clone()).collect();
    let mut dedup = commands.clone();
    dedup.dedup();
    let section = table(
        TableSpec {
            title: "Sequences as b-files".into(),
            caption: "The headline sequences of this report as OEIS-style b-files (one line per term: the index $n$, a space, the term $a(n)$), in the report's directory beside this file. The reproduce command prints this list; with a file's name in place of `b-files.csv` it prints that b-file.".into(),
            csv: "b-files.csv".into(),
            command: dedup.join(" ; "),
            data: t,
            show: list.len(),
            headers: vec!["file".into(), "sequence".into(), "$n$".into()],
            display: Vec::new(),
        },
        files,
    )?;
    Ok(section)
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
    let (x_min, y_min) = (x0.floor() as i64, (y0 - below).floor() as i64);
    let (x_max, y_max) = (
        (x1.ceil() as i64).max(x_min + 1),
        (y1 + above).ceil() as i64,
    );
    Bounds {
        x_min,
        x_max,
        y_min,
        y_max,
        x_step: tick_step(x_max - x_min),
        y_step: tick_step(y_max - y_min),
    }
}

/// The least of 1, 2, 5, 10, 20, 50, … that puts at most ten ticks on an axis of length `span`.
fn tick_step(span: i64) -> i64 {
    let mut decade = 1i64;
    loop {
        for step in [decade, 2 * decade, 5 * decade] {
            if span <= 10 * step {
                return step;
            }
        }
        if decade > i64::MAX / 100 {
            return decade;
        }
        decade *= 10;
    }
}

/// The context's form of a legend place.
fn legend_view(place: plot::LegendPlace) -> Legend {
    Legend {
        at: format!("{},{}", place.at.0, place.at.1),
        anchor: place.anchor.to_string(),
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
            style: s.style,
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
    // Sorted by x, so that the renderers can stagger the labels of neighbouring lines.
    let mut vlines = spec.vlines.clone();
    vlines.sort_by_key(|v| v.x);
    let plot = Plot {
        x_label: spec.x.label.clone(),
        y_label: spec.y_label.clone(),
        bounds: b,
        curves,
        marks: marked,
        vlines: vlines.clone(),
    };
    // The SVG's places for the labels and legend, handed to pgfplots too.
    let layout = plot::layout(&plot);
    let vlines = vlines
        .into_iter()
        .zip(&layout.labels)
        .map(|(v, place)| PlacedVLine {
            x: v.x,
            label: v.label,
            anchor: match place.side {
                plot::Side::Right => "north west",
                plot::Side::Left => "north east",
            }
            .to_string(),
            row: place.row,
        })
        .collect();
    let svg = format!("{}.svg", spec.id);
    let csv = format!("{}.csv", spec.id);
    files.insert(&svg, plot::svg(&plot)?.into_bytes())?;
    files.insert(&csv, plottable(&spec.data, &what)?.render(Format::Csv))?;
    let marks = match spec.marks {
        Some(m) => {
            files.insert(&m.csv, plottable(&m.data, &what)?.render(Format::Csv))?;
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
        vlines,
        bounds: b,
        legend: legend_view(layout.legend),
        heatmap: None,
        after: Vec::new(),
    })
}

/// What a heat map shows: the value column `z` over every grid point (x, y) of `data` (three
/// columns: x, y, z).
pub struct HeatmapSpec {
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
    /// The y column and its label.
    pub y: Axis,
    /// The value column and its label.
    pub z: Axis,
    /// The data: the x, y and z columns, in any order of rows.
    pub data: Table,
}

/// Adds a heat map's CSV (rows sorted by y, then x: the scan lines pgfplots' `matrix plot`
/// reads) and SVG to `files` and returns its context. Every grid point must have a number, and
/// each (x, y) exactly one row: a heat map with holes or duplicates would show colours that
/// were never computed.
pub fn heatmap(spec: HeatmapSpec, files: &mut Files) -> Result<Figure> {
    use std::collections::BTreeSet;
    let what = format!("figure {}", spec.id);
    let (x, y, z) = (
        column(&spec.data, &spec.x.column, &what)?,
        column(&spec.data, &spec.y.column, &what)?,
        column(&spec.data, &spec.z.column, &what)?,
    );
    let exact = |c: &Cell| match c {
        Cell::Int(n) => Some(Q::int(*n)),
        Cell::UInt(n) => i64::try_from(*n).ok().map(Q::int),
        Cell::Rational(q) => Some(q.clone()),
        _ => None,
    };
    let mut cells: Vec<(Q, Q, Q, usize)> = Vec::new();
    for (i, r) in spec.data.rows.iter().enumerate() {
        let point = (exact(&r[x]), exact(&r[y]), exact(&r[z]));
        let (Some(px), Some(py), Some(pz)) = point else {
            return Err(Error::invalid(format!(
                "{what}: row {} has no number in `{}`, `{}` or `{}`; a heat map needs a value at every grid point",
                i + 1,
                spec.x.column,
                spec.y.column,
                spec.z.column
            )));
        };
        cells.push((py, px, pz, i));
    }
    cells.sort();
    let xs: BTreeSet<&Q> = cells.iter().map(|c| &c.1).collect();
    let ys: BTreeSet<&Q> = cells.iter().map(|c| &c.0).collect();
    if cells.is_empty() {
        return Err(Error::invalid(format!("{what}: the table has no rows")));
    }
    if let Some(w) = cells
        .windows(2)
        .find(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1)
    {
        return Err(Error::invalid(format!(
            "{what}: two rows at {} = {}, {} = {}; a heat map needs one value per grid point",
            spec.x.column, w[0].1, spec.y.column, w[0].0
        )));
    }
    if cells.len() != xs.len() * ys.len() {
        return Err(Error::invalid(format!(
            "{what}: {} rows for {} values of `{}` and {} of `{}`; a heat map needs a value at every grid point",
            cells.len(),
            xs.len(),
            spec.x.column,
            ys.len(),
            spec.y.column
        )));
    }
    let least_spacing = |values: &BTreeSet<&Q>| -> f64 {
        let v: Vec<&&Q> = values.iter().collect();
        v.windows(2)
            .map(|w| (*w[1] - *w[0]).to_f64_lossy())
            .fold(f64::INFINITY, f64::min)
    };
    // A cell is as wide as the grid's least spacing (1 when a column has one value only).
    let cell = |values: &BTreeSet<&Q>| {
        Some(least_spacing(values))
            .filter(|g| g.is_finite())
            .unwrap_or(1.0)
    };
    let (dx, dy) = (cell(&xs), cell(&ys));
    let first = |s: &BTreeSet<&Q>| s.first().map_or(0.0, |q| q.to_f64_lossy());
    let last = |s: &BTreeSet<&Q>| s.last().map_or(0.0, |q| q.to_f64_lossy());
    let (x0, x1) = (first(&xs) - dx / 2.0, last(&xs) + dx / 2.0);
    let (y0, y1) = (first(&ys) - dy / 2.0, last(&ys) + dy / 2.0);
    let (x_min, x_max) = (
        x0.floor() as i64,
        (x1.ceil() as i64).max(x0.floor() as i64 + 1),
    );
    let (y_min, y_max) = (
        y0.floor() as i64,
        (y1.ceil() as i64).max(y0.floor() as i64 + 1),
    );
    let bounds = Bounds {
        x_min,
        x_max,
        y_min,
        y_max,
        x_step: tick_step(x_max - x_min),
        y_step: tick_step(y_max - y_min),
    };
    let zs = cells.iter().map(|c| &c.2);
    let (lo, hi) = (
        zs.clone().min().expect("rows").clone(),
        zs.max().expect("rows").clone(),
    );
    let data = Table {
        columns: vec![
            spec.x.column.clone(),
            spec.y.column.clone(),
            spec.z.column.clone(),
        ],
        rows: cells
            .iter()
            .map(|c| {
                let r = &spec.data.rows[c.3];
                vec![r[x].clone(), r[y].clone(), r[z].clone()]
            })
            .collect(),
    };
    let plotted = plottable(&data, &what)?;
    let decimal = |q: &Q| -> Result<String> {
        if q.is_integer() {
            return Ok(q.to_string());
        }
        exact_decimal(q).ok_or_else(|| {
            Error::invalid(format!(
                "{what}: the value {q} has no finite decimal, so it cannot be plotted exactly"
            ))
        })
    };
    let plot = plot::HeatPlot {
        x_label: spec.x.label.clone(),
        y_label: spec.y.label.clone(),
        z_label: spec.z.label.clone(),
        bounds,
        cells: cells
            .iter()
            .map(|c| (c.1.to_f64_lossy(), c.0.to_f64_lossy(), c.2.to_f64_lossy()))
            .collect(),
        cell: (dx, dy),
        range: (lo.to_f64_lossy(), hi.to_f64_lossy()),
    };
    let svg = format!("{}.svg", spec.id);
    let csv = format!("{}.csv", spec.id);
    files.insert(&svg, plot::heatmap_svg(&plot)?.into_bytes())?;
    files.insert(&csv, plotted.render(Format::Csv))?;
    Ok(Figure {
        title: spec.title,
        caption: spec.caption,
        svg,
        csv,
        command: spec.command,
        x: spec.x,
        y_label: spec.y.label.clone(),
        series: Vec::new(),
        marks: None,
        vlines: Vec::new(),
        bounds,
        // No legend: the colour bar says what the colours mean.
        legend: legend_view(plot::LEGEND_PLACES[1]),
        heatmap: Some(Heatmap {
            y: spec.y,
            z: spec.z,
            min: decimal(&lo)?,
            max: decimal(&hi)?,
            cols: xs.len(),
        }),
        after: Vec::new(),
    })
}

/// `data` as pgfplots reads it: a fraction such as `1/2` becomes its exact decimal `0.5`
/// (pgfplots parses no fractions). A fraction with no finite decimal cannot be plotted exactly:
/// an error naming it.
fn plottable(data: &Table, what: &str) -> Result<Table> {
    let mut out = data.clone();
    for cell in out.rows.iter_mut().flatten() {
        if let Cell::Rational(q) = cell
            && !q.is_integer()
        {
            let decimal = exact_decimal(q).ok_or_else(|| {
                Error::invalid(format!(
                    "{what}: the value {} has no finite decimal, so it cannot be plotted exactly",
                    q
                ))
            })?;
            *cell = Cell::Text(decimal);
        }
    }
    Ok(out)
}

/// The finite decimal of `q` (`-3/4` → `-0.75`), `None` when its denominator has a prime factor
/// other than 2 and 5.
fn exact_decimal(q: &crate::num::Q) -> Option<String> {
    use num_bigint::BigInt;
    use num_traits::{Signed, Zero};
    let (numer, denom) = (q.numer().abs(), q.denom().into_owned());
    let mut scale = BigInt::from(1);
    let mut digits = 0usize;
    while !(&scale % &denom).is_zero() {
        scale *= 10;
        digits += 1;
        if digits > 64 {
            return None;
        }
    }
    let scaled = (numer * (scale / denom)).to_string();
    let padded = format!("{scaled:0>width$}", width = digits + 1);
    let (whole, fraction) = padded.split_at(padded.len() - digits);
    let sign = if q.signum() < 0 { "-" } else { "" };
    Some(format!("{sign}{whole}.{fraction}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_plotted_as_their_exact_decimals() {
        use crate::num::Q;
        assert_eq!(exact_decimal(&Q::frac(1, 2)).as_deref(), Some("0.5"));
        assert_eq!(exact_decimal(&Q::frac(-3, 4)).as_deref(), Some("-0.75"));
        assert_eq!(exact_decimal(&Q::frac(15, 2)).as_deref(), Some("7.5"));
        assert_eq!(exact_decimal(&Q::frac(1, 40)).as_deref(), Some("0.025"));
        assert_eq!(exact_decimal(&Q::frac(1, 3)), None);
        let mut t = Table::new(&["x"]);
        t.push(vec![Q::frac(1, 3).into()]);
        assert!(plottable(&t, "figure f").is_err());
    }

    /// Whole-number ticks, at most ten to an axis: $1 \le k \le 8$ is labelled at every $k$,
    /// never at 1.5; $-1 \le y \le 16$ every 2.
    #[test]
    fn ticks_are_whole_numbers_at_most_ten_to_an_axis() {
        let steps: Vec<i64> = [1, 7, 10, 11, 17, 20, 21, 50, 51, 1000, 1001]
            .into_iter()
            .map(tick_step)
            .collect();
        assert_eq!(steps, [1, 1, 1, 2, 2, 2, 5, 5, 10, 100, 200]);
    }

    fn spec(headers: Vec<String>) -> TableSpec {
        let mut data = Table::new(&["n", "n_w"]);
        data.push(vec![Cell::Int(1), Cell::Int(2)]);
        TableSpec {
            title: "t".into(),
            caption: "c".into(),
            csv: "t.csv".into(),
            command: "nimlab x".into(),
            data,
            show: 1,
            headers,
            display: Vec::new(),
        }
    }

    #[test]
    fn headings_replace_the_csv_names_only_where_readers_see_them() {
        let mut files = Files::new();
        let shown = table(spec(vec!["$n$".into(), "$N_W$".into()]), &mut files).unwrap();
        assert_eq!(shown.columns, ["$n$", "$N_W$"]);
        let plain = table(spec(Vec::new()), &mut Files::new()).unwrap();
        assert_eq!(plain.columns, ["n", "n_w"]);
        let wrong = table(spec(vec!["$n$".into()]), &mut Files::new()).unwrap_err();
        assert!(
            wrong.to_string().contains("1 headings for 2 columns"),
            "{wrong}"
        );
        assert_ne!(agreement(true), agreement(false));
    }

    #[test]
    fn displayed_cells_and_hidden_columns_change_what_readers_see_not_the_csv() {
        let mut files = Files::new();
        let mut s = spec(vec!["$n$".into(), "$N_W$".into()]);
        s.data.push(vec![Cell::Int(3), Cell::Int(4)]);
        s.show = 2;
        s.display = vec![("n_w".into(), Shown::Cells(vec!["$2$".into(), "$4$".into()]))];
        let shown = table(s.clone(), &mut files).unwrap();
        assert_eq!(shown.rows, [["1", "$2$"], ["3", "$4$"]]);
        let csv = String::from_utf8(files.get("t.csv").unwrap().to_vec()).unwrap();
        assert!(csv.contains("1,2") && !csv.contains('$'), "{csv}");
        s.display = vec![("n".into(), Shown::Hidden)];
        let hidden = table(s.clone(), &mut Files::new()).unwrap();
        assert_eq!(hidden.columns, ["$N_W$"]);
        assert_eq!(hidden.rows, [["2"], ["4"]]);
        s.display = vec![("n_w".into(), Shown::Cells(vec!["$2$".into()]))];
        let short = table(s.clone(), &mut Files::new()).unwrap_err();
        assert!(short.to_string().contains("1 displayed cells"), "{short}");
        s.display = vec![("nope".into(), Shown::Hidden)];
        assert!(table(s, &mut Files::new()).is_err());
        assert_eq!(agreement(false), agreement(false).to_uppercase());
    }
}
