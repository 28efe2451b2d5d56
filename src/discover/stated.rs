//! Families of positions whose heaps are affine in one parameter, and the claims that already
//! state a closed form for them: what makes a discovered form *known* rather than new, for every
//! game whose positions are heap lists.
//!
//! A claim states a form for a family when one of its equations (an `actual = expected` check,
//! or a chain of equalities among the conjuncts of a truth-valued check) has an *explicit* side
//! (no function of any game in it) and, on another side, one of the game's stating functions
//! (the payoff, a tail, a value) of a heap list whose heaps are linear in the claim's variables.
//! That heap list states the family when some substitution v = α_v·k + β_v of its variables
//! turns it, in some order, into the family's heaps (a linear system over the rationals, solved
//! by Gaussian elimination for each order of the heaps): Prop 4.2 (ii) of Scoring Nim, stated
//! for (x, y), makes every family of two growing heaps known.

use std::collections::BTreeMap;
use std::fmt;

use super::{Duplicate, Novelty};
use crate::claims::eval::Definitions;
use crate::claims::expr::{BinOp, CmpOp, Domain, Expr, ExprKind};
use crate::claims::functions::{GROUPS, numbers::GROUP as NUMBERS};
use crate::claims::registry::{Assertion, Check, ExprCheck};
use crate::claims::{Claim, Registry};
use crate::miner::KLine;
use crate::num::{IntRange, Q};

/// One heap a·k + b of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AffineHeap {
    /// a ≥ 0.
    pub slope: i64,
    /// b.
    pub offset: i64,
}

impl AffineHeap {
    /// The heap's size at k (negative when the member does not exist).
    pub fn at(self, k: i64) -> i64 {
        self.slope * k + self.offset
    }
}

impl AffineHeap {
    /// The heap as the family parser reads it, in the parameter `param`: `2k+1`, `k-1`, `3`.
    pub fn written(self, param: &str) -> String {
        let (a, b) = (self.slope, self.offset);
        match (a, b) {
            (0, b) => format!("{b}"),
            (1, 0) => param.to_string(),
            (a, 0) => format!("{a}{param}"),
            (1, b) if b > 0 => format!("{param}+{b}"),
            (1, b) => format!("{param}{b}"),
            (a, b) if b > 0 => format!("{a}{param}+{b}"),
            (a, b) => format!("{a}{param}{b}"),
        }
    }
}

impl fmt::Display for AffineHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written("k"))
    }
}

/// A family: its heaps, largest slope (then offset) first.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HeapFamily(pub Vec<AffineHeap>);

impl HeapFamily {
    /// The family with its heaps in the canonical order.
    pub fn new(mut heaps: Vec<AffineHeap>) -> HeapFamily {
        heaps.sort_unstable_by(|x, y| y.cmp(x));
        HeapFamily(heaps)
    }

    /// The family of the heaps (slope, offset), for tests.
    #[cfg(test)]
    pub(super) fn of_pairs(pairs: &[(i64, i64)]) -> HeapFamily {
        HeapFamily::new(
            pairs
                .iter()
                .map(|&(slope, offset)| AffineHeap { slope, offset })
                .collect(),
        )
    }

    /// The least k ≥ `from` at which no heap is negative.
    pub(super) fn first_member(&self, from: i64) -> i64 {
        self.0
            .iter()
            .filter(|h| h.slope > 0)
            .map(|h| (-h.offset).div_euclid(h.slope) + i64::from((-h.offset) % h.slope != 0))
            .fold(from, i64::max)
    }

    /// The family with the parameter shifted: at k it is this family at k + c.
    pub(super) fn shifted(&self, c: i64) -> HeapFamily {
        HeapFamily::new(
            self.0
                .iter()
                .map(|h| AffineHeap {
                    slope: h.slope,
                    offset: h.offset + h.slope * c,
                })
                .collect(),
        )
    }
}

impl HeapFamily {
    /// The family as the family parser reads it, in the parameter `param`: `2m+1,2m,1`.
    pub fn written(&self, param: &str) -> String {
        let heaps: Vec<String> = self.0.iter().map(|h| h.written(param)).collect();
        heaps.join(",")
    }

    /// The heaps as lines in the parameter.
    pub fn position(&self) -> Vec<KLine> {
        self.0
            .iter()
            .map(|h| KLine {
                slope: Q::int(h.slope),
                intercept: Q::int(h.offset),
            })
            .collect()
    }
}

impl fmt::Display for HeapFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written("k"))
    }
}

/// The heaps a space offers: fixed heaps b ≥ 1 and growing heaps a·k + b, for the slopes a and
/// offsets b given.
fn heap_choices(slopes: IntRange, offsets: IntRange) -> Vec<AffineHeap> {
    let mut out = Vec::new();
    for slope in slopes.iter() {
        for offset in offsets.iter() {
            if slope > 0 || offset > 0 {
                out.push(AffineHeap { slope, offset });
            }
        }
    }
    out
}

/// Every family of `count` heaps a·k + b (a multiset, with a heap that grows) for the slopes
/// and offsets given, in order; a family that is another with k shifted — F(k) = G(k + c), c > 0,
/// with G's offsets still in the range — is left out and listed as that one's duplicate.
pub(super) fn affine_families(
    count: usize,
    slopes: IntRange,
    offsets: IntRange,
) -> (Vec<HeapFamily>, Vec<Duplicate>) {
    let choices = heap_choices(slopes, offsets);
    let mut kept = Vec::new();
    let mut duplicates = Vec::new();
    if choices.is_empty() || count == 0 {
        return (kept, duplicates);
    }
    let mut pick = vec![0usize; count];
    // Multisets of `count` choices: indices in non-decreasing order.
    'all: loop {
        let fam = HeapFamily::new(pick.iter().map(|&i| choices[i]).collect());
        if fam.0.iter().any(|h| h.slope > 0) {
            // The largest c ≥ 0 for which the family shifted by −c is still in the space.
            let c = fam
                .0
                .iter()
                .filter(|h| h.slope > 0)
                .map(|h| (h.offset - offsets.start()).div_euclid(h.slope))
                .min()
                .unwrap_or(0);
            if c > 0 {
                duplicates.push(Duplicate {
                    same_as: fam.shifted(-c).to_string(),
                    family: fam.to_string(),
                    shift: c,
                });
            } else {
                kept.push(fam);
            }
        }
        // The next multiset.
        let mut i = count;
        loop {
            if i == 0 {
                break 'all;
            }
            i -= 1;
            if pick[i] + 1 < choices.len() {
                pick[i] += 1;
                let v = pick[i];
                for p in &mut pick[i + 1..] {
                    *p = v;
                }
                break;
            }
        }
    }
    kept.sort();
    (kept, duplicates)
}

/// c₀ + Σ cᵥ·v over the rationals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Linear {
    constant: Q,
    coefficients: BTreeMap<String, Q>,
}

impl Linear {
    fn constant(c: Q) -> Linear {
        Linear {
            constant: c,
            coefficients: BTreeMap::new(),
        }
    }

    fn scaled(mut self, by: &Q) -> Linear {
        self.constant = &self.constant * by;
        for c in self.coefficients.values_mut() {
            *c = &*c * by;
        }
        self.coefficients.retain(|_, c| !c.is_zero());
        self
    }

    fn plus(mut self, other: Linear) -> Linear {
        self.constant = &self.constant + &other.constant;
        for (v, c) in other.coefficients {
            let sum = &self.coefficients.remove(&v).unwrap_or_else(Q::zero) + &c;
            if !sum.is_zero() {
                self.coefficients.insert(v, sum);
            }
        }
        self
    }

    /// The expression as c₀ + Σ cᵥ·v, when it is one (integers, variables, +, −, ·).
    pub(super) fn of(e: &Expr) -> Option<Linear> {
        match &e.kind {
            ExprKind::Int(n) => Some(Linear::constant(Q::from_bigint(n.clone()))),
            ExprKind::Var(v) => Some(Linear {
                constant: Q::zero(),
                coefficients: BTreeMap::from([(v.clone(), Q::one())]),
            }),
            ExprKind::Neg(x) => Some(Linear::of(x)?.scaled(&Q::int(-1))),
            ExprKind::Binary(BinOp::Add, a, b) => Some(Linear::of(a)?.plus(Linear::of(b)?)),
            ExprKind::Binary(BinOp::Sub, a, b) => {
                Some(Linear::of(a)?.plus(Linear::of(b)?.scaled(&Q::int(-1))))
            }
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (a, b) = (Linear::of(a)?, Linear::of(b)?);
                match (a.coefficients.is_empty(), b.coefficients.is_empty()) {
                    (true, _) => Some(b.scaled(&a.constant)),
                    (_, true) => Some(a.scaled(&b.constant)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The heap lists that claims state forms for, with the claims (`paper/id`).
pub(super) type Stated = Vec<(Vec<Linear>, String)>;

/// Every heap list a claim of `registries` states a form for (see the module doc): the heap
/// lists of the calls of `stating` (the game's functions of a position) in equations with an
/// explicit side.
pub(super) fn stated_families(registries: &[Registry], stating: &[&str]) -> Stated {
    let mut out = Stated::new();
    for reg in registries {
        for claim in &reg.claims {
            let name = format!("{}/{}", reg.paper, claim.id);
            for sides in equations(claim) {
                // An equation states a form when one of its sides is explicit (no payoff in it);
                // then each side that is a payoff (or tail, or count) of a heap list is stated.
                let defs = &reg.definitions;
                if !sides.iter().any(|e| is_explicit(e, defs, DEFINITION_DEPTH)) {
                    continue;
                }
                for side in sides {
                    if let Some(heaps) = stated_heaps(side, stating, defs) {
                        out.push((heaps, name.clone()));
                    }
                }
            }
        }
    }
    out
}

/// The equations of a claim, each as its sides: an `actual = expected` check, and each
/// conjunct of a truth-valued check that is a chain of equalities.
fn equations(claim: &Claim) -> Vec<Vec<&Expr>> {
    let checks: Vec<&ExprCheck> = match &claim.check {
        Check::Expr(c) => vec![c],
        Check::Readings(rs) => rs.iter().map(|r| &r.check).collect(),
        Check::Builtin(_) => Vec::new(),
    };
    let mut out = Vec::new();
    for c in checks {
        match &c.assertion {
            Assertion::Equal {
                actual, expected, ..
            } => out.push(vec![actual, expected]),
            Assertion::Holds(e) => conjunct_equations(e, &mut out),
        }
    }
    out
}

/// The equality chains among the conjuncts of `e`.
fn conjunct_equations<'e>(e: &'e Expr, out: &mut Vec<Vec<&'e Expr>>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            conjunct_equations(a, out);
            conjunct_equations(b, out);
        }
        ExprKind::Compare(first, rest) if rest.iter().all(|(op, _)| *op == CmpOp::Eq) => {
            let mut sides = vec![&**first];
            sides.extend(rest.iter().map(|(_, e)| e));
            out.push(sides);
        }
        _ => {}
    }
}

/// How deep calls of a claim file's own functions are followed: deeper than any file nests
/// them, and a bound on a definition that (wrongly) calls itself.
const DEFINITION_DEPTH: usize = 8;

/// The heap list of a side that is itself a call of one of `stating` (or of a definition of the
/// claim file whose body calls one, as Nim with Cash's `fmain(A, n)` calls `f1` and `f2`), each
/// heap linear: the call's one list argument, wherever it stands (a payoff's
/// `payoff(N, [x, y])` has it last, a cash threshold's `f1([1, L], n)` first).
fn stated_heaps(e: &Expr, stating: &[&str], defs: &Definitions) -> Option<Vec<Linear>> {
    let ExprKind::Call(f, args) = &e.kind else {
        return None;
    };
    if !states(f, stating, defs, DEFINITION_DEPTH) {
        return None;
    }
    let mut lists = args.iter().filter_map(|a| match &a.kind {
        ExprKind::List(heaps) => Some(heaps),
        _ => None,
    });
    let heaps = lists.next()?;
    if lists.next().is_some() {
        return None;
    }
    heaps.iter().map(Linear::of).collect()
}

/// Whether a call of `f` is a call of one of `stating`: it is one, or a definition of the
/// claim file whose body calls one (followed `depth` definitions deep).
fn states(f: &str, stating: &[&str], defs: &Definitions, depth: usize) -> bool {
    if stating.contains(&f) {
        return true;
    }
    depth > 0
        && defs
            .user_function(f)
            .is_some_and(|def| any_call(&def.body, &mut |g| states(g, stating, defs, depth - 1)))
}

/// Whether some call in `e` is of a function `pred` accepts.
fn any_call(e: &Expr, pred: &mut dyn FnMut(&str) -> bool) -> bool {
    match &e.kind {
        ExprKind::Call(f, args) => pred(f) || args.iter().any(|a| any_call(a, pred)),
        ExprKind::List(xs) => xs.iter().any(|x| any_call(x, pred)),
        ExprKind::Neg(x) | ExprKind::Not(x) => any_call(x, pred),
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) => {
            any_call(a, pred) || any_call(b, pred)
        }
        ExprKind::Compare(a, rest) => {
            any_call(a, pred) || rest.iter().any(|(_, x)| any_call(x, pred))
        }
        ExprKind::If(c, a, b) => any_call(c, pred) || any_call(a, pred) || any_call(b, pred),
        ExprKind::Aggregate(_, binders, body) => {
            any_call(body, pred)
                || binders.iter().any(|b| match &b.domain {
                    Domain::Interval { from, to, step } => {
                        any_call(from, pred)
                            || any_call(to, pred)
                            || step.as_ref().is_some_and(|s| any_call(s, pred))
                    }
                    Domain::Members(list) => any_call(list, pred),
                })
        }
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Var(_) => false,
    }
}

/// Whether `e` is a closed form: it calls no game's function (only the language's numeric
/// functions, aggregates and the claim file's own definitions whose bodies are closed forms,
/// followed `depth` definitions deep).
fn is_explicit(e: &Expr, defs: &Definitions, depth: usize) -> bool {
    let is_explicit = |e: &Expr| is_explicit(e, defs, depth);
    match &e.kind {
        ExprKind::Call(f, args) => {
            let closed = match defs.user_function(f) {
                Some(def) => depth > 0 && self::is_explicit(&def.body, defs, depth - 1),
                None => !is_game_function(f),
            };
            closed && args.iter().all(is_explicit)
        }
        ExprKind::List(xs) => xs.iter().all(is_explicit),
        ExprKind::Neg(x) | ExprKind::Not(x) => is_explicit(x),
        ExprKind::Binary(_, a, b) => is_explicit(a) && is_explicit(b),
        ExprKind::Compare(a, rest) => is_explicit(a) && rest.iter().all(|(_, x)| is_explicit(x)),
        ExprKind::If(c, a, b) => is_explicit(c) && is_explicit(a) && is_explicit(b),
        ExprKind::Let(_, v, body) => is_explicit(v) && is_explicit(body),
        ExprKind::Aggregate(_, binders, body) => {
            is_explicit(body)
                && binders.iter().all(|b| match &b.domain {
                    Domain::Interval { from, to, step } => {
                        is_explicit(from)
                            && is_explicit(to)
                            && step.as_ref().is_none_or(is_explicit)
                    }
                    Domain::Members(list) => is_explicit(list),
                })
        }
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Str(_) | ExprKind::Var(_) => true,
    }
}

/// Whether `name` is a function of some game's group (not of the numbers).
fn is_game_function(name: &str) -> bool {
    GROUPS
        .iter()
        // The groups are constants: compared by their titles, not their addresses.
        .filter(|g| g.title != NUMBERS.title)
        .flat_map(|g| g.functions.iter())
        .any(|f| f.signature().name == name)
}

/// Whether a claim states a form for `fam`: the claims whose heap lists specialise to it.
pub(super) fn novelty(fam: &HeapFamily, stated: &Stated) -> Novelty {
    let mut claims: Vec<String> = stated
        .iter()
        .filter(|(heaps, _)| specialises(heaps, fam))
        .map(|(_, name)| name.clone())
        .collect();
    claims.dedup();
    if claims.is_empty() {
        Novelty::New
    } else {
        Novelty::Known { claims }
    }
}

/// Whether some substitution v = α_v·k + β_v of the variables of `heaps` turns them, in some
/// order, into the heaps of `fam` (a zero heap of either side is no heap).
pub(super) fn specialises(heaps: &[Linear], fam: &HeapFamily) -> bool {
    let zero = |h: &Linear| h.constant.is_zero() && h.coefficients.is_empty();
    let heaps: Vec<&Linear> = heaps.iter().filter(|h| !zero(h)).collect();
    if heaps.len() != fam.0.len() || heaps.len() > 8 {
        return false;
    }
    let vars: Vec<&String> = {
        let mut v: Vec<&String> = heaps.iter().flat_map(|h| h.coefficients.keys()).collect();
        v.sort();
        v.dedup();
        v
    };
    let mut order: Vec<usize> = (0..heaps.len()).collect();
    permutations(&mut order, 0, &mut |perm| {
        // Σ_v c_{π(i)v}·α_v = a_i and c_{π(i)0} + Σ_v c_{π(i)v}·β_v = b_i, for every i.
        let rows = |rhs: &dyn Fn(usize) -> Q| -> Vec<Vec<Q>> {
            perm.iter()
                .enumerate()
                .map(|(i, &j)| {
                    let h = heaps[j];
                    let mut row: Vec<Q> = vars
                        .iter()
                        .map(|v| h.coefficients.get(*v).cloned().unwrap_or_else(Q::zero))
                        .collect();
                    row.push(rhs(i));
                    row
                })
                .collect()
        };
        let slopes = rows(&|i| Q::int(fam.0[i].slope));
        let offsets = rows(&|i| &Q::int(fam.0[i].offset) - &heaps[perm[i]].constant);
        solvable(slopes) && solvable(offsets)
    })
}

/// Calls `f` with each permutation of `order[from..]` (the prefix fixed) until it says yes.
fn permutations(order: &mut [usize], from: usize, f: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    if from == order.len() {
        return f(order);
    }
    for i in from..order.len() {
        order.swap(from, i);
        if permutations(order, from + 1, f) {
            order.swap(from, i);
            return true;
        }
        order.swap(from, i);
    }
    false
}

/// Whether the linear system with augmented rows `m` (the last entry of each row the right
/// side) has a rational solution: Gaussian elimination, then no row 0 = c with c ≠ 0.
fn solvable(mut m: Vec<Vec<Q>>) -> bool {
    let cols = m.first().map_or(0, |r| r.len() - 1);
    let mut rank = 0;
    for col in 0..cols {
        let Some(p) = (rank..m.len()).find(|&r| !m[r][col].is_zero()) else {
            continue;
        };
        m.swap(rank, p);
        let pivot_row = m[rank].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != rank && !row[col].is_zero() {
                let factor = &row[col] / &pivot_row[col];
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x = &*x - &(&factor * p);
                }
            }
        }
        rank += 1;
    }
    m[rank..].iter().all(|r| r[cols].is_zero())
}
