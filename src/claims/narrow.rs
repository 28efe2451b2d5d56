//! A check's range narrowed by the bounds its filter puts on each variable, so that points the
//! filter excludes are counted, not visited.
//!
//! Why. Claims about thresholds are written over a box and filtered: `for = "L in 2..12 step 2,
//! n in 0..80, d in 0..n, e in 0..n"` with `where = "d >= 1 and d < g1([1, L], n) and e <
//! g1([1, L], n)"` visits about a million points to check fifty thousand. Every excluded point
//! still binds its variables and evaluates the filter; in the cash claims that was most of the
//! sweep.
//!
//! What. The filter is read as its conjunction `c₁ and c₂ and …` (evaluated left to right,
//! stopping at the first false one). Going through the range variables from the second one
//! inward (the runner sweeps the first one value by value itself), each variable `x` takes the
//! next conjuncts of the form `x ⋈ t` or `t ⋈ x` (⋈ one of `< <= > >=`) whose `t` mentions
//! neither `x` nor a variable inside it; the taken conjuncts are always a prefix c₁ … c_m of the
//! conjunction, taken in order by variables from outer to inner. At each value of the outer
//! variables, `t` is evaluated once (in order, while some value of `x` is still admitted) and
//! the values of `x` outside the bound are not entered: the points below them are counted as
//! skipped, by listing their ranges, and the filter is not evaluated there.
//!
//! Why the sweep is the same. At a point excluded through conjunct c_k, every earlier conjunct
//! is one taken by this or an outer variable and holds there, so the plain sweep would evaluate
//! c₁ … c_{k−1} to true and c_k to false (`t` is the value computed once: a check is a function
//! of its variables) and skip the point without evaluating anything else, and nothing it
//! evaluated could fail. The points below an excluded value are listed exactly as the plain
//! sweep lists them (so a range that fails to evaluate fails at the same point), and the
//! admitted points are swept as before, in the same order, with the whole filter. When a bound
//! `t` fails to evaluate or is not a number, the plain sweep would meet that error at the first
//! admitted point (if any): the variable then keeps the values admitted so far, the inner
//! variables take nothing, and the filter is evaluated at every point below, so the error (or
//! its absence) is the plain sweep's. Counts of checked and skipped points, the first failure
//! and every error are those of the plain sweep; only the number of evaluation steps differs
//! (a bound is evaluated once per value of the outer variables, even where no point below is).

use super::eval::{Env, Evaluator};
use super::expr::{BinOp, Binder, CmpOp, Domain, Expr, ExprError, ExprKind};
use super::value::Value;
use crate::num::Q;

/// A conjunct `x ⋈ bound`, the variable moved to the left.
pub(crate) struct Bound<'e> {
    op: CmpOp,
    bound: &'e Expr,
}

impl Bound<'_> {
    /// Whether the value `x` satisfies `x ⋈ t`.
    fn admits(&self, x: &Q, t: &Q) -> bool {
        match self.op {
            CmpOp::Lt => x < t,
            CmpOp::Le => x <= t,
            CmpOp::Gt => x > t,
            CmpOp::Ge => x >= t,
            CmpOp::Eq | CmpOp::Ne => unreachable!("only orderings are taken as bounds"),
        }
    }
}

/// For each range variable, the bounds of the filter it takes (none for the first).
pub(crate) struct Narrowing<'e> {
    levels: Vec<Vec<Bound<'e>>>,
}

/// The conjuncts of `e` in evaluation order.
fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// `c` as a bound on the variable `inner[0]`, when it is one: `x ⋈ t` or `t ⋈ x` with `t`
/// mentioning no variable of `inner`.
fn bound_on<'e>(c: &'e Expr, inner: &[Binder]) -> Option<Bound<'e>> {
    let ExprKind::Compare(first, rest) = &c.kind else {
        return None;
    };
    let [(op, second)] = rest.as_slice() else {
        return None;
    };
    let name = inner[0].name.as_str();
    let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Var(n) if n == name);
    let outer_only = |e: &Expr| !inner.iter().any(|b| e.mentions(&b.name));
    let (op, bound) = if is_x(first) && outer_only(second) {
        (*op, second)
    } else if is_x(second) && outer_only(first) {
        let flipped = match op {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => *other,
        };
        (flipped, first.as_ref())
    } else {
        return None;
    };
    matches!(op, CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge).then_some(Bound { op, bound })
}

impl<'e> Narrowing<'e> {
    /// The bounds `filter` puts on `binders` (see the module doc).
    pub(crate) fn plan(filter: Option<&'e Expr>, binders: &'e [Binder]) -> Narrowing<'e> {
        let mut levels: Vec<Vec<Bound<'e>>> = binders.iter().map(|_| Vec::new()).collect();
        let mut all = Vec::new();
        if let Some(f) = filter {
            conjuncts(f, &mut all);
        }
        let mut next = all.iter().peekable();
        for (i, b) in binders.iter().enumerate().skip(1) {
            // A list's members need not be numbers, and a name bound again further in is not
            // this variable where the filter reads it.
            let numeric = matches!(b.domain, Domain::Interval { .. });
            if !numeric || binders[i + 1..].iter().any(|c| c.name == b.name) {
                continue;
            }
            while let Some(bound) = next.peek().and_then(|c| bound_on(c, &binders[i..])) {
                levels[i].push(bound);
                next.next();
            }
        }
        Narrowing { levels }
    }

    /// The bounds of the variables after the first.
    pub(crate) fn inner(&self) -> &[Vec<Bound<'e>>] {
        self.levels.get(1..).unwrap_or(&[])
    }
}

impl<'a> Evaluator<'a> {
    /// [`Evaluator::each_point`] with the values of each variable outside its `bounds` not
    /// entered; the points below them are added to `skipped` (see the module doc). `bounds`
    /// is aligned with `binders`.
    pub(crate) fn each_point_narrowed<'e>(
        &mut self,
        binders: &'e [Binder],
        bounds: &[Vec<Bound<'e>>],
        env: &mut Env<'e>,
        skipped: &mut u64,
        f: &mut dyn FnMut(&mut Self, &mut Env<'e>) -> Result<bool, ExprError>,
    ) -> Result<bool, ExprError> {
        let Some((b, rest)) = binders.split_first() else {
            return f(self, env);
        };
        let (own, inner_bounds) = match bounds.split_first() {
            Some((own, inner)) => (own.as_slice(), inner),
            None => (&[][..], &[][..]),
        };
        let points = self.binder_points(b, env)?;
        let mut inner_bounds = inner_bounds;
        // Which points the bounds admit; none to test (the common case) costs nothing.
        let mut admitted = vec![true; if own.is_empty() { 0 } else { points.len() }];
        for bound in own {
            if !admitted.contains(&true) {
                break;
            }
            let t = match self.eval(bound.bound, env) {
                Ok(Value::Num(t)) => t,
                // The plain sweep meets this at the first admitted point: sweep it plainly.
                Ok(_) | Err(_) => {
                    inner_bounds = &[];
                    break;
                }
            };
            for (keep, x) in admitted.iter_mut().zip(&points) {
                let Value::Num(x) = x else {
                    unreachable!("an interval's points are numbers")
                };
                *keep = *keep && bound.admits(x, &t);
            }
        }
        for (i, x) in points.into_iter().enumerate() {
            env.push((b.name.as_str(), x));
            self.bound(b);
            let go_on = if admitted.get(i).copied().unwrap_or(true) {
                self.each_point_narrowed(rest, inner_bounds, env, skipped, f)
            } else {
                self.count_points_exactly(rest, env).map(|n| {
                    *skipped = skipped.saturating_add(n);
                    true
                })
            };
            env.pop();
            if !go_on? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The number of points of `binders` under `env`, their ranges evaluated as
    /// [`Evaluator::each_point`] evaluates them (so with the same errors), the last one's
    /// counted without listing it.
    fn count_points_exactly<'e>(
        &mut self,
        binders: &'e [Binder],
        env: &mut Env<'e>,
    ) -> Result<u64, ExprError> {
        match binders {
            [] => Ok(1),
            [last] => self.binder_len(last, env),
            [b, rest @ ..] => {
                let mut total = 0u64;
                for x in self.binder_points(b, env)? {
                    env.push((b.name.as_str(), x));
                    self.bound(b);
                    let n = self.count_points_exactly(rest, env);
                    env.pop();
                    total = total.saturating_add(n?);
                }
                Ok(total)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::engines::Engines;
    use crate::claims::eval::Definitions;
    use crate::claims::expr::{parse_binders, parse_expr};
    use proptest::prelude::*;

    /// What a sweep saw: points checked and skipped up to where it stopped, and why it stopped
    /// (a failure or an error, with the point), if it did.
    #[derive(Debug, PartialEq)]
    struct Outcome {
        checked: u64,
        skipped: u64,
        stop: Option<String>,
        /// Evaluation steps (narrowed sweeps take fewer).
        steps: u64,
    }

    /// The counts and the stop of a sweep so far.
    #[derive(Default)]
    struct Tally {
        checked: u64,
        skipped: u64,
        stop: Option<String>,
    }

    /// One point, as the claims runner treats it.
    fn visit<'e>(
        ev: &mut Evaluator,
        env: &mut Env<'e>,
        filter: &'e Expr,
        holds: &'e Expr,
        tally: &mut Tally,
    ) -> Result<bool, ExprError> {
        match ev.eval(filter, env) {
            Ok(Value::Bool(true)) => {}
            Ok(Value::Bool(false)) => {
                tally.skipped += 1;
                return Ok(true);
            }
            other => {
                tally.stop = Some(format!("filter: {other:?} at {env:?}"));
                return Ok(false);
            }
        }
        tally.checked += 1;
        match ev.eval(holds, env) {
            Ok(Value::Bool(true)) => Ok(true),
            other => {
                tally.stop = Some(format!("check: {other:?} at {env:?}"));
                Ok(false)
            }
        }
    }

    /// `holds` swept over `range` where `filter` holds, as the claims runner sweeps it,
    /// plainly or narrowed.
    fn sweep(range: &str, filter: &str, holds: &str, narrowed: bool) -> Outcome {
        let binders = parse_binders(range).unwrap();
        let filter = parse_expr(filter).unwrap();
        let holds = parse_expr(holds).unwrap();
        let defs = Definitions::new();
        let mut engines = Engines::new();
        let mut ev = Evaluator::new(&defs, &mut engines);
        let mut tally = Tally::default();
        let mut env = Vec::new();
        let mut excluded = 0u64;
        let plan = Narrowing::plan(Some(&filter), &binders);
        let result = if narrowed {
            ev.each_point_narrowed(
                &binders,
                &plan.levels,
                &mut env,
                &mut excluded,
                &mut |ev, env| visit(ev, env, &filter, &holds, &mut tally),
            )
        } else {
            ev.each_point(&binders, &mut env, &mut |ev, env| {
                visit(ev, env, &filter, &holds, &mut tally)
            })
        };
        if let Err(e) = result {
            tally.stop = Some(format!("range: {e:?}"));
        }
        Outcome {
            checked: tally.checked,
            skipped: tally.skipped + excluded,
            stop: tally.stop,
            steps: ev.steps(),
        }
    }

    /// Plain and narrowed, with the steps each took.
    fn both(range: &str, filter: &str, holds: &str) -> (Outcome, Outcome) {
        let plain = sweep(range, filter, holds, false);
        let narrowed = sweep(range, filter, holds, true);
        (plain, narrowed)
    }

    fn same_but_steps(a: &Outcome, b: &Outcome) -> bool {
        (a.checked, a.skipped, &a.stop) == (b.checked, b.skipped, &b.stop)
    }

    #[test]
    fn the_thresholds_filter_is_narrowed_and_swept_as_before() {
        let range = "L in 2..6 step 2, n in 0..30, d in 0..n, e in 0..n";
        let filter = "d >= 1 and d < n / L and e < n / L + 1";
        let (plain, narrowed) = both(range, filter, "d + e <= 2 * n");
        assert!(
            same_but_steps(&plain, &narrowed),
            "{plain:?} / {narrowed:?}"
        );
        assert!(
            plain.stop.is_none() && plain.skipped > 5 * plain.checked,
            "{plain:?}"
        );
        // Most points are excluded: the narrowed sweep evaluates a fraction of the steps.
        assert!(narrowed.steps * 4 < plain.steps, "{plain:?} / {narrowed:?}");
        let (plain, narrowed) = both(range, filter, "d + e < 20");
        assert!(
            same_but_steps(&plain, &narrowed),
            "{plain:?} / {narrowed:?}"
        );
        assert!(plain.stop.is_some(), "{plain:?}");
        // A bound that fails to evaluate (n = 2) or is not a number: the plain sweep meets the
        // error at its first point there (e = 0), which the inner bound e ≥ 2 would skip.
        for failing in ["d <= 6 / (n - 2) and e >= 2", "d <= [n] and e >= 2"] {
            let (plain, narrowed) = both("n in 0..4, d in 0..3, e in 0..3", failing, "true");
            assert!(
                same_but_steps(&plain, &narrowed),
                "{plain:?} / {narrowed:?}"
            );
            let stop = plain.stop.unwrap_or_default();
            assert!(
                stop.contains("\"e\", Num(Q(Small(0, 1))))"),
                "{failing}: {stop}"
            );
        }
        let plan_levels = |filter: &str| {
            let binders = parse_binders(range).unwrap();
            let filter = parse_expr(filter).unwrap();
            Narrowing::plan(Some(&filter), &binders)
                .levels
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>()
        };
        assert_eq!(plan_levels(filter), [0, 0, 2, 1]);
        // Only a prefix of the conjunction is taken: a conjunct that bounds no variable (or the
        // first, which the runner sweeps itself) stops the taking.
        assert_eq!(plan_levels("L > 2 and d < n"), [0, 0, 0, 0]);
        assert_eq!(plan_levels("d < n and n != 3 and e < 4"), [0, 0, 1, 0]);
        // A bound on d that mentions e is no bound for d; both bound e.
        assert_eq!(plan_levels("d < e and e < d"), [0, 0, 0, 2]);
        assert_eq!(plan_levels("e < d and 2 * n > d"), [0, 0, 0, 1]);
    }

    /// Conjuncts for the random filters: bounds, bounds that fail to evaluate or are not
    /// numbers, and conjuncts that are no bounds.
    const CONJUNCTS: &[&str] = &[
        "d >= {c}",
        "d < n - {c}",
        "{c} < d",
        "d <= 6 / (n - {c})",
        "e > d + {c} - 3",
        "e <= {c}",
        "n >= {c}",
        "L != {c}",
        "e < [{c}]",
        "d < L + {c}",
        "e >= n - {c}",
        "n / (d - {c}) < 5",
    ];

    /// Ranges whose inner ranges depend on outer variables, one of them failing for some n,
    /// and one a list.
    const RANGES: &[&str] = &[
        "L in 0..2, n in 0..5, d in 0..n, e in d..6",
        "L in 0..2, n in 0..4, d in 0..n, e in 0..4 step 3 - n",
        "L in [1, 2], n in 0..5, d in 0..n, e in [0, 2, 4]",
        "n in 0..6, d in n..8",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Narrowed sweeps check and skip the same points, and stop at the same failure or
        /// error, as plain sweeps.
        #[test]
        fn narrowed_sweeps_are_plain_sweeps(
            range in 0..RANGES.len(),
            picks in proptest::collection::vec((0..CONJUNCTS.len(), 0i64..5), 1..5),
            limit in 2i64..14,
        ) {
            let filter = picks
                .iter()
                .map(|&(i, c)| CONJUNCTS[i].replace("{c}", &c.to_string()))
                .collect::<Vec<_>>()
                .join(" and ");
            let holds = format!("d + n < {limit}");
            let (plain, narrowed) = both(RANGES[range], &filter, &holds);
            prop_assert!(
                same_but_steps(&plain, &narrowed),
                "{filter}: {plain:?} / {narrowed:?}"
            );
        }
    }
}
