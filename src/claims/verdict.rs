//! Verdicts (SPEC §5): checking a claim over its range and saying what was found, with the
//! evidence — never more than was checked.

use std::fmt;

use rayon::prelude::*;
use serde::Serialize;

use super::builtins::BuiltinRun;
use super::engines::Engines;
use super::eval::{Definitions, Env, Evaluator};
use super::expr::ExprError;
use super::registry::{Assertion, Check, Claim, ExprCheck, Quantifiers, Registry};
use super::value::Value;
use crate::error::{Error, Result};
use crate::miner::{FitOptions, fit_periodic_linear};

/// The five verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum VerdictKind {
    /// Checked at every point of a finite range.
    Holds,
    /// A replayed certificate covers everything beyond a window checked directly.
    Proven,
    /// A counterexample was found.
    Fails,
    /// Several readings, each with its own verdict.
    Ambiguous,
    /// No finite check settles it; evidence only.
    Open,
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VerdictKind::Holds => "HOLDS",
            VerdictKind::Proven => "PROVEN",
            VerdictKind::Fails => "FAILS",
            VerdictKind::Ambiguous => "AMBIGUOUS",
            VerdictKind::Open => "OPEN",
        })
    }
}

/// What a check found: the verdict, the range it covers and the evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The verdict.
    pub verdict: VerdictKind,
    /// The range checked, as the claim wrote it (or as the builtin describes it).
    pub range: String,
    /// The evidence in one line.
    pub evidence: String,
}

/// One line of the verdict table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The registry's paper.
    pub paper: String,
    /// The claim's id.
    pub id: String,
    /// The paper's label.
    pub label: String,
    /// The statement in words.
    pub statement: String,
    /// What was found.
    #[serde(flatten)]
    pub finding: Finding,
}

/// The outcome of an expression check over its points.
enum Sweep {
    /// Every point passed.
    Passed { checked: u64, skipped: u64 },
    /// The first failing point (in the order of the quantifiers).
    Failed {
        point: Vec<(String, Value)>,
        values: Option<(Value, Value)>,
    },
}

fn show_point(point: &[(String, Value)]) -> String {
    if point.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = point.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    format!(" at {}", parts.join(", "))
}

fn plural(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// An evaluation error, with the file, the claim and the point where it happened.
fn claim_error(path: &std::path::Path, claim: &Claim, env: &Env, e: ExprError) -> Error {
    Error::invalid(format!(
        "{}: claim `{}` ({}){}: {e}",
        path.display(),
        claim.id,
        claim.label,
        show_point(env)
    ))
}

struct Runner<'a> {
    ev: Evaluator<'a>,
    claim: &'a Claim,
    path: &'a std::path::Path,
}

impl Runner<'_> {
    fn located(&self, e: ExprError, env: &Env) -> Error {
        claim_error(self.path, self.claim, env, e)
    }

    fn sweep(&mut self, check: &ExprCheck, range: &Quantifiers) -> Result<Sweep> {
        let mut checked = 0u64;
        let mut skipped = 0u64;
        let mut failure: Option<Sweep> = None;
        let mut env: Env = Vec::new();
        let mut error: Option<Error> = None;
        let binders = range.binders.clone();
        let claim = self.claim;
        let path = self.path;
        let result = self.ev.each_point(&binders, &mut env, &mut |ev, env| {
            let at_point = |e: ExprError, env: &Env| claim_error(path, claim, env, e);
            // A user function may return anything: a truth value is demanded here.
            let truth = |v: Value, at: &super::expr::Expr| match v {
                Value::Bool(b) => Ok(b),
                other => Err(ExprError::new(
                    at.span,
                    format!("expected a truth value, found {other}"),
                )),
            };
            if let Some(f) = &check.filter {
                match ev.eval(f, env).and_then(|v| truth(v, f)) {
                    Ok(true) => {}
                    Ok(false) => {
                        skipped += 1;
                        return Ok(true);
                    }
                    Err(e) => {
                        error = Some(at_point(e, env));
                        return Ok(false);
                    }
                }
            }
            checked += 1;
            let outcome = match &check.assertion {
                Assertion::Holds(h) => ev.eval(h, env).and_then(|v| Ok((truth(v, h)?, None))),
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
                    failure = Some(Sweep::Failed {
                        point: env.clone(),
                        values,
                    });
                    Ok(false)
                }
                Err(e) => {
                    error = Some(at_point(e, env));
                    Ok(false)
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        result.map_err(|e| self.located(e, &env))?;
        Ok(failure.unwrap_or(Sweep::Passed { checked, skipped }))
    }

    /// The miner's closed form for the actual values, when the range is one integer variable
    /// and the data fit a periodic-linear form.
    fn proposed_form(&mut self, check: &ExprCheck, range: &Quantifiers) -> Option<String> {
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
            env.push((b.name.clone(), p));
            let v = self.ev.eval(actual, &mut env).ok();
            env.pop();
            match v? {
                Value::Num(q) => values.push(q),
                _ => return None,
            }
        }
        let fit = fit_periodic_linear(&values, first, &FitOptions::default())?;
        Some(fit.formulas_in("actual", &b.name).join("; "))
    }

    fn expr_finding(&mut self, check: &ExprCheck, deep: bool) -> Result<Finding> {
        let range = match (&check.deep, deep) {
            (Some(d), true) => d,
            _ => &check.range,
        };
        let range_text = if range.text.is_empty() {
            "single evaluation".to_string()
        } else {
            range.text.clone()
        };
        Ok(match self.sweep(check, range)? {
            Sweep::Passed { checked, skipped } => {
                let mut evidence = format!("true at all {}", plural(checked, "point"));
                if skipped > 0 {
                    evidence.push_str(&format!(
                        " ({} excluded by `where`)",
                        plural(skipped, "point")
                    ));
                }
                if checked == 0 {
                    evidence =
                        "no point of the range satisfies `where`: nothing was checked".to_string();
                }
                let verdict = if self.claim.open || checked == 0 {
                    VerdictKind::Open
                } else {
                    VerdictKind::Holds
                };
                Finding {
                    verdict,
                    range: range_text,
                    evidence,
                }
            }
            Sweep::Failed { point, values } => {
                let mut evidence = match values {
                    Some((expected, actual)) => format!(
                        "fails{}: expected {expected}, actual {actual}",
                        show_point(&point)
                    ),
                    None => format!("false{}", show_point(&point)),
                };
                if let Assertion::Equal {
                    actual,
                    correction: Some((text, c)),
                    ..
                } = &check.assertion
                {
                    let corrected = ExprCheck {
                        assertion: Assertion::Equal {
                            actual: actual.clone(),
                            expected: c.clone(),
                            correction: None,
                        },
                        ..check.clone()
                    };
                    evidence.push_str(&match self.sweep(&corrected, range)? {
                        Sweep::Passed { checked, .. } => {
                            format!(
                                "; the correction `{text}` holds at all {}",
                                plural(checked, "point")
                            )
                        }
                        Sweep::Failed { point, values } => format!(
                            "; the correction `{text}` fails too{}{}",
                            show_point(&point),
                            values.map_or(String::new(), |(x, a)| format!(
                                ": expected {x}, actual {a}"
                            ))
                        ),
                    });
                }
                if let Some(form) = self.proposed_form(check, range) {
                    evidence.push_str(&format!("; the data fit {form}"));
                }
                Finding {
                    verdict: VerdictKind::Fails,
                    range: range_text,
                    evidence,
                }
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
                let mut f = super::builtins::run(&b.name, &mut run).map_err(|e| {
                    Error::invalid(format!(
                        "{}: claim `{}` ({}): {e}",
                        self.path.display(),
                        self.claim.id,
                        self.claim.label
                    ))
                })?;
                if self.claim.open && f.verdict == VerdictKind::Holds {
                    f.verdict = VerdictKind::Open;
                }
                Ok(f)
            }
            Check::Readings(readings) => {
                let mut parts = Vec::new();
                let mut ranges = Vec::new();
                for (name, c) in readings {
                    let f = self.expr_finding(c, deep)?;
                    parts.push(format!(
                        "reading \"{name}\": {} ({})",
                        f.verdict, f.evidence
                    ));
                    if !ranges.contains(&f.range) {
                        ranges.push(f.range);
                    }
                }
                Ok(Finding {
                    verdict: VerdictKind::Ambiguous,
                    range: ranges.join("; "),
                    evidence: parts.join("; "),
                })
            }
        }
    }
}

/// Checks one claim of the registry.
pub fn check_claim(reg: &Registry, claim: &Claim, deep: bool) -> Result<Finding> {
    let mut engines = Engines::new();
    let mut runner = Runner {
        ev: Evaluator::new(&reg.definitions, &mut engines),
        claim,
        path: &reg.path,
    };
    runner.finding(deep)
}

/// Checks the claims of a registry (those whose label or id `only` names, when given), in
/// parallel, returning the verdicts in file order. `done` is called after each claim.
pub fn check_registry(
    reg: &Registry,
    deep: bool,
    only: &[String],
    done: &(dyn Fn() + Sync),
) -> Result<Vec<Verdict>> {
    let chosen: Vec<&Claim> = reg
        .claims
        .iter()
        .filter(|c| only.is_empty() || only.iter().any(|o| o == &c.label || o == &c.id))
        .collect();
    if let Some(missing) = only
        .iter()
        .find(|o| !reg.claims.iter().any(|c| &c.label == *o || &c.id == *o))
    {
        return Err(Error::invalid(format!(
            "no claim in `{}` has the label or id \"{missing}\"",
            reg.paper
        )));
    }
    chosen
        .par_iter()
        .map(|c| {
            let f = check_claim(reg, c, deep);
            done();
            Ok(Verdict {
                paper: reg.paper.clone(),
                id: c.id.clone(),
                label: c.label.clone(),
                statement: c.statement.clone(),
                finding: f?,
            })
        })
        .collect()
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
    let mut engines = Engines::new();
    let mut ev = Evaluator::new(&defs, &mut engines);
    for (values, actual) in rows {
        let mut env: Env = names.iter().cloned().zip(values.iter().cloned()).collect();
        let expected = ev.eval(&e, &mut env)?;
        if &expected != actual {
            let shown: Env = env
                .into_iter()
                .enumerate()
                .filter(|(i, (n, _))| *i == 0 || e.mentions(n))
                .map(|(_, nv)| nv)
                .collect();
            return Ok(Finding {
                verdict: VerdictKind::Fails,
                range: range.to_string(),
                evidence: format!(
                    "fails{}: expected {expected}, actual {actual}",
                    show_point(&shown)
                ),
            });
        }
    }
    Ok(Finding {
        verdict: VerdictKind::Holds,
        range: range.to_string(),
        evidence: format!("true at all {}", plural(rows.len() as u64, "row")),
    })
}
