//! The scoring octal games report (Stewart): Table 1 (S = {4,5}) as printed beside nimlab's
//! exact values, the sequence G_s(n) plotted with its proven preperiod and period marked, the
//! closed forms of G_s for S = {4,5} and for the paper's (3333, 2222) as `nimlab mine octal`
//! finds them (with their status), and the verdicts. Every text a reader sees writes its
//! mathematics as `$…$` TeX.

use super::{Draft, command, param};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::games::scoring::{
    HeapSequence, HeapSize, Limits, OctalRules, PeriodReport, RulesError, ScoringGame,
};
use crate::miner::PeriodStatus;
use crate::num::Q;
use crate::progress::Progress;
use crate::report::ReportOptions;
use crate::report::context::{Axis, Figure, Series, SeriesStyle, TableSection, VLine};
use crate::report::data::{BFile, FigureSpec, Shown, TableSpec, agreement, bfiles, figure, table};
use crate::report::files::Files;
use crate::tables::mined::{formulas_math, periodic_forms_table};

/// The subtraction set of Table 1 and the figure.
const SET: [HeapSize; 2] = [4, 5];

/// Stewart's code with points, the other game whose closed form is mined.
const STEWART: &str = "(3333, 2222)";

/// Stewart's Table 1 as printed: G_s(n) for the subtraction set {4, 5}, n = 0..15 (§3.1.1,
/// after the proof of Lemma 13, "Table 1: A game with subtraction set {4, 5}"; our copy,
/// papers/impartial-scoring-play-games.md, has no page numbers). The claim `table-1` of
/// data/claims/scoring-octal.toml checks the same values through its helper `table1`; a test
/// keeps the two transcriptions equal.
pub const PRINTED_TABLE_1: [i64; 16] = [0, 0, 0, 0, 4, 5, 5, 5, 5, 1, 0, 0, 0, 3, 4, 5];

/// Table 1 side by side: n, the printed value, nimlab's exact value and whether they agree, for
/// every n the paper prints (`exact` must reach n = 15). Also returns the n where they differ.
pub fn table1_side_by_side(exact: &[Q]) -> Result<(Table, Vec<usize>)> {
    let mut t = Table::new(&["n", "paper", "nimlab", "agreement"]);
    let mut differ = Vec::new();
    for (n, printed) in PRINTED_TABLE_1.iter().enumerate() {
        let found = exact.get(n).ok_or_else(|| {
            Error::invalid(format!(
                "Table 1 needs G_s({n}); only {} values",
                exact.len()
            ))
        })?;
        let agrees = *found == Q::int(*printed);
        if !agrees {
            differ.push(n);
        }
        t.push(vec![
            Cell::Int(n as i64),
            Cell::Int(*printed),
            found.clone().into(),
            agreement(agrees).into(),
        ]);
    }
    Ok((t, differ))
}

/// Why (3333, 2222) has period 5, for the caption of its closed forms (the claim "(3333, 2222)
/// period 5" checks it; the engine's own window is the normal-play reduction's, not this one).
const STEWART_ARGUMENT: &str = "Proven: every move scores $2$, so the mover's final margin is $2$ when the mover makes the last move and $0$ otherwise, that is $\\mathcal{G}_s(n) = 2$ exactly when the normal-play Grundy value of $n$ in the subtraction game $\\lbrace 1, 2, 3, 4\\rbrace$, which is $n \\bmod 5$, is non-zero (the claim (3333, 2222) period 5).";

/// The law of 0.25 (the claim `law-0.25`): the even line 4 + ⌊(n − 18)/12⌋ and the odd line
/// −1 − ⌊(n − 13)/12⌋.
pub fn law_025(n: i64) -> i64 {
    if n % 2 == 0 {
        4 + (n - 18).div_euclid(12)
    } else {
        -1 - (n - 13).div_euclid(12)
    }
}

/// The heaps where G_s of 0.25 differs from [`law_025`], among `values` (G_s(0), G_s(1), …).
pub fn law_025_exceptions(values: &[Q]) -> Vec<usize> {
    (0..values.len())
        .filter(|&n| values[n] != Q::int(law_025(n as i64)))
        .collect()
}

/// The figure of G_s for 0.25 with both lines of its law, n ≤ `max_n`, and the exceptions read
/// off the values.
fn law_figure(max_n: HeapSize, files: &mut Files) -> Result<Figure> {
    let rules: OctalRules = "0.25"
        .parse()
        .map_err(|e: RulesError| Error::invalid(e.to_string()))?;
    let seq = HeapSequence::new(&ScoringGame::single(rules), 0, &[], Q::zero())?;
    let values = seq.values(max_n, &Limits::default())?;
    let mut data = Table::new(&["n", "value", "even", "odd"]);
    for (n, v) in values.iter().enumerate() {
        let n = n as i64;
        data.push(vec![
            Cell::Int(n),
            v.clone().into(),
            Cell::Int(4 + (n - 18).div_euclid(12)),
            Cell::Int(-1 - (n - 13).div_euclid(12)),
        ]);
    }
    let exceptions: Vec<String> = law_025_exceptions(&values)
        .iter()
        .map(|n| n.to_string())
        .collect();
    let exceptions = match exceptions.len() {
        0 => "it holds at every $n$ shown".to_string(),
        1 => format!("it fails only at $n = {}$", exceptions[0]),
        _ => format!(
            "it fails only at $n \\in \\lbrace {}\\rbrace$",
            exceptions.join(", ")
        ),
    };
    figure(
        FigureSpec {
            id: "values-0-25".into(),
            title: "$\\mathcal{G}_s(n)$ for $O = 0.25$ and the two lines of its law".into(),
            caption: format!(
                "The first New result: $\\mathcal{{G}}_s(n)$ for $O = 0.25$ ($p_1 = 1$, $p_2 = 2$), $0 \\le n \\le {max_n}$, as points, beside the two lines of the law, $4 + \\lfloor (n-18)/12\\rfloor$ (rising by $1$ every $12$ heaps, followed by even $n$) and $-1 - \\lfloor (n-13)/12\\rfloor$ (falling by $1$ every $12$ heaps, followed by odd $n$); {exceptions}. Observed, not proven: breaking codes have no finite look-back."
            ),
            command: format!("nimlab octal values --rules 0.25 --max-heap {max_n} --format csv"),
            x: Axis {
                column: "n".into(),
                label: "heap size $n$".into(),
            },
            y_label: "$\\mathcal{G}_s(n)$".into(),
            series: vec![
                Series {
                    column: "even".into(),
                    label: "$4 + \\lfloor (n-18)/12\\rfloor$ (even $n$)".into(),
                    color: "orange".into(),
                    style: SeriesStyle::Line,
                },
                Series {
                    column: "odd".into(),
                    label: "$-1 - \\lfloor (n-13)/12\\rfloor$ (odd $n$)".into(),
                    color: "gray".into(),
                    style: SeriesStyle::Line,
                },
                Series {
                    column: "value".into(),
                    label: "$\\mathcal{G}_s(n)$, $O = 0.25$".into(),
                    color: "teal".into(),
                    style: SeriesStyle::Dots,
                },
            ],
            data,
            marks: None,
            vlines: Vec::new(),
        },
        files,
    )
}

/// How far `nimlab octal period` and `nimlab mine octal` look before giving up (their default).
const PERIOD_SEARCH: HeapSize = 100_000;

/// The builtin `scoring-octal.subtraction-4-5`: Table 1 beside the exact G_s(n) for S = {4, 5},
/// its period and closed forms, the law of O = 0.25, and the b-files.
pub fn build(d: &mut Draft, opts: &ReportOptions, progress: &dyn Progress) -> Result<()> {
    let Draft {
        files,
        reproduce,
        parameters,
        ..
    } = d;
    progress.stage("scoring-octal: G_s(n) for S = {4,5}");
    progress.add_work(1);
    // The figure shows the preperiod and a few periods (Table 1 is n ≤ 15, n₀ = 27).
    let max_n: HeapSize = 60;
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
    let (table1, differ) = table1_side_by_side(&values)?;
    let mut vlines = vec![VLine {
        x: (PRINTED_TABLE_1.len() - 1) as i64,
        label: "Table 1 ends".into(),
    }];
    if let Some(p) = &period.periodicity {
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
    let mut figures = vec![figure(
        FigureSpec {
            id: "values-4-5".into(),
            title: "$\\mathcal{G}_s(n)$ for the subtraction set $S = \\lbrace 4,5 \\rbrace$".into(),
            caption: format!(
                "Stewart's $\\mathcal{{G}}_s(n)$ (the mover's best margin from a single heap of $n$ beans) for $0 \\le n \\le {max_n}$; dashed lines mark the end of the paper's Table 1 ($n = 15$), the least preperiod $n_0$ and one period later. {}",
                period_argument(&period)
            ),
            command: format!("nimlab octal values --subtract 4,5 --max-heap {max_n} --format csv"),
            x: Axis {
                column: "n".into(),
                label: "heap size $n$".into(),
            },
            y_label: "$\\mathcal{G}_s(n)$".into(),
            series: vec![Series {
                column: "value".into(),
                label: "$\\mathcal{G}_s(n)$, $S = \\lbrace 4,5 \\rbrace$".into(),
                color: "teal".into(),
                style: SeriesStyle::Markers,
            }],
            data,
            marks: None,
            vlines,
        },
        files,
    )?];
    figures.push(law_figure(if opts.deep { 90 } else { 60 }, files)?);
    let agreement_text = if differ.is_empty() {
        format!("they agree at all ${}$ values", PRINTED_TABLE_1.len())
    } else {
        let at: Vec<String> = differ.iter().map(|n| n.to_string()).collect();
        format!(
            "they DIFFER at ${}$ of the ${}$ values, $n = {}$",
            differ.len(),
            PRINTED_TABLE_1.len(),
            at.join(", ")
        )
    };
    let mut tables = vec![table(
        TableSpec {
            title: "Table 1 beside nimlab: $\\mathcal{G}_s(n)$ for $S = \\lbrace 4, 5\\rbrace$"
                .into(),
            caption: format!(
                "The paper's Table 1 as printed (§3.1.1) beside nimlab's exact $\\mathcal{{G}}_s(n)$, $0 \\le n \\le 15$: {agreement_text}. The claim Table 1 checks the same values. The reproduce command gives the nimlab column."
            ),
            csv: "table1.csv".into(),
            command: "nimlab octal values --subtract 4,5 --max-heap 15 --format csv".into(),
            show: 16,
            data: table1,
            headers: vec![
                "$n$".into(),
                "paper (Table 1)".into(),
                "nimlab".into(),
                "agreement".into(),
            ],
            display: Vec::new(),
        },
        files,
    )?];
    progress.advance(1);
    progress.stage("scoring-octal: closed forms of G_s");
    progress.add_work(1);
    let stewart_rules: OctalRules = STEWART
        .parse()
        .map_err(|e: RulesError| Error::invalid(e.to_string()))?;
    let stewart = HeapSequence::new(&ScoringGame::single(stewart_rules), 0, &[], Q::zero())?;
    let stewart_period = stewart.period(PERIOD_SEARCH, &Limits::default())?;
    // The paper's own data: tables, not New results (the period of (3333, 2222) is a claim).
    for (seq, report, what, id, args, argument) in [
        (
            &seq,
            &period,
            "$S = \\lbrace 4, 5\\rbrace$",
            "4-5",
            "--subtract 4,5".to_string(),
            period_argument(&period),
        ),
        (
            &stewart,
            &stewart_period,
            "$O = (3333, 2222)$",
            "3333-2222",
            format!("--rules \"{STEWART}\""),
            STEWART_ARGUMENT.to_string(),
        ),
    ] {
        tables.extend(mined_forms(seq, report, what, id, &args, &argument, files)?);
    }
    progress.advance(1);
    let mut list = Vec::new();
    for (seq, what, slug, args) in [
        (
            &seq,
            "$S = \\lbrace 4, 5\\rbrace$",
            "4-5",
            "--subtract 4,5".to_string(),
        ),
        (
            &stewart,
            "$O = (3333, 2222)$",
            "3333-2222",
            format!("--rules \"{STEWART}\""),
        ),
    ] {
        let values = seq.values(bfile_n, &Limits::default())?;
        list.push(BFile {
            file: format!("b-gs-{slug}.txt"),
            sequence: format!("$\\mathcal{{G}}_s(n)$ for {what}"),
            command: format!("nimlab octal values {args} --max-heap {bfile_n} --format csv"),
            terms: values
                .into_iter()
                .enumerate()
                .map(|(n, v)| (n as i64, Cell::from(v)))
                .collect(),
        });
    }
    tables.push(bfiles(list, files)?);
    reproduce.push(command(
        "The least preperiod and period of $\\mathcal{G}_s$ for $S = \\lbrace 4, 5\\rbrace$",
        "nimlab octal period --subtract 4,5",
    ));
    reproduce.push(command(
        "The values of $\\mathcal{G}_s$ for $O = 0.25$, $n \\le 90$ (the law of the New results beyond the claim's range; some minutes)",
        "nimlab octal values --rules 0.25 --max-heap 90",
    ));
    reproduce.push(command(
        "The closed forms of $\\mathcal{G}_s$ for $S = \\lbrace 4, 5\\rbrace$ and for $O = (3333, 2222)$, with their status",
        format!("nimlab mine octal --subtract 4,5 && nimlab mine octal --rules \"{STEWART}\""),
    ));
    parameters.extend([
                param(
                    "ruleset",
                    "subtraction set $S = \\lbrace 4, 5\\rbrace$, $p_i = i$",
                ),
                param(
                    "sequence",
                    format!("$\\mathcal{{G}}_s(n)$, $0 \\le n \\le {max_n}$, bonus $N = 0$"),
                ),
                param("period search", format!("up to $n = {PERIOD_SEARCH}$")),
                param(
                    "not checked",
                    "Theorem 8 (a commutative monoid under the disjunctive sum), the example $G +_\\ell G \\in \\mathcal{P}$ of §2, and the greedy strategy for scoring Nim of §3",
                ),
                param(
                    "closed forms",
                    "$\\mathcal{G}_s$ for $S = \\lbrace 4, 5\\rbrace$ and for $O = (3333, 2222)$",
                ),
            ]);
    d.tables.extend(tables);
    d.figures.extend(figures);
    Ok(())
}

/// The closed form of G_s as `nimlab mine octal {args}` finds it: its table (one line per
/// residue, PROVEN or OBSERVED as the period is; none without a period), its caption saying
/// why the period holds (`argument`, prose with `$…$` mathematics).
fn mined_forms(
    seq: &HeapSequence,
    report: &PeriodReport,
    what: &str,
    id: &str,
    args: &str,
    argument: &str,
    files: &mut Files,
) -> Result<Option<TableSection>> {
    let (Some(p), Some(form)) = (
        &report.periodicity,
        seq.periodic_form(report, &Limits::default())?,
    ) else {
        return Ok(None);
    };
    let status = if p.is_proven() { "PROVEN" } else { "OBSERVED" };
    let section = table(
        TableSpec {
            title: format!("Closed forms of $\\mathcal{{G}}_s$ for {what}"),
            caption: format!(
                "Least period ${}$ and least preperiod $n_0 = {}$ for every line, {status}. {} One line per residue $i$, $0 \\le i \\le {}$: $\\mathcal{{G}}_s({}k + i) = c_i$ for every $k$ from the least one at which the line holds on.",
                p.period,
                p.preperiod,
                argument,
                p.period - 1,
                p.period,
            ),
            csv: format!("mined-{id}.csv"),
            command: format!("nimlab mine octal {args} --format csv"),
            data: periodic_forms_table(&form, "G_s", status),
            show: 64,
            headers: vec![
                "residue $i$".into(),
                "period".into(),
                "preperiod".into(),
                "$c_i$".into(),
                "from $k$".into(),
                "formula".into(),
                "status".into(),
            ],
            // Period and preperiod are the same on every line: the caption says them once.
            display: vec![
                ("period".into(), Shown::Hidden),
                ("preperiod".into(), Shown::Hidden),
                (
                    "formula".into(),
                    Shown::Cells(formulas_math(&form, "\\mathcal{G}_s", "k")),
                ),
            ],
        },
        files,
    )?;
    Ok(Some(section))
}

/// Why the period is what it is, in prose with `$…$` mathematics, from the typed status (the
/// engine's own sentence is plain text for the command line).
fn period_argument(report: &PeriodReport) -> String {
    match &report.periodicity {
        Some(p) => match &p.status {
            PeriodStatus::Proven {
                window_start,
                window_len,
            } => format!(
                "Proven: the window ${window_start} \\le n \\le {}$ (${window_len}$ consecutive values) recurs ${}$ later, so by induction the period holds for every $n \\ge {}$.",
                window_start + window_len - 1,
                p.period,
                p.preperiod
            ),
            PeriodStatus::Observed { periods_seen } => format!(
                "Observed only: ${periods_seen}$ periods seen among the first ${}$ terms, no proof.",
                report.terms
            ),
        },
        None => format!("No period among the first ${}$ terms.", report.terms),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::claims::Registry;
    use crate::claims::engines::Engines;
    use crate::claims::eval::Evaluator;
    use crate::claims::registry::{Assertion, Check};
    use crate::claims::value::Value;

    /// The claim `id`'s printed side (its `expected`) at `var = x`, from the claim file itself.
    pub(in crate::papers) fn printed_in_claim_file(
        file: &str,
        id: &str,
        var: &str,
        x: i64,
    ) -> Value {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let reg = Registry::load(&path).unwrap();
        let claim = reg.claims.iter().find(|c| c.id == id).unwrap();
        let Check::Expr(check) = &claim.check else {
            panic!("{id} is an expression check")
        };
        let Assertion::Equal { expected, .. } = &check.assertion else {
            panic!("{id} compares two expressions")
        };
        let mut engines = Engines::new();
        let mut env = vec![(var, Value::Num(Q::int(x)))];
        Evaluator::new(&reg.definitions, &mut engines)
            .eval(expected, &mut env)
            .unwrap()
    }

    /// G_s for a subtraction set with p_i = i, straight from the definition: the best of
    /// s − G_s(n − s) over the moves, 0 without a move.
    fn brute_gs(set: &[i64], max_n: usize) -> Vec<i64> {
        let mut g = vec![0i64; max_n + 1];
        for n in 0..=max_n {
            g[n] = set
                .iter()
                .filter(|&&s| s as usize <= n)
                .map(|&s| s - g[n - s as usize])
                .max()
                .unwrap_or(0);
        }
        g
    }

    #[test]
    fn the_law_of_0_25_fails_exactly_at_0_3_8_on_the_first_values() {
        // `nimlab octal values --rules 0.25 --max-heap 12`.
        let values: Vec<Q> = [0, 0, 2, -1, 2, 0, 3, 0, 4, 0, 3, 0, 3]
            .iter()
            .map(|&v| Q::int(v))
            .collect();
        assert_eq!(law_025_exceptions(&values), vec![0, 3, 8]);
        assert_eq!((law_025(90), law_025(87)), (10, -7));
    }

    #[test]
    fn the_printed_table_1_is_the_claim_files_transcription() {
        for (n, printed) in PRINTED_TABLE_1.iter().enumerate() {
            let claimed =
                printed_in_claim_file("data/claims/scoring-octal.toml", "table-1", "n", n as i64);
            assert_eq!(claimed, Value::Num(Q::int(*printed)), "n = {n}");
        }
    }

    #[test]
    fn table_1_side_by_side_agrees_exactly_where_the_definition_does() {
        let brute = brute_gs(&SET.map(|s| s as i64), 15);
        let exact: Vec<Q> = brute.iter().map(|&v| Q::int(v)).collect();
        let (t, differ) = table1_side_by_side(&exact).unwrap();
        let expected_differ: Vec<usize> = (0..16)
            .filter(|&n| brute[n] != PRINTED_TABLE_1[n])
            .collect();
        assert_eq!(differ, expected_differ);
        for (n, row) in t.rows.iter().enumerate() {
            assert_eq!(row[2], Cell::Rational(Q::int(brute[n])));
            assert_eq!(row[3], agreement(brute[n] == PRINTED_TABLE_1[n]).into());
        }
        // A wrong value is flagged where it is, and only there.
        let mut wrong = exact.clone();
        wrong[13] = Q::int(5);
        let (t, differ) = table1_side_by_side(&wrong).unwrap();
        assert_eq!(differ, vec![13]);
        assert_eq!(t.rows[13][3], agreement(false).into());
        assert!(table1_side_by_side(&exact[..10]).is_err());
    }
}
