//! A study's figures, drawn by the report layer ([`data::figure`]: one CSV, its SVG, and the
//! pgfplots context reading the same CSV): columns against a column (`line`, `points`), by
//! residue class (`residues`), a column of piecewise-linear functions over their argument
//! (`pwl`), or a value column coloured over a grid of two columns (`heatmap`). Kept apart from the render because each style decides how a study's table becomes
//! the plot layer's series — the only place the study's columns meet the plot's.

use super::run::{column_index, numbers};
use super::{FigureDecl, FigureStyle, Study};
use crate::claims::typeset::name_math;
use crate::error::Result;
use crate::export::{Cell, Table};
use crate::num::Q;
use crate::report::context::{Axis, Figure, Series, SeriesStyle};
use crate::report::data::{self, FigureSpec, HeatmapSpec};
use crate::report::files::Files;

/// The colours of a figure's series, in order (the plot layer knows each by name).
const COLOURS: [&str; 6] = ["blue", "red", "teal", "orange", "violet", "gray"];

/// A figure of a table's columns, drawn by the report layer; an error names the study's
/// figure.
pub(super) fn figure(
    study: &Study,
    f: &FigureDecl,
    table: &Table,
    command: &str,
    files: &mut Files,
) -> Result<Figure> {
    let drawn = match f.style {
        FigureStyle::Pwl => pwl_figure(f, table, command, files),
        FigureStyle::Heatmap => heatmap_figure(f, table, command, files),
        FigureStyle::Line | FigureStyle::Points | FigureStyle::Residues { .. } => {
            columns_figure(f, table, command, files)
        }
    };
    drawn.map_err(|message| study.error_at(f.at, &format!("figure `{}`: {message}", f.name)))
}

/// An axis of a study's column, labelled with the column's name as mathematics.
fn column_axis(column: &str) -> Axis {
    Axis {
        column: column.to_string(),
        label: format!("${}$", name_math(column)),
    }
}

/// The figure of curves every style but `heatmap` draws: named, captioned and reproduced as
/// the declaration says, with the given axes, series, data and marks.
fn curves_figure(
    f: &FigureDecl,
    command: &str,
    (x, y_label): (Axis, String),
    series: Vec<Series>,
    data: Table,
    marks: Option<data::MarkSpec>,
    files: &mut Files,
) -> std::result::Result<Figure, String> {
    data::figure(
        FigureSpec {
            id: f.name.clone(),
            title: f.name.clone(),
            caption: f.caption.clone(),
            command: command.to_string(),
            x,
            y_label,
            series,
            data,
            marks,
            vlines: Vec::new(),
        },
        files,
    )
    .map_err(|e| e.to_string())
}

/// A `line`, `points` or `residues` figure: the `y` columns against the `x` column, one series
/// per column (per residue class of `x` for `residues`).
fn columns_figure(
    f: &FigureDecl,
    table: &Table,
    command: &str,
    files: &mut Files,
) -> std::result::Result<Figure, String> {
    let x = column_index(table, &f.x).ok_or_else(|| format!("no column `{}`", f.x))?;
    let xs = numbers(table, x);
    if xs.iter().any(Option::is_none) {
        return Err(format!(
            "the x column `{}` does not hold a number in every row",
            f.x
        ));
    }
    let integer_x = xs.iter().flatten().all(Q::is_integer);
    let mut data = Table {
        columns: vec![f.x.clone()],
        rows: table.rows.iter().map(|r| vec![r[x].clone()]).collect(),
    };
    let mut series = Vec::new();
    let mut colour = COLOURS.iter().cycle();
    for y in &f.y {
        let c = column_index(table, y).ok_or_else(|| format!("no column `{y}`"))?;
        let ys = numbers(table, c);
        if ys.iter().all(Option::is_none) {
            return Err(format!("the column `{y}` holds no numbers to plot"));
        }
        if let FigureStyle::Residues { period } = f.style {
            if period > COLOURS.len() as u64 * 2 {
                return Err(format!(
                    "a period of {period} gives more residue classes than a figure can tell apart (at most {})",
                    COLOURS.len() * 2
                ));
            }
            let p = i64::try_from(period).unwrap_or(i64::MAX);
            for r in 0..period {
                let name = format!("{y}_mod{r}");
                data.columns.push(name.clone());
                for (row, (v, k)) in data.rows.iter_mut().zip(table.rows.iter().zip(&xs)) {
                    let k = k.as_ref().and_then(Q::to_i64);
                    let in_class = k.is_some_and(|k| k.rem_euclid(p) as u64 == r);
                    row.push(if in_class {
                        v[c].clone()
                    } else {
                        Cell::Text(String::new())
                    });
                }
                series.push(Series {
                    column: name,
                    label: format!(
                        "${}$, ${} \\equiv {r} \\pmod{{{period}}}$",
                        name_math(y),
                        name_math(&f.x)
                    ),
                    color: colour.next().expect("cycled").to_string(),
                    style: SeriesStyle::Dots,
                });
            }
        } else {
            data.columns.push(y.clone());
            for (row, v) in data.rows.iter_mut().zip(&table.rows) {
                row.push(v[c].clone());
            }
            series.push(Series {
                column: y.clone(),
                label: format!("${}$", name_math(y)),
                color: colour.next().expect("cycled").to_string(),
                style: match (f.style, integer_x) {
                    (FigureStyle::Points, _) => SeriesStyle::Dots,
                    (_, true) => SeriesStyle::Markers,
                    _ => SeriesStyle::Line,
                },
            });
        }
    }
    let y_label =
        f.y.iter()
            .map(|y| format!("${}$", name_math(y)))
            .collect::<Vec<_>>()
            .join(", ");
    curves_figure(
        f,
        command,
        (column_axis(&f.x), y_label),
        series,
        data,
        None,
        files,
    )
}

/// A `heatmap` figure: the `z` column coloured over the grid of the `x` column and the one `y`
/// column (the file checked that there is one of each).
fn heatmap_figure(
    f: &FigureDecl,
    table: &Table,
    command: &str,
    files: &mut Files,
) -> std::result::Result<Figure, String> {
    let (Some(y), Some(z)) = (f.y.first(), f.z.as_ref()) else {
        return Err("a heatmap has one `y` column and a `z` column".to_string());
    };
    let at = |c: &str| column_index(table, c).ok_or_else(|| format!("no column `{c}`"));
    let columns = [at(&f.x)?, at(y)?, at(z)?];
    data::heatmap(
        HeatmapSpec {
            id: f.name.clone(),
            title: f.name.clone(),
            caption: f.caption.clone(),
            command: command.to_string(),
            x: column_axis(&f.x),
            y: column_axis(y),
            z: column_axis(z),
            data: Table {
                columns: vec![f.x.clone(), y.clone(), z.clone()],
                rows: table
                    .rows
                    .iter()
                    .map(|r| columns.iter().map(|&i| r[i].clone()).collect())
                    .collect(),
            },
        },
        files,
    )
    .map_err(|e| e.to_string())
}

/// Most functions one `pwl` figure draws (rows evenly spread over the table, first and last
/// included): more curves than colours cannot be told apart.
pub const MAX_PWL_CURVES: usize = 6;

/// A `pwl` figure: the piecewise-linear functions of the `y` column (one curve per row, labelled
/// by the row's `x`), over their argument from two below the least breakpoint to two beyond the
/// greatest, with every breakpoint marked. The functions are evaluated exactly at every
/// breakpoint of any of them, so the drawn lines are the functions themselves.
fn pwl_figure(
    f: &FigureDecl,
    table: &Table,
    command: &str,
    files: &mut Files,
) -> std::result::Result<Figure, String> {
    let [y] = &f.y[..] else {
        return Err("style \"pwl\" draws one column of functions: give one `y`".to_string());
    };
    let x = column_index(table, &f.x).ok_or_else(|| format!("no column `{}`", f.x))?;
    let c = column_index(table, y).ok_or_else(|| format!("no column `{y}`"))?;
    let rows = table.rows.len();
    if rows == 0 {
        return Err("the table has no rows to draw".to_string());
    }
    let picked: Vec<usize> = if rows <= MAX_PWL_CURVES {
        (0..rows).collect()
    } else {
        let mut p: Vec<usize> = (0..MAX_PWL_CURVES)
            .map(|i| i * (rows - 1) / (MAX_PWL_CURVES - 1))
            .collect();
        p.dedup();
        p
    };
    let mut curves = Vec::new();
    for &r in &picked {
        let fun = table.rows[r][c].as_pwl().ok_or_else(|| {
            format!("the column `{y}` does not hold a piecewise-linear function in every row")
        })?;
        curves.push((table.rows[r][x].text(), fun));
    }
    let knots: Vec<Q> = curves
        .iter()
        .flat_map(|(_, g)| g.breakpoints().iter().map(|(n, _)| n.clone()))
        .collect();
    let two = Q::int(2);
    let lo = knots.iter().min().cloned().unwrap_or_else(Q::zero) - two.clone();
    let hi = knots.iter().max().cloned().unwrap_or_else(Q::zero) + two;
    let mut grid: Vec<Q> = knots.clone();
    grid.extend([Q::from_bigint(lo.floor()), Q::from_bigint(hi.ceil())]);
    grid.sort();
    grid.dedup();
    let mut columns = vec!["N".to_string()];
    columns.extend((0..curves.len()).map(|i| format!("{y}_{i}")));
    let data = Table {
        columns,
        rows: grid
            .iter()
            .map(|n| {
                let mut row = vec![Cell::Rational(n.clone())];
                row.extend(curves.iter().map(|(_, g)| Cell::Rational(g.eval(n))));
                row
            })
            .collect(),
    };
    let mut marks = Table::new(&["N", y]);
    for (_, g) in &curves {
        for (n, v) in g.breakpoints() {
            marks.push(vec![Cell::Rational(n.clone()), Cell::Rational(v.clone())]);
        }
    }
    let series = curves
        .iter()
        .enumerate()
        .map(|(i, (at, _))| Series {
            column: format!("{y}_{i}"),
            label: format!("${} = {at}$", name_math(&f.x)),
            color: COLOURS[i % COLOURS.len()].to_string(),
            style: SeriesStyle::Line,
        })
        .collect();
    curves_figure(
        f,
        command,
        (column_axis("N"), format!("${}(N)$", name_math(y))),
        series,
        data,
        Some(data::MarkSpec {
            label: "breakpoints".to_string(),
            csv: format!("{}-breakpoints.csv", f.name),
            command: command.to_string(),
            data: marks,
        }),
        files,
    )
}
