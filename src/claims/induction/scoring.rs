//! The Scoring Nim recurrence as proof obligations.
//!
//! A position is a sorted tuple of piles `p₀ ≥ p₁ ≥ … ≥ p_{n−1} ≥ 0` (a zero is no pile). From a
//! non-empty position a move lowers one pile `p_i` to any `h` with `0 ≤ h < p_i` and scores
//! `p_i − h`; the position left is the tuple with `p_i` replaced by `h`, sorted again, which for
//! sorted piles means inserting `h` at the one place `j` where it fits. The payoff obeys
//! `f_N(0) = −N` and `f_N(p) = max over moves of (p_i − h − f_N(p'))` (SPEC §1).
//!
//! The obligations, for forms given on classes of a closure (see [`super`]):
//! - **shape**: each class's positions are sorted, non-negative and in the closure;
//! - **closed**: every move from the closure stays in it (per pile `i` and insertion place `j`);
//! - **covered**: every position of the closure lies in some class;
//! - **terminal**: a class holding the empty position has the form `−N` there;
//! - **bound** (per class S, pile i, place j and target class D): no move does better than the
//!   form, `form_S ≥ (p_i − h) − form_D` whenever the position left is in D;
//! - **attained** (per class S): some move in a finite list of candidates — piles lowered to
//!   small constants, next to another pile, by one or two, or to the integers next to ±N and
//!   the even integers next to ±N — reaches the form, its target's value read from whichever
//!   class holds it.
//!
//! Bound and attained together give `form_S = max over moves`, with every target's value taken
//! from a class that holds it; by induction on the number of stones every form equals f_N on its
//! class.

use super::term::Term;
use super::translate::{GameCalls, TVal, Translator, int_list};
use super::{Class, System};
use itertools::Itertools;
use num_traits::ToPrimitive;
use rayon::prelude::*;
use std::collections::BTreeMap;

use crate::num::Q;

/// The piles of a position named as the file names them.
fn pile_vars(system: &System) -> Vec<Term> {
    system.piles.iter().map(|p| Term::int_var(p)).collect()
}

/// `p` is sorted and non-negative.
pub(super) fn sorted(p: &[Term]) -> Term {
    let mut parts: Vec<Term> = p
        .windows(2)
        .map(|w| Term::le(w[1].clone(), w[0].clone()))
        .collect();
    if let Some(last) = p.last() {
        parts.push(Term::le(Term::int(0), last.clone()));
    }
    Term::And(parts)
}

/// The position left when pile `i` of sorted `p` becomes `h`, with `h` inserted at place `j`
/// (among the other piles, in their order), and the condition that `j` is its place.
fn after_move(p: &[Term], i: usize, j: usize, h: &Term) -> (Vec<Term>, Term) {
    let others: Vec<Term> = p
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != i)
        .map(|(_, t)| t.clone())
        .collect();
    let mut t = others.clone();
    t.insert(j, h.clone());
    let mut conds = Vec::new();
    if j > 0 {
        conds.push(Term::le(h.clone(), others[j - 1].clone()));
    }
    if j < others.len() {
        conds.push(Term::le(others[j].clone(), h.clone()));
    }
    (t, Term::And(conds))
}

/// A sorting network's result for any tuple (used where a position comes from a claim), each
/// comparison the query's assumptions decide ([`Translator::decide`]) made outright.
pub(super) fn sort_terms(p: &[Term], tr: &mut Translator<'_>) -> Vec<Term> {
    let mut v = p.to_vec();
    for pass in 0..v.len() {
        for k in 0..v.len().saturating_sub(1 + pass) {
            let (a, b) = (v[k].clone(), v[k + 1].clone());
            match tr.decide(&Term::le(b.clone(), a.clone())) {
                Some(true) => {}
                Some(false) => v.swap(k, k + 1),
                None => {
                    v[k] = a.clone().max(b.clone());
                    v[k + 1] = a.min(b);
                }
            }
        }
    }
    v
}

/// The obligations of the Scoring Nim recurrence for `system`.
pub(super) fn obligations(system: &System) -> Result<Vec<super::Obligation>, String> {
    let n = system.piles.len();
    let p = pile_vars(system);
    let closure = system.closure_at(&p)?;
    let mut out = Vec::new();
    let nreal = Term::real_var("N");

    // shape
    for (ci, class) in system.classes.iter().enumerate() {
        let mut tr = system.translator(&format!("s{ci}_"));
        let (q, pos, cond) = class.instance(&mut tr, "q")?;
        let inside = Term::And(vec![sorted(&pos), system.closure_at(&pos)?]);
        let mut a = tr.facts;
        a.push(cond);
        a.push(inside.negation());
        out.push(super::Obligation::new(
            format!("shape-{}", class.slug),
            format!(
                "the positions of class {} are sorted piles of the closure",
                class.name
            ),
            a,
            q,
        ));
    }
    // closed
    for i in 0..n {
        for j in 0..n {
            let h = Term::int_var("h");
            let (t, place) = after_move(&p, i, j, &h);
            let a = vec![
                sorted(&p),
                closure.clone(),
                Term::le(Term::int(0), h.clone()),
                Term::lt(h.clone(), p[i].clone()),
                place,
                system.closure_at(&t)?.negation(),
            ];
            let mut shown = system.piles.clone();
            shown.push("h".into());
            out.push(super::Obligation::new(
                format!("closed-{i}-{j}"),
                format!("lowering pile {} keeps a position in the closure", i + 1),
                a,
                shown,
            ));
        }
    }
    // covered
    {
        let mut tr = system.translator("c_");
        let mut a = vec![sorted(&p), closure.clone()];
        for class in &system.classes {
            a.push(class.member(&mut tr, &p)?.negation());
        }
        let mut all = tr.facts;
        all.extend(a);
        out.push(super::Obligation::new(
            "covered".into(),
            "every position of the closure lies in some class".into(),
            all,
            system.piles.clone(),
        ));
    }
    // The attained obligations solve sample positions with the exact engine, the costly part
    // of posing a system: one class per task, on all cores.
    let mut attained_each: Vec<Option<super::Obligation>> = (0..system.classes.len())
        .into_par_iter()
        .map(|ci| attained(system, ci, &[]).map(Some))
        .collect::<Result<_, String>>()?;
    for (ci, s) in system.classes.iter().enumerate() {
        // terminal
        {
            let mut tr = system.translator(&format!("t{ci}_"));
            let (q, pos, cond) = s.instance(&mut tr, "q")?;
            let form = s.form_at(&mut tr, &q)?;
            let zero = Term::And(
                pos.iter()
                    .map(|x| Term::eq(x.clone(), Term::int(0)))
                    .collect(),
            );
            let mut a = tr.facts;
            a.extend([
                cond,
                zero,
                Term::eq(form, nreal.clone().negated()).negation(),
            ]);
            let mut shown = q.clone();
            shown.push("N".into());
            out.push(
                super::Obligation::new(
                    format!("terminal-{}", s.slug),
                    format!("class {} has the form −N at the empty position", s.name),
                    a,
                    shown,
                )
                .naming(vec![(ci, "q")]),
            );
        }
        // bound
        for i in 0..n {
            for (di, d) in system.classes.iter().enumerate() {
                let mut tr = system.translator(&format!("b{ci}_{i}_{di}_"));
                let (q, pos, cond) = s.instance(&mut tr, "q")?;
                let form = s.form_at(&mut tr, &q)?;
                let h = Term::int_var("h");
                let (qd, dpos, dcond) = d.instance(&mut tr, "r")?;
                let dform = d.form_at(&mut tr, &qd)?;
                let mut places = Vec::new();
                for j in 0..n {
                    let (t, place) = after_move(&pos, i, j, &h);
                    let same = Term::And(
                        t.iter()
                            .zip(&dpos)
                            .map(|(x, y)| Term::eq(x.clone(), y.clone()))
                            .collect(),
                    );
                    places.push(Term::And(vec![place, same]));
                }
                let score = pos[i].clone().minus(h.clone());
                let mut a = tr.facts;
                a.extend([
                    cond,
                    dcond,
                    Term::le(Term::int(0), h.clone()),
                    Term::lt(h.clone(), pos[i].clone()),
                    Term::Or(places),
                    Term::lt(form, score.minus(dform)),
                ]);
                let mut shown = q.clone();
                shown.extend(qd.iter().cloned());
                shown.extend(["h".to_string(), "N".to_string()]);
                out.push(
                    super::Obligation::new(
                        format!("bound-{}-pile{}-to-{}", s.slug, i + 1, d.slug),
                        format!(
                            "no move lowering pile {} from class {} to class {} beats the form",
                            i + 1,
                            s.name,
                            d.name
                        ),
                        a,
                        shown,
                    )
                    .naming(vec![(ci, "q"), (di, "r")]),
                );
            }
        }
        // attained
        out.extend(attained_each[ci].take());
    }
    Ok(out)
}

/// A size a pile may be lowered to, as a rule in the position and N: the candidates of the
/// *attained* obligation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Candidate {
    /// A constant.
    Constant(i64),
    /// Another pile plus d.
    Pile(usize, i64),
    /// The pile itself minus d.
    Less(i64),
    /// ⌊s·N⌋ + d.
    Floor(i64, i64),
    /// 2⌊s·N/2⌋ + d.
    Even(i64, i64),
    /// 2⌊(s·N + 1)/2⌋ + d: d plus the even integer nearest to s·N.
    NearEven(i64, i64),
}

/// Every candidate for lowering pile `i` of `n`.
fn candidates(n: usize, i: usize) -> Vec<Candidate> {
    let mut c: Vec<Candidate> = (0..4).map(Candidate::Constant).collect();
    for k in (0..n).filter(|&k| k != i) {
        c.extend((-2..=2).map(|d| Candidate::Pile(k, d)));
    }
    c.extend([Candidate::Less(1), Candidate::Less(2)]);
    for sign in [1, -1] {
        for d in -1..=2 {
            c.push(Candidate::Floor(sign, d));
            c.push(Candidate::Even(sign, d));
        }
        c.push(Candidate::NearEven(sign, 0));
    }
    c
}

impl Candidate {
    fn term(self, tr: &mut Translator<'_>, pos: &[Term], i: usize) -> Term {
        let n = Term::real_var("N");
        match self {
            Candidate::Constant(c) => Term::int(c),
            Candidate::Pile(k, d) => pos[k].clone().plus(Term::int(d)),
            Candidate::Less(d) => pos[i].clone().minus(Term::int(d)),
            Candidate::Floor(s, d) => tr.floor(n.scale(Q::int(s))).plus(Term::int(d)),
            Candidate::Even(s, d) => tr
                .floor(n.scale(Q::frac(s, 2)))
                .scale(Q::int(2))
                .plus(Term::int(d)),
            Candidate::NearEven(s, d) => tr
                .floor(n.scale(Q::frac(s, 2)).plus(Term::Num(Q::frac(1, 2))))
                .scale(Q::int(2))
                .plus(Term::int(d)),
        }
    }

    fn value(self, pos: &[i64], i: usize, bonus: &Q) -> i64 {
        let floor = |q: Q| q.floor().to_i64().unwrap_or(i64::MIN / 2);
        match self {
            Candidate::Constant(c) => c,
            Candidate::Pile(k, d) => pos[k] + d,
            Candidate::Less(d) => pos[i] - d,
            Candidate::Floor(s, d) => floor(bonus.clone() * Q::int(s)) + d,
            Candidate::Even(s, d) => 2 * floor(bonus.clone() * Q::frac(s, 2)) + d,
            Candidate::NearEven(s, d) => {
                2 * floor(bonus.clone() * Q::frac(s, 2) + Q::frac(1, 2)) + d
            }
        }
    }
}

/// The value of a term without variables.
pub(super) fn constant_value(t: &Term) -> Option<Q> {
    super::translate::constant(t).or_else(|| match t {
        Term::Ite(c, a, b) => {
            if constant_truth(c)? {
                constant_value(a)
            } else {
                constant_value(b)
            }
        }
        _ => None,
    })
}

/// The truth of a formula without variables.
pub(super) fn constant_truth(t: &Term) -> Option<bool> {
    Some(match t {
        Term::Bool(b) => *b,
        Term::And(xs) => xs
            .iter()
            .map(constant_truth)
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .all(|x| x),
        Term::Or(xs) => xs
            .iter()
            .map(constant_truth)
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .any(|x| x),
        Term::Not(x) => !constant_truth(x)?,
        Term::Cmp(rel, a, b) => {
            let (a, b) = (constant_value(a)?, constant_value(b)?);
            match rel {
                super::term::Rel::Eq => a == b,
                super::term::Rel::Lt => a < b,
                super::term::Rel::Le => a <= b,
            }
        }
        _ => return None,
    })
}

/// A move the attained obligation offers: lower pile `i` by rule `candidate`, the target at
/// place `place` and in class `target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Offer {
    pile: usize,
    candidate: usize,
    place: usize,
    target: usize,
}

/// The largest parameter value tried when sampling a class.
const SAMPLE_PARAM_MAX: i64 = 12;
/// The most positions sampled per class.
const SAMPLE_POSITIONS: usize = 48;
/// The most offers kept for one class.
const MAX_OFFERS: usize = 10;

/// The moves that reach the payoff on small members of class `s`, chosen with the exact engine:
/// for each sampled position and bonus, the candidate moves that are optimal there; then a few
/// offers covering every sample (greedy). The choice only decides which moves the obligation
/// offers the solver — a poor choice can make it fail, never make it prove something false.
/// `None` when the samples are not all covered by candidates (then every candidate is offered).
fn sampled_offers(system: &System, s: &Class, extra: &[(Vec<i64>, Q)]) -> Option<Vec<Offer>> {
    let n = system.piles.len();
    let k = s.params.len();
    let mut members: Vec<Vec<i64>> = Vec::new();
    // A class without parameters is its one position (the nullary product yields `[]`).
    for values in (0..k)
        .map(|_| 0..=SAMPLE_PARAM_MAX)
        .multi_cartesian_product()
    {
        let mut tr = system.translator("sample_");
        let terms: Vec<Term> = values.iter().map(|&v| Term::int(v)).collect();
        if let Ok((pos, cond)) = s.at(&mut tr, &terms)
            && constant_truth(&cond) == Some(true)
        {
            let p: Option<Vec<i64>> = pos
                .iter()
                .map(|t| constant_value(t).and_then(|q| q.to_i64()))
                .collect();
            if let Some(p) = p.filter(|p| p.iter().any(|&x| x > 0) && !members.contains(p)) {
                members.push(p);
            }
        }
    }
    members.sort_by_key(|p| p.iter().sum::<i64>());
    members.truncate(SAMPLE_POSITIONS);
    cover(system, &members, extra, n)
}

type Solved = crate::games::scoring::Solution;

/// The most stones of a position the exact engine is asked to solve here.
const MAX_SOLVED_STONES: i64 = 400;

/// The exact engine's solution of position `p` (every position below it included), when it
/// is small enough.
fn solve_position(p: &[i64]) -> Option<Solved> {
    use crate::games::scoring::{Limits, Method, nim_heaps, scoring_nim, solve};
    if p.iter().any(|&x| x < 0) || p.iter().sum::<i64>() > MAX_SOLVED_STONES {
        return None;
    }
    let heaps: Vec<u32> = p
        .iter()
        .map(|&x| u32::try_from(x).ok())
        .collect::<Option<_>>()?;
    solve(
        &scoring_nim(),
        &nim_heaps(&heaps),
        Method::Auto,
        &Limits::default(),
    )
    .ok()
}

/// f_N(p) read off a solution holding p.
fn payoff_in(solution: &Solved, p: &[i64], bonus: &Q) -> Option<Q> {
    use crate::games::scoring::nim_heaps;
    let heaps: Vec<u32> = p
        .iter()
        .map(|&x| u32::try_from(x).ok())
        .collect::<Option<_>>()?;
    Some(solution.payoff(&nim_heaps(&heaps)).ok()?.eval(bonus))
}

/// Position `p` and every position one move away (sorted), each with f_N by the exact engine;
/// `None` when p is too large to solve.
pub(super) fn exact_neighbourhood(p: &[i64], bonus: &Q) -> Option<Vec<(Vec<i64>, Q)>> {
    let solution = solve_position(p)?;
    let mut positions = vec![p.to_vec()];
    for i in 0..p.len() {
        for h in 0..p[i] {
            let mut t = p.to_vec();
            t[i] = h;
            t.sort_unstable_by(|a, b| b.cmp(a));
            if !positions.contains(&t) {
                positions.push(t);
            }
        }
    }
    positions
        .into_iter()
        .map(|t| {
            let v = payoff_in(&solution, &t, bonus)?;
            Some((t, v))
        })
        .collect()
}

fn cover(
    system: &System,
    members: &[Vec<i64>],
    extra: &[(Vec<i64>, Q)],
    n: usize,
) -> Option<Vec<Offer>> {
    let mut points: Vec<(Vec<i64>, Vec<Q>)> = members
        .iter()
        .map(|p| {
            let total: i64 = p.iter().sum();
            let bonuses = (-2 * (total + 2)..=2 * (total + 2))
                .map(|b| Q::frac(b, 2))
                .collect();
            (p.clone(), bonuses)
        })
        .collect();
    points.extend(extra.iter().map(|(p, b)| (p.clone(), vec![b.clone()])));
    let mut samples: Vec<Vec<Offer>> = Vec::new();
    // The classes holding each position reached: many bonuses and candidates reach the same few.
    let mut classes_of: BTreeMap<Vec<i64>, Vec<usize>> = BTreeMap::new();
    for (p, bonuses) in &points {
        let solution = solve_position(p)?;
        for bonus in bonuses {
            let best = payoff_in(&solution, p, bonus)?;
            let mut offers = Vec::new();
            for i in 0..n {
                for (ci, c) in candidates(n, i).into_iter().enumerate() {
                    let h = c.value(p, i, bonus);
                    if h < 0 || h >= p[i] {
                        continue;
                    }
                    let mut t: Vec<i64> = p.to_vec();
                    t.remove(i);
                    let place = t.iter().take_while(|&&x| x > h).count();
                    t.insert(place, h);
                    let Some(f) = payoff_in(&solution, &t, bonus) else {
                        continue;
                    };
                    if Q::int(p[i] - h) - f != best {
                        continue;
                    }
                    let targets = classes_of.entry(t).or_insert_with_key(|t| {
                        let tt: Vec<Term> = t.iter().map(|&x| Term::int(x)).collect();
                        (0..system.classes.len())
                            .filter(|&di| {
                                let mut tr = system.translator("sample_");
                                system.classes[di]
                                    .member(&mut tr, &tt)
                                    .ok()
                                    .and_then(|m| constant_truth(&m))
                                    == Some(true)
                            })
                            .collect()
                    });
                    offers.extend(targets.iter().map(|&di| Offer {
                        pile: i,
                        candidate: ci,
                        place,
                        target: di,
                    }));
                }
            }
            if offers.is_empty() {
                return None;
            }
            samples.push(offers);
        }
    }
    // Greedy cover: the offer in most uncovered samples first.
    let mut chosen: Vec<Offer> = Vec::new();
    let mut open: Vec<&Vec<Offer>> = samples.iter().collect();
    while !open.is_empty() && chosen.len() < MAX_OFFERS {
        let mut counts: std::collections::BTreeMap<Offer, usize> = Default::default();
        for offers in &open {
            for o in offers.iter() {
                *counts.entry(*o).or_default() += 1;
            }
        }
        let (best, _) = counts
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))?;
        chosen.push(best);
        open.retain(|offers| !offers.contains(&best));
    }
    open.is_empty().then_some(chosen)
}

/// The *attained* obligation of class `ci`, its moves chosen on samples and on the points
/// `extra` (position, bonus) where an earlier choice failed.
pub(super) fn attained(
    system: &System,
    ci: usize,
    extra: &[(Vec<i64>, Q)],
) -> Result<super::Obligation, String> {
    let s = &system.classes[ci];
    let n = system.piles.len();
    let offers: Vec<Offer> = match sampled_offers(system, s, extra) {
        Some(o) => o,
        None => (0..n)
            .flat_map(|i| {
                (0..candidates(n, i).len()).flat_map(move |c| {
                    (0..n).flat_map(move |place| {
                        (0..system.classes.len()).map(move |target| Offer {
                            pile: i,
                            candidate: c,
                            place,
                            target,
                        })
                    })
                })
            })
            .collect(),
    };
    let mut tr = system.translator(&format!("a{ci}_"));
    let (q, pos, cond) = s.instance(&mut tr, "q")?;
    let form = s.form_at(&mut tr, &q)?;
    let mut reach = Vec::new();
    for o in &offers {
        let i = o.pile;
        let h = candidates(n, i)[o.candidate].term(&mut tr, &pos, i);
        let valid = Term::And(vec![
            Term::le(Term::int(0), h.clone()),
            Term::lt(h.clone(), pos[i].clone()),
        ]);
        let score = pos[i].clone().minus(h.clone());
        let (t, place) = after_move(&pos, i, o.place, &h);
        let d = &system.classes[o.target];
        let member = d.member(&mut tr, &t)?;
        let params = d.solved(&mut tr, &t)?;
        let dform = d.form_with(&mut tr, params)?;
        reach.push(Term::And(vec![
            valid,
            place,
            member,
            Term::eq(form.clone(), score.minus(dform)),
        ]));
    }
    let nonempty = Term::Or(
        pos.iter()
            .map(|x| Term::lt(Term::int(0), x.clone()))
            .collect(),
    );
    let mut a = tr.facts;
    a.extend([cond, nonempty, Term::Or(reach).negation()]);
    let mut shown = q.clone();
    shown.push("N".into());
    Ok(super::Obligation::new(
        format!("attained-{}", s.slug),
        format!("some move from class {} reaches its form", s.name),
        a,
        shown,
    )
    .naming(vec![(ci, "q")])
    .of_attainment())
}

/// The point (position, bonus) of a failed *attained* obligation of class `ci`, read off the
/// solver's values of its parameters `q_…` and N.
pub(super) fn failed_point(
    system: &System,
    ci: usize,
    values: &[(String, Q)],
) -> Option<(Vec<i64>, Q)> {
    let s = &system.classes[ci];
    let get = |name: &str| {
        values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let params: Vec<Term> = s
        .params
        .iter()
        .map(|p| get(&format!("q_{p}")).filter(Q::is_integer).map(Term::Num))
        .collect::<Option<_>>()?;
    let bonus = get("N")?;
    let mut tr = system.translator("point_");
    let (pos, _) = s.at(&mut tr, &params).ok()?;
    let p: Vec<i64> = pos
        .iter()
        .map(|t| constant_value(t).and_then(|q| q.to_i64()))
        .collect::<Option<_>>()?;
    Some((p, bonus))
}

/// `payoff(N, p)` in a claim: the form of a class holding `p` (sorted), with the obligation that
/// `p` is in the closure recorded by the caller.
pub(super) struct ScoringCalls<'s> {
    pub(super) system: &'s System,
    /// The positions `payoff` was called at (sorted), for the closure obligations.
    pub(super) positions: std::cell::RefCell<Vec<Vec<Term>>>,
}

impl GameCalls for ScoringCalls<'_> {
    fn call(
        &self,
        name: &str,
        args: &[TVal],
        cx: &mut Translator<'_>,
    ) -> Option<Result<TVal, String>> {
        if name != self.system.game.value_function() {
            return None;
        }
        Some((|| {
            let [TVal::Num(n), list] = args else {
                return Err("payoff takes (N, position)".to_string());
            };
            let mut piles = int_list(list)?;
            if piles.len() > self.system.piles.len() {
                return Err(format!(
                    "the proof's positions have {} piles; this one has {}",
                    self.system.piles.len(),
                    piles.len()
                ));
            }
            piles.resize(self.system.piles.len(), Term::int(0));
            let t = sort_terms(&piles, cx);
            self.positions.borrow_mut().push(t.clone());
            // The first class holding t gives the value; outside every class it is a fresh
            // unknown, so a claim cannot rely on it (coverage makes some class hold). Classes
            // the assumptions rule out are left out, and one they show to hold ends the chain.
            let mut chain = Vec::new();
            let mut last = None;
            for d in &self.system.classes {
                let member = d.member(cx, &t)?;
                let decided = cx.decide(&member);
                if decided == Some(false) {
                    continue;
                }
                let params = d.solved(cx, &t)?;
                let form = d.form_with_bonus(cx, params, n.clone())?;
                if decided == Some(true) {
                    last = Some(form);
                    break;
                }
                chain.push((member, form));
            }
            let last = match last {
                Some(form) => form,
                None => cx.fresh_real("unknown"),
            };
            let value = chain
                .into_iter()
                .rev()
                .fold(last, |rest, (member, form)| Term::ite(member, form, rest));
            Ok(TVal::Num(value))
        })())
    }
}
