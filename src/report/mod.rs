//! Reproducible research reports: one per paper plus an index, rendered from Tera templates
//! (`templates/`) as Markdown and LaTeX, with the context itself as JSON, CSV data and SVG
//! figures, into `reports/`.
//!
//! Data flows one way: the engines and the claims checker fill serializable context structs
//! ([`context`], the contract with the templates); renderers are pure functions from contexts to
//! bytes ([`render`], [`escape`], [`plot`], [`data`]); only [`files`] touches the file system,
//! writing everything to a temporary directory and swapping it into place in one atomic step so
//! an interrupted render leaves the previous reports intact (and the next run cleans up).
//!
//! - [`context`]: the structs the templates see;
//! - [`escape`]: Markdown and LaTeX escaping, registered as Tera filters;
//! - [`render`]: the Tera renderers (Markdown and LaTeX from the same context) and its JSON;
//! - [`plot`]: SVG figures with plotters, their labels typeset by [`label`];
//! - [`data`]: one data table → its CSV, its SVG and its context;
//! - [`files`]: the rendered tree in memory, installed atomically or compared with a directory;
//! - [`pdf`]: the PDF of a rendered report, reproducibly, when pdflatex is installed.
//!
//! Nothing here names a game: the papers' builders ([`crate::papers`]) fill the contexts.

pub mod context;
pub mod data;
pub mod escape;
pub mod files;
pub mod label;
pub mod pdf;
pub mod plot;
pub mod render;

use std::path::Path;

use rayon::prelude::*;

pub use files::{Difference, Files};
pub use render::{Renderer, context_json};

use crate::error::{Error, Result};
use crate::progress::{Part, Progress};
use crate::study::Cache;
use context::{
    ClaimEntry, Commit, FormulaView, Index, IndexEntry, Parameter, Provenance, Report, Summary,
};

/// Options of a render.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// Use the claims' deep ranges and larger tables.
    pub deep: bool,
    /// Render only these reports (by name); all when empty.
    pub only: Vec<String>,
    /// The command that renders, as provenance and the reports' reproduction commands record
    /// it (`None`: `nimlab report` with these options).
    pub command: Option<String>,
    /// The nimlab commit rendered from, recorded in every provenance (`None`: not recorded).
    pub commit: Option<Commit>,
    /// Where the claims' verdicts are read back from and kept ([`Cache::verdicts`]); none by
    /// default.
    pub cache: Cache,
    /// The memory budget of each table a paper study declares (refused before any work above
    /// it); 8 GiB (`DEFAULT_MAX_BYTES`) by default.
    pub max_bytes: u64,
}

/// The memory budget of a paper study's declared tables unless a render says otherwise: the
/// CLI's `--memory-limit auto` on a machine with room.
pub const DEFAULT_MAX_BYTES: u64 = 8 << 30;

impl Default for ReportOptions {
    fn default() -> ReportOptions {
        ReportOptions {
            deep: false,
            only: Vec::new(),
            command: None,
            commit: None,
            cache: Cache::default(),
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// A paper's report with its data files (relative to the report's directory).
pub struct Paper {
    /// The context the templates render.
    pub report: Report,
    /// CSV and SVG files.
    pub files: Files,
}

/// A report builder: options and progress in, a paper out.
pub type Builder = Box<dyn Fn(&ReportOptions, &dyn Progress) -> Result<Paper> + Send + Sync>;

/// A paper's report rendered: its Markdown, LaTeX and context JSON beside its data files.
pub fn render_paper(renderer: &Renderer, paper: Paper, progress: &dyn Progress) -> Result<Files> {
    let name = paper.report.name.clone();
    let mut files = paper.files;
    let r = &paper.report;
    files.insert(
        &format!("{name}.md"),
        renderer.report_markdown(r)?.into_bytes(),
    )?;
    progress.advance(1);
    files.insert(
        &format!("{name}.tex"),
        renderer.report_latex(r)?.into_bytes(),
    )?;
    progress.advance(1);
    files.insert(&format!("{name}.json"), context_json(r)?)?;
    Ok(files)
}

/// Renders the reports `builders` make (those in `opts.only`, or all) and the index, in memory.
pub fn render_reports(
    builders: &[(String, Builder)],
    opts: &ReportOptions,
    progress: &dyn Progress,
) -> Result<Files> {
    if let Some(bad) = opts
        .only
        .iter()
        .find(|o| !builders.iter().any(|(n, _)| n == *o))
    {
        let names: Vec<&str> = builders.iter().map(|(n, _)| n.as_str()).collect();
        return Err(Error::invalid(format!(
            "no report is called \"{bad}\" (reports: {})",
            names.join(", ")
        )));
    }
    let renderer = Renderer::new()?;
    let chosen: Vec<_> = builders
        .iter()
        .filter(|(n, _)| opts.only.is_empty() || opts.only.iter().any(|o| o == n))
        .collect();
    // Two renders per report and the index.
    progress.add_work(2 * chosen.len() as u64 + 1);
    // The reports are independent: they are built side by side (each one's serial stretches
    // overlap the others' work) and rendered in order; the first error in order is reported.
    let papers: Vec<Result<Paper>> = chosen
        .par_iter()
        // One task per report (see `check_chosen` of the claims).
        .with_max_len(1)
        .map(|(_, build)| build(opts, &Part::new(progress)))
        .collect();
    let mut out = Files::new();
    let mut entries = Vec::new();
    for ((name, _), paper) in chosen.into_iter().zip(papers) {
        let paper = paper?;
        progress.stage(&format!("{name}: rendering"));
        let r = paper.report.clone();
        out.extend_under(name, render_paper(&renderer, paper, progress)?)?;
        entries.push(IndexEntry {
            name: r.name.clone(),
            title: r.title.clone(),
            source: r.source.clone(),
            counts: r
                .summary
                .counts
                .iter()
                .filter(|c| c.count > 0)
                .cloned()
                .collect(),
            figures: r.figures.len(),
            top: top_findings(&r.summary, TOP_FINDINGS),
            paper: r.provenance.paper.clone(),
        });
    }
    let index = Index {
        provenance: provenance(opts, Vec::new()),
        reports: entries,
    };
    out.insert("README.md", renderer.index_markdown(&index)?.into_bytes())?;
    out.insert("index.json", context_json(&index)?)?;
    out.insert(
        "all-reports.tex",
        renderer.combined_latex(&index)?.into_bytes(),
    )?;
    out.insert(
        "references.bib",
        renderer.bibliography(&index)?.into_bytes(),
    )?;
    progress.advance(1);
    Ok(out)
}

/// The longest labelled value (in characters of its source) the index shows with its label.
pub const INDEX_LABEL_LIMIT: usize = 120;

/// How many findings the index lists per report.
pub const TOP_FINDINGS: usize = 3;

/// A report's top findings, most important first: the errata and the new results by
/// importance (an erratum first at equal importance; at least one erratum when there are any),
/// then the builder's own findings; at most `max`. Claims with one headline are one finding.
pub fn top_findings(summary: &Summary, max: usize) -> Vec<String> {
    let erratum = |e: &ClaimEntry| {
        let mut s = format!("{} is false as stated", e.label);
        if let Some(c) = e.counterexample.as_ref().filter(|c| !c.point.is_empty()) {
            s.push_str(&format!(" (at {}", c.point));
            let mut shown: Vec<String> = c
                .false_claim
                .iter()
                .map(|f| {
                    // A short false comparison is named with its values; a long one is left
                    // to the entry.
                    if f.statement.is_empty() || f.statement.chars().count() > INDEX_LABEL_LIMIT {
                        f.reads.clone()
                    } else {
                        format!("the claimed {} is false, {}", f.statement, f.reads)
                    }
                })
                .chain(c.paired.iter().filter(|p| p.differs).map(|p| {
                    // A quantity named by a long formula is left to the entry.
                    let claimed = format!("claimed {}, found {}", p.claimed_value, p.found);
                    if p.quantity.chars().count() <= INDEX_LABEL_LIMIT {
                        format!("{}: {claimed}", p.quantity)
                    } else {
                        claimed
                    }
                }))
                .collect();
            // A false comparison or the quantities that differ say it; else the values.
            let values = if shown.is_empty() { &c.values[..] } else { &[] };
            shown.extend(values.iter().map(|v| {
                // A value named by a long formula is shown bare: the entry has the rest.
                let shown = if v.labelled.chars().count() <= INDEX_LABEL_LIMIT {
                    &v.labelled
                } else {
                    &v.value
                };
                format!("{} {shown}", v.side)
            }));
            if !shown.is_empty() && shown.len() <= 4 {
                s.push_str(&format!(": {}", shown.join(", ")));
            }
            s.push(')');
        }
        // A long corrected formula is left to the entry, which states it with its range.
        if let Some(c) = e.correction.as_ref().filter(|c| c.holds) {
            let corrected = formula_prose(&c.statement);
            if corrected.chars().count() <= 2 * INDEX_LABEL_LIMIT {
                s.push_str(&format!("; corrected: {corrected}"));
            } else {
                s.push_str("; corrected in the entry");
            }
        }
        s
    };
    // A report may list results of its own that a finite check supports: their verdict and
    // range are said, PROVEN only of what is.
    let proven = |e: &ClaimEntry| match (e.verdict.as_str(), &e.proof) {
        ("PROVEN", Some(_)) => format!("{}: PROVEN, with a proof sketch", e.label),
        (verdict, _) => format!("{}: {verdict} for {}", e.label, e.range),
    };
    // Errata and new results by importance (an erratum first at equal importance, each list
    // keeping its own order); claims sharing one headline are one finding.
    let rank = |e: &ClaimEntry| match e.importance.as_str() {
        "major" => 0,
        "normal" => 1,
        _ => 2,
    };
    let mut ranked: Vec<(usize, bool, &ClaimEntry)> = summary
        .errata
        .iter()
        .map(|e| (rank(e), true, e))
        .chain(summary.proven.iter().map(|e| (rank(e), false, e)))
        .collect();
    ranked.sort_by_key(|(r, is_erratum, _)| (*r, !*is_erratum));
    let mut groups: Vec<(bool, Vec<&ClaimEntry>)> = Vec::new();
    for (_, is_erratum, e) in ranked {
        match groups.iter_mut().find(|(_, g)| {
            e.headline.is_some() && g[0].headline == e.headline && g[0].verdict == e.verdict
        }) {
            Some((_, g)) => g.push(e),
            None => groups.push((is_erratum, vec![e])),
        }
    }
    let mut chosen: Vec<&(bool, Vec<&ClaimEntry>)> = groups.iter().take(max).collect();
    // A report with errata names at least one of them, however minor.
    if max > 0
        && !chosen.iter().any(|(is_erratum, _)| *is_erratum)
        && let Some(first) = groups.iter().find(|(is_erratum, _)| *is_erratum)
    {
        chosen.truncate(max - 1);
        chosen.push(first);
    }
    // A claim file's one-sentence headline says what was found; the verdict stays beside it.
    let text = |(is_erratum, g): &(bool, Vec<&ClaimEntry>)| match &g[0].headline {
        Some(h) => {
            let labels: Vec<&str> = g.iter().map(|e| e.label.as_str()).collect();
            format!("{} ({}): {h}", labels.join(", "), g[0].verdict)
        }
        None if *is_erratum => erratum(g[0]),
        None => proven(g[0]),
    };
    chosen
        .into_iter()
        .map(text)
        .chain(summary.findings.iter().cloned())
        .take(max)
        .collect()
}

/// A formula with its range and condition as one piece of prose: `$F$ for $R$ such that $C$`.
pub fn formula_prose(f: &FormulaView) -> String {
    let mut s = f.formula.clone();
    if let Some(range) = &f.range {
        s.push_str(&format!(" for {range}"));
    }
    if let Some(condition) = &f.condition {
        s.push_str(&format!(" such that {condition}"));
    }
    s
}

/// Renders every report into `dir`, replacing its previous contents atomically: nothing in
/// `dir` changes unless the whole render succeeded (see [`files::install`]; a `dir` that is a
/// symbolic link or not a directory is refused before anything is rendered).
pub fn write_reports(
    dir: &Path,
    builders: &[(String, Builder)],
    opts: &ReportOptions,
    progress: &dyn Progress,
) -> Result<()> {
    files::check_target(dir)?;
    let files = render_reports(builders, opts, progress)?;
    files::install(dir, &files)
}

/// The outcome of [`check_reports`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// How many files a fresh render has.
    pub files: usize,
    /// Every difference with the directory, in path order (none when it is up to date).
    pub differences: Vec<Difference>,
}

/// Renders every report and compares the result with `dir` byte for byte.
pub fn check_reports(
    dir: &Path,
    builders: &[(String, Builder)],
    opts: &ReportOptions,
    progress: &dyn Progress,
) -> Result<Checked> {
    let files = render_reports(builders, opts, progress)?;
    Ok(Checked {
        files: files.len(),
        differences: files::compare(dir, &files)?,
    })
}

/// The command that renders the reports with these options.
pub fn report_command(opts: &ReportOptions) -> String {
    if let Some(command) = &opts.command {
        return command.clone();
    }
    let mut c = String::from("nimlab report");
    if opts.deep {
        c.push_str(" --deep");
    }
    c
}

/// Provenance of a report: version, command and parameters (the claim ranges first).
pub fn provenance(opts: &ReportOptions, mut parameters: Vec<Parameter>) -> Provenance {
    let ranges = if opts.deep {
        "each claim's deep range, stated in its entry"
    } else {
        "each claim's range, stated in its entry"
    };
    parameters.insert(0, param("claim ranges", ranges));
    Provenance {
        version: env!("CARGO_PKG_VERSION").to_string(),
        command: report_command(opts),
        parameters,
        commit: opts.commit.clone(),
        paper: None,
    }
}

/// A parameter.
pub fn param(name: &str, value: impl Into<String>) -> Parameter {
    Parameter {
        name: name.to_string(),
        value: value.into(),
    }
}
