//! Studies: a researcher's own question in one TOML file — named computations (tables of any
//! kind a `nimlab` command prints), mining steps, claims, figures, quoted values and prose —
//! validated as a whole before anything runs (format in `data/studies/README.md`).
//!
//! - `file`: the raw schema and the validation pass ([`parse`](crate::study::parse), [`load`](crate::study::load)): every error is
//!   `path:line:col: message` with the line and a caret;
//! - `compute`: [`TableSpec`](crate::study::TableSpec), one typed variant per [`Kind`](crate::study::Kind) of table, computed through the same
//!   library functions as the CLI commands;
//! - `cost`: each computation's peak bytes and work from its parameters alone ([`Cost`](crate::study::Cost));
//!   [`Study::check_budget`](crate::study::Study::check_budget) refuses a study any of whose computations would exceed the memory
//!   budget, before any work;
//! - `cache`: a content-addressed [`Cache`](crate::study::Cache) of computed tables;
//! - `mine`: the mining steps, through the miner, re-verified beyond the data;
//! - `figures`: the figures, through the report layer's plots;
//! - `run`: the report of a study ([`render`](crate::study::render)): mined closed forms and
//!   claims first, then tables, figures and the prose, through the report layer's templates,
//!   in memory for an atomic install or a comparison.

mod cache;
mod compute;
mod cost;
mod figures;
mod file;
mod mine;
mod run;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use cache::{CACHE_VERSION, Cache, Source};
pub use compute::{
    Kind, MAX_LEAST_TABLE_N, MAX_STATE_TABLE_N, OctalRulesSpec, TableSpec, method_name,
    octal_ruleset,
};
pub use cost::Cost;
pub use figures::MAX_PWL_CURVES;
pub use file::{is_study_name, parse, quotes};
pub use run::{Declared, PartsOptions, Rendered, RunOptions, SHOWN_ROWS, declared, render};

use crate::claims::Registry;
use crate::claims::registry::located;
use crate::error::{Error, Result};
use crate::report::context::PaperIdentity;
use crate::tables::across::ACROSS_FORM_COLUMNS;
use crate::tables::mined::{FAMILY_FORM_COLUMNS, GRID_FORM_COLUMNS};

/// The `[study]` table: what the report says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// The output directory and file stem, `[a-z0-9-]+`.
    pub name: String,
    /// The title (Markdown with `$…$` math).
    pub title: String,
    /// The authors.
    pub authors: Vec<String>,
    /// The abstract (Markdown with `$…$` math).
    pub summary: String,
    /// BibTeX entries, cited by key in prose.
    pub references: Vec<String>,
    /// The study's own templates, if any (else the built-in ones).
    pub templates: Templates,
}

/// A study's own Markdown and LaTeX templates, each replacing the built-in `study.md` or
/// `study.tex`; they see the same context (`study`, documented in `data/studies/README.md`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Templates {
    /// Replaces `study.md`.
    pub md: Option<UserTemplate>,
    /// Replaces `study.tex` (LaTeX delimiters: `<< >>`, `<% %>`, `<# #>`).
    pub tex: Option<UserTemplate>,
}

impl Templates {
    /// Only the template of `kind`.
    pub fn one(kind: TemplateKind, template: UserTemplate) -> Templates {
        match kind {
            TemplateKind::Markdown => Templates {
                md: Some(template),
                tex: None,
            },
            TemplateKind::Latex => Templates {
                md: None,
                tex: Some(template),
            },
        }
    }
}

/// Which of a study's outputs a template renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TemplateKind {
    /// The Markdown report.
    Markdown,
    /// The LaTeX report.
    Latex,
}

/// A template file of a study: where it was read from and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserTemplate {
    /// The file, resolved against the study's directory.
    pub path: PathBuf,
    /// Its text.
    pub source: String,
}

/// A `[paper]` table: the study is a paper's report, rendered by the paper templates (what
/// `nimlab report` renders) from the paper's claim file and builtin parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperDecl {
    /// Which paper, in which version.
    pub identity: PaperIdentity,
    /// How the report cites it in a line ("Oginuma and Shinoda, Scoring Nim").
    pub cited: String,
    /// Its claim file, resolved against the study's directory.
    pub claims: PathBuf,
    /// The builtin parts ([`crate::papers::BUILTINS`]), in the order they are added.
    pub builtins: Vec<String>,
}

/// A `[[table]]`: one named computation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDecl {
    /// Its name, `[a-z_][a-z0-9_]*`.
    pub name: String,
    /// What to compute.
    pub spec: TableSpec,
    /// How the report shows it.
    pub display: TableDisplay,
    /// Where its name is in the file (a byte offset).
    pub at: usize,
}

/// How the report shows a table: its heading, its caption and its column headings, each the
/// study's own when given (text with `$…$` math).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableDisplay {
    /// The heading (else the table's name).
    pub title: Option<String>,
    /// The caption, set before the parameters in words (else those alone).
    pub caption: Option<String>,
    /// One heading per column, in order (empty: the column names).
    pub headers: Vec<String>,
}

/// How a mining step reads its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MineHow {
    /// Closed forms along a one-parameter family.
    Family,
    /// A periodic-linear closed form of a column as a sequence.
    Sequence,
    /// Closed forms of piecewise-linear payoffs.
    Pwl,
    /// Closed forms across a second parameter.
    Across,
}

impl MineHow {
    /// The step named `name` in a study file.
    pub fn from_name(name: &str) -> Option<MineHow> {
        match name {
            "family" => Some(MineHow::Family),
            "sequence" => Some(MineHow::Sequence),
            "pwl" => Some(MineHow::Pwl),
            "across" => Some(MineHow::Across),
            _ => None,
        }
    }
}

impl MineHow {
    /// The columns of the step's table (what values, figures and later steps may name): those
    /// `nimlab mine family … --format csv` prints, one row per residue class of each form; for
    /// `pwl` one row per parameter of the form over the grid; for `across` one row per quantity.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            MineHow::Pwl => &GRID_FORM_COLUMNS,
            MineHow::Across => &ACROSS_FORM_COLUMNS,
            MineHow::Family | MineHow::Sequence => &FAMILY_FORM_COLUMNS,
        }
    }
}

/// A `[[mine]]` step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MineDecl {
    /// Its name.
    pub name: String,
    /// Its heading in the report (text with `$…$` math), else its name.
    pub title: Option<String>,
    /// The table or mining step it reads.
    pub source: String,
    /// How.
    pub how: MineHow,
    /// The columns mined.
    pub columns: Vec<String>,
    /// The index column of a sequence, if named.
    pub index: Option<String>,
    /// How far beyond the data the forms are re-verified.
    pub verify_to: Option<i64>,
    /// Where its name is in the file.
    pub at: usize,
}

/// How a figure draws its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureStyle {
    /// Lines through the points.
    Line,
    /// Points.
    Points,
    /// Points coloured by the residue of x modulo the period.
    Residues {
        /// The modulus.
        period: u64,
    },
    /// Piecewise-linear functions with their breakpoints marked.
    Pwl,
    /// A value over two parameters.
    Heatmap,
}

/// A `[[figure]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureDecl {
    /// Its name.
    pub name: String,
    /// The table or mining step it draws.
    pub source: String,
    /// The x column.
    pub x: String,
    /// The y columns (a heatmap: the second parameter).
    pub y: Vec<String>,
    /// A heatmap's value column.
    pub z: Option<String>,
    /// How.
    pub style: FigureStyle,
    /// The caption (with `$…$` math).
    pub caption: String,
    /// Where its name is in the file (for errors found when it is drawn).
    pub at: usize,
}

/// A value a `where` filter asks a cell to equal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A whole number.
    Int(i64),
    /// Text (an exact rational such as `"1/2"`, or a word such as `"II"`).
    Text(String),
}

/// A `[[value]]`: one cell prose may quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueDecl {
    /// Its name, quoted as `{{ name }}`.
    pub name: String,
    /// The table or mining step.
    pub source: String,
    /// The column.
    pub column: String,
    /// The row: each column with the value it must have.
    pub row: Vec<(String, Key)>,
    /// Where its name is in the file (for errors found when it is looked up).
    pub at: usize,
}

/// A `[[bfile]]`: one column of a table as an OEIS-style b-file (`n a(n)` lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BfileDecl {
    /// The file's name in the report's directory, `….txt`.
    pub file: String,
    /// The table or mining step it reads.
    pub source: String,
    /// The index column n (whole numbers, increasing).
    pub index: String,
    /// The column of terms a(n) (whole numbers).
    pub column: String,
    /// What the sequence is (Markdown with `$…$` math).
    pub sequence: String,
    /// Where its file name is in the study file (for errors found when it is written).
    pub at: usize,
}

/// Where a prose section goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// After the findings.
    Findings,
    /// After the tables.
    Tables,
    /// After the figures.
    Figures,
    /// After the claims.
    Claims,
    /// At the end.
    End,
    /// After the named table.
    Table(String),
    /// After the named figure.
    Figure(String),
}

impl Placement {
    /// Reads `after = "…"`.
    pub fn parse(text: &str) -> Option<Placement> {
        Some(match text {
            "findings" => Placement::Findings,
            "tables" => Placement::Tables,
            "figures" => Placement::Figures,
            "claims" => Placement::Claims,
            "end" => Placement::End,
            _ => match text.split_once(':')? {
                ("table", name) => Placement::Table(name.to_string()),
                ("figure", name) => Placement::Figure(name.to_string()),
                _ => return None,
            },
        })
    }
}

/// A `[[section]]` of prose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionDecl {
    /// Its title.
    pub title: String,
    /// Where it goes.
    pub after: Placement,
    /// Markdown with `$…$` math and `{{ name }}` quotes.
    pub text: String,
}

/// A parsed, validated study file.
#[derive(Clone, Debug)]
pub struct Study {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its text (for located errors found later, such as a refused computation).
    src: Arc<str>,
    /// The `[study]` table.
    pub meta: Meta,
    /// The `[paper]` table, when the study is a paper's report.
    pub paper: Option<PaperDecl>,
    /// The computations, in file order.
    pub tables: Vec<TableDecl>,
    /// The mining steps.
    pub mines: Vec<MineDecl>,
    /// The inline claims (`define` and `[[claim]]`), checked by the claim-file parser.
    pub claims: Option<Registry>,
    /// Claim files named by `claims = [...]`, resolved against the study's directory.
    pub claim_files: Vec<PathBuf>,
    /// The figures.
    pub figures: Vec<FigureDecl>,
    /// The quotable values.
    pub values: Vec<ValueDecl>,
    /// The b-files.
    pub bfiles: Vec<BfileDecl>,
    /// The prose.
    pub sections: Vec<SectionDecl>,
}

/// Reads, parses and validates a study file.
pub fn load(path: &Path) -> Result<Study> {
    let src = std::fs::read_to_string(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    parse(path, &src)
}

impl Study {
    /// An error located at byte `at` of the study file.
    pub fn error_at(&self, at: usize, message: &str) -> Error {
        located(&self.path, &self.src, at, 1, message)
    }

    /// Every table's estimated cost, in file order; an estimate that cannot be made (a range
    /// the engine refuses) is an error at the table.
    pub fn costs(&self) -> Result<Vec<Cost>> {
        self.tables
            .iter()
            .map(|t| {
                t.spec.cost().map_err(|e| {
                    self.error_at(
                        t.at,
                        &format!("table `{}` ({}): {e}", t.name, t.spec.kind().name()),
                    )
                })
            })
            .collect()
    }

    /// Every table of the study through `cache`, in file order, each refused before any work
    /// when its estimate exceeds `max_bytes`; an error names the table and its place.
    pub fn compute_tables(
        &self,
        cache: &Cache,
        max_bytes: u64,
        progress: &dyn crate::progress::Progress,
    ) -> Result<Vec<crate::export::Table>> {
        self.check_budget(max_bytes)?;
        self.tables
            .iter()
            .map(|t| {
                progress.stage(&format!("table `{}`", t.name));
                cache
                    .table(&t.spec, max_bytes, progress)
                    .map(|(table, _)| table)
                    .map_err(|e| {
                        self.error_at(
                            t.at,
                            &format!("table `{}` ({}): {e}", t.name, t.spec.kind().name()),
                        )
                    })
            })
            .collect()
    }

    /// Refuses, before any work, a study any of whose tables would need more than `max_bytes`:
    /// the error names the table, its place, the estimate and the budget.
    pub fn check_budget(&self, max_bytes: u64) -> Result<Vec<Cost>> {
        let costs = self.costs()?;
        for (t, c) in self.tables.iter().zip(&costs) {
            if c.bytes > max_bytes {
                let too_large = Error::TooLarge {
                    what: format!("table `{}` ({})", t.name, t.spec.kind().name()),
                    needed_bytes: c.bytes,
                    limit_bytes: max_bytes,
                    suggestion: "narrow its parameters or raise --memory-limit".to_string(),
                };
                return Err(self.error_at(t.at, &too_large.to_string()));
            }
        }
        Ok(costs)
    }
}
