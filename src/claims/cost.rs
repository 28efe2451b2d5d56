//! Sizing a claim before it runs: an upper bound on the evaluation steps (expression nodes
//! evaluated) its ranges and expressions will take.
//!
//! Each range is capped at [`MAX_RANGE_POINTS`] points, but
//! ranges multiply: two nested ranges of 10^6 points each are 10^12 points, days of work. So
//! the checker multiplies out the `for` ranges, the ranges of the aggregates inside the
//! expressions (`all(j in 1..n: …)`) and the bodies of the user functions they call, and
//! refuses a claim whose estimate is above [`MAX_STEPS`](super::eval::MAX_STEPS) before it
//! evaluates anything. Bounds that depend on earlier variables (`b in a+1..8`) are sized by
//! interval arithmetic over the earlier variables' ranges, so the estimate is an upper bound;
//! a bound that calls a function (`k in 1..floor(n/2)`) takes the function's own interval
//! ([`Function::bounds`](super::functions::Function::bounds)).
//! A range whose size depends on what the engines return (`b in breakpoints(p)`) cannot be
//! sized here; it counts as one point and the estimate says it is incomplete. The evaluator
//! counts its steps as it goes and stops at the same limit, so such a claim is still bounded.

use num_traits::ToPrimitive;

use super::eval::{Definitions, MAX_RANGE_POINTS};
use super::expr::{BinOp, Binder, Domain, Expr, ExprKind};

/// An estimate of evaluation steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    /// The steps: an upper bound unless `open_ended` (every `if` takes its dearer branch).
    pub steps: f64,
    /// The steps when every `if` takes its cheaper branch: what a claim that prunes a search
    /// with `if` may well take. Claims are refused on this number, so that a pruned search is
    /// not refused for the branches it never takes; the evaluator's own count stops the rest.
    pub least: f64,
    /// Whether some range could not be sized before the run (it was counted as one point).
    pub open_ended: bool,
}

impl Default for Cost {
    fn default() -> Cost {
        Cost::steps(0.0)
    }
}

impl Cost {
    /// `steps` steps, with no choice between branches.
    pub(crate) fn steps(steps: f64) -> Cost {
        Cost {
            steps,
            least: steps,
            open_ended: false,
        }
    }

    pub(crate) fn plus(self, other: Cost) -> Cost {
        Cost {
            steps: self.steps + other.steps,
            least: self.least + other.least,
            open_ended: self.open_ended || other.open_ended,
        }
    }

    fn times(self, n: f64) -> Cost {
        // 0 × ∞ is no work.
        let times = |x: f64| if n == 0.0 { 0.0 } else { x * n };
        Cost {
            steps: times(self.steps),
            least: times(self.least),
            open_ended: self.open_ended,
        }
    }

    /// One of two alternatives (the branches of an `if`).
    fn either(self, other: Cost) -> Cost {
        Cost {
            steps: self.steps.max(other.steps),
            least: self.least.min(other.least),
            open_ended: self.open_ended || other.open_ended,
        }
    }

    /// Both counts scaled by `ratio`.
    pub(crate) fn scaled(self, ratio: f64) -> Cost {
        Cost {
            steps: self.steps * ratio,
            least: self.least * ratio,
            open_ended: self.open_ended,
        }
    }
}

/// The values a number may take: `[lo, hi]`, or `None` when unknown.
pub type Interval = Option<(f64, f64)>;

/// Names in scope with the intervals of their values (innermost last).
pub type Bounds = [(String, Interval)];

/// `[lo, hi]`, or `None` when that is not an interval (a bound is NaN, or `lo > hi`).
pub fn checked(lo: f64, hi: f64) -> Interval {
    (!lo.is_nan() && !hi.is_nan() && lo <= hi).then_some((lo, hi))
}

fn hull(values: &[f64]) -> Interval {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if values.iter().any(|v| v.is_nan()) {
        return None;
    }
    checked(lo, hi)
}

fn union(a: Interval, b: Interval) -> Interval {
    let ((a0, a1), (b0, b1)) = (a?, b?);
    Some((a0.min(b0), a1.max(b1)))
}

/// An interval holding every value `e` takes while the names range over `vars`.
fn bounds(e: &Expr, vars: &mut Vec<(String, Interval)>) -> Interval {
    stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
        bounds_here(e, vars)
    })
}

fn bounds_here(e: &Expr, vars: &mut Vec<(String, Interval)>) -> Interval {
    use ExprKind as K;
    match &e.kind {
        K::Int(n) => {
            let v = n.to_f64()?;
            checked(v, v)
        }
        K::Var(name) => vars.iter().rev().find(|(n, _)| n == name)?.1,
        K::Neg(x) => {
            let (lo, hi) = bounds(x, vars)?;
            checked(-hi, -lo)
        }
        K::Binary(op, a, b) => {
            let (a0, a1) = bounds(a, vars)?;
            let (b0, b1) = bounds(b, vars)?;
            match op {
                BinOp::Add => checked(a0 + b0, a1 + b1),
                BinOp::Sub => checked(a0 - b1, a1 - b0),
                BinOp::Mul => hull(&[a0 * b0, a0 * b1, a1 * b0, a1 * b1]),
                BinOp::Div if b0 > 0.0 || b1 < 0.0 => hull(&[a0 / b0, a0 / b1, a1 / b0, a1 / b1]),
                BinOp::Mod if b0 > 0.0 => checked(0.0, b1),
                BinOp::Pow if b0 == b1 && b0 >= 0.0 && b0.fract() == 0.0 => {
                    let mut candidates = vec![a0.powf(b0), a1.powf(b0)];
                    if a0 < 0.0 && a1 > 0.0 {
                        candidates.push(0.0);
                    }
                    hull(&candidates)
                }
                BinOp::Pow if a0 >= 1.0 && b0 >= 0.0 => checked(a0.powf(b0), a1.powf(b1)),
                _ => None,
            }
        }
        K::If(_, a, b) => union(bounds(a, vars), bounds(b, vars)),
        K::Let(name, v, body) => {
            let iv = bounds(v, vars);
            vars.push((name.clone(), iv));
            let r = bounds(body, vars);
            vars.pop();
            r
        }
        K::Call(name, args) => {
            let mut each = Vec::with_capacity(args.len());
            for a in args {
                each.push(bounds(a, vars)?);
            }
            super::functions::lookup(name)?.bounds(&each)
        }
        K::Aggregate(name, binders, body) => {
            let depth = vars.len();
            let mut count = 1.0;
            for b in binders {
                let (n, iv) = points(b, vars);
                count *= n?;
                vars.push((b.name.clone(), iv));
            }
            let r = match name.as_str() {
                "count" => checked(0.0, count),
                "min" | "max" => bounds(body, vars),
                _ => None,
            };
            vars.truncate(depth);
            r
        }
        _ => None,
    }
}

/// How many points binder `b` has at most, and the interval of its variable; the count is
/// `None` when it cannot be sized before the run.
fn points(b: &Binder, vars: &mut Vec<(String, Interval)>) -> (Option<f64>, Interval) {
    let cap = MAX_RANGE_POINTS as f64;
    match &b.domain {
        Domain::Interval { from, to, step } => {
            let lo = bounds(from, vars);
            let hi = bounds(to, vars);
            let by = match step {
                Some(s) => bounds(s, vars),
                None => Some((1.0, 1.0)),
            };
            let var = match (lo, hi) {
                (Some((lo, _)), Some((_, hi))) => checked(lo, hi),
                _ => None,
            };
            let count = match (lo, hi, by) {
                (Some((lo, _)), Some((_, hi)), Some((step, _))) if step > 0.0 => {
                    // A range has at most MAX_RANGE_POINTS points: a larger one is an error.
                    Some(((hi - lo) / step).floor().max(-1.0).min(cap) + 1.0)
                }
                _ => None,
            };
            (count, var)
        }
        Domain::Members(list) => match &list.kind {
            ExprKind::List(items) => {
                let mut iv: Interval = None;
                for (i, item) in items.iter().enumerate() {
                    let here = bounds(item, vars);
                    iv = if i == 0 { here } else { union(iv, here) };
                }
                (Some(items.len() as f64), iv)
            }
            ExprKind::Aggregate(name, binders, body) if name == "list" => {
                let depth = vars.len();
                let mut count = Some(1.0);
                for b in binders {
                    let (n, iv) = points(b, vars);
                    count = count.zip(n).map(|(c, n)| c * n);
                    vars.push((b.name.clone(), iv));
                }
                let iv = bounds(body, vars);
                vars.truncate(depth);
                (count, iv)
            }
            _ => (None, None),
        },
    }
}

/// The cost of evaluating `body` at every point of `binders` (first binder outermost), with
/// the bounds of the binders' expressions evaluated once per point of the binders before them.
pub fn of_points(
    defs: &Definitions,
    binders: &[Binder],
    outer: &Bounds,
    body: &dyn Fn(&Bounds) -> Cost,
) -> Cost {
    let mut vars: Vec<(String, Interval)> = outer.to_vec();
    let mut total = Cost::default();
    let mut repeats = 1.0;
    for b in binders {
        let domain = match &b.domain {
            Domain::Interval { from, to, step } => [Some(from), Some(to), step.as_ref()]
                .into_iter()
                .flatten()
                .fold(Cost::default(), |c, e| c.plus(of_expr(defs, e, &vars))),
            Domain::Members(list) => of_expr(defs, list, &vars),
        };
        total = total.plus(domain.times(repeats));
        let (count, iv) = points(b, &mut vars);
        match count {
            Some(n) => repeats *= n,
            None => total.open_ended = true,
        }
        vars.push((b.name.clone(), iv));
    }
    total.plus(body(&vars).times(repeats))
}

/// An upper bound on the number of points of `binders` (the product of each one's largest
/// count), or `None` when one cannot be sized.
pub fn upper_points(binders: &[Binder]) -> Option<f64> {
    let mut vars: Vec<(String, Interval)> = Vec::new();
    let mut product = 1.0;
    for b in binders {
        let (count, iv) = points(b, &mut vars);
        product *= count?;
        vars.push((b.name.clone(), iv));
    }
    Some(product)
}

/// The steps one evaluation of `e` takes, with the names of `vars` in scope.
pub fn of_expr(defs: &Definitions, e: &Expr, vars: &Bounds) -> Cost {
    stacker::maybe_grow(super::eval::RED_ZONE, super::eval::STACK_SEGMENT, || {
        of_node(defs, e, vars)
    })
}

fn of_node(defs: &Definitions, e: &Expr, vars: &Bounds) -> Cost {
    use ExprKind as K;
    let one = Cost::steps(1.0);
    let all =
        |es: &mut dyn Iterator<Item = &Expr>| es.fold(one, |c, x| c.plus(of_expr(defs, x, vars)));
    match &e.kind {
        K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => one,
        K::List(items) => all(&mut items.iter()),
        K::Neg(x) | K::Not(x) => all(&mut std::iter::once(&**x)),
        K::Binary(_, a, b) => all(&mut [&**a, &**b].into_iter()),
        K::Compare(first, rest) => {
            all(&mut std::iter::once(&**first).chain(rest.iter().map(|(_, x)| x)))
        }
        K::If(c, a, b) => one
            .plus(of_expr(defs, c, vars))
            .plus(of_expr(defs, a, vars).either(of_expr(defs, b, vars))),
        K::Let(name, v, body) => {
            let mut inner = vars.to_vec();
            inner.push((name.clone(), bounds(v, &mut vars.to_vec())));
            one.plus(of_expr(defs, v, vars))
                .plus(of_expr(defs, body, &inner))
        }
        K::Call(name, args) => {
            let base = all(&mut args.iter());
            let Some(def) = defs.function(name) else {
                return base;
            };
            let alone = defs.call_cost(name);
            if !alone.open_ended {
                return base.plus(alone);
            }
            // The body's ranges depend on the parameters: size them with the arguments' bounds.
            let mut scope = vars.to_vec();
            let given: Vec<Interval> = args.iter().map(|a| bounds(a, &mut scope)).collect();
            base.plus(defs.call_cost_with(name, &given, || {
                let params: Vec<(String, Interval)> = def
                    .params
                    .iter()
                    .cloned()
                    .zip(given.iter().copied())
                    .collect();
                of_expr(defs, &def.body, &params)
            }))
        }
        K::Aggregate(_, binders, body) => one.plus(of_points(defs, binders, vars, &|inner| {
            of_expr(defs, body, inner)
        })),
    }
}

/// An estimate as a message shows it: `12345` or `1.2e12`.
pub fn show(steps: f64) -> String {
    if steps < 1e6 {
        format!("{steps:.0}")
    } else if steps.is_finite() {
        format!("{steps:.1e}")
    } else {
        "more than 10^308".to_string()
    }
}
