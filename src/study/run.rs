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
//! Findings come first: the mined closed forms with their status, then the claims with their
//! verdicts and evidence (the claims checker itself, through the entries the paper reports
//! use), then the tables and the figures; prose goes where the file places it, its
//! `{{ name }}` quotes filled with the computed values. The miner and the report layer are
//! reached only through their generic interfaces: nothing here names a game.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::{
    Cache, FigureDecl, FigureStyle, Key, MineDecl, MineHow, Placement, Study, TableSpec, quotes,
};
use crate::claims::eval::Definitions;
use crate::claims::typeset::expr_math;
use crate::claims::typeset::{name_math, rational_math};
use crate::claims::{Finding, Registry, VerdictKind, check_registry};
use crate::error::Result;
use crate::export::{Cell, Format, Table};
use crate::miner::{BreakpointForms, FamilyForms, mine_family};
use crate::num::{Pwl, Q};
use crate::progress::Progress;
use crate::report::context::{
    Axis, ClaimEntry, Commit, MinedForm, MinedSection, Parameter, Prose, Provenance, Series,
    SeriesStyle, StudyFigure, StudyReport, StudyTable, VerdictCount,
};
use crate::report::data::{self, FigureSpec};
use crate::report::files::Files;
use crate::report::{Renderer, context_json, param};
use crate::tables::mined::{
    ZIGZAG_BEYOND, family_expr, family_forms_table, formulas_math, verify_closed_form,
};

/// How many rows of a table the report shows (its CSV has all of them).
pub const SHOWN_ROWS: usize = 30;

/// What a render needs besides the study and its tables.
pub struct RunOptions<'a> {
    /// Where tables computed for re-verification come from and go.
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
        Sha256::digest(self.src.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// Renders `study` from its computed `tables` (one per `[[table]]`, in file order).
pub fn render(
    study: &Study,
    tables: &[Table],
    opts: &RunOptions<'_>,
    progress: &dyn Progress,
) -> Result<Rendered> {
    assert_eq!(
        tables.len(),
        study.tables.len(),
        "one table per declaration"
    );
    let mut files = Files::new();
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
        let (section, table) = mine(study, ready, &sources[&*ready.source], opts, progress)?;
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

    progress.stage("checking the claims");
    let (claims, counts) = claims(study, &opts.command, progress)?;

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
        let mut caption = spec_caption(&decl.spec);
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
        let section = data::table(
            data::TableSpec {
                title: decl.name.clone(),
                caption,
                csv: format!("{}.csv", decl.name),
                command: tables_command(opts),
                data: table.clone(),
                show: SHOWN_ROWS,
                headers: Vec::new(),
                display: hidden
                    .into_iter()
                    .map(|h| (h, data::Shown::Hidden))
                    .collect(),
            },
            &mut files,
        )?;
        shown_tables.push(StudyTable {
            table: section,
            after: take(Slot::Table(decl.name.clone())),
        });
    }

    let mut figures = Vec::new();
    for f in &study.figures {
        progress.stage(&format!("drawing `{}`", f.name));
        let figure = figure(study, f, &sources[&*f.source], &opts.command, &mut files)?;
        figures.push(StudyFigure {
            figure,
            after: take(Slot::Figure(f.name.clone())),
        });
    }

    let report = StudyReport {
        name: study.meta.name.clone(),
        title: study.meta.title.clone(),
        authors: study.meta.authors.clone(),
        summary: study.meta.summary.clone(),
        provenance: provenance(study, opts),
        mined: study
            .mines
            .iter()
            .map(|m| mined[m.name.as_str()].0.clone())
            .collect(),
        after_findings: take(Slot::Findings),
        counts,
        claims,
        claim_files: study.claim_files.iter().map(|p| shown_path(p)).collect(),
        after_claims: take(Slot::Claims),
        tables: shown_tables,
        after_tables: take(Slot::Tables),
        figures,
        after_figures: take(Slot::Figures),
        at_end: take(Slot::End),
        references: study.meta.references.clone(),
    };
    progress.stage("rendering");
    let renderer = Renderer::new()?;
    let name = &study.meta.name;
    files.insert(
        &format!("{name}.md"),
        renderer.study_markdown(&report)?.into_bytes(),
    )?;
    files.insert(
        &format!("{name}.tex"),
        renderer.study_latex(&report)?.into_bytes(),
    )?;
    files.insert(&format!("{name}.json"), context_json(&report)?)?;
    if !report.references.is_empty() {
        let mut bib = report.references.join("\n\n");
        bib.push('\n');
        files.insert("references.bib", bib.into_bytes())?;
    }
    Ok(Rendered { report, files })
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
fn numbers(table: &Table, column: usize) -> Vec<Option<Q>> {
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

fn column_index(table: &Table, name: &str) -> Option<usize> {
    table.columns.iter().position(|c| c == name)
}

/// One mining step: the periodic-linear forms of its columns along the index (a family's
/// parameter, or a sequence's index column), re-verified on a larger table when `verify_to`
/// asks for it.
fn mine(
    study: &Study,
    m: &MineDecl,
    table: &Table,
    opts: &RunOptions<'_>,
    progress: &dyn Progress,
) -> Result<(MinedSection, Table)> {
    let here =
        |message: String| study.error_at(m.at, &format!("mining step `{}`: {message}", m.name));
    let how = match m.how {
        MineHow::Family => "along the family",
        MineHow::Sequence => "as sequences",
        MineHow::Pwl | MineHow::Across => {
            return Err(here(format!(
                "`how = \"{}\"` is validated but not rendered yet; use family or sequence",
                match m.how {
                    MineHow::Pwl => "pwl",
                    _ => "across",
                }
            )));
        }
    };
    let index = match &m.index {
        Some(i) => i.clone(),
        None => table
            .columns
            .first()
            .cloned()
            .ok_or_else(|| here(format!("the table `{}` has no columns", m.source)))?,
    };
    if m.how == MineHow::Family && m.index.is_none() {
        // A family's parameters come first; the miner reads one.
        let spec = study.tables.iter().find(|t| t.name == m.source);
        if let Some(params) = spec.and_then(|t| family_params(&t.spec))
            && params.len() > 1
        {
            return Err(here(format!(
                "mining along a family needs one parameter; the table `{}` has {}",
                m.source,
                params.join(", ")
            )));
        }
    }
    let (first, ks) = index_values(table, &index).map_err(here)?;
    let mut quantities = Vec::new();
    // At most one column of piecewise-linear functions (a payoff): its breakpoints and its
    // closed form in (N, index) are mined too.
    let mut functions: Option<(String, Vec<Option<Pwl>>)> = None;
    for c in &m.columns {
        let at = column_index(table, c).expect("the file checked the columns");
        if let Some(values) = numbers(table, at).into_iter().collect::<Option<Vec<Q>>>() {
            quantities.push((c.clone(), values));
            continue;
        }
        let fs: Option<Vec<Pwl>> = table.rows.iter().map(|r| r[at].as_pwl()).collect();
        match (fs, &functions) {
            (Some(fs), None) => functions = Some((c.clone(), fs.into_iter().map(Some).collect())),
            (Some(_), Some((other, _))) => {
                return Err(here(format!(
                    "one column of functions at a time: `{other}` and `{c}` both hold them"
                )));
            }
            (None, _) => {
                return Err(here(format!(
                    "the column `{c}` of `{}` holds neither exact numbers nor piecewise-linear functions in every row",
                    m.source
                )));
            }
        }
    }
    let forms: FamilyForms = mine_family(
        &index,
        first,
        &quantities,
        functions.as_ref().map(|(n, fs)| (n.as_str(), &fs[..])),
    );
    let last = *ks.last().expect("a non-empty index");
    let verified = match m.verify_to {
        None => None,
        Some(to) if to <= last => {
            return Err(here(format!(
                "verify_to = {to} is not beyond the data, which ends at {index} = {last}"
            )));
        }
        Some(to) => {
            let spec = study
                .tables
                .iter()
                .find(|t| t.name == m.source)
                .and_then(|t| t.spec.extended(&index, to))
                .ok_or_else(|| {
                    here(format!(
                        "verify_to needs a table whose `{index}` the study can extend; `{}` is not one",
                        m.source
                    ))
                })?;
            progress.stage(&format!("re-verifying `{}` to {index} = {to}", m.name));
            let (more, _) = opts
                .cache
                .table(&spec, opts.max_bytes, progress)
                .map_err(|e| here(format!("re-verification table: {e}")))?;
            Some((more, last + 1, to))
        }
    };
    let var = index.clone();
    let range = format!("${first} \\le {} \\le {last}$", name_math(&var));
    let mut shown = Vec::new();
    for q in &forms.quantities {
        let symbol = name_math(&q.name);
        let Some(fit) = &q.fit else {
            shown.push(MinedForm {
                column: q.name.clone(),
                status: "NONE".into(),
                range: range.clone(),
                formulas: Vec::new(),
                verified: None,
            });
            continue;
        };
        let verified = match &verified {
            None => None,
            Some((more, from, to)) => {
                Some(reverify(more, &index, &q.name, fit, *from, *to).map_err(here)?)
            }
        };
        shown.push(MinedForm {
            column: q.name.clone(),
            status: "OBSERVED".into(),
            range: range.clone(),
            formulas: formulas_math(fit, &symbol, &name_math(&var)),
            verified,
        });
    }
    if let Some((_, BreakpointForms::Progression { fits, .. })) = &forms.breakpoints {
        for q in fits {
            shown.push(MinedForm {
                column: q.name.clone(),
                status: if q.fit.is_some() { "OBSERVED" } else { "NONE" }.into(),
                range: range.clone(),
                formulas: q
                    .fit
                    .as_ref()
                    .map(|fit| formulas_math(fit, &name_math(&q.name), &name_math(&var)))
                    .unwrap_or_default(),
                verified: None,
            });
        }
    }
    if let Some((name, _)) = &functions {
        shown.push(closed_form(study, m, name, &forms, &var).map_err(|e| here(e.to_string()))?);
    }
    let section = MinedSection {
        name: m.name.clone(),
        what: format!(
            "{} of the table `{}` {how}, in ${}$",
            m.columns
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", "),
            m.source,
            name_math(&var)
        ),
        forms: shown,
        csv: format!("{}.csv", m.name),
    };
    Ok((section, family_forms_table(&forms)))
}

/// The closed form in (N, index) of a column of functions, when the miner finds one, re-verified
/// by the claims checker beyond the data when the functions are a Scoring family's payoffs.
fn closed_form(
    study: &Study,
    m: &MineDecl,
    column: &str,
    forms: &FamilyForms,
    var: &str,
) -> Result<MinedForm> {
    let Some(z) = &forms.closed else {
        return Ok(MinedForm {
            column: column.to_string(),
            status: "NONE".into(),
            range: format!(
                "${} \\le {} \\le {}$",
                forms.range.0,
                name_math(var),
                forms.range.1
            ),
            formulas: Vec::new(),
            verified: None,
        });
    };
    let expr = expr_math(&family_expr(&z.form, "N", var), &Definitions::new());
    let family = study
        .tables
        .iter()
        .find(|t| t.name == m.source)
        .and_then(|t| match &t.spec {
            TableSpec::ScoringFamily {
                family, grid: None, ..
            } => Some(family),
            _ => None,
        });
    let verified = family
        .map(|f| verify_closed_form(z, f))
        .transpose()?
        .map(|check| {
            format!(
                "re-verified by the claims checker on ${} \\le {} \\le {}$ ({ZIGZAG_BEYOND} beyond the data) at every half-integer $N$ from two below the first breakpoint to two beyond the last: {}, {}",
                check.from,
                name_math(var),
                check.to,
                check.finding.verdict,
                check.finding.evidence()
            )
        });
    Ok(MinedForm {
        column: column.to_string(),
        status: "OBSERVED".into(),
        range: format!("${} \\le {} \\le {}$", z.from, name_math(var), z.to),
        formulas: vec![format!("${}(N) = {expr}$", name_math(column))],
        verified,
    })
}

/// The parameters of a family table's spec, if it is one.
fn family_params(spec: &TableSpec) -> Option<Vec<String>> {
    match spec {
        TableSpec::ScoringFamily { ranges, .. } | TableSpec::CandyFamily { ranges, .. } => {
            Some(ranges.keys().cloned().collect())
        }
        _ => None,
    }
}

/// The index column's first value and values, which must be consecutive whole numbers.
fn index_values(table: &Table, index: &str) -> std::result::Result<(i64, Vec<i64>), String> {
    let at = column_index(table, index).ok_or_else(|| format!("no column `{index}`"))?;
    let ks: Vec<i64> = numbers(table, at)
        .into_iter()
        .map(|q| q.filter(Q::is_integer).and_then(|q| q.to_i64()))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("the index `{index}` is not a whole number in every row"))?;
    if ks.windows(2).any(|w| w[1] != w[0] + 1) {
        return Err(format!(
            "the index `{index}` must take consecutive values, one row each"
        ));
    }
    let first = *ks.first().ok_or("the table has no rows")?;
    Ok((first, ks))
}

/// Checks a form on the rows `from..=to` of the larger table: `HOLDS` in words, or where it
/// fails.
fn reverify(
    more: &Table,
    index: &str,
    column: &str,
    fit: &crate::miner::PeriodicLinear,
    from: i64,
    to: i64,
) -> std::result::Result<String, String> {
    let i = column_index(more, index).ok_or_else(|| format!("no column `{index}`"))?;
    let c = column_index(more, column).ok_or_else(|| format!("no column `{column}`"))?;
    let ks = numbers(more, i);
    let vs = numbers(more, c);
    let var = name_math(index);
    let mut checked = 0;
    for (k, v) in ks.iter().zip(&vs) {
        let (Some(k), Some(v)) = (k, v) else { continue };
        let Some(k) = k.to_i64().filter(|k| (from..=to).contains(k)) else {
            continue;
        };
        let predicted = fit.eval(k);
        if &predicted != v {
            return Ok(format!(
                "FAILS beyond the data: at ${var} = {k}$ the form gives ${}$, the table ${}$",
                rational_math(&predicted),
                rational_math(v)
            ));
        }
        checked += 1;
    }
    Ok(format!(
        "re-verified beyond the data on ${from} \\le {var} \\le {to}$ ({checked} new rows): HOLDS there, still OBSERVED"
    ))
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

/// Every claim of the study checked: the inline ones, then each claim file's; their entries in
/// order and the verdict counts.
fn claims(
    study: &Study,
    command: &str,
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
        let findings: Vec<Finding> = check_registry(reg, false, &[], progress)?;
        for f in &findings {
            let mut entry = crate::papers::claim_entry(reg, f, check.as_deref().unwrap_or(command));
            if check.is_none() {
                // An inline claim is checked by rendering the study.
                entry.reproduce = command.to_string();
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

/// The colours of a figure's series, in order (the plot layer knows each by name).
const COLOURS: [&str; 6] = ["blue", "red", "teal", "orange", "violet", "gray"];

/// A figure of a table's columns, drawn by the report layer.
fn figure(
    study: &Study,
    f: &FigureDecl,
    table: &Table,
    command: &str,
    files: &mut Files,
) -> Result<crate::report::context::Figure> {
    let here = |message: String| study.error_at(f.at, &format!("figure `{}`: {message}", f.name));
    if f.style == FigureStyle::Pwl {
        return pwl_figure(f, table, command, files).map_err(here);
    }
    let x = column_index(table, &f.x).ok_or_else(|| here(format!("no column `{}`", f.x)))?;
    let xs = numbers(table, x);
    if xs.iter().any(Option::is_none) {
        return Err(here(format!(
            "the x column `{}` does not hold a number in every row",
            f.x
        )));
    }
    let integer_x = xs.iter().flatten().all(Q::is_integer);
    let mut data = Table {
        columns: vec![f.x.clone()],
        rows: table.rows.iter().map(|r| vec![r[x].clone()]).collect(),
    };
    let mut series = Vec::new();
    let mut colour = COLOURS.iter().cycle();
    for y in &f.y {
        let c = column_index(table, y).ok_or_else(|| here(format!("no column `{y}`")))?;
        let ys = numbers(table, c);
        if ys.iter().all(Option::is_none) {
            return Err(here(format!("the column `{y}` holds no numbers to plot")));
        }
        match f.style {
            FigureStyle::Line | FigureStyle::Points => {
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
            FigureStyle::Residues { period } => {
                let p = i64::try_from(period).unwrap_or(i64::MAX);
                for r in 0..period.min(COLOURS.len() as u64 * 2) {
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
                if period > COLOURS.len() as u64 * 2 {
                    return Err(here(format!(
                        "a period of {period} gives more residue classes than a figure can tell apart (at most {})",
                        COLOURS.len() * 2
                    )));
                }
            }
            FigureStyle::Pwl => unreachable!("drawn by pwl_figure"),
            FigureStyle::Heatmap => {
                return Err(here(
                    "style \"heatmap\" is validated but not drawn yet; use line, points, residues or pwl"
                        .to_string(),
                ));
            }
        }
    }
    let y_label =
        f.y.iter()
            .map(|y| format!("${}$", name_math(y)))
            .collect::<Vec<_>>()
            .join(", ");
    data::figure(
        FigureSpec {
            id: f.name.clone(),
            title: f.name.clone(),
            caption: f.caption.clone(),
            command: command.to_string(),
            x: Axis {
                column: f.x.clone(),
                label: format!("${}$", name_math(&f.x)),
            },
            y_label,
            series,
            data,
            marks: None,
            vlines: Vec::new(),
        },
        files,
    )
    .map_err(|e| here(e.to_string()))
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
) -> std::result::Result<crate::report::context::Figure, String> {
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
    data::figure(
        FigureSpec {
            id: f.name.clone(),
            title: f.name.clone(),
            caption: f.caption.clone(),
            command: command.to_string(),
            x: Axis {
                column: "N".to_string(),
                label: "$N$".to_string(),
            },
            y_label: format!("${}(N)$", name_math(y)),
            series,
            data,
            marks: Some(data::MarkSpec {
                label: "breakpoints".to_string(),
                csv: format!("{}-breakpoints.csv", f.name),
                command: command.to_string(),
                data: marks,
            }),
            vlines: Vec::new(),
        },
        files,
    )
    .map_err(|e| e.to_string())
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
