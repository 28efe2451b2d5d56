//! Verdicts (SPEC §5): checking a claim over its range and saying what was found, with the
//! evidence — never more than was checked.

use std::sync::Arc;

use rayon::prelude::*;

use super::builtins::BuiltinRun;
use super::cost::{self, Cost};
use super::engines::{Engines, Shared};
use super::eval::{Definitions, Env, Evaluator, MAX_STEPS, owned_point, scope_of};
use super::expr::{Binder, Expr, ExprError, ExprKind, Span};
use super::finding::{
    Asserted, ClaimRef, Correction, Counterexample, DataFit, FailureExtent, Finding, Labelled,
    Points, RangePart, Reading, Unit, VerdictKind, Wording, at_point,
};
use super::narrow::{Bound, Narrowing};
use super::registry::{Assertion, Check, Claim, ExprCheck, Quantifiers, Registry};
use super::stage::Staged;
use super::value::Value;
use crate::error::{Error, Result};
use crate::miner::{FitOptions, fit_periodic_linear};
use crate::progress::{Progress, Silent};

/// The outcome of an expression check over its points.
enum Sweep {
    /// Every point passed.
    Passed { checked: u64, skipped: u64 },
    /// The first failing point (in the order of the quantifiers), with the expected and the
    /// actual value of an `expected`/`actual` check, the points checked up to it, and where
    /// the check fails along the first variable (when the sweep was asked to find out).
    Failed {
        point: Vec<(String, Value)>,
        values: Option<(Value, Value)>,
        points: Points,
        extent: Option<Box<FailureExtent>>,
    },
}

/// The first failing point of a sweep over part of a range, with the compared values.
type Failure = (Vec<(String, Value)>, Option<(Value, Value)>);

/// Whether a sweep goes on past the first failure to find the values of the first variable
/// at which the check fails ([`FailureExtent`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extent {
    /// Stop at the first failure (a correction, checked where the claim failed).
    FirstFailure,
    /// Go on, one failure per value of the first variable at most.
    PerFirstValue,
}

/// An evaluation error, with the file, line and column, the claim and the point where it
/// happened, and a caret under the expression at fault.
fn claim_error(reg: &Registry, claim: &Claim, env: &Env, e: ExprError) -> Error {
    reg.located_error(claim, &at_point(env), Some(e.span), None, &e.message)
}

/// The range a check runs on: the deep one under `--deep`, when it has one.
fn range_in_force(check: &ExprCheck, deep: bool) -> &Quantifiers {
    match (&check.deep, deep) {
        (Some(d), true) => d,
        _ => &check.range,
    }
}

fn expr_check_cost(defs: &Definitions, check: &ExprCheck, deep: bool) -> Cost {
    let range = range_in_force(check, deep);
    cost::of_points(defs, &range.binders, &[], &|vars| {
        let mut c = check
            .filter
            .as_ref()
            .map_or_else(Cost::default, |f| cost::of_expr(defs, f, vars));
        match &check.assertion {
            Assertion::Holds(h) => c = c.plus(cost::of_expr(defs, h, vars)),
            Assertion::Equal {
                actual,
                expected,
                correction,
                ..
            } => {
                c = c
                    .plus(cost::of_expr(defs, actual, vars))
                    .plus(cost::of_expr(defs, expected, vars));
                // A failing claim is checked again with its correction.
                if let Some((_, corrected)) = correction {
                    c = c
                        .plus(cost::of_expr(defs, actual, vars))
                        .plus(cost::of_expr(defs, corrected, vars));
                }
            }
        }
        c
    })
}

/// The estimated evaluation steps of checking `claim` (see [`Cost`](crate::language::Cost)): an upper bound unless
/// some range could only be sized while running. A builtin's own work in the engines is not
/// counted here; builtins size their arguments themselves.
pub fn estimate(reg: &Registry, claim: &Claim, deep: bool) -> Cost {
    let c = static_estimate(reg, claim, deep);
    match &claim.check {
        Check::Expr(check) => refined(reg, range_in_force(check, deep), c),
        _ => c,
    }
}

fn static_estimate(reg: &Registry, claim: &Claim, deep: bool) -> Cost {
    let defs = &reg.definitions;
    match &claim.check {
        Check::Expr(c) => expr_check_cost(defs, c, deep),
        Check::Readings(readings) => readings.iter().fold(Cost::default(), |acc, r| {
            acc.plus(expr_check_cost(defs, &r.check, deep))
        }),
        Check::Builtin(b) => {
            let range = match (deep, &b.deep) {
                (true, Some(d)) => Some(d),
                _ => b.range.as_ref(),
            };
            let binders = range.map(|q| q.binders.clone()).unwrap_or_default();
            cost::of_points(defs, &binders, &[], &|vars| {
                b.exprs.iter().fold(Cost::steps(1.0), |c, (_, e)| {
                    c.plus(cost::of_expr(defs, e, vars))
                })
            })
        }
    }
}

/// Points [`refined`] may list to count a range's points exactly.
const COUNTING_BUDGET: f64 = 100_000.0;

/// The estimate `c` of a check over `range`, with the points of the range's first binders
/// counted exactly instead of bounded, when that is cheap. Interval bounds overcount ranges
/// such as `a in 0..63, b in a..63, c in b..63` (sorted tuples) by the factorial of their
/// depth. The result is still an upper bound: the bodies' cost per point is the bound over all
/// points, and the ranges' own cost is kept as it was.
fn refined(reg: &Registry, range: &Quantifiers, c: Cost) -> Cost {
    let binders = &range.binders;
    // The longest prefix whose points can be listed within the budget; the binder after it is
    // counted without listing.
    let listed = (1..binders.len())
        .take_while(|&j| cost::upper_points(&binders[..j]).is_some_and(|u| u <= COUNTING_BUDGET))
        .last();
    let Some(listed) = listed else {
        return c;
    };
    let counted = &binders[..=listed];
    let Some(upper) = cost::upper_points(counted).filter(|&u| u >= 1.0) else {
        return c;
    };
    let mut engines = Engines::new();
    let mut ev = Evaluator::new(&reg.definitions, &mut engines);
    let mut budget = COUNTING_BUDGET as u64;
    let Ok(Some(exact)) = ev.count_points(counted, &mut Vec::new(), &mut budget) else {
        return c;
    };
    let ranges = cost::of_points(&reg.definitions, binders, &[], &|_| Cost::default());
    let ratio = (exact as f64 / upper).min(1.0);
    let bodies = Cost {
        steps: (c.steps - ranges.steps).max(0.0),
        least: (c.least - ranges.least).max(0.0),
        open_ended: c.open_ended,
    };
    ranges.plus(bodies.scaled(ratio))
}

/// Refuses a claim whose estimate is above [`MAX_STEPS`], naming the estimate and where its
/// range is; returns the estimate otherwise.
fn sized(reg: &Registry, claim: &Claim, deep: bool) -> Result<Cost> {
    let c = estimate(reg, claim, deep);
    if c.least <= MAX_STEPS as f64 {
        return Ok(c);
    }
    let (field, at) = match (deep, claim.place.deep, claim.place.range) {
        (true, Some(d), _) => ("`deep`", Some(d)),
        (_, _, Some(r)) => ("`for`", Some(r)),
        _ => ("expression", None),
    };
    let points = match &claim.check {
        Check::Expr(check) => {
            let range = range_in_force(check, deep);
            match cost::upper_points(&range.binders) {
                Some(n) => format!(
                    " (its {field} range alone has up to {} points)",
                    cost::show(n)
                ),
                None => String::new(),
            }
        }
        _ => String::new(),
    };
    Err(reg.located_error(
        claim,
        "",
        None,
        at,
        &format!(
            "checking it would take at least about {} evaluation steps{points}, more than the limit of \
             {MAX_STEPS} (ranges multiply: nested ranges and the ranges of aggregates such as \
             all(j in a..b: …) count as their product); narrow {field} or the ranges inside its \
             expressions, or split the claim",
            cost::show(c.least)
        ),
    ))
}

/// The steps a progress bar plans for a claim estimated at `c`.
fn planned_steps(c: &Cost) -> u64 {
    c.least.clamp(1.0, MAX_STEPS as f64) as u64
}

/// The estimated steps of the claims chosen by `only` (all when empty), after refusing any
/// claim above the limit: the length of a progress bar.
pub fn plan(reg: &Registry, deep: bool, only: &[String]) -> Result<u64> {
    let mut total = 0u64;
    for c in chosen(reg, only)? {
        total = total.saturating_add(planned_steps(&sized(reg, c, deep)?));
    }
    Ok(total)
}

struct Runner<'a> {
    ev: Evaluator<'a>,
    claim: &'a Claim,
    reg: &'a Registry,
}

impl Runner<'_> {
    fn located(&self, e: ExprError, env: &Env) -> Error {
        claim_error(self.reg, self.claim, env, e)
    }

    /// Checks `check` at the points of `binders` under the bindings `env`, in order, up to
    /// the first failure; counts the points checked and skipped in `counts`.
    fn sweep_from<'e>(
        &mut self,
        check: &'e ExprCheck,
        binders: &'e [Binder],
        bounds: &[Vec<Bound<'e>>],
        env: &mut Env<'e>,
        counts: &mut Points,
    ) -> Result<Option<Failure>> {
        let mut failure: Option<Failure> = None;
        let mut error: Option<Error> = None;
        let claim = self.claim;
        let reg = self.reg;
        let mut excluded = 0u64;
        let result =
            self.ev
                .each_point_narrowed(binders, bounds, env, &mut excluded, &mut |ev, env| {
                    let at_point = |e: ExprError, env: &Env| claim_error(reg, claim, env, e);
                    // A user function may return anything: a truth value is demanded here.
                    let truth = |v: Value, at: &super::expr::Expr| match v {
                        Value::Bool(b) => Ok(b),
                        other => Err(ExprError::new(
                            at.span,
                            format!("expected a truth value, found {}", other.short()),
                        )),
                    };
                    if let Some(f) = &check.filter {
                        match ev.eval(f, env).and_then(|v| truth(v, f)) {
                            Ok(true) => {}
                            Ok(false) => {
                                counts.skipped += 1;
                                return Ok(true);
                            }
                            Err(e) => {
                                error = Some(at_point(e, env));
                                return Ok(false);
                            }
                        }
                    }
                    counts.checked += 1;
                    let outcome = match &check.assertion {
                        Assertion::Holds(h) => {
                            ev.eval(h, env).and_then(|v| Ok((truth(v, h)?, None)))
                        }
                        Assertion::Equal {
                            actual, expected, ..
                        } => ev.eval(actual, env).and_then(|a| {
                            let x = ev.eval(expected, env)?;
                            Ok((a == x, Some((x, a))))
                        }),
                    };
                    match outcome {
                        Ok((true, _)) => Ok(true),
                        Ok((false, values)) => {
                            failure = Some((owned_point(env), values));
                            Ok(false)
                        }
                        Err(e) => {
                            error = Some(at_point(e, env));
                            Ok(false)
                        }
                    }
                });
        counts.skipped += excluded;
        if let Some(e) = error {
            return Err(e);
        }
        result.map_err(|e| self.located(e, env))?;
        Ok(failure)
    }

    /// Checks `check` over `range`. Up to the first failure every point is checked in order
    /// (an error there is the claim's error); with [`Extent::PerFirstValue`] the sweep then
    /// goes on through the remaining values of the first variable, each up to its own first
    /// failure, to tell the values that fail from those that hold. That costs no more than
    /// the sweep of a claim that holds, which the claim's estimate allows for. An error met
    /// after the first failure ends the extent there (it lists the values decided before).
    fn sweep(&mut self, check: &ExprCheck, range: &Quantifiers, extent: Extent) -> Result<Sweep> {
        let staged = Staged::new(&self.reg.definitions, check);
        self.ev.stage(staged.memo(&range.binders));
        let swept = self.sweep_staged(staged.check(), range, extent);
        self.ev.unstage();
        swept
    }

    /// [`Runner::sweep`] of the staged check.
    fn sweep_staged(
        &mut self,
        check: &ExprCheck,
        range: &Quantifiers,
        extent: Extent,
    ) -> Result<Sweep> {
        let mut counts = Points::default();
        let mut env: Env = Vec::new();
        let narrowing = Narrowing::plan(check.filter.as_ref(), &range.binders);
        let Some((first, rest)) = range.binders.split_first() else {
            return Ok(
                match self.sweep_from(check, &[], &[], &mut env, &mut counts)? {
                    None => Sweep::Passed {
                        checked: counts.checked,
                        skipped: counts.skipped,
                    },
                    Some((point, values)) => Sweep::Failed {
                        point,
                        values,
                        points: counts,
                        extent: None,
                    },
                },
            );
        };
        let xs = self
            .ev
            .binder_points(first, &mut env)
            .map_err(|e| self.located(e, &env))?;
        let mut found: Option<(Failure, Points)> = None;
        let (mut failing, mut holding) = (Vec::new(), Vec::new());
        for x in xs {
            let before = counts.checked;
            env.push((first.name.as_str(), x.clone()));
            self.ev.bound(first);
            let r = self.sweep_from(check, rest, narrowing.inner(), &mut env, &mut counts);
            env.pop();
            let r = match (r, &found) {
                (Err(e), None) => return Err(e),
                (Err(_), Some(_)) => break,
                (Ok(r), _) => r,
            };
            match r {
                Some(f) => {
                    failing.push(x);
                    if found.is_none() {
                        found = Some((f, counts));
                        if extent == Extent::FirstFailure {
                            break;
                        }
                    }
                }
                // A value whose points were all excluded by `where` neither fails nor holds.
                None if counts.checked > before => holding.push(x),
                None => {}
            }
        }
        Ok(match found {
            None => Sweep::Passed {
                checked: counts.checked,
                skipped: counts.skipped,
            },
            // Past the first failure the extent's sweep counts on: its points are all those
            // checked, each value of the first variable up to its own first failure.
            Some(((point, values), first_failure)) => Sweep::Failed {
                point,
                values,
                points: if extent == Extent::PerFirstValue {
                    counts
                } else {
                    first_failure
                },
                extent: (extent == Extent::PerFirstValue).then(|| {
                    Box::new(FailureExtent {
                        variable: first.name.clone(),
                        failing,
                        holding,
                        others: rest.iter().map(|b| b.name.clone()).collect(),
                    })
                }),
            },
        })
    }

    /// Why a truth-valued check is false at `env`: the part of it that is false (a
    /// comparison, a conjunct, the branch an `if` took, as the claim file writes it) and the
    /// values that make it so — the sides of the comparison, the `if` conditions and `let`
    /// bindings on the way. `None` when an evaluation fails on the way (the counterexample
    /// then names the whole check).
    fn explain<'e>(
        &mut self,
        e: &'e Expr,
        env: &mut Env<'e>,
        actual: &mut Vec<Labelled>,
    ) -> Option<(String, Expr)> {
        use super::expr::BinOp;
        match &e.kind {
            ExprKind::Let(name, v, body) => {
                let x = self.ev.eval(v, env).ok()?;
                // The bound name is typeset like any variable.
                actual.push(Labelled::of_expr(name.clone(), &Expr::var(name), x.clone()));
                env.push((name.as_str(), x));
                let r = self.explain(body, env, actual);
                env.pop();
                r
            }
            ExprKind::If(c, a, b) => {
                let Value::Bool(taken) = self.ev.eval(c, env).ok()? else {
                    return None;
                };
                actual.push(Labelled::of_expr(self.label(c, "condition"), c, taken));
                self.explain(if taken { a } else { b }, env, actual)
            }
            ExprKind::Binary(BinOp::And, a, b) => match self.ev.eval(a, env).ok()? {
                Value::Bool(false) => self.explain(a, env, actual),
                _ => self.explain(b, env, actual),
            },
            ExprKind::Compare(head, rest) => {
                let mut left = head.as_ref();
                for (op, right) in rest {
                    let pair = Expr {
                        kind: ExprKind::Compare(Box::new(left.clone()), vec![(*op, right.clone())]),
                        span: e.span,
                    };
                    // The pair is built here, so it is evaluated in a copy of the scope that
                    // borrows no longer than it lives.
                    let mut scope: Env = env.clone();
                    if self.ev.eval(&pair, &mut scope).ok()? == Value::Bool(false) {
                        let l = self.ev.eval(left, env).ok()?;
                        let r = self.ev.eval(right, env).ok()?;
                        let (ll, rl) = (self.label(left, "left"), self.label(right, "right"));
                        // A literal side (`k < 200`) says its value in the expected text.
                        for (label, side, v) in [(&ll, left, l), (&rl, right, r)] {
                            if *label != v.short().to_string() {
                                actual.push(Labelled::of_expr(label.clone(), side, v));
                            }
                        }
                        return Some(if rest.len() == 1 {
                            (self.label(e, "comparison"), e.clone())
                        } else {
                            (format!("{ll} {} {rl}", op.symbol()), pair)
                        });
                    }
                    left = right;
                }
                None
            }
            _ => {
                let label = self.label(e, "holds");
                actual.push(Labelled::of_expr(label.clone(), e, false));
                Some((label, e.clone()))
            }
        }
    }

    /// The miner's closed form for the actual values, when the range is one integer variable
    /// and the data fit a periodic-linear form.
    fn proposed_form(&mut self, check: &ExprCheck, range: &Quantifiers) -> Option<DataFit> {
        let Assertion::Equal { actual, .. } = &check.assertion else {
            return None;
        };
        let [b] = &range.binders[..] else {
            return None;
        };
        if check.filter.is_some() {
            return None;
        }
        let mut env: Env = Vec::new();
        let points = self.ev.binder_points(b, &mut env).ok()?;
        let as_int = |v: &Value| match v {
            Value::Num(q) => q.to_i64(),
            _ => None,
        };
        let first = as_int(points.first()?)?;
        if points
            .iter()
            .enumerate()
            .any(|(i, p)| as_int(p) != Some(first + i as i64))
        {
            return None;
        }
        let mut values = Vec::with_capacity(points.len());
        for p in points {
            env.push((b.name.as_str(), p));
            let v = self.ev.eval(actual, &mut env).ok();
            env.pop();
            match v? {
                Value::Num(q) => values.push(q),
                _ => return None,
            }
        }
        let form = fit_periodic_linear(&values, first, &FitOptions::default())?;
        Some(DataFit {
            variable: b.name.clone(),
            form,
        })
    }

    /// The text of an expression as the claim file writes it, a label for its value.
    fn label(&self, e: &Expr, fallback: &str) -> String {
        self.reg
            .text_of(balanced(e.span, |s| self.reg.text_of(s)))
            .map_or_else(|| fallback.to_string(), |t| t.trim().to_string())
    }

    /// The value of `e` labelled: by component (each with its own text) when `e` is a list
    /// literal and `split` is asked, else whole. Returns whether it was split.
    fn labelled(&self, e: &Expr, v: Value, fallback: &str, split: bool) -> (Vec<Labelled>, bool) {
        // `let N = … in [a, b]` is compared by the components of its list.
        let mut body = e;
        while let ExprKind::Let(_, _, inner) = &body.kind {
            body = inner;
        }
        if let (true, ExprKind::List(items), Value::List(values)) = (split, &body.kind, &v)
            && !items.is_empty()
            && items.len() == values.len()
        {
            let parts = items
                .iter()
                .zip(values.iter())
                .map(|(item, x)| Labelled::of_expr(self.label(item, fallback), item, x.clone()))
                .collect();
            return (parts, true);
        }
        (
            vec![Labelled::of_expr(self.label(e, fallback), e, v)],
            false,
        )
    }

    /// A failing point of `check` as a counterexample with labelled values, and what it
    /// compared. With `quantities`, both sides must be lists of that many components (an error
    /// names the claim otherwise): each component is labelled by its quantity on both sides.
    /// Every value is typeset with the claim file's definitions, so evidence never names a helper.
    fn counterexample(
        &mut self,
        check: &ExprCheck,
        point: Vec<(String, Value)>,
        values: Option<(Value, Value)>,
        split: bool,
    ) -> Result<(Counterexample, Asserted)> {
        let (mut ce, asserted) = self.untypeset_counterexample(check, point, values, split)?;
        ce.typeset(&self.reg.definitions);
        Ok((ce, asserted))
    }

    /// [`Runner::counterexample`] before its values are typeset.
    fn untypeset_counterexample(
        &mut self,
        check: &ExprCheck,
        point: Vec<(String, Value)>,
        values: Option<(Value, Value)>,
        split: bool,
    ) -> Result<(Counterexample, Asserted)> {
        Ok(match (&check.assertion, values) {
            (
                Assertion::Equal {
                    quantities,
                    expected,
                    ..
                },
                Some((x, a)),
            ) if !quantities.is_empty() => {
                let named = |v: Value| -> Result<Vec<Labelled>> {
                    match v {
                        Value::List(items) if items.len() == quantities.len() => Ok(quantities
                            .iter()
                            .zip(items.iter())
                            .map(|(q, x)| Labelled::new(q.clone(), x.clone()))
                            .collect()),
                        other => Err(self.reg.located_error(
                            self.claim,
                            &at_point(&point),
                            Some(expected.span),
                            None,
                            &format!(
                                "`quantities` names {} components, but a compared value is {}",
                                quantities.len(),
                                other.short()
                            ),
                        )),
                    }
                };
                (
                    Counterexample {
                        expected: named(x)?,
                        actual: named(a)?,
                        point,
                    },
                    Asserted::Equal {
                        expected_components: true,
                        actual_components: true,
                    },
                )
            }
            (
                Assertion::Equal {
                    actual, expected, ..
                },
                Some((x, a)),
            ) => {
                let (expected, expected_components) = self.labelled(expected, x, "expected", split);
                let (actual, actual_components) = self.labelled(actual, a, "actual", split);
                (
                    Counterexample {
                        point,
                        expected,
                        actual,
                    },
                    Asserted::Equal {
                        expected_components,
                        actual_components,
                    },
                )
            }
            (Assertion::Holds(h), _) | (Assertion::Equal { actual: h, .. }, None) => {
                let mut env = scope_of(&point);
                let mut why = Vec::new();
                let (expected, actual) = match self.explain(h, &mut env, &mut why) {
                    Some((part, part_expr)) => (Labelled::of_expr(part, &part_expr, true), why),
                    None => {
                        let label = self.label(h, "holds");
                        (
                            Labelled::of_expr(label.clone(), h, true),
                            vec![Labelled::of_expr(label, h, false)],
                        )
                    }
                };
                (
                    Counterexample {
                        point,
                        expected: vec![expected],
                        actual,
                    },
                    Asserted::Holds,
                )
            }
        })
    }

    fn expr_finding(&mut self, check: &ExprCheck, deep: bool) -> Result<Finding> {
        let range = range_in_force(check, deep);
        let part = RangePart {
            text: if range.text.is_empty() {
                "single evaluation".to_string()
            } else {
                range.text.clone()
            },
            // The mathematics, not where the file wrote it: two shards of one claim, or a claim
            // read and the same built as values, give equal findings.
            binders: range.binders.iter().map(Binder::unplaced).collect(),
        };
        let sweep = |unit, asserted| Wording::Sweep { unit, asserted };
        let equal = Asserted::Equal {
            expected_components: false,
            actual_components: false,
        };
        let asserted = match check.assertion {
            Assertion::Holds(_) => Asserted::Holds,
            Assertion::Equal { .. } => equal,
        };
        Ok(match self.sweep(check, range, Extent::PerFirstValue)? {
            Sweep::Passed { checked, skipped } => {
                // A conjecture checked on a finite range HOLDS there like any claim (the
                // policy of data/claims/README.md); OPEN is left for a check that checked
                // nothing.
                let verdict = if checked == 0 {
                    VerdictKind::Open
                } else {
                    VerdictKind::Holds
                };
                let mut f = Finding::new(verdict, vec![part], sweep(Unit::Point, asserted));
                f.points = Some(Points { checked, skipped });
                f
            }
            Sweep::Failed {
                point,
                values,
                points,
                extent,
            } => {
                let (ce, asserted) = self.counterexample(check, point, values, true)?;
                let mut f = Finding::new(
                    VerdictKind::Fails,
                    vec![part.clone()],
                    sweep(Unit::Point, asserted),
                );
                f.points = Some(points);
                f.counterexample = Some(ce);
                f.extent = extent.map(|e| *e);
                if let Assertion::Equal {
                    actual,
                    correction: Some((text, c)),
                    quantities,
                    ..
                } = &check.assertion
                {
                    let corrected = ExprCheck {
                        assertion: Assertion::Equal {
                            actual: actual.clone(),
                            expected: c.clone(),
                            correction: None,
                            quantities: quantities.clone(),
                        },
                        in_words: None,
                        ..check.clone()
                    };
                    let (checked, counterexample) =
                        match self.sweep(&corrected, range, Extent::FirstFailure)? {
                            Sweep::Passed { checked, .. } => (checked, None),
                            Sweep::Failed {
                                point,
                                values,
                                points,
                                ..
                            } => (
                                points.checked,
                                Some(self.counterexample(&corrected, point, values, false)?.0),
                            ),
                        };
                    f.correction = Some(Correction {
                        text: text.clone(),
                        math: super::typeset::expr_math(c, &self.reg.definitions),
                        expr: c.unplaced(),
                        range: vec![part],
                        checked,
                        counterexample,
                    });
                }
                f.fit = self.proposed_form(check, range);
                f
            }
        })
    }

    fn finding(&mut self, deep: bool) -> Result<Finding> {
        match &self.claim.check {
            Check::Expr(c) => self.expr_finding(c, deep),
            Check::Builtin(b) => {
                let range = match (deep, &b.deep) {
                    (true, Some(d)) => Some(d),
                    _ => b.range.as_ref(),
                };
                let mut run = BuiltinRun {
                    ev: &mut self.ev,
                    args: &b.args,
                    exprs: &b.exprs,
                    range,
                    deep,
                };
                let (reg, claim) = (self.reg, self.claim);
                let f = super::builtins::run(&b.name, &mut run).map_err(|e| {
                    reg.located_error(
                        claim,
                        &format!(" (builtin `{}`)", b.name),
                        None,
                        claim.place.builtin,
                        &e.to_string(),
                    )
                })?;
                Ok(f)
            }
            Check::Readings(readings) => {
                let mut found = Vec::new();
                let mut ranges: Vec<RangePart> = Vec::new();
                for r in readings {
                    let f = self.expr_finding(&r.check, deep)?;
                    for part in &f.range {
                        if !ranges.iter().any(|r| r.text == part.text) {
                            ranges.push(part.clone());
                        }
                    }
                    found.push(Reading {
                        name: r.name.clone(),
                        literal: r.literal,
                        finding: f,
                    });
                }
                Ok(Finding::of_readings(ranges, found))
            }
        }
    }
}

/// `span` widened to balance its parentheses. The parser gives a parenthesised expression the
/// span of what is inside, so an operation whose first (last) operand is parenthesised starts
/// (ends) inside the parenthesis: `30 + v) / 2`. `text_of` reads the source; the widening stops
/// at the ends of the source string.
fn balanced<'s>(mut span: Span, text_of: impl Fn(Span) -> Option<&'s str>) -> Span {
    let depth = |t: &str| {
        t.chars().fold(0i64, |d, c| match c {
            '(' => d + 1,
            ')' => d - 1,
            _ => d,
        })
    };
    let Some(mut text) = text_of(span) else {
        return span;
    };
    // Stepping a byte at a time passes over the inside of a multi-byte character (no text).
    while depth(text) < 0 && span.local_start() > 0 {
        span.start -= 1;
        if let Some(t) = text_of(span) {
            text = t;
        }
    }
    while depth(text) > 0 {
        let wider = Span {
            end: span.end + 1,
            ..span
        };
        match (
            text_of(wider),
            text_of(Span {
                end: span.end + 4,
                ..span
            }),
        ) {
            (Some(t), _) => text = t,
            (None, None) => break,
            (None, Some(_)) => {}
        }
        span = wider;
    }
    span
}

/// The claim `claim` of `reg`, as findings name it.
fn claim_ref(reg: &Registry, claim: &Claim) -> ClaimRef {
    ClaimRef {
        paper: reg.paper.clone(),
        id: claim.id.clone(),
        label: claim.label.clone(),
        statement: claim.statement.clone(),
        commentary: claim.commentary.clone(),
    }
}

/// Checks one claim of the registry (refused at once when its estimate is above the limit).
pub fn check_claim(reg: &Registry, claim: &Claim, deep: bool) -> Result<Finding> {
    let estimate = sized(reg, claim, deep)?;
    check_sized_claim(reg, claim, deep, estimate, &Silent, &Default::default())
}

/// Checks a claim already sized, reporting progress in evaluation steps; when it is done the
/// steps reported add up to at least its estimate. `shared` is what the run's claims share.
fn check_sized_claim(
    reg: &Registry,
    claim: &Claim,
    deep: bool,
    estimate: Cost,
    progress: &dyn Progress,
    shared: &Arc<Shared>,
) -> Result<Finding> {
    // The progress reported for a claim stays within its planned steps, and reaches them when
    // the claim is done, so that the bar ends full whatever branches the claim took.
    let planned = planned_steps(&estimate);
    let report = Capped {
        to: progress,
        planned,
        reported: std::sync::atomic::AtomicU64::new(0),
    };
    let mut engines = Engines::sharing(shared);
    let mut runner = Runner {
        ev: Evaluator::new(&reg.definitions, &mut engines).with_progress(&report),
        claim,
        reg,
    };
    let f = runner.finding(deep);
    runner.ev.flush_progress();
    report.advance(planned);
    let mut f = f?;
    if let (Some(proof), Check::Expr(check), VerdictKind::Holds) =
        (&claim.proof, &claim.check, f.verdict)
        && let Some(p) = super::induction::prove_claim(&reg.definitions, check, proof)?
    {
        f.verdict = VerdictKind::Proven;
        f.proof = Some(p);
    }
    Ok(f.about(&claim_ref(reg, claim)))
}

/// Passes a claim's progress on to `to`, never more than its `planned` steps in all.
struct Capped<'a> {
    to: &'a dyn Progress,
    planned: u64,
    reported: std::sync::atomic::AtomicU64,
}

impl Progress for Capped<'_> {
    fn advance(&self, n: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let planned = self.planned;
        let before = self
            .reported
            .fetch_update(Relaxed, Relaxed, |r| Some(r.saturating_add(n).min(planned)))
            .unwrap_or(planned);
        self.to
            .advance(planned.min(before.saturating_add(n)) - before);
    }
}

/// The claims `only` names (all when empty), in file order; an error when one names none.
pub(crate) fn chosen<'r>(reg: &'r Registry, only: &[String]) -> Result<Vec<&'r Claim>> {
    if let Some(missing) = only
        .iter()
        .find(|o| !reg.claims.iter().any(|c| &c.label == *o || &c.id == *o))
    {
        return Err(Error::invalid(format!(
            "no claim in `{}` has the label or id \"{}\"",
            reg.paper,
            super::registry::excerpt(missing)
        )));
    }
    Ok(reg
        .claims
        .iter()
        .filter(|c| only.is_empty() || only.iter().any(|o| o == &c.label || o == &c.id))
        .collect())
}

/// Checks the claims of a registry (those whose label or id `only` names, when given), in
/// parallel, returning the findings in file order. `progress` advances by one after each
/// claim. Every claim is sized first: one above the limit is refused before any is evaluated.
pub fn check_registry(
    reg: &Registry,
    deep: bool,
    only: &[String],
    progress: &dyn Progress,
) -> Result<Vec<Finding>> {
    check_claims(reg, deep, only, &Silent, progress)
}

/// As [`check_registry`], reporting progress in evaluation steps (their total is
/// [`plan`]'s estimate) instead of claims.
pub fn check_registry_progress(
    reg: &Registry,
    deep: bool,
    only: &[String],
    progress: &dyn Progress,
) -> Result<Vec<Finding>> {
    check_claims(reg, deep, only, progress, &Silent)
}

fn check_claims(
    reg: &Registry,
    deep: bool,
    only: &[String],
    steps: &dyn Progress,
    claims: &dyn Progress,
) -> Result<Vec<Finding>> {
    let mut found = check_chosen(&[(reg, only)], deep, steps, claims)?;
    Ok(found.pop().unwrap_or_default())
}

/// Checks the claims of several registries (each with its `only`, as [`check_registry`]) in
/// one parallel pass, returning each registry's findings in file order; `progress` advances in
/// evaluation steps, as [`check_registry_progress`]. One pass, not one per registry, so that a
/// file's slowest claim overlaps the other files' claims instead of idling a core.
pub fn check_registries_progress(
    registries: &[(&Registry, &[String])],
    deep: bool,
    progress: &dyn Progress,
) -> Result<Vec<Vec<Finding>>> {
    check_chosen(registries, deep, progress, &Silent)
}

fn check_chosen(
    registries: &[(&Registry, &[String])],
    deep: bool,
    steps: &dyn Progress,
    claims: &dyn Progress,
) -> Result<Vec<Vec<Finding>>> {
    let mut work: Vec<(usize, &Registry, &Claim, Cost)> = Vec::new();
    for (i, (reg, only)) in registries.iter().enumerate() {
        for c in chosen(reg, only)? {
            work.push((i, reg, c, sized(reg, c, deep)?));
        }
    }
    // The proofs the claims refer to, each once, before the claims wait for them.
    let mut forms: Vec<&std::path::Path> = work
        .iter()
        .filter_map(|(_, _, c, _)| match (&c.proof, &c.check) {
            (Some(proof), Check::Expr(_)) => proof.forms_path(),
            _ => None,
        })
        .collect();
    forms.sort_unstable();
    forms.dedup();
    super::induction::prove_ahead(&forms);
    let shared = Arc::new(Shared::default());
    // Every result is kept before any error is raised, so that the error reported is the
    // first in file order whichever claim failed first in time.
    let found: Vec<(usize, Result<Finding>)> = work
        .into_par_iter()
        // One task per claim. Left to itself rayon hands each core a run of consecutive claims
        // and splits a run further only when it is stolen, so the run holding the costliest
        // claims went on alone for seconds after the other core had finished.
        .with_max_len(1)
        .map(|(i, reg, c, estimate)| {
            let f = check_sized_claim(reg, c, deep, estimate, steps, &shared);
            claims.advance(1);
            (i, f)
        })
        .collect();
    let mut out: Vec<Vec<Finding>> = registries.iter().map(|_| Vec::new()).collect();
    for (i, f) in found {
        out[i].push(f?);
    }
    Ok(out)
}

/// Checks a closed form against rows of data: each row binds `names` to its values and carries
/// the value observed. Rows are checked in the order given; the first mismatch is reported with
/// the formula's value as "expected" and the data's as "actual", at the row's first name (the
/// index) and the names the formula uses.
pub fn check_formula_rows(
    formula: &str,
    names: &[String],
    rows: &[(Vec<Value>, Value)],
    range: &str,
) -> std::result::Result<Finding, ExprError> {
    let e = super::expr::parse_expr(formula)?;
    let defs = Definitions::new();
    defs.check_with_untyped(&e, names)?;
    let scope: Vec<(String, Option<(f64, f64)>)> =
        names.iter().map(|n| (n.clone(), None)).collect();
    let per_row = cost::of_expr(&defs, &e, &scope);
    let steps = per_row.least * rows.len() as f64;
    if steps > MAX_STEPS as f64 {
        return Err(ExprError::new(
            e.span,
            format!(
                "checking this formula on {} rows would take about {} evaluation steps, more \
                 than the limit of {MAX_STEPS}; narrow the ranges inside it or check fewer rows \
                 (--from)",
                rows.len(),
                cost::show(steps)
            ),
        ));
    }
    let mut engines = Engines::new();
    let mut ev = Evaluator::new(&defs, &mut engines);
    for (values, actual) in rows {
        let mut env: Env = names
            .iter()
            .map(String::as_str)
            .zip(values.iter().cloned())
            .collect();
        let expected = ev.eval(&e, &mut env)?;
        if &expected != actual {
            let shown: Env = env
                .into_iter()
                .enumerate()
                .filter(|(i, (n, _))| *i == 0 || e.mentions(n))
                .map(|(_, nv)| nv)
                .collect();
            let mut f = Finding::new(
                VerdictKind::Fails,
                vec![RangePart::described(range)],
                row_sweep(),
            );
            f.counterexample = Some(Counterexample {
                point: owned_point(&shown),
                expected: vec![Labelled::new(formula, expected)],
                actual: vec![Labelled::new("the data", actual.clone())],
            });
            return Ok(f);
        }
    }
    let mut f = Finding::new(
        VerdictKind::Holds,
        vec![RangePart::described(range)],
        row_sweep(),
    );
    f.points = Some(Points {
        checked: rows.len() as u64,
        skipped: 0,
    });
    Ok(f)
}

/// How a check of data rows against a formula reads: rows compared, value against value.
fn row_sweep() -> Wording {
    Wording::Sweep {
        unit: Unit::Row,
        asserted: Asserted::Equal {
            expected_components: false,
            actual_components: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widened(src: &str, start: usize, end: usize) -> &str {
        let s = balanced(Span { start, end }, |s: Span| src.get(s.start..s.end));
        &src[s.start..s.end]
    }

    #[test]
    fn a_label_takes_in_the_parentheses_of_its_operands() {
        // The parser's span of `(30 + v) / 2` starts inside the parenthesis.
        assert_eq!(widened("(30 + v) / 2", 1, 12), "(30 + v) / 2");
        assert_eq!(widened("2 * (a + b)", 0, 10), "2 * (a + b)");
        assert_eq!(widened("f((a), b)", 2, 4), "(a)");
        // Balanced text is left alone; a multi-byte character on the way is stepped over.
        assert_eq!(widened("x <= y", 0, 1), "x");
        assert_eq!(widened("(√ + 1) * 2", 4, 13), "(√ + 1) * 2");
        // Unbalanced to the end of the source: as far as it goes.
        assert_eq!(widened("a)", 0, 2), "a)");
    }

    #[test]
    fn comparison_symbols_are_the_languages() {
        use super::super::expr::CmpOp;
        let all = [
            (CmpOp::Eq, "=="),
            (CmpOp::Ne, "!="),
            (CmpOp::Lt, "<"),
            (CmpOp::Le, "<="),
            (CmpOp::Gt, ">"),
            (CmpOp::Ge, ">="),
        ];
        for (op, sym) in all {
            let e = super::super::expr::parse_expr(&format!("1 {sym} 2")).unwrap();
            let ExprKind::Compare(_, rest) = e.kind else {
                panic!("{sym} parses to a comparison");
            };
            assert_eq!(rest[0].0, op);
            assert_eq!(op.symbol(), sym);
        }
    }
}
