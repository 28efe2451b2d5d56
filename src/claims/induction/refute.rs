//! A sound, incomplete refutation of obligations, tried before any solver is started.
//!
//! Most obligations of a forms file are easy: a few linear constraints on a few integers that
//! contradict each other after a case split or two (a move from `[5, 32m + 17, 32m + 20]` to a
//! class whose form is `48l + 38` with `l < m` cannot beat `48m + 26`). An SMT solver settles each
//! in a millisecond, but a proof of a thousand obligations spends seconds starting solvers and
//! parsing scripts. This module refutes such queries in-process; whatever it cannot refute goes
//! to the solver unchanged, and the certificate is the same SMT-LIB either way, so z3 and cvc5
//! can still replay every obligation.
//!
//! # The procedure
//! 1. **Encoding.** The formula is put in negation normal form over atoms `ℓ ⋈ 0` (ℓ linear,
//!    ⋈ one of `≤ < =`). A numeric `ite` becomes a case split on its condition, or, where those
//!    splits would multiply past a bound, a fresh variable v with the clause
//!    (c ∧ v = a) ∨ (¬c ∧ v = b); a condition that is constant is settled outright. ⌊t/d⌋
//!    becomes a fresh integer q with d·q ≤ t ≤ d·q + d − 1, and t mod d the term t − d·q.
//! 2. **Search.** Depth first over the disjunctions. At each node the unit atoms are tested for
//!    feasibility; a disjunct infeasible with them is dropped, a clause with one disjunct left
//!    becomes units, a clause one of whose atoms the units imply is dropped, and the search
//!    splits on a shortest remaining clause.
//! 3. **Feasibility.** Equations are solved for a real variable, or for an integer variable
//!    of coefficient ±1, and substituted. The inequalities then go through Fourier–Motzkin
//!    elimination over the rationals, every constraint on integer variables alone tightened:
//!    Σ aᵢxᵢ ≤ c with coprime integers aᵢ becomes Σ aᵢxᵢ ≤ ⌊c⌋ (and `< c` becomes `≤ ⌈c⌉ − 1`).
//!
//! # Why it is sound
//! Every step keeps every solution (integer values for the integer variables, rational ones for
//! the real variables): ⌊t/d⌋ satisfies its definition; a named `ite`'s clause holds with v
//! equal to the term; a case split covers every case; a
//! dropped disjunct has no solution together with the units, and a dropped clause holds
//! wherever the units do; a substitution is an equivalence; a Fourier–Motzkin combination is a
//! nonnegative sum of constraints, so it holds wherever they do; tightening holds at every
//! integer point; and a variable bounded on one side only can always be chosen far enough out,
//! so dropping its constraints keeps feasibility. So when every branch ends in an infeasible
//! set, the query has no solution: it is `unsat`. The converse fails (the rational shadow of an
//! integer problem may be feasible, and the search stops after [`BUDGET`] units of work):
//! then the answer is "not refuted", never `sat`, and the solver decides.
//!
//! # The answers kept
//! The same sets of atoms come back again and again: across the branches of one search, the
//! cases of one query and the queries of one forms file (93% of the feasibility tests of
//! `data/proofs/candy-nim-block-32.toml` repeat an earlier one). So each thread keeps the
//! answers of the tests it made, keyed by the atoms themselves (in order, every coefficient
//! and constant exactly, each variable with its sort) and stored with the work they took.
//! That is the whole input of a test, and a test is deterministic, so an answer reused is the
//! answer the test would give again; a reused answer is charged the work it took, and where
//! the budget left is smaller the test gives up, exactly where the computation would have.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use foldhash::fast::FixedState;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use super::term::{Rel, Sort, Term};
use crate::num::Q;

/// The work one query may take before the search gives up: a unit is one constraint written
/// by the elimination, or one atom or disjunct copied into a branch. About 100 ms.
pub const BUDGET: usize = 400_000;

/// Encodings with more formula nodes than this are left to the solver (nested `ite`s
/// multiply their guards).
const MAX_NODES: usize = 20_000;

/// Numeric terms with more `ite` branches than this are left to the solver.
const MAX_ALTERNATIVES: usize = 64;

/// Fourier–Motzkin systems larger than this are left to the solver.
const MAX_CONSTRAINTS: usize = 1500;

type Var = u32;

/// Σ coefficient·variable + constant, the terms sorted by variable, no zero coefficient.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
struct Lin {
    terms: Vec<(Var, Q)>,
    constant: Q,
}

impl Lin {
    fn constant(q: Q) -> Lin {
        Lin {
            terms: Vec::new(),
            constant: q,
        }
    }

    fn var(v: Var) -> Lin {
        Lin {
            terms: vec![(v, Q::one())],
            constant: Q::zero(),
        }
    }

    /// self + k·other.
    fn add_scaled(&self, other: &Lin, k: &Q) -> Lin {
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let left = self.terms.get(i);
            let right = other.terms.get(j);
            match (left, right) {
                (Some((a, x)), Some((b, y))) if a == b => {
                    let c = x + &(y * k);
                    if !c.is_zero() {
                        terms.push((*a, c));
                    }
                    i += 1;
                    j += 1;
                }
                (Some((a, x)), Some((b, _))) if a < b => {
                    terms.push((*a, x.clone()));
                    i += 1;
                }
                (Some((a, x)), None) => {
                    terms.push((*a, x.clone()));
                    i += 1;
                }
                (_, Some((b, y))) => {
                    let c = y * k;
                    if !c.is_zero() {
                        terms.push((*b, c));
                    }
                    j += 1;
                }
                (None, None) => unreachable!("the loop runs while either side has terms"),
            }
        }
        Lin {
            terms,
            constant: &self.constant + &(&other.constant * k),
        }
    }

    fn minus(&self, other: &Lin) -> Lin {
        self.add_scaled(other, &Q::int(-1))
    }

    fn times(&self, k: &Q) -> Lin {
        if k.is_zero() {
            return Lin::default();
        }
        Lin {
            terms: self.terms.iter().map(|(v, c)| (*v, c * k)).collect(),
            constant: &self.constant * k,
        }
    }

    fn coefficient(&self, v: Var) -> Option<&Q> {
        self.terms
            .binary_search_by_key(&v, |(w, _)| *w)
            .ok()
            .map(|i| &self.terms[i].1)
    }

    /// `self` with `v` replaced by `by`.
    fn substitute(&self, v: Var, by: &Lin) -> Lin {
        match self.coefficient(v) {
            None => self.clone(),
            Some(c) => {
                let c = c.clone();
                let without = Lin {
                    terms: self
                        .terms
                        .iter()
                        .filter(|(w, _)| *w != v)
                        .cloned()
                        .collect(),
                    constant: self.constant.clone(),
                };
                without.add_scaled(by, &c)
            }
        }
    }
}

/// `lin ⋈ 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Atom {
    lin: Lin,
    rel: Rel,
}

/// A formula in negation normal form.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Formula {
    Const(bool),
    Atom(Atom),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

/// The alternatives of a numeric term: each a guard (a conjunction) and the term's linear form
/// where the guard holds. The guards partition every point.
type Alternatives = Vec<(Vec<Formula>, Lin)>;

/// Turns terms into formulas over numbered variables.
#[derive(Clone, Default)]
struct Encoder {
    vars: BTreeMap<String, Var>,
    sorts: Vec<Sort>,
    floors: BTreeMap<(Lin, BigInt), Var>,
    /// The defining constraints of the floors.
    definitions: Vec<Atom>,
    /// Formula nodes built so far (bounded by [`MAX_NODES`]).
    nodes: usize,
    /// Whether a numeric `ite` is named by a fresh variable (see [`Encoder::named_ite`])
    /// rather than expanded into its alternatives.
    name_ites: bool,
    /// The named `ite`s: one variable per distinct term.
    ites: BTreeMap<Term, Var>,
    /// The defining disjunctions of the named `ite`s.
    ite_definitions: Vec<Formula>,
}

impl Encoder {
    /// Counts `n` more nodes; `None` past [`MAX_NODES`].
    fn charge(&mut self, n: usize) -> Option<()> {
        self.nodes += n;
        (self.nodes <= MAX_NODES).then_some(())
    }

    fn fresh(&mut self, sort: Sort) -> Var {
        self.sorts.push(sort);
        (self.sorts.len() - 1) as Var
    }

    fn var(&mut self, name: &str, sort: Sort) -> Var {
        if let Some(v) = self.vars.get(name) {
            return *v;
        }
        let v = self.fresh(sort);
        self.vars.insert(name.to_string(), v);
        v
    }

    /// q = ⌊ℓ/d⌋ for an integer-valued ℓ: a fresh integer with d·q ≤ ℓ ≤ d·q + d − 1.
    fn floor(&mut self, l: &Lin, d: &BigInt) -> Var {
        let key = (l.clone(), d.clone());
        if let Some(q) = self.floors.get(&key) {
            return *q;
        }
        let q = self.fresh(Sort::Int);
        self.floors.insert(key, q);
        let dq = Lin::var(q).times(&Q::from(d));
        // d·q − ℓ ≤ 0 and ℓ − d·q − (d − 1) ≤ 0.
        self.definitions.push(Atom {
            lin: dq.minus(l),
            rel: Rel::Le,
        });
        let mut upper = l.minus(&dq);
        upper.constant = &upper.constant - &(Q::from(d) - Q::one());
        self.definitions.push(Atom {
            lin: upper,
            rel: Rel::Le,
        });
        q
    }

    fn numeric(&mut self, t: &Term) -> Option<Alternatives> {
        let alternatives = match t {
            Term::Num(q) => vec![(Vec::new(), Lin::constant(q.clone()))],
            Term::Var(name, sort) if *sort != Sort::Bool => {
                vec![(Vec::new(), Lin::var(self.var(name, *sort)))]
            }
            Term::Add(xs) => {
                let mut acc: Alternatives = vec![(Vec::new(), Lin::default())];
                for x in xs {
                    let parts = self.numeric(x)?;
                    if acc.len() * parts.len() > MAX_ALTERNATIVES {
                        return None;
                    }
                    let mut next = Vec::with_capacity(acc.len() * parts.len());
                    for (g, l) in &acc {
                        for (h, m) in &parts {
                            self.charge(1 + size(g) + size(h))?;
                            let mut guard = g.clone();
                            guard.extend(h.iter().cloned());
                            next.push((guard, l.add_scaled(m, &Q::one())));
                        }
                    }
                    acc = next;
                }
                acc
            }
            Term::Scale(k, x) => self
                .numeric(x)?
                .into_iter()
                .map(|(g, l)| (g, l.times(k)))
                .collect(),
            Term::Ite(c, a, b) => {
                let yes = self.formula(c, true)?;
                match yes {
                    Formula::Const(true) => return self.numeric(a),
                    Formula::Const(false) => return self.numeric(b),
                    _ if self.name_ites => return self.named_ite(t, yes, a, b),
                    _ => {}
                }
                let no = self.formula(c, false)?;
                let mut out = Vec::new();
                let guard_size = size(std::slice::from_ref(&yes)) + size(std::slice::from_ref(&no));
                for (mut g, l) in self.numeric(a)? {
                    self.charge(guard_size)?;
                    g.push(yes.clone());
                    out.push((g, l));
                }
                for (mut g, l) in self.numeric(b)? {
                    g.push(no.clone());
                    out.push((g, l));
                }
                if out.len() > MAX_ALTERNATIVES {
                    return None;
                }
                out
            }
            Term::Div(x, d) | Term::Mod(x, d) => {
                if !d.is_positive() {
                    return None;
                }
                let mut out = Vec::new();
                for (g, l) in self.numeric(x)? {
                    // The definition of the floor below holds for integer values only.
                    let integral = l.constant.is_integer()
                        && l.terms
                            .iter()
                            .all(|(v, c)| self.sorts[*v as usize] == Sort::Int && c.is_integer());
                    if !integral {
                        return None;
                    }
                    let q = Lin::var(self.floor(&l, d));
                    let value = match t {
                        Term::Div(..) => q,
                        _ => l.minus(&q.times(&Q::from(d))),
                    };
                    out.push((g, value));
                }
                out
            }
            _ => return None,
        };
        Some(alternatives)
    }

    /// A numeric `if c then a else b` (`yes` encoding c) as one fresh variable v, defined by
    /// the disjunction (c ∧ v = a) ∨ (¬c ∧ v = b) over the branches' alternatives. Expanding
    /// instead multiplies the alternatives of every sum and comparison the term sits in,
    /// which a claim's sorted piles (nested minima and maxima, each used many times) exceed at
    /// once; named, each distinct `ite` costs one variable and one clause, split on only when
    /// the search needs it. The disjunction holds exactly when v equals the term, so the
    /// encoding keeps every solution.
    fn named_ite(&mut self, t: &Term, yes: Formula, a: &Term, b: &Term) -> Option<Alternatives> {
        if let Some(v) = self.ites.get(t) {
            return Some(vec![(Vec::new(), Lin::var(*v))]);
        }
        let Term::Ite(c, ..) = t else {
            unreachable!("named_ite is called on an ite")
        };
        let no = self.formula(c, false)?;
        let branches = [(yes, self.numeric(a)?), (no, self.numeric(b)?)];
        let integral = branches.iter().flat_map(|(_, alts)| alts).all(|(_, l)| {
            l.constant.is_integer()
                && l.terms
                    .iter()
                    .all(|(v, c)| self.sorts[*v as usize] == Sort::Int && c.is_integer())
        });
        let v = self.fresh(if integral { Sort::Int } else { Sort::Real });
        let mut cases = Vec::new();
        for (condition, alternatives) in branches {
            for (guard, l) in alternatives {
                self.charge(2 + size(&guard))?;
                let mut conjunction = guard;
                conjunction.push(condition.clone());
                conjunction.push(Formula::Atom(Atom {
                    lin: Lin::var(v).minus(&l),
                    rel: Rel::Eq,
                }));
                cases.push(Formula::And(conjunction));
            }
        }
        self.ite_definitions.push(Formula::Or(cases));
        self.ites.insert(t.clone(), v);
        Some(vec![(Vec::new(), Lin::var(v))])
    }

    /// The formula `t` (when `positive`) or its negation, in negation normal form.
    fn formula(&mut self, t: &Term, positive: bool) -> Option<Formula> {
        Some(match t {
            Term::Bool(b) => Formula::Const(*b == positive),
            Term::Not(x) => self.formula(x, !positive)?,
            Term::And(xs) | Term::Or(xs) => {
                let parts = xs
                    .iter()
                    .map(|x| self.formula(x, positive))
                    .collect::<Option<Vec<_>>>()?;
                if matches!(t, Term::And(_)) == positive {
                    Formula::And(parts)
                } else {
                    Formula::Or(parts)
                }
            }
            Term::Ite(c, a, b) => {
                let yes = self.formula(c, true)?;
                let no = self.formula(c, false)?;
                Formula::Or(vec![
                    Formula::And(vec![yes, self.formula(a, positive)?]),
                    Formula::And(vec![no, self.formula(b, positive)?]),
                ])
            }
            Term::Cmp(rel, a, b) => {
                let left = self.numeric(a)?;
                let right = self.numeric(b)?;
                if left.len() * right.len() > MAX_ALTERNATIVES {
                    return None;
                }
                let mut cases = Vec::new();
                for (g, l) in &left {
                    for (h, m) in &right {
                        self.charge(1 + size(g) + size(h))?;
                        let difference = l.minus(m);
                        let atom = comparison(*rel, difference, positive);
                        let mut conjunction: Vec<Formula> = g.clone();
                        conjunction.extend(h.iter().cloned());
                        if conjunction.is_empty() {
                            cases.push(atom);
                        } else {
                            conjunction.push(atom);
                            cases.push(Formula::And(conjunction));
                        }
                    }
                }
                if cases.len() == 1 {
                    cases.pop().expect("one case")
                } else {
                    Formula::Or(cases)
                }
            }
            _ => return None,
        })
    }
}

/// The number of nodes of the formulas.
fn size(fs: &[Formula]) -> usize {
    fs.iter()
        .map(|f| match f {
            Formula::Const(_) | Formula::Atom(_) => 1,
            Formula::And(xs) | Formula::Or(xs) => 1 + size(xs),
        })
        .sum()
}

/// `d ⋈ 0` or its negation.
fn comparison(rel: Rel, d: Lin, positive: bool) -> Formula {
    if d.terms.is_empty() {
        let holds = match rel {
            Rel::Lt => d.constant.signum() < 0,
            Rel::Le => d.constant.signum() <= 0,
            Rel::Eq => d.constant.is_zero(),
        };
        return Formula::Const(holds == positive);
    }
    let atom = |lin: Lin, rel: Rel| Formula::Atom(Atom { lin, rel });
    match (rel, positive) {
        (_, true) => atom(d, rel),
        // ¬(d < 0) ⇔ −d ≤ 0; ¬(d ≤ 0) ⇔ −d < 0; ¬(d = 0) ⇔ d < 0 ∨ −d < 0.
        (Rel::Lt, false) => atom(d.times(&Q::int(-1)), Rel::Le),
        (Rel::Le, false) => atom(d.times(&Q::int(-1)), Rel::Lt),
        (Rel::Eq, false) => Formula::Or(vec![
            atom(d.clone(), Rel::Lt),
            atom(d.times(&Q::int(-1)), Rel::Lt),
        ]),
    }
}

/// What the procedure concluded about a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// No solution: the query is unsatisfiable.
    Refuted,
    /// Not refuted (a rational solution of the shadow, the budget spent, or a term this
    /// module does not encode): the solver must decide.
    Open,
}

/// Whether the conjunction of `assertions` and `case` (when given) is refuted.
pub fn refute(assertions: &[Term], case: Option<&Term>) -> Refutation {
    match Refuter::new(assertions) {
        Some(r) => r.refute(case),
        None => Refutation::Open,
    }
}

/// A query's assertions encoded once, to be refuted with each of its cases in turn.
#[derive(Clone)]
pub struct Refuter {
    encoder: Encoder,
    /// The assertions' atoms, and their disjunctions; `None` when they are false outright.
    encoded: Option<(Vec<Atom>, Vec<Vec<Formula>>)>,
}

impl Refuter {
    /// The assertions encoded; `None` when they hold a term this module does not encode.
    ///
    /// Numeric `ite`s are first expanded into their alternatives, which keeps the search's
    /// splits few for the forms' obligations; when that is too large they are named instead.
    pub fn new(assertions: &[Term]) -> Option<Refuter> {
        Refuter::encoded(assertions, false).or_else(|| Refuter::encoded(assertions, true))
    }

    fn encoded(assertions: &[Term], name_ites: bool) -> Option<Refuter> {
        let mut encoder = Encoder {
            name_ites,
            ..Encoder::default()
        };
        let mut units = Vec::new();
        let mut clauses = Vec::new();
        let mut consistent = true;
        for a in assertions {
            let f = encoder.formula(a, true)?;
            consistent = consistent && absorb(f, &mut units, &mut clauses);
        }
        Some(Refuter {
            encoder,
            encoded: consistent.then_some((units, clauses)),
        })
    }

    /// Whether the assertions and `case` (when given) are refuted.
    pub fn refute(&self, case: Option<&Term>) -> Refutation {
        let Some((units, clauses)) = &self.encoded else {
            return Refutation::Refuted;
        };
        let mut encoder = self.encoder.clone();
        let mut units = units.clone();
        let mut clauses = clauses.clone();
        if let Some(c) = case {
            let Some(f) = encoder.formula(c, true) else {
                return Refutation::Open;
            };
            if !absorb(f, &mut units, &mut clauses) {
                return Refutation::Refuted;
            }
        }
        units.extend(encoder.definitions.iter().cloned());
        for d in &encoder.ite_definitions {
            if !absorb(d.clone(), &mut units, &mut clauses) {
                return Refutation::Refuted;
            }
        }
        let mut search = Search {
            sorts: &encoder.sorts,
            budget: BUDGET,
        };
        if search.refutes(units, clauses) {
            Refutation::Refuted
        } else {
            Refutation::Open
        }
    }
}

/// Adds `f` to the units and clauses; false when it is false outright.
fn absorb(f: Formula, units: &mut Vec<Atom>, clauses: &mut Vec<Vec<Formula>>) -> bool {
    match f {
        Formula::Const(b) => b,
        Formula::Atom(a) => {
            units.push(a);
            true
        }
        Formula::And(xs) => xs.into_iter().all(|x| absorb(x, units, clauses)),
        Formula::Or(xs) => {
            let mut kept = Vec::with_capacity(xs.len());
            for x in xs {
                match x {
                    Formula::Const(true) => return true,
                    Formula::Const(false) => {}
                    Formula::Or(inner) => kept.extend(inner),
                    other => kept.push(other),
                }
            }
            match kept.len() {
                0 => false,
                1 => absorb(kept.pop().expect("one disjunct"), units, clauses),
                _ => {
                    clauses.push(kept);
                    true
                }
            }
        }
    }
}

/// The atoms a formula asserts outright (its top-level conjunction's atoms).
fn top_atoms<'f>(f: &'f Formula, out: &mut Vec<&'f Atom>) {
    match f {
        Formula::Atom(a) => out.push(a),
        Formula::And(xs) => xs.iter().for_each(|x| top_atoms(x, out)),
        Formula::Const(_) | Formula::Or(_) => {}
    }
}

struct Search<'s> {
    sorts: &'s [Sort],
    budget: usize,
}

impl Search<'_> {
    /// Whether the atoms are infeasible; `None` when the budget is spent (not refuted).
    fn infeasible<'a>(&mut self, atoms: impl Iterator<Item = &'a Atom> + Clone) -> Option<bool> {
        infeasible(atoms, self.sorts, &mut self.budget)
    }

    /// Takes `n` units of work from the budget; `None` when it is spent.
    fn charge(&mut self, n: usize) -> Option<()> {
        self.budget = self.budget.checked_sub(n)?;
        Some(())
    }

    /// Whether every solution of the units and clauses is excluded.
    fn refutes(&mut self, mut units: Vec<Atom>, mut clauses: Vec<Vec<Formula>>) -> bool {
        loop {
            match self.infeasible(units.iter()) {
                None => return false,
                Some(true) => return true,
                Some(false) => {}
            }
            let mut changed = false;
            let mut kept = Vec::with_capacity(clauses.len());
            let mut forced = Vec::new();
            for clause in clauses {
                let mut possible = Vec::with_capacity(clause.len());
                let mut satisfied = false;
                for d in clause {
                    let mut asserted = Vec::new();
                    top_atoms(&d, &mut asserted);
                    match self.infeasible(units.iter().chain(asserted.iter().copied())) {
                        None => return false,
                        Some(true) => continue,
                        Some(false) => {}
                    }
                    if let Formula::Atom(a) = &d
                        && a.rel != Rel::Eq
                    {
                        let negated = Atom {
                            lin: a.lin.times(&Q::int(-1)),
                            rel: if a.rel == Rel::Lt { Rel::Le } else { Rel::Lt },
                        };
                        match self.infeasible(units.iter().chain(std::iter::once(&negated))) {
                            None => return false,
                            Some(true) => {
                                satisfied = true;
                                break;
                            }
                            Some(false) => {}
                        }
                    }
                    possible.push(d);
                }
                if satisfied {
                    changed = true;
                    continue;
                }
                match possible.len() {
                    0 => return true,
                    1 => {
                        forced.extend(possible);
                        changed = true;
                    }
                    _ => kept.push(possible),
                }
            }
            clauses = kept;
            for f in forced {
                if !absorb(f, &mut units, &mut clauses) {
                    return true;
                }
            }
            if !changed {
                break;
            }
        }
        let Some(shortest) = (0..clauses.len()).min_by_key(|&i| clauses[i].len()) else {
            return false;
        };
        let clause = clauses.swap_remove(shortest);
        for d in clause {
            let copied = units.len() + clauses.iter().map(Vec::len).sum::<usize>();
            if self.charge(copied).is_none() {
                return false;
            }
            let mut branch_units = units.clone();
            let mut branch_clauses = clauses.clone();
            if absorb(d, &mut branch_units, &mut branch_clauses)
                && !self.refutes(branch_units, branch_clauses)
            {
                return false;
            }
        }
        true
    }
}

/// A constraint `lin ≤ 0` (or `< 0` when strict) during elimination.
#[derive(Clone, Debug)]
struct Ineq {
    lin: Lin,
    strict: bool,
}

/// What tightening a constraint found.
enum Tight {
    /// Holds everywhere.
    Trivial,
    /// Holds nowhere.
    Contradiction,
    /// The constraint, normalized.
    Keep(Ineq),
}

/// Whether every variable of `lin` is an integer.
fn all_integer(lin: &Lin, sorts: &[Sort]) -> bool {
    lin.terms
        .iter()
        .all(|(v, _)| sorts[*v as usize] == Sort::Int)
}

/// The positive factor that makes the coefficients coprime integers.
fn integer_factor(lin: &Lin) -> Q {
    // Machine integers for the common case; big ones when a part does not fit.
    let small = || -> Option<Q> {
        let (mut denominators, mut numerators) = (1i64, 0i64);
        for (_, c) in &lin.terms {
            let (n, d) = c.to_i64_parts().filter(|(n, _)| *n != i64::MIN)?;
            denominators = denominators.checked_mul(d / denominators.gcd(&d))?;
            numerators = numerators.gcd(&n);
        }
        Some(Q::frac(denominators, numerators))
    };
    small().unwrap_or_else(|| {
        let mut denominators = BigInt::one();
        let mut numerators = BigInt::zero();
        for (_, c) in &lin.terms {
            denominators = denominators.lcm(&c.denom());
            numerators = numerators.gcd(&c.numer());
        }
        // lcm(d)/gcd(n) scales a/b to a·lcm/(b·gcd): integers with no common factor left.
        Q::from(denominators) / Q::from(numerators)
    })
}

/// The constraint normalized: integer-only constraints scaled to coprime integer coefficients
/// and their constant rounded (a valid strengthening at integer points); others scaled so the
/// first coefficient is ±1.
fn tighten(lin: Lin, strict: bool, sorts: &[Sort]) -> Tight {
    if lin.terms.is_empty() {
        let sign = lin.constant.signum();
        let holds = if strict { sign < 0 } else { sign <= 0 };
        return if holds {
            Tight::Trivial
        } else {
            Tight::Contradiction
        };
    }
    if all_integer(&lin, sorts) {
        let scaled = lin.times(&integer_factor(&lin));
        // Σ aᵢxᵢ + c ⋈ 0 with Σ aᵢxᵢ an integer: Σ aᵢxᵢ ≤ ⌊−c⌋, or ≤ ⌈−c⌉ − 1 when strict.
        let minus_c = -&scaled.constant;
        let bound = if strict {
            Q::from(minus_c.ceil()) - Q::one()
        } else {
            Q::from(minus_c.floor())
        };
        return Tight::Keep(Ineq {
            lin: Lin {
                terms: scaled.terms,
                constant: -bound,
            },
            strict: false,
        });
    }
    let lead = lin.terms[0].1.abs();
    Tight::Keep(Ineq {
        lin: lin.times(&(Q::one() / lead)),
        strict,
    })
}

/// The most numbers the answers kept in one thread hold (32 MiB): past it they are dropped
/// and kept afresh.
const MAX_KNOWN_WORDS: usize = 4 << 20;

/// The answers of [`decide`] one thread has kept (see the module documentation): by the atoms
/// as [`encode`] writes them, whether they were refuted and the work that took.
#[derive(Default)]
struct Known {
    answers: HashMap<Box<[i64]>, (bool, usize), FixedState>,
    /// Numbers held by the keys.
    words: usize,
    /// The key of the test in progress (its buffer reused).
    key: Vec<i64>,
}

thread_local! {
    static KNOWN: RefCell<Known> = RefCell::new(Known::default());
}

/// The atoms in order as numbers, the key of their answer: for each its relation, its number
/// of terms, its constant, and each term's variable (with its sort) and coefficient, a
/// fraction as numerator and denominator. `false` (the key unusable) when a number is not a
/// machine fraction.
fn encode<'a>(atoms: impl Iterator<Item = &'a Atom>, sorts: &[Sort], key: &mut Vec<i64>) -> bool {
    key.clear();
    for a in atoms {
        let Some((n, d)) = a.lin.constant.to_i64_parts() else {
            return false;
        };
        let rel = match a.rel {
            Rel::Eq => 0,
            Rel::Le => 1,
            Rel::Lt => 2,
        };
        key.extend([rel, a.lin.terms.len() as i64, n, d]);
        for (v, c) in &a.lin.terms {
            let Some((n, d)) = c.to_i64_parts() else {
                return false;
            };
            let sort = match sorts[*v as usize] {
                Sort::Int => 0,
                Sort::Real => 1,
                Sort::Bool => 2,
            };
            key.extend([i64::from(*v) << 2 | sort, n, d]);
        }
    }
    true
}

/// Whether the atoms have no solution (integers for integer variables): `Some(true)` when
/// refuted, `Some(false)` when they may have one, `None` when `budget` ran out first. The
/// answer of an earlier test of the same atoms is reused, charged the work it took.
fn infeasible<'a>(
    atoms: impl Iterator<Item = &'a Atom> + Clone,
    sorts: &[Sort],
    budget: &mut usize,
) -> Option<bool> {
    let mut key = KNOWN.with_borrow_mut(|known| std::mem::take(&mut known.key));
    let keyed = encode(atoms.clone(), sorts, &mut key);
    if keyed
        && let Some((refuted, work)) =
            KNOWN.with_borrow(|known| known.answers.get(&key[..]).copied())
    {
        KNOWN.with_borrow_mut(|known| known.key = key);
        *budget = budget.checked_sub(work)?;
        return Some(refuted);
    }
    let before = *budget;
    let answer = decide(atoms, sorts, budget);
    KNOWN.with_borrow_mut(|known| {
        if keyed && let Some(refuted) = answer {
            if known.words + key.len() > MAX_KNOWN_WORDS {
                known.answers.clear();
                known.words = 0;
            }
            known.words += key.len();
            known
                .answers
                .insert(key[..].into(), (refuted, before - *budget));
        }
        known.key = key;
    });
    answer
}

/// [`infeasible`] computed: equations substituted, then Fourier–Motzkin elimination.
fn decide<'a>(
    atoms: impl Iterator<Item = &'a Atom>,
    sorts: &[Sort],
    budget: &mut usize,
) -> Option<bool> {
    let mut equations = Vec::new();
    let mut inequalities = Vec::new();
    for a in atoms {
        *budget = budget.checked_sub(1 + a.lin.terms.len())?;
        match a.rel {
            Rel::Eq => equations.push(a.lin.clone()),
            Rel::Le | Rel::Lt => inequalities.push(Ineq {
                lin: a.lin.clone(),
                strict: a.rel == Rel::Lt,
            }),
        }
    }
    // Equations: substitute a variable solved from each, or keep it as two inequalities.
    while let Some(mut e) = equations.pop() {
        if e.terms.is_empty() {
            if e.constant.is_zero() {
                continue;
            }
            return Some(true);
        }
        let integral = all_integer(&e, sorts);
        if integral {
            e = e.times(&integer_factor(&e));
            if !e.constant.is_integer() {
                // Coprime integer coefficients reach every integer and only integers.
                return Some(true);
            }
        }
        let pivot = e
            .terms
            .iter()
            .find(|(v, c)| {
                sorts[*v as usize] == Sort::Real
                    || (integral && (c == &Q::one() || c == &Q::int(-1)))
            })
            .map(|(v, c)| (*v, c.clone()));
        match pivot {
            Some((v, c)) => {
                // v = −(e − c·v)/c.
                let rest = Lin {
                    terms: e.terms.iter().filter(|(w, _)| *w != v).cloned().collect(),
                    constant: e.constant.clone(),
                };
                let by = rest.times(&(Q::int(-1) / c));
                for other in &mut equations {
                    *other = other.substitute(v, &by);
                }
                for i in &mut inequalities {
                    i.lin = i.lin.substitute(v, &by);
                }
            }
            None => {
                inequalities.push(Ineq {
                    lin: e.times(&Q::int(-1)),
                    strict: false,
                });
                inequalities.push(Ineq {
                    lin: e,
                    strict: false,
                });
            }
        }
    }
    let mut system = System::default();
    for i in inequalities {
        if !system.add(i.lin, i.strict, sorts) {
            return Some(true);
        }
    }
    system.eliminate(sorts, budget)
}

/// Inequalities keyed by their coefficients, each with its tightest constant.
#[derive(Default)]
struct System {
    constraints: BTreeMap<Vec<(Var, Q)>, (Q, bool)>,
}

impl System {
    /// Adds `lin ≤ 0` (`< 0` when strict); false on a contradiction.
    fn add(&mut self, lin: Lin, strict: bool, sorts: &[Sort]) -> bool {
        match tighten(lin, strict, sorts) {
            Tight::Trivial => true,
            Tight::Contradiction => false,
            Tight::Keep(Ineq { lin, strict }) => {
                let entry = self
                    .constraints
                    .entry(lin.terms)
                    .or_insert((lin.constant.clone(), strict));
                // A larger constant is a tighter bound; at equal constants strict is tighter.
                if lin.constant > entry.0 || (lin.constant == entry.0 && strict) {
                    *entry = (lin.constant, strict);
                }
                true
            }
        }
    }

    /// Fourier–Motzkin elimination: `Some(true)` when a contradiction is derived, `None`
    /// when `budget` (one unit per constraint written) runs out first.
    fn eliminate(mut self, sorts: &[Sort], budget: &mut usize) -> Option<bool> {
        loop {
            if self.constraints.is_empty() {
                return Some(false);
            }
            let mut counts: BTreeMap<Var, (usize, usize)> = BTreeMap::new();
            for coefficients in self.constraints.keys() {
                for (v, c) in coefficients {
                    let e = counts.entry(*v).or_default();
                    if c.signum() > 0 {
                        e.0 += 1;
                    } else {
                        e.1 += 1;
                    }
                }
            }
            let (&var, _) = counts
                .iter()
                .min_by_key(|(v, (p, n))| (p * n, sorts[**v as usize] != Sort::Real, **v))
                .expect("a constraint has a variable");
            let (mut upper, mut lower, mut rest) = (Vec::new(), Vec::new(), System::default());
            for (terms, (constant, strict)) in std::mem::take(&mut self.constraints) {
                let lin = Lin { terms, constant };
                match lin.coefficient(var).map(Q::signum) {
                    Some(s) if s > 0 => upper.push((lin, strict)),
                    Some(_) => lower.push((lin, strict)),
                    None => {
                        rest.constraints.insert(lin.terms, (lin.constant, strict));
                    }
                }
            }
            let written = upper.len() * lower.len();
            if written + rest.constraints.len() > MAX_CONSTRAINTS {
                return Some(false);
            }
            *budget = budget.checked_sub(written + rest.constraints.len())?;
            for (u, us) in &upper {
                let a = u
                    .coefficient(var)
                    .expect("an upper bound has the variable")
                    .clone();
                for (l, ls) in &lower {
                    let b = -l.coefficient(var).expect("a lower bound has the variable");
                    // b·u + a·l cancels the variable (a, b > 0).
                    let combined = u.times(&b).add_scaled(l, &a);
                    if !rest.add(combined, *us || *ls, sorts) {
                        return Some(true);
                    }
                }
            }
            self = rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn x() -> Term {
        Term::int_var("x")
    }
    fn y() -> Term {
        Term::int_var("y")
    }
    fn n() -> Term {
        Term::real_var("N")
    }

    #[test]
    fn integer_gaps_are_refuted_where_the_rational_shadow_is_not_empty() {
        // 0 < 2x < 2 has the rational solution x = 1/2 and no integer one.
        let q = [
            Term::lt(Term::int(0), x().scale(Q::int(2))),
            Term::lt(x().scale(Q::int(2)), Term::int(2)),
        ];
        assert_eq!(refute(&q, None), Refutation::Refuted);
        // 2x = 2y + 1: parity.
        let parity = [Term::eq(
            x().scale(Q::int(2)),
            y().scale(Q::int(2)).plus(Term::int(1)),
        )];
        assert_eq!(refute(&parity, None), Refutation::Refuted);
        // The same with a real variable has solutions.
        let real = [
            Term::lt(Term::int(0), n().scale(Q::int(2))),
            Term::lt(n().scale(Q::int(2)), Term::int(2)),
        ];
        assert_eq!(refute(&real, None), Refutation::Open);
    }

    #[test]
    fn floors_and_remainders_keep_their_definitions() {
        // x mod 2 = 1 and x = 2·⌊x/2⌋: impossible.
        let q = [
            Term::eq(Term::Mod(Box::new(x()), BigInt::from(2)), Term::int(1)),
            Term::eq(
                x(),
                Term::Div(Box::new(x()), BigInt::from(2)).scale(Q::int(2)),
            ),
        ];
        assert_eq!(refute(&q, None), Refutation::Refuted);
        // ⌊x/3⌋ = 2 with x = 8 holds.
        let ok = [
            Term::eq(Term::Div(Box::new(x()), BigInt::from(3)), Term::int(2)),
            Term::eq(x(), Term::int(8)),
        ];
        assert_eq!(refute(&ok, None), Refutation::Open);
    }

    #[test]
    fn cases_split_on_ite_and_disjunctions() {
        // |x| < 0 never holds.
        assert_eq!(
            refute(&[Term::lt(x().abs(), Term::int(0))], None),
            Refutation::Refuted
        );
        // max(x, y) < x never holds; max(x, y) < y + 1 can.
        assert_eq!(
            refute(&[Term::lt(x().max(y()), x())], None),
            Refutation::Refuted
        );
        assert_eq!(
            refute(&[Term::lt(x().max(y()), y().plus(Term::int(1)))], None),
            Refutation::Open
        );
        // x ≠ 0 with x = 0 from a case.
        let base = [Term::eq(x(), Term::int(0)).negation()];
        assert_eq!(
            refute(&base, Some(&Term::eq(x(), Term::int(0)))),
            Refutation::Refuted
        );
        assert_eq!(
            refute(&base, Some(&Term::eq(x(), Term::int(1)))),
            Refutation::Open
        );
    }

    /// A small random formula over x, y (integers) and N (real).
    fn formula() -> impl Strategy<Value = Term> {
        let var = prop_oneof![Just(x()), Just(y()), Just(n())];
        let linear =
            (var.clone(), -3i64..=3, var, -3i64..=3, -6i64..=6).prop_map(|(a, ka, b, kb, c)| {
                a.scale(Q::int(ka))
                    .plus(b.scale(Q::frac(kb, 2)))
                    .plus(Term::int(c))
            });
        let numeric = prop_oneof![
            3 => linear.clone(),
            1 => (linear.clone(), linear.clone(), linear.clone()).prop_map(|(c, a, b)| {
                Term::ite(Term::le(Term::int(0), c), a, b)
            }),
            1 => (2i64..4).prop_map(|d| {
                // Only integer terms are divided.
                Term::Div(Box::new(x().plus(y().scale(Q::int(d)))), BigInt::from(d))
            }),
            1 => (2i64..4).prop_map(|d| Term::Mod(Box::new(x().minus(y())), BigInt::from(d))),
        ];
        let rel = prop_oneof![Just(Rel::Eq), Just(Rel::Lt), Just(Rel::Le)];
        let atom = (rel, numeric.clone(), numeric).prop_map(|(r, a, b)| Term::cmp(r, a, b));
        atom.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 1..4).prop_map(Term::And),
                prop::collection::vec(inner.clone(), 1..4).prop_map(Term::Or),
                inner.prop_map(Term::negation),
            ]
        })
    }

    /// Evaluates a term at a point (x, y integers, N rational).
    fn value(t: &Term, point: &BTreeMap<&str, Q>) -> Q {
        match t {
            Term::Num(q) => q.clone(),
            Term::Var(name, _) => point[name.as_str()].clone(),
            Term::Add(xs) => xs.iter().fold(Q::zero(), |s, x| s + value(x, point)),
            Term::Scale(k, x) => k * &value(x, point),
            Term::Ite(c, a, b) => {
                if holds(c, point) {
                    value(a, point)
                } else {
                    value(b, point)
                }
            }
            Term::Div(x, d) => Q::from((value(x, point) / Q::from(d)).floor()),
            Term::Mod(x, d) => {
                let v = value(x, point);
                let q = Q::from((&v / &Q::from(d)).floor());
                v - q * Q::from(d)
            }
            _ => unreachable!("a numeric term"),
        }
    }

    fn holds(t: &Term, point: &BTreeMap<&str, Q>) -> bool {
        match t {
            Term::Bool(b) => *b,
            Term::Not(x) => !holds(x, point),
            Term::And(xs) => xs.iter().all(|x| holds(x, point)),
            Term::Or(xs) => xs.iter().any(|x| holds(x, point)),
            Term::Ite(c, a, b) => {
                if holds(c, point) {
                    holds(a, point)
                } else {
                    holds(b, point)
                }
            }
            Term::Cmp(rel, a, b) => {
                let (a, b) = (value(a, point), value(b, point));
                match rel {
                    Rel::Eq => a == b,
                    Rel::Lt => a < b,
                    Rel::Le => a <= b,
                }
            }
            _ => unreachable!("a formula"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Soundness: whenever a formula is refuted, no point of a grid satisfies it (integers
        /// x, y in −6..=6, N in steps of 1/4 over −6..=6).
        #[test]
        fn a_refuted_formula_has_no_solution(
            parts in prop::collection::vec(formula(), 1..5),
            name_ites in any::<bool>(),
        ) {
            // Both encodings of `ite`: expanded (what `refute` tries first) and named.
            let refuted = Refuter::encoded(&parts, name_ites)
                .is_some_and(|r| r.refute(None) == Refutation::Refuted);
            if refuted {
                let f = Term::And(parts);
                let point = grid_solution(&f);
                prop_assert!(point.is_none(), "refuted but holds at {point:?}: {}", f.smt());
            }
        }

        /// Soundness with cases (as `left_open` refutes a query's cases one by one with one
        /// `Refuter`): whenever the last part, as a case, is refuted with the others as
        /// assertions, no grid point satisfies them all. The cases are asked in turn (the last
        /// part, its negation, the last part again) of the same refuter.
        #[test]
        fn a_refuted_case_has_no_solution(
            parts in prop::collection::vec(formula(), 1..5),
            name_ites in any::<bool>(),
        ) {
            let (case, assertions) = parts.split_last().expect("at least one part");
            let Some(refuter) = Refuter::encoded(assertions, name_ites) else {
                return Ok(());
            };
            for case in [case.clone(), case.clone().negation(), case.clone()] {
                if refuter.refute(Some(&case)) == Refutation::Refuted {
                    let mut all = assertions.to_vec();
                    all.push(case.clone());
                    let f = Term::And(all);
                    let point = grid_solution(&f);
                    prop_assert!(point.is_none(), "refuted but holds at {point:?}: {}", f.smt());
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// A kept answer is the computed one: for the units of random formulas, asked twice (the
        /// second time, at least, from what the thread kept), `infeasible` answers as `decide`
        /// computes afresh and is charged the same work; one unit short of that work, both give
        /// up.
        #[test]
        fn kept_answers_are_the_computed_ones(
            parts in prop::collection::vec(formula(), 1..5),
            name_ites in any::<bool>(),
        ) {
            let Some(refuter) = Refuter::encoded(&parts, name_ites) else {
                return Ok(());
            };
            let Some((units, _)) = &refuter.encoded else {
                return Ok(());
            };
            let sorts = &refuter.encoder.sorts;
            let mut left = BUDGET;
            let fresh = decide(units.iter(), sorts, &mut left);
            let work = BUDGET - left;
            for _ in 0..2 {
                let mut kept_left = BUDGET;
                prop_assert_eq!(infeasible(units.iter(), sorts, &mut kept_left), fresh);
                prop_assert_eq!(kept_left, left);
            }
            if let Some(short) = work.checked_sub(1) {
                let (mut a, mut b) = (short, short);
                prop_assert_eq!(decide(units.iter(), sorts, &mut a), None);
                prop_assert_eq!(infeasible(units.iter(), sorts, &mut b), None);
            }
        }
    }

    /// A point of the grid (integers x, y in −6..=6, N in steps of 1/4 over −6..=6) that
    /// satisfies `f`, if there is one.
    fn grid_solution(f: &Term) -> Option<BTreeMap<&'static str, Q>> {
        (-6..=6i64)
            .flat_map(|xv| {
                (-6..=6i64).flat_map(move |yv| (-24..=24i64).map(move |nq| (xv, yv, nq)))
            })
            .map(|(xv, yv, nq)| {
                BTreeMap::from([("x", Q::int(xv)), ("y", Q::int(yv)), ("N", Q::frac(nq, 4))])
            })
            .find(|point| holds(f, point))
    }

    #[test]
    fn refutation_is_not_vacuous_on_random_formulas() {
        // The soundness property above would pass if nothing were ever refuted.
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let strategy = prop::collection::vec(formula(), 1..5);
        let (mut refuted, mut open) = ([0; 2], [0; 2]);
        for _ in 0..2000 {
            let parts = strategy.new_tree(&mut runner).expect("a formula").current();
            for named in [0, 1] {
                let encoded = Refuter::encoded(&parts, named == 1).expect("encodable");
                match encoded.refute(None) {
                    Refutation::Refuted => refuted[named] += 1,
                    Refutation::Open => open[named] += 1,
                }
            }
        }
        // Cases refuted that the assertions alone are not: the case's own units are at work,
        // so the property with cases above is not vacuous either.
        let mut by_case = 0;
        for _ in 0..2000 {
            let parts = strategy.new_tree(&mut runner).expect("a formula").current();
            let (case, assertions) = parts.split_last().expect("at least one part");
            if let Some(r) = Refuter::encoded(assertions, false)
                && r.refute(None) == Refutation::Open
                && r.refute(Some(case)) == Refutation::Refuted
            {
                by_case += 1;
            }
        }
        assert!(by_case > 100, "{by_case} cases refuted");
        for named in [0, 1] {
            assert!(
                refuted[named] > 300 && open[named] > 300,
                "named {named}: {} refuted, {} open",
                refuted[named],
                open[named]
            );
        }
    }

    #[test]
    fn ites_too_many_to_expand_are_named() {
        // Σ_{i=1..7} max(x, i) has 2⁷ alternatives, past MAX_ALTERNATIVES: the expansion gives
        // up, and the named encoding still sees that every max(x, i) ≥ x.
        let sum = Term::Add((1..=7).map(|i| x().max(Term::int(i))).collect());
        let below = [Term::lt(sum.clone(), x().scale(Q::int(7)))];
        assert!(Refuter::encoded(&below, false).is_none());
        assert_eq!(refute(&below, None), Refutation::Refuted);
        // Σ max(x, i) = 7x holds for x ≥ 7: not refuted.
        let equal = [Term::eq(sum, x().scale(Q::int(7)))];
        assert_eq!(refute(&equal, None), Refutation::Open);
        // A condition that is constant either way is settled, not split on.
        let constant = Term::ite(Term::le(x().plus(Term::int(1)), x()), y(), x());
        assert_eq!(
            refute(&[Term::lt(constant, x())], None),
            Refutation::Refuted
        );
    }
}
