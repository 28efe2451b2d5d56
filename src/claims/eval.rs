//! Checking and evaluating claim expressions.
//!
//! Before anything runs, [`Definitions::check_with`] resolves every name, counts every call's
//! arguments and infers the kind (number, truth value, string, list) of every node, so a claim
//! file with a typo fails at once with the column of the typo rather than after an hour of
//! computation. Evaluation is exact throughout: numbers are exact rationals ([`Q`]: machine-size
//! fractions inline, big integers beyond).
//!
//! A call goes to a function the claim file `define`s (its body evaluated here) or else to the
//! registered function of that name ([`super::functions`]), whose signature the checker reads
//! and which evaluates itself against the engines' caches.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use foldhash::fast::FixedState;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::cost::{self, Cost};
use super::engines::Engines;
use super::expr::{BinOp, Binder, CmpOp, Domain, Expr, ExprError, ExprKind, FunctionDef, Span};
use super::functions::{self, Args, Params};
use super::stage::{self, Lookup, Memo};
use super::typeset::{DisplayForm, ListStyle};
use super::value::{
    MAX_LIST_LEN, Ty, Value, add, boolean, div, list, list_too_long, modulo, mul, num, pow,
    short_q, xor,
};
use crate::num::Q;
use crate::progress::Progress;

/// The most points one range may have.
pub const MAX_RANGE_POINTS: u64 = 2_000_000;

/// The most evaluation steps (expression nodes evaluated) one claim may take. Ranges multiply:
/// `for = "a in 1..10^6, b in 1..10^6"` is 10^12 points, each a few steps, so claims are
/// estimated before they run (see [`estimate`](crate::language::estimate)) and counted while they run.
pub const MAX_STEPS: u64 = 10_000_000_000;

/// Steps between two progress reports.
const PROGRESS_EVERY: u64 = 1 << 10;

/// Stack left before a recursion step grows the stack (see `stacker`).
pub(crate) const RED_ZONE: usize = 128 * 1024;
/// Size of each stack segment grown.
pub(crate) const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// Evaluation levels between two checks of the stack left. Asking how much stack is left cost a
/// few percent of a claim's time when done at every node; a level takes a few hundred bytes of
/// stack (a few KiB at most), so eight of them stay far inside [`RED_ZONE`].
const STACK_CHECK_EVERY: u32 = 8;

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

/// A scope during checking: names with their kinds.
type Scope = Vec<(String, Ty)>;

/// A scope during evaluation: names with their values (innermost last).
pub type Env<'e> = Vec<(&'e str, Value)>;

/// The point of `env` with its names owned, to be kept after the evaluation (a counterexample's
/// point).
pub fn owned_point(env: &Env) -> Vec<(String, Value)> {
    env.iter()
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect()
}

/// A kept point as an evaluation scope, its names borrowed.
pub fn scope_of(point: &[(String, Value)]) -> Env<'_> {
    point.iter().map(|(n, v)| (n.as_str(), v.clone())).collect()
}

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
    /// Looked up at every call: foldhash, much faster than SipHash on short names (the file
    /// is the user's own, so hash flooding is no concern).
    functions: HashMap<String, (FunctionDef, Ty), FixedState>,
    /// How reports show the functions that are not inlined (see [`super::typeset`]).
    displays: HashMap<String, DisplayForm>,
    /// Each function's estimated cost of one call (see [`super::cost`]).
    costs: HashMap<String, Cost>,
    call_kinds: Mutex<CallKinds>,
    /// Costs of calls whose bodies' ranges depend on the arguments, by the arguments' bounds.
    call_costs: Mutex<CallCosts>,
    /// How reports write list literals.
    list_style: ListStyle,
}

impl Clone for Definitions {
    fn clone(&self) -> Definitions {
        Definitions {
            functions: self.functions.clone(),
            displays: self.displays.clone(),
            costs: self.costs.clone(),
            call_kinds: Mutex::default(),
            call_costs: Mutex::default(),
            list_style: self.list_style,
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
        if functions::lookup(&def.name).is_some() || self.functions.contains_key(&def.name) {
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

    /// Gives the user function `name` a display form: reports show its calls as `template`
    /// (LaTeX in which `#param` stands for an argument) instead of inlining its body, and list
    /// it with `means` (prose, math in `$…$`) under Notation. Refused when there is no such
    /// function or the template is not safe math (see [`DisplayForm::new`]).
    pub fn display_as(&mut self, name: &str, template: &str, means: &str) -> Result<(), String> {
        let Some((def, _)) = self.functions.get(name) else {
            return Err(format!("`{name}` is not a function of this file"));
        };
        let form = DisplayForm::new(template, means, &def.params)?;
        self.displays.insert(name.to_string(), form);
        Ok(())
    }

    /// The user function `name`, if the file defines one.
    pub(crate) fn user_function(&self, name: &str) -> Option<&FunctionDef> {
        self.functions.get(name).map(|(def, _)| def)
    }

    /// Sets how reports write the file's list literals.
    pub fn set_list_style(&mut self, style: ListStyle) {
        self.list_style = style;
    }

    /// How reports write the file's list literals.
    pub fn list_style(&self) -> ListStyle {
        self.list_style
    }

    /// The display form of the user function `name`, if it has one.
    pub fn display(&self, name: &str) -> Option<&DisplayForm> {
        self.displays.get(name)
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
        let Some(function) = functions::lookup(name) else {
            return Err(unknown_function(name_span, name));
        };
        let signature = function.signature();
        match signature.params {
            Params::Fixed(params) => {
                if args.len() != params.len() {
                    return Err(ExprError::new(
                        name_span,
                        format!(
                            "`{name}` takes {} argument(s), {} given",
                            params.len(),
                            args.len()
                        ),
                    ));
                }
                for (a, p) in args.iter().zip(params) {
                    self.expect(a, scope, p.ty)?;
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
        Ok(signature.result)
    }
}

/// The refusal of a call of a function that is neither defined nor registered.
fn unknown_function(span: Span, name: &str) -> ExprError {
    ExprError::new(span, format!("unknown function `{name}`"))
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
    /// Evaluations under way (the depth of the recursion), for [`STACK_CHECK_EVERY`].
    depth: u32,
    /// The staged nodes of the check being swept, if any (see [`super::stage`]).
    memo: Option<Memo>,
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
            depth: 0,
            memo: None,
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

    /// Evaluates the staged nodes of `memo` once per value of their variables, until it is
    /// taken back by [`Evaluator::unstage`] (see [`super::stage`]).
    pub(crate) fn stage(&mut self, memo: Memo) {
        self.memo = Some(memo);
    }

    /// Ends [`Evaluator::stage`].
    pub(crate) fn unstage(&mut self) {
        self.memo = None;
    }

    /// The binder `b` has taken a new value.
    pub(crate) fn bound(&mut self, b: &Binder) {
        if let Some(memo) = &mut self.memo {
            memo.bound(b);
        }
    }

    /// The engines, for builtins that need more than the expression calls.
    pub fn engines(&mut self) -> &mut Engines {
        self.engines
    }

    /// Checks the bounds of an interval binder under `env` (a positive step, not too many
    /// points) without listing its points; a list binder is not checked.
    pub fn check_binder_size<'e>(
        &mut self,
        b: &'e Binder,
        env: &mut Env<'e>,
    ) -> Result<(), ExprError> {
        let Domain::Interval { from, to, step } = &b.domain else {
            return Ok(());
        };
        let (lo, hi, by, step_span) = self.interval_bounds(b, from, to, step, env)?;
        range_count(&lo, &hi, &by, b.span, step_span).map(|_| ())
    }

    /// The evaluated bounds of an interval binder — first, last, step (1 when omitted) — and
    /// the span that errors about the step point at.
    fn interval_bounds<'e>(
        &mut self,
        b: &Binder,
        from: &'e Expr,
        to: &'e Expr,
        step: &'e Option<Expr>,
        env: &mut Env<'e>,
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
    pub fn count_points<'e>(
        &mut self,
        binders: &'e [Binder],
        env: &mut Env<'e>,
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
        // The last binder's points, when an interval, are counted without being listed.
        if let (true, Domain::Interval { .. }) = (rest.is_empty(), &b.domain) {
            return self.binder_len(b, env).map(Some);
        }
        let mut total = 0u64;
        for x in self.binder_points(b, env)? {
            if *budget == 0 {
                return Ok(None);
            }
            *budget -= 1;
            env.push((b.name.as_str(), x));
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
    pub fn binder_points<'e>(
        &mut self,
        b: &'e Binder,
        env: &mut Env<'e>,
    ) -> Result<Vec<Value>, ExprError> {
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

    /// The number of points [`Evaluator::binder_points`] lists for `b`, with its errors, an
    /// interval's counted without listing them.
    pub(crate) fn binder_len<'e>(
        &mut self,
        b: &'e Binder,
        env: &mut Env<'e>,
    ) -> Result<u64, ExprError> {
        match &b.domain {
            Domain::Members(list_expr) => {
                let v = self.eval(list_expr, env)?;
                Ok(list(&v, list_expr.span)?.len() as u64)
            }
            Domain::Interval { from, to, step } => {
                let (lo, hi, by, step_span) = self.interval_bounds(b, from, to, step, env)?;
                range_count(&lo, &hi, &by, b.span, step_span)
            }
        }
    }

    /// Calls `f` at every point of `binders` in lexicographic order (first binder outermost),
    /// stopping early when `f` returns false. Returns whether it ran to the end.
    pub fn each_point<'e>(
        &mut self,
        binders: &'e [Binder],
        env: &mut Env<'e>,
        f: &mut dyn FnMut(&mut Self, &mut Env<'e>) -> Result<bool, ExprError>,
    ) -> Result<bool, ExprError> {
        // With no bounds every point is entered and none is skipped.
        let mut skipped = 0;
        self.each_point_narrowed(binders, &[], env, &mut skipped, f)
    }

    /// The value of `e` in `env`.
    pub fn eval<'e>(&mut self, e: &'e Expr, env: &mut Env<'e>) -> Result<Value, ExprError> {
        self.value(e, env).map_err(|boxed| *boxed)
    }

    /// [`Evaluator::eval`] with its error boxed: every level of the recursion returns a
    /// result no larger than a value (checked below), where the unboxed error (a span and a
    /// message) made each result 40 bytes.
    fn value<'e>(&mut self, e: &'e Expr, env: &mut Env<'e>) -> Result<Value, Box<ExprError>> {
        self.steps += 1;
        self.unreported += 1;
        if self.steps > self.step_limit {
            return Err(Box::new(ExprError::new(
                e.span,
                format!(
                    "evaluation stopped after {} steps, the limit for one claim (see \
                     data/claims/README.md; some of its ranges or branches could only be sized \
                     while it ran): narrow its ranges",
                    self.step_limit
                ),
            )));
        }
        if self.unreported >= PROGRESS_EVERY {
            self.flush_progress();
        }
        // Names and literals are never staged: the kind is tested first, as it costs no lookup.
        if !stage::is_leaf(e)
            && let Some(memo) = &self.memo
        {
            match memo.lookup(e) {
                Lookup::Unstaged => {}
                Lookup::Current(v) => return Ok(v.clone()),
                Lookup::Stale => {
                    let v = self.eval_counted(e, env)?;
                    if let Some(memo) = &mut self.memo {
                        memo.keep(e, &v);
                    }
                    return Ok(v);
                }
            }
        }
        self.eval_counted(e, env)
    }

    /// [`Evaluator::eval`] past the memo: the node evaluated, on a stack that cannot overflow.
    fn eval_counted<'e>(
        &mut self,
        e: &'e Expr,
        env: &mut Env<'e>,
    ) -> Result<Value, Box<ExprError>> {
        // Deeply nested input grows the stack on the heap instead of overflowing it; the stack
        // left is checked on the first level and every STACK_CHECK_EVERY levels below it.
        self.depth += 1;
        let v = if self.depth % STACK_CHECK_EVERY == 1 {
            stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.eval_node(e, env))
        } else {
            self.eval_node(e, env)
        };
        self.depth -= 1;
        v
    }

    fn eval_node<'e>(&mut self, e: &'e Expr, env: &mut Env<'e>) -> Result<Value, Box<ExprError>> {
        use ExprKind as K;
        Ok(match &e.kind {
            K::Int(n) => Value::int(n),
            K::Bool(b) => Value::Bool(*b),
            K::Str(s) => Value::Str(Arc::clone(s)),
            K::List(items) => Value::List(
                items
                    .iter()
                    .map(|i| self.value(i, env))
                    .collect::<Result<Vec<_>, _>>()?
                    .into(),
            ),
            K::Var(name) => env
                .iter()
                .rev()
                .find(|(n, _)| same_name(n, name))
                .map(|(_, v)| v.clone())
                .ok_or_else(|| ExprError::new(e.span, format!("unknown name `{name}`")))?,
            K::Neg(x) => Value::Num(-num(&self.value(x, env)?, x.span)?.clone()),
            K::Not(x) => Value::Bool(!boolean(&self.value(x, env)?, x.span)?),
            K::Binary(BinOp::And, a, b) => Value::Bool(
                boolean(&self.value(a, env)?, a.span)? && boolean(&self.value(b, env)?, b.span)?,
            ),
            K::Binary(BinOp::Or, a, b) => Value::Bool(
                boolean(&self.value(a, env)?, a.span)? || boolean(&self.value(b, env)?, b.span)?,
            ),
            K::Binary(op, a, b) => {
                let (va, vb) = (self.value(a, env)?, self.value(b, env)?);
                if let (BinOp::Add, Value::List(x), Value::List(y)) = (op, &va, &vb) {
                    let len = x.len().saturating_add(y.len());
                    if len > MAX_LIST_LEN {
                        return Err(Box::new(list_too_long(len, e.span)));
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
                    BinOp::Xor => Q::from_bigint(xor(&[x.clone(), y.clone()]).map_err(err)?),
                    BinOp::And | BinOp::Or => unreachable!("handled above"),
                })
            }
            K::Compare(first, rest) => {
                let mut prev = self.value(first, env)?;
                let mut prev_span = first.span;
                for (op, x) in rest {
                    let v = self.value(x, env)?;
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
                if boolean(&self.value(c, env)?, c.span)? {
                    self.value(a, env)?
                } else {
                    self.value(b, env)?
                }
            }
            K::Let(name, v, body) => {
                let v = self.value(v, env)?;
                env.push((name.as_str(), v));
                let r = self.value(body, env);
                env.pop();
                r?
            }
            K::Call(name, args) => {
                let defs: &'a Definitions = self.defs;
                if let Some((def, _)) = defs.functions.get(name) {
                    // The arguments go straight into the body's scope (the checker made their
                    // number that of the parameters): one vector per call, not two, and the
                    // names borrowed from the definition, not copied.
                    let mut inner: Env<'a> = Vec::with_capacity(args.len());
                    for (p, a) in def.params.iter().zip(args) {
                        let v = self.value(a, env)?;
                        inner.push((p.as_str(), v));
                    }
                    return self.value(&def.body, &mut inner);
                }
                let values = args
                    .iter()
                    .map(|a| self.value(a, env))
                    .collect::<Result<Vec<_>, _>>()?;
                self.call(e.span, name, args, &values)?
            }
            K::Aggregate(name, binders, body) => self.aggregate(name, binders, body, env)?,
        })
    }

    fn aggregate<'e>(
        &mut self,
        name: &str,
        binders: &'e [Binder],
        body: &'e Expr,
        env: &mut Env<'e>,
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

    /// A call of the registered function `name` (a user function is evaluated in place).
    fn call(
        &mut self,
        span: Span,
        name: &str,
        args: &[Expr],
        values: &[Value],
    ) -> Result<Value, ExprError> {
        let name_span = Span {
            start: span.start,
            end: span.start + name.len(),
        };
        let function = functions::lookup(name).ok_or_else(|| unknown_function(name_span, name))?;
        function.call(&Args::new(name, span, args, values), self.engines)
    }
}

// The point of `Evaluator::value`'s boxed error: results the size of a value.
const _: () =
    assert!(std::mem::size_of::<Result<Value, Box<ExprError>>>() <= std::mem::size_of::<Value>());

/// Whether two names are equal. Names are a few bytes long, and a variable is looked up at
/// every use: compared inline, byte by byte, they cost less than the call to `memcmp` that
/// `==` on strings makes.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// Parses, checks and evaluates a closed expression (no free names) with fresh engines.
pub fn evaluate(src: &str) -> Result<Value, ExprError> {
    let e = super::expr::parse_expr(src)?;
    let defs = Definitions::new();
    defs.check_with(&e, &[])?;
    let mut engines = Engines::new();
    Evaluator::new(&defs, &mut engines).eval(&e, &mut Vec::new())
}
