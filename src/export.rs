//! Generic tables and their renderings. Exporters are pure: rows in, bytes out (into any writer),
//! so the same data gives byte-identical CSV, JSON and text. This layer knows nothing of games.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::num::{Pwl, Q};

/// Output format of a tabular command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
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

impl Format {
    /// Every format, in the order a help text lists them.
    pub const ALL: [Format; 4] = [Format::Text, Format::Csv, Format::Json, Format::Md];

    /// The format's name as a front end spells it (`text`, `csv`, `json`, `md`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Md => "md",
        }
    }

    /// What the format is, in a few words for a help text.
    pub fn description(self) -> &'static str {
        match self {
            Format::Text => "Aligned columns for reading",
            Format::Csv => "Comma-separated values with a header row",
            Format::Json => "A JSON array of objects, one per row",
            Format::Md => "A Markdown (GitHub) table",
        }
    }
}

/// One table cell. CSV, text and Markdown write every cell as flat text; JSON writes the same
/// cell typed, so that jq can use it directly:
///
/// - whole numbers ([`Cell::Int`], [`Cell::UInt`]) are JSON numbers, written exactly;
/// - exact rationals ([`Cell::Rational`]) are JSON strings `"p/q"` (or `"n"`) in every row, so a
///   column has one JSON type and no reader rounds a value through a float;
/// - lists are JSON arrays and values with named parts JSON objects, whose flat text is what
///   CSV and text print (e.g. `{1,3,4}`, `[3,2,1];[1,1,1,1,1,1]`, `[1] (0,2) [-1]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// An integer (a JSON number).
    Int(i64),
    /// A whole number that may exceed `i64` (a JSON number).
    UInt(u64),
    /// An exact rational (a JSON string).
    Rational(Q),
    /// Text (a JSON string); empty text is a JSON null.
    Text(String),
    /// A yes/no value.
    Bool(bool),
    /// A list (a JSON array of its items).
    List(List),
    /// A value with named parts (a JSON object of its fields).
    Record(Record),
}

/// A list cell: flat, its items' flat texts between `open` and `close`, separated by `sep`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct List {
    /// The items, in order.
    pub items: Vec<Cell>,
    /// Written before the first item in flat text (e.g. `{`), possibly empty.
    pub open: Cow<'static, str>,
    /// Written between items in flat text (e.g. `,` or `;`).
    pub sep: Cow<'static, str>,
    /// Written after the last item in flat text.
    pub close: Cow<'static, str>,
}

/// A record cell: named fields for JSON, and the flat text the other formats print.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The fields, in order (JSON object keys).
    pub fields: Vec<(String, Cell)>,
    /// The cell as CSV, text and Markdown show it.
    pub flat: String,
}

impl Cell {
    /// A list cell whose flat text is `open item sep item … close`.
    pub fn list<T: Into<Cell>>(
        open: &'static str,
        sep: &'static str,
        close: &'static str,
        items: impl IntoIterator<Item = T>,
    ) -> Cell {
        Cell::List(List {
            items: items.into_iter().map(Into::into).collect(),
            open: Cow::Borrowed(open),
            sep: Cow::Borrowed(sep),
            close: Cow::Borrowed(close),
        })
    }

    /// A record cell with its fields and its flat text.
    pub fn record(fields: Vec<(&str, Cell)>, flat: impl Into<String>) -> Cell {
        Cell::Record(Record {
            fields: fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            flat: flat.into(),
        })
    }

    /// The cell as CSV, text and Markdown write it.
    pub fn text(&self) -> String {
        match self {
            Cell::Int(n) => n.to_string(),
            Cell::UInt(n) => n.to_string(),
            Cell::Rational(q) => q.to_string(),
            Cell::Text(s) => s.clone(),
            Cell::Bool(b) => b.to_string(),
            Cell::List(l) => {
                let items: Vec<String> = l.items.iter().map(Cell::text).collect();
                format!("{}{}{}", l.open, items.join(&l.sep), l.close)
            }
            Cell::Record(r) => r.flat.clone(),
        }
    }

    /// The piecewise-linear function a cell made by `Cell::from(&Pwl)` holds, read back from its
    /// typed fields (never from its text); `None` for any other cell.
    pub fn as_pwl(&self) -> Option<Pwl> {
        let Cell::Record(r) = self else { return None };
        let field = |name: &str| r.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
        let rational = |c: &Cell| match c {
            Cell::Rational(q) => Some(q.clone()),
            Cell::Int(n) => Some(Q::int(*n)),
            _ => None,
        };
        let Some(Cell::List(knots)) = field("knots") else {
            return None;
        };
        let points = knots
            .items
            .iter()
            .map(|k| match k {
                Cell::List(xy) if xy.items.len() == 2 => {
                    Some((rational(&xy.items[0])?, rational(&xy.items[1])?))
                }
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Pwl::from_points(
            rational(field("left_slope")?)?,
            points,
            rational(field("right_slope")?)?,
        )
        .ok()
    }

    /// The cell as JSON writes it.
    pub fn json(&self) -> Value {
        match self {
            Cell::Int(n) => Value::from(*n),
            Cell::UInt(n) => Value::from(*n),
            Cell::Rational(q) => Value::from(q.to_string()),
            Cell::Text(s) if s.is_empty() => Value::Null,
            Cell::Text(s) => Value::from(s.clone()),
            Cell::Bool(b) => Value::from(*b),
            Cell::List(l) => Value::Array(l.items.iter().map(Cell::json).collect()),
            Cell::Record(r) => Value::Object(
                r.fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.json()))
                    .collect(),
            ),
        }
    }
}

impl From<i64> for Cell {
    fn from(n: i64) -> Cell {
        Cell::Int(n)
    }
}
impl From<u64> for Cell {
    fn from(v: u64) -> Cell {
        match i64::try_from(v) {
            Ok(i) => Cell::Int(i),
            Err(_) => Cell::UInt(v),
        }
    }
}
impl From<usize> for Cell {
    fn from(v: usize) -> Cell {
        Cell::from(v as u64)
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
impl From<&Pwl> for Cell {
    /// `{"left_slope", "knots": [[x, y], …], "right_slope"}` (the [`Pwl`]'s own serde form) in
    /// JSON; `[left] (x,y) … [right]` elsewhere.
    fn from(f: &Pwl) -> Cell {
        // A line is stored (and printed) with its anchor at x = 0.
        let knots = if f.breakpoints().is_empty() {
            vec![(Q::zero(), f.eval(&Q::zero()))]
        } else {
            f.breakpoints().to_vec()
        };
        let knots = knots
            .into_iter()
            .map(|(x, y)| Cell::list("(", ",", ")", [x, y]));
        Cell::record(
            vec![
                ("left_slope", f.left_slope().clone().into()),
                ("knots", Cell::list("", " ", "", knots)),
                ("right_slope", f.right_slope().clone().into()),
            ],
            f.to_string(),
        )
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

/// A table with named columns (snake_case) held in memory; its serde form (for caches) keeps
/// every cell's type.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

    /// The table as one cell, for a table nested in a row (e.g. the line of play of a value):
    /// a JSON array of row objects; flat, its rows (cells joined by `,`) joined by `; `.
    pub fn into_cell(self) -> Cell {
        let columns = self.columns;
        let rows = self.rows.into_iter().map(|row| {
            let flat = row.iter().map(Cell::text).collect::<Vec<_>>().join(",");
            Cell::Record(Record {
                fields: columns.iter().cloned().zip(row).collect(),
                flat,
            })
        });
        Cell::list("", "; ", "", rows)
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
    fn a_payoff_cell_reads_back_as_its_function() {
        let zigzag = Pwl::from_points(
            Q::int(1),
            vec![
                (Q::int(-1), Q::int(1)),
                (Q::int(0), Q::int(2)),
                (Q::int(1), Q::int(1)),
            ],
            Q::int(-1),
        )
        .unwrap();
        for f in [zigzag, Pwl::linear(Q::int(1), Q::frac(-1, 2))] {
            assert_eq!(Cell::from(&f).as_pwl(), Some(f));
        }
        assert_eq!(Cell::Int(3).as_pwl(), None);
    }

    #[test]
    fn every_format_is_listed_once_with_its_name() {
        let names = Format::ALL.map(Format::name);
        assert_eq!(names, ["text", "csv", "json", "md"]);
        assert_eq!(Format::ALL[0], Format::default());
        assert!(Format::ALL.iter().all(|f| !f.description().ends_with('.')));
    }

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

    #[test]
    fn lists_and_records_are_json_structures_and_flat_text_elsewhere() {
        let f: Pwl = "[1] (0,2) [-1]".parse().unwrap();
        let mut t = Table::new(&["set", "arrangements", "payoff", "big"]);
        t.push(vec![
            Cell::list("{", ",", "}", [1u64, 3, 4]),
            Cell::list(
                "",
                ";",
                "",
                [vec![3u32, 3], vec![2, 2, 1, 1]].map(|a| Cell::list("[", ",", "]", a)),
            ),
            Cell::from(&f),
            Cell::from(u64::MAX),
        ]);
        assert_eq!(
            String::from_utf8(t.render(Format::Csv)).unwrap(),
            "set,arrangements,payoff,big\n\"{1,3,4}\",\"[3,3];[2,2,1,1]\",\"[1] (0,2) [-1]\",18446744073709551615\n"
        );
        let json: Value = serde_json::from_slice(&t.render(Format::Json)).unwrap();
        assert_eq!(
            json,
            serde_json::json!([{
                "set": [1, 3, 4],
                "arrangements": [[3, 3], [2, 2, 1, 1]],
                "payoff": {"left_slope": "1", "knots": [["0", "2"]], "right_slope": "-1"},
                "big": 18446744073709551615u64
            }])
        );
        // The payoff's JSON is the Pwl's own serde form, so it reads back exactly.
        let back: Pwl = serde_json::from_value(json[0]["payoff"].clone()).unwrap();
        assert_eq!(back, f);
        let line = Pwl::linear(Q::int(2), Q::frac(-1, 2));
        let back: Pwl = serde_json::from_value(Cell::from(&line).json()).unwrap();
        assert_eq!(back, line);
        assert_eq!(Cell::from(&line).text(), line.to_string());
    }
}
