//! Stewart's scoring octal games ("Impartial scoring play games"): stated periods, Lemma 13,
//! Conjectures 14–17 over families of games, and Theorem 12 against an explicit Left/Right
//! minimax.
//!
//! Every period comes from the engine's prover, [`HeapSequence::period`] (what `nimlab octal
//! period` reports): PROVEN only when it gives a proof (a recurring window of a finite
//! look-back, or the normal-play reduction), OBSERVED or NONE otherwise. A statement about every
//! finite game is never PROVEN here: checked on a finite family it HOLDS ("each instance
//! proven" when a proof settles each one), is OPEN when some instance is settled by nothing, or
//! FAILS with a counterexample.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

use foldhash::fast::FixedState;
use rayon::prelude::*;

use super::{Builtin, BuiltinRun, PointOutcome, ambiguous, finding, int_value};
use crate::claims::expr::Expr;
use crate::claims::finding::{
    EvidenceTable, Finding, InstanceProofs, Phrase, Proof, RangePart, Reading, Sentence,
    VerdictKind,
};
use crate::claims::functions::octal::OctalCache;
use crate::claims::typeset::{rational_math, text_math};
use crate::claims::value::Value;
use crate::error::{Error, Result};
use crate::games::scoring::{
    Heap, HeapSequence, HeapSize, Limits, OctalRules, PeriodReport, RulesId, Ruleset, ScoringGame,
    parse_rules,
};
use crate::miner::{PeriodStatus, Periodicity};
use crate::num::Q;

/// The builtins of this paper.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "octal.period",
        about: "a stated (least) period and preperiod of n ↦ G_s(n +ℓ plus): checked on the range \
                (args n), then PROVEN or refuted by the engine's period prover",
        expr_args: &["n"],
        run: period,
    },
    Builtin {
        name: "octal.lemma_13",
        about: "Lemma 13: G_s(s + 2ik) = k − G_s(s + (2i−1)k) for every S with max S = k, s ∈ S, \
                i ≥ 1 (args k, i); PROVEN when every S has a proven period dividing 2k",
        expr_args: &["k", "i"],
        run: lemma_13,
    },
    Builtin {
        name: "octal.conjecture_14",
        about: "Conjecture 14: 2·max S is an eventual period of G_s, for every S with max S = k \
                (args k); FAILS on a proven period not dividing 2k",
        expr_args: &["k"],
        run: conjecture_14,
    },
    Builtin {
        name: "octal.max_preperiod",
        about: "over every S with max S = k (args k, preperiod): the least period of G_s is \
                PROVEN and equals 2k, and the largest least preperiod equals the expression \
                preperiod, attained at S = {k−1, k}",
        expr_args: &["k", "preperiod"],
        run: max_preperiod,
    },
    Builtin {
        name: "octal.conjecture_15",
        about: "Conjecture 15 over taking-no-breaking codes O (index points, a digit 2 or 3) of \
                length L and P of length ≤ p_len, n +ℓ m (args L, m): readings \"all n ≥ 0\" \
                and \"eventually\"",
        expr_args: &["L", "m"],
        run: conjecture_15,
    },
    Builtin {
        name: "octal.conjecture_16",
        about: "Conjecture 16 over taking-no-breaking codes with points from o_points / p_points \
                (args L, m): readings \"purely periodic\" and \"eventually periodic\"",
        expr_args: &["L", "m"],
        run: conjecture_16,
    },
    Builtin {
        name: "octal.conjecture_17",
        about: "Conjecture 17 over every octal code of length L (index points), second heap m \
                under the same rules, heaps n ≤ max n (args L, m, n)",
        expr_args: &["L", "m", "n"],
        run: conjecture_17,
    },
    Builtin {
        name: "octal.theorem_12",
        about: "Theorem 12: G_s = n_F^{SL} = −n_F^{SR} on heaps n and sums n +ℓ m (args n, m; \
                rulesets rules, plus), final scores by an explicit Left/Right minimax",
        expr_args: &["n", "m"],
        run: theorem_12,
    },
];

// ------------------------------------------------------------------------------------------------
// Arguments and ranges

/// The whole-number values of the expression arguments at every point of the range, in order.
fn int_points(run: &mut BuiltinRun<'_, '_>) -> Result<Vec<Vec<i64>>> {
    let names: Vec<String> = run.exprs.iter().map(|(n, _)| n.clone()).collect();
    let mut rows = Vec::new();
    run.each_point(|_, values| {
        let row = values
            .iter()
            .zip(&names)
            .map(|(v, n)| int_value(v, n))
            .collect::<Result<Vec<i64>>>()?;
        rows.push(row);
        Ok(PointOutcome::Pass)
    })?;
    Ok(rows)
}

/// The values of column `a` in order of first appearance, each with the values of column `b`
/// seen with it (in order, without repeats).
fn grouped(rows: &[Vec<i64>], a: usize, b: usize) -> Vec<(i64, Vec<i64>)> {
    let mut out: Vec<(i64, Vec<i64>)> = Vec::new();
    for r in rows {
        let i = match out.iter().position(|(x, _)| *x == r[a]) {
            Some(i) => i,
            None => {
                out.push((r[a], Vec::new()));
                out.len() - 1
            }
        };
        if !out[i].1.contains(&r[b]) {
            out[i].1.push(r[b]);
        }
    }
    out
}

/// The values of column `c` in order of first appearance.
fn distinct(rows: &[Vec<i64>], c: usize) -> Vec<i64> {
    let mut out = Vec::new();
    for r in rows {
        if !out.contains(&r[c]) {
            out.push(r[c]);
        }
    }
    out
}

fn natural(v: i64, what: &str) -> Result<usize> {
    usize::try_from(v).map_err(|_| Error::invalid(format!("{what} = {v} must be ≥ 0")))
}

fn heap_size(v: usize, what: &str) -> Result<HeapSize> {
    HeapSize::try_from(v).map_err(|_| Error::invalid(format!("{what} = {v} is too large")))
}

fn max_heap_arg(run: &BuiltinRun<'_, '_>, default: i64) -> Result<HeapSize> {
    let v = run.int_or("max_heap", default)?;
    heap_size(natural(v, "args.max_heap")?, "args.max_heap")
}

fn bool_arg(run: &BuiltinRun<'_, '_>, key: &str, default: bool) -> Result<bool> {
    match run.args.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| Error::invalid(format!("`args.{key}` must be true or false"))),
    }
}

fn array_arg<'a>(run: &'a BuiltinRun<'_, '_>, key: &str) -> Result<&'a [toml::Value]> {
    match run.args.get(key) {
        None => Ok(&[]),
        Some(v) => v
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| Error::invalid(format!("`args.{key}` must be a list"))),
    }
}

fn str_list(run: &BuiltinRun<'_, '_>, key: &str) -> Result<Vec<String>> {
    array_arg(run, key)?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| Error::invalid(format!("`args.{key}` must be a list of strings")))
        })
        .collect()
}

fn int_list(run: &BuiltinRun<'_, '_>, key: &str) -> Result<Vec<usize>> {
    array_arg(run, key)?
        .iter()
        .map(|v| {
            v.as_integer()
                .and_then(|i| usize::try_from(i).ok())
                .ok_or_else(|| {
                    Error::invalid(format!("`args.{key}` must be a list of whole numbers ≥ 0"))
                })
        })
        .collect()
}

/// Rationals given as strings ("1/2") or integers.
fn q_list(run: &BuiltinRun<'_, '_>, key: &str) -> Result<Vec<Q>> {
    let items = array_arg(run, key)?;
    if items.is_empty() {
        return Err(Error::invalid(format!(
            "`args.{key}` must list at least one point value"
        )));
    }
    items
        .iter()
        .map(|v| match v {
            toml::Value::Integer(i) => Ok(Q::int(*i)),
            toml::Value::String(s) => Ok(s.parse::<Q>()?),
            other => Err(Error::invalid(format!(
                "`args.{key}`: {other} is not a rational number (write \"1/2\")"
            ))),
        })
        .collect()
}

fn ruleset(s: &str) -> Result<Arc<dyn Ruleset>> {
    parse_rules(s).map_err(|e| Error::invalid(format!("ruleset \"{s}\": {e}")))
}

/// Heaps `3`, `3@2` (ruleset 2 = the first of `also`), comma-separated.
fn parse_plus(s: &str, rulesets: usize) -> Result<Vec<Heap>> {
    s.split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let (n, r) = t.split_once('@').unwrap_or((t, "1"));
            let size: HeapSize = n
                .trim()
                .parse()
                .map_err(|_| Error::invalid(format!("`args.plus`: `{t}` is not a heap")))?;
            let r: usize = r
                .trim()
                .parse()
                .ok()
                .filter(|&r| (1..=rulesets).contains(&r))
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "`args.plus`: `{t}` names a ruleset outside 1..{rulesets} (`rules`, then \
                         `also`)"
                    ))
                })?;
            Ok(Heap {
                size,
                rules: (r - 1) as RulesId,
            })
        })
        .collect()
}

// ------------------------------------------------------------------------------------------------
// Sequences and the prover

/// The prover's report on n ↦ G_s(n +ℓ plus).
/// The search runs to `max_heap` when it can end in a proof, and only to `observed` (at most
/// `max_heap`) when it can only observe.
fn prove(
    game: &ScoringGame,
    plus: &[Heap],
    max_heap: HeapSize,
    observed: HeapSize,
) -> Result<(HeapSequence, PeriodReport)> {
    let seq = HeapSequence::new(game, 0, plus, Q::zero())?;
    let cap = if seq.period_provable() {
        max_heap
    } else {
        observed.min(max_heap)
    };
    let report = seq.period(cap, &Limits::default())?;
    Ok((seq, report))
}

/// G_s(0..=top).
fn values(seq: &HeapSequence, top: usize) -> Result<Vec<Q>> {
    seq.values(heap_size(top, "a heap")?, &Limits::default())
}

fn proven(r: &PeriodReport) -> Option<&Periodicity> {
    r.periodicity.as_ref().filter(|p| p.is_proven())
}

fn status(r: &PeriodReport) -> &'static str {
    match &r.periodicity {
        Some(p) if p.is_proven() => "PROVEN",
        Some(_) => "OBSERVED",
        None => "NONE",
    }
}

fn window(p: &Periodicity) -> String {
    match p.status {
        PeriodStatus::Proven {
            window_start,
            window_len,
        } => format!(
            "window ${window_start} \\le n \\le {}$",
            window_start + window_len - 1
        ),
        PeriodStatus::Observed { periods_seen } => format!("{periods_seen} periods seen"),
    }
}

/// Stewart's spelling with comma-separated points, `0.23` / `{4,5}` for p_i = i.
fn spell(o: &OctalRules) -> String {
    if o.default_points() {
        return o.to_string();
    }
    let digits: String = o.digits().iter().map(u8::to_string).collect();
    let points: Vec<String> = o.points().iter().map(Q::to_string).collect();
    format!("({digits}, {})", points.join(","))
}

fn show_set(s: &[HeapSize]) -> String {
    let parts: Vec<String> = s.iter().map(u32::to_string).collect();
    format!("{{{}}}", parts.join(","))
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A set S as a value (a coordinate of a counterexample, written as a set).
fn set_value(s: &[HeapSize]) -> Value {
    Value::List(s.iter().map(|&h| Value::int(h)).collect())
}

/// A rational as a math body: `-1`, `\tfrac{1}{2}`.
fn qm(q: &Q) -> String {
    rational_math(q)
}

/// Expressions of the claim language naming values of G_s (`gs("0.21", 5)`, `gs_mixed(…)`,
/// `k - gs(…)`), built as trees so that a report typesets a false equation between two computed
/// values as one equation.
mod named {
    use crate::claims::expr::{BinOp, Expr, ExprKind, Span};

    fn node(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    pub fn int(n: impl Into<num_bigint::BigInt>) -> Expr {
        node(ExprKind::Int(n.into()))
    }

    pub fn text(s: &str) -> Expr {
        node(ExprKind::Str(std::sync::Arc::from(s)))
    }

    pub fn list(items: Vec<Expr>) -> Expr {
        node(ExprKind::List(items))
    }

    pub fn call(name: &str, args: Vec<Expr>) -> Expr {
        node(ExprKind::Call(name.to_string(), args))
    }

    /// `gs(rules, heaps)`.
    pub fn gs(rules: &str, heaps: Expr) -> Expr {
        call("gs", vec![text(rules), heaps])
    }

    /// `k - e`.
    pub fn minus(k: impl Into<num_bigint::BigInt>, e: Expr) -> Expr {
        node(ExprKind::Binary(BinOp::Sub, Box::new(int(k)), Box::new(e)))
    }
}

/// A failing finding whose one claimed and one found value are named by `claimed` and
/// `found`: a report then shows `found = a \ne b = claimed` as one equation.
fn as_equation(mut f: Finding, claimed: Option<Expr>, found: Option<Expr>) -> Finding {
    if let (Some(c), Some(claimed), Some(found)) = (f.counterexample.as_mut(), claimed, found)
        && let ([e], [a]) = (c.expected.as_mut_slice(), c.actual.as_mut_slice())
    {
        e.expr = Some(claimed.unplaced());
        a.expr = Some(found.unplaced());
    }
    f
}

/// A ruleset as mathematics: `0.21`, `\lbrace 4, 5\rbrace`, or the code with its points named
/// by `letter` (`0.23\ (p_1 = \tfrac{1}{2},\ p_2 = 2)`).
fn rules_math(o: &OctalRules, letter: char) -> String {
    if o.default_points() {
        return match o.written_as_set() {
            Some(s) => set_math(&s),
            None => o.code(),
        };
    }
    let digits: String = o.digits().iter().map(u8::to_string).collect();
    let points: Vec<String> = o
        .digits()
        .iter()
        .zip(o.points())
        .enumerate()
        .filter(|(_, (d, _))| **d != 0)
        .map(|(i, (_, p))| format!("{letter}_{} = {}", i + 1, qm(p)))
        .collect();
    format!(r"0.{digits}\ ({})", points.join(r",\ "))
}

/// The prover's report as a phrase of mathematics: `PROVEN least period $10$`.
fn status_math(r: &PeriodReport) -> String {
    match &r.periodicity {
        Some(p) => format!("{} least period ${}$", status(r), p.period),
        None => "NONE".to_string(),
    }
}

/// The prover's proof of an eventual period, with its argument in words.
fn period_proof(p: &Periodicity, argument: &str) -> Option<Proof> {
    match p.status {
        PeriodStatus::Proven {
            window_start,
            window_len,
        } => Some(Proof::Period {
            period: p.period,
            preperiod: p.preperiod,
            window_start,
            window_len,
            argument: argument.to_string(),
        }),
        PeriodStatus::Observed { .. } => None,
    }
}

// ------------------------------------------------------------------------------------------------
// octal.period

/// `octal.period`: G_s(n + P) = G_s(n) on the range for n ≥ preperiod, then the prover's least
/// period P* and least preperiod n₀: P* = P (or P* | P when `least = false`) and n₀ ≤ preperiod.
fn period(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let rules = run.text("rules")?.to_string();
    let mut rulesets = vec![ruleset(&rules)?];
    for a in str_list(run, "also")? {
        rulesets.push(ruleset(&a)?);
    }
    let game = ScoringGame::new(rulesets);
    let plus = match run.args.get("plus") {
        None => Vec::new(),
        Some(v) => parse_plus(
            v.as_str()
                .ok_or_else(|| Error::invalid("`args.plus` must be a string such as \"3@2\""))?,
            game.rulesets().len(),
        )?,
    };
    let p = match run.args.get("period").and_then(toml::Value::as_integer) {
        Some(p) if p >= 1 => p as usize,
        _ => return Err(Error::invalid("`args.period` must be a whole number ≥ 1")),
    };
    let pre = natural(run.int_or("preperiod", 0)?, "args.preperiod")?;
    let least = bool_arg(run, "least", true)?;
    let max_heap = max_heap_arg(run, 100_000)?;
    let others = int_list(run, "other_periods")?;
    let ns = distinct(&int_points(run)?, 0)
        .into_iter()
        .map(|n| natural(n, "n"))
        .collect::<Result<Vec<usize>>>()?;

    if run.args.contains_key("max_heap") {
        // A bound given explicitly is honoured or refused with the estimate, never silently
        // lowered by the prover's budget.
        let seq = HeapSequence::new(&game, 0, &plus, Q::zero())?;
        seq.values_within_limits(max_heap, &Limits::default())
            .map_err(|e| Error::invalid(format!("`args.max_heap` = {max_heap}: {e}")))?;
    }
    let (seq, report) = prove(&game, &plus, max_heap, max_heap)?;
    let pp = proven(&report).cloned();
    let mut top = ns.iter().max().map_or(0, |n| n + p);
    if let Some(pp) = &pp {
        let shift = others.iter().copied().max().unwrap_or(0).max(p);
        top = top.max(pp.preperiod + pp.period + shift);
    }
    let a = values(&seq, top)?;
    let plus_text: String = plus
        .iter()
        .map(|h| format!(" +_{{\\ell}} {}_{{({})}}", h.size, h.rules + 1))
        .collect();
    // G_s at n as a math body, and as the claim file's call when it has one (a single heap).
    let g = |n: usize| format!("\\mathcal G_s({n}{plus_text})");
    let call = |n: usize| plus.is_empty().then(|| named::gs(&rules, named::int(n)));
    let range = run.range_part("no range");

    let mut checked = 0usize;
    for &n in ns.iter().filter(|&&n| n >= pre) {
        checked += 1;
        if a[n + p] != a[n] {
            let f = Sentence::new()
                .point_unwritten("n", Value::int(n))
                .expected_unwritten(format!("${}$", g(n)), a[n].clone())
                .actual_unwritten(format!("${}$", g(n + p)), a[n + p].clone())
                .text(format!(
                    "fails at $n = {n}$ (period ${p}$ stated): ${} = {} \\ne {} = {}$",
                    g(n + p),
                    qm(&a[n + p]),
                    qm(&a[n]),
                    g(n)
                ))
                .finding(VerdictKind::Fails, range);
            return Ok(as_equation(f, call(n), call(n + p)));
        }
    }
    let direct = format!(
        "$\\mathcal G_s(n + {p}{plus_text}) = \\mathcal G_s(n{plus_text})$ at all {checked} $n$ of \
         the range with $n \\ge {pre}$"
    );
    let Some(pp) = pp else {
        return Ok(finding(
            VerdictKind::Holds,
            range,
            format!(
                "{direct}; observed only: the prover gives {} on $n \\le {}$ ({})",
                match &report.periodicity {
                    Some(o) => format!(
                        "OBSERVED least period ${}$, preperiod ${}$",
                        o.period, o.preperiod
                    ),
                    None => "NONE".to_string(),
                },
                report.terms.saturating_sub(1),
                report.argument
            ),
        ));
    };
    let (ps, n0) = (pp.period, pp.preperiod);
    let proof = constant_points_window(&game, &plus, &a, ps, n0)
        .or_else(|| period_proof(&pp, &report.argument));
    if (least && ps != p) || (!least && !p.is_multiple_of(ps)) {
        let stated = if least { "least " } else { "" };
        let mut f = Sentence::new()
            .expected_unwritten(format!("the stated {stated}period"), Value::int(p))
            .actual_unwritten("the least period", Value::int(ps))
            .text(format!(
                "the least period is ${ps}$, not the stated {stated}period ${p}$ (least \
                 preperiod ${n0}$, PROVEN: see the proof sketch)"
            ))
            .finding(VerdictKind::Fails, range);
        f.proof = proof;
        return Ok(f);
    }
    if n0 > pre {
        let n = n0 - 1;
        let f = Sentence::new()
            .point_unwritten("n", Value::int(n))
            .expected_unwritten(format!("${}$", g(n + p)), a[n + p].clone())
            .actual_unwritten(format!("${}$", g(n)), a[n].clone())
            .text(format!(
                "the least preperiod is ${n0} > {pre}$ (PROVEN: see the proof sketch): at \
                 $n = {n}$, ${} = {} \\ne {} = {}$",
                g(n),
                qm(&a[n]),
                qm(&a[n + p]),
                g(n + p)
            ))
            .finding(VerdictKind::Fails, range);
        let mut f = as_equation(f, call(n + p), call(n));
        f.proof = proof;
        return Ok(f);
    }
    let mut evidence = format!("; {direct}");
    for &t in &others {
        if t > 0 && t.is_multiple_of(ps) {
            let _ = write!(
                evidence,
                "; ${t}$ is an eventual period too (${ps} \\mid {t}$)"
            );
        } else if let Some(n) = (n0..n0 + ps).find(|&n| a[n] != a[n + t]) {
            let _ = write!(
                evidence,
                "; ${t}$ is not an eventual period: ${ps} \\nmid {t}$ (e.g. ${} = {} \\ne {} = {}$)",
                g(n),
                qm(&a[n]),
                qm(&a[n + t]),
                g(n + t)
            );
        }
    }
    // Proven: the range is every n from the preperiod on; the range's n were checked directly.
    let range = match (ns.iter().min(), ns.iter().max()) {
        (Some(lo), Some(hi)) => vec![RangePart::described(format!(
            "every $n \\ge {n0}$ (checked directly for ${lo} \\le n \\le {hi}$)"
        ))],
        _ => range,
    };
    // The proof's argument is the proof sketch's; the evidence only points to it.
    let mut f = Sentence::new()
        .text(format!(
            "least period ${ps}$, least preperiod ${n0}$, PROVEN (see the proof sketch){evidence}"
        ))
        .finding(VerdictKind::Proven, range);
    f.proof = proof;
    Ok(f)
}

/// For a single heap of a taking-no-breaking code whose moves all score the same c > 0 (the
/// engine proves these through the normal-play reduction), the period's proof in the
/// recurrence's own terms: G_s(n) = max(c − G_s(n − i)) over the moves, a function of the k
/// values before n once n > k (k the code's length), so a window of k values from
/// max(n₀, 1) that recurs one period later proves the period. Checked here on the values `a`;
/// `None` when the game is not of that kind or the window does not fit in `a`.
fn constant_points_window(
    game: &ScoringGame,
    plus: &[Heap],
    a: &[Q],
    period: usize,
    preperiod: usize,
) -> Option<Proof> {
    if !plus.is_empty() || game.rulesets().len() != 1 {
        return None;
    }
    let o = game.rulesets()[0].as_octal()?;
    if o.digits().iter().any(|&d| d > 3) {
        return None;
    }
    let c = o.constant_points()?.clone();
    if c <= Q::zero() {
        return None;
    }
    let k = o.max_take();
    // A subtraction game (digits 0 and 3) has every move from n once n ≥ k; a digit 1 or 2
    // allows or forbids a move at n = i itself, so only n > k is uniform.
    let subtraction = o.digits().iter().all(|&d| d == 0 || d == 3);
    let (w, from) = if subtraction {
        (preperiod, format!("n \\ge {k}"))
    } else {
        (preperiod.max(1), format!("n > {k}"))
    };
    if a.len() < w + k + period || a[w..w + k] != a[w + period..w + period + k] {
        return None;
    }
    Some(Proof::Period {
        period,
        preperiod,
        window_start: w,
        window_len: k,
        argument: format!(
            "every move scores $c = {}$ and removes at most ${k}$ beans, so \
             $\\mathcal G_s(n)$ is the largest $c - \\mathcal G_s(n - i)$ over the moves from \
             $n$, a function of the ${k}$ values before $n$ once ${from}$",
            qm(&c)
        ),
    })
}

// ------------------------------------------------------------------------------------------------
// Subtraction sets: Lemma 13 and Conjecture 14

/// Every S ⊆ {1..k} with max S = k, in increasing order of the bitmask of S \ {k}.
fn sets_with_max(k: i64) -> Result<Vec<Vec<HeapSize>>> {
    if !(1..=24).contains(&k) {
        return Err(Error::invalid(format!(
            "k = {k}: subtraction sets with max S = k are enumerated for 1 ≤ k ≤ 24"
        )));
    }
    let k = k as HeapSize;
    Ok((0..1u32 << (k - 1))
        .map(|mask| {
            let mut s: Vec<HeapSize> = (1..k).filter(|j| mask >> (j - 1) & 1 == 1).collect();
            s.push(k);
            s
        })
        .collect())
}

fn subtraction(set: &[HeapSize]) -> Result<ScoringGame> {
    let rules = OctalRules::subtraction(set, None)
        .map_err(|e| Error::invalid(format!("{}: {e}", show_set(set))))?;
    Ok(ScoringGame::single(rules))
}

/// What Lemma 13 found for one S.
struct LemmaSet {
    /// The first failing (s, i), with the calls naming its claimed and found values.
    fail: Option<Failed>,
    /// Identities checked.
    checked: usize,
    /// When proven for every i ≥ 1: (n₀, the largest i that had to be checked).
    proof: Option<(usize, usize)>,
    /// The prover's verdict, for the sets that are not proven.
    status: String,
}

fn lemma_set(set: &[HeapSize], is: &[usize], max_heap: HeapSize) -> Result<LemmaSet> {
    let k = *set.last().expect("non-empty") as usize;
    let (seq, report) = prove(&subtraction(set)?, &[], max_heap, max_heap)?;
    let proof = proven(&report).filter(|p| (2 * k).is_multiple_of(p.period));
    let mut i_list: Vec<usize> = is.to_vec();
    let mut i_needed = 0usize;
    if let Some(p) = proof {
        // Both sides are constant in i once s + (2i − 1)k ≥ n₀.
        for &s in set {
            let s = s as usize;
            let first = (p.preperiod + k - s).div_ceil(2 * k).max(1);
            i_needed = i_needed.max(first);
        }
        i_list.extend(1..=i_needed);
    }
    i_list.sort_unstable();
    i_list.dedup();
    let i_max = i_list.last().copied().unwrap_or(0);
    // The largest heap read is s + 2·i·k ≤ k + 2·i_max·k; refuse it rather than wrap.
    let top = i_max
        .checked_mul(2 * k)
        .and_then(|t| t.checked_add(k))
        .filter(|&t| HeapSize::try_from(t).is_ok())
        .ok_or_else(|| {
            Error::invalid(format!(
                "i = {i_max}: Lemma 13 would read G_s at heap k + 2ik = {k} + 2·{i_max}·{k}, beyond                  the largest heap {}",
                HeapSize::MAX
            ))
        })?;
    let a = values(&seq, top)?;
    let kq = Q::int(k as i64);
    let mut checked = 0;
    for &s in set {
        let s = s as usize;
        for &i in &i_list {
            checked += 1;
            let (lhs, rhs) = (s + 2 * i * k, s + (2 * i - 1) * k);
            let expected = &kq - &a[rhs];
            if a[lhs] != expected {
                let sm = set_math(set);
                let (claimed, found) = (
                    format!("${k} - \\mathcal G_s({rhs})$"),
                    format!("$\\mathcal G_s({lhs})$"),
                );
                let rules = show_set(set);
                return Ok(LemmaSet {
                    fail: Some((
                        Sentence::new()
                            .point_unwritten("k", Value::int(k))
                            .point_unwritten("S", set_value(set))
                            .point_unwritten("s", Value::int(s))
                            .point_unwritten("i", Value::int(i))
                            .expected_unwritten(claimed, expected.clone())
                            .actual_unwritten(found, a[lhs].clone())
                            .text(format!(
                                "fails at $k = {k}$, $S = {sm}$, $s = {s}$, $i = {i}$: \
                                 $\\mathcal G_s({lhs}) = {} \\ne {} = {k} - \\mathcal G_s({rhs})$",
                                qm(&a[lhs]),
                                qm(&expected)
                            )),
                        Some(named::minus(k, named::gs(&rules, named::int(rhs)))),
                        Some(named::gs(&rules, named::int(lhs))),
                    )),
                    checked,
                    proof: None,
                    status: String::new(),
                });
            }
        }
    }
    Ok(LemmaSet {
        fail: None,
        checked,
        proof: proof.map(|p| (p.preperiod, i_needed)),
        status: status_math(&report),
    })
}

/// `octal.lemma_13` over every S with max S = k in the range and the range's i (all i ≥ 1 for
/// each S whose proven least period divides 2k).
fn lemma_13(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let max_heap = max_heap_arg(run, 100_000)?;
    let groups = grouped(&int_points(run)?, 0, 1);
    let mut jobs: Vec<(Vec<HeapSize>, Vec<usize>)> = Vec::new();
    for (k, is) in &groups {
        let is = is
            .iter()
            .map(|&i| match i {
                1.. => Ok(i as usize),
                _ => Err(Error::invalid(format!(
                    "i = {i}: Lemma 13 is checked for i ≥ 1 (with i = 0 it names a negative heap)"
                ))),
            })
            .collect::<Result<Vec<usize>>>()?;
        for s in sets_with_max(*k)? {
            jobs.push((s, is.clone()));
        }
    }
    let results: Vec<Result<LemmaSet>> = jobs
        .par_iter()
        // One task per set: their period searches differ widely in cost.
        .with_max_len(1)
        .map(|(s, is)| lemma_set(s, is, max_heap))
        .collect();
    let range = run.range_part("no range");
    let mut checked = 0usize;
    let mut largest: Option<(usize, &[HeapSize])> = None;
    let mut i_needed = 0usize;
    let mut unproven: Vec<String> = Vec::new();
    for ((set, _), r) in jobs.iter().zip(results) {
        let r = r?;
        checked += r.checked;
        if let Some((fail, claimed, found)) = r.fail {
            return Ok(as_equation(
                fail.finding(VerdictKind::Fails, range),
                claimed,
                found,
            ));
        }
        match r.proof {
            Some((n0, i)) => {
                if largest.is_none_or(|(m, _)| n0 > m) {
                    largest = Some((n0, set));
                }
                i_needed = i_needed.max(i);
            }
            None => unproven.push(format!("${}$ ({})", set_math(set), r.status)),
        }
    }
    let sets = jobs.len();
    let head = format!("{sets} sets $S$, every $s \\in S$: all {checked} identities hold");
    let largest = largest.map_or(String::new(), |(n0, s)| {
        format!("; largest least preperiod ${n0}$ at $S = {}$", set_math(s))
    });
    if unproven.is_empty() {
        // Each S of the range is proven for every i ≥ 1; Lemma 13 speaks of every finite S,
        // which no argument here covers: HOLDS, each instance proven, not PROVEN. The range says
        // so: the sets of the range, every i.
        let ks: Vec<i64> = groups.iter().map(|(k, _)| *k).collect();
        let is: Vec<i64> = groups
            .iter()
            .flat_map(|(_, is)| is.iter().copied())
            .collect();
        let (klo, khi) = (ks.iter().min().copied(), ks.iter().max().copied());
        let (ilo, ihi) = (is.iter().min().copied(), is.iter().max().copied());
        // Each set is checked at the range's i and at every i up to its own bound.
        let i_checked = usize::try_from(ihi.unwrap_or(0)).unwrap_or(0).max(i_needed);
        let range = match (klo, khi, ilo, ihi) {
            (Some(klo), Some(khi), Some(ilo), Some(ihi)) => vec![RangePart::described(format!(
                "${klo} \\le \\max S \\le {khi}$, every $i \\ge 1$ (checked directly for \
                 ${ilo} \\le i \\le {ihi}$)"
            ))],
            _ => range,
        };
        let mut f = Sentence::new()
            .piece(Phrase::Instances)
            .text(format!(
                ": {head}; every $S$ has a PROVEN least period dividing $2k$, so both sides \
                 are constant in $i$ once $s + (2i-1)k$ reaches the preperiod, which it does from \
                 $i = {i_needed}$ on for every $S$; the $i \\le {i_checked}$ checked therefore \
                 cover every $i \\ge 1${largest}; larger $S$ are not covered"
            ))
            .finding(VerdictKind::Holds, range);
        f.proof = Some(Proof::FamilyPeriods {
            sets,
            i_needed,
            i_checked,
        });
        f.instances = Some(InstanceProofs {
            what: "sets S".to_string(),
            total: sets as u64,
            proven: sets as u64,
        });
        Ok(f)
    } else {
        let n = unproven.len();
        unproven.truncate(10);
        Ok(finding(
            VerdictKind::Holds,
            range,
            format!(
                "{head} (the range's $i$ only for {n} sets without a proven period dividing \
                 $2k$: {}{}){largest}",
                unproven.join(", "),
                if n > 10 { ", …" } else { "" }
            ),
        ))
    }
}

/// A failing sentence with the calls naming its claimed and found values.
type Failed = (Sentence, Option<Expr>, Option<Expr>);

/// What Conjecture 14 found for one S.
struct C14Set {
    report: PeriodReport,
    /// N(S) when 2k is a proven eventual period; the counterexample when a proven period
    /// does not divide 2k.
    n_or_fail: Option<std::result::Result<usize, Failed>>,
}

fn c14_set(set: &[HeapSize], max_heap: HeapSize) -> Result<C14Set> {
    let k = *set.last().expect("non-empty") as usize;
    let (seq, report) = prove(&subtraction(set)?, &[], max_heap, max_heap)?;
    let Some(p) = proven(&report).cloned() else {
        return Ok(C14Set {
            report,
            n_or_fail: None,
        });
    };
    let a = values(&seq, p.preperiod + p.period + 2 * k)?;
    let n_or_fail = if (2 * k).is_multiple_of(p.period) {
        Ok((0..p.preperiod)
            .rev()
            .find(|&n| a[n] != a[n + 2 * k])
            .map_or(0, |n| n + 1))
    } else {
        let n = (p.preperiod..p.preperiod + p.period)
            .find(|&n| a[n] != a[n + 2 * k])
            .expect("a shift that is not a multiple of the least period moves the cycle");
        let rules = show_set(set);
        let f = Sentence::new()
            .point_unwritten("S", set_value(set))
            .point_unwritten("n", Value::int(n))
            .expected_unwritten(format!("$\\mathcal G_s({n})$"), a[n].clone())
            .actual_unwritten(
                format!("$\\mathcal G_s({})$", n + 2 * k),
                a[n + 2 * k].clone(),
            )
            .text(format!(
                "fails at $S = {}$: least period ${}$ (PROVEN, {}) does not divide \
                 $2k = {}$, so $\\mathcal G_s(n + {}) \\ne \\mathcal G_s(n)$ for infinitely many \
                 $n$; at $n = {n}$, $\\mathcal G_s({}) = {} \\ne {} = \\mathcal G_s({n})$",
                set_math(set),
                p.period,
                window(&p),
                2 * k,
                2 * k,
                n + 2 * k,
                qm(&a[n + 2 * k]),
                qm(&a[n]),
            ));
        Err((
            f,
            Some(named::gs(&rules, named::int(n))),
            Some(named::gs(&rules, named::int(n + 2 * k))),
        ))
    };
    Ok(C14Set {
        report,
        n_or_fail: Some(n_or_fail),
    })
}

/// `octal.conjecture_14`: every S with max S = k in the range.
fn conjecture_14(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let max_heap = max_heap_arg(run, 100_000)?;
    let mut sets: Vec<Vec<HeapSize>> = Vec::new();
    for k in distinct(&int_points(run)?, 0) {
        sets.extend(sets_with_max(k)?);
    }
    let results: Vec<Result<C14Set>> = sets
        .par_iter()
        // One task per set: their period searches differ widely in cost.
        .with_max_len(1)
        .map(|s| c14_set(s, max_heap))
        .collect();
    let range = run.range_part("no range");
    let (mut exact, mut largest) = (0usize, None::<(usize, &[HeapSize])>);
    let mut unproven: Vec<String> = Vec::new();
    for (set, r) in sets.iter().zip(results) {
        let r = r?;
        let k = *set.last().expect("non-empty") as usize;
        match r.n_or_fail {
            Some(Err((fail, claimed, found))) => {
                return Ok(as_equation(
                    fail.finding(VerdictKind::Fails, range),
                    claimed,
                    found,
                ));
            }
            Some(Ok(n)) => {
                let p = proven(&r.report).expect("proven");
                exact += usize::from(p.period == 2 * k);
                if largest.is_none_or(|(m, _)| n > m) {
                    largest = Some((n, set));
                }
            }
            None => unproven.push(format!("${}$ ({})", set_math(set), status(&r.report))),
        }
    }
    let proven_sets = sets.len() - unproven.len();
    let mut evidence = format!(
        "{} sets $S$: the least period is PROVEN for {proven_sets} and divides $2\\max S$ in \
         all of them, so $2\\max S$ is an eventual period there (least period exactly \
         $2\\max S$ for {exact})",
        sets.len()
    );
    if let Some((n, s)) = largest {
        let _ = write!(
            evidence,
            "; largest $N$ (one past the last $n$ with $\\mathcal G_s(n + 2k) \\ne \\mathcal G_s(n)$) \
             $= {n}$ at $S = {}$",
            set_math(s)
        );
    }
    if !unproven.is_empty() {
        let n = unproven.len();
        unproven.truncate(10);
        let _ = write!(
            evidence,
            "; not proven for {n}: {}{}",
            unproven.join(", "),
            if n > 10 { ", …" } else { "" }
        );
    }
    evidence.push_str("; larger $S$ are not covered");
    // The conjecture asks for an N for each S: a proven period settles an S for every n, and
    // nothing short of a proof settles one at all.
    let instances = InstanceProofs {
        what: "sets S".to_string(),
        total: sets.len() as u64,
        proven: proven_sets as u64,
    };
    Ok(super::instances_finding(instances, evidence, range))
}

/// `octal.max_preperiod`: for each k of the range, every S with max S = k has a PROVEN least
/// period exactly 2k, and the largest least preperiod over these S is the expression
/// `preperiod` at k, attained at S = {k−1, k}.
fn max_preperiod(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let max_heap = max_heap_arg(run, 100_000)?;
    let rows = int_points(run)?;
    let range = run.range_part("no range");
    let mut table = EvidenceTable::new(
        "For each $k$: the sets $S$ with $\\max S = k$, their largest least preperiod $n_0$ and \
         the sets attaining it",
        &[
            "$k$",
            "sets $S$",
            "largest $n_0$",
            "attained at",
            "$(2k-1)(k-2)$",
        ],
    );
    let mut total = 0u64;
    let mut done: Vec<i64> = Vec::new();
    for row in &rows {
        let (k, stated) = (row[0], row[1]);
        if done.contains(&k) {
            continue;
        }
        done.push(k);
        let sets = sets_with_max(k)?;
        let reports: Vec<Result<PeriodReport>> = sets
            .par_iter()
            // One task per set: their period searches differ widely in cost.
            .with_max_len(1)
            .map(|s| Ok(prove(&subtraction(s)?, &[], max_heap, max_heap)?.1))
            .collect();
        let mut best: Option<(usize, Vec<&[HeapSize]>)> = None;
        for (set, r) in sets.iter().zip(reports) {
            let r = r?;
            let Some(p) = proven(&r) else {
                return Ok(finding(
                    VerdictKind::Open,
                    range,
                    format!(
                        "at $k = {k}$ the period of $S = {}$ is not proven ({}), so its least \
                         preperiod is unknown",
                        set_math(set),
                        status(&r)
                    ),
                ));
            };
            if p.period != 2 * k as usize {
                return Ok(Sentence::new()
                    .point_unwritten("k", Value::int(k))
                    .point_unwritten("S", set_value(set))
                    .expected_unwritten("the least period $2k$", Value::int(2 * k))
                    .actual_unwritten("the least period", Value::int(p.period))
                    .text(format!(
                        "fails at $k = {k}$, $S = {}$: the least period is ${}$, not \
                         $2k = {}$",
                        set_math(set),
                        p.period,
                        2 * k
                    ))
                    .finding(VerdictKind::Fails, range));
            }
            match &mut best {
                Some((b, at)) if p.preperiod == *b => at.push(set),
                Some((b, _)) if p.preperiod < *b => {}
                _ => best = Some((p.preperiod, vec![set])),
            }
        }
        total += sets.len() as u64;
        let (largest, at) = best.expect("a set with max S = k");
        let pair: Vec<HeapSize> = vec![(k - 1) as HeapSize, k as HeapSize];
        let at_pair = at.contains(&pair.as_slice());
        if largest as i64 != stated || !at_pair {
            return Ok(Sentence::new()
                .point_unwritten("k", Value::int(k))
                .expected_unwritten(
                    r"the largest least preperiod, at $S = \lbrace k-1, k\rbrace$",
                    Value::int(stated),
                )
                .actual_unwritten("the largest least preperiod", Value::int(largest))
                .text(format!(
                    "fails at $k = {k}$: the largest least preperiod is ${largest}$, attained at \
                     {}, where ${stated}$ at $S = \\lbrace k-1, k\\rbrace$ is claimed",
                    at.iter()
                        .map(|s| format!("$S = {}$", set_math(s)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .finding(VerdictKind::Fails, range));
        }
        let shown: Vec<String> = at
            .iter()
            .take(4)
            .map(|s| format!("${}$", set_math(s)))
            .collect();
        table.push(vec![
            format!("${k}$"),
            format!("${}$", sets.len()),
            format!("${largest}$"),
            shown.join(", ") + if at.len() > 4 { ", …" } else { "" },
            format!("${stated}$"),
        ]);
    }
    let instances = InstanceProofs {
        what: "sets S".to_string(),
        total,
        proven: total,
    };
    let mut f = super::instances_finding(
        instances,
        "every least period is PROVEN and equals $2k$; for each $k$ the largest least \
         preperiod is the one stated, attained at $S = \\lbrace k-1, k\\rbrace$ (table below); \
         larger $k$ are not covered",
        range,
    );
    f.tables.push(table);
    Ok(f)
}

/// A set as math, `\lbrace 4, 5\rbrace`.
fn set_math(s: &[HeapSize]) -> String {
    let parts: Vec<String> = s.iter().map(u32::to_string).collect();
    format!(r"\lbrace {}\rbrace", parts.join(", "))
}

// ------------------------------------------------------------------------------------------------
// The family engine of Conjectures 15–17

/// Points of the non-zero digits.
#[derive(Clone)]
enum Points {
    /// p_i = i.
    Index,
    /// Every assignment from the list, lexicographic; zero digits get 0.
    From(Vec<Q>),
}

/// Codes of length `len` with digits from `allowed` (ascending) and a non-zero last digit, in
/// lexicographic order.
fn codes(len: usize, allowed: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vec![Vec::new()];
    for pos in 0..len {
        let last = pos + 1 == len;
        out = out
            .into_iter()
            .flat_map(|c| {
                allowed
                    .iter()
                    .filter(move |&&d| !last || d != 0)
                    .map(move |&d| {
                        let mut c = c.clone();
                        c.push(d);
                        c
                    })
            })
            .collect();
    }
    out
}

fn with_points(code: &[u8], points: &Points) -> Result<Vec<OctalRules>> {
    let make = |p: Option<Vec<Q>>| {
        OctalRules::new(code.to_vec(), p).map_err(|e| Error::invalid(e.to_string()))
    };
    let Points::From(list) = points else {
        return Ok(vec![make(None)?]);
    };
    let mut assignments: Vec<Vec<Q>> = vec![Vec::new()];
    for &d in code {
        assignments = assignments
            .into_iter()
            .flat_map(|a| {
                let choices: Vec<Q> = if d == 0 {
                    vec![Q::zero()]
                } else {
                    list.clone()
                };
                choices.into_iter().map(move |q| {
                    let mut a = a.clone();
                    a.push(q);
                    a
                })
            })
            .collect();
    }
    assignments.into_iter().map(|a| make(Some(a))).collect()
}

/// All codes of length 1..=len, shortest first.
fn codes_up_to(len: usize, allowed: &[u8], points: &Points) -> Result<Vec<OctalRules>> {
    let mut out = Vec::new();
    for l in 1..=len {
        for c in codes(l, allowed) {
            out.extend(with_points(&c, points)?);
        }
    }
    Ok(out)
}

/// One game of a family: the heap n under O, plus a heap m under P (or under O when `p` is
/// `None`); m = 0 is the heap n alone.
struct Instance {
    o: OctalRules,
    p: Option<OctalRules>,
    m: HeapSize,
}

impl Instance {
    fn game(&self) -> (ScoringGame, Vec<Heap>) {
        let o: Arc<dyn Ruleset> = Arc::new(self.o.clone());
        match (&self.p, self.m) {
            (_, 0) => (ScoringGame::new(vec![o]), Vec::new()),
            (None, m) => (ScoringGame::new(vec![o]), vec![Heap { size: m, rules: 0 }]),
            (Some(p), m) => (
                ScoringGame::new(vec![o, Arc::new(p.clone())]),
                vec![Heap { size: m, rules: 1 }],
            ),
        }
    }

    fn label(&self) -> String {
        match (&self.p, self.m) {
            (Some(p), m) if m > 0 => format!("O = {}, P = {}, m = {m}", spell(&self.o), spell(p)),
            (_, m) => format!("O = {}, m = {m}", spell(&self.o)),
        }
    }

    /// The label as mathematics: `$O = 0.25,\ m = 0$`.
    fn math(&self) -> String {
        format!("${}$", self.math_body())
    }

    fn math_body(&self) -> String {
        match (&self.p, self.m) {
            (Some(p), m) if m > 0 => format!(
                r"O = {},\ P = {},\ m = {m}",
                rules_math(&self.o, 'p'),
                rules_math(p, 'q')
            ),
            (_, m) => format!(r"O = {},\ m = {m}", rules_math(&self.o, 'p')),
        }
    }

    /// The instance's coordinates: the codes, the points of non-zero digits when they are not
    /// p_i = i, and m.
    fn at(&self, mut s: Sentence) -> Sentence {
        let code = |s: Sentence, name: &str, letter: char, o: &OctalRules| {
            let digits: String = o.digits().iter().map(u8::to_string).collect();
            let index = o
                .points()
                .iter()
                .enumerate()
                .all(|(i, p)| *p == Q::int(i as i64 + 1));
            let mut s = s.point_unwritten(name, format!("0.{digits}"));
            if !index {
                for (i, (d, p)) in o.digits().iter().zip(o.points()).enumerate() {
                    if *d != 0 {
                        s = s.point_unwritten(format!("{letter}_{}", i + 1), p.clone());
                    }
                }
            }
            s
        };
        s = code(s, "O", 'p', &self.o);
        if let (Some(p), 1..) = (&self.p, self.m) {
            s = code(s, "P", 'q', p);
        }
        s.point_unwritten("m", Value::int(self.m))
    }

    /// `\mathcal G_s(n)` or `\mathcal G_s(n +_\ell m)` (a math body).
    fn gs(&self, n: usize) -> String {
        if self.m == 0 {
            format!(r"\mathcal G_s({n})")
        } else {
            format!(r"\mathcal G_s({n} +_{{\ell}} {})", self.m)
        }
    }

    /// The call of the claim language naming G_s at n for this instance.
    fn call(&self, n: usize) -> Option<Expr> {
        let o = self.o.to_string();
        Some(match (&self.p, self.m) {
            (_, 0) => named::gs(&o, named::int(n)),
            (None, m) => named::gs(&o, named::list(vec![named::int(n), named::int(m)])),
            (Some(p), m) => named::call(
                "gs_mixed",
                vec![
                    named::text(&o),
                    named::int(n),
                    named::text(&p.to_string()),
                    named::int(m),
                ],
            ),
        })
    }

    /// A failed equation `G(a) = x \ne y = G(b)` at n, with its counterexample values (claimed:
    /// G(b), found: G(a)) and `lead` before it.
    fn equation(&self, lead: String, n: usize, a: usize, b: usize, v: &[Q]) -> Sentence {
        self.equation_unwritten(n, a, b, v).text(format!(
            "{lead}${} = {} \\ne {} = {}$",
            self.gs(a),
            qm(&v[a]),
            qm(&v[b]),
            self.gs(b)
        ))
    }

    /// The point and the two sides of [`equation`](Self::equation), for a finding whose
    /// counterexample line already shows the equation.
    fn equation_unwritten(&self, n: usize, a: usize, b: usize, v: &[Q]) -> Sentence {
        self.at(Sentence::new())
            .point_unwritten("n", Value::int(n))
            .expected_unwritten(format!("${}$", self.gs(b)), v[b].clone())
            .actual_unwritten(format!("${}$", self.gs(a)), v[a].clone())
    }
}

/// Whether the heap n of an instance has a move under O (else the sequence at n only shows the
/// second heap, or an end position whose G_s is 0 by definition).
fn has_move(inst: &Instance, n: usize) -> Result<bool> {
    if n == 0 {
        return Ok(false);
    }
    let (game, _) = inst.game();
    Ok(!game
        .heap_moves(Heap {
            size: heap_size(n, "n")?,
            rules: 0,
        })?
        .is_empty())
}

/// Whether the second heap of an instance has a move under P.
fn second_heap_moves(inst: &Instance) -> Result<bool> {
    let (game, plus) = inst.game();
    for h in plus {
        if !game.heap_moves(h)?.is_empty() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The prover's report on an instance, with G_s(0..len) (at least the terms it examined and
/// n₀ + P* + `extra` for proven instances).
struct Solved {
    report: PeriodReport,
    values: Vec<Q>,
}

impl Solved {
    fn proven(&self) -> Option<&Periodicity> {
        proven(&self.report)
    }
}

fn solve_instance(
    inst: &Instance,
    (max_heap, observed): (HeapSize, HeapSize),
    extra: usize,
) -> Result<Solved> {
    let (game, plus) = inst.game();
    let (seq, report) = prove(&game, &plus, max_heap, observed)
        .map_err(|e| Error::invalid(format!("{}: {e}", inst.label())))?;
    let mut top = report.terms.saturating_sub(1);
    if let Some(p) = proven(&report) {
        top = top.max(p.preperiod + p.period + extra);
    }
    let values = values(&seq, top).map_err(|e| Error::invalid(format!("{}: {e}", inst.label())))?;
    Ok(Solved { report, values })
}

/// What a family's configuration fixes.
struct Family {
    /// The digits allowed in O (and P), ascending.
    digits: &'static [u8],
    o_points: Points,
    /// P's codes (length ≤ p_len with its points), or `None`: P = O.
    p: Option<Vec<OctalRules>>,
    /// Conjecture 15's hypothesis: O has a digit 2 or 3.
    needs_take: bool,
}

/// Most instances (games) a family builtin checks: each runs the period prover.
const MAX_FAMILY_INSTANCES: u64 = 100_000;

/// How many codes of length `len` over `allowed` (non-zero last digit) with `points`, at most:
/// each non-zero digit takes one of the point values.
fn code_count(len: usize, allowed: &[u8], points: &Points) -> u64 {
    let per_point = match points {
        Points::Index => 1,
        Points::From(list) => list.len() as u64,
    };
    let nonzero = allowed.iter().filter(|&&d| d != 0).count() as u64;
    let zero = (allowed.len() as u64) - nonzero;
    let per_digit = zero.saturating_add(nonzero.saturating_mul(per_point));
    let last = nonzero.saturating_mul(per_point);
    let mut count = last;
    for _ in 1..len {
        count = count.saturating_mul(per_digit);
    }
    count
}

/// Refuses a family whose instances would be too many, before any list is built.
fn family_budget(fam: &Family, p_codes: u64, groups: &[(i64, Vec<i64>)]) -> Result<()> {
    let mut total = 0u64;
    for (l, ms) in groups {
        let l = natural(*l, "L")?;
        if !(1..=12).contains(&l) {
            return Err(Error::invalid(format!(
                "L = {l}: code lengths 1..12 are supported"
            )));
        }
        let o = code_count(l, fam.digits, &fam.o_points);
        let per_o = ms.iter().fold(0u64, |acc, &m| {
            acc.saturating_add(if m > 0 && fam.p.is_some() { p_codes } else { 1 })
        });
        total = total.saturating_add(o.saturating_mul(per_o));
    }
    if total > MAX_FAMILY_INSTANCES {
        return Err(Error::invalid(format!(
            "these arguments make about {total} instances (codes O of the lengths L, point              assignments, heaps m and codes P), more than the {MAX_FAMILY_INSTANCES} a family              builtin checks; use shorter codes, fewer point values or a smaller p_len"
        )));
    }
    Ok(())
}

/// Codes of length ≤ `len` with their points, refused before building when there would be more
/// than [`MAX_FAMILY_INSTANCES`].
fn p_codes(len: usize, allowed: &[u8], points: &Points) -> Result<(Vec<OctalRules>, u64)> {
    if len > 12 {
        return Err(Error::invalid(format!(
            "p_len = {len}: code lengths 1..12 are supported"
        )));
    }
    let count = (1..=len.max(1)).fold(0u64, |acc, l| {
        acc.saturating_add(code_count(l, allowed, points))
    });
    if count > MAX_FAMILY_INSTANCES {
        return Err(Error::invalid(format!(
            "p_len = {len} makes about {count} codes P, more than the {MAX_FAMILY_INSTANCES} a              family builtin checks; use a smaller p_len or fewer point values"
        )));
    }
    Ok((codes_up_to(len, allowed, points)?, count))
}

/// Every instance in the order L, O, m, P.
fn instances(fam: &Family, groups: &[(i64, Vec<i64>)]) -> Result<(Vec<Instance>, usize)> {
    let p_count = fam.p.as_ref().map_or(0, |p| p.len() as u64);
    family_budget(fam, p_count, groups)?;
    let mut out = Vec::new();
    let mut rulesets = 0usize;
    for (l, ms) in groups {
        let l = natural(*l, "L")?;
        if !(1..=12).contains(&l) {
            return Err(Error::invalid(format!(
                "L = {l}: code lengths 1..12 are supported"
            )));
        }
        let ms = ms
            .iter()
            .map(|&m| heap_size(natural(m, "m")?, "m"))
            .collect::<Result<Vec<HeapSize>>>()?;
        for code in codes(l, fam.digits) {
            if fam.needs_take && !code.iter().any(|&d| d == 2 || d == 3) {
                continue;
            }
            for o in with_points(&code, &fam.o_points)? {
                rulesets += 1;
                for &m in &ms {
                    match (&fam.p, m) {
                        (Some(ps), 1..) => out.extend(ps.iter().map(|p| Instance {
                            o: o.clone(),
                            p: Some(p.clone()),
                            m,
                        })),
                        _ => out.push(Instance {
                            o: o.clone(),
                            p: None,
                            m,
                        }),
                    }
                }
            }
        }
    }
    Ok((out, rulesets))
}

/// Every instance's period report: `caps` = (the search's cap when it can end in a proof, the
/// cap when it can only observe).
fn solve_all(
    insts: &[Instance],
    caps: (HeapSize, HeapSize),
    extra: impl Fn(&Instance) -> usize + Sync,
) -> Result<Vec<Solved>> {
    insts
        .par_iter()
        // One task per instance: their period searches differ widely in cost.
        .with_max_len(1)
        .map(|i| solve_instance(i, caps, extra(i)))
        .collect()
}

/// `$-1 \ldots 4$`: the least and the largest value.
fn min_max(v: &[Q]) -> String {
    match (v.iter().min(), v.iter().max()) {
        (Some(a), Some(b)) => format!(r"${a} \ldots {b}$"),
        _ => "–".to_string(),
    }
}

/// The engine's evidence on a family: a sentence with the counts and extremes, and a table of
/// every instance without a period (NONE): the range of $\mathcal G_s$ on the first, then the
/// second half of its values. With `spread = Some(n)` only the values at heaps up to n are
/// compared, and instances whose second half reaches outside the first half's range are singled
/// out (a spread that keeps growing).
fn family_evidence(
    insts: &[Instance],
    solved: &[Solved],
    rulesets: usize,
    spread: Option<usize>,
) -> (String, EvidenceTable, Option<EvidenceTable>) {
    let mut counts = [0usize; 3];
    let mut pre: Option<(usize, usize)> = None;
    let mut per: Option<(usize, usize)> = None;
    let mut none = EvidenceTable::new(
        "Instances with no period found (NONE) on the heaps searched: a game that breaks heaps \
         has no known look-back, so its search only observes, and stops at the compared heaps; \
         `nimlab octal period --rules CODE` searches further within a time budget and may \
         observe a period there (never prove one). Then the least and largest \
         $\\mathcal G_s(n)$ on the first and the second half of the heaps compared",
        &[
            "instance",
            "period searched",
            "heaps compared",
            "first half",
            "second half",
            "spread grows",
        ],
    );
    let mut growing: Vec<String> = Vec::new();
    let mut largest = Q::zero();
    for (idx, (inst, s)) in insts.iter().zip(solved).enumerate() {
        if let Some(v) = s.values.iter().map(Q::abs).max() {
            largest = largest.max(v);
        }
        match (&s.report.periodicity, s.proven()) {
            (_, Some(p)) => {
                counts[0] += 1;
                if pre.is_none_or(|(b, _)| p.preperiod > b) {
                    pre = Some((p.preperiod, idx));
                }
                if per.is_none_or(|(b, _)| p.period > b) {
                    per = Some((p.period, idx));
                }
            }
            (Some(_), None) => counts[1] += 1,
            (None, _) => {
                counts[2] += 1;
                let top = spread.map_or(s.values.len(), |n| s.values.len().min(n + 1));
                let v = &s.values[..top];
                let (first, second) = v.split_at(v.len() / 2);
                let outside = |x: Option<&Q>, lo: Option<&Q>, hi: Option<&Q>| {
                    x.is_some_and(|x| lo.is_some_and(|lo| x < lo) || hi.is_some_and(|hi| x > hi))
                };
                let (lo, hi) = (first.iter().min(), first.iter().max());
                let grows = spread.is_some()
                    && (outside(second.iter().min(), lo, hi)
                        || outside(second.iter().max(), lo, hi));
                if grows {
                    growing.push(inst.math());
                }
                none.push(vec![
                    inst.math(),
                    format!(r"$0 \le n \le {}$", s.report.terms.saturating_sub(1)),
                    format!(r"$0 \le n \le {}$", v.len().saturating_sub(1)),
                    min_max(first),
                    min_max(second),
                    (if grows { "yes" } else { "no" }).to_string(),
                ]);
            }
        }
    }
    // The family's facts are rows of a table; the sentence keeps the count and the verdict's
    // reasons.
    let mut facts = family_facts();
    facts.push(vec![
        "instances".into(),
        format!("{} ({rulesets} codes $O$)", insts.len()),
    ]);
    facts.push(vec![
        "periods PROVEN, OBSERVED, NONE".into(),
        format!("{}, {}, {}", counts[0], counts[1], counts[2]),
    ]);
    if let (Some((p, i)), Some((q, j))) = (pre, per) {
        facts.push(vec![
            "largest least preperiod (PROVEN)".into(),
            format!("${p}$ at {}", insts[i].math()),
        ]);
        facts.push(vec![
            "largest least period (PROVEN)".into(),
            format!("${q}$ at {}", insts[j].math()),
        ]);
    }
    facts.push(vec![
        r"$\max \lvert \mathcal G_s\rvert$".into(),
        format!("${largest}$"),
    ]);
    let mut e = format!(
        "{}: the family's periods in the table below",
        plural(insts.len(), "instance")
    );
    if !none.rows.is_empty() {
        e.push_str(", the NONE instances in the one after it");
    }
    if !growing.is_empty() {
        let _ = write!(
            e,
            "; the spread keeps growing (second half outside the first half's range) for {} \
             — possibly unbounded, which no finite check proves",
            growing.join(", ")
        );
    }
    (e, facts, (!none.rows.is_empty()).then_some(none))
}

/// The table of a family's facts (filled by [`family_evidence`] and its callers).
fn family_facts() -> EvidenceTable {
    EvidenceTable::new(
        "The instances checked: each period PROVEN (a window of values that determines all later \
         ones recurs one period later, or the normal-play reduction), OBSERVED (seen repeating, \
         without proof) or NONE (no period among the values computed)",
        &["", "value"],
    )
}

fn family_args(run: &mut BuiltinRun<'_, '_>) -> Result<Vec<(i64, Vec<i64>)>> {
    Ok(grouped(&int_points(run)?, 0, 1))
}

fn p_len(run: &BuiltinRun<'_, '_>) -> Result<usize> {
    natural(run.int_or("p_len", 1)?, "args.p_len")
}

/// k of Conjecture 15: the largest i with t_i ∈ {2, 3}.
fn take_k(o: &OctalRules) -> usize {
    o.digits()
        .iter()
        .rposition(|&d| d == 2 || d == 3)
        .map_or(0, |i| i + 1)
}

/// `octal.conjecture_15`.
fn conjecture_15(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let max_heap = max_heap_arg(run, 5000)?;
    let fam = Family {
        digits: &[0, 1, 2, 3],
        o_points: Points::Index,
        p: Some(p_codes(p_len(run)?, &[0, 1, 2, 3], &Points::Index)?.0),
        needs_take: true,
    };
    let (insts, rulesets) = instances(&fam, &family_args(run)?)?;
    let solved = solve_all(&insts, (max_heap, max_heap), |i| 2 * take_k(&i.o))?;
    let mut range = run.range_part("no range");
    if let Some(ps) = &fam.p {
        let names: Vec<String> = ps.iter().map(|p| rules_math(p, 'q')).collect();
        range.push(RangePart::described(format!(
            "$p_i = i$, $P \\in \\lbrace {}\\rbrace$ with $q_j = j$",
            names.join(", ")
        )));
    }

    // (a) for all n ≥ 0, on the data. The counterexample shown is the first at a position
    // with a move from the heap n under O: a heap O cannot move from says nothing about O (the
    // first failure at all is told beside it).
    let mut checked = 0usize;
    let mut first_end: Option<(String, Finding)> = None;
    let mut pure: Option<Finding> = None;
    'a: for (inst, s) in insts.iter().zip(&solved) {
        let t = 2 * take_k(&inst.o);
        let v = &s.values;
        for n in 0..v.len().saturating_sub(t) {
            checked += 1;
            if v[n] != v[n + t] {
                let movable = has_move(inst, n)?;
                if !movable && first_end.is_some() {
                    continue;
                }
                // The counterexample line shows the equation; the text says what the point is.
                let what = format!(
                    "fails at {} ($k = {}$), where $n = {n}$ is a heap {}",
                    inst.math(),
                    t / 2,
                    if movable {
                        "with a move"
                    } else {
                        "without a move"
                    },
                );
                let f = inst
                    .equation_unwritten(n, n, n + t, v)
                    .text(what)
                    .point_unwritten("k", Value::int(t / 2))
                    .finding(VerdictKind::Fails, range.clone());
                let f = as_equation(f, inst.call(n + t), inst.call(n));
                if !movable {
                    let told = format!(
                        r"{} at $n = {n}$, a heap without a move (${} = {} \ne {} = {}$)",
                        inst.math(),
                        inst.gs(n),
                        qm(&v[n]),
                        qm(&v[n + t]),
                        inst.gs(n + t)
                    );
                    first_end = Some((told, f));
                    continue;
                }
                let mut f = f;
                if let Some((e, _)) = &first_end {
                    f.push_text(&format!(
                        "; the first failure in the tool's order is {e}, from which $O$ \
                         cannot move"
                    ));
                }
                pure = Some(f);
                break 'a;
            }
        }
    }
    // Only end positions fail: the first of them is the counterexample.
    let pure = pure.or(first_end.map(|(_, f)| f)).unwrap_or_else(|| {
        finding(
            VerdictKind::Holds,
            range.clone(),
            format!("true at all {checked} (instance, n) points of the data"),
        )
    });

    // (b) eventually.
    let (mut exact, mut divisor) = (0usize, 0usize);
    let mut largest: Option<(usize, usize)> = None;
    let mut eventual: Option<Finding> = None;
    for (idx, (inst, s)) in insts.iter().zip(&solved).enumerate() {
        let Some(p) = s.proven() else { continue };
        let t = 2 * take_k(&inst.o);
        let v = &s.values;
        if !t.is_multiple_of(p.period) {
            let n = (p.preperiod..p.preperiod + p.period)
                .find(|&n| v[n] != v[n + t])
                .expect("a shift that is not a multiple of the least period moves the cycle");
            let lead = format!(
                "fails at {} ($k = {}$): least period ${}$ (PROVEN, {}) does not divide \
                 $2k = {t}$; at $n = {n}$, ",
                inst.math(),
                t / 2,
                p.period,
                window(p)
            );
            let f = inst
                .equation(lead, n, n + t, n, v)
                .point_unwritten("k", Value::int(t / 2))
                .finding(VerdictKind::Fails, range.clone());
            eventual = Some(as_equation(f, inst.call(n), inst.call(n + t)));
            break;
        }
        if p.period == t {
            exact += 1;
        } else {
            divisor += 1;
        }
        let big_n = (0..p.preperiod)
            .rev()
            .find(|&n| v[n] != v[n + t])
            .map_or(0, |n| n + 1);
        if largest.is_none_or(|(b, _)| big_n > b) {
            largest = Some((big_n, idx));
        }
    }
    let eventual = eventual.unwrap_or_else(|| {
        let (mut e, mut facts, none) = family_evidence(&insts, &solved, rulesets, None);
        facts.push(vec![
            "$2k$ an eventual period (PROVEN instances)".into(),
            format!(
                "least period exactly $2k$ in {exact}, a proper divisor of $2k$ in {divisor}"
            ),
        ]);
        if let Some((n, i)) = largest {
            facts.push(vec![
                "largest $N$ (one past the last $n$ with $\\mathcal G_s(n + 2k +_{\\ell} m) \\ne \\mathcal G_s(n +_{\\ell} m)$)".into(),
                format!("${n}$ at {}", insts[i].math()),
            ]);
        }
        let dead = insts
            .iter()
            .filter(|i| i.m > 0 && !second_heap_moves(i).unwrap_or(true))
            .count();
        if dead > 0 {
            facts.push(vec![
                "second heap with no move under $P$ (the same sequence as $m = 0$)".into(),
                format!(
                    "{dead} of {}, so at most {} distinct",
                    insts.len(),
                    insts.len() - dead
                ),
            ]);
        }
        e.push_str(
            "; $2k$ is an eventual period of every PROVEN instance; not a counterexample: the \
             paper's $(3333, 2222)$ has least period $5 \\nmid 2k = 8$, but violates the \
             hypothesis $p_i = i$; other pairs of games are not covered",
        );
        let mut f = instance_finding(range.clone(), &solved, e);
        f.tables.push(facts);
        f.tables.extend(none);
        f
    });
    // The paper's own gloss ("if n is large enough, then your best move is to simply remove
    // the maximum available beans"), its §3.1.2 ("periodic" meaning eventually periodic) and
    // Conjecture 14, its special case ("for all n ≥ N"), make (b) the statement as printed;
    // (a) supplies a quantifier the text does not print.
    Ok(ambiguous(
        range,
        vec![
            Reading::interpreted(r"for all $n \ge 0$ (purely periodic)", pure),
            Reading::as_printed(
                "for all $n \\ge N(O, P, m)$ (eventually periodic: the quantifier of the paper's \
                 gloss and of Conjecture 14)",
                eventual,
            ),
        ],
    ))
}

/// The finding of an eventual-periodicity reading over a family: an instance is settled only
/// by a proven period (no finite stretch of G_s shows a period from some N on), so the reading
/// HOLDS, each instance proven, when every instance is PROVEN, and is OPEN otherwise; the
/// evidence leads with the count.
fn instance_finding(range: Vec<RangePart>, solved: &[Solved], evidence: String) -> Finding {
    let instances = InstanceProofs {
        what: "instances".to_string(),
        total: solved.len() as u64,
        proven: solved.iter().filter(|s| s.proven().is_some()).count() as u64,
    };
    super::instances_finding(instances, evidence, range)
}

/// Whether O can move from some heap of two or more beans (a game that can only move from a
/// heap of one bean refutes pure periodicity only trivially).
fn moves_from_two(inst: &Instance) -> Result<bool> {
    for h in 2..=inst.o.digits().len() + 1 {
        if has_move(inst, h)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Pure periodicity refuted by a PROVEN instance with least preperiod n₀ > 0: every t that
/// works for all n ≥ 0 is an eventual period, hence a multiple t = jP* (j ≥ 1) of the least
/// period. The first n whose translates by jP* (j ≥ 1) all carry one value, different from
/// G_s(n), is the counterexample (n = n₀ − 1 always is one).
fn pure_failure(inst: &Instance, s: &Solved, range: &[RangePart], how: &str) -> Option<Finding> {
    let p = s.proven().filter(|p| p.preperiod > 0)?;
    let (n0, per, v) = (p.preperiod, p.period, &s.values);
    let n = (0..n0).find(|&n| {
        let later: Vec<&Q> = (1..)
            .map(|j| n + j * per)
            .take_while(|&h| h < n0 + per)
            .map(|h| &v[h])
            .collect();
        later.iter().all(|x| *x == later[0]) && *later[0] != v[n]
    })?;
    let lead = format!(
        "fails at {}{how}: least preperiod ${n0}$ and least period ${per}$ (PROVEN, {}), so \
         every $t$ with $\\mathcal G_s(n + t) = \\mathcal G_s(n)$ for all $n \\ge 0$ is a \
         multiple of ${per}$, and $\\mathcal G_s({n} + t) = {}$ for every such $t$: at \
         $n = {n}$, ",
        inst.math(),
        window(p),
        qm(&v[n + per])
    );
    let f = inst
        .equation(lead, n, n, n + per, v)
        .finding(VerdictKind::Fails, range.to_vec());
    Some(as_equation(f, inst.call(n + per), inst.call(n)))
}

/// Readings (a) "∃ t ≥ 1 ∀ n ≥ 0" and (b) "∃ t ≥ 1 ∃ N ∀ n ≥ N" of Conjectures 16 and 17.
/// (a)'s counterexample is `lead` (a game of the class named by the claim, with what it is)
/// when it refutes (a), else the first instance of the family that can move from a heap of
/// two or more beans, else the first at all; the family's first is told beside a lead.
#[allow(clippy::too_many_arguments)]
fn purely_or_eventually(
    range: Vec<RangePart>,
    insts: &[Instance],
    solved: &[Solved],
    rulesets: usize,
    spread: Option<usize>,
    note: &str,
    lead: Option<(&Instance, &Solved, &str)>,
) -> Result<Finding> {
    let mut first: Option<(&Instance, Finding)> = None;
    let mut moving: Option<Finding> = None;
    for (inst, s) in insts.iter().zip(solved) {
        let Some(f) = pure_failure(inst, s, &range, "") else {
            continue;
        };
        if moves_from_two(inst)? {
            moving = Some(f);
            break;
        }
        if first.is_none() {
            first = Some((inst, f));
        }
    }
    let family_first = moving.or(first.map(|(_, f)| f));
    let led = lead.and_then(|(inst, s, what)| pure_failure(inst, s, &range, what));
    let pure = match (led, family_first) {
        (Some(mut f), Some(fam)) => {
            let said = fam.evidence();
            let said = said.strip_prefix("fails at ").unwrap_or(&said);
            let said = said.split(": ").next().unwrap_or(said);
            f.push_text(&format!(
                "; in the family checked, the first instance that fails and can move from a \
                 heap of two or more beans is {said}"
            ));
            Some(f)
        }
        (led, fam) => led.or(fam),
    };
    let unproven = solved.iter().filter(|s| s.proven().is_none()).count();
    let pure = pure.unwrap_or_else(|| {
        let e = format!(
            "{} PROVEN purely periodic (least preperiod 0)",
            plural(solved.len() - unproven, "instance")
        );
        if unproven == 0 {
            finding(VerdictKind::Holds, range.clone(), e)
        } else {
            finding(
                VerdictKind::Open,
                range.clone(),
                format!("{e}; {unproven} instances without a proven period are not settled"),
            )
        }
    });
    let (mut e, facts, none) = family_evidence(insts, solved, rulesets, spread);
    let _ = write!(
        e,
        "; every PROVEN instance settles that instance; other pairs of games are not covered \
         ($t$ may depend on $m$ here; \"one $t$ for every $m$\" is a third reading no finite \
         check can address){note}"
    );
    let mut eventual = instance_finding(range.clone(), solved, e);
    eventual.tables.push(facts);
    eventual.tables.extend(none);
    // The paper calls a sequence periodic when it is eventually periodic (§3.1.2: "must always
    // be eventually periodic … the real question … is not 'is it periodic?', but 'what is the
    // period?'"), and Conjecture 15, read the same way, is the model: (b) is the statement as
    // printed (t ≥ 1, as t = 0 makes it empty); (a) supplies "for all n ≥ 0".
    Ok(ambiguous(
        range,
        vec![
            Reading::interpreted(
                r"$\exists t \ge 1\ \forall n \ge 0$ (purely periodic)",
                pure,
            ),
            Reading::as_printed(
                r"$\exists t \ge 1\ \exists N\ \forall n \ge N$ (eventually periodic, as the paper uses the word)",
                eventual,
            ),
        ],
    ))
}

/// `octal.conjecture_16`.
fn conjecture_16(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let max_heap = max_heap_arg(run, 5000)?;
    let p_points = Points::From(q_list(run, "p_points")?);
    let fam = Family {
        digits: &[0, 1, 2, 3],
        o_points: Points::From(q_list(run, "o_points")?),
        p: Some(p_codes(p_len(run)?, &[0, 1, 2, 3], &p_points)?.0),
        needs_take: false,
    };
    let (insts, rulesets) = instances(&fam, &family_args(run)?)?;
    let solved = solve_all(&insts, (max_heap, max_heap), |_| 0)?;
    let mut range = run.range_part("no range");
    let list = |l: &[Q]| l.iter().map(qm).collect::<Vec<_>>().join(", ");
    if let (Points::From(o), Points::From(q)) = (&fam.o_points, &p_points) {
        range.push(RangePart::described(format!(
            "points $p_i \\in \\lbrace {}\\rbrace$; $P$ of at most ${}$ {} with \
             $q_j \\in \\lbrace {}\\rbrace$",
            list(o),
            p_len(run)?.max(1),
            if p_len(run)? <= 1 { "digit" } else { "digits" },
            list(q)
        )));
    }
    let lead = lead_instance(run, max_heap)?;
    let lead = lead.as_ref().map(|(i, s, w)| (i, s, w.as_str()));
    purely_or_eventually(range, &insts, &solved, rulesets, None, "", lead)
}

/// `args.lead` (a ruleset of the claim's class, alone: m = 0) and `args.lead_about` (what it
/// is, in words): the instance whose failure of pure periodicity is shown first.
fn lead_instance(
    run: &BuiltinRun<'_, '_>,
    max_heap: HeapSize,
) -> Result<Option<(Instance, Solved, String)>> {
    let Some(rules) = run.args.get("lead").and_then(toml::Value::as_str) else {
        return Ok(None);
    };
    let o = ruleset(rules)?
        .as_octal()
        .cloned()
        .ok_or_else(|| Error::invalid(format!("`args.lead` = \"{rules}\" is not an octal code")))?;
    let inst = Instance { o, p: None, m: 0 };
    let solved = solve_instance(&inst, (max_heap, max_heap), 0)?;
    let about = match run.args.get("lead_about").and_then(toml::Value::as_str) {
        Some(a) => format!(" ({a})"),
        None => String::new(),
    };
    Ok(Some((inst, solved, about)))
}

/// `octal.conjecture_17`.
fn conjecture_17(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    // The range's n only bounds the values compared (the spread of an unsettled sequence); the
    // period search runs as far as `nimlab octal period` does, so that nothing it proves is
    // listed as having no period.
    let max_heap = max_heap_arg(run, 100_000)?;
    let rows = int_points(run)?;
    let max_n = distinct(&rows, 2).into_iter().max().unwrap_or(0);
    let compared = natural(max_n, "n")?;
    let fam = Family {
        digits: &[0, 1, 2, 3, 4, 5, 6, 7],
        o_points: Points::Index,
        p: None,
        needs_take: false,
    };
    let (insts, rulesets) = instances(&fam, &grouped(&rows, 0, 1))?;
    let solved = solve_all(&insts, (max_heap, heap_size(compared, "n")?), |_| 0)?;
    let mut range = run.range_part("no range");
    range.push(RangePart::described("$p_i = i$, $P = O$"));
    let lead = lead_instance(run, max_heap)?;
    let lead = lead.as_ref().map(|(i, s, w)| (i, s, w.as_str()));
    purely_or_eventually(
        range,
        &insts,
        &solved,
        rulesets,
        Some(compared),
        "; breaking codes have no finite look-back, so they are PROVEN only through the \
         normal-play reduction (when every move scores the same $c$, $\\mathcal G_s(n) = c$ \
         when the normal-play Grundy value of $n$ is non-zero and $0$ otherwise), which ties \
         the claim to octal games whose periodicity is unsettled (e.g. $0.6$, Officers)",
        lead,
    )
}

// ------------------------------------------------------------------------------------------------
// Theorem 12

/// Left/Right minimax on explicit scores, sharing only the move generator with the engine:
/// Left maximizes the final score (Left − Right), Right minimizes it; without a move the game
/// ends with what has been scored.
struct Minimax<'g> {
    game: &'g ScoringGame,
    /// Final scores by sorted heaps, one map per player to move (looked up without a copy of
    /// the key; foldhash, as SipHash was a fifth of the search).
    memo: [HashMap<Vec<Heap>, Q, FixedState>; 2],
}

impl Minimax<'_> {
    /// The final score from here, counted from 0, with Left (or Right) to move. The recursion
    /// is as deep as the game is long (a heap of n beans under a subtraction game: n moves), so
    /// it grows its stack on the heap instead of overflowing.
    fn final_score(&mut self, heaps: &[Heap], left: bool) -> Result<Q> {
        stacker::maybe_grow(
            crate::claims::eval::RED_ZONE,
            crate::claims::eval::STACK_SEGMENT,
            || self.final_score_node(heaps, left),
        )
    }

    fn final_score_node(&mut self, heaps: &[Heap], left: bool) -> Result<Q> {
        let mut key: Vec<Heap> = heaps.iter().copied().filter(|h| h.size > 0).collect();
        key.sort_unstable();
        if let Some(v) = self.memo[usize::from(left)].get(&key) {
            return Ok(v.clone());
        }
        let mut best: Option<Q> = None;
        for (idx, &h) in key.iter().enumerate() {
            for mv in self.game.heap_moves(h)?.iter() {
                let mut next = key.clone();
                next.remove(idx);
                next.extend(mv.leaves.iter().map(|&size| Heap {
                    size,
                    rules: h.rules,
                }));
                let rest = self.final_score(&next, !left)?;
                let v = if left {
                    &mv.points + &rest
                } else {
                    &rest - &mv.points
                };
                best = Some(match best {
                    None => v,
                    Some(b) if left => b.max(v),
                    Some(b) => b.min(v),
                });
            }
        }
        let v = best.unwrap_or_else(Q::zero);
        self.memo[usize::from(left)].insert(key, v.clone());
        Ok(v)
    }
}

/// Most positions (with a player to move) the explicit minimax of Theorem 12 may visit per
/// game: its memo holds each with its final score (about 200 bytes), so 2·10⁶ stay near 400 MB.
const MAX_MINIMAX_POSITIONS: u64 = 2_000_000;

/// Refuses heaps whose minimax would be too large, before any work, with the engine's estimate
/// of the positions reachable from the largest n and m (the minimax visits each twice).
fn theorem_12_budget(
    rules: &[String],
    plus: &[String],
    ns: &[HeapSize],
    ms: &[HeapSize],
) -> Result<()> {
    let (n, m) = (
        ns.iter().copied().max().unwrap_or(0),
        ms.iter().copied().max().unwrap_or(0),
    );
    for o in rules {
        let mut games = vec![(ScoringGame::new(vec![ruleset(o)?]), Vec::new(), None)];
        for p in plus.iter().filter(|_| m > 0) {
            games.push((
                ScoringGame::new(vec![ruleset(o)?, ruleset(p)?]),
                vec![Heap { size: m, rules: 1 }],
                Some(p),
            ));
        }
        for (game, fixed, p) in games {
            let seq = HeapSequence::new(&game, 0, &fixed, Q::zero())?;
            let positions = seq.cost(n).positions.saturating_mul(2);
            if positions > MAX_MINIMAX_POSITIONS {
                return Err(Error::invalid(format!(
                    "octal.theorem_12: n up to {n}{} under {o} would make the explicit Left/Right                      minimax visit about {positions} positions, more than the {MAX_MINIMAX_POSITIONS}                      it supports; use smaller n or m",
                    p.map_or(String::new(), |p| format!(" with m = {m} under {p}"))
                )));
            }
        }
    }
    Ok(())
}

/// `octal.theorem_12`.
fn theorem_12(run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let rules = str_list(run, "rules")?;
    let plus = str_list(run, "plus")?;
    if rules.is_empty() {
        return Err(Error::invalid(
            "`args.rules` must list at least one ruleset",
        ));
    }
    let rows = int_points(run)?;
    let to_sizes = |c: usize, what: &str| -> Result<Vec<HeapSize>> {
        distinct(&rows, c)
            .into_iter()
            .map(|v| heap_size(natural(v, what)?, what))
            .collect()
    };
    let (ns, ms) = (to_sizes(0, "n")?, to_sizes(1, "m")?);
    theorem_12_budget(&rules, &plus, &ns, &ms)?;
    let range = run.range_part("no range");
    let mut checked = 0usize;
    for o in &rules {
        let mut cases: Vec<(Option<&String>, HeapSize)> = Vec::new();
        if ms.contains(&0) {
            cases.push((None, 0));
        }
        for p in &plus {
            cases.extend(ms.iter().filter(|&&m| m > 0).map(|&m| (Some(p), m)));
        }
        let alone = ScoringGame::new(vec![ruleset(o)?]);
        let mut games: HashMap<&String, ScoringGame> = HashMap::new();
        for p in &plus {
            games.insert(p, ScoringGame::new(vec![ruleset(o)?, ruleset(p)?]));
        }
        let mut minimax: HashMap<Option<&String>, Minimax<'_>> = HashMap::new();
        for &(p, m) in &cases {
            let game = p.map_or(&alone, |p| &games[p]);
            let mm = minimax.entry(p).or_insert_with(|| Minimax {
                game,
                memo: Default::default(),
            });
            if let Some(p) = p {
                run.ev
                    .engines()
                    .cache::<OctalCache>()
                    .gs_mixed_all(o, &ns, p, m)?;
            }
            for &n in &ns {
                // The coordinate n is written `$n = …$` by the sentence itself.
                let at = Sentence::new()
                    .point_unwritten("O", o.as_str())
                    .text(format!("fails at $O = {}$, $", text_math(o)))
                    .at_named("n", Value::int(n))
                    .text("$");
                let (heaps, g, at, pos) = match p {
                    None => (
                        vec![Heap::new(n)],
                        run.ev.engines().cache::<OctalCache>().gs(o, n)?,
                        at,
                        format!("{n}"),
                    ),
                    Some(p) => (
                        vec![Heap::new(n), Heap { size: m, rules: 1 }],
                        run.ev
                            .engines()
                            .cache::<OctalCache>()
                            .gs_mixed(o, n, p, m)?,
                        at.point_unwritten("P", p.as_str())
                            .point_unwritten("m", Value::int(m)),
                        format!("({n} +_{{\\ell}} {m})"),
                    ),
                };
                let left = mm.final_score(&heaps, true)?;
                let right = mm.final_score(&heaps, false)?;
                checked += 1;
                // Both components of the minimax are labelled; the sentence names the first
                // that differs from the engine's G_s.
                let (sl, sr) = (format!("${pos}_F^{{SL}}$"), format!("$-{pos}_F^{{SR}}$"));
                let minus_right = -&right;
                let wrong = if g != left {
                    Some((sl.clone(), left.clone()))
                } else if g != minus_right {
                    Some((sr.clone(), minus_right.clone()))
                } else {
                    None
                };
                if let Some((name, v)) = wrong {
                    let gs = if p.is_some() {
                        "\\mathcal G_s(n +_{\\ell} m)".to_string()
                    } else {
                        "\\mathcal G_s(n)".to_string()
                    };
                    return Ok(at
                        .expected_unwritten(sl, left.clone())
                        .expected_unwritten(sr, minus_right.clone())
                        .actual_unwritten("$\\mathcal G_s$ (engine)", g.clone())
                        .text(format!(
                            "{}: the engine's ${gs} = {}$, but the explicit Left/Right minimax \
                             gives {} $= {}$",
                            p.map_or(String::new(), |p| format!(
                                ", $P = {}$, $m = {m}$",
                                text_math(p)
                            )),
                            qm(&g),
                            name,
                            qm(&v)
                        ))
                        .finding(VerdictKind::Fails, range));
                }
            }
        }
    }
    Ok(finding(
        VerdictKind::Holds,
        range,
        format!(
            "$\\mathcal G_s = n_F^{{SL}} = -n_F^{{SR}}$ ($\\mathcal G_s$ by the engine) at all \
             {} ({} $\\times$ ({} single heaps $+\\ {} \\times {} \\times {}$ sums)); final \
             scores by an explicit Left/Right minimax from score $0$, sharing only the move \
             generator with the engine",
            plural(checked, "position"),
            plural(rules.len(), "ruleset"),
            if ms.contains(&0) { ns.len() } else { 0 },
            plus.len(),
            ms.iter().filter(|&&m| m > 0).count(),
            ns.len()
        ),
    ))
}
