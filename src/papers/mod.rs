//! The four papers' reports as paper studies: each paper is a study file
//! (`data/studies/<paper>.toml`) giving its identity, its claim file and its *builtins*, and
//! [`paper_report`] fills the generic [`Report`](crate::report::context::Report) context that
//! [`crate::report`] renders — the claims checked first, then each builtin in the study's
//! order. A builtin ([`BUILTINS`]) is what a study file cannot declare: the game files here ask
//! the engines for a paper's figures redrawn, its printed tables beside the exact ones and the
//! findings computed from them, and add them to the [`Draft`]. This file holds what they
//! share: every claim of a registry as a full entry (statement, the exact reading checked,
//! counterexample, extent, correction, note, proof sketch, a reproduce command), sorted into
//! the findings that open a report (errata, proven results, statements the paper itself says
//! are false) and the rest; the overview table; provenance and the summary counts. The report layer itself names no game; this module is where the papers meet
//! it. The tables the reports and the CLI print alike (family tables, mined and certified closed
//! forms) live in [`crate::tables`], which both call.

mod candy_nim;
mod nim_with_cash;
mod scoring_nim;
mod scoring_octal;

use std::path::Path;

use crate::claims::eval::Definitions;
use crate::claims::expr::{Domain, Expr, ExprKind};
use crate::claims::finding::{
    Counterexample, FailureExtent, Importance, Labelled, PaperStatus, Proof, Wording,
};
use crate::claims::induction::ProvableClaim;
use crate::claims::registry::{Assertion, Check, ExprCheck};
use crate::claims::sketch::{forms_table, shared_argument, sketch, sketch_referring};
use crate::claims::typeset::{
    PointForm, binders_math, check_parts, expr_math, is_literal, name_math, notation, operand_math,
    relation, value_math,
};
use crate::claims::value::Value;
use crate::claims::{Finding, Registry, VerdictKind};
use crate::error::{Error, Result};
use crate::export::{Cell, Format, Table};
use crate::progress::Progress;
use crate::report::context::{
    ClaimEntry, Command, ComparedValue, CorrectionView, CounterexampleView, FalseClaim, Figure,
    FormulaView, NotationEntry, PairedValue, Parameter, ProofGap, ReadingView, Report, Summary,
    TableSection, VerdictCount, VerdictRow, Verdicts,
};
use crate::report::files::Files;
use crate::report::{Builder, Paper, ReportOptions};
pub use crate::report::{param, provenance, report_command};
use crate::study::{PartsOptions, Study};

/// The paper studies `nimlab report` renders (`data/studies/<name>.toml`), in the order the
/// index lists them.
pub const PAPERS: [&str; 4] = ["scoring-nim", "scoring-octal", "candy-nim", "nim-with-cash"];

/// A builtin part of a paper study: what a study file cannot declare (the papers' redrawn
/// figures, their special tables and the findings computed from them), added to the draft of
/// the report in the order the study lists its builtins.
pub type Builtin = fn(&mut Draft, &ReportOptions, &dyn Progress) -> Result<()>;

/// Every builtin a paper study may name, with what it adds.
pub const BUILTINS: &[(&str, Builtin)] = &[
    ("scoring-nim.figures", scoring_nim::figures),
    (
        "scoring-nim.largest-breakpoints",
        scoring_nim::largest_breakpoints,
    ),
    (
        "scoring-nim.mined-family",
        scoring_nim::mined_family_section,
    ),
    ("scoring-octal.subtraction-4-5", scoring_octal::build),
    ("candy-nim.standard-forms", candy_nim::standard_forms),
    ("candy-nim.allocations", candy_nim::allocation_tables),
    ("nim-with-cash.set-3-5-6-10-11", nim_with_cash::build),
];

/// The names of the builtins, for messages.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS.iter().map(|(name, _)| *name).collect()
}

/// A paper's report being assembled: the verdicts come first (every builtin may add findings to
/// the summary), then each builtin appends its tables, figures, reproduction commands,
/// provenance parameters and files.
pub struct Draft {
    /// The claim registry the verdicts come from.
    pub claims: std::path::PathBuf,
    /// The summary, findings first.
    pub summary: Summary,
    /// The verdict table.
    pub verdicts: Verdicts,
    /// The tables, in order.
    pub tables: Vec<TableSection>,
    /// The figures, in order.
    pub figures: Vec<Figure>,
    /// The commands that reproduce the report's numbers.
    pub reproduce: Vec<Command>,
    /// The parameters provenance lists after the claim ranges.
    pub parameters: Vec<Parameter>,
    /// The report's data files.
    pub files: Files,
}

/// A paper study's report: its claims checked, then its builtins in order, under the title
/// and with the paper's identity the study file gives.
pub fn paper_report(study: &Study, opts: &ReportOptions, progress: &dyn Progress) -> Result<Paper> {
    let Some(paper) = &study.paper else {
        return Err(Error::invalid(format!(
            "{} is not a paper study (it has no [paper] table)",
            study.path.display()
        )));
    };
    let name = &study.meta.name;
    let mut files = Files::new();
    let (verdicts, summary) = verdicts(name, &paper.claims, opts, progress, &mut files)?;
    let mut draft = Draft {
        claims: paper.claims.clone(),
        summary,
        reproduce: common_commands(opts, &verdicts),
        verdicts,
        tables: Vec::new(),
        figures: Vec::new(),
        parameters: Vec::new(),
        files,
    };
    // The declared parts: tables through the cache, then mining, figures and prose.
    let computed = study.compute_tables(&opts.cache, opts.max_bytes, progress)?;
    let tables_command = format!("nimlab study tables {}", display(&study.path));
    let parts = PartsOptions {
        cache: &opts.cache,
        max_bytes: opts.max_bytes,
        tables_command: tables_command.clone(),
        figures_command: tables_command.clone(),
    };
    let declared = crate::study::declared(study, &computed, &parts, &mut draft.files, progress)?;
    if !study.tables.is_empty() {
        draft.reproduce.push(command(
            "The study's declared tables, one CSV file each",
            tables_command,
        ));
    }
    for wanted in &paper.builtins {
        let (_, builtin) = BUILTINS
            .iter()
            .find(|(n, _)| n == wanted)
            .expect("the study file names known builtins");
        builtin(&mut draft, opts, progress)?;
    }
    let mut provenance = provenance(opts, draft.parameters);
    provenance.paper = Some(paper.identity.clone());
    let mut tables = declared.tables;
    tables.append(&mut draft.tables);
    let mut figures = declared.figures;
    figures.append(&mut draft.figures);
    Ok(Paper {
        report: Report {
            name: name.clone(),
            title: study.meta.title.clone(),
            source: paper.cited.clone(),
            provenance,
            summary: draft.summary,
            mined: declared.mined,
            after_findings: declared.after_findings,
            verdicts: draft.verdicts,
            after_claims: declared.after_claims,
            tables,
            after_tables: declared.after_tables,
            figures,
            after_figures: declared.after_figures,
            at_end: declared.at_end,
            reproduce: draft.reproduce,
        },
        files: draft.files,
    })
}

/// The report builders of the paper studies in `dir` ([`PAPERS`], each `<name>.toml`), in the
/// index's order; a missing or invalid study file, or one that is not a paper study, is an
/// error naming it.
pub fn paper_reports(dir: &Path) -> Result<Vec<(String, Builder)>> {
    PAPERS
        .iter()
        .map(|name| {
            let study = crate::study::load(&dir.join(format!("{name}.toml")))?;
            if study.paper.is_none() || study.meta.name != *name {
                return Err(Error::invalid(format!(
                    "{}: expected the paper study `{name}` (a [paper] table and name = \"{name}\")",
                    study.path.display()
                )));
            }
            let build: Builder = Box::new(move |opts: &ReportOptions, progress: &dyn Progress| {
                paper_report(&study, opts, progress)
            });
            Ok((name.to_string(), build))
        })
        .collect()
}

/// The verdicts in the order counts are shown.
const VERDICT_ORDER: [VerdictKind; 5] = [
    VerdictKind::Holds,
    VerdictKind::Proven,
    VerdictKind::Fails,
    VerdictKind::Ambiguous,
    VerdictKind::Open,
];

/// A reproduction command.
pub fn command(what: &str, command: impl Into<String>) -> Command {
    Command {
        what: what.to_string(),
        command: command.into(),
    }
}

/// Where a claim's entry is sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// The paper asserts it and it is false.
    Erratum,
    /// A new result: proven for every n (a minor example excepted), or the checker's own.
    Proven,
    /// The paper itself says it is false.
    KnownFalse,
    /// Everything else, in file order.
    Other,
}

fn place(f: &Finding) -> Place {
    match (f.claim.commentary.in_paper, f.verdict) {
        (PaperStatus::KnownFalse, _) => Place::KnownFalse,
        (PaperStatus::Asserted, VerdictKind::Fails) => Place::Erratum,
        // A worked example the tool proves is confirmed, not a new result.
        (PaperStatus::Asserted, VerdictKind::Proven)
            if f.claim.commentary.importance == Importance::Minor =>
        {
            Place::Other
        }
        (PaperStatus::Asserted, VerdictKind::Proven) | (PaperStatus::NewResult, _) => Place::Proven,
        _ => Place::Other,
    }
}

/// The verdicts of `data/claims/<name>.toml` (a note when the file does not exist yet): every
/// claim as a full entry, sorted into the summary's findings and the rest, the overview rows,
/// the CSV (`verdicts.csv`, as `nimlab check --format csv` writes it) and the summary's counts.
pub fn verdicts(
    name: &str,
    path: &Path,
    opts: &ReportOptions,
    progress: &dyn Progress,
    files: &mut Files,
) -> Result<(Verdicts, Summary)> {
    let shown = display(path);
    let deep = if opts.deep { " --deep" } else { "" };
    let check = format!("nimlab check {shown}{deep} --format csv");
    let mut summary = Summary {
        errata: Vec::new(),
        proven: Vec::new(),
        findings: Vec::new(),
        known_false: Vec::new(),
        proof_gaps: Vec::new(),
        counts: Vec::new(),
        own_counts: Vec::new(),
    };
    if !path.exists() {
        let note = format!(
            "No claim registry yet: {shown} does not exist, so no claim of this paper was checked; the verdict table appears once it is written."
        );
        return Ok((
            Verdicts {
                registry: shown,
                command: check,
                note: Some(note),
                csv: None,
                rows: Vec::new(),
                own_results: 0,
                claims: Vec::new(),
                notation: Vec::new(),
            },
            summary,
        ));
    }
    progress.stage(&format!("{name}: checking claims"));
    let reg = Registry::load(path)?;
    progress.add_work(reg.claims.len() as u64);
    let (found, _) = opts.cache.verdicts(&reg, opts.deep, &[], progress)?;
    let mut table = Table::new(&["paper", "label", "verdict", "range", "evidence"]);
    // The paper's claims in its order, then nimlab's own results.
    let (mut rows, mut own_rows) = (Vec::new(), Vec::new());
    let mut claims = Vec::new();
    let mut errata: Vec<((Importance, u32), ClaimEntry)> = Vec::new();
    let mut proven: Vec<((Importance, u32), ClaimEntry)> = Vec::new();
    for f in &found {
        table.push(vec![
            Cell::Text(f.claim.paper.clone()),
            Cell::Text(f.claim.label.clone()),
            Cell::Text(f.verdict.to_string()),
            Cell::Text(f.range_text()),
            Cell::Text(f.evidence()),
        ]);
        let entry = claim_entry(&reg, f, &format!("nimlab check {shown}{deep}"));
        let rows = if f.claim.commentary.in_paper == PaperStatus::NewResult {
            &mut own_rows
        } else {
            &mut rows
        };
        rows.push(VerdictRow {
            id: entry.id.clone(),
            label: entry.label.clone(),
            anchor: entry.anchor.clone(),
            verdict: entry.verdict.clone(),
            range: entry
                .proven_for
                .clone()
                .unwrap_or_else(|| entry.range.clone()),
        });
        if let Some(gap) = &f.claim.commentary.proof_gap {
            summary.proof_gaps.push(ProofGap {
                label: entry.label.clone(),
                anchor: entry.anchor.clone(),
                verdict: entry.verdict.clone(),
                gap: gap.clone(),
            });
        }
        match place(f) {
            Place::Erratum => {
                let c = &f.claim.commentary;
                errata.push(((c.importance, c.rank.unwrap_or(u32::MAX)), entry))
            }
            Place::Proven => {
                let c = &f.claim.commentary;
                proven.push(((c.importance, c.rank.unwrap_or(u32::MAX)), entry))
            }
            Place::KnownFalse => summary.known_false.push(entry),
            Place::Other => claims.push(entry),
        }
    }
    rows.append(&mut own_rows);
    // Stable: equal importance and rank keep file order.
    errata.sort_by_key(|(importance, _)| *importance);
    summary.errata = errata.into_iter().map(|(_, e)| e).collect();
    // New results lead with the main ones, by rank, then in file order.
    proven.sort_by_key(|(importance, _)| *importance);
    summary.proven = proven.into_iter().map(|(_, e)| e).collect();
    // In the order a reader meets them: errata, new results, known false, the rest.
    share_sketches(
        summary
            .errata
            .iter_mut()
            .chain(&mut summary.proven)
            .chain(&mut summary.known_false)
            .chain(&mut claims),
        &found,
    );
    // The paper's claims are tallied apart from nimlab's own results, so the counts say what
    // the paper gets right and wrong.
    let own = |f: &&Finding| f.claim.commentary.in_paper == PaperStatus::NewResult;
    let tally = |own_results: bool| {
        VERDICT_ORDER
            .iter()
            .map(|k| VerdictCount {
                verdict: k.to_string(),
                count: found
                    .iter()
                    .filter(|f| own(f) == own_results && f.verdict == *k)
                    .count(),
            })
            .collect::<Vec<_>>()
    };
    summary.counts = tally(false);
    summary.own_counts = tally(true).into_iter().filter(|c| c.count > 0).collect();
    files.insert("verdicts.csv", table.render(Format::Csv))?;
    Ok((
        Verdicts {
            registry: shown,
            command: check,
            note: None,
            csv: Some("verdicts.csv".to_string()),
            rows,
            own_results: found
                .iter()
                .filter(|f| f.claim.commentary.in_paper == PaperStatus::NewResult)
                .count(),
            claims,
            notation: notation_entries(&reg, &found),
        },
        summary,
    ))
}

/// Sketches each argument several claims rest on (one forms file, one certificate) in full
/// under the first of them a reader meets, and lets every later one say what it adds and refer
/// back, so a report does not print the same paragraph once per claim.
fn share_sketches<'a>(entries: impl IntoIterator<Item = &'a mut ClaimEntry>, found: &[Finding]) {
    let mut sketched_under: Vec<(String, String)> = Vec::new();
    for entry in entries {
        let proof = found
            .iter()
            .find(|f| f.claim.id == entry.id)
            .and_then(|f| f.proof.as_ref());
        let Some((proof, argument)) = proof.and_then(|p| Some((p, shared_argument(p)?))) else {
            continue;
        };
        match sketched_under.iter().find(|(a, _)| *a == argument) {
            Some((_, first)) => {
                entry.proof = Some(sketch_referring(proof, first));
                entry.proof_table = None;
            }
            None => sketched_under.push((argument, entry.label.clone())),
        }
    }
}

/// One claim in full, from its finding and the registry's definition of it. `check` is the
/// command that checks the registry (`--only <id>` is added).
pub fn claim_entry(reg: &Registry, f: &Finding, check: &str) -> ClaimEntry {
    let defs = &reg.definitions;
    // The claim file's way of stating a point in the paper's terms (checked when it was read).
    let form = f
        .claim
        .commentary
        .point
        .as_deref()
        .and_then(|t| PointForm::new(t).ok());
    let form = form.as_ref();
    let claim = reg.claims.iter().find(|c| c.id == f.claim.id);
    let expr_check = claim.and_then(|c| match &c.check {
        Check::Expr(e) => Some(e.as_ref()),
        _ => None,
    });
    let readings = f
        .readings
        .iter()
        .map(|r| {
            let check = claim.and_then(|c| match &c.check {
                Check::Readings(rs) => rs.iter().find(|x| x.name == r.name),
                _ => None,
            });
            // The claim shows the counterexample of the reading that makes it fail: the
            // reading then refers to it rather than repeating it.
            let shared =
                r.finding.counterexample.is_some() && r.finding.counterexample == f.counterexample;
            ReadingView {
                name: r.name.clone(),
                literal: r.literal,
                reading: check.map(|c| formula_view(&c.check, defs)),
                verdict: r.finding.verdict.to_string(),
                points: points_text(&r.finding),
                counterexample: r
                    .finding
                    .counterexample
                    .as_ref()
                    .filter(|_| !shared)
                    .map(|c| counterexample_view(c, defs, form)),
                fails_at_claims_counterexample: shared,
                extent: r
                    .finding
                    .extent
                    .as_ref()
                    .filter(|_| !shared)
                    .and_then(extent_text),
                correction: correction_view(&r.finding, check.map(|c| &c.check), defs, form),
                evidence: match r.finding.wording {
                    Wording::Sentence(_) => Some(r.finding.evidence()),
                    Wording::Sweep { .. } => None,
                },
            }
        })
        .collect();
    // A sweep's sentence is rebuilt above from its parts; a builtin's own sentence is kept.
    let evidence = match f.wording {
        Wording::Sentence(_) if f.readings.is_empty() => Some(f.evidence()),
        _ => None,
    };
    ClaimEntry {
        id: f.claim.id.clone(),
        label: f.claim.label.clone(),
        anchor: anchor(&f.claim.id),
        statement: f.claim.statement.clone(),
        reading: expr_check.map(|c| formula_view(c, defs)),
        verdict: f.verdict.to_string(),
        headline: f.claim.commentary.headline.clone(),
        importance: match f.claim.commentary.importance {
            Importance::Major => "major",
            Importance::Normal => "normal",
            Importance::Minor => "minor",
        }
        .to_string(),
        range: entry_range(reg, f, claim.map(|c| &c.check)),
        proven_for: f
            .proof
            .as_ref()
            .and_then(|p| p.domain())
            .map(str::to_string),
        points: points_text(f),
        counterexample: f
            .counterexample
            .as_ref()
            .map(|c| counterexample_view(c, defs, form)),
        extent: f.extent.as_ref().and_then(extent_text),
        correction: correction_view(f, expr_check, defs, form),
        note: f.claim.commentary.note.clone(),
        readings,
        evidence,
        tables: f.tables.clone(),
        proof: f.proof.as_ref().map(sketch),
        proof_table: f.proof.as_ref().and_then(forms_table),
        reproduce: format!("{check} --only {}", f.claim.id),
        // Only a claim proven for every value that `nimlab prove --claim` accepts, so the
        // command printed is one that runs.
        certify: f
            .proof
            .as_ref()
            .filter(|p| matches!(p, Proof::Induction { .. } | Proof::Direct { .. }))
            .filter(|_| ProvableClaim::find(reg, &f.claim.id).is_ok())
            .map(|_| {
                let id = &f.claim.id;
                format!(
                    "nimlab prove {} --claim {id} --certificate {id}/ && nimlab mine replay {id}/",
                    display(&reg.path)
                )
            }),
    }
}

/// The range of a claim's entry, with the condition a point must meet: for a claim read
/// several ways, the range of the statement as printed (the first reading when none is marked
/// so); each reading shows its own under it.
fn entry_range(reg: &Registry, f: &Finding, check: Option<&Check>) -> String {
    let (finding, expr_check) = match check {
        Some(Check::Readings(rs)) => {
            let chosen = rs.iter().find(|r| r.literal).or(rs.first());
            let reading = chosen.and_then(|c| f.readings.iter().find(|r| r.name == c.name));
            match (chosen, reading) {
                (Some(c), Some(r)) => (&r.finding, Some(&c.check)),
                _ => (f, None),
            }
        }
        Some(Check::Expr(e)) => (f, Some(e.as_ref())),
        _ => (f, None),
    };
    let mut s = range_math(reg, finding);
    if let Some(condition) = expr_check.and_then(|c| c.filter.as_ref()) {
        s.push_str(&format!(
            " such that {}",
            math(&expr_math(condition, &reg.definitions))
        ));
    }
    s
}

/// An expression check as mathematics: its formula, range and condition, each `$…$`.
fn formula_view(check: &ExprCheck, defs: &Definitions) -> FormulaView {
    let parts = check_parts(check, defs);
    FormulaView {
        formula: check
            .in_words
            .clone()
            .unwrap_or_else(|| math(&parts.formula)),
        range: parts.range.as_deref().map(math),
        condition: parts.condition.as_deref().map(math),
    }
}

/// The points a finding checked, in words. Points outside a claim's hypotheses, which a
/// `where` passes over, are not counted: the range and condition say which points count.
fn points_text(f: &Finding) -> Option<String> {
    f.points.map(|p| {
        let mut s = plural(p.checked, "point") + " checked";
        match (&f.counterexample, &f.extent) {
            (Some(_), Some(e)) if e.failing.len() + e.holding.len() > 1 => s.push_str(&format!(
                ", each value of {} up to its first failure",
                math(&name_math(&e.variable))
            )),
            (Some(_), _) => s.push_str(", up to the first failure"),
            (None, _) => {}
        }
        s
    })
}

/// A finding's corrected statement, stated as the expression check `check` with the
/// correction in place of the claimed side (the correction alone when there is no check).
fn correction_view(
    f: &Finding,
    check: Option<&ExprCheck>,
    defs: &Definitions,
    form: Option<&PointForm>,
) -> Option<CorrectionView> {
    f.correction.as_ref().map(|corr| CorrectionView {
        statement: match check.and_then(|c| corrected(c, &corr.expr)) {
            Some(c) => formula_view(&c, defs),
            None => FormulaView {
                formula: math(&expr_math(&corr.expr, defs)),
                range: None,
                condition: None,
            },
        },
        holds: corr.holds(),
        checked: corr.checked,
        failure: corr
            .counterexample
            .as_ref()
            .map(|c| counterexample_view(c, defs, form)),
    })
}

/// The Notation list of a report: every helper with a display form that the formulas shown
/// for its claims use (what each checks, its readings, corrections and counterexample labels),
/// in order of first use.
fn notation_entries(reg: &Registry, found: &[Finding]) -> Vec<NotationEntry> {
    let mut exprs: Vec<&Expr> = Vec::new();
    for c in &reg.claims {
        match &c.check {
            Check::Expr(e) => exprs.extend(check_exprs(e)),
            Check::Readings(rs) => rs.iter().for_each(|r| exprs.extend(check_exprs(&r.check))),
            Check::Builtin(_) => {}
        }
    }
    for f in found {
        for g in std::iter::once(f).chain(f.readings.iter().map(|r| &r.finding)) {
            exprs.extend(g.correction.iter().map(|c| &c.expr));
            let counterexamples = g
                .counterexample
                .iter()
                .chain(g.correction.iter().flat_map(|c| c.counterexample.iter()));
            for c in counterexamples {
                let labelled = c.expected.iter().chain(c.actual.iter());
                exprs.extend(labelled.filter_map(|l| l.expr.as_ref()));
            }
        }
    }
    // Helpers that mean the same (the two- and three-pile forms of one notion) are one entry,
    // their forms listed together, in order of first appearance.
    let mut entries: Vec<(Vec<String>, String)> = Vec::new();
    for (symbol, meaning) in notation(&exprs, &reg.definitions) {
        match entries.iter_mut().find(|(_, m)| *m == meaning) {
            // One symbol for one notion (ℓ of §6 and of §7) is listed once.
            Some((symbols, _)) => {
                if !symbols.contains(&math(&symbol)) {
                    symbols.push(math(&symbol));
                }
            }
            None => entries.push((vec![math(&symbol)], meaning)),
        }
    }
    entries
        .into_iter()
        .map(|(symbols, meaning)| NotationEntry {
            symbol: symbols.join(", "),
            meaning,
        })
        .collect()
}

/// The expressions a report shows for an expression check: what it tests, its correction,
/// its condition and its range's bounds.
fn check_exprs(check: &ExprCheck) -> Vec<&Expr> {
    let mut out = Vec::new();
    // A check said in words shows no formula, so its helpers need no Notation entry.
    let shown = check.in_words.is_none();
    match &check.assertion {
        Assertion::Holds(e) => out.extend(Some(e).filter(|_| shown)),
        Assertion::Equal {
            actual,
            expected,
            correction,
            ..
        } => {
            if shown {
                out.extend([actual, expected]);
            }
            out.extend(correction.as_ref().map(|(_, e)| e));
        }
    }
    out.extend(check.filter.as_ref());
    for b in &check.range.binders {
        match &b.domain {
            Domain::Interval { from, to, step } => {
                out.extend([from, to]);
                out.extend(step.as_ref());
            }
            Domain::Members(list) => out.push(list),
        }
    }
    out
}

/// The expression check with `expected` replaced by a correction (`None` for a truth-valued
/// check, which has no expected side).
fn corrected(check: &ExprCheck, correction: &Expr) -> Option<ExprCheck> {
    match &check.assertion {
        Assertion::Equal {
            actual, quantities, ..
        } => Some(ExprCheck {
            assertion: Assertion::Equal {
                actual: actual.clone(),
                expected: correction.clone(),
                correction: None,
                quantities: quantities.clone(),
            },
            // The words describe the claimed side, not the correction.
            in_words: None,
            ..check.clone()
        }),
        Assertion::Holds(_) => None,
    }
}

/// The anchor of a claim's entry: its id, lower case, with `-` for anything but letters and
/// digits (ids are unique in a file).
pub fn anchor(id: &str) -> String {
    let body: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("claim-{body}")
}

/// `$…$` around a math body.
fn math(body: &str) -> String {
    format!("${body}$")
}

/// The range as prose: each part's quantifiers as mathematics, or its words.
fn range_math(reg: &Registry, f: &Finding) -> String {
    f.range
        .iter()
        .map(|p| {
            if p.binders.is_empty() {
                p.text.clone()
            } else {
                math(&binders_math(&p.binders, &reg.definitions))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn plural(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A counterexample with its point as mathematics and every value labelled: quantities
/// compared one by one (a claim's `quantities`, or the components of compared list literals)
/// as rows claimed beside found; a false comparison with its sides' values put in; any other
/// value as a row of its own.
fn counterexample_view(
    c: &Counterexample,
    defs: &Definitions,
    form: Option<&PointForm>,
) -> CounterexampleView {
    let point = form.and_then(|f| f.fill(&c.point)).unwrap_or_else(|| {
        c.point
            .iter()
            .map(|(n, v)| format!("{} = {}", name_math(n), value_math(v)))
            .collect::<Vec<_>>()
            .join(",\\ ")
    });
    let paired = paired_values(c, defs);
    let (false_claim, named) = match paired.is_empty().then(|| false_claim(c, defs)).flatten() {
        Some((claim, named)) => (Some(claim), named),
        None => (None, Vec::new()),
    };
    let side = |side: &str, values: &[Labelled]| {
        values
            .iter()
            .map(|l| {
                let value = value_math(&l.value);
                // An expression's value is named by the expression typeset (helpers by
                // their display forms); a builtin's by its own words.
                let (label, labelled) = match &l.expr {
                    // A literal names nothing beyond its value.
                    Some(e) if is_literal(e) => (math(&expr_math(e, defs)), math(&value)),
                    Some(e) => (
                        math(&expr_math(e, defs)),
                        math(&format!("{} = {value}", operand_math(e, defs))),
                    ),
                    None => (l.label.clone(), format!("{}: {}", l.label, math(&value))),
                };
                ComparedValue {
                    side: side.to_string(),
                    label,
                    value: math(&value),
                    labelled,
                }
            })
            .collect::<Vec<_>>()
    };
    let mut values = Vec::new();
    // A false equation of two values says everything in its sentence; a false comparison
    // lists what was found for its sides.
    let equation = false_equation(c, defs);
    if paired.is_empty() && equation.is_none() {
        if false_claim.is_none() {
            values.extend(side("claimed", &c.expected));
        }
        // A side the false comparison names with its value needs no row of its own.
        let unnamed: Vec<Labelled> = c
            .actual
            .iter()
            .filter(|l| !l.expr.as_ref().is_some_and(|e| named.contains(e)))
            .cloned()
            .collect();
        values.extend(side("found", &unnamed));
    }
    let false_claim = false_claim.or(equation);
    CounterexampleView {
        point: if point.is_empty() {
            String::new()
        } else {
            math(&point)
        },
        values,
        paired,
        false_claim,
    }
}

/// The rows of a counterexample whose two sides list the same quantities: named by the claim's
/// `quantities` (the same label on both sides), or components of list literals (the found
/// side's expression names the quantity; the claimed side's expression is shown with its
/// value). Empty when the sides do not pair up.
fn paired_values(c: &Counterexample, defs: &Definitions) -> Vec<PairedValue> {
    let (x, a) = (&c.expected, &c.actual);
    let named = x.len() == a.len()
        && x.iter()
            .zip(a)
            .all(|(p, q)| p.expr.is_none() && q.expr.is_none() && p.label == q.label);
    let components =
        x.len() == a.len() && x.len() > 1 && x.iter().chain(a).all(|l| l.expr.is_some());
    if x.is_empty() || !(named || components) {
        return Vec::new();
    }
    x.iter()
        .zip(a)
        .map(|(claimed, found)| {
            let value = value_math(&claimed.value);
            let (quantity, claimed_text) = match (&claimed.expr, &found.expr) {
                (Some(ce), Some(fe)) => (
                    math(&expr_math(fe, defs)),
                    if is_literal(ce) {
                        math(&value)
                    } else {
                        math(&format!("{value} = {}", expr_math(ce, defs)))
                    },
                ),
                _ => (found.label.clone(), math(&value)),
            };
            PairedValue {
                quantity,
                claimed: claimed_text,
                claimed_value: math(&value),
                found: math(&value_math(&found.value)),
                differs: claimed.value != found.value,
            }
        })
        .collect()
}

/// The longest side (in characters of its LaTeX) a false comparison or equation names beside
/// its value; a longer formula is left to the statement.
const SHORT_SIDE: usize = 80;

/// A claimed comparison that is false at the counterexample, with the values found for its two
/// sides put in (`V(\dots) = 6 < 9 = 2a(m-1) + 3a` for the claimed `V \ge 2a(m-1) + 3a`), and
/// the sides it names with their values (so they need no row of their own): `None` unless the
/// claim's false part is one comparison whose sides are literals or among the values found.
fn false_claim(c: &Counterexample, defs: &Definitions) -> Option<(FalseClaim, Vec<Expr>)> {
    let [claimed] = c.expected.as_slice() else {
        return None;
    };
    let (Value::Bool(true), Some(e)) = (&claimed.value, &claimed.expr) else {
        return None;
    };
    let ExprKind::Compare(left, rest) = &e.kind else {
        return None;
    };
    let [(op, right)] = rest.as_slice() else {
        return None;
    };
    let mut named = Vec::new();
    // A side as its value, or as `side = value` when it is a short formula.
    let mut side_math = |side: &Expr, left: bool| -> Option<String> {
        if is_literal(side) {
            return Some(expr_math(side, defs));
        }
        let side = side.unplaced();
        let value = c
            .actual
            .iter()
            .find(|l| l.expr.as_ref() == Some(&side))
            .map(|l| value_math(&l.value))?;
        let formula = operand_math(&side, defs);
        if formula.chars().count() > SHORT_SIDE {
            return Some(value);
        }
        named.push(side);
        Some(if left {
            format!("{formula} = {value}")
        } else {
            format!("{value} = {formula}")
        })
    };
    let reads = format!(
        "{} {} {}",
        side_math(left, true)?,
        relation(op.negated()),
        side_math(right, false)?
    );
    // With both sides named the line says it all: `V(G) = 340 \ne 344 = V'(G)`.
    let statement = if named.len() == 2 {
        String::new()
    } else {
        math(&expr_math(e, defs))
    };
    Some((
        FalseClaim {
            statement,
            reads: math(&reads),
        },
        named,
    ))
}

/// A claimed equation between two single values that is false at the counterexample, as the
/// two sides with their values, $f_{-1/2}(1,1,1) = \tfrac12 \ne -\tfrac12 = f_{-3/2}(1,1,1)$
/// — rather than calling one side "claimed" and the other "found" when both are computed. A
/// claimed side that is a long formula is named in words. `None` unless each side is one value
/// named by an expression and the claimed value is not a truth value (a truth-valued check is
/// stated by [`false_claim`]).
fn false_equation(c: &Counterexample, defs: &Definitions) -> Option<FalseClaim> {
    let ([claimed], [found]) = (c.expected.as_slice(), c.actual.as_slice()) else {
        return None;
    };
    let (Some(claimed_expr), Some(found_expr)) = (&claimed.expr, &found.expr) else {
        return None;
    };
    if matches!(claimed.value, Value::Bool(_)) {
        return None;
    }
    let sides = format!(
        "{} = {} \\ne {}",
        operand_math(found_expr, defs),
        value_math(&found.value),
        value_math(&claimed.value)
    );
    let claimed_side = operand_math(claimed_expr, defs);
    let reads = if is_literal(claimed_expr) {
        math(&sides)
    } else if claimed_side.chars().count() <= SHORT_SIDE {
        math(&format!("{sides} = {claimed_side}"))
    } else {
        format!("{}, the claimed formula's value", math(&sides))
    };
    Some(FalseClaim {
        statement: String::new(),
        reads,
    })
}

/// The runs of `values` (increasing) that no value of `others` (the other values checked)
/// separates, nor a gap wider than the range's step: along a range of step $\tfrac{1}{4}$ the
/// failing values $6, \tfrac{25}{4}, \dots, 8$ are one run, as the integers $0, 1, 2, 3$ are.
/// Values that are not numbers are runs of one.
fn runs(values: &[Value], others: &[Value]) -> Vec<(Value, Value)> {
    let number = |v: &Value| match v {
        Value::Num(q) => Some(q.clone()),
        _ => None,
    };
    let others: Vec<crate::num::Q> = others.iter().filter_map(number).collect();
    // The range's step, as the least gap between values checked: a wider gap is a value the
    // range's condition left out (a = 4 between 3 and 5 when only a with s_2(a) >= 2 count), so
    // it breaks a run too.
    let mut checked: Vec<crate::num::Q> = values.iter().filter_map(number).collect();
    checked.extend(others.iter().cloned());
    checked.sort();
    checked.dedup();
    let step = checked
        .windows(2)
        .map(|w| w[1].clone() - w[0].clone())
        .min();
    let mut out: Vec<(Value, Value)> = Vec::new();
    for v in values {
        let extends = match (out.last().and_then(|(_, last)| number(last)), number(v)) {
            (Some(last), Some(q)) => {
                last < q
                    && !others.iter().any(|o| last < *o && *o < q)
                    && step
                        .as_ref()
                        .is_none_or(|step| q.clone() - last.clone() <= *step)
            }
            _ => false,
        };
        match (extends, out.last_mut()) {
            (true, Some(run)) => run.1 = v.clone(),
            _ => out.push((v.clone(), v.clone())),
        }
    }
    out
}

/// The values of one variable as mathematics: runs (unbroken by `others`) written
/// `a \le x \le b`, at most six runs shown.
fn values_math(var: &str, values: &[Value], others: &[Value]) -> String {
    const SHOWN: usize = 6;
    let x = name_math(var);
    let all = runs(values, others);
    let mut parts: Vec<String> = all
        .iter()
        .take(SHOWN)
        .map(|(a, b)| {
            if a == b {
                math(&format!("{x} = {}", value_math(a)))
            } else {
                math(&format!(
                    "{} \\le {x} \\le {}",
                    value_math(a),
                    value_math(b)
                ))
            }
        })
        .collect();
    if all.len() > SHOWN {
        parts.push(format!("{} more runs", all.len() - SHOWN));
    }
    parts.join(", ")
}

/// Where a claim fails along its first variable, in words: the runs of failing and holding
/// values, or every value listed when all fail; `None` when none fails.
fn extent_text(e: &FailureExtent) -> Option<String> {
    /// Up to this many values are listed one by one when every value fails.
    const LISTED: usize = 8;
    if e.failing.is_empty() {
        return None;
    }
    let x = math(&name_math(&e.variable));
    if e.holding.is_empty() {
        let which = if e.failing.len() <= LISTED {
            math(&format!(
                "{} \\in \\lbrace {}\\rbrace",
                name_math(&e.variable),
                e.failing
                    .iter()
                    .map(value_math)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        } else {
            values_math(&e.variable, &e.failing, &e.holding)
        };
        let each = if e.others.is_empty() {
            ""
        } else {
            " (at some point with each)"
        };
        return Some(format!(
            "Fails at every value of {x} checked{each}, {} in all: {which}.",
            e.failing.len()
        ));
    }
    let n = e.failing.len() + e.holding.len();
    // With more variables, a value "fails" at some point of it and "holds" at all of them.
    let (some, every) = if e.others.is_empty() {
        ("", "")
    } else {
        (" (at some point with that value)", " every point with")
    };
    Some(format!(
        "Fails at {} of the {n} values of {x} checked{some}: {}; holds at{every} {}.",
        e.failing.len(),
        values_math(&e.variable, &e.failing, &e.holding),
        values_math(&e.variable, &e.holding, &e.failing)
    ))
}

/// A path as the reports print it: with `/`, whatever the platform.
fn display(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The usual reproduction commands of every report: the whole render and the claims.
pub fn common_commands(opts: &ReportOptions, verdicts: &Verdicts) -> Vec<Command> {
    vec![
        command("This report, its data and figures", report_command(opts)),
        command(
            "The verdict table",
            verdicts
                .command
                .trim_end_matches(" --format csv")
                .to_string(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(xs: &[i64]) -> Vec<Value> {
        xs.iter().map(|&x| Value::int(x)).collect()
    }

    #[test]
    fn an_extent_groups_consecutive_values_into_ranges() {
        let e = FailureExtent {
            variable: "k".into(),
            failing: ints(&[0, 1, 2, 3, 7]),
            holding: ints(&[4, 5, 6]),
            others: Vec::new(),
        };
        assert_eq!(
            extent_text(&e).unwrap(),
            "Fails at 5 of the 8 values of $k$ checked: $0 \\le k \\le 3$, $k = 7$; holds at $4 \\le k \\le 6$."
        );
        let nothing = FailureExtent {
            variable: "k".into(),
            failing: Vec::new(),
            holding: ints(&[1]),
            others: Vec::new(),
        };
        assert_eq!(extent_text(&nothing), None);
    }

    #[test]
    fn an_extent_skips_the_values_the_condition_left_out_and_names_the_other_variables() {
        let e = FailureExtent {
            variable: "a".into(),
            failing: ints(&[3, 5, 6, 7]),
            holding: ints(&[9, 10]),
            others: vec!["b".into()],
        };
        assert_eq!(
            extent_text(&e).unwrap(),
            "Fails at 4 of the 6 values of $a$ checked (at some point with that value): $a = 3$, $5 \\le a \\le 7$; holds at every point with $9 \\le a \\le 10$."
        );
    }

    #[test]
    fn an_extent_along_a_fractional_range_groups_the_values_no_holding_value_separates() {
        let quarters = |xs: &[i64]| -> Vec<Value> {
            xs.iter()
                .map(|&x| Value::Num(crate::num::Q::frac(x, 4)))
                .collect()
        };
        let e = FailureExtent {
            variable: "M".into(),
            failing: quarters(&[24, 25, 26, 28, 32]),
            holding: quarters(&[27, 29, 30, 31]),
            others: Vec::new(),
        };
        assert_eq!(
            extent_text(&e).unwrap(),
            "Fails at 5 of the 9 values of $M$ checked: $6 \\le M \\le \\tfrac{13}{2}$, $M = 7$, $M = 8$; holds at $M = \\tfrac{27}{4}$, $\\tfrac{29}{4} \\le M \\le \\tfrac{31}{4}$."
        );
    }

    #[test]
    fn values_print_as_mathematics() {
        let half: crate::num::Q = "-1/2".parse().unwrap();
        let list = Value::List(vec![Value::Num(half), Value::Bool(true)].into());
        assert_eq!(value_math(&list), "[-\\tfrac{1}{2}, \\mathrm{true}]");
        // Names as the typeset formulas write them, with no backslash before punctuation
        // (GitHub's Markdown would eat it).
        assert_eq!(name_math("n_0"), "n_{0}");
        assert_eq!(name_math("sg"), "\\mathit{sg}");
    }

    #[test]
    fn anchors_are_plain_and_ids_distinct() {
        assert_eq!(anchor("thm-5.1 alt"), "claim-thm-5-1-alt");
        assert_ne!(anchor("a1"), anchor("a2"));
    }
}
