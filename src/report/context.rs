//! The contract between the report builders and the templates: small serializable structs, and
//! nothing else, are what `templates/*.tera` see. Every field is text or an integer already in
//! its final order (lists, never maps), so a render is a pure function of these values and two
//! renders of the same context are byte-identical.

use serde::Serialize;

/// One report: a paper's claims, tables and figures, re-derived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// File stem and directory name, e.g. `scoring-nim`.
    pub name: String,
    /// Title of the report.
    pub title: String,
    /// The paper, as cited.
    pub source: String,
    /// What produced this report.
    pub provenance: Provenance,
    /// Findings first: verdict counts and the claims that need attention.
    pub summary: Summary,
    /// The verdict of every claim in the paper's registry.
    pub verdicts: Verdicts,
    /// Tables, each with its CSV file.
    pub tables: Vec<TableSection>,
    /// Figures, each with its SVG (Markdown) and CSV (pgfplots) files.
    pub figures: Vec<Figure>,
    /// Commands that reproduce the report's numbers.
    pub reproduce: Vec<Command>,
}

/// Where a report comes from (no timestamps: the same inputs give the same bytes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// `nimlab` version.
    pub version: String,
    /// The exact command that rendered the report.
    pub command: String,
    /// Parameters and ranges, in a fixed order.
    pub parameters: Vec<Parameter>,
}

/// A named parameter of a render.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Parameter {
    /// What it is.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// The summary that opens a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Findings in sentences, computed from the data.
    pub findings: Vec<String>,
    /// How many claims got each verdict (every verdict listed, in a fixed order).
    pub counts: Vec<VerdictCount>,
    /// The FAILS and AMBIGUOUS claims, with their evidence.
    pub attention: Vec<VerdictRow>,
}

/// The number of claims with a verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictCount {
    /// HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN.
    pub verdict: String,
    /// How many claims got it.
    pub count: usize,
}

/// The verdict table of a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdicts {
    /// The claim registry checked, relative to the repository.
    pub registry: String,
    /// The command that reproduces the table.
    pub command: String,
    /// Why the table is empty (e.g. the registry does not exist yet).
    pub note: Option<String>,
    /// The CSV file with the same rows (absent when there are none).
    pub csv: Option<String>,
    /// One row per claim, in the registry's order.
    pub rows: Vec<VerdictRow>,
}

/// One claim's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictRow {
    /// The registry's paper.
    pub paper: String,
    /// The paper's label.
    pub label: String,
    /// HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN.
    pub verdict: String,
    /// The range checked.
    pub range: String,
    /// The evidence in one line.
    pub evidence: String,
}

/// A table shown in the report, with the CSV file holding all of its rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableSection {
    /// Heading.
    pub title: String,
    /// What the table shows.
    pub caption: String,
    /// The CSV file (relative to the report).
    pub csv: String,
    /// The command that reproduces the CSV.
    pub command: String,
    /// Column names.
    pub columns: Vec<String>,
    /// The rows shown (possibly the first ones only).
    pub rows: Vec<Vec<String>>,
    /// Rows in the CSV but not shown.
    pub omitted: usize,
}

/// A figure: an SVG drawn from a CSV for Markdown, pgfplots reading the same CSV for LaTeX.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Figure {
    /// Heading.
    pub title: String,
    /// What the figure shows.
    pub caption: String,
    /// The SVG file (relative to the report).
    pub svg: String,
    /// The CSV file with the plotted data.
    pub csv: String,
    /// The command that reproduces the CSV's data.
    pub command: String,
    /// The CSV column on the x axis and its label.
    pub x: Axis,
    /// The y axis label.
    pub y_label: String,
    /// Curves: one CSV column each.
    pub series: Vec<Series>,
    /// Points marked on the curves, from a second CSV.
    pub marks: Option<Marks>,
    /// Vertical lines (e.g. where a period starts).
    pub vlines: Vec<VLine>,
    /// Axis bounds shared by the SVG and pgfplots.
    pub bounds: Bounds,
    /// The legend's corner as pgfplots names it (`north west` or `north east`; also used for
    /// the SVG): the upper corner away from the vertical lines' labels.
    pub legend: String,
}

/// An axis: its CSV column and label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Axis {
    /// Column name in the CSV.
    pub column: String,
    /// Label shown.
    pub label: String,
}

/// A curve of a figure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Series {
    /// Column name in the CSV (the y values).
    pub column: String,
    /// Legend entry.
    pub label: String,
    /// pgfplots color name (also used for the SVG).
    pub color: String,
    /// How the points are drawn.
    pub style: SeriesStyle,
}

/// How a series' points are drawn (templates compare the lowercase name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SeriesStyle {
    /// A line through the points (a function of a real variable, sampled).
    Line,
    /// A thin line with a marker at every point (an integer sequence: values exist only at the
    /// points).
    Markers,
    /// Markers only (points of several interleaved classes, which no line should join).
    Dots,
}

/// Marked points, from their own CSV.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Marks {
    /// The CSV file.
    pub csv: String,
    /// Its x column.
    pub x: String,
    /// Its y column.
    pub y: String,
    /// Legend entry.
    pub label: String,
    /// The command that reproduces the marked points.
    pub command: String,
}

/// A vertical line with a label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VLine {
    /// Where.
    pub x: i64,
    /// What it marks.
    pub label: String,
}

/// Integer axis bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    /// Least x shown.
    pub x_min: i64,
    /// Greatest x shown.
    pub x_max: i64,
    /// Least y shown.
    pub y_min: i64,
    /// Greatest y shown.
    pub y_max: i64,
}

/// A command with what it reproduces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Command {
    /// What it reproduces.
    pub what: String,
    /// The command line.
    pub command: String,
}

/// The index of all reports (`reports/README.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Index {
    /// What produced the reports.
    pub provenance: Provenance,
    /// One entry per report, in a fixed order.
    pub reports: Vec<IndexEntry>,
}

/// A report as the index lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IndexEntry {
    /// Directory and file stem.
    pub name: String,
    /// Title.
    pub title: String,
    /// The paper.
    pub source: String,
    /// Verdict counts.
    pub counts: Vec<VerdictCount>,
    /// Number of figures.
    pub figures: usize,
    /// The first finding, or why there is none.
    pub headline: String,
}
