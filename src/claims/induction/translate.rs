//! Claim-language expressions as SMT terms.
//!
//! The forms a proof is about, and the claims it concludes, are written in the claims language
//! (data/claims/README.md). The part of it that is linear arithmetic translates exactly: numbers,
//! `+ − ·` by constants, `/` by constants, `%` and `mod` by positive integer constants, `abs`,
//! `min`, `max`, `floor`, `ceil`, `is_int`, comparisons, `and/or/not`, `if`, `let`, lists, the
//! file's own functions (inlined), and the game's functions (`payoff(N, p)`, supplied by the
//! game's proof module through [`GameCalls`]).
//!
//! Aggregates over a range with constant ends are unrolled. A `min` or `max` over a range whose
//! ends are terms (F_k's minimum over J_k) is a fresh witness `w` in the range with the body's
//! value there, bounded by the body at a few chosen points — the range's ends and the points
//! next to where the body turns ([`super::term::kinks`]). Stating fewer instances of "the minimum
//! is at most the body everywhere" can only make a query harder to refute, never a false one
//! true, so the encoding is sound whatever points are chosen.
//!
//! Everything else (nonlinear products, `⊕`, strings, engine functions without a translation) is
//! refused with an error at its column.

use std::collections::BTreeMap;

use num_traits::ToPrimitive;

use super::term::{Sort, Term, kinks};
use crate::claims::eval::Definitions;
use crate::claims::expr::{BinOp, Binder, CmpOp, Domain, Expr, ExprError, ExprKind, Span};
use crate::num::Q;

/// A translated value.
#[derive(Clone, Debug, PartialEq)]
pub enum TVal {
    /// A number (an Int or Real term).
    Num(Term),
    /// A truth value.
    Bool(Term),
    /// A list.
    List(Vec<TVal>),
}

/// The functions a game adds to the language, as terms.
pub trait GameCalls {
    /// `name(args)` as a term, `None` when the game has no function of that name; `Err` names
    /// what is wrong with the arguments.
    fn call(
        &self,
        name: &str,
        args: &[TVal],
        cx: &mut Translator<'_>,
    ) -> Option<Result<TVal, String>>;
}

/// Aggregates over ranges with constant ends are unrolled up to this many points.
const MAX_UNROLL: i64 = 256;

/// Translates expressions, collecting the definitions of the fresh variables it introduces.
pub struct Translator<'a> {
    defs: &'a Definitions,
    game: Option<&'a dyn GameCalls>,
    /// Prefix of fresh names (unique per query).
    prefix: String,
    fresh: usize,
    /// Facts defining the fresh variables (floors, witnesses): true of their intended values.
    pub facts: Vec<Term>,
    /// What the query assumes besides the facts (a claim's domain, `over`): the ground on
    /// which [`Translator::decide`] settles conditions.
    pub assumptions: Vec<Term>,
    /// The conditions settled by [`Translator::decide`], each as the formula the assumptions
    /// imply (the condition or its negation): the caller poses each as an obligation of its
    /// own, so that a proof never rests on a decision unchecked by the solver's replay.
    pub decided: Vec<Term>,
    /// Every condition asked about, with the answer.
    decisions: BTreeMap<Term, Option<bool>>,
}

/// Names bound to values.
pub type Scope = Vec<(String, TVal)>;

impl<'a> Translator<'a> {
    /// A translator for the functions `defs`, with the game's functions `game`; fresh names
    /// start with `prefix`.
    pub fn new(
        defs: &'a Definitions,
        game: Option<&'a dyn GameCalls>,
        prefix: &str,
    ) -> Translator<'a> {
        Translator {
            defs,
            game,
            prefix: prefix.to_string(),
            fresh: 0,
            facts: Vec::new(),
            assumptions: Vec::new(),
            decided: Vec::new(),
            decisions: BTreeMap::new(),
        }
    }

    /// Whether `condition` holds wherever the facts and assumptions do (`Some(true)`), nowhere
    /// they do (`Some(false)`), or neither is shown (`None`, always without assumptions),
    /// settled by nimlab's refutation ([`super::refute`]).
    ///
    /// A claim's position such as `[2k+1, 2k, 1]` is sorted, and matched against every class
    /// of the forms, by conditions its domain (`k ≥ 1`) decides; left undecided, each becomes a
    /// case split the solver must explore, multiplied by every other (a lemma with four payoffs
    /// made a 1.5 MB script that z3 took seconds over). Replacing a decided condition by its
    /// truth value keeps the query's solutions, since they satisfy the facts and assumptions.
    pub fn decide(&mut self, condition: &Term) -> Option<bool> {
        if self.assumptions.is_empty() {
            return None;
        }
        if let Some(answer) = self.decisions.get(condition) {
            return *answer;
        }
        let refuted = |t: &Translator<'_>, goal: Term| {
            let mut query = t.facts.clone();
            query.extend(t.assumptions.iter().cloned());
            query.push(goal);
            super::refute::refute(&query, None) == super::refute::Refutation::Refuted
        };
        let answer = if refuted(self, condition.clone().negation()) {
            self.decided.push(condition.clone());
            Some(true)
        } else if refuted(self, condition.clone()) {
            self.decided.push(condition.clone().negation());
            Some(false)
        } else {
            None
        };
        self.decisions.insert(condition.clone(), answer);
        answer
    }

    /// A fresh integer variable.
    pub fn fresh_int(&mut self, what: &str) -> Term {
        self.fresh += 1;
        Term::int_var(&format!("{}{what}{}", self.prefix, self.fresh))
    }

    /// A fresh real variable, constrained by nothing.
    pub fn fresh_real(&mut self, what: &str) -> Term {
        self.fresh += 1;
        Term::real_var(&format!("{}{what}{}", self.prefix, self.fresh))
    }

    /// ⌊x⌋ (x itself when it is an integer term), defined by a fresh variable.
    pub fn floor(&mut self, x: Term) -> Term {
        if x.sort() == Sort::Int {
            return x;
        }
        let f = self.fresh_int("fl");
        self.facts.push(Term::And(vec![
            Term::le(f.clone(), x.clone()),
            Term::lt(x, f.clone().plus(Term::int(1))),
        ]));
        f
    }

    /// The expression as a number term.
    pub fn num(&mut self, e: &Expr, scope: &mut Scope) -> Result<Term, ExprError> {
        match self.value(e, scope)? {
            TVal::Num(t) => Ok(t),
            _ => Err(ExprError::new(e.span, "expected a number here")),
        }
    }

    /// The expression as a formula.
    pub fn formula(&mut self, e: &Expr, scope: &mut Scope) -> Result<Term, ExprError> {
        match self.value(e, scope)? {
            TVal::Bool(t) => Ok(t),
            _ => Err(ExprError::new(e.span, "expected a truth value here")),
        }
    }

    /// The expression's value as terms.
    pub fn value(&mut self, e: &Expr, scope: &mut Scope) -> Result<TVal, ExprError> {
        use ExprKind as K;
        let span = e.span;
        Ok(match &e.kind {
            K::Int(n) => TVal::Num(Term::Num(Q::from_bigint(n.clone()))),
            K::Bool(b) => TVal::Bool(Term::Bool(*b)),
            K::Str(_) => return Err(ExprError::new(span, "strings have no place in a proof")),
            K::List(items) => TVal::List(
                items
                    .iter()
                    .map(|x| self.value(x, scope))
                    .collect::<Result<_, _>>()?,
            ),
            K::Var(name) => scope
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| ExprError::new(span, format!("unknown name `{name}`")))?,
            K::Neg(x) => TVal::Num(self.num(x, scope)?.negated()),
            K::Not(x) => TVal::Bool(self.formula(x, scope)?.negation()),
            K::Binary(op, a, b) => self.binary(*op, a, b, scope, e)?,
            K::Compare(first, rest) => {
                let mut parts = Vec::new();
                let mut left = self.value(first, scope)?;
                for (op, right_e) in rest {
                    let right = self.value(right_e, scope)?;
                    parts.push(compare(*op, &left, &right).map_err(|m| ExprError::new(span, m))?);
                    left = right;
                }
                TVal::Bool(Term::And(parts))
            }
            K::If(c, a, b) => {
                let c = self.formula(c, scope)?;
                let a = self.value(a, scope)?;
                let b = self.value(b, scope)?;
                choose(&c, a, b).map_err(|m| ExprError::new(span, m))?
            }
            K::Let(name, v, body) => {
                let v = self.value(v, scope)?;
                scope.push((name.clone(), v));
                let r = self.value(body, scope);
                scope.pop();
                r?
            }
            K::Call(name, args) => self.call(name, args, scope, e)?,
            K::Aggregate(name, binders, body) => self.aggregate(name, binders, body, scope, e)?,
        })
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        scope: &mut Scope,
        e: &Expr,
    ) -> Result<TVal, ExprError> {
        let span = e.span;
        Ok(match op {
            BinOp::And | BinOp::Or => {
                let (x, y) = (self.formula(a, scope)?, self.formula(b, scope)?);
                TVal::Bool(if op == BinOp::And {
                    Term::And(vec![x, y])
                } else {
                    Term::Or(vec![x, y])
                })
            }
            BinOp::Add => TVal::Num(self.num(a, scope)?.plus(self.num(b, scope)?)),
            BinOp::Sub => TVal::Num(self.num(a, scope)?.minus(self.num(b, scope)?)),
            BinOp::Mul => {
                let (x, y) = (self.num(a, scope)?, self.num(b, scope)?);
                match (constant(&x), constant(&y)) {
                    (Some(c), _) => TVal::Num(y.scale(c)),
                    (_, Some(c)) => TVal::Num(x.scale(c)),
                    _ => {
                        return Err(ExprError::new(
                            span,
                            "a product of two non-constant terms is not linear arithmetic",
                        ));
                    }
                }
            }
            BinOp::Div => {
                let (x, y) = (self.num(a, scope)?, self.num(b, scope)?);
                match constant(&y) {
                    Some(c) if !c.is_zero() => TVal::Num(x.scale(Q::one() / c)),
                    _ => {
                        return Err(ExprError::new(
                            b.span,
                            "a proof divides by non-zero constants only",
                        ));
                    }
                }
            }
            BinOp::Mod => {
                let (x, y) = (self.num(a, scope)?, self.num(b, scope)?);
                TVal::Num(self.modulo(x, &y).map_err(|m| ExprError::new(b.span, m))?)
            }
            BinOp::Pow => {
                let (x, y) = (self.num(a, scope)?, self.num(b, scope)?);
                match (constant(&x), constant(&y).and_then(|q| q.to_i64())) {
                    (Some(base), Some(k)) if (0..=64).contains(&k) => {
                        let mut r = Q::one();
                        for _ in 0..k {
                            r = r * base.clone();
                        }
                        TVal::Num(Term::Num(r))
                    }
                    _ => {
                        return Err(ExprError::new(
                            span,
                            "a power in a proof must have a constant base and a small constant exponent",
                        ));
                    }
                }
            }
            BinOp::Xor => {
                return Err(ExprError::new(
                    span,
                    "⊕ (nim-sum) is not linear arithmetic; a proof cannot use it",
                ));
            }
        })
    }

    /// x mod c for a positive integer constant c (floor modulus).
    fn modulo(&mut self, x: Term, c: &Term) -> Result<Term, String> {
        let c = constant(c)
            .filter(|q| q.is_integer() && q.signum() > 0)
            .ok_or("a proof takes remainders by positive integer constants only")?;
        let d = c.numer().into_owned();
        if x.sort() == Sort::Int {
            return Ok(Term::Mod(Box::new(x), d));
        }
        let q = self.floor(x.clone().scale(Q::one() / c.clone()));
        Ok(x.minus(q.scale(c)))
    }

    fn call(
        &mut self,
        name: &str,
        args: &[Expr],
        scope: &mut Scope,
        e: &Expr,
    ) -> Result<TVal, ExprError> {
        let span = e.span;
        if let Some(def) = self.defs.function(name) {
            let def = def.clone();
            if def.params.len() != args.len() {
                return Err(ExprError::new(
                    span,
                    format!("`{name}` takes {} arguments", def.params.len()),
                ));
            }
            let values = args
                .iter()
                .map(|a| self.value(a, scope))
                .collect::<Result<Vec<_>, _>>()?;
            // The body sees only its parameters.
            let mut inner: Scope = def.params.iter().cloned().zip(values).collect();
            return self.value(&def.body, &mut inner);
        }
        let values = args
            .iter()
            .map(|a| self.value(a, scope))
            .collect::<Result<Vec<_>, _>>()?;
        let takes = format!("`{name}` takes numbers");
        let nums = |vs: &[TVal]| {
            let flat: Vec<TVal> = match vs {
                [TVal::List(items)] => items.clone(),
                _ => vs.to_vec(),
            };
            numbers(flat, span, &takes)
        };
        Ok(match name {
            "abs" => TVal::Num(one(&nums(&values)?, name, span)?.abs()),
            "floor" => {
                let x = one(&nums(&values)?, name, span)?;
                TVal::Num(self.floor(x))
            }
            "ceil" => {
                let x = one(&nums(&values)?, name, span)?;
                TVal::Num(self.floor(x.negated()).negated())
            }
            "is_int" => {
                let x = one(&nums(&values)?, name, span)?;
                if x.sort() == Sort::Int {
                    TVal::Bool(Term::Bool(true))
                } else {
                    let f = self.floor(x.clone());
                    TVal::Bool(Term::eq(x, f))
                }
            }
            "mod" => {
                let xs = nums(&values)?;
                if xs.len() != 2 {
                    return Err(ExprError::new(span, "`mod` takes two numbers"));
                }
                TVal::Num(
                    self.modulo(xs[0].clone(), &xs[1])
                        .map_err(|m| ExprError::new(span, m))?,
                )
            }
            "min" | "max" => {
                let xs = nums(&values)?;
                let mut it = xs.into_iter();
                let first = it
                    .next()
                    .ok_or_else(|| ExprError::new(span, format!("`{name}` of nothing")))?;
                TVal::Num(extremum(name, first, it))
            }
            _ => {
                let game = self.game;
                match game.and_then(|g| g.call(name, &values, self)) {
                    Some(r) => r.map_err(|m| ExprError::new(span, m))?,
                    None if game.is_none() && crate::claims::functions::is_game_function(name) => {
                        return Err(ExprError::new(
                            span,
                            format!(
                                "`{name}` is a game's value, which a proof without a forms file \
                                 cannot read: name the forms file (`proof = {{ forms = \"…\" }}`)"
                            ),
                        ));
                    }
                    None => {
                        return Err(ExprError::new(
                            span,
                            format!("`{name}` has no translation into a proof's arithmetic"),
                        ));
                    }
                }
            }
        })
    }

    fn aggregate(
        &mut self,
        name: &str,
        binders: &[Binder],
        body: &Expr,
        scope: &mut Scope,
        e: &Expr,
    ) -> Result<TVal, ExprError> {
        let span = e.span;
        let [binder] = binders else {
            return Err(ExprError::new(
                span,
                "a proof's aggregate takes one variable",
            ));
        };
        let Domain::Interval { from, to, step } = &binder.domain else {
            return Err(ExprError::new(
                span,
                "a proof's aggregate runs over a range a..b",
            ));
        };
        let lo = self.num(from, scope)?;
        let hi = self.num(to, scope)?;
        let s = match step {
            Some(s) => {
                let t = self.num(s, scope)?;
                constant(&t)
                    .filter(|q| q.is_integer() && q.signum() > 0)
                    .ok_or_else(|| {
                        ExprError::new(
                            s.span,
                            "a proof's range steps by a positive integer constant",
                        )
                    })?
            }
            None => Q::one(),
        };
        if let (Some(a), Some(b)) = (constant(&lo), constant(&hi)) {
            return self.unrolled(name, binder, body, scope, (a, b, s), e);
        }
        if lo.sort() != Sort::Int || hi.sort() != Sort::Int {
            return Err(ExprError::new(span, "a proof's range has integer ends"));
        }
        if name != "min" && name != "max" {
            return Err(ExprError::new(
                span,
                format!("`{name}` over a range whose ends vary has no translation into a proof"),
            ));
        }
        let var = binder.name.clone();
        let step = s.numer().into_owned();
        let bind =
            |tr: &mut Translator<'_>, scope: &mut Scope, at: Term| -> Result<Term, ExprError> {
                scope.push((var.clone(), TVal::Num(at)));
                let r = tr.num(body, scope);
                scope.pop();
                r
            };
        // The witness w = lo + step·i with i ≥ 0 and w ≤ hi.
        let i = self.fresh_int("i");
        let w = lo.clone().plus(i.clone().scale(s.clone()));
        let empty = Term::lt(hi.clone(), lo.clone());
        let value = bind(self, scope, w.clone())?;
        self.facts.push(Term::Or(vec![
            empty.clone(),
            Term::And(vec![Term::le(Term::int(0), i), Term::le(w, hi.clone())]),
        ]));
        // Instances: both ends, and the range points on either side of each turn of the body.
        let probe = self.fresh_int("j");
        let probe_name = match &probe {
            Term::Var(n, _) => n.clone(),
            _ => unreachable!("fresh_int gives a variable"),
        };
        let shape = bind(self, scope, probe)?;
        let last = lo
            .clone()
            .plus(Term::Div(Box::new(hi.clone().minus(lo.clone())), step.clone()).scale(s.clone()));
        let mut points = vec![lo.clone(), last];
        for at in kinks(&shape, &probe_name) {
            let below = lo.clone().plus(
                self.floor(at.minus(lo.clone()).scale(Q::one() / s.clone()))
                    .scale(s.clone()),
            );
            points.push(below.clone());
            points.push(below.plus(Term::Num(s.clone())));
        }
        for p in points {
            let at_p = bind(self, scope, p.clone())?;
            let in_range = Term::And(vec![
                Term::le(lo.clone(), p.clone()),
                Term::le(p, hi.clone()),
            ]);
            let bound = if name == "min" {
                Term::le(value.clone(), at_p)
            } else {
                Term::le(at_p, value.clone())
            };
            self.facts.push(in_range.implies(bound));
        }
        Ok(TVal::Num(value))
    }

    fn unrolled(
        &mut self,
        name: &str,
        binder: &Binder,
        body: &Expr,
        scope: &mut Scope,
        (a, b, s): (Q, Q, Q),
        e: &Expr,
    ) -> Result<TVal, ExprError> {
        let span = e.span;
        let count = if b < a {
            0
        } else {
            ((b.clone() - a.clone()) / s.clone())
                .floor()
                .to_i64()
                .unwrap_or(i64::MAX)
                + 1
        };
        if count > MAX_UNROLL {
            return Err(ExprError::new(
                span,
                format!(
                    "a proof unrolls ranges of at most {MAX_UNROLL} points; this one has {count}"
                ),
            ));
        }
        let mut values = Vec::new();
        let mut x = a;
        for _ in 0..count {
            scope.push((binder.name.clone(), TVal::Num(Term::Num(x.clone()))));
            let v = self.value(body, scope);
            scope.pop();
            values.push(v?);
            x = x + s.clone();
        }
        let nums = |vs: Vec<TVal>| numbers(vs, body.span, "expected a number here");
        let bools = |vs: Vec<TVal>| truths(vs, body.span);
        Ok(match name {
            "min" | "max" => {
                let xs = nums(values)?;
                let mut it = xs.into_iter();
                let Some(first) = it.next() else {
                    // An empty range has no minimum; the term only matters where a guard
                    // (a class's constraints) rules this case out, so any value will do.
                    return Ok(TVal::Num(self.fresh_real("empty")));
                };
                TVal::Num(extremum(name, first, it))
            }
            "sum" => TVal::Num(Term::Add(nums(values)?)),
            "all" => TVal::Bool(Term::And(bools(values)?)),
            "any" => TVal::Bool(Term::Or(bools(values)?)),
            "count" => TVal::Num(Term::Add(
                bools(values)?
                    .into_iter()
                    .map(|c| Term::ite(c, Term::int(1), Term::int(0)))
                    .collect(),
            )),
            "list" => TVal::List(values),
            _ => return Err(ExprError::new(span, format!("unknown aggregate `{name}`"))),
        })
    }
}

/// The least (`min`) or largest (`max`) of `first` and `rest`.
fn extremum(name: &str, first: Term, rest: impl Iterator<Item = Term>) -> Term {
    rest.fold(first, |acc, x| {
        if name == "min" {
            acc.min(x)
        } else {
            acc.max(x)
        }
    })
}

/// Values that must all be numbers; `message` at `span` otherwise.
fn numbers(vs: Vec<TVal>, span: Span, message: &str) -> Result<Vec<Term>, ExprError> {
    vs.into_iter()
        .map(|v| match v {
            TVal::Num(t) => Ok(t),
            _ => Err(ExprError::new(span, message)),
        })
        .collect()
}

/// Values that must all be truth values.
fn truths(vs: Vec<TVal>, span: Span) -> Result<Vec<Term>, ExprError> {
    vs.into_iter()
        .map(|v| match v {
            TVal::Bool(t) => Ok(t),
            _ => Err(ExprError::new(span, "expected a truth value here")),
        })
        .collect()
}

/// The value of a term made of constants only.
pub fn constant(t: &Term) -> Option<Q> {
    match t {
        Term::Num(q) => Some(q.clone()),
        Term::Scale(q, x) => constant(x).map(|v| v * q.clone()),
        Term::Add(xs) => xs
            .iter()
            .try_fold(Q::zero(), |acc, x| constant(x).map(|v| acc + v)),
        Term::Div(x, d) => constant(x)
            .filter(Q::is_integer)
            .map(|v| Q::from_bigint(num_integer::Integer::div_floor(&*v.numer(), d))),
        Term::Mod(x, d) => constant(x)
            .filter(Q::is_integer)
            .map(|v| Q::from_bigint(num_integer::Integer::mod_floor(&*v.numer(), d))),
        _ => None,
    }
}

fn one(xs: &[Term], name: &str, span: Span) -> Result<Term, ExprError> {
    match xs {
        [x] => Ok(x.clone()),
        _ => Err(ExprError::new(span, format!("`{name}` takes one number"))),
    }
}

/// `a op b` for translated values (lists compared entry by entry).
fn compare(op: CmpOp, a: &TVal, b: &TVal) -> Result<Term, String> {
    match (a, b) {
        (TVal::Num(x), TVal::Num(y)) => Ok(match op {
            CmpOp::Eq => Term::eq(x.clone(), y.clone()),
            CmpOp::Ne => Term::eq(x.clone(), y.clone()).negation(),
            CmpOp::Lt => Term::lt(x.clone(), y.clone()),
            CmpOp::Le => Term::le(x.clone(), y.clone()),
            CmpOp::Gt => Term::lt(y.clone(), x.clone()),
            CmpOp::Ge => Term::le(y.clone(), x.clone()),
        }),
        (TVal::Bool(x), TVal::Bool(y)) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {
            let eq = Term::eq(x.clone(), y.clone());
            Ok(if op == CmpOp::Eq { eq } else { eq.negation() })
        }
        (TVal::List(xs), TVal::List(ys)) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {
            let eq = if xs.len() == ys.len() {
                Term::And(
                    xs.iter()
                        .zip(ys)
                        .map(|(x, y)| compare(CmpOp::Eq, x, y))
                        .collect::<Result<_, _>>()?,
                )
            } else {
                Term::Bool(false)
            };
            Ok(if op == CmpOp::Eq { eq } else { eq.negation() })
        }
        _ => Err("these values cannot be compared in a proof".into()),
    }
}

/// `if c then a else b` for translated values.
fn choose(c: &Term, a: TVal, b: TVal) -> Result<TVal, String> {
    Ok(match (a, b) {
        (TVal::Num(x), TVal::Num(y)) => TVal::Num(Term::ite(c.clone(), x, y)),
        (TVal::Bool(x), TVal::Bool(y)) => TVal::Bool(Term::Or(vec![
            Term::And(vec![c.clone(), x]),
            Term::And(vec![c.clone().negation(), y]),
        ])),
        (TVal::List(xs), TVal::List(ys)) if xs.len() == ys.len() => TVal::List(
            xs.into_iter()
                .zip(ys)
                .map(|(x, y)| choose(c, x, y))
                .collect::<Result<_, _>>()?,
        ),
        _ => return Err("the two branches of `if` differ in kind".into()),
    })
}

/// Used by games: a value as a list of integer terms (a position).
pub fn int_list(v: &TVal) -> Result<Vec<Term>, String> {
    match v {
        TVal::List(items) => items
            .iter()
            .map(|x| match x {
                TVal::Num(t) if t.sort() == Sort::Int => Ok(t.clone()),
                TVal::Num(_) => Err("a position's piles must be integer terms".to_string()),
                _ => Err("a position is a list of numbers".to_string()),
            })
            .collect(),
        _ => Err("expected a position (a list of piles)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assumptions_decide_conditions_and_each_decision_is_recorded() {
        let defs = Definitions::new();
        let mut tr = Translator::new(&defs, None, "t_");
        let k = Term::int_var("k");
        let two_k = k.clone().scale(Q::int(2));
        // Without assumptions nothing is decided, however plain.
        assert_eq!(tr.decide(&Term::le(Term::int(0), Term::int(1))), None);
        tr.assumptions.push(Term::le(Term::int(1), k.clone()));
        // k ≥ 1 gives 2k ≥ 1 and rules out 2k ≤ 1; k ≥ 2 is open.
        assert_eq!(
            tr.decide(&Term::le(Term::int(1), two_k.clone())),
            Some(true)
        );
        assert_eq!(
            tr.decide(&Term::le(two_k.clone(), Term::int(1))),
            Some(false)
        );
        assert_eq!(tr.decide(&Term::le(Term::int(2), k.clone())), None);
        // Asked again, the answer comes from the record and is not posed twice.
        assert_eq!(
            tr.decide(&Term::le(Term::int(1), two_k.clone())),
            Some(true)
        );
        assert_eq!(
            tr.decided,
            vec![
                Term::le(Term::int(1), two_k.clone()),
                Term::le(two_k, Term::int(1)).negation(),
            ]
        );
    }
}
