//! Generic tables and their renderings. Exporters are pure: rows in, bytes out (into any writer),
//! so the same data gives byte-identical CSV, JSON and text. This layer knows nothing of games.
//!
//! Rows are streamed: a [`TableWriter`] writes each batch of rows as it comes, a
//! [`RowEncoder`] turns cells (or plain numbers and text, with no [`Cell`] built) into the
//! format's bytes, and [`write_rows_parallel`] encodes batches on every core while the previous
//! one is written. Nothing grows with the number of rows: text, which aligns its columns and so
//! needs every width before its first line, spools its cells (to a temporary file past
//! [`SPOOL_MEMORY`]) and writes the aligned lines at the end — the same bytes as a table held
//! whole.

use std::borrow::Cow;
use std::io::{self, Write};
use std::sync::Arc;

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

    /// A table of one row (a record: a value with its named parts).
    ///
    /// # Panics
    /// When the row does not have one cell per column.
    pub fn record(columns: &[&str], row: Vec<Cell>) -> Table {
        let mut t = Table::new(columns);
        t.push(row);
        t
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

/// Streams rows in a format: see [`TableWriter`]; text is aligned through a spool, so nothing
/// grows with the number of rows.
pub fn write_rows<W: Write + ?Sized>(
    format: Format,
    columns: &[String],
    rows: impl Iterator<Item = Vec<Cell>>,
    out: &mut W,
) -> io::Result<()> {
    let mut writer = TableWriter::new(format, columns, out)?;
    let mut rows = rows.peekable();
    while rows.peek().is_some() {
        let mut encoder = writer.encoder();
        for row in rows.by_ref().take(SEQUENTIAL_CHUNK_ROWS) {
            for cell in &row {
                encoder.cell(cell);
            }
            encoder.end_row();
        }
        writer.write(encoder)?;
    }
    writer.finish()
}

/// Rows [`write_rows`] encodes before handing them to the writer.
const SEQUENTIAL_CHUNK_ROWS: usize = 4096;

/// Writes rows produced from `items` in parallel: the items are taken a chunk at a time, each
/// chunk is split among the threads, which encode their share with `encode` (one item may give
/// any number of rows), and the encoded shares are written in order while the next chunk is
/// being encoded. Output is byte-identical to a sequential run; memory is two chunks of rows,
/// whatever the number of items.
///
/// A chunk holds at most `items_per_chunk` items, and fewer when the rows are long: after the
/// first chunk its size follows the bytes an item has given so far, so that a share is about
/// 256 KiB. Small shares are still in the cache when they are written (a write from a
/// cold buffer costs several times more in the kernel), and the encoders are reused from chunk
/// to chunk, so their buffers are allocated and faulted in once.
pub fn write_rows_parallel<T, W>(
    writer: &mut TableWriter<'_, W>,
    items: impl Iterator<Item = T>,
    items_per_chunk: usize,
    encode: impl Fn(&T, &mut RowEncoder) + Sync,
) -> io::Result<()>
where
    T: Sync,
    W: Write + ?Sized,
{
    use rayon::prelude::*;
    let layout = Arc::clone(&writer.layout);
    let threads = rayon::current_num_threads().max(1);
    let shares = threads * SHARES_PER_THREAD;
    let most = items_per_chunk.max(1);
    // The first chunk is small, so that long rows never make it large before they are measured.
    let mut chunk_items = most.min(shares * FIRST_ITEMS_PER_SHARE);
    let (mut items_seen, mut bytes_seen) = (0usize, 0usize);
    let mut items = items.fuse();
    let mut pending: Vec<RowEncoder> = Vec::new();
    let mut spare: Vec<RowEncoder> = Vec::new();
    loop {
        let chunk: Vec<T> = items.by_ref().take(chunk_items).collect();
        let share = chunk.len().div_ceil(shares).max(1);
        let parts = chunk.len().div_ceil(share);
        let encoders: Vec<RowEncoder> = (0..parts)
            .map(|_| {
                spare
                    .pop()
                    .unwrap_or_else(|| RowEncoder::new(Arc::clone(&layout)))
            })
            .collect();
        let mut encoded: Vec<RowEncoder> = Vec::new();
        let mut written: io::Result<()> = Ok(());
        rayon::in_place_scope(|scope| {
            if !chunk.is_empty() {
                let (chunk, encode, encoded) = (&chunk, &encode, &mut encoded);
                scope.spawn(move |_| {
                    *encoded = chunk
                        .par_chunks(share)
                        .zip(encoders)
                        .map(|(part, mut encoder)| {
                            for item in part {
                                encode(item, &mut encoder);
                            }
                            encoder
                        })
                        .collect();
                });
            }
            written = pending.drain(..).try_for_each(|mut e| {
                writer.write_encoded(&e)?;
                e.reset();
                spare.push(e);
                Ok(())
            });
        });
        written?;
        if chunk.is_empty() {
            return Ok(());
        }
        items_seen += chunk.len();
        bytes_seen += encoded.iter().map(|e| e.bytes.len()).sum::<usize>();
        let per_item = bytes_seen.div_ceil(items_seen).max(1);
        chunk_items = (shares * SHARE_BYTES / per_item).clamp(1, most);
        pending = encoded;
    }
}

/// Bytes of encoded rows [`write_rows_parallel`] aims at per share: small enough to stay in
/// the cache until written, large enough that a chunk's scheduling is negligible.
const SHARE_BYTES: usize = 256 << 10;
/// Shares per thread in each chunk of [`write_rows_parallel`], for load balance.
const SHARES_PER_THREAD: usize = 4;
/// Items per share in [`write_rows_parallel`]'s first chunk, before any row is measured.
const FIRST_ITEMS_PER_SHARE: usize = 64;

/// What a table's format writes around its cells, worked out once per table.
#[derive(Debug)]
struct Layout {
    format: Format,
    columns: usize,
    /// JSON: the key of each column as `"name":`, escaped.
    json_keys: Vec<Vec<u8>>,
    /// JSON with a repeated column name: where each column's value lands among the distinct
    /// keys (`None`: overwritten by a later column of the same name), as a JSON object built
    /// from the row would have it. `None` when every name is distinct.
    json_slots: Option<Vec<Option<usize>>>,
    /// JSON with a repeated column name: the distinct keys, in order of first appearance.
    json_distinct: Vec<usize>,
}

impl Layout {
    fn new(format: Format, columns: &[String]) -> Layout {
        let json_keys = columns
            .iter()
            .map(|c| {
                let mut key = serde_json::to_vec(c).expect("a string serializes");
                key.push(b':');
                key
            })
            .collect();
        // A JSON object keeps one value per key: the last one, at the first one's place.
        let mut json_distinct: Vec<usize> = Vec::new();
        let mut slots = vec![None; columns.len()];
        for (c, name) in columns.iter().enumerate() {
            let slot = match json_distinct.iter().position(|&d| columns[d] == *name) {
                Some(slot) => slot,
                None => {
                    json_distinct.push(c);
                    json_distinct.len() - 1
                }
            };
            if let Some(earlier) = slots.iter().position(|s| *s == Some(slot)) {
                slots[earlier] = None;
            }
            slots[c] = Some(slot);
        }
        let repeated = json_distinct.len() < columns.len();
        Layout {
            format,
            columns: columns.len(),
            json_keys,
            json_slots: repeated.then_some(slots),
            json_distinct,
        }
    }
}

/// Encodes rows of one table into its format's bytes, cell by cell, with no intermediate
/// [`Cell`] or `String` for numbers and plain text. Encoders are independent (several can
/// encode different rows at once, see [`write_rows_parallel`]); a [`TableWriter`] writes
/// what they hold, in order.
#[derive(Debug)]
pub struct RowEncoder {
    layout: Arc<Layout>,
    bytes: Vec<u8>,
    column: usize,
    rows: u64,
    row_start: usize,
    /// Text: the widest cell of each column so far, in characters.
    widths: Vec<usize>,
    /// JSON with a repeated column name: each distinct key's value in the current row.
    slots: Vec<Vec<u8>>,
    /// The buffer [`RowEncoder::text_with`] and [`RowEncoder::ascii_with`] lend, kept between
    /// cells.
    scratch: Vec<u8>,
}

/// A number's digits (and sign, and `/`), on the stack.
struct Digits {
    buf: [u8; 48],
    len: usize,
}

impl Digits {
    fn new() -> Digits {
        Digits {
            buf: [0; 48],
            len: 0,
        }
    }

    fn push_u64(&mut self, v: u64) {
        self.push(itoa::Buffer::new().format(v).as_bytes());
    }

    fn push(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl RowEncoder {
    fn new(layout: Arc<Layout>) -> RowEncoder {
        let (widths, slots) = match layout.format {
            Format::Text => (vec![0; layout.columns], Vec::new()),
            Format::Json if layout.json_slots.is_some() => {
                (Vec::new(), vec![Vec::new(); layout.json_distinct.len()])
            }
            _ => (Vec::new(), Vec::new()),
        };
        RowEncoder {
            layout,
            bytes: Vec::new(),
            column: 0,
            rows: 0,
            row_start: 0,
            widths,
            slots,
            scratch: Vec::new(),
        }
    }

    /// Empties the encoder for new rows of the same table, keeping its buffers.
    fn reset(&mut self) {
        self.bytes.clear();
        self.column = 0;
        self.rows = 0;
        self.row_start = 0;
        self.widths.fill(0);
    }

    /// An integer cell, as [`Cell::Int`] writes it.
    pub fn int(&mut self, v: i64) {
        self.number(itoa::Buffer::new().format(v).as_bytes(), false);
    }

    /// A whole number, as [`Cell::UInt`] writes it.
    pub fn uint(&mut self, v: u64) {
        self.number(itoa::Buffer::new().format(v).as_bytes(), false);
    }

    /// The rational `numer/denom` as [`Cell::Rational`] writes it (reduced, `p/q` or an
    /// integer, a JSON string).
    ///
    /// # Panics
    /// When `denom` is zero.
    pub fn ratio(&mut self, numer: i64, denom: i64) {
        assert_ne!(denom, 0, "a rational needs a non-zero denominator");
        let (n, d) = (i128::from(numer), i128::from(denom));
        let g = num_integer::Integer::gcd(&n, &d);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            (n, d) = (-n, -d);
        }
        let mut digits = Digits::new();
        // Reduced, |n| ≤ 2^63 and d ≤ 2^63: both fit u64 as magnitudes.
        if n < 0 {
            digits.push(b"-");
        }
        digits.push_u64(n.unsigned_abs() as u64);
        if d != 1 {
            digits.push(b"/");
            digits.push_u64(d as u64);
        }
        self.number(digits.as_bytes(), true);
    }

    /// The integer `n` as an exact rational, as [`Cell::Rational`] writes it (a JSON string).
    pub fn int_as_rational(&mut self, n: i64) {
        self.number(itoa::Buffer::new().format(n).as_bytes(), true);
    }

    /// The format the rows are encoded in.
    pub fn format(&self) -> Format {
        self.layout.format
    }

    /// An exact rational, as [`Cell::Rational`] writes it.
    pub fn rational(&mut self, q: &Q) {
        match q.to_i64_parts() {
            Some((n, d)) => self.ratio(n, d),
            None => self.cell(&Cell::Rational(q.clone())),
        }
    }

    /// A text cell, as [`Cell::Text`] writes it (empty text is a JSON null).
    pub fn text(&mut self, s: &str) {
        self.text_bytes(s.as_bytes());
    }

    /// [`RowEncoder::text`] of UTF-8 bytes.
    fn text_bytes(&mut self, s: &[u8]) {
        self.field(s, false, |json| {
            if s.is_empty() {
                json.extend_from_slice(b"null");
            } else {
                let s = std::str::from_utf8(s).expect("text cells are UTF-8");
                serde_json::to_writer(json, s).expect("writing to memory cannot fail");
            }
        });
    }

    /// A text cell that `fill` appends to an empty buffer, as [`RowEncoder::text`] writes it;
    /// the buffer is the encoder's own, reused from cell to cell, so a long text built piece by
    /// piece costs no allocation per row.
    pub fn text_with(&mut self, fill: impl FnOnce(&mut String)) {
        let mut bytes = std::mem::take(&mut self.scratch);
        bytes.clear();
        let mut text = String::from_utf8(bytes).expect("an empty buffer is UTF-8");
        fill(&mut text);
        self.text(&text);
        self.scratch = text.into_bytes();
    }

    /// [`RowEncoder::text_with`] for a text that `fill` writes as ASCII bytes, so that numbers
    /// go into the buffer with no `str` machinery.
    ///
    /// # Panics
    /// When `fill` appends a byte that is not ASCII.
    pub fn ascii_with(&mut self, fill: impl FnOnce(&mut Vec<u8>)) {
        if self.layout.format == Format::Csv {
            self.csv_ascii_with(fill);
            return;
        }
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        fill(&mut text);
        assert!(text.is_ascii(), "ascii_with appends ASCII only");
        self.text_bytes(&text);
        self.scratch = text;
    }

    /// [`RowEncoder::ascii_with`] in CSV: the text is filled in straight after an opening quote
    /// in the row itself, so a long text is neither copied nor scanned twice. It then needs
    /// the closing quote when it holds a comma and no quote, CR or LF (a payoff's text always
    /// does); without a comma the opening quote is taken out again, and a text CSV must escape
    /// goes through [`csv_field`]: the same bytes as writing the text as a cell.
    fn csv_ascii_with(&mut self, fill: impl FnOnce(&mut Vec<u8>)) {
        let column = self.column;
        self.column += 1;
        let out = &mut self.bytes;
        if column > 0 {
            out.push(b',');
        }
        let quote = out.len();
        out.push(b'"');
        fill(out);
        let text = &out[quote + 1..];
        assert!(text.is_ascii(), "ascii_with appends ASCII only");
        if memchr::memchr3(b'"', b'\r', b'\n', text).is_some() {
            let text = out.split_off(quote + 1);
            out.truncate(quote);
            csv_field(out, &text, false);
        } else if memchr::memchr(b',', text).is_some() {
            out.push(b'"');
        } else {
            out.remove(quote);
        }
    }

    /// Whole CSV rows that `fill` appends straight to the encoder's bytes, each ended by `\n`,
    /// returning how many it appended: for tables of millions of short rows whose cells are all
    /// plain (digits, `-`, `/`, letters: nothing CSV quotes), which then skip the work per
    /// cell. Returns `false` without calling `fill` in any other format or within a row; the
    /// caller then encodes the same rows cell by cell.
    pub fn plain_csv_rows(&mut self, fill: impl FnOnce(&mut Vec<u8>) -> u64) -> bool {
        if self.layout.format != Format::Csv || self.column != 0 {
            return false;
        }
        self.rows += fill(&mut self.bytes);
        self.row_start = self.bytes.len();
        true
    }

    /// Any cell.
    pub fn cell(&mut self, cell: &Cell) {
        match cell {
            Cell::Int(n) => self.int(*n),
            Cell::UInt(n) => self.uint(*n),
            Cell::Text(s) => self.text(s),
            Cell::Rational(q)
                if q.to_i64_parts()
                    .is_some_and(|(n, d)| n.unsigned_abs() < 1 << 62 && d < 1 << 62) =>
            {
                self.rational(q)
            }
            other => {
                let flat = other.text();
                self.field(flat.as_bytes(), false, |json| {
                    serde_json::to_writer(json, &other.json())
                        .expect("writing to memory cannot fail");
                });
            }
        }
    }

    /// A number: digits, `-` and `/` only, so never quoted or escaped; a JSON number, or a
    /// JSON string when `quoted`.
    fn number(&mut self, digits: &[u8], quoted: bool) {
        let plain = |json: &mut Vec<u8>| {
            if quoted {
                json.push(b'"');
                json.extend_from_slice(digits);
                json.push(b'"');
            } else {
                json.extend_from_slice(digits);
            }
        };
        self.field(digits, true, plain);
    }

    /// One cell: its flat text (`plain`: ASCII that needs no quoting or escaping) and how
    /// JSON writes it.
    fn field(&mut self, flat: &[u8], plain: bool, json: impl FnOnce(&mut Vec<u8>)) {
        let column = self.column;
        self.column += 1;
        let out = &mut self.bytes;
        match self.layout.format {
            Format::Csv => {
                if column > 0 {
                    out.push(b',');
                }
                csv_field(out, flat, plain);
            }
            Format::Json => match &self.layout.json_slots {
                None => {
                    out.extend_from_slice(if column == 0 { b",\n  {" } else { b"," });
                    out.extend_from_slice(&self.layout.json_keys[column]);
                    json(out);
                }
                Some(slots) => {
                    if let Some(slot) = slots[column] {
                        self.slots[slot].clear();
                        json(&mut self.slots[slot]);
                    }
                }
            },
            Format::Md => {
                out.extend_from_slice(if column == 0 { b"| " } else { b" | " });
                md_field(out, flat, plain);
            }
            Format::Text => {
                let len = u32::try_from(flat.len()).expect("a cell is under 4 GiB");
                out.extend_from_slice(&len.to_le_bytes());
                out.extend_from_slice(flat);
                // Characters, not bytes: every byte but UTF-8's continuation bytes starts one.
                let width = if plain {
                    flat.len()
                } else {
                    flat.iter().filter(|&&b| b & 0xC0 != 0x80).count()
                };
                let w = &mut self.widths[column];
                *w = (*w).max(width);
            }
        }
    }

    /// Ends a row.
    ///
    /// # Panics
    /// When the row does not have one cell per column.
    pub fn end_row(&mut self) {
        assert_eq!(
            self.column, self.layout.columns,
            "row width must match the columns"
        );
        let out = &mut self.bytes;
        match self.layout.format {
            Format::Csv => {
                // csv writes a record with no bytes at all (one empty field) as `""`.
                if out.len() == self.row_start {
                    out.extend_from_slice(b"\"\"");
                }
                out.push(b'\n');
            }
            Format::Json => {
                if self.layout.json_slots.is_some() {
                    out.extend_from_slice(b",\n  {");
                    for (i, (&c, value)) in self
                        .layout
                        .json_distinct
                        .iter()
                        .zip(&self.slots)
                        .enumerate()
                    {
                        if i > 0 {
                            out.push(b',');
                        }
                        out.extend_from_slice(&self.layout.json_keys[c]);
                        out.extend_from_slice(value);
                    }
                } else if self.layout.columns == 0 {
                    out.extend_from_slice(b",\n  {");
                }
                out.push(b'}');
            }
            Format::Md => {
                if self.layout.columns == 0 {
                    out.extend_from_slice(b"| ");
                }
                out.extend_from_slice(b" |\n");
            }
            Format::Text => {}
        }
        self.column = 0;
        self.rows += 1;
        self.row_start = self.bytes.len();
    }
}

/// A CSV field as the csv crate writes it: quoted when it holds a comma, a quote, CR or LF,
/// with quotes doubled.
fn csv_field(out: &mut Vec<u8>, field: &[u8], plain: bool) {
    let needs_quotes = |field: &[u8]| {
        if field.len() < 32 {
            // A call into memchr costs more than a short field's bytes.
            field
                .iter()
                .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
        } else {
            // A vector at a time; a payoff's text has a comma within its first few bytes.
            memchr::memchr3(b',', b'\r', b'\n', field).is_some()
                || memchr::memchr(b'"', field).is_some()
        }
    };
    if plain || !needs_quotes(field) {
        out.extend_from_slice(field);
        return;
    }
    out.reserve(field.len() + 2);
    out.push(b'"');
    let mut rest = field;
    while let Some(at) = memchr::memchr(b'"', rest) {
        out.extend_from_slice(&rest[..=at]);
        out.push(b'"');
        rest = &rest[at + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// A Markdown cell: `|` would end the cell and a newline the row, so both are escaped.
fn md_field(out: &mut Vec<u8>, field: &[u8], plain: bool) {
    if plain {
        out.extend_from_slice(field);
        return;
    }
    for &b in field {
        match b {
            b'|' => out.extend_from_slice(b"\\|"),
            b'\n' => out.extend_from_slice(b"<br>"),
            _ => out.push(b),
        }
    }
}

/// Writes a table in a format as its rows come: the header when created, encoded rows as
/// they are handed over ([`TableWriter::write`]), the closing bytes at
/// [`TableWriter::finish`].
///
/// Text aligns its columns, so it needs every cell's width before the first line: the cells
/// go to a spool (memory up to [`SPOOL_MEMORY`] bytes, then an unnamed temporary file that
/// vanishes with the process), and `finish` writes the aligned lines from it. The bytes are
/// those of a table held whole; memory stays bounded whatever the number of rows.
pub struct TableWriter<'w, W: Write + ?Sized> {
    layout: Arc<Layout>,
    out: &'w mut W,
    rows: u64,
    /// Text: the header's cells and the widest cell of each column.
    header: Vec<String>,
    widths: Vec<usize>,
    spool: Spool,
}

/// Bytes of text cells held in memory before the spool moves to a temporary file.
pub const SPOOL_MEMORY: usize = 16 << 20;

impl<'w, W: Write + ?Sized> TableWriter<'w, W> {
    /// A writer of a table with these columns; writes the header (CSV, Markdown) or the
    /// opening bracket (JSON).
    pub fn new(format: Format, columns: &[String], out: &'w mut W) -> io::Result<Self> {
        let layout = Arc::new(Layout::new(format, columns));
        match format {
            Format::Csv | Format::Md => {
                let mut header = RowEncoder::new(Arc::clone(&layout));
                for c in columns {
                    header.text(c);
                }
                header.end_row();
                if format == Format::Md {
                    for _ in columns {
                        header.field(b"---", true, |_| {});
                    }
                    header.end_row();
                }
                out.write_all(&header.bytes)?;
            }
            Format::Json => out.write_all(b"[")?,
            Format::Text => {}
        }
        Ok(TableWriter {
            layout,
            out,
            rows: 0,
            header: columns.to_vec(),
            widths: columns.iter().map(|c| c.chars().count()).collect(),
            spool: Spool::default(),
        })
    }

    /// A CSV writer of rows that continue a table whose header an earlier part wrote (a
    /// shard after the first): the same rows, no header.
    pub fn csv_continuation(columns: &[String], out: &'w mut W) -> Self {
        TableWriter {
            layout: Arc::new(Layout::new(Format::Csv, columns)),
            out,
            rows: 0,
            header: columns.to_vec(),
            widths: columns.iter().map(|c| c.chars().count()).collect(),
            spool: Spool::default(),
        }
    }

    /// An encoder for the next rows.
    pub fn encoder(&self) -> RowEncoder {
        RowEncoder::new(Arc::clone(&self.layout))
    }

    /// Writes the rows an encoder holds, after those written before.
    ///
    /// # Panics
    /// When the encoder is in the middle of a row.
    pub fn write(&mut self, encoder: RowEncoder) -> io::Result<()> {
        self.write_encoded(&encoder)
    }

    /// [`TableWriter::write`] without taking the encoder, so that its buffers can be reused.
    fn write_encoded(&mut self, encoder: &RowEncoder) -> io::Result<()> {
        assert_eq!(encoder.column, 0, "a row was left unfinished");
        let mut bytes = &encoder.bytes[..];
        match self.layout.format {
            Format::Text => {
                for (w, e) in self.widths.iter_mut().zip(&encoder.widths) {
                    *w = (*w).max(*e);
                }
                self.spool.append(bytes)?;
            }
            Format::Json => {
                // Every row opens with `,\n  `; the table's first row has no comma.
                if self.rows == 0 && !bytes.is_empty() {
                    bytes = &bytes[1..];
                }
                self.out.write_all(bytes)?;
            }
            Format::Csv | Format::Md => self.out.write_all(bytes)?,
        }
        self.rows += encoder.rows;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Ends the table: JSON's closing bracket, or text's aligned lines; flushes.
    pub fn finish(self) -> io::Result<()> {
        match self.layout.format {
            Format::Json => self.out.write_all(b"\n]\n")?,
            Format::Text => {
                let mut line = String::new();
                let header: Vec<&str> = self.header.iter().map(String::as_str).collect();
                write_aligned(&mut *self.out, &mut line, &header, &self.widths)?;
                let mut cells = self.spool.replay()?;
                let mut row: Vec<String> = vec![String::new(); self.layout.columns];
                for _ in 0..self.rows {
                    for cell in row.iter_mut() {
                        cells.next_cell(cell)?;
                    }
                    let refs: Vec<&str> = row.iter().map(String::as_str).collect();
                    write_aligned(&mut *self.out, &mut line, &refs, &self.widths)?;
                }
            }
            Format::Csv | Format::Md => {}
        }
        self.out.flush()
    }
}

/// One line of a text table: each cell padded to its column's width, two spaces between
/// columns, trailing spaces dropped. The last cell is not padded: its padding would be
/// dropped again (and it is a long payoff in the widest tables).
fn write_aligned<W: Write + ?Sized>(
    out: &mut W,
    line: &mut String,
    cells: &[&str],
    widths: &[usize],
) -> io::Result<()> {
    line.clear();
    let last = cells.len().min(widths.len()).saturating_sub(1);
    for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
        if i > 0 {
            line.push_str("  ");
        }
        line.push_str(cell);
        if i < last {
            let pad = w - cell.chars().count();
            line.extend(std::iter::repeat_n(' ', pad));
        }
    }
    out.write_all(line.trim_end().as_bytes())?;
    out.write_all(b"\n")
}

/// Text cells waiting for the column widths: length-prefixed, in memory up to
/// [`SPOOL_MEMORY`] bytes, then in an unnamed temporary file.
struct Spool {
    memory: Vec<u8>,
    /// Bytes held in memory at most ([`SPOOL_MEMORY`]).
    limit: usize,
    file: Option<io::BufWriter<std::fs::File>>,
}

impl Default for Spool {
    fn default() -> Spool {
        Spool {
            memory: Vec::new(),
            limit: SPOOL_MEMORY,
            file: None,
        }
    }
}

impl Spool {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.file.is_none() && self.memory.len() + bytes.len() <= self.limit {
            self.memory.extend_from_slice(bytes);
            return Ok(());
        }
        if self.file.is_none() {
            let mut file = io::BufWriter::new(tempfile::tempfile()?);
            file.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some(file);
        }
        self.file
            .as_mut()
            .expect("the spool file was just created")
            .write_all(bytes)
    }

    /// The cells in the order they were appended.
    fn replay(self) -> io::Result<SpoolReader> {
        let source: Box<dyn io::Read> = match self.file {
            None => Box::new(io::Cursor::new(self.memory)),
            Some(file) => {
                use std::io::Seek;
                let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
                file.seek(io::SeekFrom::Start(0))?;
                Box::new(file)
            }
        };
        Ok(SpoolReader {
            source: io::BufReader::new(source),
        })
    }
}

struct SpoolReader {
    source: io::BufReader<Box<dyn io::Read>>,
}

impl SpoolReader {
    /// Reads the next cell into `cell`.
    fn next_cell(&mut self, cell: &mut String) -> io::Result<()> {
        use std::io::Read;
        let mut len = [0u8; 4];
        self.source.read_exact(&mut len)?;
        let mut bytes = std::mem::take(cell).into_bytes();
        bytes.clear();
        bytes.resize(u32::from_le_bytes(len) as usize, 0);
        self.source.read_exact(&mut bytes)?;
        *cell =
            String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        Ok(())
    }
}

/// The renderer every table went through before rows were streamed: each format built from
/// rows held in memory. Kept as the reference the streaming writer is tested against (byte for
/// byte, every format).
#[cfg(test)]
pub(crate) mod reference {
    use std::io::{self, Write};

    use serde_json::Value;

    use super::{Cell, Format};

    /// Unwraps csv's I/O errors so callers can still see e.g. a closed pipe for what it is.
    fn csv_io(e: csv::Error) -> io::Error {
        match e.into_kind() {
            csv::ErrorKind::Io(e) => e,
            other => io::Error::other(format!("{other:?}")),
        }
    }

    /// Streams rows in a format; text needs every row first to align the columns.
    pub(crate) fn write_rows<W: Write + ?Sized>(
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
                let rows: Vec<Vec<String>> =
                    rows.map(|r| r.iter().map(Cell::text).collect()).collect();
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Tables of every kind of cell, with the text that needs quoting or escaping, repeated
    /// and unicode column names, empty tables and single empty fields.
    fn any_table() -> impl Strategy<Value = (Vec<String>, Vec<Vec<Cell>>)> {
        let name = prop::sample::select(vec!["n", "value", "é|x", "a,b", "", "n", "q\"t"]);
        let text = prop::sample::select(vec![
            "",
            "I",
            "II",
            "a, b",
            "say \"hi\"",
            "\"\"x\"",
            "a\"b\"c, d",
            "line\nbreak",
            "cr\r",
            "pipe|d",
            "trail ",
            "ünï",
            "\t tab",
            " ",
        ]);
        let cell = prop_oneof![
            any::<i64>().prop_map(Cell::Int),
            any::<u64>().prop_map(Cell::UInt),
            (
                any::<i64>(),
                any::<i64>().prop_filter("non-zero", |d| *d != 0)
            )
                .prop_map(|(n, d)| Cell::Rational(Q::frac(n, d))),
            any::<i64>().prop_map(|n| Cell::Rational(Q::int(n) * Q::int(n) * Q::frac(3, 7))),
            text.clone().prop_map(Cell::from),
            any::<bool>().prop_map(Cell::Bool),
            prop::collection::vec(-5i64..5, 0..3).prop_map(|v| Cell::list("{", ",", "}", v)),
            text.prop_map(|t| Cell::record(vec![("k", Cell::Int(1)), ("t", t.into())], t)),
        ];
        prop::collection::vec(name, 0..4).prop_flat_map(move |columns| {
            let width = columns.len();
            let columns: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
            let rows = prop::collection::vec(prop::collection::vec(cell.clone(), width), 0..6);
            (Just(columns), rows)
        })
    }

    /// The table through the streaming writer, a few rows per encoder, with text's spool
    /// moved to a temporary file at once when `spill`.
    fn streamed(format: Format, columns: &[String], rows: &[Vec<Cell>], spill: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let mut writer = TableWriter::new(format, columns, &mut out).unwrap();
        if spill {
            writer.spool.limit = 0;
        }
        for chunk in rows.chunks(2) {
            let mut e = writer.encoder();
            for row in chunk {
                row.iter().for_each(|c| e.cell(c));
                e.end_row();
            }
            writer.write(e).unwrap();
        }
        writer.finish().unwrap();
        out
    }

    proptest! {
        #[test]
        fn streaming_writes_the_bytes_of_the_table_held_whole((columns, rows) in any_table()) {
            for format in Format::ALL {
                let mut held = Vec::new();
                reference::write_rows(format, &columns, rows.iter().cloned(), &mut held).unwrap();
                let mut plain = Vec::new();
                write_rows(format, &columns, rows.iter().cloned(), &mut plain).unwrap();
                prop_assert_eq!(&plain, &held, "{}", format.name());
                for spill in [false, true] {
                    let s = streamed(format, &columns, &rows, spill);
                    prop_assert_eq!(&s, &held, "{} spill {}", format.name(), spill);
                }
                let mut out = Vec::new();
                let mut writer = TableWriter::new(format, &columns, &mut out).unwrap();
                write_rows_parallel(&mut writer, rows.iter(), 1, |row, e| {
                    row.iter().for_each(|c| e.cell(c));
                    e.end_row();
                })
                .unwrap();
                writer.finish().unwrap();
                prop_assert_eq!(&out, &held, "{} in parallel", format.name());
            }
        }

        #[test]
        fn text_built_in_the_encoders_buffer_is_the_text_cell(
            (columns, rows) in any_table().prop_filter("a column", |(c, _)| !c.is_empty()),
        ) {
            // Every text cell once through `text`, once through `text_with`, and every ASCII
            // one through `ascii_with` (CSV writes that one in place), in the same rows.
            #[derive(Clone, Copy, PartialEq)]
            enum Via { Cell, TextWith, AsciiWith }
            for format in Format::ALL {
                let encode = |via: Via| {
                    let mut out = Vec::new();
                    let mut writer = TableWriter::new(format, &columns, &mut out).unwrap();
                    let mut e = writer.encoder();
                    for row in &rows {
                        for cell in row {
                            match cell {
                                Cell::Text(t) if via == Via::TextWith => {
                                    e.text_with(|s| s.push_str(t))
                                }
                                Cell::Text(t) if via == Via::AsciiWith && t.is_ascii() => {
                                    e.ascii_with(|s| s.extend_from_slice(t.as_bytes()))
                                }
                                other => e.cell(other),
                            }
                        }
                        e.end_row();
                    }
                    writer.write(e).unwrap();
                    writer.finish().unwrap();
                    out
                };
                let plain = encode(Via::Cell);
                prop_assert_eq!(encode(Via::TextWith), plain.clone(), "{}", format.name());
                prop_assert_eq!(encode(Via::AsciiWith), plain, "{} (ascii)", format.name());
            }
        }

        #[test]
        fn numbers_written_directly_are_their_cells(n in any::<i64>(), d in any::<i64>(), u in any::<u64>()) {
            prop_assume!(d != 0);
            let columns: Vec<String> = ["int", "whole", "ratio"].map(String::from).to_vec();
            let cells = vec![Cell::Int(n), Cell::UInt(u), Cell::Rational(Q::frac(n, d))];
            for format in Format::ALL {
                let mut held = Vec::new();
                reference::write_rows(format, &columns, std::iter::once(cells.clone()), &mut held).unwrap();
                let mut out = Vec::new();
                let mut writer = TableWriter::new(format, &columns, &mut out).unwrap();
                let mut e = writer.encoder();
                e.int(n);
                e.uint(u);
                e.ratio(n, d);
                e.end_row();
                writer.write(e).unwrap();
                writer.finish().unwrap();
                prop_assert_eq!(&out, &held, "{}", format.name());
            }
        }
    }

    #[test]
    fn a_thousand_rows_stream_in_parallel_in_order() {
        let columns: Vec<String> = ["i", "half", "note"].map(String::from).to_vec();
        let rows: Vec<Vec<Cell>> = (0..1000i64)
            .map(|i| {
                vec![
                    Cell::Int(i),
                    Cell::Rational(Q::frac(i, 2)),
                    format!("r{i}").into(),
                ]
            })
            .collect();
        for format in Format::ALL {
            let mut held = Vec::new();
            reference::write_rows(format, &columns, rows.iter().cloned(), &mut held).unwrap();
            let mut out = Vec::new();
            let mut writer = TableWriter::new(format, &columns, &mut out).unwrap();
            write_rows_parallel(&mut writer, 0..1000i64, 64, |&i, e| {
                e.int(i);
                e.ratio(i, 2);
                e.text(&format!("r{i}"));
                e.end_row();
            })
            .unwrap();
            assert_eq!(writer.rows(), 1000);
            writer.finish().unwrap();
            assert_eq!(out, held, "{}", format.name());
        }
    }

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
