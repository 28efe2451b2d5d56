//! Checking and evaluating claim expressions.
//!
//! Before anything runs, `Definitions::check` resolves every name, counts every call's
//! arguments and infers the kind (number, truth value, string, list) of every node, so a claim
//! file with a typo fails at once with the column of the typo rather than after an hour of
//! computation. Evaluation is exact throughout: numbers are rationals over big integers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::cost::{self, Cost};
use super::engines::{Engines, winner_name};
use super::expr::{BinOp, Binder, CmpOp, Domain, Expr, ExprError, ExprKind, FunctionDef, Span};
use super::value::{MAX_LIST_LEN, Ty, Value, add, div, modulo, mul, pow, short_q, to_int_in};
use crate::games::candy::Candies;
use crate::games::cash::CashSet;
use crate::num::Q;
use crate::progress::Progress;

/// The most points one range may have.
pub const MAX_RANGE_POINTS: u64 = 2_000_000;

/// The most evaluation steps (expression nodes evaluated) one claim may take. Ranges multiply:
/// `for = "a in 1..10^6, b in 1..10^6"` is 10^12 points, each a few steps, so claims are
/// estimated before they run ([`super::cost`]) and counted while they run.
pub const MAX_STEPS: u64 = 10_000_000_000;

/// Steps between two progress reports.
const PROGRESS_EVERY: u64 = 1 << 10;

/// Stack left before a recursion step grows the stack (see `stacker`).
pub(crate) const RED_ZONE: usize = 128 * 1024;
/// Size of each stack segment grown.
pub(crate) const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// How a built-in function takes its arguments.
#[derive(Clone, Copy)]
enum Params {
    /// Exactly these kinds.
    Fixed(&'static [Ty]),
    /// Any number of numbers, or one list of numbers.
    NumsOrList,
}

/// Built-in functions: name, parameters, result.
const FUNCTIONS: &[(&str, Params, Ty)] = {
    use Params::{Fixed, NumsOrList};
    use Ty::{Any, Bool, List, Num, Str};
    &[
        ("floor", Fixed(&[Num]), Num),
        ("ceil", Fixed(&[Num]), Num),
        ("abs", Fixed(&[Num]), Num),
        ("ilog2", Fixed(&[Num]), Num),
        ("is_int", Fixed(&[Num]), Bool),
        ("mod", Fixed(&[Num, Num]), Num),
        ("gcd", Fixed(&[Num, Num]), Num),
        ("min", NumsOrList, Num),
        ("max", NumsOrList, Num),
        ("xor", NumsOrList, Num),
        ("len", Fixed(&[List]), Num),
        ("sort", Fixed(&[List]), List),
        ("concat", Fixed(&[List]), List),
        ("sum", Fixed(&[List]), Num),
        ("payoff", Fixed(&[Num, List]), Num),
        ("cplus", Fixed(&[List]), Num),
        ("cminus", Fixed(&[List]), Num),
        ("breakpoints", Fixed(&[List]), List),
        ("in_pplus", Fixed(&[List]), Bool),
        ("in_pminus", Fixed(&[List]), Bool),
        ("gs", Fixed(&[Str, Any]), Num),
        ("gs_mixed", Fixed(&[Str, Num, Str, Num]), Num),
        ("candy_v", Fixed(&[List]), Num),
        ("candy_nl", Fixed(&[List]), Num),
        ("candy_nw", Fixed(&[List]), Num),
        ("frak", Fixed(&[Num, Num, Num]), List),
        ("flipflop_v", Fixed(&[List]), Num),
        ("fractal_v", Fixed(&[List]), Num),
        ("fractal_small_v", Fixed(&[List]), Num),
        ("alloc_min_nw", Fixed(&[Num]), Num),
        ("alloc_max_nw", Fixed(&[Num]), Num),
        ("alloc_argmin", Fixed(&[Num]), List),
        ("alloc_argmax", Fixed(&[Num]), List),
        ("winner", Fixed(&[List, Num]), Str),
        ("cash_winner", Fixed(&[List, Num, Num, Num]), Str),
        ("f1", Fixed(&[List, Num]), Num),
        ("f2", Fixed(&[List, Num]), Num),
        ("g1", Fixed(&[List, Num]), Num),
        ("g2", Fixed(&[List, Num]), Num),
        ("least_f1", Fixed(&[List, Num]), Num),
        ("least_f2", Fixed(&[List, Num]), Num),
    ]
};

/// Aggregates over ranges: name, kind of the body, result.
const AGGREGATES: &[(&str, Ty, Ty)] = &[
    ("sum", Ty::Num, Ty::Num),
    ("min", Ty::Num, Ty::Num),
    ("max", Ty::Num, Ty::Num),
    ("all", Ty::Bool, Ty::Bool),
    ("any", Ty::Bool, Ty::Bool),
    ("count", Ty::Bool, Ty::Num),
    ("list", Ty::Any, Ty::List),
];

/// The names of the built-in functions, for `--help`-style listings.
pub fn function_names() -> impl Iterator<Item = &'static str> {
    FUNCTIONS.iter().map(|f| f.0)
}

/// A scope during checking: names with their kinds.
type Scope = Vec<(String, Ty)>;

/// A scope during evaluation: names with their values (innermost last).
pub type Env = Vec<(String, Value)>;

/// The kind a user function returns for given kinds of arguments, or the error its body has
/// then; remembered so that functions calling functions are checked in linear time (a body is
/// checked once per distinct combination of argument kinds, not once per call).
type CallKinds = HashMap<(String, Vec<Ty>), Result<Ty, ExprError>>;

/// Costs of calls by function and the bounds of their arguments (as `f64` bit patterns).
type CallCosts = HashMap<(String, Vec<Option<(u64, u64)>>), Cost>;

/// The user functions of one claim file, checked in order (each may call earlier ones only, so
/// evaluation always terminates).
#[derive(Debug, Default)]
pub struct Definitions {
    functions: HashMap<String, (FunctionDef, Ty)>,
    /// Each function's estimated cost of one call (see [`super::cost`]).
    costs: HashMap<String, Cost>,
    call_kinds: Mutex<CallKinds>,
    /// Costs of calls whose bodies' ranges depend on the arguments, by the arguments' bounds.
    call_costs: Mutex<CallCosts>,
}

impl Clone for Definitions {
    fn clone(&self) -> Definitions {
        Definitions {
            functions: self.functions.clone(),
            costs: self.costs.clone(),
            call_kinds: Mutex::default(),
            call_costs: Mutex::default(),
        }
    }
}

impl Definitions {
    /// No user functions.
    pub fn new() -> Definitions {
        Definitions::default()
    }

    /// Adds a function after checking its body against the functions defined so far.
    pub fn define(&mut self, def: FunctionDef) -> Result<(), ExprError> {
        if FUNCTIONS.iter().any(|f| f.0 == def.name) || self.functions.contains_key(&def.name) {
            return Err(ExprError::new(
                def.span,
                format!("`{}` is already defined", def.name),
            ));
        }
        let mut scope: Scope = def.params.iter().map(|p| (p.clone(), Ty::Any)).collect();
        let ty = self.check(&def.body, &mut scope)?;
        let cost = cost::of_expr(self, &def.body, &[]);
        self.costs.insert(def.name.clone(), cost);
        self.functions.insert(def.name.clone(), (def, ty));
        Ok(())
    }

    /// The user function of this name.
    pub(crate) fn function(&self, name: &str) -> Option<&FunctionDef> {
        self.functions.get(name).map(|(def, _)| def)
    }

    /// The estimated cost of one call of the user function `name` (zero for a builtin).
    pub(crate) fn call_cost(&self, name: &str) -> Cost {
        self.costs.get(name).copied().unwrap_or_default()
    }

    /// The cost of a call of `name` with arguments in `args` (intervals), computed by `cost`
    /// once per distinct `args`.
    pub(crate) fn call_cost_with(
        &self,
        name: &str,
        args: &[Option<(f64, f64)>],
        cost: impl FnOnce() -> Cost,
    ) -> Cost {
        let key = (
            name.to_string(),
            args.iter()
                .map(|a| a.map(|(lo, hi)| (lo.to_bits(), hi.to_bits())))
                .collect(),
        );
        if let Some(c) = self
            .call_costs
            .lock()
            .ok()
            .and_then(|m| m.get(&key).copied())
        {
            return c;
        }
        let c = cost();
        if let Ok(mut m) = self.call_costs.lock() {
            m.insert(key, c);
        }
        c
    }

    /// Checks that every name in `e` is bound or defined, every call has the right number and
    /// kinds of arguments, and returns the kind of `e`. `bound` are the quantified variables.
    pub fn check_with(&self, e: &Expr, bound: &[String]) -> Result<Ty, ExprError> {
        let mut scope: Scope = bound.iter().map(|b| (b.clone(), Ty::Num)).collect();
        self.check(e, &mut scope)
    }

    /// As [`Definitions::check_with`], for names whose kind is only known at evaluation (the
    /// columns of a data file).
    pub fn check_with_untyped(&self, e: &Expr, bound: &[String]) -> Result<Ty, ExprError> {
        let mut scope: Scope = bound.iter().map(|b| (b.clone(), Ty::Any)).collect();
        self.check(e, &mut scope)
    }

    /// Checks a quantifier list; returns the names it binds.
    pub fn check_binders(
        &self,
        binders: &[Binder],
        outer: &[String],
    ) -> Result<Vec<String>, ExprError> {
        let mut scope: Scope = outer.iter().map(|b| (b.clone(), Ty::Num)).collect();
        let mut names = Vec::new();
        for b in binders {
            self.check_binder(b, &mut scope)?;
            names.push(b.name.clone());
        }
        Ok(names)
    }

    fn check_binder(&self, b: &Binder, scope: &mut Scope) -> Result<(), ExprError> {
        if scope.iter().any(|(n, _)| n == &b.name) {
            return Err(ExprError::new(
                b.span,
                format!("`{}` is already bound here", b.name),
            ));
        }
        let ty = match &b.domain {
            Domain::Interval { from, to, step } => {
                for part in [Some(from), Some(to), step.as_ref()].into_iter().flatten() {
                    self.expect(part, scope, Ty::Num)?;
                }
                Ty::Num
            }
            Domain::Members(list) => {
                self.expect(list, scope, Ty::List)?;
                Ty::Any
            }
        };
        scope.push((b.name.clone(), ty));
        Ok(())
    }

    fn expect(&self, e: &Expr, scope: &mut Scope, want: Ty) -> Result<(), ExprError> {
        let ty = self.check(e, scope)?;
        if ty.fits(want) {
            Ok(())
        } else {
            Err(ExprError::new(
                e.span,
                format!("expected {} here, found {}", want.name(), ty.name()),
            ))
        }
    }

    fn check(&self, e: &Expr, scope: &mut Scope) -> Result<Ty, ExprError> {
        // Deeply nested input grows the stack on the heap instead of overflowing it.
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.check_node(e, scope))
    }

    fn check_node(&self, e: &Expr, scope: &mut Scope) -> Result<Ty, ExprError> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Int(_) => Ty::Num,
            K::Bool(_) => Ty::Bool,
            K::Str(_) => Ty::Str,
            K::List(items) => {
                for i in items {
                    self.check(i, scope)?;
                }
                Ty::List
            }
            K::Var(name) => match scope.iter().rev().find(|(n, _)| n == name) {
                Some((_, ty)) => *ty,
                None => {
                    return Err(ExprError::new(
                        e.span,
                        format!(
                            "unknown name `{name}`: bind it with a range (`{name} in 1..10`) \
                             or `let`"
                        ),
                    ));
                }
            },
            K::Neg(x) => {
                self.expect(x, scope, Ty::Num)?;
                Ty::Num
            }
            K::Not(x) => {
                self.expect(x, scope, Ty::Bool)?;
                Ty::Bool
            }
            K::Binary(op, a, b) => match op {
                BinOp::And | BinOp::Or => {
                    self.expect(a, scope, Ty::Bool)?;
                    self.expect(b, scope, Ty::Bool)?;
                    Ty::Bool
                }
                BinOp::Add => {
                    // Numbers add, lists concatenate; each operand is checked once.
                    let (ta, tb) = (self.check(a, scope)?, self.check(b, scope)?);
                    let want = if ta == Ty::List || tb == Ty::List {
                        Ty::List
                    } else {
                        Ty::Num
                    };
                    for (t, x) in [(ta, a), (tb, b)] {
                        if !t.fits(want) {
                            return Err(ExprError::new(
                                x.span,
                                format!("expected {} here, found {}", want.name(), t.name()),
                            ));
                        }
                    }
                    if ta == Ty::Any && tb == Ty::Any {
                        Ty::Any
                    } else {
                        want
                    }
                }
                _ => {
                    self.expect(a, scope, Ty::Num)?;
                    self.expect(b, scope, Ty::Num)?;
                    Ty::Num
                }
            },
            K::Compare(first, rest) => {
                let mut prev = self.check(first, scope)?;
                let mut prev_span = first.span;
                for (op, x) in rest {
                    let ty = self.check(x, scope)?;
                    let ordered = !matches!(op, CmpOp::Eq | CmpOp::Ne);
                    if ordered {
                        for (t, s) in [(prev, prev_span), (ty, x.span)] {
                            if !t.fits(Ty::Num) {
                                return Err(ExprError::new(
                                    s,
                                    format!("only numbers can be ordered; this is {}", t.name()),
                                ));
                            }
                        }
                    } else if !ty.fits(prev) {
                        return Err(ExprError::new(
                            x.span,
                            format!(
                                "compares {} with {}; they are never equal",
                                prev.name(),
                                ty.name()
                            ),
                        ));
                    }
                    prev = ty;
                    prev_span = x.span;
                }
                Ty::Bool
            }
            K::If(c, a, b) => {
                self.expect(c, scope, Ty::Bool)?;
                let (ta, tb) = (self.check(a, scope)?, self.check(b, scope)?);
                if !ta.fits(tb) {
                    return Err(ExprError::new(
                        b.span,
                        format!(
                            "the branches differ: `then` gives {}, `else` gives {}",
                            ta.name(),
                            tb.name()
                        ),
                    ));
                }
                if ta == Ty::Any { tb } else { ta }
            }
            K::Let(name, v, body) => {
                let ty = self.check(v, scope)?;
                scope.push((name.clone(), ty));
                let r = self.check(body, scope);
                scope.pop();
                r?
            }
            K::Call(name, args) => self.check_call(e.span, name, args, scope)?,
            K::Aggregate(name, binders, body) => {
                let Some(&(_, body_ty, result)) = AGGREGATES.iter().find(|a| a.0 == name) else {
                    return Err(ExprError::new(
                        e.span,
                        format!(
                            "`{name}` cannot range over values; the aggregates are sum, min, \
                             max, all, any, count and list"
                        ),
                    ));
                };
                let depth = scope.len();
                let mut r = Ok(());
                for b in binders {
                    r = self.check_binder(b, scope);
                    if r.is_err() {
                        break;
                    }
                }
                let r = r.and_then(|()| self.expect(body, scope, body_ty));
                scope.truncate(depth);
                r?;
                result
            }
        })
    }

    fn check_call(
        &self,
        span: Span,
        name: &str,
        args: &[Expr],
        scope: &mut Scope,
    ) -> Result<Ty, ExprError> {
        let name_span = Span {
            start: span.start,
            end: span.start + name.len(),
        };
        if let Some((def, _)) = self.functions.get(name) {
            if args.len() != def.params.len() {
                return Err(ExprError::new(
                    name_span,
                    format!(
                        "`{name}` takes {} argument(s), {} given",
                        def.params.len(),
                        args.len()
                    ),
                ));
            }
            // The body is checked again with the kinds of these arguments, so a kind error
            // inside a user function is found at the call that causes it.
            let mut inner: Scope = Vec::with_capacity(args.len());
            for (p, a) in def.params.iter().zip(args) {
                inner.push((p.clone(), self.check(a, scope)?));
            }
            let key = (name.to_string(), inner.iter().map(|(_, t)| *t).collect());
            let known = self
                .call_kinds
                .lock()
                .ok()
                .and_then(|m| m.get(&key).cloned());
            let result = match known {
                Some(r) => r,
                None => {
                    let r = self.check(&def.body, &mut inner);
                    if let Ok(mut m) = self.call_kinds.lock() {
                        m.insert(key, r.clone());
                    }
                    r
                }
            };
            return result.map_err(|e| {
                ExprError::new(name_span, format!("in `{name}` called here: {}", e.message))
            });
        }
        let Some(&(_, params, result)) = FUNCTIONS.iter().find(|f| f.0 == name) else {
            return Err(ExprError::new(
                name_span,
                format!("unknown function `{name}`"),
            ));
        };
        match params {
            Params::Fixed(kinds) => {
                if args.len() != kinds.len() {
                    return Err(ExprError::new(
                        name_span,
                        format!(
                            "`{name}` takes {} argument(s), {} given",
                            kinds.len(),
                            args.len()
                        ),
                    ));
                }
                for (a, &k) in args.iter().zip(kinds) {
                    self.expect(a, scope, k)?;
                }
            }
            Params::NumsOrList => match args {
                [] => {
                    return Err(ExprError::new(
                        name_span,
                        format!("`{name}` needs at least one argument"),
                    ));
                }
                [one] => {
                    let ty = self.check(one, scope)?;
                    if !(ty.fits(Ty::List) || ty.fits(Ty::Num)) {
                        return Err(ExprError::new(
                            one.span,
                            format!("expected numbers or a list, found {}", ty.name()),
                        ));
                    }
                }
                _ => {
                    for a in args {
                        self.expect(a, scope, Ty::Num)?;
                    }
                }
            },
        }
        Ok(result)
    }
}

/// Evaluates checked expressions against the engines.
pub struct Evaluator<'a> {
    defs: &'a Definitions,
    engines: &'a mut Engines,
    /// Steps taken (expression nodes evaluated).
    steps: u64,
    /// Steps allowed.
    step_limit: u64,
    /// Steps not yet reported.
    unreported: u64,
    progress: Option<&'a dyn Progress>,
}

fn num(v: &Value, span: Span) -> Result<&Q, ExprError> {
    match v {
        Value::Num(q) => Ok(q),
        other => Err(ExprError::new(
            span,
            format!("expected a number, found {}", other.short()),
        )),
    }
}

fn boolean(v: &Value, span: Span) -> Result<bool, ExprError> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(ExprError::new(
            span,
            format!("expected a truth value, found {}", other.short()),
        )),
    }
}

fn list(v: &Value, span: Span) -> Result<&[Value], ExprError> {
    match v {
        Value::List(items) => Ok(items),
        other => Err(ExprError::new(
            span,
            format!("expected a list, found {}", other.short()),
        )),
    }
}

fn string(v: &Value, span: Span) -> Result<&str, ExprError> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(ExprError::new(
            span,
            format!("expected a string, found {}", other.short()),
        )),
    }
}

/// A list of at most [`MAX_LIST_LEN`] elements.
fn capped_list(items: Vec<Value>, span: Span) -> Result<Value, ExprError> {
    if items.len() > MAX_LIST_LEN {
        return Err(list_too_long(items.len(), span));
    }
    Ok(Value::List(items.into()))
}

fn list_too_long(len: usize, span: Span) -> ExprError {
    ExprError::new(
        span,
        format!("this list would have {len} elements; at most {MAX_LIST_LEN} are allowed"),
    )
}

/// A list of non-negative integers below `2^bits`, as `what` needs them.
fn naturals(v: &Value, span: Span, what: &str, max: u64) -> Result<Vec<u64>, ExprError> {
    list(v, span)?
        .iter()
        .map(|x| {
            let q = num(x, span)?;
            to_int_in(q, what, 0, i128::from(max))
                .map(|n| n as u64)
                .map_err(|m| ExprError::new(span, m))
        })
        .collect()
}

fn natural(v: &Value, span: Span, what: &str, max: u64) -> Result<u64, ExprError> {
    to_int_in(num(v, span)?, what, 0, i128::from(max))
        .map(|n| n as u64)
        .map_err(|m| ExprError::new(span, m))
}

/// The values of a range `from..to step step`, inclusive, with at most [`MAX_RANGE_POINTS`].
pub fn range_points(
    from: &Q,
    to: &Q,
    step: &Q,
    span: Span,
    step_span: Span,
) -> Result<Vec<Q>, ExprError> {
    let count = range_count(from, to, step, span, step_span)?;
    let mut out = Vec::with_capacity(count as usize);
    let mut x = from.clone();
    for _ in 0..count {
        out.push(x.clone());
        x = &x + step;
    }
    Ok(out)
}

/// The number of points of a range `from..to step step`, or an error when the step is not
/// positive or there are more than [`MAX_RANGE_POINTS`].
pub fn range_count(
    from: &Q,
    to: &Q,
    step: &Q,
    span: Span,
    step_span: Span,
) -> Result<u64, ExprError> {
    if step.signum() <= 0 {
        return Err(ExprError::new(
            step_span,
            format!("the step must be positive, got {}", short_q(step)),
        ));
    }
    if to < from {
        return Ok(0);
    }
    let count = div(
        &add(to, from, true).map_err(|m| ExprError::new(span, m))?,
        step,
    )
    .map_err(|m| ExprError::new(span, m))?
    .floor()
        + BigInt::from(1);
    if count > BigInt::from(MAX_RANGE_POINTS) {
        return Err(ExprError::new(
            span,
            format!(
                "the range {}..{} step {} has {} points; at most {MAX_RANGE_POINTS} are allowed",
                short_q(from),
                short_q(to),
                short_q(step),
                short_q(&Q::from_bigint(count))
            ),
        ));
    }
    Ok(count.to_u64().expect("bounded above"))
}

impl<'a> Evaluator<'a> {
    /// An evaluator for one claim file's definitions.
    pub fn new(defs: &'a Definitions, engines: &'a mut Engines) -> Evaluator<'a> {
        Evaluator {
            defs,
            engines,
            steps: 0,
            step_limit: MAX_STEPS,
            unreported: 0,
            progress: None,
        }
    }

    /// Reports progress (in evaluation steps) to `progress` as the evaluation goes.
    pub fn with_progress(mut self, progress: &'a dyn Progress) -> Evaluator<'a> {
        self.progress = Some(progress);
        self
    }

    /// Stops evaluation after `limit` steps (instead of [`MAX_STEPS`]).
    pub fn with_step_limit(mut self, limit: u64) -> Evaluator<'a> {
        self.step_limit = limit;
        self
    }

    /// The steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Reports the steps not yet reported.
    pub fn flush_progress(&mut self) {
        if let Some(p) = self.progress {
            p.advance(self.unreported);
        }
        self.unreported = 0;
    }

    /// The engines, for builtins that need more than the expression calls.
    pub fn engines(&mut self) -> &mut Engines {
        self.engines
    }

    /// Checks the bounds of an interval binder under `env` (a positive step, not too many
    /// points) without listing its points; a list binder is not checked.
    pub fn check_binder_size(&mut self, b: &Binder, env: &mut Env) -> Result<(), ExprError> {
        let Domain::Interval { from, to, step } = &b.domain else {
            return Ok(());
        };
        let (lo, hi, by, step_span) = self.interval_bounds(b, from, to, step, env)?;
        range_count(&lo, &hi, &by, b.span, step_span).map(|_| ())
    }

    /// The evaluated bounds of an interval binder — first, last, step (1 when omitted) — and
    /// the span that errors about the step point at.
    fn interval_bounds(
        &mut self,
        b: &Binder,
        from: &Expr,
        to: &Expr,
        step: &Option<Expr>,
        env: &mut Env,
    ) -> Result<(Q, Q, Q, Span), ExprError> {
        let lo = self.eval(from, env)?;
        let hi = self.eval(to, env)?;
        let by = match step {
            Some(s) => self.eval(s, env)?,
            None => Value::int(1),
        };
        let step_span = step.as_ref().map_or(b.span, |s| s.span);
        Ok((
            num(&lo, from.span)?.clone(),
            num(&hi, to.span)?.clone(),
            num(&by, step_span)?.clone(),
            step_span,
        ))
    }

    /// The number of points of `binders` under `env`, found by listing the points of all but
    /// the last binder and counting the last one's; `None` when that would list more than
    /// `budget` points or a bound calls a function (whose cost is unknown).
    pub fn count_points(
        &mut self,
        binders: &[Binder],
        env: &mut Env,
        budget: &mut u64,
    ) -> Result<Option<u64>, ExprError> {
        let call_free = |b: &Binder| match &b.domain {
            Domain::Interval { from, to, step } => [Some(from), Some(to), step.as_ref()]
                .into_iter()
                .flatten()
                .all(|e| !e.calls_anything()),
            Domain::Members(list) => !list.calls_anything(),
        };
        let Some((b, rest)) = binders.split_first() else {
            return Ok(Some(1));
        };
        if !call_free(b) {
            return Ok(None);
        }
        if let (true, Domain::Interval { from, to, step }) = (rest.is_empty(), &b.domain) {
            let (lo, hi, by, step_span) = self.interval_bounds(b, from, to, step, env)?;
            return range_count(&lo, &hi, &by, b.span, step_span).map(Some);
        }
        let mut total = 0u64;
        for x in self.binder_points(b, env)? {
            if *budget == 0 {
                return Ok(None);
            }
            *budget -= 1;
            env.push((b.name.clone(), x));
            let n = self.count_points(rest, env, budget);
            env.pop();
            match n? {
                Some(n) => total = total.saturating_add(n),
                None => return Ok(None),
            }
        }
        Ok(Some(total))
    }

    /// The points of one binder under `env`.
    pub fn binder_points(&mut self, b: &Binder, env: &mut Env) -> Result<Vec<Value>, ExprError> {
        let (from, to, step) = match &b.domain {
            Domain::Members(list_expr) => {
                let v = self.eval(list_expr, env)?;
                return Ok(list(&v, list_expr.span)?.to_vec());
            }
            Domain::Interval { from, to, step } => (from, to, step),
        };
        let (lo, hi, by, step_span) = self.interval_bounds(b, from, to, step, env)?;
        let points = range_points(&lo, &hi, &by, b.span, step_span)?;
        Ok(points.into_iter().map(Value::Num).collect())
    }

    /// Calls `f` at every point of `binders` in lexicographic order (first binder outermost),
    /// stopping early when `f` returns false. Returns whether it ran to the end.
    pub fn each_point(
        &mut self,
        binders: &[Binder],
        env: &mut Env,
        f: &mut dyn FnMut(&mut Self, &mut Env) -> Result<bool, ExprError>,
    ) -> Result<bool, ExprError> {
        let Some((b, rest)) = binders.split_first() else {
            return f(self, env);
        };
        for x in self.binder_points(b, env)? {
            env.push((b.name.clone(), x));
            let go_on = self.each_point(rest, env, f);
            env.pop();
            if !go_on? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The value of `e` in `env`.
    pub fn eval(&mut self, e: &Expr, env: &mut Env) -> Result<Value, ExprError> {
        self.steps += 1;
        self.unreported += 1;
        if self.steps > self.step_limit {
            return Err(ExprError::new(
                e.span,
                format!(
                    "evaluation stopped after {} steps, the limit for one claim (see \
                     data/claims/README.md; some of its ranges or branches could only be sized \
                     while it ran): narrow its ranges",
                    self.step_limit
                ),
            ));
        }
        if self.unreported >= PROGRESS_EVERY {
            self.flush_progress();
        }
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.eval_node(e, env))
    }

    fn eval_node(&mut self, e: &Expr, env: &mut Env) -> Result<Value, ExprError> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Int(n) => Value::int(n.clone()),
            K::Bool(b) => Value::Bool(*b),
            K::Str(s) => Value::Str(Arc::from(s.as_str())),
            K::List(items) => Value::List(
                items
                    .iter()
                    .map(|i| self.eval(i, env))
                    .collect::<Result<Vec<_>, _>>()?
                    .into(),
            ),
            K::Var(name) => env
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| ExprError::new(e.span, format!("unknown name `{name}`")))?,
            K::Neg(x) => Value::Num(-num(&self.eval(x, env)?, x.span)?.clone()),
            K::Not(x) => Value::Bool(!boolean(&self.eval(x, env)?, x.span)?),
            K::Binary(BinOp::And, a, b) => Value::Bool(
                boolean(&self.eval(a, env)?, a.span)? && boolean(&self.eval(b, env)?, b.span)?,
            ),
            K::Binary(BinOp::Or, a, b) => Value::Bool(
                boolean(&self.eval(a, env)?, a.span)? || boolean(&self.eval(b, env)?, b.span)?,
            ),
            K::Binary(op, a, b) => {
                let (va, vb) = (self.eval(a, env)?, self.eval(b, env)?);
                if let (BinOp::Add, Value::List(x), Value::List(y)) = (op, &va, &vb) {
                    let len = x.len().saturating_add(y.len());
                    if len > MAX_LIST_LEN {
                        return Err(list_too_long(len, e.span));
                    }
                    return Ok(Value::List(x.iter().chain(y.iter()).cloned().collect()));
                }
                let (x, y) = (num(&va, a.span)?, num(&vb, b.span)?);
                let err = |m: String| ExprError::new(e.span, m);
                Value::Num(match op {
                    BinOp::Add => add(x, y, false).map_err(err)?,
                    BinOp::Sub => add(x, y, true).map_err(err)?,
                    BinOp::Mul => mul(x, y).map_err(err)?,
                    BinOp::Div => div(x, y).map_err(|m| {
                        ExprError::new(if y.is_zero() { b.span } else { e.span }, m)
                    })?,
                    BinOp::Mod => modulo(x, y).map_err(err)?,
                    BinOp::Pow => pow(x, y).map_err(err)?,
                    BinOp::Xor => Q::from_bigint(xor_of(&[x.clone(), y.clone()]).map_err(err)?),
                    BinOp::And | BinOp::Or => unreachable!("handled above"),
                })
            }
            K::Compare(first, rest) => {
                let mut prev = self.eval(first, env)?;
                let mut prev_span = first.span;
                for (op, x) in rest {
                    let v = self.eval(x, env)?;
                    let holds = match op {
                        CmpOp::Eq => prev == v,
                        CmpOp::Ne => prev != v,
                        _ => {
                            let (p, q) = (num(&prev, prev_span)?, num(&v, x.span)?);
                            match op {
                                CmpOp::Lt => p < q,
                                CmpOp::Le => p <= q,
                                CmpOp::Gt => p > q,
                                _ => p >= q,
                            }
                        }
                    };
                    if !holds {
                        return Ok(Value::Bool(false));
                    }
                    prev = v;
                    prev_span = x.span;
                }
                Value::Bool(true)
            }
            K::If(c, a, b) => {
                if boolean(&self.eval(c, env)?, c.span)? {
                    self.eval(a, env)?
                } else {
                    self.eval(b, env)?
                }
            }
            K::Let(name, v, body) => {
                let v = self.eval(v, env)?;
                env.push((name.clone(), v));
                let r = self.eval(body, env);
                env.pop();
                r?
            }
            K::Call(name, args) => {
                let values = args
                    .iter()
                    .map(|a| self.eval(a, env))
                    .collect::<Result<Vec<_>, _>>()?;
                if let Some((def, _)) = self.defs.functions.get(name) {
                    let mut inner: Env = def.params.iter().cloned().zip(values).collect();
                    return self.eval(&def.body, &mut inner);
                }
                self.call(e.span, name, args, &values)?
            }
            K::Aggregate(name, binders, body) => self.aggregate(name, binders, body, env)?,
        })
    }

    fn aggregate(
        &mut self,
        name: &str,
        binders: &[Binder],
        body: &Expr,
        env: &mut Env,
    ) -> Result<Value, ExprError> {
        let mut acc: Option<Q> = None;
        let mut items: Vec<Value> = Vec::new();
        let mut count = 0u64;
        let mut found = false;
        let want_all = name == "all";
        self.each_point(binders, env, &mut |ev, env| {
            let v = ev.eval(body, env)?;
            match name {
                "all" | "any" => {
                    let b = boolean(&v, body.span)?;
                    if b != want_all {
                        found = true;
                        return Ok(false);
                    }
                }
                "count" => count += u64::from(boolean(&v, body.span)?),
                "list" => {
                    if items.len() >= MAX_LIST_LEN {
                        return Err(list_too_long(items.len() + 1, body.span));
                    }
                    items.push(v)
                }
                _ => {
                    let x = num(&v, body.span)?.clone();
                    acc = Some(match acc.take() {
                        None => x,
                        Some(a) => match name {
                            "sum" => {
                                add(&a, &x, false).map_err(|m| ExprError::new(body.span, m))?
                            }
                            "min" => a.min(x),
                            _ => a.max(x),
                        },
                    });
                }
            }
            Ok(true)
        })?;
        Ok(match name {
            "all" => Value::Bool(!found),
            "any" => Value::Bool(found),
            "count" => Value::int(count),
            "list" => Value::List(items.into()),
            "sum" => Value::Num(acc.unwrap_or_else(Q::zero)),
            _ => Value::Num(acc.ok_or_else(|| {
                ExprError::new(
                    body.span,
                    format!("{name} over an empty range is undefined"),
                )
            })?),
        })
    }

    fn call(
        &mut self,
        span: Span,
        name: &str,
        args: &[Expr],
        v: &[Value],
    ) -> Result<Value, ExprError> {
        let at = |i: usize| args.get(i).map_or(span, |a| a.span);
        let engine_err = |e: crate::Error| ExprError::new(span, format!("{name}: {e}"));
        let err = |i: usize| move |m: String| ExprError::new(at(i), m);
        let numbers = |v: &[Value]| -> Result<Vec<Q>, ExprError> {
            match v {
                [Value::List(items)] => items.iter().map(|x| num(x, at(0)).cloned()).collect(),
                _ => v
                    .iter()
                    .enumerate()
                    .map(|(i, x)| num(x, at(i)).cloned())
                    .collect(),
            }
        };
        const HEAP: u64 = u32::MAX as u64;
        const MONEY: u64 = 1 << 62;
        Ok(match name {
            "floor" => Value::int(num(&v[0], at(0))?.floor()),
            "ceil" => Value::int(num(&v[0], at(0))?.ceil()),
            "abs" => Value::Num(num(&v[0], at(0))?.abs()),
            "is_int" => Value::Bool(num(&v[0], at(0))?.is_integer()),
            "ilog2" => {
                let q = num(&v[0], at(0))?;
                if !q.is_integer() || q.signum() <= 0 {
                    return Err(ExprError::new(
                        at(0),
                        format!("ilog2 needs a positive integer, got {}", short_q(q)),
                    ));
                }
                Value::int(q.numer().bits() - 1)
            }
            "mod" => Value::Num(modulo(num(&v[0], at(0))?, num(&v[1], at(1))?).map_err(err(1))?),
            "gcd" => {
                let (a, b) = (num(&v[0], at(0))?, num(&v[1], at(1))?);
                if !a.is_integer() || !b.is_integer() {
                    return Err(ExprError::new(
                        span,
                        format!("gcd of {} and {}: integers only", short_q(a), short_q(b)),
                    ));
                }
                Value::int(num_integer::Integer::gcd(a.numer(), b.numer()))
            }
            "min" | "max" => {
                let xs = numbers(v)?;
                let best = if name == "min" {
                    xs.into_iter().min()
                } else {
                    xs.into_iter().max()
                };
                Value::Num(best.ok_or_else(|| {
                    ExprError::new(at(0), format!("{name} of an empty list is undefined"))
                })?)
            }
            "xor" => Value::int(xor_of(&numbers(v)?).map_err(err(0))?),
            "len" => Value::int(list(&v[0], at(0))?.len()),
            "concat" => {
                let parts = list(&v[0], at(0))?;
                let mut len = 0usize;
                for x in parts {
                    len = len.saturating_add(list(x, at(0))?.len());
                }
                if len > MAX_LIST_LEN {
                    return Err(list_too_long(len, span));
                }
                let mut items = Vec::with_capacity(len);
                for x in parts {
                    items.extend(list(x, at(0))?.iter().cloned());
                }
                capped_list(items, span)?
            }
            "sort" => {
                let mut items = list(&v[0], at(0))?.to_vec();
                items.sort();
                Value::List(items.into())
            }
            "sum" => {
                let mut total = Q::zero();
                for x in numbers(v)? {
                    total = add(&total, &x, false).map_err(|m| ExprError::new(span, m))?;
                }
                Value::Num(total)
            }
            "payoff" => {
                let p = heaps(&v[1], at(1))?;
                let n = num(&v[0], at(0))?.clone();
                Value::Num(self.engines.payoff(&p).map_err(engine_err)?.eval(&n))
            }
            "cplus" | "cminus" => {
                let p = heaps(&v[0], at(0))?;
                let f = self.engines.payoff(&p).map_err(engine_err)?;
                Value::Num(if name == "cplus" {
                    f.right_intercept()
                } else {
                    f.left_intercept()
                })
            }
            "breakpoints" => {
                let p = heaps(&v[0], at(0))?;
                let f = self.engines.payoff(&p).map_err(engine_err)?;
                Value::List(
                    f.breakpoints()
                        .iter()
                        .map(|(x, _)| Value::Num(x.clone()))
                        .collect(),
                )
            }
            "in_pplus" | "in_pminus" => {
                let p = heaps(&v[0], at(0))?;
                Value::Bool(if name == "in_pplus" {
                    crate::games::scoring::in_p_plus(&p)
                } else {
                    crate::games::scoring::in_p_minus(&p)
                })
            }
            "gs" => {
                let rules = string(&v[0], at(0))?;
                match &v[1] {
                    Value::List(_) => {
                        let p = heaps(&v[1], at(1))?;
                        Value::Num(self.engines.gs_sum(rules, &p).map_err(engine_err)?)
                    }
                    x => {
                        let n = natural(x, at(1), "a heap size", HEAP)? as u32;
                        Value::Num(self.engines.gs(rules, n).map_err(engine_err)?)
                    }
                }
            }
            "gs_mixed" => {
                let (r1, r2) = (string(&v[0], at(0))?, string(&v[2], at(2))?);
                let n = natural(&v[1], at(1), "a heap size", HEAP)? as u32;
                let m = natural(&v[3], at(3), "a heap size", HEAP)? as u32;
                Value::Num(self.engines.gs_mixed(r1, n, r2, m).map_err(engine_err)?)
            }
            "candy_v" | "candy_nl" | "candy_nw" => {
                let p = heaps(&v[0], at(0))?;
                let c = self.engines.candy(&p).map_err(engine_err)?;
                match name {
                    "candy_v" => Value::int(c.v),
                    "candy_nl" => Value::int(c.n_l),
                    _ => Value::int(c.n_w),
                }
            }
            "frak" => {
                let a = natural(&v[0], at(0), "a", HEAP)? as u32;
                let m = natural(&v[1], at(1), "m", HEAP)?;
                let x = natural(&v[2], at(2), "x", HEAP)? as u32;
                let g = crate::games::candy::frak(a, m, x).map_err(engine_err)?;
                Value::List(g.iter().map(|&h| Value::int(h)).collect())
            }
            "flipflop_v" | "fractal_v" | "fractal_small_v" => {
                let p = heaps(&v[0], at(0))?;
                let s = Engines::strategy(name.trim_end_matches("_v"));
                Value::int(self.engines.strategy_value(&s, &p).map_err(engine_err)?)
            }
            "alloc_min_nw" | "alloc_max_nw" | "alloc_argmin" | "alloc_argmax" => {
                let n = natural(&v[0], at(0), "the number of candies", 200)? as u32;
                let a = self.engines.allocation(n).map_err(engine_err)?;
                let positions = |ps: &[Vec<Candies>]| {
                    let mut items: Vec<Value> = ps
                        .iter()
                        .map(|p| Value::List(p.iter().map(|&h| Value::int(h)).collect()))
                        .collect();
                    items.sort();
                    Value::List(items.into())
                };
                match name {
                    "alloc_min_nw" => Value::int(a.min_nw),
                    "alloc_max_nw" => Value::int(a.max_nw),
                    "alloc_argmin" => positions(&a.argmin),
                    _ => positions(&a.argmax),
                }
            }
            "winner" | "f1" | "f2" | "g1" | "g2" | "least_f1" | "least_f2" => {
                let set = CashSet::new(naturals(&v[0], at(0), "a move size", MONEY)?)
                    .map_err(|e| ExprError::new(at(0), e.to_string()))?;
                let n = natural(&v[1], at(1), "the number of stones", 1 << 31)?;
                match name {
                    "g1" | "g2" => {
                        let (g1, g2) = crate::games::cash::g_thresholds(&set, n);
                        Value::int(if name == "g1" { g1 } else { g2 })
                    }
                    "least_f1" | "least_f2" => {
                        let (l1, l2) = self.engines.least(&set, n).map_err(engine_err)?;
                        if name == "least_f2" {
                            Value::int(l2)
                        } else {
                            Value::int(l1.ok_or_else(|| {
                                ExprError::new(
                                    span,
                                    format!(
                                        "least_f1 is undefined at n = {n}: II wins with no money \
                                         at all (n < min A)"
                                    ),
                                )
                            })?)
                        }
                    }
                    _ => {
                        let th = self.engines.thresholds(&set, n).map_err(engine_err)?;
                        let i = n as usize;
                        match name {
                            "winner" => Value::Str(Arc::from(winner_name(th.winner[i]))),
                            "f1" => Value::int(th.f1[i]),
                            _ => Value::int(th.f2[i]),
                        }
                    }
                }
            }
            "cash_winner" => {
                let set = CashSet::new(naturals(&v[0], at(0), "a move size", MONEY)?)
                    .map_err(|e| ExprError::new(at(0), e.to_string()))?;
                let n = natural(&v[1], at(1), "the number of stones", 1 << 16)?;
                let d = natural(&v[2], at(2), "money", MONEY)?;
                let e = natural(&v[3], at(3), "money", MONEY)?;
                let w = self
                    .engines
                    .cash_winner(&set, n, d, e)
                    .map_err(engine_err)?;
                Value::Str(Arc::from(winner_name(w)))
            }
            other => unreachable!("`{other}` passed the name check"),
        })
    }
}

/// Heap sizes from a list value.
fn heaps(v: &Value, span: Span) -> Result<Vec<u32>, ExprError> {
    Ok(naturals(v, span, "a heap size", u64::from(u32::MAX))?
        .into_iter()
        .map(|h| h as u32)
        .collect())
}

/// The nim-sum of non-negative integers.
fn xor_of(xs: &[Q]) -> Result<BigInt, String> {
    let mut acc = BigInt::zero();
    for x in xs {
        if !x.is_integer() || x.numer().is_negative() {
            return Err(format!("⊕ needs non-negative integers, got {x}"));
        }
        acc ^= x.numer();
    }
    Ok(acc)
}

/// Parses, checks and evaluates a closed expression (no free names) with fresh engines.
pub fn evaluate(src: &str) -> Result<Value, ExprError> {
    let e = super::expr::parse_expr(src)?;
    let defs = Definitions::new();
    defs.check_with(&e, &[])?;
    let mut engines = Engines::new();
    Evaluator::new(&defs, &mut engines).eval(&e, &mut Vec::new())
}
