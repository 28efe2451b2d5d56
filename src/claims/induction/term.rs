//! Terms of linear integer and real arithmetic, printed as SMT-LIB 2.
//!
//! A proof obligation is a formula over integer variables (pile sizes, family parameters, the
//! size a move leaves) and one real variable (the bonus N). Its terms are sums of variables
//! scaled by rational constants, `ite`, and floor division and remainder by a positive integer
//! constant: exactly the quantifier-free linear integer/real arithmetic (QF_LIRA) that z3 and
//! cvc5 decide. Every term knows its sort; an integer term used where a real is expected is
//! printed inside `to_real`.
//!
//! # Integer cuts
//!
//! Mixed problems defeat the solvers' branch and bound when the integers are unbounded: the
//! relaxation puts an integer strictly between ⌊N⌋ and ⌊N⌋ + 1 and branching on concrete values
//! never ends. For every comparison atom `β·N + A ⋈ 0` (A an integer-valued combination of
//! integer variables, β ≠ 0, both scaled to integers) the query therefore also states the valid
//! fact `−A ≤ ⌊β·N⌋ ∨ −A ≥ ⌊β·N⌋ + 1` ([`cuts`]). Each is true of every integer, so adding it
//! never changes what holds; it only hands the solver the case split a human would make.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use num_bigint::BigInt;
use num_traits::{One, Signed};

use crate::num::Q;

/// The sort of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sort {
    /// Integers.
    Int,
    /// Reals.
    Real,
    /// Truth values.
    Bool,
}

impl Sort {
    fn name(self) -> &'static str {
        match self {
            Sort::Int => "Int",
            Sort::Real => "Real",
            Sort::Bool => "Bool",
        }
    }
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rel {
    /// `=`
    Eq,
    /// `<`
    Lt,
    /// `<=`
    Le,
}

/// A term of linear integer/real arithmetic or a formula over such terms.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Term {
    /// A rational constant (an integer constant has sort Int).
    Num(Q),
    /// A variable of the given sort.
    Var(String, Sort),
    /// A sum.
    Add(Vec<Term>),
    /// A constant times a term.
    Scale(Q, Box<Term>),
    /// `if c then a else b`.
    Ite(Box<Term>, Box<Term>, Box<Term>),
    /// ⌊a / d⌋ of an integer term by a positive constant.
    Div(Box<Term>, BigInt),
    /// a mod d (in 0..d) of an integer term by a positive constant.
    Mod(Box<Term>, BigInt),
    /// A comparison of two numeric terms.
    Cmp(Rel, Box<Term>, Box<Term>),
    /// A truth value.
    Bool(bool),
    /// Conjunction.
    And(Vec<Term>),
    /// Disjunction.
    Or(Vec<Term>),
    /// Negation.
    Not(Box<Term>),
}

impl Term {
    /// The integer constant `n`.
    pub fn int(n: i64) -> Term {
        Term::Num(Q::int(n))
    }

    /// An integer variable.
    pub fn int_var(name: &str) -> Term {
        Term::Var(name.to_string(), Sort::Int)
    }

    /// A real variable.
    pub fn real_var(name: &str) -> Term {
        Term::Var(name.to_string(), Sort::Real)
    }

    /// The term's sort.
    pub fn sort(&self) -> Sort {
        match self {
            Term::Num(q) => {
                if q.is_integer() {
                    Sort::Int
                } else {
                    Sort::Real
                }
            }
            Term::Var(_, s) => *s,
            Term::Add(xs) => numeric_sort(xs.iter()),
            Term::Scale(q, x) => {
                if q.is_integer() && x.sort() == Sort::Int {
                    Sort::Int
                } else {
                    Sort::Real
                }
            }
            Term::Ite(_, a, b) => match (a.sort(), b.sort()) {
                (Sort::Bool, _) => Sort::Bool,
                (Sort::Int, Sort::Int) => Sort::Int,
                _ => Sort::Real,
            },
            Term::Div(..) | Term::Mod(..) => Sort::Int,
            Term::Cmp(..) | Term::Bool(_) | Term::And(_) | Term::Or(_) | Term::Not(_) => Sort::Bool,
        }
    }

    /// `a + b`.
    pub fn plus(self, other: Term) -> Term {
        Term::Add(vec![self, other])
    }

    /// `a − b`.
    pub fn minus(self, other: Term) -> Term {
        Term::Add(vec![self, other.negated()])
    }

    /// `−a`.
    pub fn negated(self) -> Term {
        self.scale(Q::int(-1))
    }

    /// `q · a`.
    pub fn scale(self, q: Q) -> Term {
        Term::Scale(q, Box::new(self))
    }

    /// `if c then a else b`.
    pub fn ite(c: Term, a: Term, b: Term) -> Term {
        Term::Ite(Box::new(c), Box::new(a), Box::new(b))
    }

    /// A comparison `a rel b`.
    pub fn cmp(rel: Rel, a: Term, b: Term) -> Term {
        Term::Cmp(rel, Box::new(a), Box::new(b))
    }

    /// `a = b` (numbers or truth values).
    pub fn eq(a: Term, b: Term) -> Term {
        if a.sort() == Sort::Bool {
            Term::Or(vec![
                Term::And(vec![a.clone(), b.clone()]),
                Term::And(vec![a.negation(), b.negation()]),
            ])
        } else {
            Term::cmp(Rel::Eq, a, b)
        }
    }

    /// `a ≤ b`.
    pub fn le(a: Term, b: Term) -> Term {
        Term::cmp(Rel::Le, a, b)
    }

    /// `a < b`.
    pub fn lt(a: Term, b: Term) -> Term {
        Term::cmp(Rel::Lt, a, b)
    }

    /// `not a`.
    pub fn negation(self) -> Term {
        Term::Not(Box::new(self))
    }

    /// `a ⇒ b`.
    pub fn implies(self, b: Term) -> Term {
        Term::Or(vec![self.negation(), b])
    }

    /// |a|.
    pub fn abs(self) -> Term {
        Term::ite(
            Term::le(Term::int(0), self.clone()),
            self.clone(),
            self.negated(),
        )
    }

    /// max(a, b).
    pub fn max(self, b: Term) -> Term {
        Term::ite(Term::le(b.clone(), self.clone()), self, b)
    }

    /// min(a, b).
    pub fn min(self, b: Term) -> Term {
        Term::ite(Term::le(self.clone(), b.clone()), self, b)
    }

    /// The variables of the term with their sorts.
    pub fn variables(&self, out: &mut BTreeMap<String, Sort>) {
        match self {
            Term::Num(_) | Term::Bool(_) => {}
            Term::Var(n, s) => {
                out.insert(n.clone(), *s);
            }
            Term::Add(xs) | Term::And(xs) | Term::Or(xs) => {
                xs.iter().for_each(|x| x.variables(out))
            }
            Term::Scale(_, x) | Term::Div(x, _) | Term::Mod(x, _) | Term::Not(x) => {
                x.variables(out)
            }
            Term::Ite(c, a, b) => {
                c.variables(out);
                a.variables(out);
                b.variables(out);
            }
            Term::Cmp(_, a, b) => {
                a.variables(out);
                b.variables(out);
            }
        }
    }

    /// The term as SMT-LIB, an integer term printed as a real where `want` is Real.
    pub fn smt(&self) -> String {
        let mut s = String::new();
        self.print(self.sort(), &mut s);
        s
    }

    fn print(&self, want: Sort, out: &mut String) {
        let mine = self.sort();
        if mine == Sort::Int && want == Sort::Real {
            if let Term::Num(q) = self {
                print_num(q, Sort::Real, out);
                return;
            }
            out.push_str("(to_real ");
            self.print(Sort::Int, out);
            out.push(')');
            return;
        }
        match self {
            Term::Num(q) => print_num(q, mine, out),
            Term::Var(n, _) => out.push_str(n),
            Term::Add(xs) => {
                if xs.is_empty() {
                    print_num(&Q::zero(), mine, out);
                    return;
                }
                if let [x] = xs.as_slice() {
                    x.print(mine, out);
                    return;
                }
                out.push_str("(+");
                for x in xs {
                    out.push(' ');
                    x.print(mine, out);
                }
                out.push(')');
            }
            Term::Scale(q, x) => {
                if *q == Q::int(-1) {
                    out.push_str("(- ");
                    x.print(mine, out);
                    out.push(')');
                } else {
                    out.push_str("(* ");
                    print_num(q, mine, out);
                    out.push(' ');
                    x.print(mine, out);
                    out.push(')');
                }
            }
            Term::Ite(c, a, b) => {
                out.push_str("(ite ");
                c.print(Sort::Bool, out);
                out.push(' ');
                a.print(mine, out);
                out.push(' ');
                b.print(mine, out);
                out.push(')');
            }
            Term::Div(x, d) | Term::Mod(x, d) => {
                out.push_str(if matches!(self, Term::Div(..)) {
                    "(div "
                } else {
                    "(mod "
                });
                x.print(Sort::Int, out);
                let _ = write!(out, " {d})");
            }
            Term::Cmp(rel, a, b) => {
                let both = numeric_sort([a.as_ref(), b.as_ref()].into_iter());
                out.push_str(match rel {
                    Rel::Eq => "(= ",
                    Rel::Lt => "(< ",
                    Rel::Le => "(<= ",
                });
                a.print(both, out);
                out.push(' ');
                b.print(both, out);
                out.push(')');
            }
            Term::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Term::And(xs) | Term::Or(xs) => {
                let (op, empty) = if matches!(self, Term::And(_)) {
                    ("and", "true")
                } else {
                    ("or", "false")
                };
                match xs.len() {
                    0 => out.push_str(empty),
                    1 => xs[0].print(Sort::Bool, out),
                    _ => {
                        let _ = write!(out, "({op}");
                        for x in xs {
                            out.push(' ');
                            x.print(Sort::Bool, out);
                        }
                        out.push(')');
                    }
                }
            }
            Term::Not(x) => {
                out.push_str("(not ");
                x.print(Sort::Bool, out);
                out.push(')');
            }
        }
    }
}

/// The sort of a sum of terms: Real when any is.
fn numeric_sort<'a>(xs: impl Iterator<Item = &'a Term>) -> Sort {
    let mut sort = Sort::Int;
    for x in xs {
        if x.sort() == Sort::Real {
            sort = Sort::Real;
        }
    }
    sort
}

fn print_num(q: &Q, sort: Sort, out: &mut String) {
    let neg = q.signum() < 0;
    let a = q.abs();
    let body = if sort == Sort::Int {
        a.numer().to_string()
    } else if a.is_integer() {
        format!("{}.0", a.numer())
    } else {
        format!("(/ {}.0 {}.0)", a.numer(), a.denom())
    };
    if neg {
        let _ = write!(out, "(- {body})");
    } else {
        out.push_str(&body);
    }
}

/// A linear combination of variables plus a constant.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
struct Lin {
    coeffs: BTreeMap<(String, Sort), Q>,
    constant: Q,
}

impl Lin {
    fn constant(q: Q) -> Lin {
        Lin {
            coeffs: BTreeMap::new(),
            constant: q,
        }
    }

    fn plus(&self, other: &Lin) -> Lin {
        let mut r = self.clone();
        for (k, v) in &other.coeffs {
            let e = r.coeffs.entry(k.clone()).or_insert_with(Q::zero);
            *e = e.clone() + v.clone();
        }
        r.coeffs.retain(|_, v| !v.is_zero());
        r.constant = r.constant + other.constant.clone();
        r
    }

    fn times(&self, q: &Q) -> Lin {
        let mut r = Lin::constant(self.constant.clone() * q.clone());
        if !q.is_zero() {
            for (k, v) in &self.coeffs {
                r.coeffs.insert(k.clone(), v.clone() * q.clone());
            }
        }
        r
    }
}

/// At most this many linear forms are followed through the branches of one term (cuts are
/// optional help, so a cap costs completeness of the help, never soundness).
const MAX_FORMS: usize = 48;

/// The linear forms a numeric term takes on its branches (every `ite` followed both ways;
/// `div`/`mod` results are opaque integers).
fn forms(t: &Term, opaque: &mut BTreeMap<String, Term>) -> Vec<Lin> {
    match t {
        Term::Num(q) => vec![Lin::constant(q.clone())],
        Term::Var(n, s) => {
            let mut l = Lin::default();
            l.coeffs.insert((n.clone(), *s), Q::one());
            vec![l]
        }
        Term::Add(xs) => {
            let mut acc = vec![Lin::default()];
            for x in xs {
                let fx = forms(x, opaque);
                let mut next = Vec::new();
                'outer: for a in &acc {
                    for b in &fx {
                        next.push(a.plus(b));
                        if next.len() >= MAX_FORMS {
                            break 'outer;
                        }
                    }
                }
                acc = next;
            }
            acc
        }
        Term::Scale(q, x) => forms(x, opaque).iter().map(|l| l.times(q)).collect(),
        Term::Ite(_, a, b) => {
            let mut v = forms(a, opaque);
            v.extend(forms(b, opaque));
            v.truncate(MAX_FORMS);
            v
        }
        Term::Div(..) | Term::Mod(..) => {
            let name = format!("opaque{}", opaque.len());
            opaque.insert(name.clone(), t.clone());
            let mut l = Lin::default();
            l.coeffs.insert((name, Sort::Int), Q::one());
            vec![l]
        }
        _ => Vec::new(),
    }
}

/// Every comparison atom of a formula (inside `ite` conditions too).
fn atoms<'a>(t: &'a Term, out: &mut Vec<(&'a Term, &'a Term)>) {
    match t {
        Term::Cmp(_, a, b) => {
            out.push((a, b));
            atoms(a, out);
            atoms(b, out);
        }
        Term::Add(xs) | Term::And(xs) | Term::Or(xs) => xs.iter().for_each(|x| atoms(x, out)),
        Term::Scale(_, x) | Term::Div(x, _) | Term::Mod(x, _) | Term::Not(x) => atoms(x, out),
        Term::Ite(c, a, b) => {
            atoms(c, out);
            atoms(a, out);
            atoms(b, out);
        }
        Term::Num(_) | Term::Var(..) | Term::Bool(_) => {}
    }
}

/// The integer cuts of a formula (see the module documentation): valid facts
/// `−A ≤ ⌊u·V⌋ ∨ −A ≥ ⌊u·V⌋ + 1` for each atom `s·u·V + A ⋈ 0` with one real variable V, and the
/// definitions of the floor variables they use (`floor_u_V` with `floor ≤ u·V < floor + 1`).
pub fn cuts(formula: &Term) -> Vec<Term> {
    let mut pairs = Vec::new();
    atoms(formula, &mut pairs);
    let mut opaque = BTreeMap::new();
    let mut seen: BTreeSet<(String, BigInt, Lin)> = BTreeSet::new();
    let mut out = Vec::new();
    let mut floors: BTreeSet<(String, BigInt)> = BTreeSet::new();
    for (a, b) in pairs {
        if a.sort() == Sort::Bool {
            continue;
        }
        let fa = forms(a, &mut opaque);
        let fb = forms(b, &mut opaque);
        for la in &fa {
            for lb in &fb {
                let d = la.plus(&lb.times(&Q::int(-1)));
                let reals: Vec<_> = d.coeffs.keys().filter(|(_, s)| *s == Sort::Real).collect();
                if reals.len() != 1 {
                    continue;
                }
                let (real, _) = reals[0].clone();
                // Scale to integer coefficients.
                let mut den = BigInt::one();
                for q in d.coeffs.values().chain(std::iter::once(&d.constant)) {
                    den = num_integer::Integer::lcm(&den, &*q.denom());
                }
                let d = d.times(&Q::from_bigint(den));
                let beta = d.coeffs[&(real.clone(), Sort::Real)].numer().clone();
                let u = beta.abs();
                // −A·sign(β): the integer the floor of u·V is compared with.
                let mut rest = d.clone();
                rest.coeffs.remove(&(real.clone(), Sort::Real));
                let minus_a = if beta.is_positive() {
                    rest.times(&Q::int(-1))
                } else {
                    rest
                };
                if !seen.insert((real.clone(), u.clone(), minus_a.clone())) {
                    continue;
                }
                let floor = floor_name(&real, &u);
                floors.insert((real.clone(), u.clone()));
                let lhs = lin_term(&minus_a, &opaque);
                let fl = Term::Var(floor, Sort::Int);
                out.push(Term::Or(vec![
                    Term::le(lhs.clone(), fl.clone()),
                    Term::le(fl.plus(Term::int(1)), lhs),
                ]));
            }
        }
    }
    let mut defs: Vec<Term> = floors
        .into_iter()
        .map(|(real, u)| {
            let fl = Term::Var(floor_name(&real, &u), Sort::Int);
            let scaled = Term::real_var(&real).scale(Q::from_bigint(u));
            Term::And(vec![
                Term::le(fl.clone(), scaled.clone()),
                Term::lt(scaled, fl.plus(Term::int(1))),
            ])
        })
        .collect();
    defs.extend(out);
    defs
}

/// Where the branches of `body` change as the integer variable `var` moves: for each comparison
/// atom of `body` whose linear form has a non-zero coefficient α of `var`, the value `−rest/α` at
/// which it turns (an `abs(N − j)` turns at j = N). A minimum or maximum over `var` of a body
/// that is affine between these points is attained next to one of them or at an end.
pub fn kinks(body: &Term, var: &str) -> Vec<Term> {
    let mut pairs = Vec::new();
    atoms(body, &mut pairs);
    let mut opaque = BTreeMap::new();
    let key = (var.to_string(), Sort::Int);
    let mut out: Vec<Term> = Vec::new();
    for (a, b) in pairs {
        if a.sort() == Sort::Bool {
            continue;
        }
        for la in forms(a, &mut opaque) {
            for lb in forms(b, &mut opaque) {
                let d = la.plus(&lb.times(&Q::int(-1)));
                let Some(alpha) = d.coeffs.get(&key).cloned() else {
                    continue;
                };
                let mut rest = d.clone();
                rest.coeffs.remove(&key);
                let at = lin_term(&rest.times(&(Q::int(-1) / alpha)), &opaque);
                if !out.contains(&at) {
                    out.push(at);
                }
            }
        }
    }
    out
}

/// The term as `Σ coefficient·variable + constant` when it is linear (no `ite`, `div` or `mod`).
pub fn linear(t: &Term) -> Option<(BTreeMap<String, Q>, Q)> {
    let mut opaque = BTreeMap::new();
    let fs = forms(t, &mut opaque);
    match fs.as_slice() {
        [l] if opaque.is_empty() && !has_ite(t) => Some((
            l.coeffs
                .iter()
                .map(|((n, _), q)| (n.clone(), q.clone()))
                .collect(),
            l.constant.clone(),
        )),
        _ => None,
    }
}

fn has_ite(t: &Term) -> bool {
    match t {
        Term::Ite(..) => true,
        Term::Add(xs) => xs.iter().any(has_ite),
        Term::Scale(_, x) => has_ite(x),
        _ => false,
    }
}

fn floor_name(real: &str, u: &BigInt) -> String {
    format!("floor_{u}_{real}")
}

fn lin_term(l: &Lin, opaque: &BTreeMap<String, Term>) -> Term {
    let mut parts = Vec::new();
    for ((name, sort), q) in &l.coeffs {
        let base = opaque
            .get(name)
            .cloned()
            .unwrap_or_else(|| Term::Var(name.clone(), *sort));
        parts.push(if *q == Q::one() {
            base
        } else {
            base.scale(q.clone())
        });
    }
    if !l.constant.is_zero() || parts.is_empty() {
        parts.push(Term::Num(l.constant.clone()));
    }
    Term::Add(parts)
}

/// One satisfiability query: declarations, facts, and the negation of what is to be proven.
/// `unsat` proves the obligation.
#[derive(Clone, Debug)]
pub struct Query {
    /// A name for the file and for messages.
    pub name: String,
    /// What the query proves, in words (a comment in the file).
    pub about: String,
    /// The assertions; the obligation holds when their conjunction is unsatisfiable.
    pub assertions: Vec<Term>,
    /// The variables whose values a counterexample shows, in order.
    pub shown: Vec<String>,
    /// Cases, when the query is their disjunction: the assertions with any one case added is
    /// satisfiable exactly when the query is. Each case is its own `(check-sat)` between
    /// `(push)` and `(pop)` — one small query a solver settles at once instead of one large
    /// disjunction it splits itself — and the query holds when every case answers `unsat`.
    pub cases: Vec<Term>,
}

impl Query {
    /// The query as posed to decide it: [`script`](Query::script) without a model, one
    /// `(check-sat)` per case when it has cases.
    pub fn posed(&self) -> super::solver::Posed {
        super::solver::Posed {
            script: self.script(false),
            cases: !self.cases.is_empty(),
        }
    }

    /// The query as an SMT-LIB 2 script ending in `(check-sat)`, with the integer cuts added;
    /// `model` adds `(get-value …)` of the shown variables.
    pub fn script(&self, model: bool) -> String {
        let mut all_parts = self.assertions.clone();
        all_parts.extend(self.cases.iter().cloned());
        let all = Term::And(all_parts);
        let cuts = cuts(&all);
        let mut vars = BTreeMap::new();
        all.variables(&mut vars);
        for c in &cuts {
            c.variables(&mut vars);
        }
        let mut s = String::new();
        for line in self.about.lines() {
            let _ = writeln!(s, "; {line}");
        }
        let _ = writeln!(s, "(set-logic QF_LIRA)");
        if model {
            let _ = writeln!(s, "(set-option :produce-models true)");
        }
        for (name, sort) in &vars {
            let _ = writeln!(s, "(declare-fun {name} () {})", sort.name());
        }
        for a in &self.assertions {
            let _ = writeln!(s, "(assert {})", a.smt());
        }
        if !cuts.is_empty() {
            let _ = writeln!(
                s,
                "; integer cuts: valid facts about integers (see nimlab's prove::term)"
            );
        }
        for c in &cuts {
            let _ = writeln!(s, "(assert {})", c.smt());
        }
        if self.cases.is_empty() {
            let _ = writeln!(s, "(check-sat)");
        } else if model {
            // A model of the disjunction is a model of some case.
            let _ = writeln!(s, "(assert {})", Term::Or(self.cases.clone()).smt());
            let _ = writeln!(s, "(check-sat)");
        } else {
            let _ = writeln!(
                s,
                "; {} cases: the query holds when every one answers unsat",
                self.cases.len()
            );
            for c in &self.cases {
                let _ = writeln!(s, "(push)\n(assert {})\n(check-sat)\n(pop)", c.smt());
            }
        }
        if model {
            let shown: Vec<&str> = self
                .shown
                .iter()
                .filter(|v| vars.contains_key(*v))
                .map(String::as_str)
                .collect();
            if !shown.is_empty() {
                let _ = writeln!(s, "(get-value ({}))", shown.join(" "));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_terms_become_reals_where_reals_are_expected() {
        let t = Term::le(Term::int_var("k").scale(Q::int(2)), Term::real_var("N"));
        assert_eq!(t.smt(), "(<= (to_real (* 2 k)) N)");
        let half = Term::Num(Q::frac(-1, 2)).plus(Term::int(3));
        assert_eq!(half.smt(), "(+ (- (/ 1.0 2.0)) 3.0)");
    }

    #[test]
    fn a_mixed_atom_gets_its_cut() {
        // N ≥ 2k − 2: the cut compares 2k − 2 with ⌊N⌋.
        let atom = Term::le(
            Term::int_var("k").scale(Q::int(2)).minus(Term::int(2)),
            Term::real_var("N"),
        );
        let cs = cuts(&atom);
        assert_eq!(cs.len(), 2, "{cs:?}");
        assert!(cs[0].smt().contains("floor_1_N"), "{}", cs[0].smt());
        assert!(cs[1].smt().starts_with("(or (<="), "{}", cs[1].smt());
    }
}
