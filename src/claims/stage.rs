//! Staged evaluation of a check over its range: what depends only on the outer variables is
//! evaluated once per value of them, not at every point.
//!
//! Why. A check is evaluated at every point of nested ranges, and much of it depends on the
//! outer variables alone: over `L, n, d, e`, the thresholds `f1([1, L], n)` and `g1([1, L], n)`
//! inside `critical([1, L], n, d, e)` are the same for all (n + 1)² pairs (d, e). Evaluated at
//! every point, such calls are most of a check's time (each one builds its list argument and
//! looks its answer up in an engine's cache).
//!
//! How, in two steps, both on a copy of the check made once per sweep:
//! 1. **Inlining.** A call of a user function becomes `let p′ = argument in … body`, its
//!    parameters renamed to names no claim file can write (`p#7`), so each call site of a
//!    function is its own copy of the body and a call inside it can be staged by what *that*
//!    site passes. A name or literal passed goes in place of its parameter instead, unless the
//!    body binds that name itself (it would capture it). User functions may call only earlier
//!    ones, so inlining ends; a budget of nodes bounds the copy, and calls beyond it stay calls.
//!    Arguments are evaluated once, in order, before the body, exactly as a call evaluates them.
//! 2. **Levels.** Each node's level is the innermost range variable it depends on (through
//!    `let`s; inside an aggregate, its own variables are never staged past). A node
//!    (not a name or literal) whose level is outside the innermost variable is *memoized at its
//!    level*: its
//!    value is kept, with a stamp of the values of the variables up to that level, and reused
//!    while the stamp is current ([`Memo`]). Nothing is evaluated early: a node is evaluated
//!    where the unstaged evaluation would evaluate it, the first time in each stamp, so a
//!    branch not taken is still not taken and an error arises at the same node and point.
//!
//! Why the values are the same: the builtins are functions of their arguments (the engines
//! behind them are caches), and a user function is an expression of its parameters. So a
//! memoized node's value depends only on the variables it mentions, which the stamp pins.
//! The tests compare staged and unstaged values and errors at every point of a range, and the
//! registries' verdict tests hold staged as before.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::eval::{Definitions, RED_ZONE, STACK_SEGMENT};
use super::expr::{Binder, Domain, Expr, ExprKind};
use super::registry::{Assertion, ExprCheck};
use super::value::Value;

/// The most nodes inlining adds to one check: far above the registries' largest (≈ 10,000,
/// five calls of a solution-set test four functions deep), and a bound on the copy when
/// functions call each other many times.
const INLINE_BUDGET: usize = 200_000;

/// A check prepared for a sweep over `binders`: its expressions with user functions inlined,
/// and the memo of its staged nodes.
pub(crate) struct Staged {
    check: ExprCheck,
}

impl Staged {
    /// Inlines `check`'s filter and assertion (the correction is swept as its own check).
    pub(crate) fn new(defs: &Definitions, check: &ExprCheck) -> Staged {
        let mut inliner = Inliner {
            defs,
            fresh: 0,
            budget: INLINE_BUDGET,
        };
        let assertion = match &check.assertion {
            Assertion::Holds(h) => Assertion::Holds(inliner.inline(h)),
            Assertion::Equal {
                actual, expected, ..
            } => Assertion::Equal {
                actual: inliner.inline(actual),
                expected: inliner.inline(expected),
                correction: None,
                quantities: Vec::new(),
            },
        };
        let filter = check.filter.as_ref().map(|f| inliner.inline(f));
        Staged {
            check: ExprCheck {
                range: check.range.clone(),
                deep: None,
                filter,
                assertion,
                in_words: None,
            },
        }
    }

    /// The inlined check: its filter and assertion are what a sweep evaluates.
    pub(crate) fn check(&self) -> &ExprCheck {
        &self.check
    }

    /// The memo for a sweep of the inlined check over `binders`, the range's variables from
    /// the outermost. Empty (nothing staged) for fewer than two variables.
    pub(crate) fn memo(&self, binders: &[Binder]) -> Memo {
        let mut memo = Memo {
            binders: binders
                .iter()
                .map(|b| b as *const Binder as usize)
                .collect(),
            stamps: vec![0; binders.len()],
            counter: 0,
            slots: HashMap::default(),
        };
        let Some(innermost) = binders.len().checked_sub(1) else {
            return memo;
        };
        let mut marker = Marker {
            innermost,
            scope: binders
                .iter()
                .enumerate()
                .map(|(i, b)| (b.name.as_str(), Level::Binder(i)))
                .collect(),
            slots: &mut memo.slots,
        };
        if let Some(f) = &self.check.filter {
            marker.mark(f);
        }
        match &self.check.assertion {
            Assertion::Holds(h) => {
                marker.mark(h);
            }
            Assertion::Equal {
                actual, expected, ..
            } => {
                marker.mark(actual);
                marker.mark(expected);
            }
        }
        memo
    }
}

/// The values of a sweep's staged nodes, each with the stamp it was computed under.
///
/// A variable's stamp changes every time it takes a value ([`Memo::bound`]); stamps are drawn
/// from one counter, so a stamp is never reused. A node staged at variable i is current when
/// its stamp is variable i's: the outer variables cannot have changed since without variable i
/// taking a new value after them.
pub(crate) struct Memo {
    /// The range's binders by address, outermost first.
    binders: Vec<usize>,
    /// Each binder's current stamp (0: not bound yet).
    stamps: Vec<u64>,
    counter: u64,
    /// Staged nodes by address.
    slots: HashMap<usize, Slot, FixedState>,
}

/// What the memo holds for a node.
pub(crate) enum Lookup<'m> {
    /// The node is not staged.
    Unstaged,
    /// Staged, with no current value.
    Stale,
    /// Staged, with this value.
    Current(&'m Value),
}

struct Slot {
    level: Level,
    /// The stamp `value` was computed under.
    stamp: u64,
    value: Option<Value>,
}

impl Memo {
    /// `b` has taken a new value (a no-op for binders of other ranges).
    pub(crate) fn bound(&mut self, b: &Binder) {
        let address = b as *const Binder as usize;
        if let Some(i) = self.binders.iter().position(|&a| a == address) {
            self.counter += 1;
            self.stamps[i] = self.counter;
        }
    }

    /// Whether `e` is staged and, if so, its value when that is current.
    pub(crate) fn lookup(&self, e: &Expr) -> Lookup<'_> {
        match self.slots.get(&(e as *const Expr as usize)) {
            None => Lookup::Unstaged,
            Some(slot) => match &slot.value {
                Some(v) if slot.stamp == self.stamp(slot.level) => Lookup::Current(v),
                _ => Lookup::Stale,
            },
        }
    }

    /// Keeps `value` as the staged node `e`'s under the current stamps.
    pub(crate) fn keep(&mut self, e: &Expr, value: &Value) {
        let stamp = match self.slots.get(&(e as *const Expr as usize)) {
            Some(slot) => self.stamp(slot.level),
            None => return,
        };
        if let Some(slot) = self.slots.get_mut(&(e as *const Expr as usize)) {
            slot.stamp = stamp;
            slot.value = Some(value.clone());
        }
    }

    fn stamp(&self, level: Level) -> u64 {
        match level {
            Level::Constant => 0,
            Level::Binder(i) => self.stamps[i],
            Level::Never => u64::MAX,
        }
    }
}

/// What a node depends on: nothing, range variables up to the i-th, or a variable bound inside
/// the check (never staged past).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Constant,
    Binder(usize),
    Never,
}

/// Finds the staged nodes: every node but names and literals outside the innermost variable.
struct Marker<'e, 's> {
    innermost: usize,
    scope: Vec<(&'e str, Level)>,
    slots: &'s mut HashMap<usize, Slot, FixedState>,
}

impl<'e> Marker<'e, '_> {
    /// The level of `e`, with `e` and its parts staged where they qualify.
    fn mark(&mut self, e: &'e Expr) -> Level {
        let level = stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.level_of(e));
        if !is_leaf(e) && level < Level::Binder(self.innermost) {
            let slot = Slot {
                level,
                stamp: 0,
                value: None,
            };
            self.slots.insert(e as *const Expr as usize, slot);
        }
        level
    }

    /// The level of a name: its innermost binding's (a name bound nowhere is never staged).
    fn level_of_name(&self, name: &str) -> Level {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map_or(Level::Never, |&(_, level)| level)
    }

    /// The level of `e`, its parts marked.
    fn level_of(&mut self, e: &'e Expr) -> Level {
        use ExprKind as K;
        match &e.kind {
            K::Int(_) | K::Bool(_) | K::Str(_) => Level::Constant,
            K::Var(name) => self.level_of_name(name),
            K::List(items) | K::Call(_, items) => items
                .iter()
                .map(|i| self.mark(i))
                .max()
                .unwrap_or(Level::Constant),
            K::Neg(x) | K::Not(x) => self.mark(x),
            K::Binary(_, a, b) => self.mark(a).max(self.mark(b)),
            K::Compare(first, rest) => {
                let head = self.mark(first);
                rest.iter()
                    .map(|(_, x)| self.mark(x))
                    .fold(head, Level::max)
            }
            K::If(c, a, b) => self.mark(c).max(self.mark(a)).max(self.mark(b)),
            K::Let(name, v, body) => {
                let level = self.mark(v);
                self.scope.push((name.as_str(), level));
                let inner = self.mark(body);
                self.scope.pop();
                level.max(inner)
            }
            K::Aggregate(_, binders, body) => {
                let outer = self.scope.len();
                for b in binders {
                    match &b.domain {
                        Domain::Interval { from, to, step } => {
                            self.mark(from);
                            self.mark(to);
                            if let Some(s) = step {
                                self.mark(s);
                            }
                        }
                        Domain::Members(list) => {
                            self.mark(list);
                        }
                    }
                    self.scope.push((b.name.as_str(), Level::Never));
                }
                self.mark(body);
                self.scope.truncate(outer);
                // Inside, the aggregate's own variables are never staged past; the aggregate
                // as a whole depends on the variables it does not bind.
                self.free_level(e, &mut Vec::new())
            }
        }
    }

    /// The level of `e` by its free names only (names in `bound` are `e`'s own).
    fn free_level(&self, e: &'e Expr, bound: &mut Vec<&'e str>) -> Level {
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.free_level_here(e, bound))
    }

    fn free_level_here(&self, e: &'e Expr, bound: &mut Vec<&'e str>) -> Level {
        use ExprKind as K;
        let parts = |items: &mut dyn Iterator<Item = &'e Expr>, bound: &mut Vec<&'e str>| {
            items
                .map(|x| self.free_level(x, bound))
                .max()
                .unwrap_or(Level::Constant)
        };
        match &e.kind {
            K::Int(_) | K::Bool(_) | K::Str(_) => Level::Constant,
            K::Var(name) if bound.contains(&name.as_str()) => Level::Constant,
            K::Var(name) => self.level_of_name(name),
            K::List(items) | K::Call(_, items) => parts(&mut items.iter(), bound),
            K::Neg(x) | K::Not(x) => self.free_level(x, bound),
            K::Binary(_, a, b) => parts(&mut [a.as_ref(), b.as_ref()].into_iter(), bound),
            K::Compare(first, rest) => parts(
                &mut std::iter::once(first.as_ref()).chain(rest.iter().map(|(_, x)| x)),
                bound,
            ),
            K::If(c, a, b) => parts(&mut [c.as_ref(), a.as_ref(), b.as_ref()].into_iter(), bound),
            K::Let(name, v, body) => {
                let level = self.free_level(v, bound);
                bound.push(name.as_str());
                let inner = self.free_level(body, bound);
                bound.pop();
                level.max(inner)
            }
            K::Aggregate(_, binders, body) => {
                let outer = bound.len();
                let mut level = Level::Constant;
                for b in binders {
                    level = level.max(match &b.domain {
                        Domain::Interval { from, to, step } => parts(
                            &mut [Some(from), Some(to), step.as_ref()].into_iter().flatten(),
                            bound,
                        ),
                        Domain::Members(list) => self.free_level(list, bound),
                    });
                    bound.push(b.name.as_str());
                }
                level = level.max(self.free_level(body, bound));
                bound.truncate(outer);
                level
            }
        }
    }
}

/// Whether `e` is a name or a literal: never staged, as looking it up costs more than it.
pub(crate) fn is_leaf(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_)
    )
}

/// Replaces calls of user functions by their bodies (see the module doc).
struct Inliner<'d> {
    defs: &'d Definitions,
    /// Parameters renamed so far (the suffix of the next fresh name).
    fresh: usize,
    /// Nodes the copies may still add.
    budget: usize,
}

impl Inliner<'_> {
    fn inline(&mut self, e: &Expr) -> Expr {
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || self.inline_here(e))
    }

    fn inline_here(&mut self, e: &Expr) -> Expr {
        use ExprKind as K;
        let boxed = |this: &mut Self, x: &Expr| Box::new(this.inline(x));
        let kind = match &e.kind {
            K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => e.kind.clone(),
            K::List(items) => K::List(items.iter().map(|i| self.inline(i)).collect()),
            K::Neg(x) => K::Neg(boxed(self, x)),
            K::Not(x) => K::Not(boxed(self, x)),
            K::Binary(op, a, b) => K::Binary(*op, boxed(self, a), boxed(self, b)),
            K::Compare(first, rest) => K::Compare(
                boxed(self, first),
                rest.iter().map(|(op, x)| (*op, self.inline(x))).collect(),
            ),
            K::If(c, a, b) => K::If(boxed(self, c), boxed(self, a), boxed(self, b)),
            K::Let(name, v, body) => K::Let(name.clone(), boxed(self, v), boxed(self, body)),
            K::Aggregate(name, binders, body) => K::Aggregate(
                name.clone(),
                binders.iter().map(|b| self.inline_binder(b)).collect(),
                boxed(self, body),
            ),
            K::Call(name, args) => {
                let args: Vec<Expr> = args.iter().map(|a| self.inline(a)).collect();
                match self.defs.user_function(name) {
                    Some(def) if def.body.size() <= self.budget => {
                        self.budget -= def.body.size();
                        // A name or a literal passed is put in place of its parameter (unless
                        // the body binds that name itself); anything else is bound once, by a
                        // `let` of a fresh name, so that it is evaluated once and first.
                        let mut lets = Vec::new();
                        let mut replaced = Vec::with_capacity(args.len());
                        for (param, arg) in def.params.iter().zip(args) {
                            let in_place = match &arg.kind {
                                K::Int(_) | K::Bool(_) | K::Str(_) => true,
                                K::Var(v) => !binds(&def.body, v),
                                _ => false,
                            };
                            if in_place {
                                replaced.push((param.clone(), arg.kind));
                            } else {
                                self.fresh += 1;
                                let fresh = format!("{param}#{}", self.fresh);
                                replaced.push((param.clone(), K::Var(fresh.clone())));
                                lets.push((fresh, arg));
                            }
                        }
                        let mut body = self.inline(&rename(&def.body, &replaced));
                        for (fresh, arg) in lets.into_iter().rev() {
                            body = Expr {
                                kind: K::Let(fresh, Box::new(arg), Box::new(body)),
                                span: e.span,
                            };
                        }
                        return body;
                    }
                    _ => K::Call(name.clone(), args),
                }
            }
        };
        Expr { kind, span: e.span }
    }

    fn inline_binder(&mut self, b: &Binder) -> Binder {
        Binder {
            name: b.name.clone(),
            span: b.span,
            domain: match &b.domain {
                Domain::Interval { from, to, step } => Domain::Interval {
                    from: self.inline(from),
                    to: self.inline(to),
                    step: step.as_ref().map(|s| self.inline(s)),
                },
                Domain::Members(list) => Domain::Members(self.inline(list)),
            },
        }
    }
}

/// Whether `e` binds `name` anywhere inside (by a `let` or an aggregate's variable).
fn binds(e: &Expr, name: &str) -> bool {
    use ExprKind as K;
    let domain_binds = |b: &Binder| match &b.domain {
        Domain::Interval { from, to, step } => {
            binds(from, name) || binds(to, name) || step.as_ref().is_some_and(|s| binds(s, name))
        }
        Domain::Members(list) => binds(list, name),
    };
    match &e.kind {
        K::Int(_) | K::Bool(_) | K::Str(_) | K::Var(_) => false,
        K::List(items) | K::Call(_, items) => items.iter().any(|i| binds(i, name)),
        K::Neg(x) | K::Not(x) => binds(x, name),
        K::Binary(_, a, b) => binds(a, name) || binds(b, name),
        K::Compare(first, rest) => binds(first, name) || rest.iter().any(|(_, x)| binds(x, name)),
        K::If(c, a, b) => binds(c, name) || binds(a, name) || binds(b, name),
        K::Let(bound, v, body) => bound == name || binds(v, name) || binds(body, name),
        K::Aggregate(_, binders, body) => {
            binders.iter().any(|b| b.name == name || domain_binds(b)) || binds(body, name)
        }
    }
}

/// `e` with the free occurrences of each `(name, replacement)` name replaced (a name bound
/// inside `e` hides the outer one).
fn rename(e: &Expr, names: &[(String, ExprKind)]) -> Expr {
    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || rename_here(e, names))
}

fn rename_here(e: &Expr, names: &[(String, ExprKind)]) -> Expr {
    use ExprKind as K;
    let r = |x: &Expr| Box::new(rename(x, names));
    // The names still renamed under a binder of `bound`.
    let without = |bound: &str| -> Vec<(String, ExprKind)> {
        names
            .iter()
            .filter(|(old, _)| old != bound)
            .cloned()
            .collect()
    };
    let kind = match &e.kind {
        K::Int(_) | K::Bool(_) | K::Str(_) => e.kind.clone(),
        K::Var(name) => names
            .iter()
            .find(|(old, _)| old == name)
            .map_or_else(|| e.kind.clone(), |(_, new)| new.clone()),
        K::List(items) => K::List(items.iter().map(|i| rename(i, names)).collect()),
        K::Call(f, args) => K::Call(f.clone(), args.iter().map(|a| rename(a, names)).collect()),
        K::Neg(x) => K::Neg(r(x)),
        K::Not(x) => K::Not(r(x)),
        K::Binary(op, a, b) => K::Binary(*op, r(a), r(b)),
        K::Compare(first, rest) => K::Compare(
            r(first),
            rest.iter().map(|(op, x)| (*op, rename(x, names))).collect(),
        ),
        K::If(c, a, b) => K::If(r(c), r(a), r(b)),
        K::Let(name, v, body) => K::Let(name.clone(), r(v), Box::new(rename(body, &without(name)))),
        K::Aggregate(name, binders, body) => {
            // Each binder's domain sees the names of the binders before it.
            let mut inner = names.to_vec();
            let binders = binders
                .iter()
                .map(|b| {
                    let domain = match &b.domain {
                        Domain::Interval { from, to, step } => Domain::Interval {
                            from: rename(from, &inner),
                            to: rename(to, &inner),
                            step: step.as_ref().map(|s| rename(s, &inner)),
                        },
                        Domain::Members(list) => Domain::Members(rename(list, &inner)),
                    };
                    inner.retain(|(old, _)| *old != b.name);
                    Binder {
                        name: b.name.clone(),
                        span: b.span,
                        domain,
                    }
                })
                .collect();
            K::Aggregate(name.clone(), binders, Box::new(rename(body, &inner)))
        }
    };
    Expr { kind, span: e.span }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::engines::Engines;
    use crate::claims::eval::{Env, Evaluator};
    use crate::claims::expr::{parse_binders, parse_expr, parse_function};
    use crate::claims::registry::Quantifiers;

    const DEFINITIONS: &[&str] = &[
        "sq(x) = x * x",
        // A parameter hidden by a `let`, and a call of an earlier function.
        "f(a, b) = let a = a + 1 in a * b + sq(b)",
        // An aggregate over a parameter.
        "g(n) = sum(j in 0..n: sq(j) + n)",
        // Parameters named like the range's variables, passed crosswise.
        "k(n, d) = 10 * n + d",
        "span2(L) = [L, L + 1]",
        "safe(n, d) = if n == 0 then 0 else d / n",
        // A body that binds a name a caller may pass: that argument cannot go in place.
        "hide(x) = let n = x + 100 in n + x",
        "twice(x) = hide(x) + hide(x + 1)",
    ];

    fn definitions() -> Definitions {
        let mut defs = Definitions::new();
        for src in DEFINITIONS {
            defs.define(parse_function(src).unwrap()).unwrap();
        }
        defs
    }

    /// The value (or error) of `src` at every point of `range`, and the steps taken, with or
    /// without staging.
    fn sweep(defs: &Definitions, range: &str, src: &str, staged: bool) -> (Vec<String>, u64) {
        let binders = parse_binders(range).unwrap();
        let check = ExprCheck {
            range: Quantifiers {
                text: range.to_string(),
                binders: binders.clone(),
            },
            deep: None,
            filter: None,
            assertion: Assertion::Holds(parse_expr(src).unwrap()),
            in_words: None,
        };
        let prepared = Staged::new(defs, &check);
        let mut engines = Engines::new();
        let mut ev = Evaluator::new(defs, &mut engines);
        let e = match (staged, &prepared.check().assertion, &check.assertion) {
            (true, Assertion::Holds(e), _) => {
                ev.stage(prepared.memo(&binders));
                e
            }
            (false, _, Assertion::Holds(e)) => e,
            _ => unreachable!("both checks are truth-valued"),
        };
        let mut values = Vec::new();
        let mut env: Env = Vec::new();
        ev.each_point(&binders, &mut env, &mut |ev, env| {
            values.push(match ev.eval(e, env) {
                Ok(v) => format!("{v:?}"),
                Err(err) => format!("error {err}"),
            });
            Ok(true)
        })
        .unwrap();
        (values, ev.steps())
    }

    #[test]
    fn staged_values_and_errors_are_the_unstaged_ones_at_every_point() {
        let defs = definitions();
        let range = "L in 0..3, n in 0..4, d in 0..n";
        for src in [
            "f(L, n) + d",
            "g(n) - safe(n, d)",
            "k(d, n) + k(n, L)",
            // An error at n = 2, for every d: raised at each point, not remembered.
            "1 / (n - 2) + d",
            // An error only in the branch taken at n = 0.
            "if n == 0 then 1 / n else d",
            "count(j in 0..n: j < d) + sq(L)",
            // An aggregate's variable hides the range's n.
            "sum(n in 0..d: n) + n",
            "span2(L) == [L, L + 1] and d <= n",
            "let y = sq(n) in y + d + g(L)",
            "hide(n) + hide(d) + twice(n) + hide(7)",
        ] {
            let (plain, _) = sweep(&defs, range, src, false);
            let (staged, _) = sweep(&defs, range, src, true);
            assert_eq!(plain, staged, "{src}");
            assert!(plain.len() > 30, "{src}: {} points", plain.len());
        }
        let (errors, _) = sweep(&defs, range, "1 / (n - 2) + d", true);
        assert_eq!(
            errors.iter().filter(|v| v.starts_with("error")).count(),
            4 * 3
        );
    }

    #[test]
    fn what_depends_on_outer_variables_is_evaluated_once_per_value() {
        let defs = definitions();
        let range = "n in 0..20, d in 0..40";
        let (plain, plain_steps) = sweep(&defs, range, "g(n) + d", false);
        let (staged, staged_steps) = sweep(&defs, range, "g(n) + d", true);
        assert_eq!(plain, staged);
        // g(n) costs O(n) steps; staged it is evaluated 21 times instead of 21 · 41.
        assert!(
            staged_steps * 10 < plain_steps,
            "{staged_steps} steps staged, {plain_steps} plain"
        );
    }
}
