//! `nimlab mine …`: closed forms hidden in tables — periodic-linear fits of sequences read from
//! CSV (any nimlab table, or anyone else's).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};

use super::output::OutputArgs;
use crate::export::{Cell, Format, Table};
use crate::fsio;

use crate::games::cash::{
    CashPeriodicity, CashSet, across_members, check_threshold_budget, threshold_forms_advising,
};
use crate::games::certificate_file::{CertificateFile, Replayed};
use crate::games::scoring::HeapSequence;
use crate::miner::{FitOptions, across_analysis, fit_periodic_linear};
use crate::num::Q;
use crate::tables::cash::certified_forms_table;
use crate::tables::cash_across::{ACROSS_FUNCTIONS, SetFamily, across_table};
use crate::tables::mined::{
    closed_form_rows, family_forms, family_forms_table, grid_form_table, grid_forms,
    periodic_forms_table, verify_family_payoff, verify_grid_form,
};

#[derive(Debug, Subcommand)]
pub enum MineCommand {
    /// Fit a(Pk+i) = B_i·k + c_i (least period P, least preperiod) to a column of a CSV file.
    #[command(
        after_help = "Examples:\n  nimlab cash thresholds --set 3,5,6,10,11 --max-n 2000 --defined-only --format csv -o f.csv\n  nimlab mine sequence --csv f.csv --index n --value f1\n  nimlab mine sequence --csv survey.csv --index n --value value --group-by set --format csv"
    )]
    Sequence(SequenceArgs),
    /// Check a closed form against a column of a CSV file: HOLDS on every row, or the first row
    /// (smallest index) where it fails, with the expected and the actual value.
    #[command(
        after_help = "Examples:\n  nimlab cash thresholds --set 3,5,6,10,11 --max-n 400 --format csv -o f.csv\n  nimlab mine check --csv f.csv --index n --value g1 --formula \"floor(n/6)*3 + min(n%6 + 1, 3)\"\n  nimlab mine check --csv f.csv --index n --value f1 --formula \"f1([3,5,6,10,11], n)\" --from 64\n\nEvery column whose name is a plain identifier is a variable of the formula (numbers exact,\nother cells strings); the formula language is described in data/claims/README.md.\nExit status: 0 when the formula holds on every group, 1 when it fails somewhere, 2 on errors."
    )]
    Check(CheckFormulaArgs),
    /// Closed forms for f^I and f^II of NIM with Cash, PROVEN for all n by a certificate.
    #[command(
        after_help = "Examples:\n  nimlab mine cash --set 3,5,6,10,11 --max-n 2000\n  nimlab mine cash --set 1,4 --certificate cert.json\n  nimlab mine replay cert.json"
    )]
    Cash(CashArgs),
    /// Re-check a certificate written by `mine cash --certificate`, `mine octal --certificate`
    /// or `prove --certificate DIR`: VALID, or REJECTED with what does not hold (exit status 2).
    #[command(
        after_help = "Examples:\n  nimlab mine cash --set 1,4 --certificate cash.json\n  nimlab mine replay cash.json\n  nimlab mine octal --subtract 4,5 --certificate gs.json\n  nimlab mine replay gs.json\n  nimlab prove data/proofs/scoring-nim-two-piles.toml --certificate cert/\n  nimlab mine replay cert/\n  nimlab prove data/claims/scoring-nim.toml --claim eq-5 --certificate eq5/\n  nimlab mine replay eq5/\n\nThe file's \"kind\" says what it proves: \"cash-thresholds\" (closed forms of f^I and f^II) or\n\"octal-period\" (the least preperiod and period of G_s, by a window argument). A replay\nrecomputes everything it needs from the rules in the file.\n\nA directory from `nimlab prove --certificate` is replayed from the forms file its\ncertificate.json names, and for a claim (`prove --claim`) from the claim file too (refused\nwhen either changed): the obligations are posed again, every .smt2 file must be exactly one\nof them, and a second solver (cvc5 when z3 wrote it, or --solver) must answer unsat to each."
    )]
    Replay(ReplayArgs),
    /// G_s(n) (or f_N(n +ℓ m)) of a scoring octal game as eventually periodic closed forms.
    #[command(
        after_help = "Examples:\n  nimlab mine octal --subtract 4,5\n  nimlab mine octal --rules '(3333, 2222)'\n  nimlab mine octal --subtract 4,5 --plus 4\n  nimlab mine octal --subtract 4,5 --certificate gs.json\n  nimlab mine replay gs.json"
    )]
    Octal(OctalArgs),
    /// Closed forms along a family: every numeric column as a function of its parameter, and the
    /// payoff's closed form in (N, parameters), re-verified beyond the data.
    #[command(subcommand)]
    Family(FamilyCommand),
    /// Second level: certified forms for a family of move sets, and their coefficients as
    /// closed forms in the parameter.
    #[command(subcommand)]
    Across(AcrossCommand),
}

/// What the second-level fit runs across.
#[derive(Debug, Subcommand)]
pub enum AcrossCommand {
    /// NIM with Cash move sets affine in one parameter, e.g. "1,L".
    #[command(
        after_help = "Examples:\n  nimlab mine across cash --set \"1,L\" --L 2..24 --step 2\n  nimlab mine across cash --set \"1,L,L+1\" --L 3..21 --step 2"
    )]
    Cash(AcrossCashArgs),
}

/// Most confirming periods `mine sequence` accepts: far beyond any data, and small enough that
/// the 2 + K periods a fit needs are counted without overflow.
const MAX_CONFIRMING_PERIODS: usize = u32::MAX as usize;

#[derive(Debug, Args)]
pub struct AcrossCashArgs {
    /// The move set with one parameter, e.g. "1,L".
    #[arg(long, value_name = "A")]
    set: String,
    /// The parameter's range (the parameter must be named L).
    #[arg(long = "L", value_name = "RANGE", value_parser = super::args::parse_int_range)]
    l: crate::num::IntRange,
    /// Step through the range.
    #[arg(long, value_name = "S", default_value_t = 1, allow_negative_numbers = true, value_parser = super::args::ranged(1, i64::MAX))]
    step: i64,
    #[command(flatten)]
    memory: super::candy::MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

/// The game whose family is mined.
#[derive(Debug, Subcommand)]
pub enum FamilyCommand {
    /// Scoring Nim: breakpoint count, c±, first and last breakpoints along the family, and the
    /// payoff's closed form; with several parameters, the form over the grid (every parameter
    /// but one adding a constant per step).
    #[command(
        after_help = "Examples:\n  nimlab mine family scoring \"2k+1,2k,1\" --k 1..30\n  nimlab mine family scoring \"2k+2+t,2k,1\" --k 1..7 --param t=0..3   # Theorem 6.3 (ii)\n  nimlab mine family scoring \"y+1+t,y\" --y 2..7 --param t=0..4         # Prop 4.2 (ii)"
    )]
    Scoring(super::scoring::FamilyArgs),
    /// Candy Nim: V, N_L and N_W along the family.
    #[command(after_help = "Examples:\n  nimlab mine family candy \"31,32m,32m+31\" --m 1..64")]
    Candy(super::candy::FamilyArgs),
}

#[derive(Debug, Args)]
pub struct CashArgs {
    /// The move set A.
    #[arg(long, value_name = "A")]
    set: String,
    /// Compute f^I, f^II for n ≤ this before fitting.
    #[arg(long, value_name = "N", default_value_t = 2000, allow_negative_numbers = true, value_parser = super::args::ranged(0, u64::MAX))]
    max_n: u64,
    /// Also write the certificate (JSON) to FILE, atomically.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    #[command(flatten)]
    memory: super::candy::MemoryArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct CheckFormulaArgs {
    /// The CSV file (with a header row); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    csv: PathBuf,
    /// Column holding the index n (whole numbers); rows are checked in increasing n.
    #[arg(long, value_name = "COLUMN")]
    index: String,
    /// Column holding the values the formula must reproduce.
    #[arg(long, value_name = "COLUMN")]
    value: String,
    /// The closed form, an expression in the columns.
    #[arg(long, value_name = "EXPR")]
    formula: String,
    /// Check only the rows with index ≥ this (formulas that hold from some n₀ on).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = super::args::ranged(i64::MIN, i64::MAX))]
    from: Option<i64>,
    /// Check each value of this column separately.
    #[arg(long, value_name = "COLUMN")]
    group_by: Option<String>,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A certificate file written by `nimlab mine cash --certificate` or `mine octal
    /// --certificate` (`-` reads standard input), or a directory written by `nimlab prove
    /// --certificate DIR`.
    #[arg(value_name = "CERT")]
    file: PathBuf,
    /// The solver that replays an induction certificate (default: the other of z3 and cvc5
    /// than the one that wrote it).
    #[arg(long, value_enum)]
    solver: Option<ReplaySolver>,
}

/// The SMT solvers an induction certificate replays with.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ReplaySolver {
    Z3,
    Cvc5,
}

#[derive(Debug, Args)]
pub struct OctalArgs {
    #[command(flatten)]
    period: super::octal::PeriodArgs,
    /// Also write a certificate of the period (JSON) to FILE, atomically; `mine replay FILE`
    /// re-checks it. Needs a main ruleset that takes without breaking.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
}

/// Writes a certificate file as pretty JSON, atomically.
fn write_certificate(path: &Path, file: &CertificateFile) -> anyhow::Result<()> {
    let out = OutputArgs {
        format: Format::Json,
        output: Some(path.to_path_buf()),
    };
    out.emit(|w| file.write_to(w))
}

#[derive(Debug, Args)]
pub struct SequenceArgs {
    /// The CSV file (with a header row); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    csv: PathBuf,
    /// Column holding the index n (consecutive whole numbers within each group).
    #[arg(long, value_name = "COLUMN")]
    index: String,
    /// Column holding the exact values a(n) (integers or p/q).
    #[arg(long, value_name = "COLUMN")]
    value: String,
    /// Fit each value of this column separately.
    #[arg(long, value_name = "COLUMN")]
    group_by: Option<String>,
    /// Full periods of data required beyond the two that determine the lines.
    #[arg(long, value_name = "K", default_value_t = 3, allow_negative_numbers = true, value_parser = super::args::ranged(0, MAX_CONFIRMING_PERIODS))]
    confirming_periods: usize,
    #[command(flatten)]
    out: OutputArgs,
}

/// Runs `nimlab mine …`; returns false when `mine check` found a counterexample.
pub fn run(cmd: MineCommand) -> anyhow::Result<bool> {
    if let MineCommand::Check(a) = cmd {
        return check_formula(a);
    }
    run_mining(cmd).map(|()| true)
}

fn run_mining(cmd: MineCommand) -> anyhow::Result<()> {
    match cmd {
        MineCommand::Check(_) => unreachable!("handled by run"),
        MineCommand::Sequence(a) => sequence(a),
        MineCommand::Cash(a) => cash(a),
        MineCommand::Replay(a) => replay(a),
        MineCommand::Octal(a) => octal(a),
        MineCommand::Across(AcrossCommand::Cash(a)) => across_cash(a),
        MineCommand::Family(FamilyCommand::Scoring(a)) => {
            let fam: crate::family::Family =
                a.family.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            if fam.params().len() > 1 {
                return mine_grid(&a, &fam);
            }
            let columns = super::scoring::family_table(&a)?.typed_columns();
            let forms = family_forms(&columns)?;
            let proof = crate::discovery::no_form_witness(&fam);
            let (k0, k1) = forms.range;
            // Twice the mined range: k = k0..k1 is re-verified up to k1 + (k1 − k0 + 1).
            let to = k1 + (k1 - k0 + 1);
            let mut text = forms.text();
            if let Some(w) = &proof {
                text.push_str(&format!(
                    "payoff: no form of the miner's shapes exists for any range (proven): {w}\n"
                ));
            }
            // The checker solves every member up to `to`: long for large heaps, so say so first.
            if !super::progress_silenced()
                && (forms.closed.is_some() || matches!(forms.progressions, Some(Ok(_))))
            {
                eprintln!(
                    "re-verifying the payoff's closed form with the claims checker on {} = {k0}..{to}",
                    forms.param
                );
            }
            let bar = super::octal::LazyBar::new("re-verifying the payoff's form", "steps");
            let check = verify_family_payoff(&forms, &columns, &fam, to, &bar);
            bar.finish();
            let check = check?;
            let status = match &check {
                Some(c) => {
                    for line in c.text() {
                        text.push_str(&format!("  {line}\n"));
                    }
                    c.status()
                }
                None => "OBSERVED".to_string(),
            };
            let mut table = family_forms_table(&forms);
            table.rows.extend(closed_form_rows(&forms, &status).rows);
            emit_text_or_table(&a.out, &text, &table)
        }
        MineCommand::Family(FamilyCommand::Candy(a)) => {
            let forms = family_forms(&super::candy::family_table(&a)?.typed_columns())?;
            emit_text_or_table(&a.out, &forms.text(), &family_forms_table(&forms))
        }
    }
}

/// `mine family scoring` over several parameters: the payoffs' closed form on the grid, then
/// re-verified by the claims checker beyond it.
fn mine_grid(a: &super::scoring::FamilyArgs, fam: &crate::family::Family) -> anyhow::Result<()> {
    let t = super::scoring::family_table(a)?;
    let form = grid_forms(&t.typed_columns(), fam.params().len())?;
    let ranges: Vec<(String, i64, i64)> = a
        .params
        .ranges()?
        .into_iter()
        .map(|(p, r)| (p, r.start(), r.end()))
        .collect();
    let observed = ranges
        .iter()
        .map(|(p, lo, hi)| format!("{p} = {lo}..{hi}"))
        .collect::<Vec<_>>()
        .join(", ");
    let status = format!("OBSERVED on {observed}");
    let mut text = String::new();
    for l in &form.linear {
        text.push_str(&format!(
            "payoff: linear in {} (it adds {} per unit of {}, at every grid point)\n",
            l.name, l.step, l.name
        ));
    }
    if let Some((p, f)) = &form.shaped {
        text.push_str(&format!(
            "payoff: along {p} (the others at their least values) a {} with its numbers affine in {p}, for {p} ≥ {}\n",
            f.kind, f.from
        ));
    }
    let table = grid_form_table(&form, &status);
    text.push_str(&format!(
        "payoff: closed form f(N) = {}  ({status})\n",
        form.expr("N")
    ));
    let (over, finding) = verify_grid_form(&form, fam, &ranges)?;
    text.push_str(&format!(
        "  re-verified with `nimlab check` on {over} (beyond the data): {}, {}\n",
        finding.verdict,
        finding.evidence()
    ));
    emit_text_or_table(&a.out, &text, &table)
}

/// One group's sequence: first index and the values in order.
struct Series {
    group: String,
    first: i64,
    values: Vec<Q>,
}

/// A CSV file opened with its header read and the columns `--index`, `--value` and
/// `--group-by` found.
struct CsvColumns {
    reader: csv::Reader<Box<dyn std::io::Read>>,
    header: csv::StringRecord,
    index: usize,
    value: usize,
    group: Option<usize>,
}

fn open_csv(
    path: &std::path::Path,
    index: &str,
    value: &str,
    group_by: Option<&str>,
) -> anyhow::Result<CsvColumns> {
    // `-` is standard input.
    let mut reader = csv::Reader::from_reader(fsio::open_input(path)?);
    let header = reader
        .headers()
        .with_context(|| format!("{} has no header row", path.display()))?
        .clone();
    let column = |name: &str, flag: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| {
            anyhow::anyhow!(
                "{flag} {name}: no such column in {} (columns: {})",
                path.display(),
                header.iter().collect::<Vec<_>>().join(", ")
            )
        })
    };
    let index = column(index, "--index")?;
    let value = column(value, "--value")?;
    let group = group_by.map(|g| column(g, "--group-by")).transpose()?;
    Ok(CsvColumns {
        reader,
        header,
        index,
        value,
        group,
    })
}

fn read_series(a: &SequenceArgs) -> anyhow::Result<Vec<Series>> {
    let CsvColumns {
        mut reader,
        index: ci,
        value: cv,
        group: cg,
        ..
    } = open_csv(&a.csv, &a.index, &a.value, a.group_by.as_deref())?;
    let mut order: Vec<String> = Vec::new();
    let mut rows: HashMap<String, Vec<(i64, Q)>> = HashMap::new();
    for (line, rec) in reader.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: bad CSV record", a.csv.display()))?;
        let at = |c: usize| rec.get(c).unwrap_or("");
        let row = line + 2;
        let n: i64 = at(ci).trim().parse().map_err(|_| {
            anyhow::anyhow!(
                "{} line {row}: index '{}' is not a whole number",
                a.csv.display(),
                at(ci)
            )
        })?;
        let v: Q = at(cv).trim().parse().map_err(|_| {
            anyhow::anyhow!(
                "{} line {row}: value '{}' is not an exact number",
                a.csv.display(),
                at(cv)
            )
        })?;
        let g = cg.map(|c| at(c).to_string()).unwrap_or_default();
        if !rows.contains_key(&g) {
            order.push(g.clone());
        }
        rows.entry(g).or_default().push((n, v));
    }
    let mut out = Vec::new();
    for g in order {
        let mut r = rows.remove(&g).expect("recorded");
        r.sort_by_key(|(n, _)| *n);
        let place = || {
            let group = if g.is_empty() {
                String::new()
            } else {
                format!(" (group {g})")
            };
            format!("{}{group}", a.csv.display())
        };
        for w in r.windows(2) {
            if w[1].0 == w[0].0 {
                anyhow::bail!(
                    "{}: index {} appears twice (use --group-by to fit several sequences)",
                    place(),
                    w[0].0
                );
            }
            if w[1].0 != w[0].0 + 1 {
                anyhow::bail!(
                    "{}: indices jump from {} to {}; a sequence needs consecutive indices",
                    place(),
                    w[0].0,
                    w[1].0
                );
            }
        }
        out.push(Series {
            group: g,
            first: r[0].0,
            values: r.into_iter().map(|(_, v)| v).collect(),
        });
    }
    if out.is_empty() {
        anyhow::bail!("{} has no data rows", a.csv.display());
    }
    Ok(out)
}

/// A formula error with the formula and a caret under the fault (a long formula is shown as a
/// window around the fault).
fn formula_error(formula: &str, e: &crate::claims::expr::ExprError) -> anyhow::Error {
    let at = e.span.local_start().min(formula.len());
    let col = formula.get(..at).map_or(0, |s| s.chars().count());
    let skip = col.saturating_sub(50);
    let mut shown: String = formula.chars().skip(skip).take(100).collect();
    let mut caret = col - skip;
    if skip > 0 {
        shown.insert(0, '…');
        caret += 1;
    }
    if formula.chars().count() > skip + 100 {
        shown.push('…');
    }
    anyhow::anyhow!(
        "--formula, column {}: {}\n  {shown}\n  {}^",
        col + 1,
        e.message,
        " ".repeat(caret)
    )
}

fn check_formula(a: CheckFormulaArgs) -> anyhow::Result<bool> {
    use crate::claims::value::Value;
    let CsvColumns {
        mut reader,
        header,
        index: ci,
        value: cv,
        group: cg,
    } = open_csv(&a.csv, &a.index, &a.value, a.group_by.as_deref())?;
    // Columns that can be names in the formula (the value column is what it must produce).
    let is_name = |h: &str| {
        let mut c = h.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
    };
    // The index first: a counterexample is reported at its index.
    let vars: Vec<(usize, String)> = std::iter::once((ci, a.index.clone()))
        .filter(|(_, h)| is_name(h))
        .chain(
            header
                .iter()
                .enumerate()
                .filter(|&(i, h)| i != cv && i != ci && is_name(h))
                .map(|(i, h)| (i, h.to_string())),
        )
        .collect();
    let names: Vec<String> = vars.iter().map(|(_, h)| h.clone()).collect();
    let cell = |text: &str| match text.trim().parse::<Q>() {
        Ok(q) => Value::Num(q),
        Err(_) => Value::Str(text.into()),
    };
    let mut order: Vec<String> = Vec::new();
    let mut groups: HashMap<String, Vec<(i64, Vec<Value>, Value)>> = HashMap::new();
    for (line, rec) in reader.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: bad CSV record", a.csv.display()))?;
        let at = |c: usize| rec.get(c).unwrap_or("");
        let n: i64 = at(ci).trim().parse().map_err(|_| {
            anyhow::anyhow!(
                "{} line {}: index '{}' is not a whole number",
                a.csv.display(),
                line + 2,
                at(ci)
            )
        })?;
        if a.from.is_some_and(|f| n < f) {
            continue;
        }
        let g = cg.map(|c| at(c).to_string()).unwrap_or_default();
        if !groups.contains_key(&g) {
            order.push(g.clone());
        }
        let values = vars.iter().map(|&(i, _)| cell(at(i))).collect();
        groups.entry(g).or_default().push((n, values, cell(at(cv))));
    }
    if order.is_empty() {
        anyhow::bail!("{} has no data rows to check", a.csv.display());
    }
    let mut t = Table::new(&["group", "verdict", "range", "evidence"]);
    let mut all_hold = true;
    for g in order {
        let mut rows = groups.remove(&g).expect("recorded");
        rows.sort_by_key(|r| r.0);
        let range = format!(
            "{} = {}..{} ({} rows)",
            a.index,
            rows[0].0,
            rows[rows.len() - 1].0,
            rows.len()
        );
        let data: Vec<(Vec<Value>, Value)> = rows.into_iter().map(|(_, v, x)| (v, x)).collect();
        let f = crate::claims::check_formula_rows(&a.formula, &names, &data, &range)
            .map_err(|e| formula_error(&a.formula, &e))?;
        all_hold &= f.verdict != crate::claims::VerdictKind::Fails;
        t.push(vec![
            g.into(),
            f.verdict.to_string().into(),
            f.range_text().into(),
            f.evidence().into(),
        ]);
    }
    a.out.emit_table(&t)?;
    Ok(all_hold)
}

fn sequence(a: SequenceArgs) -> anyhow::Result<()> {
    let series = read_series(&a)?;
    let opts = FitOptions {
        min_confirming: a.confirming_periods,
        ..FitOptions::default()
    };
    let mut t = Table::new(&[
        "group",
        "period",
        "preperiod",
        "residue",
        "slope",
        "intercept",
        "from_k",
        "formula",
        "confirming_periods",
        "first",
        "last",
        "status",
    ]);
    let mut text = String::new();
    for s in &series {
        let last = s.first + s.values.len() as i64 - 1;
        let label = if s.group.is_empty() {
            String::new()
        } else {
            format!("{} = {}: ", a.group_by.as_deref().unwrap_or(""), s.group)
        };
        match fit_periodic_linear(&s.values, s.first, &opts) {
            Some(fit) => {
                text.push_str(&format!(
                    "{label}period {}, preperiod {} (OBSERVED on n = {}..{}, {} confirming periods)\n",
                    fit.period, fit.preperiod, s.first, last, fit.confirming_periods
                ));
                for (line, f) in fit.lines.iter().zip(fit.formulas(&a.value)) {
                    text.push_str(&format!("  {f}\n"));
                    t.push(vec![
                        s.group.clone().into(),
                        Cell::Int(fit.period as i64),
                        Cell::Int(fit.preperiod),
                        Cell::Int(line.residue as i64),
                        line.slope.clone().into(),
                        line.intercept.clone().into(),
                        Cell::Int(line.from_k),
                        f.into(),
                        Cell::Int(fit.confirming_periods as i64),
                        Cell::Int(s.first),
                        Cell::Int(last),
                        "OBSERVED".into(),
                    ]);
                }
            }
            None => {
                text.push_str(&format!(
                    "{label}no periodic-linear form with {} confirming periods on n = {}..{}\n",
                    a.confirming_periods, s.first, last
                ));
                let empty = || Cell::Text(String::new());
                t.push(vec![
                    s.group.clone().into(),
                    empty(),
                    empty(),
                    empty(),
                    empty(),
                    empty(),
                    empty(),
                    empty(),
                    empty(),
                    Cell::Int(s.first),
                    Cell::Int(last),
                    "NONE".into(),
                ]);
            }
        }
    }
    emit_text_or_table(&a.out, &text, &t)
}

fn cash(a: CashArgs) -> anyhow::Result<()> {
    let set: CashSet = a.set.parse().context("--set")?;
    check_threshold_budget(&set, a.max_n, true, a.memory.memory_limit).context("--max-n")?;
    let forms = threshold_forms_advising(&set, a.max_n, "; raise --max-n")?;
    let from = forms.certificate.from;
    if let Some(path) = &a.certificate {
        let file = CertificateFile::cash_thresholds(&set, forms.certificate.clone());
        write_certificate(path, &file)?;
    }
    let t = certified_forms_table(&forms);
    let mut text = format!(
        "A = {set}: the plain game is periodic with period {} from n = {} (PROVEN by a window of {})\n",
        forms.plain_period.period,
        forms.plain_period.preperiod,
        set.max()
    );
    let th = crate::games::cash::thresholds(&set, a.max_n)?;
    text.push_str(&match forms.cash_periodicity(&set, &th.winner) {
        CashPeriodicity::Periodic { period, from } => format!(
            "cash-periodic (Def 4.4, with an offset): least period {period} from n = {from} (PROVEN from the forms)\n"
        ),
        CashPeriodicity::NotPeriodic { residue, a: step, growth, which } => format!(
            "not cash-periodic, even with an offset (PROVEN from the forms): {which}(n, {step}) grows by {growth} per period along n ≡ {residue} (mod {})\n",
            forms.certificate.recurrence.period
        ),
    });
    for (name, fit) in [("f1", &forms.f1), ("f2", &forms.f2)] {
        text.push_str(&format!(
            "{name}: period {}, PROVEN for all n ≥ {from} (certificate; fitted on n ≤ {}, least preperiod in the data {})\n",
            fit.period, a.max_n, fit.preperiod
        ));
        for f in fit.formulas(name) {
            text.push_str(&format!("  {f}\n"));
        }
    }
    emit_text_or_table(&a.out, &text, &t)
}

fn replay(a: ReplayArgs) -> anyhow::Result<()> {
    if crate::claims::induction::is_certificate_dir(&a.file) {
        let solver = a.solver.map(|s| match s {
            ReplaySolver::Z3 => crate::claims::induction::Solver::Z3,
            ReplaySolver::Cvc5 => crate::claims::induction::Solver::Cvc5,
        });
        let dir = a.file.display();
        let r = crate::claims::induction::replay_certificate(
            &a.file,
            solver,
            crate::claims::induction::SECONDS_PER_OBLIGATION,
        )
        .with_context(|| format!("{dir} is REJECTED"))?;
        println!(
            "{dir}: VALID — {}: {} obligation{} posed again from {}, each answered unsat by {}",
            r.title,
            r.obligations,
            if r.obligations == 1 { "" } else { "s" },
            r.posed_from,
            r.solver.program()
        );
        return Ok(());
    }
    if a.file.is_dir() {
        anyhow::bail!(
            "{} is a directory without {}: not a certificate written by `nimlab prove --certificate`",
            a.file.display(),
            crate::claims::induction::MANIFEST
        );
    }
    if a.solver.is_some() {
        anyhow::bail!(
            "--solver applies to an induction certificate (a directory), not to {}",
            a.file.display()
        );
    }
    let path = fsio::input_label(&a.file);
    let text = fsio::read_input_to_string(&a.file)?;
    let file = CertificateFile::read(&text, &path)?;
    match file
        .replay()
        .with_context(|| format!("{path} is REJECTED"))?
    {
        Replayed::CashThresholds { set, from } => println!(
            "{path}: VALID — f^I and f^II of A = {set} follow the stated forms for every n ≥ {from}"
        ),
        Replayed::OctalPeriod(c) => println!(
            "{path}: VALID — {}: least period {}, least preperiod {}, PROVEN for all n ({})",
            c.describe(),
            c.period,
            c.preperiod,
            c.argument()
        ),
    }
    Ok(())
}

fn octal(args: OctalArgs) -> anyhow::Result<()> {
    let a = args.period;
    let game = a.rules.game()?;
    let plus = super::octal::heaps_of(&game, &a.plus)?;
    let seq = HeapSequence::new(&game, 0, &plus, a.bonus.clone())?;
    let limits = a.solve.limits();
    let report = super::octal::period_with_bar(&seq, &a)?;
    let no_period = || {
        anyhow::anyhow!(
            "no period found on n ≤ {} ({}){}",
            report.terms - 1,
            report.argument,
            if report.stopped_at.is_some() {
                ""
            } else {
                "; raise --max-heap"
            }
        )
    };
    let p = report.periodicity.as_ref().ok_or_else(no_period)?;
    if let Some(path) = &args.certificate {
        if !p.is_proven() {
            anyhow::bail!(
                "--certificate {}: the period is only OBSERVED ({}), so there is nothing to certify",
                path.display(),
                report.argument
            );
        }
        let c = seq
            .period_certificate(a.max_heap(), &limits)
            .with_context(|| format!("--certificate {}", path.display()))?;
        if (c.preperiod, c.period) != (p.preperiod, p.period) {
            anyhow::bail!(
                "--certificate {}: the window argument gives preperiod {} and period {}, the period search {} and {}",
                path.display(),
                c.preperiod,
                c.period,
                p.preperiod,
                p.period
            );
        }
        write_certificate(path, &CertificateFile::octal_period(c))?;
    }
    // The values behind the form are computed only now: a refused certificate costs nothing more.
    let form = seq.periodic_form(&report, &limits)?.ok_or_else(no_period)?;
    let status = if p.is_proven() { "PROVEN" } else { "OBSERVED" };
    let name = if a.bonus == Q::zero() { "G_s" } else { "f_N" };
    let mut text = format!(
        "{}{}: least period {}, least preperiod {} ({status}: {})\n",
        game.describe(),
        if plus.is_empty() {
            String::new()
        } else {
            format!(
                " plus {}",
                a.plus
                    .iter()
                    .map(|(h, r)| format!("{h}@{r}"))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        },
        p.period,
        p.preperiod,
        report.argument
    );
    for f in form.formulas(name) {
        text.push_str(&format!("  {f}\n"));
    }
    emit_text_or_table(&a.out, &text, &periodic_forms_table(&form, name, status))
}

fn across_cash(a: AcrossCashArgs) -> anyhow::Result<()> {
    let family: crate::family::Family = a.set.parse().map_err(|e| anyhow::anyhow!("--set: {e}"))?;
    let family = SetFamily::new(family).map_err(|e| anyhow::anyhow!("--set: {e}"))?;
    if family.param() != "L" {
        anyhow::bail!("--set {}: the move set must use the one parameter L", a.set);
    }
    let sets = family
        .members(a.l, a.step, a.memory.memory_limit)
        .with_context(|| format!("--L {}..{} --step {}", a.l.start(), a.l.end(), a.step))?;
    let bar = super::octal::LazyBar::new("fitting", "terms");
    let members = across_members(&sets, a.memory.memory_limit, &bar);
    bar.finish();
    let members = members?;
    let table = across_table(&family, &sets, &members);
    let analysis = across_analysis(members, &across_function_names(), a.step);
    let mut text = String::new();
    for (m, (_, set)) in analysis.members.iter().zip(&sets) {
        let slopes = m
            .slopes
            .iter()
            .map(Q::to_string)
            .collect::<Vec<_>>()
            .join(",");
        text.push_str(&format!(
            "L = {}: A = {set}, f^I and f^II periodic-linear with period {}, PROVEN for n ≥ {}, slopes per period {{{slopes}}}\n",
            m.l, m.period, m.from
        ));
    }
    text.push_str(&analysis.text());
    emit_text_or_table(&a.out, &text, &table)
}

/// The functions of a cash-across row, in the order of their intercept columns.
fn across_function_names() -> Vec<&'static str> {
    ACROSS_FUNCTIONS.iter().map(|(_, name, _)| *name).collect()
}

/// Formulas read best as text; CSV and JSON get the table.
fn emit_text_or_table(out: &OutputArgs, text: &str, table: &Table) -> anyhow::Result<()> {
    match out.format {
        Format::Text => out.emit(|w| w.write_all(text.as_bytes())),
        _ => out.emit_table(table),
    }
}
