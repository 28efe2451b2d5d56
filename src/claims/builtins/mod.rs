//! Structural claims that the expression language cannot state ("Windsor's reply is unique",
//! "the period is proven"), each a named check written in Rust against the engines.
//!
//! A builtin receives its `args` (some of them expressions, evaluated at every point of the
//! claim's range) and returns a [`Finding`]; it must never report more than it checked. A
//! failure is a [`Sentence`]: its coordinates, expected and actual values are typed and
//! labelled, and the evidence text is written around them.
//!
//! Arguments come from claim files, so they can be anything: a builtin reads them with the
//! checked readers here ([`BuiltinRun::int_in`], [`int_in_range`], [`heaps_at_most`]), whose
//! errors name the argument, the value and the allowed range, and declares the cost its
//! arguments imply with [`within`] / [`within_memory`] before it starts the work, so that
//! a huge argument is refused at once with the estimate rather than ending in an abort. The
//! checker shows any error of a builtin at the claim's line in the file, with a caret.

use super::eval::{Env, Evaluator};
use super::expr::Expr;
use super::finding::{
    Finding, InstanceProofs, Phrase, Points, RangePart, Reading, Sentence, Style, VerdictKind,
};
use super::registry::Quantifiers;
use super::value::Value;
use crate::error::{Error, Result};

/// One builtin.
pub struct Builtin {
    /// Its name, `paper.what`.
    pub name: &'static str,
    /// What it checks, in one line.
    pub about: &'static str,
    /// The `args` that are expressions in the range's variables.
    pub expr_args: &'static [&'static str],
    /// The check.
    pub run: fn(&mut BuiltinRun<'_, '_>) -> Result<Finding>,
}

/// What a builtin found at one point.
pub enum PointOutcome {
    /// The claim holds here.
    Pass,
    /// The claim does not speak about this point.
    Skip,
    /// The claim fails here: what was expected and found, in a sentence.
    Fail(Sentence),
}

/// What a builtin is given.
pub struct BuiltinRun<'r, 'e> {
    /// The evaluator (and through it the engines).
    pub ev: &'r mut Evaluator<'e>,
    /// The claim's `args` table.
    pub args: &'r toml::Table,
    /// The expression arguments, parsed.
    pub exprs: &'r [(String, Expr)],
    /// The range in force (default or deep).
    pub range: Option<&'r Quantifiers>,
    /// Whether `--deep` is in force.
    pub deep: bool,
}

/// A whole number from an evaluated argument, in `lo..=hi`; the error names `what`, the value
/// (cut to an excerpt) and the range.
pub fn int_in_range(v: &Value, what: &str, lo: i64, hi: i64) -> Result<i64> {
    match v {
        Value::Num(q) if q.is_integer() => {
            q.to_i64().filter(|n| (lo..=hi).contains(n)).ok_or_else(|| {
                Error::invalid(format!("{what} must lie in {lo}..={hi}, got {}", v.short()))
            })
        }
        other => Err(Error::invalid(format!(
            "{what} must be a whole number in {lo}..={hi}, got {}",
            other.short()
        ))),
    }
}

/// Heap sizes from a list value, each at most `max`.
pub fn heaps_at_most(v: &Value, max: u32) -> Result<Vec<u32>> {
    let Value::List(items) = v else {
        return Err(Error::invalid(format!(
            "expected a list of heap sizes, got {}",
            v.short()
        )));
    };
    items
        .iter()
        .map(|x| int_in_range(x, "a heap size", 0, i64::from(max)).map(|h| h as u32))
        .collect()
}

impl BuiltinRun<'_, '_> {
    /// The range as written (with its binders), or `what` when the builtin has no range.
    pub fn range_part(&self, what: &str) -> Vec<RangePart> {
        vec![self.range.map_or_else(
            || RangePart::described(what),
            |q| RangePart {
                text: q.text.clone(),
                binders: q.binders.clone(),
            },
        )]
    }

    /// A string argument.
    pub fn text(&self, key: &str) -> Result<&str> {
        self.args
            .get(key)
            .and_then(|v| v.as_str())
            .ok_or_else(|| Error::invalid(format!("`args.{key}` must be given as a string")))
    }

    /// An integer argument, with a default.
    pub fn int_or(&self, key: &str, default: i64) -> Result<i64> {
        match self.args.get(key) {
            None => Ok(default),
            Some(v) => v
                .as_integer()
                .ok_or_else(|| Error::invalid(format!("`args.{key}` must be an integer"))),
        }
    }

    /// Evaluates the expression arguments at every point of the range (in order) and calls
    /// `check` with their values. The finding is HOLDS with the number of points checked (and
    /// skipped), or FAILS at the first failing point.
    pub fn each_point(
        &mut self,
        mut check: impl FnMut(&mut Evaluator<'_>, &[Value]) -> Result<PointOutcome>,
    ) -> Result<Finding> {
        let binders = self.range.map(|q| q.binders.clone()).unwrap_or_default();
        let exprs = self.exprs;
        let mut checked = 0u64;
        let mut skipped = 0u64;
        let mut failure: Option<Sentence> = None;
        let mut error: Option<Error> = None;
        let mut env: Env = Vec::new();
        let r = self.ev.each_point(&binders, &mut env, &mut |ev, env| {
            let values: std::result::Result<Vec<Value>, _> =
                exprs.iter().map(|(_, e)| ev.eval(e, env)).collect();
            let outcome = match values {
                Ok(v) => check(ev, &v),
                Err(e) => Err(Error::invalid(format!(
                    "at {}: in an `args` expression, {e}",
                    env.iter()
                        .map(|(n, v)| format!("{n} = {}", v.short()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
            };
            match outcome {
                Ok(PointOutcome::Pass) => {
                    checked += 1;
                    Ok(true)
                }
                Ok(PointOutcome::Skip) => {
                    skipped += 1;
                    Ok(true)
                }
                Ok(PointOutcome::Fail(said)) => {
                    // The failing point was checked too, as in an expression's sweep.
                    checked += 1;
                    let mut at = Sentence::new();
                    if !env.is_empty() {
                        at = at.text("at ");
                        for (i, (n, v)) in env.iter().enumerate() {
                            if i > 0 {
                                at = at.text(", ");
                            }
                            at = at.text(format!("{n} = ")).at(*n, v.clone(), Style::Short);
                        }
                        at = at.text(": ");
                    }
                    failure = Some(at.then(said));
                    Ok(false)
                }
                Err(e) => {
                    error = Some(e);
                    Ok(false)
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        r.map_err(|e| Error::invalid(e.to_string()))?;
        let range = self.range_part("single check");
        let points = Points { checked, skipped };
        let mut f = match failure {
            Some(said) => said.finding(VerdictKind::Fails, range),
            None if checked == 0 => finding(
                VerdictKind::Open,
                range,
                "no point of the range was checked: no evidence",
            ),
            None => Sentence::new()
                .piece(Phrase::Count)
                .finding(VerdictKind::Holds, range),
        };
        f.points = Some(points);
        Ok(f)
    }
}

mod candy;
mod cash;
mod octal;
mod scoring;

/// The builtins of every paper.
fn all() -> impl Iterator<Item = &'static Builtin> {
    [
        scoring::BUILTINS,
        octal::BUILTINS,
        candy::BUILTINS,
        cash::BUILTINS,
    ]
    .into_iter()
    .flatten()
}

/// Heap sizes from a list value.
pub(crate) fn heaps_arg(v: &Value) -> Result<Vec<u32>> {
    heaps_at_most(v, u32::MAX)
}

/// A whole number from a value.
pub(crate) fn int_value(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Num(q) if q.is_integer() => q.to_i64().ok_or_else(|| {
            Error::invalid(format!(
                "{what} = {} is too large (at most {})",
                v.short(),
                i64::MAX
            ))
        }),
        other => Err(Error::invalid(format!(
            "{what} must be a whole number, got {}",
            other.short()
        ))),
    }
}

/// The builtin of this name.
pub fn find(name: &str) -> Option<&'static Builtin> {
    all().find(|b| b.name == name)
}

/// (name, description) of every builtin, sorted by name.
pub fn list() -> Vec<(&'static str, &'static str)> {
    let mut v: Vec<_> = all().map(|b| (b.name, b.about)).collect();
    v.sort_unstable();
    v
}

/// Runs a builtin.
pub fn run(name: &str, run: &mut BuiltinRun<'_, '_>) -> Result<Finding> {
    let b = find(name).ok_or_else(|| Error::invalid(format!("unknown builtin `{name}`")))?;
    (b.run)(run)
}

/// A range a builtin describes in words.
pub fn described(text: impl Into<String>) -> Vec<RangePart> {
    vec![RangePart::described(text)]
}

/// A finding worded by free text alone: no counterexample, no value in the text that is not
/// in the claim's arguments.
pub fn finding(verdict: VerdictKind, range: Vec<RangePart>, text: impl Into<String>) -> Finding {
    Sentence::new().text(text).finding(verdict, range)
}

/// A finding that no instance failed, worded "each instance proven (…): <evidence>", with the
/// verdict the instance count gives ([`InstanceProofs::verdict`]).
pub fn instances_finding(
    instances: InstanceProofs,
    evidence: impl Into<String>,
    range: Vec<RangePart>,
) -> Finding {
    let mut f = Sentence::new()
        .piece(Phrase::Instances)
        .text(": ")
        .text(evidence)
        .finding(instances.verdict(), range);
    f.instances = Some(instances);
    f
}

/// A claim read several ways: each reading with its own finding, worded one after the other,
/// the verdict by the readings policy ([`Finding::of_readings`]): a reading marked
/// [`Reading::as_printed`] that fails makes the claim FAILS, the readings that hold being the
/// corrected statements; every reading failing is FAILS too; otherwise AMBIGUOUS unless every
/// reading holds.
pub fn ambiguous(range: Vec<RangePart>, readings: Vec<Reading>) -> Finding {
    Finding::of_readings(range, readings)
}
