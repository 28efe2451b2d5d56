//! The four papers' reports as data: each file here asks the engines and the claims checker for
//! its numbers (the paper's tables re-derived, its figures' data, the verdict of every claim)
//! and fills the generic [`Report`](crate::report::context::Report) context that
//! [`crate::report`] renders. This file holds what they share (the verdict table from a claim
//! registry, provenance, the summary counts). The report layer itself names no game; this
//! module is where the papers meet it. The tables the reports and the CLI print alike (family
//! tables, mined and certified closed forms) live in [`crate::tables`], which both call.

mod candy_nim;
mod nim_with_cash;
mod scoring_nim;
mod scoring_octal;

use std::path::Path;

use crate::claims::{Registry, VerdictKind, check_registry};
use crate::error::Result;
use crate::export::{Cell, Format, Table};
use crate::progress::Progress;
use crate::report::context::{Command, Summary, VerdictCount, VerdictRow, Verdicts};
use crate::report::files::Files;
use crate::report::{Builder, ReportOptions};
pub use crate::report::{param, provenance, report_command};

/// The reports, in the order the index lists them.
pub const PAPERS: &[(&str, Builder)] = &[
    ("scoring-nim", scoring_nim::build),
    ("scoring-octal", scoring_octal::build),
    ("candy-nim", candy_nim::build),
    ("nim-with-cash", nim_with_cash::build),
];

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

/// The verdict table of `data/claims/<name>.toml` (a note when the file does not exist yet), its
/// CSV (`verdicts.csv`, as `nimlab check --format csv` writes it) and the summary's counts.
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
        findings: Vec::new(),
        counts: Vec::new(),
        attention: Vec::new(),
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
    for v in found {
        table.push(vec![
            Cell::Text(v.claim.paper.clone()),
            Cell::Text(v.claim.label.clone()),
            Cell::Text(v.verdict.to_string()),
            Cell::Text(v.range_text()),
            Cell::Text(v.evidence()),
        ]);
        let row = VerdictRow {
            paper: v.claim.paper.clone(),
            label: v.claim.label.clone(),
            verdict: v.verdict.to_string(),
            range: v.range_text(),
            evidence: v.evidence(),
        };
        if matches!(v.verdict, VerdictKind::Fails | VerdictKind::Ambiguous) {
            summary.attention.push(row.clone());
        }
        rows.push(row);
    }
    summary.counts = VERDICT_ORDER
        .iter()
        .map(|k| VerdictCount {
            verdict: k.to_string(),
            count: rows.iter().filter(|r| r.verdict == k.to_string()).count(),
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
        },
        summary,
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
