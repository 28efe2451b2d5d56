//! The four papers' reports as data: each file here asks the engines and the claims checker for
//! its numbers (the paper's tables re-derived, its figures' data, the verdict of every claim)
//! and fills the generic [`Report`](crate::report::context::Report) context that
//! [`crate::report`] renders. This file holds what they share: every claim of a registry as a
//! full entry (statement, the exact reading checked, counterexample, extent, correction, note,
//! proof sketch, a reproduce command), sorted into the findings that open a report (errata,
//! proven results, statements the paper itself says are false) and the rest; the overview
//! table; the papers' identities (authors, title, arXiv id and version); provenance and the
//! summary counts. The report layer itself names no game; this module is where the papers meet
//! it. The tables the reports and the CLI print alike (family tables, mined and certified closed
//! forms) live in [`crate::tables`], which both call.

mod candy_nim;
mod nim_with_cash;
mod scoring_nim;
mod scoring_octal;

use std::path::Path;

use crate::claims::eval::Definitions;
use crate::claims::finding::{Counterexample, FailureExtent, Importance, PaperStatus, Wording};
use crate::claims::registry::{Assertion, Check, ExprCheck};
use crate::claims::sketch::sketch;
use crate::claims::typeset::{binders_math, check_math, expr_math};
use crate::claims::value::Value;
use crate::claims::{Finding, Registry, VerdictKind, check_registry};
use crate::error::Result;
use crate::export::{Cell, Format, Table};
use crate::progress::Progress;
use crate::report::context::{
    ClaimEntry, Command, ComparedValue, CorrectionView, CounterexampleView, PaperIdentity,
    ReadingView, Summary, VerdictCount, VerdictRow, Verdicts,
};
use crate::report::files::Files;
use crate::report::{Builder, Paper, ReportOptions};
pub use crate::report::{param, provenance, report_command};

/// The reports, in the order the index lists them. Each builder's report is stamped with its
/// paper's identity ([`identity`]).
pub const PAPERS: &[(&str, Builder)] = &[
    ("scoring-nim", |o, p| {
        identified("scoring-nim", scoring_nim::build(o, p))
    }),
    ("scoring-octal", |o, p| {
        identified("scoring-octal", scoring_octal::build(o, p))
    }),
    ("candy-nim", |o, p| {
        identified("candy-nim", candy_nim::build(o, p))
    }),
    ("nim-with-cash", |o, p| {
        identified("nim-with-cash", nim_with_cash::build(o, p))
    }),
];

/// A built report with its paper's identity in its provenance.
fn identified(name: &str, paper: Result<Paper>) -> Result<Paper> {
    let mut paper = paper?;
    paper.report.provenance.paper = identity(name);
    Ok(paper)
}

/// The paper a report checks. The arXiv identifiers were verified against arXiv listings;
/// where one could not be verified it is left out rather than guessed.
pub fn identity(name: &str) -> Option<PaperIdentity> {
    let (key, authors, title, year, arxiv, version, copy): (
        &str,
        &[&str],
        &str,
        &str,
        Option<&str>,
        Option<&str>,
        &str,
    ) = match name {
        "scoring-nim" => (
            "oginuma2025scoring",
            &["Hiromi Oginuma", "Masato Shinoda"],
            "Scoring Nim",
            "2025",
            Some("2502.10971"),
            Some("v1"),
            "the version dated February 16, 2025 (arXiv v1; a v2 followed in 2026)",
        ),
        "scoring-octal" => (
            "stewart2012impartial",
            &["Fraser Stewart"],
            "Impartial Scoring Play Games",
            "2012",
            Some("1202.4655"),
            None,
            "the arXiv preprint; its version could not be verified",
        ),
        "candy-nim" => (
            "mani2018candy",
            &[
                "Nitya Mani",
                "Rajiv Nelakanti",
                "Simon Rubinstein-Salzedo",
                "Alex Tholen",
            ],
            "P Play in Candy Nim",
            "2018",
            Some("1805.07019"),
            Some("v1"),
            "the version dated May 21, 2018 (arXiv v1)",
        ),
        "nim-with-cash" => (
            "gasarch-nim-with-cash",
            &["William Gasarch", "John Purlito", "Douglas Ulrich"],
            "NIM with Cash",
            "",
            None,
            None,
            "the undated preprint, authors as printed there (no arXiv identifier or year could be verified)",
        ),
        _ => return None,
    };
    Some(PaperIdentity {
        key: key.to_string(),
        authors: authors.iter().map(|a| a.to_string()).collect(),
        title: title.to_string(),
        year: (!year.is_empty()).then(|| year.to_string()),
        arxiv: arxiv.map(str::to_string),
        version: version.map(str::to_string),
        copy: copy.to_string(),
    })
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
    /// Proven for every n.
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
        (PaperStatus::Asserted, VerdictKind::Proven) => Place::Proven,
        _ => Place::Other,
    }
}

/// The verdicts of `data/claims/<name>.toml` (a note when the file does not exist yet): every
/// claim as a full entry, sorted into the summary's findings and the rest, the overview rows,
/// the CSV (`verdicts.csv`, as `nimlab check --format csv` writes it) and the summary's counts.
pub fn verdicts(
    name: &str,
    opts: &ReportOptions,
    progress: &dyn Progress,
    files: &mut Files,
) -> Result<(Verdicts, Summary)> {
    let path = opts.claims.join(format!("{name}.toml"));
    let shown = display(&path);
    let deep = if opts.deep { " --deep" } else { "" };
    let check = format!("nimlab check {shown}{deep} --format csv");
    let mut summary = Summary {
        errata: Vec::new(),
        proven: Vec::new(),
        findings: Vec::new(),
        known_false: Vec::new(),
        counts: Vec::new(),
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
                claims: Vec::new(),
            },
            summary,
        ));
    }
    progress.stage(&format!("{name}: checking claims"));
    let reg = Registry::load(&path)?;
    progress.add_work(reg.claims.len() as u64);
    let found = check_registry(&reg, opts.deep, &[], progress)?;
    let mut table = Table::new(&["paper", "label", "verdict", "range", "evidence"]);
    let mut rows = Vec::new();
    let mut claims = Vec::new();
    let mut errata: Vec<(Importance, ClaimEntry)> = Vec::new();
    for f in &found {
        table.push(vec![
            Cell::Text(f.claim.paper.clone()),
            Cell::Text(f.claim.label.clone()),
            Cell::Text(f.verdict.to_string()),
            Cell::Text(f.range_text()),
            Cell::Text(f.evidence()),
        ]);
        let entry = claim_entry(&reg, f, &format!("nimlab check {shown}{deep}"));
        rows.push(VerdictRow {
            id: entry.id.clone(),
            label: entry.label.clone(),
            anchor: entry.anchor.clone(),
            verdict: entry.verdict.clone(),
            range: entry.range.clone(),
        });
        match place(f) {
            Place::Erratum => errata.push((f.claim.commentary.importance, entry)),
            Place::Proven => summary.proven.push(entry),
            Place::KnownFalse => summary.known_false.push(entry),
            Place::Other => claims.push(entry),
        }
    }
    // Stable: equal importance keeps file order.
    errata.sort_by_key(|(importance, _)| *importance);
    summary.errata = errata.into_iter().map(|(_, e)| e).collect();
    summary.counts = VERDICT_ORDER
        .iter()
        .map(|k| VerdictCount {
            verdict: k.to_string(),
            count: found.iter().filter(|f| f.verdict == *k).count(),
        })
        .collect();
    files.insert("verdicts.csv", table.render(Format::Csv))?;
    Ok((
        Verdicts {
            registry: shown,
            command: check,
            note: None,
            csv: Some("verdicts.csv".to_string()),
            rows,
            claims,
        },
        summary,
    ))
}

/// One claim in full, from its finding and the registry's definition of it. `check` is the
/// command that checks the registry (`--only <id>` is added).
pub fn claim_entry(reg: &Registry, f: &Finding, check: &str) -> ClaimEntry {
    let defs = &reg.definitions;
    let claim = reg.claims.iter().find(|c| c.id == f.claim.id);
    let expr_check = claim.and_then(|c| match &c.check {
        Check::Expr(e) => Some(e.as_ref()),
        _ => None,
    });
    let reading = expr_check.map(|c| math(&check_math(c, defs)));
    let correction = f.correction.as_ref().map(|corr| {
        let statement = match expr_check.and_then(|c| corrected(c, &corr.expr)) {
            Some(c) => math(&check_math(&c, defs)),
            None => math(&expr_math(&corr.expr, defs)),
        };
        CorrectionView {
            statement,
            holds: corr.holds(),
            checked: corr.checked,
            failure: corr
                .counterexample
                .as_ref()
                .map(|c| counterexample_view(c, defs)),
        }
    });
    let readings = f
        .readings
        .iter()
        .map(|r| {
            let check = claim.and_then(|c| match &c.check {
                Check::Readings(rs) => rs.iter().find(|x| x.name == r.name),
                _ => None,
            });
            ReadingView {
                name: r.name.clone(),
                literal: r.literal,
                reading: check.map(|c| math(&check_math(&c.check, defs))),
                verdict: r.finding.verdict.to_string(),
                counterexample: r
                    .finding
                    .counterexample
                    .as_ref()
                    .map(|c| counterexample_view(c, defs)),
                evidence: r.finding.evidence(),
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
        reading,
        verdict: f.verdict.to_string(),
        importance: match f.claim.commentary.importance {
            Importance::Major => "major",
            Importance::Normal => "normal",
            Importance::Minor => "minor",
        }
        .to_string(),
        range: range_math(reg, f),
        points: f.points.map(|p| {
            let mut s = plural(p.checked, "point") + " checked";
            if f.counterexample.is_some() {
                s.push_str(", up to the first failure");
            }
            if p.skipped > 0 {
                s.push_str(&format!(
                    ", {} outside the claim's hypotheses passed over",
                    p.skipped
                ));
            }
            s
        }),
        counterexample: f
            .counterexample
            .as_ref()
            .map(|c| counterexample_view(c, defs)),
        extent: f.extent.as_ref().and_then(extent_text),
        correction,
        note: f.claim.commentary.note.clone(),
        readings,
        evidence,
        tables: f.tables.clone(),
        proof: f.proof.as_ref().map(sketch),
        reproduce: format!("{check} --only {}", f.claim.id),
    }
}

/// The expression check with `expected` replaced by a correction (`None` for a truth-valued
/// check, which has no expected side).
fn corrected(check: &ExprCheck, correction: &crate::claims::expr::Expr) -> Option<ExprCheck> {
    match &check.assertion {
        Assertion::Equal { actual, .. } => Some(ExprCheck {
            assertion: Assertion::Equal {
                actual: actual.clone(),
                expected: correction.clone(),
                correction: None,
            },
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

/// A variable's name in mathematics: one letter as is, longer names in `\mathit`.
fn var_math(name: &str) -> String {
    if name.chars().count() == 1 {
        name.to_string()
    } else {
        format!("\\mathit{{{}}}", name.replace('_', "\\_"))
    }
}

/// A value as a math body: integers and fractions exact, lists in brackets, truth values and
/// strings upright.
pub fn value_math(v: &Value) -> String {
    match v {
        Value::Num(q) => {
            let text = q.to_string();
            match text.split_once('/') {
                Some((n, d)) => match n.strip_prefix('-') {
                    Some(n) => format!("-\\tfrac{{{n}}}{{{d}}}"),
                    None => format!("\\tfrac{{{n}}}{{{d}}}"),
                },
                None => text,
            }
        }
        Value::Bool(b) => format!("\\mathrm{{{b}}}"),
        Value::Str(s) => {
            let plain: String = s
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == ' ')
                .collect();
            format!("\\text{{{plain}}}")
        }
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(value_math).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// A counterexample with its point as mathematics and every value labelled.
fn counterexample_view(c: &Counterexample, defs: &Definitions) -> CounterexampleView {
    let point = c
        .point
        .iter()
        .map(|(n, v)| format!("{} = {}", var_math(n), value_math(v)))
        .collect::<Vec<_>>()
        .join(",\\ ");
    let side = |side: &str, values: &[crate::claims::finding::Labelled]| {
        values
            .iter()
            .map(|l| ComparedValue {
                side: side.to_string(),
                // An expression's value is named by the expression typeset (helpers by
                // their display forms); a builtin's by its own words.
                label: l
                    .expr
                    .as_ref()
                    .map_or_else(|| l.label.clone(), |e| math(&expr_math(e, defs))),
                value: math(&value_math(&l.value)),
            })
            .collect::<Vec<_>>()
    };
    let mut values = side("claimed", &c.expected);
    values.extend(side("found", &c.actual));
    CounterexampleView {
        point: if point.is_empty() {
            String::new()
        } else {
            math(&point)
        },
        values,
    }
}

/// The runs of consecutive integers in increasing values (other values are runs of one).
fn runs(values: &[Value]) -> Vec<(Value, Value)> {
    let mut out: Vec<(Value, Value)> = Vec::new();
    for v in values {
        let extends = match (out.last(), v) {
            (Some((_, Value::Num(last))), Value::Num(q)) => {
                last.is_integer() && q.is_integer() && *q == last + &crate::num::Q::int(1)
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

/// The values of one variable as mathematics: runs written `a \le x \le b`, at most six runs
/// shown.
fn values_math(var: &str, values: &[Value]) -> String {
    const SHOWN: usize = 6;
    let x = var_math(var);
    let all = runs(values);
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

/// Where a claim fails along its first variable, in words; `None` when it fails everywhere it
/// was checked along that variable (the counterexample says enough).
fn extent_text(e: &FailureExtent) -> Option<String> {
    if e.failing.is_empty() {
        return None;
    }
    let n = e.failing.len() + e.holding.len();
    let mut s = format!(
        "Fails at {} of the {n} values of {} checked: {}",
        e.failing.len(),
        math(&var_math(&e.variable)),
        values_math(&e.variable, &e.failing)
    );
    if e.holding.is_empty() {
        s.push('.');
    } else {
        s.push_str(&format!(
            "; holds at {}.",
            values_math(&e.variable, &e.holding)
        ));
    }
    Some(s)
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
        };
        assert_eq!(
            extent_text(&e).unwrap(),
            "Fails at 5 of the 8 values of $k$ checked: $0 \\le k \\le 3$, $k = 7$; holds at $4 \\le k \\le 6$."
        );
        let nothing = FailureExtent {
            variable: "k".into(),
            failing: Vec::new(),
            holding: ints(&[1]),
        };
        assert_eq!(extent_text(&nothing), None);
    }

    #[test]
    fn values_print_as_mathematics() {
        let half: crate::num::Q = "-1/2".parse().unwrap();
        let list = Value::List(vec![Value::Num(half), Value::Bool(true)].into());
        assert_eq!(value_math(&list), "[-\\tfrac{1}{2}, \\mathrm{true}]");
        assert_eq!(var_math("N"), "N");
        assert_eq!(var_math("n_0"), "\\mathit{n\\_0}");
    }

    #[test]
    fn anchors_are_plain_and_ids_distinct() {
        assert_eq!(anchor("thm-5.1 alt"), "claim-thm-5-1-alt");
        assert_ne!(anchor("a1"), anchor("a2"));
    }

    #[test]
    fn every_paper_has_an_identity_and_unknown_names_none() {
        for (name, _) in PAPERS {
            let p = identity(name).unwrap();
            assert!(!p.authors.is_empty() && !p.title.is_empty(), "{name}");
            // A version is only given with the identifier it versions.
            assert!(p.version.is_none() || p.arxiv.is_some(), "{name}");
        }
        assert_eq!(identity("no-such-paper"), None);
    }
}
