//! The contract between the report builders and the templates: small serializable structs, and
//! nothing else, are what `templates/*.tera` see. Every field is text or an integer already in
//! its final order (lists, never maps), so a render is a pure function of these values and two
//! renders of the same context are byte-identical.

use serde::{Deserialize, Serialize};

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
    /// The closed forms the paper study's mining steps found, in its file's order (shown with
    /// the findings).
    pub mined: Vec<MinedSection>,
    /// Prose the paper study places after the findings.
    pub after_findings: Vec<Prose>,
    /// The verdict of every claim in the paper's registry.
    pub verdicts: Verdicts,
    /// Prose the paper study places after the claims.
    pub after_claims: Vec<Prose>,
    /// Tables, each with its CSV file: the study's declared tables, then its builtins'.
    pub tables: Vec<TableSection>,
    /// Prose the paper study places after the tables.
    pub after_tables: Vec<Prose>,
    /// Figures, each with its SVG (Markdown) and CSV (pgfplots) files: the study's declared
    /// figures, then its builtins'.
    pub figures: Vec<Figure>,
    /// Prose the paper study places after the figures.
    pub after_figures: Vec<Prose>,
    /// Prose the paper study places at the end, before the commands.
    pub at_end: Vec<Prose>,
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
    /// The nimlab commit the report was rendered from: `None` outside a git checkout. A
    /// committed report cannot name the commit that contains it, so this is the commit checked
    /// out when it was rendered, and `nimlab report --check` compares everything except this
    /// value (it renders with the value recorded in the committed `index.json`).
    pub commit: Option<Commit>,
    /// The paper a report re-derives (`None` for the index).
    pub paper: Option<PaperIdentity>,
}

/// A git commit of nimlab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commit {
    /// The full hash.
    pub hash: String,
    /// Whether the work tree had uncommitted changes outside the reports when it was rendered.
    pub modified: bool,
}

/// Which paper, in which version, a report checks (claim numbering changes between versions).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PaperIdentity {
    /// BibTeX key in `references.bib`.
    pub key: String,
    /// The authors, as printed.
    pub authors: Vec<String>,
    /// The title.
    pub title: String,
    /// Year of the version checked, when known.
    pub year: Option<String>,
    /// The arXiv identifier, when verified (e.g. `2502.10971`).
    pub arxiv: Option<String>,
    /// The arXiv version checked (e.g. `v1`), when known.
    pub version: Option<String>,
    /// Which copy was checked, in words (its date, what identifies it).
    pub copy: String,
}

/// A named parameter of a render.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Parameter {
    /// What it is.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// A gap in the paper's proof of a statement that is not at fault: the claim, its verdict (which
/// the gap does not change) and what is wrong with the proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProofGap {
    /// The paper's label.
    pub label: String,
    /// The anchor of the claim's entry.
    pub anchor: String,
    /// The claim's verdict.
    pub verdict: String,
    /// What is wrong with the proof: prose with `$…$` mathematics.
    pub gap: String,
}

/// The summary that opens a report: findings first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// What the paper gets wrong: its FAILS claims (except those the paper itself says are
    /// false), ranked by importance, then in file order.
    pub errata: Vec<ClaimEntry>,
    /// The New results: the PROVEN claims (statements the tool proves for every n), and the
    /// results a report lists as its own with their verdicts and ranges.
    pub proven: Vec<ClaimEntry>,
    /// The report builder's own findings in sentences (extensions, discoveries), computed from
    /// the data; prose with `$…$` mathematics.
    pub findings: Vec<String>,
    /// The claims the paper itself says are false.
    pub known_false: Vec<ClaimEntry>,
    /// Errata of the paper's proofs whose statements are not at fault (a claim's
    /// `proof_gap`), in file order.
    pub proof_gaps: Vec<ProofGap>,
    /// How many of the paper's claims got each verdict (every verdict listed, in a fixed order).
    pub counts: Vec<VerdictCount>,
    /// How many of nimlab's own results (`new_result`) got each verdict (only those that occur).
    pub own_counts: Vec<VerdictCount>,
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
    /// The overview: one row per claim, in the registry's order.
    pub rows: Vec<VerdictRow>,
    /// How many of the rows are results of nimlab's own (`new_result`), not the paper's.
    pub own_results: usize,
    /// The claims not already shown in the summary (errata, proven, known false), in the
    /// registry's order, each in full.
    pub claims: Vec<ClaimEntry>,
    /// The helpers whose display forms the claims' formulas use, in order of first use; empty
    /// when they use none.
    pub notation: Vec<NotationEntry>,
}

/// One claim in the overview table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictRow {
    /// The claim's id in its file.
    pub id: String,
    /// The paper's label.
    pub label: String,
    /// Where its full entry is (a Markdown/LaTeX anchor).
    pub anchor: String,
    /// HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN.
    pub verdict: String,
    /// The range checked (prose with `$…$` mathematics).
    pub range: String,
}

/// One claim in full: what it says, what exactly was checked, and what was found. Every text
/// is prose with mathematics in `$…$` spans.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimEntry {
    /// The claim's id in its file.
    pub id: String,
    /// The paper's label.
    pub label: String,
    /// The anchor of this entry.
    pub anchor: String,
    /// The statement: the paper's words or a faithful paraphrase.
    pub statement: String,
    /// The exact formula checked, with its range (absent for a builtin check).
    pub reading: Option<FormulaView>,
    /// HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN.
    pub verdict: String,
    /// `major`, `normal` or `minor`.
    pub importance: String,
    /// The finding in one sentence, when the claim file gives one (the index shows it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
    /// The range checked.
    pub range: String,
    /// Where the statement is proven for every value (an induction's domain), when that is
    /// more than the range checked; the range is then what was also checked directly.
    pub proven_for: Option<String>,
    /// How many points were checked (and passed over), in words.
    pub points: Option<String>,
    /// The first failing point, its values labelled.
    pub counterexample: Option<CounterexampleView>,
    /// Where the failures lie along the range's first variable.
    pub extent: Option<String>,
    /// The corrected statement, checked on the same range.
    pub correction: Option<CorrectionView>,
    /// The claim file's note: why it fails, what the correction changes, what the reading
    /// means.
    pub note: Option<String>,
    /// The readings of a statement that admits several, each with its own verdict.
    pub readings: Vec<ReadingView>,
    /// The checker's own sentence, when the parts above do not already say it all (builtin
    /// checks).
    pub evidence: Option<String>,
    /// Per-instance evidence as small tables, shown after the evidence sentence.
    pub tables: Vec<crate::claims::finding::EvidenceTable>,
    /// The proof sketch of a PROVEN claim.
    pub proof: Option<String>,
    /// The table the full sketch of an induction refers to: each class and its proven form
    /// (absent where the sketch refers back to another claim's).
    pub proof_table: Option<crate::claims::finding::EvidenceTable>,
    /// The command that checks this claim alone.
    pub reproduce: String,
    /// For a claim proven for every value from forms or from its file's definitions: the
    /// commands that write its proof's certificate and replay it with a second solver.
    pub certify: Option<String>,
}

/// A formula checked over a range, in parts a report can set on lines of their own: the
/// formula, the points it was checked at, and the condition a point had to meet. Each is
/// `$…$` mathematics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormulaView {
    /// What is tested at every point.
    pub formula: String,
    /// The points, when there are several: `$1 \le k \le 12$`.
    pub range: Option<String>,
    /// The condition a point must meet to be tested, when there is one.
    pub condition: Option<String>,
}

/// A counterexample: the point and the values compared there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterexampleView {
    /// The point, e.g. `$k = 0,\ m = 1$`.
    pub point: String,
    /// What the claim says there and what was found, one labelled value each (the values
    /// that are not paired below).
    pub values: Vec<ComparedValue>,
    /// Quantities compared one by one: what each is, claimed beside found.
    pub paired: Vec<PairedValue>,
    /// A truth-valued statement that is false at the point, with its sides' values put in.
    pub false_claim: Option<FalseClaim>,
}

/// One quantity of a counterexample, claimed beside found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairedValue {
    /// What the quantity is (prose with `$…$` mathematics).
    pub quantity: String,
    /// Its claimed value, with the claim's expression for it when that is not a number.
    pub claimed: String,
    /// Its claimed value alone, `$…$`.
    pub claimed_value: String,
    /// Its value found.
    pub found: String,
    /// Whether the two differ.
    pub differs: bool,
}

/// A claimed inequality (or other comparison) that is false at the counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FalseClaim {
    /// The comparison as the claim states it, `$…$` mathematics; empty for a false equation,
    /// which `reads` states whole.
    pub statement: String,
    /// The same with the values found put in, `$6 \ge 9$`: false.
    pub reads: String,
}

/// One labelled value of a counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ComparedValue {
    /// `claimed` (the statement's side) or `found` (what the engines compute).
    pub side: String,
    /// What the value is.
    pub label: String,
    /// The value, as `$…$` mathematics.
    pub value: String,
    /// Label and value in one piece of prose, for a sentence: `$V([3, 4, 7]) = 6$` for a
    /// value named by an expression, `winner: $\mathrm{II}$` for one named in words.
    pub labelled: String,
}

/// A corrected statement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CorrectionView {
    /// The corrected statement as mathematics, with its range.
    pub statement: FormulaView,
    /// Whether it holds at every point of the range.
    pub holds: bool,
    /// Points where it was checked and held.
    pub checked: u64,
    /// Where it fails too, when it does.
    pub failure: Option<CounterexampleView>,
}

/// One reading of a claim, shown like a small claim entry of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadingView {
    /// The reading in words.
    pub name: String,
    /// Whether this is the statement exactly as printed.
    pub literal: bool,
    /// The exact formula checked.
    pub reading: Option<FormulaView>,
    /// Its verdict.
    pub verdict: String,
    /// How many points were checked, in words.
    pub points: Option<String>,
    /// Its counterexample, when it fails and it is not the claim's own (shown above).
    pub counterexample: Option<CounterexampleView>,
    /// Whether it fails at the claim's counterexample, already shown above.
    pub fails_at_claims_counterexample: bool,
    /// Where its failures lie along the range's first variable.
    pub extent: Option<String>,
    /// Its corrected statement, when it has one.
    pub correction: Option<CorrectionView>,
    /// The checker's own sentence, for a reading checked by a builtin.
    pub evidence: Option<String>,
}

/// One helper function of the claim files as a report shows it: its display form and what it
/// means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotationEntry {
    /// The helper applied to its parameters, typeset (`$…$`); helpers that mean the same are
    /// one entry, their forms separated by commas.
    pub symbol: String,
    /// What it means: prose with `$…$` mathematics.
    pub meaning: String,
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
    /// Prose a study places after it (none after a paper's builtin tables).
    pub after: Vec<Prose>,
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
    /// Vertical lines (e.g. where a period starts), sorted by x, with their labels' places.
    pub vlines: Vec<PlacedVLine>,
    /// Axis bounds shared by the SVG and pgfplots.
    pub bounds: Bounds,
    /// Where the legend goes, chosen where it covers the least data (the SVG's place).
    pub legend: Legend,
    /// For a heat map, its value column and colour scale (the figure then has no series).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heatmap: Option<Heatmap>,
    /// Prose a study places after it (none after a paper's builtin figures).
    pub after: Vec<Prose>,
}

/// A heat map: one coloured cell per grid point (x, y), its colour the value in `column` on
/// a viridis scale from `min` to `max`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Heatmap {
    /// The y column of the CSV (the second parameter).
    pub y: Axis,
    /// The value column of the CSV.
    pub z: Axis,
    /// The least value, as an exact decimal (the colour scale's low end).
    pub min: String,
    /// The greatest value, likewise (the high end).
    pub max: String,
    /// How many distinct x values one row of the grid has (pgfplots' `mesh/cols`).
    pub cols: usize,
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
    /// A thin dashed line (a reference function the main curve is compared with, drawn
    /// under it).
    Dashed,
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

/// A vertical line as a figure draws it: its label beside it, on the side and in the row
/// where it meets no other label or line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlacedVLine {
    /// Where.
    pub x: i64,
    /// What it marks.
    pub label: String,
    /// The label's corner at the top of the line, as pgfplots names it: `north west` (the
    /// label right of the line) or `north east` (left of it).
    pub anchor: String,
    /// How many rows of text below the top the label sits.
    pub row: usize,
}

/// A legend's place: a point of the plotting area as fractions of its width and height from
/// the lower left (pgfplots' `at={(x,y)}`), and the legend's compass point put there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Legend {
    /// `x,y`, e.g. `0.03,0.97`.
    pub at: String,
    /// e.g. `north west`.
    pub anchor: String,
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
    /// The distance between ticks on the x axis: a whole number, so an axis of integers is
    /// never labelled at 1.5.
    pub x_step: i64,
    /// The distance between ticks on the y axis, likewise.
    pub y_step: i64,
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
    /// The top findings (the first errata, proven results and the builder's findings), as
    /// prose with `$…$` mathematics; empty when there is none.
    pub top: Vec<String>,
    /// The paper's identity.
    pub paper: Option<PaperIdentity>,
}

/// A study's report (`nimlab study run`): a researcher's own question, findings first — the
/// mined closed forms and the claims' verdicts — then the tables and the figures, with the
/// study's prose placed between them where its file puts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StudyReport {
    /// File stem and directory name.
    pub name: String,
    /// Title (prose with `$…$` mathematics).
    pub title: String,
    /// The authors.
    pub authors: Vec<String>,
    /// The abstract (prose).
    pub summary: String,
    /// What produced the report: nimlab's version and commit, the command, and the study
    /// file's path and SHA-256 among the parameters.
    pub provenance: Provenance,
    /// The mined closed forms, one entry per mining step, in file order.
    pub mined: Vec<MinedSection>,
    /// Prose placed after the mined forms.
    pub after_findings: Vec<Prose>,
    /// How many claims got each verdict (only verdicts that occur).
    pub counts: Vec<VerdictCount>,
    /// Every claim of the study (inline, then each claim file), in full.
    pub claims: Vec<ClaimEntry>,
    /// The claim files checked besides the inline claims, as given.
    pub claim_files: Vec<String>,
    /// Prose placed after the claims.
    pub after_claims: Vec<Prose>,
    /// The tables, each with the prose placed after it.
    pub tables: Vec<TableSection>,
    /// Prose placed after the tables.
    pub after_tables: Vec<Prose>,
    /// The figures, each with the prose placed after it.
    pub figures: Vec<Figure>,
    /// Prose placed after the figures.
    pub after_figures: Vec<Prose>,
    /// Prose at the end.
    pub at_end: Vec<Prose>,
    /// The study's BibTeX entries, verbatim.
    pub references: Vec<String>,
}

/// A prose section of a study, its quotes of computed values already filled in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Prose {
    /// Heading.
    pub title: String,
    /// Markdown with `$…$` mathematics.
    pub text: String,
}

/// One mining step's closed forms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MinedSection {
    /// The step's name.
    pub name: String,
    /// Its heading: the step's title, else its name.
    pub title: String,
    /// What was mined, in words: the columns, the table, how.
    pub what: String,
    /// One entry per mined column.
    pub forms: Vec<MinedForm>,
    /// The CSV file with one row per residue class.
    pub csv: String,
}

/// The closed form of one column, with its status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MinedForm {
    /// The column.
    pub column: String,
    /// OBSERVED, or NONE when no form was found.
    pub status: String,
    /// Where the form was found, in words with `$…$` mathematics.
    pub range: String,
    /// One `$…$` formula per residue class.
    pub formulas: Vec<String>,
    /// The re-verification beyond the data, in words (absent when none was asked for).
    pub verified: Option<String>,
}

/// A rendered atlas (`nimlab discover … --report DIR`): the space and its findings first (the
/// coverage, the new results), then the sections the space's atlas gives, each result stated as
/// mathematics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AtlasReport {
    /// Title.
    pub title: String,
    /// The space in words.
    pub space: String,
    /// Version, command, commit and parameters.
    pub provenance: Provenance,
    /// The findings in a few sentences.
    pub summary: Vec<AtlasFinding>,
    /// The results, grouped and ranked as the atlas ranks them.
    pub sections: Vec<AtlasSection>,
    /// The atlas's table, beside the report.
    pub csv: String,
    /// What one row of that table is about ("family", "move set").
    pub row: String,
    /// The atlas's other tables, beside the report.
    pub more_csv: Vec<AtlasCsv>,
}

/// One of an atlas's other tables: its file and what it holds, in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AtlasCsv {
    /// The file, beside the report.
    pub file: String,
    /// What it holds ("the laws across the space, one row per quantity and size").
    pub about: String,
}

/// One finding of an atlas's summary: `Coverage.` and its sentence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AtlasFinding {
    /// What it is about, a word or two (may be empty).
    pub label: String,
    /// Its sentence, Markdown with `$…$` mathematics.
    pub text: String,
}

/// A group of an atlas's results (new, known, broken, without a form).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AtlasSection {
    /// Heading.
    pub title: String,
    /// What the group holds and what its status means, Markdown with `$…$` mathematics.
    pub intro: String,
    /// Its results.
    pub items: Vec<AtlasItem>,
}

/// One result of an atlas: a family with its statements.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AtlasItem {
    /// Heading, Markdown with `$…$` mathematics.
    pub title: String,
    /// Displayed formulas (math bodies, no delimiters), each its own line.
    pub formulas: Vec<String>,
    /// Sentences after them, each Markdown with `$…$` mathematics.
    pub lines: Vec<String>,
}
