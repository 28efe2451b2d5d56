//! Generic tables and their renderings. Exporters are pure: rows in, bytes out (into any writer),
//! so the same data gives byte-identical CSV, JSON and text. This layer knows nothing of games.

use std::io::{self, Write};

use serde_json::Value;

use crate::num::Q;

/// Output format of a tabular command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns for reading.
    #[default]
    Text,
    /// Comma-separated values with a header row.
    Csv,
    /// A JSON array of objects, one per row.
    Json,
    /// A Markdown (GitHub) table.
    Md,
}

/// One table cell. Exact rationals are written as `p/q` strings in every format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// An integer (a JSON number).
    Int(i64),
    /// An exact rational (a JSON string).
    Rational(Q),
    /// Text (a JSON string); empty text is a JSON null.
    Text(String),
    /// A yes/no value.
    Bool(bool),
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::Rational(q) => q.to_string(),
            Cell::Text(s) => s.clone(),
            Cell::Bool(b) => b.to_string(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Int(n) => Value::from(*n),
            Cell::Rational(q) => Value::from(q.to_string()),
            Cell::Text(s) if s.is_empty() => Value::Null,
            Cell::Text(s) => Value::from(s.clone()),
            Cell::Bool(b) => Value::from(*b),
        }
    }
}

impl From<i64> for Cell {
    fn from(n: i64) -> Cell {
        Cell::Int(n)
    }
}
impl From<u64> for Cell {
    /// Beyond i64, the value is kept exactly as a rational.
    fn from(v: u64) -> Cell {
        match i64::try_from(v) {
            Ok(i) => Cell::Int(i),
            Err(_) => Cell::Rational(Q::from_bigint(v.into())),
        }
    }
}

impl From<u32> for Cell {
    fn from(n: u32) -> Cell {
        Cell::Int(n.into())
    }
}
impl From<Q> for Cell {
    fn from(q: Q) -> Cell {
        Cell::Rational(q)
    }
}
impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}
impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_string())
    }
}
impl From<bool> for Cell {
    fn from(b: bool) -> Cell {
        Cell::Bool(b)
    }
}
impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(v: Option<T>) -> Cell {
        v.map_or(Cell::Text(String::new()), Into::into)
    }
}

/// A table with named columns (snake_case) held in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Column names.
    pub columns: Vec<String>,
    /// Rows, each with one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with the given columns.
    pub fn new(columns: &[&str]) -> Table {
        Table {
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    ///
    /// # Panics
    /// When the row does not have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(
            row.len(),
            self.columns.len(),
            "row width must match the columns"
        );
        self.rows.push(row);
    }

    /// The table rendered in a format.
    pub fn render(&self, format: Format) -> Vec<u8> {
        let mut out = Vec::new();
        write_rows(format, &self.columns, self.rows.iter().cloned(), &mut out)
            .expect("writing to memory cannot fail");
        out
    }
}

/// Unwraps csv's I/O errors so callers can still see e.g. a closed pipe for what it is.
fn csv_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => io::Error::other(format!("{other:?}")),
    }
}

/// Streams rows in a format; text needs every row first to align the columns.
pub fn write_rows<W: Write + ?Sized>(
    format: Format,
    columns: &[String],
    rows: impl Iterator<Item = Vec<Cell>>,
    out: &mut W,
) -> io::Result<()> {
    match format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(&mut *out);
            w.write_record(columns).map_err(csv_io)?;
            for row in rows {
                w.write_record(row.iter().map(Cell::text)).map_err(csv_io)?;
            }
            // csv's Writer swallows the flush error on drop.
            w.flush()?;
        }
        Format::Json => {
            out.write_all(b"[")?;
            for (i, row) in rows.enumerate() {
                let obj: serde_json::Map<String, Value> = columns
                    .iter()
                    .cloned()
                    .zip(row.iter().map(Cell::json))
                    .collect();
                out.write_all(if i == 0 { b"\n  " } else { b",\n  " })?;
                serde_json::to_writer(&mut *out, &Value::Object(obj))?;
            }
            out.write_all(b"\n]\n")?;
        }
        Format::Md => {
            // `|` would end a cell and a newline the row; both are escaped.
            let cell = |t: &str| t.replace('|', "\\|").replace('\n', "<br>");
            let line = |cells: Vec<String>| format!("| {} |", cells.join(" | "));
            writeln!(out, "{}", line(columns.iter().map(|c| cell(c)).collect()))?;
            writeln!(
                out,
                "{}",
                line(columns.iter().map(|_| "---".to_string()).collect())
            )?;
            for row in rows {
                writeln!(
                    out,
                    "{}",
                    line(row.iter().map(|c| cell(&c.text())).collect())
                )?;
            }
        }
        Format::Text => {
            let rows: Vec<Vec<String>> = rows.map(|r| r.iter().map(Cell::text).collect()).collect();
            let widths: Vec<usize> = (0..columns.len())
                .map(|c| {
                    rows.iter()
                        .map(|r| r[c].chars().count())
                        .chain([columns[c].chars().count()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let line = |cells: &[String]| {
                let padded: Vec<String> = cells
                    .iter()
                    .zip(&widths)
                    .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
                    .collect();
                padded.join("  ").trim_end().to_string()
            };
            writeln!(out, "{}", line(columns))?;
            for r in &rows {
                writeln!(out, "{}", line(r))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_each_format_exactly() {
        let mut t = Table::new(&["n", "value", "note"]);
        t.push(vec![
            Cell::Int(1),
            Cell::Rational(Q::frac(-3, 2)),
            "a, b".into(),
        ]);
        t.push(vec![
            Cell::Int(10),
            Cell::Rational(Q::int(4)),
            Cell::Text(String::new()),
        ]);
        assert_eq!(
            String::from_utf8(t.render(Format::Csv)).unwrap(),
            "n,value,note\n1,-3/2,\"a, b\"\n10,4,\n"
        );
        assert_eq!(
            String::from_utf8(t.render(Format::Md)).unwrap(),
            "| n | value | note |\n| --- | --- | --- |\n| 1 | -3/2 | a, b |\n| 10 | 4 |  |\n"
        );
        assert_eq!(
            String::from_utf8(t.render(Format::Json)).unwrap(),
            "[\n  {\"n\":1,\"value\":\"-3/2\",\"note\":\"a, b\"},\n  {\"n\":10,\"value\":\"4\",\"note\":null}\n]\n"
        );
        assert_eq!(
            String::from_utf8(t.render(Format::Text)).unwrap(),
            "n   value  note\n1   -3/2   a, b\n10  4\n"
        );
    }
}
