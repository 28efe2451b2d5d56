//! `nimlab study run`: a validated study and its computed tables in, the report's files out —
//! Markdown and LaTeX from the templates, the context as JSON, one CSV per table and per
//! mining step, and the figures (SVG, with pgfplots reading their CSV) — in memory, for the
//! caller to install atomically or compare with a directory.
//!
//! Why a separate pass from the computations: the tables come from the cache (or the engines)
//! before anything here runs, so a prose-only edit re-renders without recomputing; and every
//! error found here (a quoted value matching no row, a mined column that is not a number, a
//! figure value with no exact decimal) is an error at its place in the study file, found
//! before a byte is written.
//!
//! The mining steps ([`super::mine`]) and the figures ([`super::figures`]) have modules of
//! their own. Findings come first: the mined closed forms with their status, then the claims with their
//! verdicts and evidence (the claims checker itself, through the entries the paper reports
//! use), then the tables and the figures; prose goes where the file places it, its
//! `{{ name }}` quotes filled with the computed values. The miner and the report layer are
//! reached only through their generic interfaces: nothing here names a game.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::{Cache, Key, Placement, Study, TableSpec, quotes};
use crate::claims::typeset::rational_math;
use crate::claims::{Registry, VerdictKind};
use crate::error::Result;
use crate::export::{Cell, Format, Table};
use crate::num::Q;
use crate::progress::Progress;
use crate::report::context::{
    ClaimEntry, Commit, Figure, MinedSection, Parameter, Prose, Provenance, StudyReport,
    TableSection, VerdictCount,
};
use crate::report::data;
use crate::report::files::Files;
use crate::report::{Renderer, context_json, param};

/// How many rows of a table the report shows (its CSV has all of them).
pub const SHOWN_ROWS: usize = 30;

/// What a render needs besides the study and its tables.
pub struct RunOptions<'a> {
    /// Where tables computed for re-verification, and the claims' verdicts, come from and go.
    pub cache: &'a Cache,
    /// The memory budget of those computations.
    pub max_bytes: u64,
    /// The command that renders the report, as provenance records it.
    pub command: String,
    /// The nimlab commit rendered from (`None`: not recorded).
    pub commit: Option<Commit>,
}

/// A rendered study: its context and its files (relative to the report's directory).
pub struct Rendered {
    /// What the templates saw (also `<name>.json`).
    pub report: StudyReport,
    /// Every file of the report.
    pub files: Files,
}

impl Study {
    /// The hex SHA-256 of the study file's text, as provenance records it.
    pub fn sha256(&self) -> String {
        hex_sha256(&self.src)
    }
}

/// The hex SHA-256 of a text.
fn hex_sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the declared parts of a study need besides the study and its tables.
pub struct PartsOptions<'a> {
    /// Where tables computed for re-verification come from and go.
    pub cache: &'a Cache,
    /// The memory budget of those computations.
    pub max_bytes: u64,
    /// The command that writes the tables' CSV files, as each table's reproduce line names it.
    pub tables_command: String,
    /// The command that reproduces the figures' data.
    pub figures_command: String,
}

/// A study's declared parts, rendered: its mined closed forms, its tables and figures (each
/// with the prose placed after it) and the rest of its prose by place. A study's report and a
/// paper study's report both show these; they differ in their claims and their templates.
pub struct Declared {
    /// One section per mining step, in file order.
    pub mined: Vec<MinedSection>,
    /// Prose placed after the findings.
    pub after_findings: Vec<Prose>,
    /// Prose placed after the claims.
    pub after_claims: Vec<Prose>,
    /// The tables, in file order.
    pub tables: Vec<TableSection>,
    /// Prose placed after the tables.
    pub after_tables: Vec<Prose>,
    /// The figures, in file order.
    pub figures: Vec<Figure>,
    /// Prose placed after the figures.
    pub after_figures: Vec<Prose>,
    /// Prose at the end.
    pub at_end: Vec<Prose>,
}

/// Renders `study` from its computed `tables` (one per `[[table]]`, in file order).
pub fn render(
    study: &Study,
    tables: &[Table],
    opts: &RunOptions<'_>,
    progress: &dyn Progress,
) -> Result<Rendered> {
    let mut files = Files::new();
    let parts = PartsOptions {
        cache: opts.cache,
        max_bytes: opts.max_bytes,
        tables_command: tables_command(opts),
        figures_command: opts.command.clone(),
    };
    let declared = declared(study, tables, &parts, &mut files, progress)?;

    progress.stage("checking the claims");
    let (claims, counts) = claims(study, &opts.command, opts.cache, progress)?;

    let report = StudyReport {
        name: study.meta.name.clone(),
        title: study.meta.title.clone(),
        authors: study.meta.authors.clone(),
        summary: study.meta.summary.clone(),
        provenance: provenance(study, opts),
        mined: declared.mined,
        after_findings: declared.after_findings,
        counts,
        claims,
        claim_files: study.claim_files.iter().map(|p| shown_path(p)).collect(),
        after_claims: declared.after_claims,
        tables: declared.tables,
        after_tables: declared.after_tables,
        figures: declared.figures,
        after_figures: declared.after_figures,
        at_end: declared.at_end,
        references: study.meta.references.clone(),
    };
    progress.stage("rendering");
    let renderer = Renderer::for_study(&study.meta.templates)?;
    let name = &study.meta.name;
    // An error in the study's own template names its file (Tera knows it as study.md/.tex).
    let own = |t: &Option<super::UserTemplate>, e: crate::error::Error| match t {
        Some(t) => crate::error::Error::invalid(format!(
            "the study's template {}: {e}",
            shown_path(&t.path)
        )),
        None => e,
    };
    let templates = &study.meta.templates;
    let markdown = renderer
        .study_markdown(&report)
        .map_err(|e| own(&templates.md, e))?;
    let latex = renderer
        .study_latex(&report)
        .map_err(|e| own(&templates.tex, e))?;
    files.insert(&format!("{name}.md"), markdown.into_bytes())?;
    files.insert(&format!("{name}.tex"), latex.into_bytes())?;
    files.insert(&format!("{name}.json"), context_json(&report)?)?;
    if !report.references.is_empty() {
        let mut bib = report.references.join("\n\n");
        bib.push('\n');
        files.insert("references.bib", bib.into_bytes())?;
    }
    Ok(Rendered { report, files })
}

/// Renders the declared parts of `study` from its computed `tables` (one per `[[table]]`, in
/// file order): mines, quotes, lays out the tables and draws the figures, adding their CSV and
/// SVG files to `files`.
pub fn declared(
    study: &Study,
    tables: &[Table],
    opts: &PartsOptions<'_>,
    files: &mut Files,
    progress: &dyn Progress,
) -> Result<Declared> {
    assert_eq!(
        tables.len(),
        study.tables.len(),
        "one table per declaration"
    );
    let mut sources: BTreeMap<&str, Table> = study
        .tables
        .iter()
        .zip(tables)
        .map(|(d, t)| (d.name.as_str(), t.clone()))
        .collect();

    // Mining steps, each once what it reads is there (the file refuses cycles).
    let mut mined: BTreeMap<&str, (MinedSection, Table)> = BTreeMap::new();
    while mined.len() < study.mines.len() {
        let ready = study
            .mines
            .iter()
            .find(|m| !mined.contains_key(m.name.as_str()) && sources.contains_key(&*m.source))
            .expect("the study file has no cycle of mining steps");
        progress.stage(&format!("mining `{}`", ready.name));
        let (section, table) =
            super::mine::mine(study, ready, &sources[&*ready.source], opts, progress)?;
        files.insert(&section.csv, table.render(Format::Csv))?;
        sources.insert(&ready.name, table.clone());
        mined.insert(&ready.name, (section, table));
    }

    // What prose may quote: values, and mining steps (their formulas).
    let mut quoted: BTreeMap<&str, String> = BTreeMap::new();
    for v in &study.values {
        quoted.insert(&v.name, value_text(study, v, &sources[&*v.source])?);
    }
    for (name, (section, _)) in &mined {
        let formulas: Vec<String> = section
            .forms
            .iter()
            .flat_map(|f| f.formulas.iter().cloned())
            .collect();
        quoted.insert(name, formulas.join(", "));
    }

    let mut prose: BTreeMap<Slot, Vec<Prose>> = BTreeMap::new();
    for s in &study.sections {
        prose.entry(Slot::of(&s.after)).or_default().push(Prose {
            title: s.title.clone(),
            text: fill(&s.text, &quoted),
        });
    }
    let mut take = |slot: Slot| prose.remove(&slot).unwrap_or_default();

    let mut shown_tables = Vec::new();
    for (decl, table) in study.tables.iter().zip(tables) {
        // Structured cells (a piecewise-linear function) fill a line of their own:
        // the CSV has them, the displayed table leaves them out and says so.
        let hidden: Vec<String> = table
            .columns
            .iter()
            .enumerate()
            .filter(|(c, _)| table.rows.iter().any(|r| matches!(r[*c], Cell::Record(_))))
            .map(|(_, name)| name.clone())
            .collect();
        let mut caption = match &decl.display.caption {
            Some(own) => format!("{own} {}", spec_caption(&decl.spec)),
            None => spec_caption(&decl.spec),
        };
        if !hidden.is_empty() {
            caption.push_str(&format!(
                " The column{} {} (structured values) {} in the CSV file only.",
                if hidden.len() > 1 { "s" } else { "" },
                hidden
                    .iter()
                    .map(|h| format!("`{h}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if hidden.len() > 1 { "are" } else { "is" }
            ));
        }
        let mut section = data::table(
            data::TableSpec {
                title: decl
                    .display
                    .title
                    .clone()
                    .unwrap_or_else(|| decl.name.clone()),
                caption,
                csv: format!("{}.csv", decl.name),
                command: opts.tables_command.clone(),
                data: table.clone(),
                show: SHOWN_ROWS,
                headers: decl.display.headers.clone(),
                display: hidden
                    .into_iter()
                    .map(|h| (h, data::Shown::Hidden))
                    .collect(),
            },
            files,
        )?;
        section.after = take(Slot::Table(decl.name.clone()));
        shown_tables.push(section);
    }

    if !study.bfiles.is_empty() {
        let list = study
            .bfiles
            .iter()
            .map(|b| bfile(study, b, &sources[&*b.source], &opts.tables_command))
            .collect::<Result<Vec<_>>>()?;
        shown_tables.push(data::bfiles(list, files)?);
    }

    let mut figures = Vec::new();
    for f in &study.figures {
        progress.stage(&format!("drawing `{}`", f.name));
        let mut figure =
            super::figures::figure(study, f, &sources[&*f.source], &opts.figures_command, files)?;
        figure.after = take(Slot::Figure(f.name.clone()));
        figures.push(figure);
    }

    Ok(Declared {
        mined: study
            .mines
            .iter()
            .map(|m| mined[m.name.as_str()].0.clone())
            .collect(),
        after_findings: take(Slot::Findings),
        after_claims: take(Slot::Claims),
        tables: shown_tables,
        after_tables: take(Slot::Tables),
        figures,
        after_figures: take(Slot::Figures),
        at_end: take(Slot::End),
    })
}

/// Where a prose section goes, as a key of the generated parts.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Findings,
    Claims,
    Table(String),
    Tables,
    Figure(String),
    Figures,
    End,
}

impl Slot {
    fn of(p: &Placement) -> Slot {
        match p {
            Placement::Findings => Slot::Findings,
            Placement::Claims => Slot::Claims,
            Placement::Tables => Slot::Tables,
            Placement::Figures => Slot::Figures,
            Placement::End => Slot::End,
            Placement::Table(t) => Slot::Table(t.clone()),
            Placement::Figure(f) => Slot::Figure(f.clone()),
        }
    }
}

/// The command that writes the tables' CSV files alone.
fn tables_command(opts: &RunOptions<'_>) -> String {
    opts.command.replacen(" study run ", " study tables ", 1)
}

/// A path as reports print it: with `/`.
fn shown_path(path: &std::path::Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Provenance: version, commit, command, and the study file with its SHA-256.
fn provenance(study: &Study, opts: &RunOptions<'_>) -> Provenance {
    let mut parameters: Vec<Parameter> = vec![
        param("study file", shown_path(&study.path)),
        param("study file SHA-256", study.sha256()),
    ];
    parameters.extend(
        study
            .claim_files
            .iter()
            .map(|p| param("claim file", shown_path(p))),
    );
    let templates = &study.meta.templates;
    for (what, t) in [("Markdown", &templates.md), ("LaTeX", &templates.tex)] {
        if let Some(t) = t {
            parameters.push(param(&format!("{what} template"), shown_path(&t.path)));
            parameters.push(param(
                &format!("{what} template SHA-256"),
                hex_sha256(&t.source),
            ));
        }
    }
    Provenance {
        version: env!("CARGO_PKG_VERSION").to_string(),
        command: opts.command.clone(),
        parameters,
        commit: opts.commit.clone(),
        paper: None,
    }
}

/// A table's parameters in words, from its canonical form: `scoring.family: family = 2k+1,2k,1,
/// ranges = k = 1..8`.
fn spec_caption(spec: &TableSpec) -> String {
    fn shown(v: &serde_json::Value) -> Option<String> {
        Some(match v {
            serde_json::Value::Null => return None,
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(items) => {
                let parts: Vec<String> = items.iter().filter_map(shown).collect();
                format!("[{}]", parts.join(", "))
            }
            serde_json::Value::Object(fields) => fields
                .iter()
                .filter_map(|(k, v)| Some(format!("{k} = {}", shown(v)?)))
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        })
    }
    let canonical = spec.canonical();
    let params = shown(&canonical["params"]).unwrap_or_default();
    format!("`{}`: {params}.", spec.kind().name())
}

/// The exact numbers of a column, `None` at a cell that is not one.
pub(super) fn numbers(table: &Table, column: usize) -> Vec<Option<Q>> {
    table
        .rows
        .iter()
        .map(|r| match &r[column] {
            Cell::Int(n) => Some(Q::int(*n)),
            Cell::UInt(n) => i64::try_from(*n).ok().map(Q::int),
            Cell::Rational(q) => Some(q.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn column_index(table: &Table, name: &str) -> Option<usize> {
    table.columns.iter().position(|c| c == name)
}

/// The text a quote of value `v` becomes: a number as `$…$` mathematics, other cells as text.
fn value_text(study: &Study, v: &super::ValueDecl, table: &Table) -> Result<String> {
    let here = |message: String| study.error_at(v.at, &format!("value `{}`: {message}", v.name));
    let keys: Vec<(usize, &Key)> = v
        .row
        .iter()
        .map(|(c, k)| (column_index(table, c).expect("checked by the file"), k))
        .collect();
    let matches = |row: &[Cell]| keys.iter().all(|(c, k)| cell_is(&row[*c], k));
    let found: Vec<&Vec<Cell>> = table.rows.iter().filter(|r| matches(r)).collect();
    let wanted = || {
        v.row
            .iter()
            .map(|(c, k)| match k {
                Key::Int(n) => format!("{c} = {n}"),
                Key::Text(s) => format!("{c} = \"{s}\""),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let row = match found.as_slice() {
        [row] => row,
        [] => {
            return Err(here(format!(
                "no row of `{}` has {}",
                v.source,
                if v.row.is_empty() {
                    "any row".to_string()
                } else {
                    wanted()
                }
            )));
        }
        more => {
            return Err(here(format!(
                "{} rows of `{}` match{}; add columns to `where` so that one does",
                more.len(),
                v.source,
                if v.row.is_empty() {
                    String::new()
                } else {
                    format!(" {}", wanted())
                }
            )));
        }
    };
    let cell = &row[column_index(table, &v.column).expect("checked by the file")];
    Ok(match cell {
        Cell::Int(n) => format!("${n}$"),
        Cell::UInt(n) => format!("${n}$"),
        Cell::Rational(q) => format!("${}$", rational_math(q)),
        other => other.text(),
    })
}

/// The terms of a `[[bfile]]`: its index column's whole numbers, increasing, each with its
/// column's cell (whole numbers, which [`data::bfile_text`] checks as it writes them).
fn bfile(study: &Study, b: &super::BfileDecl, table: &Table, command: &str) -> Result<data::BFile> {
    let here = |message: String| study.error_at(b.at, &format!("b-file `{}`: {message}", b.file));
    let index = column_index(table, &b.index).expect("checked by the file");
    let column = column_index(table, &b.column).expect("checked by the file");
    let mut terms = Vec::with_capacity(table.rows.len());
    for row in &table.rows {
        let n = match &row[index] {
            Cell::Int(n) => Some(*n),
            Cell::UInt(n) => i64::try_from(*n).ok(),
            Cell::Rational(q) => q.to_i64(),
            _ => None,
        }
        .ok_or_else(|| {
            here(format!(
                "its index `{}` has `{}`, not a whole number",
                b.index,
                row[index].text()
            ))
        })?;
        if terms.last().is_some_and(|(last, _)| *last >= n) {
            return Err(here(format!(
                "its index `{}` does not increase from row to row (at {n})",
                b.index
            )));
        }
        terms.push((n, row[column].clone()));
    }
    let file = data::BFile {
        file: b.file.clone(),
        sequence: b.sequence.clone(),
        command: command.to_string(),
        terms,
    };
    // A term that is not a whole number is refused at the declaration, not deep in the writer.
    data::bfile_text(&file).map_err(|e| here(e.to_string()))?;
    Ok(file)
}

/// Whether a cell has the value a `where` asks for.
fn cell_is(cell: &Cell, key: &Key) -> bool {
    match (cell, key) {
        (Cell::Int(n), Key::Int(k)) => n == k,
        (Cell::UInt(n), Key::Int(k)) => i64::try_from(*n).is_ok_and(|n| n == *k),
        (Cell::Rational(q), Key::Int(k)) => *q == Q::int(*k),
        (Cell::Rational(q), Key::Text(s)) => s.parse::<Q>().is_ok_and(|s| s == *q),
        (other, Key::Text(s)) => other.text() == *s,
        (_, Key::Int(_)) => false,
    }
}

/// Prose with each `{{ name }}` replaced by its quoted text (the file checked every name).
fn fill(text: &str, quoted: &BTreeMap<&str, String>) -> String {
    debug_assert!(quotes(text).iter().all(|q| quoted.contains_key(q.as_str())));
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else { break };
        out.push_str(&rest[..open]);
        match quoted.get(after[..close].trim()) {
            Some(v) => out.push_str(v),
            None => out.push_str(&rest[open..open + 2 + close + 2]),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

/// Every claim of the study checked (through `cache`): the inline ones, then each claim
/// file's; their entries in order and the verdict counts.
fn claims(
    study: &Study,
    command: &str,
    cache: &Cache,
    progress: &dyn Progress,
) -> Result<(Vec<ClaimEntry>, Vec<VerdictCount>)> {
    let mut registries: Vec<(Registry, Option<String>)> = Vec::new();
    if let Some(r) = &study.claims {
        registries.push((r.clone(), None));
    }
    for f in &study.claim_files {
        registries.push((
            Registry::load(f)?,
            Some(format!("nimlab check {}", shown_path(f))),
        ));
    }
    let mut entries = Vec::new();
    let mut found: Vec<VerdictKind> = Vec::new();
    for (reg, check) in &registries {
        progress.add_work(reg.claims.len() as u64);
        let (findings, _) = cache.verdicts(reg, false, &[], progress)?;
        for f in &findings {
            let mut entry = crate::papers::claim_entry(reg, f, check.as_deref().unwrap_or(command));
            if check.is_none() {
                // An inline claim is checked by rendering the study, and has no claim file
                // for `nimlab prove --claim` to read.
                entry.reproduce = command.to_string();
                entry.certify = None;
            }
            entries.push(entry);
            found.push(f.verdict);
        }
    }
    let order = [
        VerdictKind::Holds,
        VerdictKind::Proven,
        VerdictKind::Fails,
        VerdictKind::Ambiguous,
        VerdictKind::Open,
    ];
    let counts = order
        .iter()
        .map(|k| VerdictCount {
            verdict: k.to_string(),
            count: found.iter().filter(|v| *v == k).count(),
        })
        .filter(|c| c.count > 0)
        .collect();
    Ok((entries, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_filled_and_the_rest_kept() {
        let quoted: BTreeMap<&str, String> = [("a", "$17$".to_string())].into_iter().collect();
        assert_eq!(
            fill("x {{ a }}, {{a}}; {{ b", &quoted),
            "x $17$, $17$; {{ b"
        );
    }

    #[test]
    fn a_where_compares_typed_cells() {
        assert!(cell_is(&Cell::Int(8), &Key::Int(8)));
        assert!(cell_is(
            &Cell::Rational(Q::frac(1, 2)),
            &Key::Text("1/2".into())
        ));
        assert!(cell_is(&Cell::Rational(Q::int(3)), &Key::Int(3)));
        assert!(cell_is(&Cell::Text("II".into()), &Key::Text("II".into())));
        assert!(!cell_is(&Cell::Text("8".into()), &Key::Int(8)));
    }
}
