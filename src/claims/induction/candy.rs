//! The Candy Nim recurrence as proof obligations, on the closure of the paper's §4 families.
//!
//! **The closure.** Fix B = 2^K (the forms file's `block`). The *family* (a, x), a, x < B, is
//! the set of positions [a, B·m + x, B·m + y], y = a ⊕ x, m ≥ 0 (x and y give the same family;
//! x ≤ y is kept). Every member is a P-position: the high parts B·m cancel and a ⊕ x ⊕ y = 0.
//! Luca moves from a member and Windsor answers with a winning move (back to nim-sum 0); the
//! two moves together — a *turn* — lead to a member of a family again, as follows (Bouton's
//! rule: from nim-sum s ≠ 0 the winning moves lower a pile h to h ⊕ s where h ⊕ s < h).
//!
//! - *Within the block*: Luca lowers one low part (a, x or y) to some r below it. The high parts
//!   stay 0, m, m, so the nim-sum s is the low parts' and below B; a winning move changes one
//!   low part ℓ to ℓ ⊕ s < ℓ and leaves the family (ℓ's new low parts) at the same m. A pile's
//!   low part is its value minus its high part, so this holds for m = 0 too.
//! - *Below the block*: Luca lowers B·m + x (or B·m + y) to B·m′ + r with m′ < m, any r < B.
//!   The nim-sum is B·(m′ ⊕ m) + (a ⊕ r ⊕ y) ≥ B, whose top bit lies in the high parts, where
//!   only B·m + y has it (m′ < m differ first at a bit m has): the one winning move lowers
//!   B·m + y to a ⊕ (B·m′ + r) = B·m′ + (a ⊕ r), leaving the family (a, r) at m′. (Lowering a
//!   or B·m′ + r by the nim-sum would raise them.)
//!
//! Every Luca move is one of these (a lowered pile below B·m stays in its block or drops below
//! it), so the *turns* of a family are finitely many classes: constants within the block, and
//! for each r an affine class in (m, m′) with 0 ≤ m′ < m. The unit tests compare this expansion
//! with every move and winning reply of concrete positions.
//!
//! **The recurrence.** V(∅) = 0 and V(G) = max over turns of (Luca's candies − Windsor's
//! candies + V(G″)), Windsor choosing among his winning replies the one best for him (the
//! minimum of V(G″) − his candies; the module [`crate::games::candy`] states the game).
//!
//! **The obligations**, for forms in m on classes of the families (each a `where` on m):
//! - **covered**: every member (every family, every m ≥ 0) lies in some class (one query);
//! - **terminal**: the empty position, family (0, 0) at m = 0, has the form 0;
//! - **bound** (per class): no turn beats the form — for every turn class and every m′ allowed,
//!   form ≥ taken − (reply taken − form of the member left), the member left read from
//!   whichever class of its family holds it;
//! - **attained** (per class): some turn offered reaches the form. The turns offered are those
//!   that are best at the class's small members, solved by the exact engine, as rules: the
//!   same turn within the block, or below it to m′ = m − d or to a fixed m′. The choice decides
//!   only what the solver is asked; it cannot make a false form pass.
//!
//! Bound and attained give form = max over turns for every member but the empty one; by
//! induction on the number of candies every form equals V on its class. No result of the paper
//! is used (not even Lemma 3.2's unique reply: every winning reply is listed).

use std::collections::{BTreeMap, BTreeSet};

use num_bigint::BigInt;

use super::term::{Term, linear};
use super::translate::{GameCalls, TVal, Translator, int_list};
use super::{Discrepancy, Game, Obligation, Outcome, System};
use crate::claims::eval::{Env, Evaluator};
use crate::claims::value::Value;
use crate::games::candy::{PValues, ThreeHeapBox};
use crate::num::Q;

/// The largest block B a forms file may use (its attained obligations solve members with
/// heaps up to B·(`SAMPLE_MAX_M` + 2) exactly).
pub(super) const MAX_BLOCK: i64 = 64;

/// The attained obligations sample a class at its members with m ≤ this.
const SAMPLE_MAX_M: i64 = 12;

/// At most this many samples per class (the smallest members, and the largest one ≤
/// [`SAMPLE_MAX_M`]).
const SAMPLES: usize = 4;

/// The largest heap a refutation's confirmation solves exactly.
const CONFIRM_MAX_HEAP: i64 = 1024;

/// The closure of a block, in words.
pub(super) fn closure_text(block: u32) -> String {
    format!("[a, {block}m + x, {block}m + (a xor x)] with 0 <= a, x < {block} and m >= 0")
}

/// A family of the closure: the P-positions [a, B·m + x, B·m + y], y = a ⊕ x, x ≤ y, m ≥ 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Family {
    a: i64,
    x: i64,
    y: i64,
}

impl Family {
    fn new(a: i64, x: i64) -> Family {
        let y = a ^ x;
        Family {
            a,
            x: x.min(y),
            y: x.max(y),
        }
    }

    /// Its member at m, largest pile first.
    fn position(self, block: i64, m: i64) -> Vec<i64> {
        let mut p = vec![self.a, block * m + self.x, block * m + self.y];
        p.sort_unstable_by(|u, v| v.cmp(u));
        p
    }

    fn show(self, block: i64) -> String {
        format!("[{}, {block}m + {}, {block}m + {}]", self.a, self.x, self.y)
    }
}

/// Every family of a block.
fn families(block: i64) -> Vec<Family> {
    (0..block)
        .flat_map(|a| {
            (0..block)
                .filter(move |&x| x <= a ^ x)
                .map(move |x| Family::new(a, x))
        })
        .collect()
}

/// c_m·m + c_b·m′ + c: candies taken in a turn class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lin {
    m: i64,
    below: i64,
    c: i64,
}

impl Lin {
    fn constant(c: i64) -> Lin {
        Lin { m: 0, below: 0, c }
    }

    fn minus(self, o: Lin) -> Lin {
        Lin {
            m: self.m - o.m,
            below: self.below - o.below,
            c: self.c - o.c,
        }
    }

    fn at(self, m: i64, below: i64) -> i64 {
        self.m * m + self.below * below + self.c
    }

    fn term(self, m: &Term, below: &Term) -> Term {
        let mut t = Term::int(self.c);
        if self.m != 0 {
            t = t.plus(m.clone().scale(Q::int(self.m)));
        }
        if self.below != 0 {
            t = t.plus(below.clone().scale(Q::int(self.below)));
        }
        t
    }
}

/// A winning reply of Windsor: the candies he takes and the family left (at m, or at m′ for a
/// turn below the block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reply {
    taken: Lin,
    family: Family,
}

/// A class of turns from a family's members (see the module doc).
#[derive(Clone, Debug)]
struct Turn {
    /// Luca's move, in words.
    what: String,
    /// Whether Luca's move drops below the block, to m′ < m (a free parameter of the turn).
    below: bool,
    /// The candies Luca takes.
    taken: Lin,
    /// Every winning reply (never empty: a move from a P-position leaves an N-position).
    replies: Vec<Reply>,
}

impl Turn {
    /// The levels the turn leaves the member at m at: m itself within the block, every m′ < m
    /// below it. The level is also the value of the turn's free m′ (which a turn within the
    /// block does not read).
    fn levels(&self, m: i64) -> std::ops::Range<i64> {
        if self.below { 0..m } else { m..m + 1 }
    }
}

/// The winning replies from low parts `low` (small pile, then the two large ones) sharing
/// their high parts: each low part ℓ with ℓ ⊕ s < ℓ lowered to ℓ ⊕ s.
fn replies_within(low: [i64; 3]) -> Vec<Reply> {
    let s = low[0] ^ low[1] ^ low[2];
    (0..3)
        .filter(|&k| low[k] ^ s < low[k])
        .map(|k| {
            let mut after = low;
            after[k] ^= s;
            Reply {
                taken: Lin::constant(low[k] - after[k]),
                family: Family::new(after[0], after[1]),
            }
        })
        .collect()
}

/// The turn classes of family `f` (module doc).
fn turns(block: i64, f: Family) -> Vec<Turn> {
    let low = [f.a, f.x, f.y];
    let names = [
        "a".to_string(),
        format!("{block}m + {}", f.x),
        format!("{block}m + {}", f.y),
    ];
    let mut out = Vec::new();
    for i in 0..3 {
        if i == 2 && f.x == f.y {
            continue; // the same pile twice
        }
        for r in 0..low[i] {
            let mut after = low;
            after[i] = r;
            let to = if i == 0 {
                r.to_string()
            } else {
                format!("{block}m + {r}")
            };
            out.push(Turn {
                what: format!("pile {} lowered to {to}", names[i]),
                below: false,
                taken: Lin::constant(low[i] - r),
                replies: replies_within(after),
            });
        }
    }
    for (i, j) in [(1, 2), (2, 1)] {
        if i == 2 && f.x == f.y {
            continue;
        }
        for r in 0..block {
            out.push(Turn {
                what: format!("pile {} lowered to {block}m' + {r}, m' < m", names[i]),
                below: true,
                taken: Lin {
                    m: block,
                    below: -block,
                    c: low[i] - r,
                },
                replies: vec![Reply {
                    taken: Lin {
                        m: block,
                        below: -block,
                        c: low[j] - (f.a ^ r),
                    },
                    family: Family::new(f.a, r),
                }],
            });
        }
    }
    out
}

/// Each class's family, checked: one parameter m, piles a, B·m + x, B·m + (a ⊕ x) in any order
/// with a, x < B, and a form that does not mention a bonus.
pub(super) fn shapes(system: &System) -> Result<Vec<Family>, String> {
    let Game::CandyNim { block } = system.game else {
        return Err("not a candy-nim forms file".into());
    };
    let block = i64::from(block);
    if system.piles.len() != 3 {
        return Err(format!(
            "a candy-nim forms file names 3 piles, not {}",
            system.piles.len()
        ));
    }
    system
        .classes
        .iter()
        .map(|class| {
            let bad = |why: &str| {
                format!(
                    "class `{}`: {why}; a candy-nim class is [a, {block}m + x, {block}m + (a xor x)] \
                     with 0 <= a, x < {block} and one parameter m",
                    class.slug
                )
            };
            let [param] = class.params.as_slice() else {
                return Err(bad(&format!(
                    "it has {} parameters",
                    class.params.len()
                )));
            };
            let mut tr = system.translator("shape_");
            let (pos, _) = class
                .at(&mut tr, &[Term::int_var("param")])
                .map_err(|m| bad(&m))?;
            let mut constant = Vec::new();
            let mut large = Vec::new();
            for pile in &pos {
                let (coeffs, c) = linear(pile).ok_or_else(|| bad("a pile is not affine in m"))?;
                let c = c
                    .to_i64()
                    .filter(|c| (0..block).contains(c))
                    .ok_or_else(|| bad("a pile's constant is not a residue below the block"))?;
                match coeffs.get("param") {
                    None => constant.push(c),
                    Some(s) if *s == Q::int(block) => large.push(c),
                    Some(_) => return Err(bad(&format!("a pile's slope in {param} is not {block}"))),
                }
            }
            let ([a], [x, y]) = (constant.as_slice(), large.as_slice()) else {
                return Err(bad("it needs one constant pile and two growing ones"));
            };
            if a ^ x != *y {
                return Err(bad(&format!("{a} xor {x} is not {y}")));
            }
            let form = class
                .form_with(&mut tr, vec![Term::int_var("param")])
                .map_err(|m| bad(&m))?;
            let mut vars = BTreeMap::new();
            form.variables(&mut vars);
            if vars.contains_key("N") {
                return Err(bad("Candy Nim has no bonus N"));
            }
            Ok(Family::new(*a, *x))
        })
        .collect()
}

/// The classes of each family.
fn by_family(shapes: &[Family]) -> BTreeMap<Family, Vec<usize>> {
    let mut out: BTreeMap<Family, Vec<usize>> = BTreeMap::new();
    for (ci, f) in shapes.iter().enumerate() {
        out.entry(*f).or_default().push(ci);
    }
    out
}

/// The value of the member of family `f` at `mu`: the form of the first of its classes holding
/// it, or a fresh unknown outside them all (coverage rules that out).
fn value_term(
    system: &System,
    classes: &BTreeMap<Family, Vec<usize>>,
    f: Family,
    mu: &Term,
    tr: &mut Translator<'_>,
) -> Result<Term, String> {
    let mut chain = Vec::new();
    for &ci in classes.get(&f).map(Vec::as_slice).unwrap_or_default() {
        let class = &system.classes[ci];
        let (_, cond) = class.at(tr, std::slice::from_ref(mu))?;
        let form = class.form_with(tr, vec![mu.clone()])?;
        if cond == Term::Bool(true) {
            // A class without `where` holds every member: the classes after it are never read.
            return Ok(chain
                .into_iter()
                .rev()
                .fold(form, |rest, (cond, form)| Term::ite(cond, form, rest)));
        }
        chain.push((cond, form));
    }
    let unknown = tr.fresh_int("unknown");
    Ok(chain
        .into_iter()
        .rev()
        .fold(unknown, |rest, (cond, form)| Term::ite(cond, form, rest)))
}

/// A variable named `name` equal to `value` (of its sort), and the assertion that says so: the
/// class's own form, stated once and read by every case.
fn named(name: &str, value: Term) -> (Term, Term) {
    let var = match value.sort() {
        super::term::Sort::Real => Term::real_var(name),
        _ => Term::int_var(name),
    };
    (var.clone(), Term::eq(var, value))
}

/// Luca's candies minus Windsor's (their high parts cancel: a constant) plus the value left,
/// for the worst of Windsor's replies for Luca. Each turn states the values it reads itself:
/// values stated once for all cases would be split on in every case.
fn turn_value(
    system: &System,
    classes: &BTreeMap<Family, Vec<usize>>,
    turn: &Turn,
    m: &Term,
    below: &Term,
    tr: &mut Translator<'_>,
) -> Result<Term, String> {
    let mu = if turn.below { below } else { m };
    let mut worst: Option<Term> = None;
    for r in &turn.replies {
        let left = value_term(system, classes, r.family, mu, tr)?;
        let after = turn.taken.minus(r.taken).term(m, below).plus(left);
        worst = Some(match worst {
            None => after,
            Some(w) => w.min(after),
        });
    }
    worst.ok_or_else(|| format!("{}: no winning reply", turn.what))
}

/// A turn offered to an *attained* obligation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Offer {
    /// Turn k (within the block).
    Within(usize),
    /// Turn k below the block, to m′ = m − d.
    Back(usize, i64),
    /// Turn k below the block, to a fixed m′.
    At(usize, i64),
}

/// Whether `class` holds its member at m (its `where`), by the claims evaluator.
fn holds_at(system: &System, ci: usize, m: i64) -> bool {
    let class = &system.classes[ci];
    let Some(filter) = &class.filter else {
        return true;
    };
    let mut engines = crate::claims::engines::Engines::new();
    let mut ev = Evaluator::new(&system.definitions, &mut engines);
    let mut env: Env = vec![(class.params[0].as_str(), Value::Num(Q::int(m)))];
    matches!(ev.eval(filter, &mut env), Ok(Value::Bool(true)))
}

/// The exact values of every member with heaps up to `max_heap`.
fn exact_table(max_heap: i64) -> Result<ThreeHeapBox, String> {
    let max_heap = u32::try_from(max_heap).map_err(|_| "heap too large".to_string())?;
    ThreeHeapBox::solve(max_heap, u64::MAX).map_err(|e| e.to_string())
}

/// V of family `f`'s member at m, from `table`.
fn exact(table: &ThreeHeapBox, block: i64, f: Family, m: i64) -> Option<i64> {
    let p: Vec<u32> = f
        .position(block, m)
        .iter()
        .map(|&h| u32::try_from(h).ok())
        .collect::<Option<_>>()?;
    table.p_value(&p)
}

/// The turns best at the class's sampled members (module doc).
fn sampled_offers(
    system: &System,
    ci: usize,
    block: i64,
    turns: &[Turn],
    table: &ThreeHeapBox,
) -> BTreeSet<Offer> {
    let samples: Vec<i64> = {
        let all: Vec<i64> = (0..=SAMPLE_MAX_M)
            .filter(|&m| holds_at(system, ci, m))
            .collect();
        let mut s: Vec<i64> = all.iter().copied().take(SAMPLES - 1).collect();
        s.extend(all.last().copied());
        s.dedup();
        s
    };
    let mut offers = BTreeSet::new();
    for m in samples {
        let mut best: Option<i64> = None;
        let mut winners = Vec::new();
        for (k, turn) in turns.iter().enumerate() {
            for at in turn.levels(m) {
                let worst = turn
                    .replies
                    .iter()
                    .map(|r| Some(exact(table, block, r.family, at)? - r.taken.at(m, at)))
                    .collect::<Option<Vec<i64>>>()
                    .and_then(|v| v.into_iter().min());
                let Some(worst) = worst else { continue };
                let v = turn.taken.at(m, at) + worst;
                if best.is_none_or(|b| v > b) {
                    best = Some(v);
                    winners.clear();
                }
                if best == Some(v) {
                    winners.push((k, turn.below.then_some((m, at))));
                }
            }
        }
        for (k, below) in winners {
            match below {
                None => {
                    offers.insert(Offer::Within(k));
                }
                Some((m, mb)) => {
                    offers.insert(Offer::Back(k, m - mb));
                    offers.insert(Offer::At(k, mb));
                }
            }
        }
    }
    if offers.is_empty() {
        // No member to sample: every turn within the block, and the ends of those below it.
        for (k, turn) in turns.iter().enumerate() {
            if turn.below {
                offers.insert(Offer::Back(k, 1));
                offers.insert(Offer::At(k, 0));
            } else {
                offers.insert(Offer::Within(k));
            }
        }
    }
    offers
}

/// The obligations of the Candy Nim recurrence for `system` (module doc).
pub(super) fn obligations(system: &System, block: u32) -> Result<Vec<Obligation>, String> {
    use rayon::prelude::*;
    let block = i64::from(block);
    let shapes = shapes(system)?;
    let classes = by_family(&shapes);
    if let Some(f) = families(block)
        .into_iter()
        .find(|f| !classes.contains_key(f))
    {
        return Err(format!(
            "no class covers the family {} (the closure is every family of the block)",
            f.show(block)
        ));
    }
    let mut out = Vec::new();
    // covered
    {
        let mut tr = system.translator("c_");
        let mut gaps = Vec::new();
        for (k, (_, members)) in classes.iter().enumerate() {
            let mu = Term::int_var(&format!("c{k}_m"));
            let mut outside = vec![Term::le(Term::int(0), mu.clone())];
            for &ci in members {
                let (_, cond) = system.classes[ci].at(&mut tr, std::slice::from_ref(&mu))?;
                outside.push(cond.negation());
            }
            gaps.push(Term::And(outside));
        }
        let mut a = tr.facts;
        a.push(Term::Or(gaps));
        out.push(Obligation::new(
            "covered".into(),
            "every member of every family of the closure lies in some class".into(),
            a,
            Vec::new(),
        ));
    }
    // terminal
    {
        let mut tr = system.translator("t_");
        let zero = Term::int(0);
        let mut wrong = Vec::new();
        for &ci in &classes[&Family::new(0, 0)] {
            let class = &system.classes[ci];
            let (_, cond) = class.at(&mut tr, std::slice::from_ref(&zero))?;
            let form = class.form_with(&mut tr, vec![zero.clone()])?;
            wrong.push(Term::And(vec![
                cond,
                Term::eq(form, zero.clone()).negation(),
            ]));
        }
        let mut a = tr.facts;
        a.push(Term::Or(wrong));
        out.push(Obligation::new(
            "terminal".into(),
            "the empty position has the form 0".into(),
            a,
            Vec::new(),
        ));
    }
    let table = exact_table(block * (SAMPLE_MAX_M + 2))?;
    let per_class: Vec<[Obligation; 2]> = (0..system.classes.len())
        .into_par_iter()
        .map(|ci| class_obligations(system, &classes, ci, shapes[ci], block, &table))
        .collect::<Result<_, String>>()?;
    out.extend(per_class.into_iter().flatten());
    Ok(out)
}

/// A class's *bound* and *attained* obligations.
fn class_obligations(
    system: &System,
    classes: &BTreeMap<Family, Vec<usize>>,
    ci: usize,
    f: Family,
    block: i64,
    table: &ThreeHeapBox,
) -> Result<[Obligation; 2], String> {
    let s = &system.classes[ci];
    let turns = turns(block, f);
    // bound
    let bound = {
        let mut tr = system.translator(&format!("b{ci}_"));
        let (q, _, cond) = s.instance(&mut tr, "q")?;
        let m = Term::int_var(&q[0]);
        let (form, form_fact) = named("form", s.form_at(&mut tr, &q)?);
        let mut beaten = Vec::new();
        for (k, turn) in turns.iter().enumerate() {
            let below = Term::int_var(&format!("lower{k}"));
            let value = turn_value(system, classes, turn, &m, &below, &mut tr)?;
            let mut case = Vec::new();
            if turn.below {
                case.push(Term::le(Term::int(0), below.clone()));
                case.push(Term::lt(below, m.clone()));
            }
            case.push(Term::lt(form.clone(), value));
            beaten.push(Term::And(case));
        }
        let mut a = tr.facts;
        a.extend([cond, Term::le(Term::int(0), m), form_fact]);
        Obligation::new(
            format!("bound-{}", s.slug),
            format!("no turn from class {} beats its form", s.name),
            a,
            q.clone(),
        )
        .with_cases(beaten)
        .naming(vec![(ci, "q")])
    };
    // attained
    let attained = {
        let offers = sampled_offers(system, ci, block, &turns, table);
        let mut tr = system.translator(&format!("a{ci}_"));
        let (q, _, cond) = s.instance(&mut tr, "q")?;
        let m = Term::int_var(&q[0]);
        let (form, form_fact) = named("form", s.form_at(&mut tr, &q)?);
        let mut missed = Vec::new();
        for offer in &offers {
            let (k, below, valid) = match *offer {
                Offer::Within(k) => (k, m.clone(), Term::Bool(true)),
                Offer::Back(k, d) => {
                    let below = m.clone().minus(Term::int(d));
                    (k, below.clone(), Term::le(Term::int(0), below))
                }
                Offer::At(k, c) => (k, Term::int(c), Term::lt(Term::int(c), m.clone())),
            };
            let value = turn_value(system, classes, &turns[k], &m, &below, &mut tr)?;
            missed.push(valid.implies(Term::eq(value, form.clone()).negation()));
        }
        let mut a = tr.facts;
        a.extend([cond, Term::le(Term::int(0), m.clone()), form_fact]);
        if f == Family::new(0, 0) {
            a.push(Term::le(Term::int(1), m)); // the empty position has no turn
        }
        a.extend(missed);
        Obligation::new(
            format!("attained-{}", s.slug),
            format!("some turn from class {} reaches its form", s.name),
            a,
            q,
        )
        .naming(vec![(ci, "q")])
        .of_attainment()
    };
    Ok([bound, attained])
}

/// The first class of family `f` holding its member at m, and its form's value there.
fn form_of(system: &System, shapes: &[Family], f: Family, m: i64) -> Option<(usize, Q)> {
    let ci = (0..system.classes.len()).find(|&ci| shapes[ci] == f && holds_at(system, ci, m))?;
    let (_, form) = system.classes[ci].value_at(&system.definitions, &[m], &Q::zero())?;
    Some((ci, form))
}

/// A refutation checked against the exact engine: the member the counterexample names and
/// every member one turn away, the first whose form differs from V. An *attained* obligation
/// that fails where every form is right only shows that the turns offered were too few:
/// UNKNOWN.
pub(super) fn confirm(
    system: &System,
    block: u32,
    outcome: Outcome,
    obligations: &[Obligation],
) -> Outcome {
    let Outcome::Refuted {
        obligation,
        about,
        values,
        ..
    } = outcome
    else {
        return outcome;
    };
    let block = i64::from(block);
    let named = obligations
        .iter()
        .find(|o| o.query.name == obligation)
        .and_then(|o| {
            let &(ci, prefix) = o.members.first()?;
            let name = format!("{prefix}_{}", system.classes[ci].params[0]);
            let m = values.iter().find(|(n, _)| *n == name)?.1.to_i64()?;
            Some((o.attained, ci, m))
        });
    let checked = named.and_then(|(attained, ci, m)| {
        let shapes = shapes(system).ok()?;
        let f = shapes[ci];
        if block * (m + 1) > CONFIRM_MAX_HEAP || m < 0 {
            return None;
        }
        let table = exact_table(block * (m + 1)).ok()?;
        let mut members = vec![(f, m)];
        for turn in turns(block, f) {
            for at in turn.levels(m) {
                members.extend(turn.replies.iter().map(|r| (r.family, at)));
            }
        }
        for (g, at) in members {
            let (di, form) = form_of(system, &shapes, g, at)?;
            let v = exact(&table, block, g, at)?;
            if form != Q::int(v) {
                return Some((
                    attained,
                    Some(Discrepancy {
                        class: system.classes[di].name.clone(),
                        position: g.position(block, at),
                        bonus: None,
                        form,
                        exact: Q::int(v),
                    }),
                ));
            }
        }
        Some((attained, None))
    });
    match checked {
        Some((true, None)) => {
            let shown: Vec<String> = values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            Outcome::Unknown {
                obligation,
                why: format!(
                    "no turn offered reaches the form at {}, where every form agrees with the \
                     exact engine: the turns offered are too few",
                    shown.join(", ")
                ),
            }
        }
        other => Outcome::Refuted {
            obligation,
            about,
            values,
            confirmed: other.and_then(|(_, d)| d).map(Box::new),
        },
    }
}

/// Whether claim pile `pile` can equal a class pile with slope `slope` (0 or B) and constant
/// `c`: a cheap filter on the terms a claim's `candy_v` becomes (a kept case is decided by the
/// solver).
fn may_equal(pile: &Term, slope: i64, c: i64, block: i64) -> bool {
    let Some((coeffs, k)) = linear(pile) else {
        return true;
    };
    let Some(k) = k.to_i64() else { return true };
    let blockq = Q::int(block);
    if coeffs.values().all(|q| q.is_zero()) {
        return if slope == 0 {
            k == c
        } else {
            k >= c && (k - c) % block == 0
        };
    }
    let multiples = coeffs
        .values()
        .all(|q| q.is_integer() && (q.clone() / blockq.clone()).is_integer());
    !multiples || (k - c).rem_euclid(block) == 0
}

/// `candy_v(position)` in a claim: the form of a class holding the position (its piles in any
/// order), or a fresh unknown outside every class.
pub(super) struct CandyCalls<'s> {
    pub(super) system: &'s System,
}

impl GameCalls for CandyCalls<'_> {
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
            let Game::CandyNim { block } = self.system.game else {
                return Err("not a candy-nim forms file".into());
            };
            let block = i64::from(block);
            let [list] = args else {
                return Err("candy_v takes one position".to_string());
            };
            let mut piles = int_list(list)?;
            if piles.len() > 3 {
                return Err(format!(
                    "the proof's positions have 3 piles; this one has {}",
                    piles.len()
                ));
            }
            piles.resize(3, Term::int(0));
            let shapes = shapes(self.system)?;
            let mut chain = Vec::new();
            for (ci, f) in shapes.iter().enumerate() {
                let class = &self.system.classes[ci];
                let slots = [(0, f.a), (block, f.x), (block, f.y)];
                for perm in [
                    [0, 1, 2],
                    [0, 2, 1],
                    [1, 0, 2],
                    [1, 2, 0],
                    [2, 0, 1],
                    [2, 1, 0],
                ] {
                    if !(0..3).all(|s| may_equal(&piles[perm[s]], slots[s].0, slots[s].1, block)) {
                        continue;
                    }
                    let grow = piles[perm[1]].clone().minus(Term::int(f.x));
                    let mu = Term::Div(Box::new(grow), BigInt::from(block));
                    let (_, cond) = class.at(cx, std::slice::from_ref(&mu))?;
                    let at =
                        |s: usize| Term::int(slots[s].1).plus(mu.clone().scale(Q::int(slots[s].0)));
                    let member = Term::And(vec![
                        Term::le(Term::int(0), mu.clone()),
                        Term::eq(piles[perm[0]].clone(), at(0)),
                        Term::eq(piles[perm[1]].clone(), at(1)),
                        Term::eq(piles[perm[2]].clone(), at(2)),
                        cond,
                    ]);
                    let form = class.form_with(cx, vec![mu])?;
                    chain.push((member, form));
                }
            }
            let unknown = cx.fresh_int("unknown");
            Ok(TVal::Num(
                chain
                    .into_iter()
                    .rev()
                    .fold(unknown, |rest, (member, form)| {
                        Term::ite(member, form, rest)
                    }),
            ))
        })())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Luca move from the member at m, each with the set of Windsor's winning replies
    /// (candies taken, position left sorted), by brute force on the heaps.
    /// Luca's candies, with each winning reply's candies and the position it leaves.
    type Turns = BTreeSet<(i64, Vec<(i64, Vec<i64>)>)>;

    fn brute_turns(block: i64, f: Family, m: i64) -> Turns {
        let piles = [f.a, block * m + f.x, block * m + f.y];
        let mut out = BTreeSet::new();
        for i in 0..3 {
            for h in 0..piles[i] {
                let mut after = piles;
                after[i] = h;
                let s = after[0] ^ after[1] ^ after[2];
                let mut replies: Vec<(i64, Vec<i64>)> = (0..3)
                    .filter(|&k| after[k] ^ s < after[k])
                    .map(|k| {
                        let mut left = after;
                        left[k] ^= s;
                        let mut sorted = left.to_vec();
                        sorted.sort_unstable_by(|u, v| v.cmp(u));
                        (after[k] - left[k], sorted)
                    })
                    .collect();
                replies.sort();
                replies.dedup();
                out.insert((piles[i] - h, replies));
            }
        }
        out
    }

    /// The same from the turn classes, every m′ < m of the classes below the block.
    fn expanded_turns(block: i64, f: Family, m: i64) -> Turns {
        let mut out = BTreeSet::new();
        for turn in turns(block, f) {
            for at in turn.levels(m) {
                let mut replies: Vec<(i64, Vec<i64>)> = turn
                    .replies
                    .iter()
                    .map(|r| (r.taken.at(m, at), r.family.position(block, at)))
                    .collect();
                replies.sort();
                replies.dedup();
                out.insert((turn.taken.at(m, at), replies));
            }
        }
        out
    }

    #[test]
    fn turn_classes_are_exactly_the_moves_and_winning_replies() {
        for block in [2, 4, 8] {
            for f in families(block) {
                for m in 0..4 {
                    assert_eq!(
                        expanded_turns(block, f, m),
                        brute_turns(block, f, m),
                        "block {block}, family {f:?}, m = {m}"
                    );
                }
            }
        }
    }

    #[test]
    fn families_cover_each_block_once() {
        for block in [2i64, 4, 8, 32] {
            let fams = families(block);
            // (a, x) and (a, a ⊕ x) are one family: for a ≥ 1 half of the B values of x, for
            // a = 0 all of them (x = a ⊕ x).
            assert_eq!(fams.len() as i64, block + (block - 1) * block / 2);
            let mut seen = BTreeSet::new();
            for f in &fams {
                assert_eq!(f.a ^ f.x, f.y);
                assert!(seen.insert(f.position(block, 3)), "{f:?} twice");
            }
        }
    }
}
