//! One-parameter families of piecewise-linear functions k ↦ f_k(N) whose breakpoints are a
//! finite union of arithmetic progressions in N — the general shape behind the fixed templates
//! of [`super::pwl_form`](mod@super::pwl_form) (a zigzag is one progression; a zigzag whose
//! tails depend on k mod 3 is a few).
//!
//! **One member.** A continuous PWL function is its breakpoints (x_i, y_i) and two tail slopes.
//! When it is symmetric about c (breakpoints and values mirrored, tail slopes opposite),
//! f(N) = g(|N − c|) and only g on [0, ∞) is described: the point (0, f(c)) and the breakpoints
//! beyond c. The points are cut into *progressions*: the gaps x_{i+1} − x_i fall into maximal
//! runs of equal gaps, and each run is one progression (start, step, end); a point where two runs
//! meet goes to the run on its right, a rule that does not depend on the runs' lengths, so it cuts
//! every member of a family alike. Along a progression the values repeat a cycle (its least
//! period q); a progression of one point is allowed (an isolated breakpoint).
//!
//! **The family.** A member's *signature* is what does not vary continuously: symmetric or not,
//! the number of progressions, and for each whether it is a single point, its cycle length q and
//! the phase (count − 1) mod q at which it ends. Every other number (centre, tail slopes, starts,
//! steps, ends, values) must be a line in k along each residue class of k mod P, from some k₀
//! on, with one signature per class. P is the least period found, k₀ the least start for it; each
//! class needs two members to fix its lines and the family one more to confirm them.
//!
//! **The closed form.** Between consecutive points the function is the line through them, and
//! along a progression of cycle q and step d it is periodic in N with period q·d, so f is one
//! `if … then … else` chain over the intervals of N with a sawtooth (`%`, `abs`) on each
//! progression ([`ProgressionFamily::expr`]). Every member of the data from k₀ on is rebuilt from
//! the form ([`Shape::to_pwl`]) and compared exactly (PWL equality is structural); what holds on
//! the data is OBSERVED, and callers re-verify beyond it.
//!
//! **Anomalies.** A member that breaks a pattern its neighbours follow is found by leaving one
//! member out: when the others fit from an earlier k₀ than all of them do, and that member
//! differs from the form, it is reported with the first N where it differs.

use std::fmt;

use serde::Serialize;

use crate::claims::expr::{BinOp, CmpOp, Expr};
use crate::num::{Pwl, Q};

/// A number along a residue class of the parameter: slope·k + intercept, k the parameter itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct KLine {
    /// The slope in k.
    pub slope: Q,
    /// The value at k = 0.
    pub intercept: Q,
}

impl KLine {
    /// The constant `c`.
    pub fn constant(c: Q) -> KLine {
        KLine {
            slope: Q::zero(),
            intercept: c,
        }
    }

    /// The value at k.
    pub fn at(&self, k: i64) -> Q {
        &(&self.slope * &Q::int(k)) + &self.intercept
    }

    fn sub(&self, other: &KLine) -> KLine {
        KLine {
            slope: &self.slope - &other.slope,
            intercept: &self.intercept - &other.intercept,
        }
    }

    fn scale(&self, q: &Q) -> KLine {
        KLine {
            slope: &self.slope * q,
            intercept: &self.intercept * q,
        }
    }

    fn is_zero(&self) -> bool {
        self.slope.is_zero() && self.intercept.is_zero()
    }

    /// `self / other` when it is the same number for every k (`other` not identically 0).
    fn constant_ratio(&self, other: &KLine) -> Option<Q> {
        if other.is_zero() || &self.slope * &other.intercept != &self.intercept * &other.slope {
            return None;
        }
        Some(if other.slope.is_zero() {
            &self.intercept / &other.intercept
        } else {
            &self.slope / &other.slope
        })
    }

    /// The line in `param` as an expression: `2 * k - 1`, `k`, `-3`, `k / 2 + 1`.
    pub fn expr(&self, param: &str) -> Expr {
        if self.slope.is_zero() {
            return Expr::rational(&self.intercept);
        }
        let term = times(&self.slope, Expr::var(param));
        add_q(term, &self.intercept)
    }
}

impl fmt::Display for KLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::affine_text(&self.slope, &self.intercept, "k"))
    }
}

/// A progression of breakpoints with more than one point: step and end.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Run<T> {
    /// The distance between consecutive points.
    pub step: T,
    /// The last point.
    pub end: T,
    /// (number of points − 1) mod the cycle length: which value of the cycle the end takes.
    pub end_phase: usize,
}

/// Points start, start + step, …, end with values cycling through `values`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Progression<T> {
    /// The first point.
    pub start: T,
    /// Step and end; `None` for a single point.
    pub run: Option<Run<T>>,
    /// The cycle of values from the first point (its least period).
    pub values: Vec<T>,
}

/// A PWL function as progressions of breakpoints and two tails, with numbers of type `T`
/// (exact numbers for one member, [`KLine`]s for a residue class of a family).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Shape<T> {
    /// The centre c of a symmetric function, f(N) = g(|N − c|); the progressions are then
    /// those of g, in |N − c|, the first starting at 0.
    pub centre: Option<T>,
    /// The slope left of every breakpoint (for a symmetric function, minus the right one).
    pub left_slope: T,
    /// The slope right of every breakpoint.
    pub right_slope: T,
    /// For a line (no breakpoints, no progressions): its value at N = 0.
    pub intercept: Option<T>,
    /// The progressions, in increasing N.
    pub progressions: Vec<Progression<T>>,
}

/// What of a shape does not vary continuously with k.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Signature {
    symmetric: bool,
    line: bool,
    progressions: Vec<(Option<usize>, usize)>,
}

impl<T> Shape<T> {
    fn signature(&self) -> Signature {
        Signature {
            symmetric: self.centre.is_some(),
            line: self.intercept.is_some(),
            progressions: self
                .progressions
                .iter()
                .map(|p| (p.run.as_ref().map(|r| r.end_phase), p.values.len()))
                .collect(),
        }
    }

    /// Every number, in one fixed order ([`Shape::map`] visits them in the same order).
    fn numbers(&self) -> Vec<&T> {
        let mut out: Vec<&T> = self.centre.iter().collect();
        out.push(&self.left_slope);
        out.push(&self.right_slope);
        out.extend(self.intercept.iter());
        for p in &self.progressions {
            out.push(&p.start);
            if let Some(r) = &p.run {
                out.push(&r.step);
                out.push(&r.end);
            }
            out.extend(p.values.iter());
        }
        out
    }

    /// The same shape with every number replaced by `f` of it, in the order of `numbers`.
    fn map<U>(&self, f: &mut impl FnMut(&T) -> U) -> Shape<U> {
        let centre = self.centre.as_ref().map(&mut *f);
        let left_slope = f(&self.left_slope);
        let right_slope = f(&self.right_slope);
        let intercept = self.intercept.as_ref().map(&mut *f);
        let progressions = self
            .progressions
            .iter()
            .map(|p| {
                let start = f(&p.start);
                let run = p.run.as_ref().map(|r| Run {
                    step: f(&r.step),
                    end: f(&r.end),
                    end_phase: r.end_phase,
                });
                Progression {
                    start,
                    run,
                    values: p.values.iter().map(&mut *f).collect(),
                }
            })
            .collect();
        Shape {
            centre,
            left_slope,
            right_slope,
            intercept,
            progressions,
        }
    }
}

/// Most points one progression of a rebuilt member may have: a form evaluated far outside its
/// data could ask for any number of them.
const MAX_POINTS: usize = 1 << 16;

impl Shape<Q> {
    /// The shape of `f`: symmetric about its centre when `symmetric` is asked for and `f` is.
    pub fn of(f: &Pwl, symmetric: bool) -> Shape<Q> {
        let bps = f.breakpoints();
        if bps.is_empty() {
            return Shape {
                centre: None,
                left_slope: f.left_slope().clone(),
                right_slope: f.right_slope().clone(),
                intercept: Some(f.eval(&Q::zero())),
                progressions: Vec::new(),
            };
        }
        let centre = symmetric.then(|| symmetry_centre(f)).flatten();
        let points: Vec<(Q, Q)> = match &centre {
            Some(c) => std::iter::once((Q::zero(), f.eval(c)))
                .chain(
                    bps.iter()
                        .filter(|(x, _)| x > c)
                        .map(|(x, y)| (x - c, y.clone())),
                )
                .collect(),
            None => bps.to_vec(),
        };
        Shape {
            centre,
            left_slope: f.left_slope().clone(),
            right_slope: f.right_slope().clone(),
            intercept: None,
            progressions: progressions(&points),
        }
    }

    /// The function the shape describes; `None` when the numbers describe none (a progression
    /// whose end is not start + a whole number of steps, ending at another phase of its cycle,
    /// or points out of order) — what a form gives far from where it was found.
    pub fn to_pwl(&self) -> Option<Pwl> {
        if let Some(c) = &self.intercept {
            return Some(Pwl::linear(self.left_slope.clone(), c.clone()));
        }
        let mut points: Vec<(Q, Q)> = Vec::new();
        for p in &self.progressions {
            let q = p.values.len();
            if q == 0 {
                return None;
            }
            match &p.run {
                None => points.push((p.start.clone(), p.values[0].clone())),
                Some(r) => {
                    if r.step <= Q::zero() {
                        return None;
                    }
                    let count = (&(&r.end - &p.start) / &r.step) + Q::one();
                    let count = count.is_integer().then(|| count.to_i64()).flatten()?;
                    let count = usize::try_from(count).ok().filter(|&c| c >= 2)?;
                    if count > MAX_POINTS || (count - 1) % q != r.end_phase {
                        return None;
                    }
                    for i in 0..count {
                        let x = &p.start + &(&r.step * &Q::int(i as i64));
                        points.push((x, p.values[i % q].clone()));
                    }
                }
            }
        }
        match &self.centre {
            None => {
                Pwl::from_points(self.left_slope.clone(), points, self.right_slope.clone()).ok()
            }
            Some(c) => {
                if points.first().is_none_or(|(m, _)| !m.is_zero()) {
                    return None;
                }
                let mut full: Vec<(Q, Q)> = points[1..]
                    .iter()
                    .rev()
                    .map(|(m, y)| (c - m, y.clone()))
                    .collect();
                full.push((c.clone(), points[0].1.clone()));
                full.extend(points[1..].iter().map(|(m, y)| (c + m, y.clone())));
                Pwl::from_points(-self.right_slope.clone(), full, self.right_slope.clone()).ok()
            }
        }
    }
}

/// The centre of symmetry of `f`, when its breakpoints and values mirror about the midpoint of
/// the outer ones and its tail slopes are opposite.
fn symmetry_centre(f: &Pwl) -> Option<Q> {
    let bps = f.breakpoints();
    let (first, last) = (&bps.first()?.0, &bps.last()?.0);
    if *f.left_slope() != -f.right_slope().clone() {
        return None;
    }
    let twice = first + last;
    let mirrored = bps
        .iter()
        .zip(bps.iter().rev())
        .all(|((x, y), (x2, y2))| (x + x2) == twice && y == y2);
    mirrored.then(|| &twice / &Q::int(2))
}

/// The points cut into progressions: maximal runs of equal gaps, a point shared by two runs
/// going to the one on its right.
fn progressions(points: &[(Q, Q)]) -> Vec<Progression<Q>> {
    let n = points.len();
    let mut out = Vec::new();
    let mut a = 0;
    while a < n {
        // The run of equal gaps from a, and where it ends.
        let mut b = a;
        if a + 1 < n {
            let gap = &points[a + 1].0 - &points[a].0;
            b = a + 1;
            while b + 1 < n && &points[b + 1].0 - &points[b].0 == gap {
                b += 1;
            }
        }
        // The end point b goes to the next run unless it is the last point.
        let last = if b + 1 < n && b > a { b - 1 } else { b };
        out.push(progression(&points[a..=last]));
        a = last + 1;
    }
    out
}

fn progression(points: &[(Q, Q)]) -> Progression<Q> {
    let values: Vec<&Q> = points.iter().map(|(_, y)| y).collect();
    let n = values.len();
    let q = (1..=n)
        .find(|&p| (p..n).all(|i| values[i] == values[i - p]))
        .expect("n itself qualifies");
    Progression {
        start: points[0].0.clone(),
        run: (n > 1).then(|| Run {
            step: &points[1].0 - &points[0].0,
            end: points[n - 1].0.clone(),
            end_phase: (n - 1) % q,
        }),
        values: values[..q].iter().map(|&v| v.clone()).collect(),
    }
}

/// A member that breaks the form its neighbours follow: at N = `at` the form gives `form`, the
/// member `data`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Anomaly {
    /// The parameter value of the member.
    pub member: i64,
    /// The least N found where the member and the form differ.
    pub at: Q,
    /// The form's value there.
    pub form: Q,
    /// The member's value there.
    pub data: Q,
}

/// A one-parameter family of PWL functions as progressions of breakpoints whose numbers are
/// lines in k along each residue class of k mod `period`, from `from` on (OBSERVED on the data).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProgressionFamily {
    /// The least period in k.
    pub period: usize,
    /// The first member the form holds for.
    pub from: i64,
    /// The first and last member of the data.
    pub range: (i64, i64),
    /// The shape of class r (k ≡ r mod `period`), numbers as lines in k.
    pub classes: Vec<Shape<KLine>>,
    /// Members from `from` on that the form does not describe.
    pub anomalies: Vec<Anomaly>,
}

/// Why a family has no [`ProgressionFamily`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum NoProgressionForm {
    /// Too few members to fit anything.
    #[error("{members} member(s) are too few to fit progressions (at least {needed} are needed)")]
    TooFewMembers {
        /// How many there are.
        members: usize,
        /// How many a fit needs.
        needed: usize,
    },
    /// The number or kind of the progressions is not eventually periodic in the parameter.
    #[error(
        "the number and kind of the progressions is not eventually periodic in {param} on {param} = {first}..{last} (the last members have {counts} progressions)"
    )]
    ShapeNotPeriodic {
        /// The family's parameter.
        param: String,
        /// The first member.
        first: i64,
        /// The last member.
        last: i64,
        /// The number of progressions of the last few members, e.g. `5, 7, 9, 11`.
        counts: String,
    },
    /// The kinds repeat, but some number is not a line in the parameter along its residue
    /// class.
    #[error(
        "the progressions' kinds repeat with period {period} in {param} from {param} = {from}, but their numbers (starts, steps, ends, values, tails) are not linear in {param} along each residue class on {param} = {from}..{last}"
    )]
    NumbersNotLinear {
        /// The family's parameter.
        param: String,
        /// The least period of the kinds.
        period: usize,
        /// From where they repeat.
        from: i64,
        /// The last member.
        last: i64,
    },
}

impl NoProgressionForm {
    /// The reason in words without the family's particulars (ranges, counts), the same for
    /// every family it stops.
    pub fn kind(&self) -> &'static str {
        match self {
            NoProgressionForm::TooFewMembers { .. } => "too few members to fit progressions",
            NoProgressionForm::ShapeNotPeriodic { .. } => {
                "the number and kind of the progressions is not eventually periodic in the parameter on the mined range"
            }
            NoProgressionForm::NumbersNotLinear { .. } => {
                "the progressions' kinds repeat, but their numbers are not linear in the parameter along each residue class on the mined range"
            }
        }
    }
}

/// The least period P, start k₀ and class shapes of a family of member shapes (`None` entries
/// are left out: unknown members).
struct Fit {
    period: usize,
    from: i64,
    classes: Vec<Shape<KLine>>,
}

/// Members the fit needs in each residue class (to fix its lines) …
const PER_CLASS: usize = 2;
/// … and by default, beyond those, in the whole family (to confirm one of them).
pub const CONFIRMING: usize = 1;
/// Largest period in k tried.
const MAX_PERIOD: usize = 12;

fn line_through(k1: i64, v1: &Q, k2: i64, v2: &Q) -> KLine {
    let slope = &(v2 - v1) / &Q::int(k2 - k1);
    let intercept = v1 - &(&slope * &Q::int(k1));
    KLine { slope, intercept }
}

/// The fit of `shapes` (member k = `first` + index) with the least period, or `None`. With the
/// members' functions `data`, every number must be a line along its class and every known
/// member from the start on is rebuilt from the fit and compared with its function; without,
/// only the signatures must repeat (for saying why there is no fit).
fn fit(
    first: i64,
    shapes: &[Option<Shape<Q>>],
    data: Option<&[Pwl]>,
    confirming: usize,
) -> Option<Fit> {
    let numbers = data.is_some();
    let len = shapes.len();
    let last = first + len as i64 - 1;
    let max_p = ((len.saturating_sub(confirming)) / PER_CLASS).min(MAX_PERIOD);
    'period: for p in 1..=max_p {
        let mut from = first;
        let mut classes = Vec::with_capacity(p);
        let mut known = Vec::with_capacity(p);
        for r in 0..p {
            let members: Vec<(i64, &Shape<Q>)> = shapes
                .iter()
                .enumerate()
                .map(|(i, s)| (first + i as i64, s))
                .filter(|(k, _)| k.rem_euclid(p as i64) == r as i64)
                .filter_map(|(k, s)| Some((k, s.as_ref()?)))
                .collect();
            let [.., (k1, s1), (k2, s2)] = members[..] else {
                continue 'period;
            };
            let sig = s2.signature();
            if s1.signature() != sig {
                continue 'period;
            }
            let lines: Vec<KLine> = if numbers {
                s1.numbers()
                    .into_iter()
                    .zip(s2.numbers())
                    .map(|(v1, v2)| line_through(k1, v1, k2, v2))
                    .collect()
            } else {
                Vec::new()
            };
            let follows = |k: i64, s: &Shape<Q>| {
                s.signature() == sig
                    && (!numbers
                        || s.numbers()
                            .into_iter()
                            .zip(&lines)
                            .all(|(v, l)| *v == l.at(k)))
            };
            if let Some((k, _)) = members.iter().rev().find(|(k, s)| !follows(*k, s)) {
                from = from.max(k + 1);
            }
            let mut it = lines.into_iter();
            classes.push((
                r,
                s2.map(&mut |_| it.next().unwrap_or(KLine::constant(Q::zero()))),
            ));
            known.push(members.iter().map(|(k, _)| *k).collect::<Vec<_>>());
        }
        let counts: Vec<usize> = known
            .iter()
            .map(|ks| ks.iter().filter(|&&k| k >= from).count())
            .collect();
        let covered = (last - from + 1) as usize;
        if counts.iter().any(|&c| c < PER_CLASS)
            || counts.iter().sum::<usize>() < p * PER_CLASS + confirming
            || covered * 2 < len
        {
            continue;
        }
        classes.sort_by_key(|(r, _)| *r);
        let found = Fit {
            period: p,
            from,
            classes: classes.into_iter().map(|(_, s)| s).collect(),
        };
        if let Some(fs) = data {
            let rebuilt = |j: usize| {
                let k = first + j as i64;
                let class = &found.classes[k.rem_euclid(p as i64) as usize];
                class.map(&mut |l| l.at(k)).to_pwl().as_ref() == Some(&fs[j])
            };
            if (0..len)
                .filter(|&j| first + j as i64 >= from && shapes[j].is_some())
                .any(|j| !rebuilt(j))
            {
                continue;
            }
        }
        return Some(found);
    }
    None
}

impl ProgressionFamily {
    /// The class shape of member k.
    pub fn class_of(&self, k: i64) -> &Shape<KLine> {
        &self.classes[k.rem_euclid(self.period as i64) as usize]
    }

    /// Member k as the form gives it (for any k; meaningful from `from` on), or `None` where
    /// the form's numbers describe no function.
    pub fn member(&self, k: i64) -> Option<Pwl> {
        self.class_of(k).map(&mut |l| l.at(k)).to_pwl()
    }

    /// The number of progressions of the simplest class and of the largest.
    pub fn progression_counts(&self) -> (usize, usize) {
        let counts = self.classes.iter().map(|c| c.progressions.len());
        (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0))
    }

    /// The leftmost and rightmost breakpoint of member k as lines in k for its class (`None`
    /// for a line): where the form's shape lies.
    pub fn span(&self, k: i64) -> Option<(KLine, KLine)> {
        let s = self.class_of(k);
        let first = s.progressions.first()?;
        let last = s.progressions.last()?;
        let end = last.run.as_ref().map_or(&last.start, |r| &r.end);
        Some(match &s.centre {
            Some(c) => (
                c.sub(end),
                KLine {
                    slope: &c.slope + &end.slope,
                    intercept: &c.intercept + &end.intercept,
                },
            ),
            None => (first.start.clone(), end.clone()),
        })
    }

    /// The closed form in (`var`, `param`) as an expression of the claims language: for each
    /// residue class, `let x = abs(N - c) in …` for a symmetric shape, then one branch per
    /// interval of N: the left tail, the line between two progressions, a sawtooth along a
    /// progression, the right tail.
    pub fn expr(&self, var: &str, param: &str) -> Expr {
        let names = Names::new(var, param);
        if self.period == 1 {
            return shape_expr(&self.classes[0], &names);
        }
        // Classes with the same shape share a branch.
        let mut groups: Vec<(Vec<usize>, &Shape<KLine>)> = Vec::new();
        for (r, s) in self.classes.iter().enumerate() {
            match groups.iter_mut().find(|(_, g)| *g == s) {
                Some((rs, _)) => rs.push(r),
                None => groups.push((vec![r], s)),
            }
        }
        let modulus = || Expr::binary(BinOp::Mod, Expr::var(param), Expr::int(self.period as i64));
        let mut groups = groups.into_iter().rev();
        let (_, last) = groups.next().expect("a class");
        let mut e = shape_expr(last, &names);
        for (rs, s) in groups {
            let condition = rs
                .iter()
                .map(|&r| Expr::compare(modulus(), CmpOp::Eq, Expr::int(r as i64)))
                .reduce(|a, b| Expr::binary(BinOp::Or, a, b))
                .expect("a residue");
            e = Expr::if_then_else(condition, shape_expr(s, &names), e);
        }
        e
    }

    /// The shape of each class in words, one line each, its residue written with `index` (a
    /// name that is not a parameter of the family): `k = 3j+1: symmetric about N = 0; …`.
    pub fn describe(&self, param: &str, index: &str) -> Vec<String> {
        self.classes
            .iter()
            .enumerate()
            .map(|(r, s)| {
                let class = if self.period == 1 {
                    format!("every {param}")
                } else {
                    format!(
                        "{param} = {}",
                        super::affine_text(&Q::int(self.period as i64), &Q::int(r as i64), index)
                    )
                };
                format!("{class}: {}", describe_shape(s, param))
            })
            .collect()
    }
}

fn line_text(l: &KLine, param: &str) -> String {
    super::affine_text(&l.slope, &l.intercept, param)
}

fn describe_shape(s: &Shape<KLine>, param: &str) -> String {
    let t = |l: &KLine| line_text(l, param);
    if let Some(c) = &s.intercept {
        return format!("the line {}·N + {}", t(&s.left_slope), t(c));
    }
    let (head, at) = match &s.centre {
        Some(c) if c.is_zero() => ("symmetric about N = 0; ".to_string(), "|N|".to_string()),
        Some(c) => (
            format!("symmetric about N = {}; ", t(c)),
            format!("|N - ({})|", t(c)),
        ),
        None => (String::new(), "N".to_string()),
    };
    let parts: Vec<String> = s
        .progressions
        .iter()
        .map(|p| {
            let values = p.values.iter().map(t).collect::<Vec<_>>().join(", ");
            match &p.run {
                None => format!("{at} = {} (value {values})", t(&p.start)),
                Some(r) => format!(
                    "{at} = {}..{} step {} (values {values}{})",
                    t(&p.start),
                    t(&r.end),
                    t(&r.step),
                    if p.values.len() > 1 { ", …" } else { "" }
                ),
            }
        })
        .collect();
    format!(
        "{head}breakpoints at {}; tail slopes {} and {}",
        parts.join("; "),
        t(&s.left_slope),
        t(&s.right_slope)
    )
}

/// The names an expression uses: the variable, the parameter, and two fresh local names.
struct Names {
    var: String,
    param: String,
    /// |N − c| (or N itself when not symmetric).
    at: String,
    /// The position along a progression's cycle.
    phase: String,
}

impl Names {
    fn new(var: &str, param: &str) -> Names {
        let mut fresh = ["x", "y", "z", "u", "v", "w"]
            .into_iter()
            .filter(|n| *n != var && *n != param);
        let at = fresh
            .next()
            .expect("six names, two taken at most")
            .to_string();
        let phase = fresh
            .next()
            .expect("six names, two taken at most")
            .to_string();
        Names {
            var: var.to_string(),
            param: param.to_string(),
            at,
            phase,
        }
    }
}

/// `q·e`, without a factor 1 or −1.
fn times(q: &Q, e: Expr) -> Expr {
    if *q == Q::one() {
        e
    } else if *q == -Q::one() {
        -e
    } else {
        Expr::rational(q) * e
    }
}

/// `e + q`, written `e - |q|` for a negative q and left out for 0.
fn add_q(e: Expr, q: &Q) -> Expr {
    match q.signum() {
        0 => e,
        1 => e + Expr::rational(q),
        _ => e - Expr::rational(&-q.clone()),
    }
}

/// `e + l` for a line l in the parameter, written `e - (…)` when l reads negative.
fn add_line(e: Expr, l: &KLine, param: &str) -> Expr {
    if l.slope.is_zero() {
        return add_q(e, &l.intercept);
    }
    if l.slope.signum() < 0 {
        e - l.scale(&-Q::one()).expr(param)
    } else {
        e + l.expr(param)
    }
}

/// The line through (a, ya) and (b, yb) as an expression in `x`: m·x + (ya − m·a) when the
/// slope m is one number for every k, else ya + (yb − ya)·(x − a)/(b − a).
fn segment(x: &Expr, (a, ya): (&KLine, &KLine), (b, yb): (&KLine, &KLine), param: &str) -> Expr {
    let (dx, dy) = (b.sub(a), yb.sub(ya));
    match dy.constant_ratio(&dx) {
        Some(m) => with_slope(x, &m, ya.sub(&a.scale(&m)), param),
        None if dy.is_zero() => ya.expr(param),
        None => {
            let rise = Expr::binary(
                BinOp::Div,
                dy.expr(param) * sub_line(x.clone(), a, param),
                dx.expr(param),
            );
            ya.expr(param) + rise
        }
    }
}

/// m·x + c.
fn with_slope(x: &Expr, m: &Q, c: KLine, param: &str) -> Expr {
    if m.is_zero() {
        return c.expr(param);
    }
    if *m == -Q::one() && !c.is_zero() {
        return c.expr(param) - x.clone();
    }
    add_line(times(m, x.clone()), &c, param)
}

/// `x − l`.
fn sub_line(x: Expr, l: &KLine, param: &str) -> Expr {
    add_line(x, &l.scale(&-Q::one()), param)
}

/// The tail through (a, ya) with slope m.
fn tail(x: &Expr, a: &KLine, ya: &KLine, m: &KLine, param: &str) -> Expr {
    match m.slope.is_zero() {
        true => with_slope(x, &m.intercept, ya.sub(&a.scale(&m.intercept)), param),
        // A slope that changes with k: ya + m·(x − a).
        false => ya.expr(param) + m.expr(param) * sub_line(x.clone(), a, param),
    }
}

/// The function on one progression with a run: periodic in x with period q·step; on one period
/// the line between consecutive cycle values (for q = 2 one `abs`).
fn sawtooth(x: &Expr, p: &Progression<KLine>, r: &Run<KLine>, names: &Names) -> Expr {
    let param = &names.param;
    let q = p.values.len();
    if q == 1 {
        return p.values[0].expr(param);
    }
    let period = r.step.scale(&Q::int(q as i64));
    let u = Expr::var(&names.phase);
    let offset = Expr::binary(
        BinOp::Mod,
        sub_line(x.clone(), &p.start, param),
        period.expr(param),
    );
    let at = |i: usize| r.step.scale(&Q::int(i as i64));
    let body = if q == 2 {
        // v1 + (v0 − v1)·|u − step|/step.
        let (v0, v1) = (&p.values[0], &p.values[1]);
        let dip = Expr::call("abs", vec![sub_line(u.clone(), &r.step, param)]);
        let dv = v0.sub(v1);
        match dv.constant_ratio(&r.step) {
            // v1 − |m|·|u − step| reads better than v1 + (−|m|)·|u − step|.
            Some(m) if m.signum() < 0 => v1.expr(param) - times(&-m, dip),
            Some(m) if v1.is_zero() => times(&m, dip),
            Some(m) => v1.expr(param) + times(&m, dip),
            None => {
                let scaled = Expr::binary(BinOp::Div, dv.expr(param) * dip, r.step.expr(param));
                v1.expr(param) + scaled
            }
        }
    } else {
        let mut e = segment(
            &u,
            (&at(q - 1), &p.values[q - 1]),
            (&at(q), &p.values[0]),
            param,
        );
        for i in (0..q - 1).rev() {
            let piece = segment(
                &u,
                (&at(i), &p.values[i]),
                (&at(i + 1), &p.values[i + 1]),
                param,
            );
            e = Expr::if_then_else(
                Expr::compare(u.clone(), CmpOp::Le, at(i + 1).expr(param)),
                piece,
                e,
            );
        }
        e
    };
    Expr::let_in(&names.phase, offset, body)
}

/// The value of a progression at its last point.
fn end_value(p: &Progression<KLine>) -> &KLine {
    &p.values[p.run.as_ref().map_or(0, |r| r.end_phase)]
}

fn end_point(p: &Progression<KLine>) -> &KLine {
    p.run.as_ref().map_or(&p.start, |r| &r.end)
}

/// One class's shape as an `if` chain over the intervals of x (|N − c| or N).
fn shape_expr(s: &Shape<KLine>, names: &Names) -> Expr {
    let param = &names.param;
    let n = Expr::var(&names.var);
    if let Some(c) = &s.intercept {
        return with_slope(&n, &s.left_slope.intercept, c.clone(), param);
    }
    let x = match &s.centre {
        Some(_) => Expr::var(&names.at),
        None => n.clone(),
    };
    // Branches from the right: (upper bound of x, expression), the last one unbounded.
    let ps = &s.progressions;
    let last = ps.last().expect("a shape that is not a line has a point");
    let mut e = tail(&x, end_point(last), end_value(last), &s.right_slope, param);
    for (i, p) in ps.iter().enumerate().rev() {
        if let Some(next) = ps.get(i + 1) {
            let gap = segment(
                &x,
                (end_point(p), end_value(p)),
                (&next.start, &next.values[0]),
                param,
            );
            e = if_le(&x, &next.start, gap, e, param);
        }
        if let Some(r) = &p.run {
            e = if_le(&x, &r.end, sawtooth(&x, p, r, names), e, param);
        }
    }
    match &s.centre {
        None => {
            let first = &ps[0];
            let left = tail(&x, &first.start, &first.values[0], &s.left_slope, param);
            if_le(&x, &first.start, left, e, param)
        }
        Some(c) => Expr::let_in(&names.at, Expr::call("abs", vec![sub_line(n, c, param)]), e),
    }
}

fn if_le(x: &Expr, bound: &KLine, then: Expr, otherwise: Expr, param: &str) -> Expr {
    Expr::if_then_else(
        Expr::compare(x.clone(), CmpOp::Le, bound.expr(param)),
        then,
        otherwise,
    )
}

/// The first N (in increasing order over both functions' breakpoints, the midpoints between
/// them and one beyond each end) where `a` and `b` differ, with both values.
pub fn first_difference(a: &Pwl, b: &Pwl) -> Option<(Q, Q, Q)> {
    let mut xs: Vec<Q> = a
        .breakpoints()
        .iter()
        .chain(b.breakpoints())
        .map(|(x, _)| x.clone())
        .collect();
    xs.sort();
    xs.dedup();
    let mut probes = Vec::new();
    match (xs.first(), xs.last()) {
        (Some(lo), Some(hi)) => {
            probes.push(lo - &Q::one());
            for w in xs.windows(2) {
                probes.push(w[0].clone());
                probes.push(&(&w[0] + &w[1]) / &Q::int(2));
            }
            probes.push(hi.clone());
            probes.push(hi + &Q::one());
        }
        _ => probes.extend([-Q::one(), Q::zero(), Q::one()]),
    }
    probes.into_iter().find_map(|x| {
        let (fa, fb) = (a.eval(&x), b.eval(&x));
        (fa != fb).then_some((x, fa, fb))
    })
}

/// The member shapes of `fs` in one mode.
fn shapes(fs: &[Pwl], symmetric: bool) -> Vec<Option<Shape<Q>>> {
    fs.iter().map(|f| Some(Shape::of(f, symmetric))).collect()
}

impl ProgressionFamily {
    fn of_fit(fit: Fit, first: i64, len: usize, anomalies: Vec<Anomaly>) -> ProgressionFamily {
        ProgressionFamily {
            period: fit.period,
            from: fit.from,
            range: (first, first + len as i64 - 1),
            classes: fit.classes,
            anomalies,
        }
    }
}

/// The progressions form of the family f_first, f_first+1, … in the parameter `param` (named
/// only in the reason when there is none): the least period in it, then the least start, the
/// symmetric description (fewer progressions) first when both fit. When one member alone keeps
/// the form from starting earlier — the others fit from before it — that member is reported as
/// an anomaly and the form starts earlier. Every other member from the start on is rebuilt from
/// the form and equals its data exactly.
pub fn mine_progressions(
    param: &str,
    first: i64,
    fs: &[Pwl],
) -> Result<ProgressionFamily, NoProgressionForm> {
    mine_progressions_confirmed(param, first, fs, CONFIRMING)
}

/// [`mine_progressions`] with `confirming` members beyond the two per residue class that fix
/// its lines (the default is one). With none, the data only *determines* the form
/// (every class has two members, and they fix its lines), nothing on the data confirms it: a
/// caller that asks for none must test the form on members beyond the data, as discovery does.
pub fn mine_progressions_confirmed(
    param: &str,
    first: i64,
    fs: &[Pwl],
    confirming: usize,
) -> Result<ProgressionFamily, NoProgressionForm> {
    let len = fs.len();
    if len < PER_CLASS + confirming {
        return Err(NoProgressionForm::TooFewMembers {
            members: len,
            needed: PER_CLASS + confirming,
        });
    }
    let modes = [shapes(fs, true), shapes(fs, false)];
    let key = |f: &Fit| (f.period, f.from);
    let best = modes
        .iter()
        .filter_map(|m| fit(first, m, Some(fs), confirming))
        .min_by_key(|f| key(f));
    if best.as_ref().is_some_and(|b| b.from == first) {
        return Ok(ProgressionFamily::of_fit(
            best.expect("just seen"),
            first,
            len,
            Vec::new(),
        ));
    }
    // Leave each member out in turn: an anomaly has a member of its own class before it in the
    // form's range, and the form must start earlier than without leaving it out.
    let mut masked: Option<(Fit, Anomaly)> = None;
    for j in 0..len {
        let k = first + j as i64;
        for m in &modes {
            let mut m = m.clone();
            m[j] = None;
            let Some(f) = fit(first, &m, Some(fs), confirming) else {
                continue;
            };
            if f.from + f.period as i64 > k
                || best.as_ref().is_some_and(|b| f.from >= b.from)
                || masked.as_ref().is_some_and(|(g, _)| key(g) <= key(&f))
            {
                continue;
            }
            let class = &f.classes[k.rem_euclid(f.period as i64) as usize];
            let differs = match class.map(&mut |l| l.at(k)).to_pwl() {
                Some(g) => first_difference(&g, &fs[j]),
                // The form describes no function there: it differs everywhere.
                None => Some((Q::zero(), Q::zero(), fs[j].eval(&Q::zero()))),
            };
            if let Some((at, form, data)) = differs {
                let a = Anomaly {
                    member: k,
                    at,
                    form,
                    data,
                };
                masked = Some((f, a));
            }
        }
    }
    match (masked, best) {
        (Some((f, a)), _) => Ok(ProgressionFamily::of_fit(f, first, len, vec![a])),
        (None, Some(f)) => Ok(ProgressionFamily::of_fit(f, first, len, Vec::new())),
        (None, None) => Err(why_not(param, first, &modes[0], confirming)),
    }
}

/// Why no form fits: the kinds of progressions do not repeat, or their numbers are not lines.
fn why_not(
    param: &str,
    first: i64,
    shapes: &[Option<Shape<Q>>],
    confirming: usize,
) -> NoProgressionForm {
    let last = first + shapes.len() as i64 - 1;
    match fit(first, shapes, None, confirming) {
        Some(f) => NoProgressionForm::NumbersNotLinear {
            param: param.to_string(),
            period: f.period,
            from: f.from,
            last,
        },
        None => NoProgressionForm::ShapeNotPeriodic {
            param: param.to_string(),
            first,
            last,
            counts: shapes
                .iter()
                .rev()
                .take(4)
                .rev()
                .map(|s| s.as_ref().map_or(0, |s| s.progressions.len()).to_string())
                .collect::<Vec<_>>()
                .join(", "),
        },
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn pwl(text: &str) -> Pwl {
        text.parse().unwrap()
    }

    /// PWL functions: integer breakpoints with gaps 1..3 and values −3..3, tails of slope −1..1,
    /// some of them mirrored about their last point to make a symmetric function.
    fn pwls() -> impl Strategy<Value = Pwl> {
        (
            -1i64..=1,
            -1i64..=1,
            0i64..5,
            proptest::collection::vec((1i64..=3, -3i64..=3), 0..7),
            any::<bool>(),
        )
            .prop_map(|(left, right, start, steps, mirror)| {
                let (left, right) = (Q::int(left), Q::int(right));
                if steps.is_empty() {
                    // A line; `start` is its constant.
                    return Pwl::linear(left, Q::int(start));
                }
                let mut x = -start;
                let mut points = Vec::new();
                for (gap, y) in steps {
                    points.push((Q::int(x), Q::int(y)));
                    x += gap;
                }
                if mirror {
                    let (c, _) = points.last().unwrap().clone();
                    let mirrored: Vec<(Q, Q)> = points
                        .iter()
                        .rev()
                        .skip(1)
                        .map(|(x, y)| (&(&c + &c) - x, y.clone()))
                        .collect();
                    points.extend(mirrored);
                    return Pwl::from_points(left.clone(), points, -left).unwrap();
                }
                Pwl::from_points(left, points, right).unwrap()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn every_shape_rebuilds_its_function(f in pwls()) {
            for symmetric in [true, false] {
                let s = Shape::of(&f, symmetric);
                prop_assert_eq!(s.to_pwl(), Some(f.clone()), "{} ({}): {:?}", f, symmetric, s);
            }
        }
    }

    #[test]
    fn a_symmetric_function_is_described_by_half_of_it() {
        let f = pwl("[1] (-4,0) (-2,2) (0,0) (2,2) (4,0) [-1]");
        let s = Shape::of(&f, true);
        assert_eq!(s.centre, Some(Q::zero()));
        // |N| = 0, 2, 4 with values 0, 2, 0: one progression, cycle (0, 2).
        assert_eq!(s.progressions.len(), 1);
        assert_eq!(s.progressions[0].values, [Q::zero(), Q::int(2)]);
        let plain = Shape::of(&f, false);
        assert_eq!(plain.centre, None);
        assert_eq!(plain.progressions.len(), 1);
        // A point where two runs of equal gaps meet goes to the run on its right.
        let g = pwl("[0] (0,0) (1,1) (2,0) (5,3) (8,0) [0]");
        let s = Shape::of(&g, false);
        let starts: Vec<&Q> = s.progressions.iter().map(|p| &p.start).collect();
        assert_eq!(starts, [&Q::zero(), &Q::int(2)]);
    }

    /// F_k(N) = 2 − min_j |N − j| over j = −(2k−2), …, 2k−2 step 2 (Scoring Nim, Def 6.2),
    /// its tails turned up at |N| = 2k + (k mod 3): a family whose shape has period 3 in k.
    fn tailed(k: i64) -> Pwl {
        let tent = |j: i64| {
            Pwl::linear(-Q::one(), Q::int(2 + j)).min(&Pwl::linear(Q::one(), Q::int(2 - j)))
        };
        let peaks: Vec<Pwl> = (-(k - 1)..=(k - 1)).map(|i| tent(2 * i)).collect();
        let zig = Pwl::max_all(peaks.iter()).unwrap();
        let c = 2 * k + k.rem_euclid(3);
        let vee = Pwl::linear(Q::one(), Q::int(-c)).max(&Pwl::linear(-Q::one(), Q::int(-c)));
        zig.max(&vee)
    }

    #[test]
    fn a_period_three_family_is_found_and_predicts_members_beyond_the_data() {
        let fs: Vec<Pwl> = (1..=15).map(tailed).collect();
        let form = mine_progressions("k", 1, &fs).unwrap();
        assert_eq!(form.period, 3);
        assert!(form.anomalies.is_empty());
        for k in form.from..=40 {
            assert_eq!(form.member(k), Some(tailed(k)), "k = {k}");
        }
        assert_eq!(form.describe("k", "j").len(), 3);
    }

    #[test]
    fn a_perturbed_member_is_reported_and_the_others_still_fit() {
        let mut fs: Vec<Pwl> = (1..=15).map(tailed).collect();
        fs[9] = fs[9].add_const(&Q::one());
        let form = mine_progressions("k", 1, &fs).unwrap();
        assert_eq!(form.anomalies.len(), 1);
        let a = &form.anomalies[0];
        assert_eq!(a.member, 10);
        assert_eq!(&a.data - &a.form, Q::one());
        assert_eq!(fs[9].eval(&a.at), a.data);
        assert_eq!(form.member(10), Some(tailed(10)));
    }

    #[test]
    fn families_without_a_form_say_why() {
        // The number of breakpoints grows like k²: the kinds of progressions never repeat.
        let grow = |k: i64| {
            let pts: Vec<(Q, Q)> = (0..k * k).map(|i| (Q::int(i * i), Q::int(i % 2))).collect();
            Pwl::from_points(Q::zero(), pts, Q::zero()).unwrap()
        };
        let fs: Vec<Pwl> = (1..=10).map(grow).collect();
        assert!(matches!(
            mine_progressions("k", 1, &fs),
            Err(NoProgressionForm::ShapeNotPeriodic { .. })
        ));
        // One shape, but a value quadratic in k: the numbers are not lines.
        let fs: Vec<Pwl> = (1..=10)
            .map(|k| pwl(&format!("[1] (0,{}) [-1]", k * k)))
            .collect();
        assert!(matches!(
            mine_progressions("k", 1, &fs),
            Err(NoProgressionForm::NumbersNotLinear { period: 1, .. })
        ));
        assert!(matches!(
            mine_progressions("k", 1, &fs[..2]),
            Err(NoProgressionForm::TooFewMembers {
                members: 2,
                needed: 3
            })
        ));
    }
}
