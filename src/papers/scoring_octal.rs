//! The scoring octal games report (Stewart): Table 1 (S = {4,5}) re-derived, the sequence
//! G_s(n) plotted with its proven preperiod and period marked, the closed forms of G_s for
//! S = {4,5} and for the paper's (3333, 2222) as `nimlab mine octal` finds them (with their
//! status), and the verdicts.

use super::{command, common_commands, param, provenance, verdicts};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::games::scoring::{
    HeapSequence, HeapSize, Limits, OctalRules, PeriodReport, RulesError, ScoringGame,
};
use crate::miner::PeriodStatus;
use crate::num::Q;
use crate::progress::Progress;
use crate::report::context::{Axis, Report, Series, SeriesStyle, TableSection, VLine};
use crate::report::data::{BFile, FigureSpec, TableSpec, bfiles, figure, table};
use crate::report::files::Files;
use crate::report::{Paper, ReportOptions};
use crate::tables::mined::periodic_forms_table;

/// The subtraction set of Table 1 and the figure.
const SET: [HeapSize; 2] = [4, 5];

/// Stewart's code with points, the other game whose closed form is mined.
const STEWART: &str = "(3333, 2222)";

/// How far `nimlab octal period` and `nimlab mine octal` look before giving up (their default).
const PERIOD_SEARCH: HeapSize = 100_000;

pub fn build(opts: &ReportOptions, progress: &dyn Progress) -> Result<Paper> {
    let name = "scoring-octal";
    let mut files = Files::new();
    let (verdict_table, mut summary) = verdicts(name, opts, progress, &mut files)?;
    progress.stage("scoring-octal: G_s(n) for S = {4,5}");
    progress.add_work(1);
    let max_n: HeapSize = 200;
    // The b-files reach further than the figure: the values are a table look-up each.
    let bfile_n: HeapSize = if opts.deep { 10_000 } else { 2000 };
    let rules = OctalRules::subtraction(&SET, None).map_err(|e| Error::invalid(e.to_string()))?;
    let game = ScoringGame::single(rules);
    let seq = HeapSequence::new(&game, 0, &[], Q::zero())?;
    let values = seq.values(max_n, &Limits::default())?;
    let period = seq.period(PERIOD_SEARCH, &Limits::default())?;
    let mut data = Table::new(&["n", "value"]);
    for (n, v) in values.iter().enumerate() {
        data.push(vec![Cell::Int(n as i64), v.clone().into()]);
    }
    let mut table1 = Table::new(&["n", "value"]);
    for row in data.rows.iter().take(16) {
        table1.push(row.clone());
    }
    let mut vlines = Vec::new();
    match &period.periodicity {
        Some(p) => {
            let status = match &p.status {
                PeriodStatus::Proven {
                    window_start,
                    window_len,
                } => format!(
                    "PROVEN (the window {window_start}..{} recurs {} later)",
                    window_start + window_len - 1,
                    p.period
                ),
                PeriodStatus::Observed { periods_seen } => {
                    format!("OBSERVED ({periods_seen} periods seen)")
                }
            };
            summary.findings.push(format!(
                "G_s(n) for S = {{4,5}}: least preperiod {}, least period {}, {status}; {} 2·max S = 10 (Conjecture 14).",
                p.preperiod,
                p.period,
                if p.period == 10 { "equal to" } else { "unlike" },
            ));
            let n0 = p.preperiod as i64;
            vlines.push(VLine {
                x: n0,
                label: format!("$n_0 = {n0}$"),
            });
            vlines.push(VLine {
                x: n0 + p.period as i64,
                label: format!("$n_0 + {}$", p.period),
            });
        }
        None => summary.findings.push(format!(
            "G_s(n) for S = {{4,5}}: no period found among the first {} terms.",
            period.terms
        )),
    }
    let figures = vec![figure(
        FigureSpec {
            id: "values-4-5".into(),
            title: "$G_s(n)$ for the subtraction set $S = \\lbrace 4,5 \\rbrace$".into(),
            caption: format!(
                "Stewart's G_s(n) (the mover's best margin from a single heap of n beans) for 0 ≤ n ≤ {max_n}; dashed lines mark the least preperiod n₀ and one period later. {}.",
                period.argument.trim_end_matches('.')
            ),
            command: format!("nimlab octal values --subtract 4,5 --max-heap {max_n} --format csv"),
            x: Axis {
                column: "n".into(),
                label: "heap size $n$".into(),
            },
            y_label: "$G_s(n)$".into(),
            series: vec![Series {
                column: "value".into(),
                label: "$G_s(n)$, $S = \\lbrace 4,5 \\rbrace$".into(),
                color: "teal".into(),
                style: SeriesStyle::Markers,
            }],
            data,
            marks: None,
            vlines,
        },
        &mut files,
    )?];
    let mut tables = vec![table(
        TableSpec {
            title: "Table 1: G_s(n) for S = {4,5}".into(),
            caption: "The values of the paper's Table 1, recomputed (n = 0..15).".into(),
            csv: "table1.csv".into(),
            command: "nimlab octal values --subtract 4,5 --max-heap 15 --format csv".into(),
            show: 16,
            data: table1,
        },
        &mut files,
    )?];
    progress.advance(1);
    progress.stage("scoring-octal: closed forms of G_s");
    progress.add_work(1);
    let stewart_rules: OctalRules = STEWART
        .parse()
        .map_err(|e: RulesError| Error::invalid(e.to_string()))?;
    let stewart = HeapSequence::new(&ScoringGame::single(stewart_rules), 0, &[], Q::zero())?;
    let stewart_period = stewart.period(PERIOD_SEARCH, &Limits::default())?;
    let mut mined = Vec::new();
    for (seq, report, what, id, args) in [
        (
            &seq,
            &period,
            "S = {4,5}",
            "4-5",
            "--subtract 4,5".to_string(),
        ),
        (
            &stewart,
            &stewart_period,
            STEWART,
            "3333-2222",
            format!("--rules \"{STEWART}\""),
        ),
    ] {
        let (section, line) = mined_forms(seq, report, what, id, &args, &mut files)?;
        tables.extend(section);
        mined.push(line);
    }
    summary.findings.push(format!(
        "Closed forms of G_s, as the miner finds them: {}.",
        mined.join("; ")
    ));
    progress.advance(1);
    let mut list = Vec::new();
    for (seq, what, slug, args) in [
        (&seq, "S = {4,5}", "4-5", "--subtract 4,5".to_string()),
        (
            &stewart,
            STEWART,
            "3333-2222",
            format!("--rules \"{STEWART}\""),
        ),
    ] {
        let values = seq.values(bfile_n, &Limits::default())?;
        list.push(BFile {
            file: format!("b-gs-{slug}.txt"),
            sequence: format!("G_s(n) for {what}"),
            command: format!("nimlab octal values {args} --max-heap {bfile_n} --format csv"),
            terms: values
                .into_iter()
                .enumerate()
                .map(|(n, v)| (n as i64, Cell::from(v)))
                .collect(),
        });
    }
    tables.push(bfiles(list, &mut files)?);
    let mut reproduce = common_commands(opts, &verdict_table);
    reproduce.push(command(
        "The least preperiod and period of G_s for S = {4,5}",
        "nimlab octal period --subtract 4,5",
    ));
    reproduce.push(command(
        "The closed forms of G_s for S = {4,5} and for (3333, 2222), with their status",
        format!("nimlab mine octal --subtract 4,5 && nimlab mine octal --rules \"{STEWART}\""),
    ));
    let report = Report {
        name: name.into(),
        title: "Scoring play octal games".into(),
        source: "Stewart, Impartial scoring play games".into(),
        provenance: provenance(
            opts,
            vec![
                param("ruleset", "subtraction set S = {4,5}, p_i = i"),
                param("sequence", format!("G_s(n), 0 ≤ n ≤ {max_n}, bonus N = 0")),
                param("period search", format!("up to n = {PERIOD_SEARCH}")),
                param(
                    "closed forms",
                    format!("G_s for S = {{4,5}} and for {STEWART}"),
                ),
            ],
        ),
        summary,
        verdicts: verdict_table,
        tables,
        figures,
        reproduce,
    };
    Ok(Paper { report, files })
}

/// The closed form of G_s as `nimlab mine octal {args}` finds it: its table (one line per
/// residue, PROVEN or OBSERVED as the period is; none without a period) and a summary phrase.
fn mined_forms(
    seq: &HeapSequence,
    report: &PeriodReport,
    what: &str,
    id: &str,
    args: &str,
    files: &mut Files,
) -> Result<(Option<TableSection>, String)> {
    let (Some(p), Some(form)) = (
        &report.periodicity,
        seq.periodic_form(report, &Limits::default())?,
    ) else {
        return Ok((
            None,
            format!(
                "{what}: no period among the first {} terms, so no closed form",
                report.terms
            ),
        ));
    };
    let status = if p.is_proven() { "PROVEN" } else { "OBSERVED" };
    let values: Vec<String> = form.lines.iter().map(|l| l.intercept.to_string()).collect();
    let line = format!(
        "{what}: G_s({}k + i) = c_i for n ≥ {} with (c_0, …, c_{}) = ({}), {status}",
        p.period,
        p.preperiod,
        p.period - 1,
        values.join(", ")
    );
    let section = table(
        TableSpec {
            title: format!("Closed forms of G_s for {what}"),
            caption: format!(
                "Least period {}, least preperiod {}, {status}: {}. One line per residue i = 0..{}, holding from the k given (the least k with {}k + i ≥ {}).",
                p.period,
                p.preperiod,
                report.argument.trim_end_matches('.'),
                p.period - 1,
                p.period,
                p.preperiod
            ),
            csv: format!("mined-{id}.csv"),
            command: format!("nimlab mine octal {args} --format csv"),
            data: periodic_forms_table(&form, "G_s", status),
            show: 64,
        },
        files,
    )?;
    Ok((Some(section), line))
}
