//! Closed forms of piecewise-linear functions of N, of one-parameter families of them, and of
//! grids over several parameters — what turns a table of exact payoffs into a formula like
//! Theorem 6.3 of Scoring Nim, f_N(x, 2k, 1) = max{F_k(N), |N| − 2k} + x − 2k − 1.
//!
//! One function: a line, a V (|N − c| + v), a zigzag (top − min_j |N − j| over peaks j in
//! arithmetic progression; see [`super::zigzag`]) or a zigzag whose tails turn up,
//! max{zigzag, V}. Each candidate is rebuilt as a [`Pwl`] and compared exactly (PWL equality is
//! structural), so a recognized form equals the function everywhere.
//!
//! A family f_k (consecutive k): every member from some k on has the same kind of form, and
//! each of its numbers (top, peaks, step, centre, base, …) is affine in k — fitted with
//! [`super::fit_periodic_linear`] (period 1, three confirming members), so it is OBSERVED.
//!
//! A grid over several parameters: a parameter p is *linear* when f(m + e_p) − f(m) is one and
//! the same constant c_p at every grid point m that has the neighbour; then on the (rectangular)
//! grid f(m) = f(m with p at its least value) + c_p·(m_p − min p). At most one parameter may be
//! non-linear: along it, at the other parameters' least values, the family form applies.

use serde::Serialize;

use super::{FitOptions, Zigzag, affine_text, fit_periodic_linear, zigzag};
use crate::num::{Pwl, Q};

/// A PWL function of N in one of the closed forms the papers use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PwlForm {
    /// slope·N + constant.
    Line {
        /// The slope.
        slope: Q,
        /// The value at N = 0.
        constant: Q,
    },
    /// |N − centre| + base.
    Vee {
        /// Where the V turns.
        centre: Q,
        /// Its least value.
        base: Q,
    },
    /// top − min_j |N − j|.
    Zigzag(Zigzag),
    /// max{top − min_j |N − j|, |N − centre| + base}.
    TailedZigzag {
        /// The zigzag between the tails.
        zigzag: Zigzag,
        /// Where the tails' V turns.
        centre: Q,
        /// The V's least value.
        base: Q,
    },
}

/// Which of the forms, without its numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PwlKind {
    /// A line.
    Line,
    /// A V.
    Vee,
    /// A zigzag.
    Zigzag,
    /// A zigzag with upturned tails.
    TailedZigzag,
}

impl PwlKind {
    /// The names of the form's numbers, in order.
    pub fn number_names(self) -> &'static [&'static str] {
        match self {
            PwlKind::Line => &["slope", "constant"],
            PwlKind::Vee => &["centre", "base"],
            PwlKind::Zigzag => &["top", "first_peak", "last_peak", "peak_step"],
            PwlKind::TailedZigzag => &[
                "top",
                "first_peak",
                "last_peak",
                "peak_step",
                "centre",
                "base",
            ],
        }
    }
}

impl std::fmt::Display for PwlKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PwlKind::Line => "line",
            PwlKind::Vee => "V (|N − c| + v)",
            PwlKind::Zigzag => "zigzag (top − min_j |N − j|)",
            PwlKind::TailedZigzag => {
                "zigzag with upturned tails (max{top − min_j |N − j|, |N − c| + v})"
            }
        })
    }
}

fn vee(centre: &Q, base: &Q) -> Pwl {
    Pwl::linear(Q::one(), base - centre).max(&Pwl::linear(-Q::one(), base + centre))
}

fn zigzag_pwl(z: &Zigzag) -> Pwl {
    let tent = |j: &Q| Pwl::linear(-Q::one(), &z.top + j).min(&Pwl::linear(Q::one(), &z.top - j));
    let mut peaks = vec![z.first_peak.clone()];
    if !z.peak_step.is_zero() {
        let mut j = &z.first_peak + &z.peak_step;
        while j <= z.last_peak {
            peaks.push(j.clone());
            j = &j + &z.peak_step;
        }
    }
    Pwl::max_all(peaks.iter().map(tent).collect::<Vec<_>>().iter()).expect("a peak")
}

impl PwlForm {
    /// The function the form describes.
    pub fn to_pwl(&self) -> Pwl {
        match self {
            PwlForm::Line { slope, constant } => Pwl::linear(slope.clone(), constant.clone()),
            PwlForm::Vee { centre, base } => vee(centre, base),
            PwlForm::Zigzag(z) => zigzag_pwl(z),
            PwlForm::TailedZigzag {
                zigzag,
                centre,
                base,
            } => zigzag_pwl(zigzag).max(&vee(centre, base)),
        }
    }

    /// The kind.
    pub fn kind(&self) -> PwlKind {
        match self {
            PwlForm::Line { .. } => PwlKind::Line,
            PwlForm::Vee { .. } => PwlKind::Vee,
            PwlForm::Zigzag(_) => PwlKind::Zigzag,
            PwlForm::TailedZigzag { .. } => PwlKind::TailedZigzag,
        }
    }

    /// The numbers of the form, in the order [`FamilyForm`] names them.
    pub fn numbers(&self) -> Vec<Q> {
        let z = |z: &Zigzag| {
            vec![
                z.top.clone(),
                z.first_peak.clone(),
                z.last_peak.clone(),
                z.peak_step.clone(),
            ]
        };
        match self {
            PwlForm::Line { slope, constant } => vec![slope.clone(), constant.clone()],
            PwlForm::Vee { centre, base } => vec![centre.clone(), base.clone()],
            PwlForm::Zigzag(zz) => z(zz),
            PwlForm::TailedZigzag {
                zigzag,
                centre,
                base,
            } => {
                let mut v = z(zigzag);
                v.extend([centre.clone(), base.clone()]);
                v
            }
        }
    }

    /// The form as an expression in `var` of the claims language.
    pub fn expr(&self, var: &str) -> String {
        let numbers: Vec<Affine> = self.numbers().into_iter().map(|q| (Q::zero(), q)).collect();
        form_expr(self.kind(), &numbers, var, "k")
    }
}

/// A number of a form as text: affine in a parameter (slope, value at 0).
type Affine = (Q, Q);

fn text(n: &Affine, param: &str) -> String {
    affine_text(&n.0, &n.1, param)
}

fn is_zero(n: &Affine) -> bool {
    n.0.is_zero() && n.1.is_zero()
}

/// Whether the text of n starts with a minus sign: [`affine_text`] writes the slope's term
/// first, and the constant alone only when there is no slope.
fn leads_negative(n: &Affine) -> bool {
    if n.0.is_zero() {
        n.1 < Q::zero()
    } else {
        n.0 < Q::zero()
    }
}

fn negated(n: &Affine) -> Affine {
    (-n.0.clone(), -n.1.clone())
}

/// `(text)` unless the text is a single term.
fn group(t: &str) -> String {
    if t.chars().skip(1).any(|c| c == '+' || c == '-') {
        format!("({t})")
    } else {
        t.to_string()
    }
}

/// `a + n`, written `a − |n|` when n reads negative and left out when n = 0.
fn plus(a: &str, n: &Affine, param: &str) -> String {
    if is_zero(n) {
        a.to_string()
    } else if leads_negative(n) {
        format!("{a} - {}", group(&text(&negated(n), param)))
    } else {
        format!("{a} + {}", text(n, param))
    }
}

/// `a − n`, written `a + |n|` when n reads negative and left out when n = 0.
fn minus(a: &str, n: &Affine, param: &str) -> String {
    if is_zero(n) {
        a.to_string()
    } else if leads_negative(n) {
        format!("{a} + {}", text(&negated(n), param))
    } else {
        format!("{a} - {}", group(&text(n, param)))
    }
}

/// The expression of a form of `kind` whose numbers are affine in `param`.
fn form_expr(kind: PwlKind, n: &[Affine], var: &str, param: &str) -> String {
    let t = |i: usize| text(&n[i], param);
    let zig = || {
        if is_zero(&n[3]) {
            format!("{} - abs({})", t(0), minus(var, &n[1], param))
        } else {
            format!(
                "{} - min(j in {}..{} step {}: abs({var} - j))",
                t(0),
                t(1),
                t(2),
                t(3)
            )
        }
    };
    let v = |c: &Affine, b: &Affine| plus(&format!("abs({})", minus(var, c, param)), b, param);
    match kind {
        PwlKind::Line => plus(&format!("{}*{var}", group(&t(0))), &n[1], param),
        PwlKind::Vee => v(&n[0], &n[1]),
        PwlKind::Zigzag => zig(),
        PwlKind::TailedZigzag => format!("max({}, {})", zig(), v(&n[4], &n[5])),
    }
}

/// `f` in one of the closed forms, if it is one (checked by exact equality).
pub fn pwl_form(f: &Pwl) -> Option<PwlForm> {
    if f.is_linear() {
        return Some(PwlForm::Line {
            slope: f.left_slope().clone(),
            constant: f.eval(&Q::zero()),
        });
    }
    if let Some(z) = zigzag(f) {
        return Some(PwlForm::Zigzag(z));
    }
    let one = Q::one();
    if *f.left_slope() != -one.clone() || *f.right_slope() != one {
        return None;
    }
    let bps = f.breakpoints();
    let (x0, y0) = &bps[0];
    let (x1, y1) = &bps[bps.len() - 1];
    // The tails −N + a and N + b are the V max(−N + a, N + b) = |N − (a − b)/2| + (a + b)/2.
    let (a, b) = (y0 + x0, y1 - x1);
    let two = Q::int(2);
    let centre = &(&a - &b) / &two;
    let base = &(&a + &b) / &two;
    let candidate = if bps.len() == 1 {
        PwlForm::Vee { centre, base }
    } else {
        let inner = Pwl::from_points(one.clone(), bps[1..bps.len() - 1].to_vec(), -one).ok()?;
        PwlForm::TailedZigzag {
            zigzag: zigzag(&inner)?,
            centre,
            base,
        }
    };
    (candidate.to_pwl() == *f).then_some(candidate)
}

/// A number of a family's form as a line in the parameter, from `from` on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AffineNumber {
    /// What the number is (`top`, `first_peak`, …).
    pub name: &'static str,
    /// Its slope in the parameter.
    pub slope: Q,
    /// Its value at parameter 0.
    pub intercept: Q,
}

/// A one-parameter family of PWL functions with one closed form, its numbers affine in the
/// parameter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FamilyForm {
    /// The kind of every member's form.
    pub kind: PwlKind,
    /// The numbers.
    pub numbers: Vec<AffineNumber>,
    /// The first parameter value the form holds for (on the data).
    pub from: i64,
    /// The last parameter value of the data.
    pub to: i64,
    /// The first and last breakpoint, affine in the parameter (`None` for lines): where the
    /// form's shape lies, and so where to look when checking it.
    pub span: Option<(AffineNumber, AffineNumber)>,
}

impl FamilyForm {
    /// N from two below the first breakpoint to two beyond the last, as texts in `param` for a
    /// range of the claims language (−2..2 for a line).
    pub fn window(&self, param: &str) -> (String, String) {
        match &self.span {
            Some((lo, hi)) => (
                minus(
                    &group(&text(&(lo.slope.clone(), lo.intercept.clone()), param)),
                    &(Q::zero(), Q::int(2)),
                    param,
                ),
                plus(
                    &group(&text(&(hi.slope.clone(), hi.intercept.clone()), param)),
                    &(Q::zero(), Q::int(2)),
                    param,
                ),
            ),
            None => ("-2".to_string(), "2".to_string()),
        }
    }

    /// The closed form in (`var`, `param`), in the claims language.
    pub fn expr(&self, var: &str, param: &str) -> String {
        let numbers: Vec<Affine> = self
            .numbers
            .iter()
            .map(|n| (n.slope.clone(), n.intercept.clone()))
            .collect();
        form_expr(self.kind, &numbers, var, param)
    }

    /// The number named `name` as text in `param` (e.g. the first peak, to range N over).
    pub fn number(&self, name: &str, param: &str) -> Option<String> {
        self.numbers
            .iter()
            .find(|n| n.name == name)
            .map(|n| affine_text(&n.slope, &n.intercept, param))
    }
}

/// The family form of f_{k0}, f_{k0+1}, …: over the final run of members with one kind of form,
/// each number affine in k (three confirming members); `None` when there is none.
pub fn family_form(k0: i64, fs: &[Pwl]) -> Option<FamilyForm> {
    let forms: Vec<Option<PwlForm>> = fs.iter().map(pwl_form).collect();
    let kind = forms.last()?.as_ref()?.kind();
    let start = forms
        .iter()
        .rposition(|f| f.as_ref().is_none_or(|f| f.kind() != kind))
        .map_or(0, |i| i + 1);
    let run: Vec<Vec<Q>> = forms[start..]
        .iter()
        .map(|f| f.as_ref().expect("in the run").numbers())
        .collect();
    let k_start = k0 + start as i64;
    let mut from = k_start;
    let mut affine = |name: &'static str, values: Vec<Q>| -> Option<AffineNumber> {
        let fit = fit_periodic_linear(&values, k_start, &FitOptions::default())?;
        if fit.period != 1 {
            return None;
        }
        from = from.max(fit.preperiod);
        Some(AffineNumber {
            name,
            slope: fit.lines[0].slope.clone(),
            intercept: fit.lines[0].intercept.clone(),
        })
    };
    let mut numbers = Vec::new();
    for (j, &name) in kind.number_names().iter().enumerate() {
        numbers.push(affine(name, run.iter().map(|v| v[j].clone()).collect())?);
    }
    let span = if kind == PwlKind::Line {
        None
    } else {
        let ends = |last: bool| -> Vec<Q> {
            fs[start..]
                .iter()
                .map(|f| {
                    let bps = f.breakpoints();
                    bps[if last { bps.len() - 1 } else { 0 }].0.clone()
                })
                .collect()
        };
        Some((
            affine("first_breakpoint", ends(false))?,
            affine("last_breakpoint", ends(true))?,
        ))
    };
    Some(FamilyForm {
        kind,
        numbers,
        from,
        to: k0 + fs.len() as i64 - 1,
        span,
    })
}

/// A parameter along which the function grows by a constant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinearParameter {
    /// Its name.
    pub name: String,
    /// f(… p + 1 …) − f(… p …), the same at every grid point.
    pub step: Q,
    /// Its least value on the grid.
    pub least: i64,
}

/// A closed form over a grid of parameter values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GridForm {
    /// The parameters the function is affine in.
    pub linear: Vec<LinearParameter>,
    /// The one other parameter and the family form along it (the others at their least values).
    pub shaped: Option<(String, FamilyForm)>,
    /// With every parameter linear: the function at the grid's least corner, as a form.
    #[serde(skip)]
    pub base: Option<PwlForm>,
}

impl GridForm {
    /// The closed form in N (`var`) and the parameters, in the claims language.
    pub fn expr(&self, var: &str) -> String {
        let mut text = match (&self.shaped, &self.base) {
            (Some((p, f)), _) => f.expr(var, p),
            (None, Some(b)) => b.expr(var),
            (None, None) => unreachable!("a grid form has a shaped parameter or a base"),
        };
        for l in &self.linear {
            if l.step.is_zero() {
                continue;
            }
            let offset = affine_text(&Q::one(), &Q::int(-l.least), &l.name);
            text = if l.step == Q::one() {
                format!("{text} + {offset}")
            } else {
                format!("{text} + {}*{}", group(&l.step.to_string()), group(&offset))
            };
        }
        text
    }

    /// The first value of the shaped parameter the form holds from.
    pub fn from(&self) -> Option<i64> {
        self.shaped.as_ref().map(|(_, f)| f.from)
    }

    /// Where to check the form: N from two below its first breakpoint to two beyond its last
    /// (affine in the shaped parameter, if any).
    pub fn window(&self) -> (String, String) {
        match (&self.shaped, &self.base) {
            (Some((p, f)), _) => f.window(p),
            (None, Some(b)) => {
                let f = b.to_pwl();
                match (f.breakpoints().first(), f.breakpoints().last()) {
                    (Some((lo, _)), Some((hi, _))) => {
                        ((lo - &Q::int(2)).to_string(), (hi + &Q::int(2)).to_string())
                    }
                    _ => ("-2".to_string(), "2".to_string()),
                }
            }
            (None, None) => unreachable!("a grid form has a shaped parameter or a base"),
        }
    }
}

/// The closed form of a function on a rectangular grid of parameter values (`points[i].0[j]` is
/// parameter `params[j]`): every parameter but at most one linear, and a family form (or, with
/// none, a single form) for the rest. `None` when the grid has no such form.
pub fn grid_form(params: &[String], points: &[(Vec<i64>, Pwl)]) -> Option<GridForm> {
    use std::collections::BTreeMap;
    let at: BTreeMap<&[i64], &Pwl> = points.iter().map(|(m, f)| (&m[..], f)).collect();
    let least: Vec<i64> = (0..params.len())
        .map(|j| points.iter().map(|(m, _)| m[j]).min())
        .collect::<Option<_>>()?;
    let mut linear = Vec::new();
    let mut shaped = Vec::new();
    for (j, name) in params.iter().enumerate() {
        let mut step: Option<Q> = None;
        let mut is_linear = true;
        for (m, f) in points {
            let mut next = m.clone();
            next[j] += 1;
            let Some(g) = at.get(&next[..]) else { continue };
            let d = g.add(&f.neg());
            let c = d.is_linear() && d.left_slope().is_zero();
            let value = d.eval(&Q::zero());
            match (&step, c) {
                (_, false) => is_linear = false,
                (None, true) => step = Some(value),
                (Some(s), true) if *s != value => is_linear = false,
                _ => {}
            }
            if !is_linear {
                break;
            }
        }
        match (is_linear, step) {
            (true, Some(step)) => linear.push(LinearParameter {
                name: name.clone(),
                step,
                least: least[j],
            }),
            _ => shaped.push(j),
        }
    }
    match shaped[..] {
        [] => Some(GridForm {
            linear,
            shaped: None,
            base: Some(pwl_form(at.get(&least[..])?)?),
        }),
        [j] => {
            let mut slice: Vec<(i64, &Pwl)> = points
                .iter()
                .filter(|(m, _)| (0..params.len()).all(|i| i == j || m[i] == least[i]))
                .map(|(m, f)| (m[j], f))
                .collect();
            slice.sort_by_key(|(k, _)| *k);
            if slice.windows(2).any(|w| w[1].0 != w[0].0 + 1) {
                return None;
            }
            let fs: Vec<Pwl> = slice.iter().map(|(_, f)| (*f).clone()).collect();
            let form = family_form(slice.first()?.0, &fs)?;
            Some(GridForm {
                linear,
                shaped: Some((params[j].clone(), form)),
                base: None,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Pwl {
        s.parse().unwrap()
    }

    #[test]
    fn a_leading_minus_is_read_off_the_numbers_as_the_text_shows_it() {
        let qs = [
            Q::frac(-3, 2),
            Q::int(-1),
            Q::zero(),
            Q::frac(1, 3),
            Q::int(2),
        ];
        for slope in &qs {
            for constant in &qs {
                let n = (slope.clone(), constant.clone());
                assert_eq!(
                    leads_negative(&n),
                    text(&n, "k").starts_with('-'),
                    "{}",
                    text(&n, "k")
                );
            }
        }
    }

    #[test]
    fn forms_are_recognized_and_equal_their_function() {
        // |1 − |1 + N|| (Prop 4.2 (ii)): a one-peak zigzag at −1 with upturned tails.
        let w = f("[-1] (-2,0) (-1,1) (0,0) [1]");
        let form = pwl_form(&w).unwrap();
        assert_eq!(form.kind(), PwlKind::TailedZigzag);
        assert_eq!(form.to_pwl(), w);
        assert_eq!(form.expr("N"), "max(1 - abs(N + 1), abs(N + 1) - 1)");
        // |1 + N| − 1 (Prop 6.1 at z = 0): a V.
        let v = f("[-1] (-1,-1) [1]");
        assert_eq!(
            pwl_form(&v).unwrap(),
            PwlForm::Vee {
                centre: Q::int(-1),
                base: Q::int(-1)
            }
        );
        // A line, a zigzag, and shapes that are none of them.
        assert_eq!(
            pwl_form(&Pwl::linear(Q::int(2), Q::int(-3)))
                .unwrap()
                .expr("N"),
            "2*N - 3"
        );
        assert_eq!(
            pwl_form(&f("[1] (-2,2) (-1,1) (0,2) (1,1) (2,2) [-1]"))
                .unwrap()
                .kind(),
            PwlKind::Zigzag
        );
        assert!(pwl_form(&f("[-1] (0,0) (1,1) (2,3) [1]")).is_none());
        assert!(pwl_form(&f("[0] (0,0) [2]")).is_none());
    }

    /// F_k(N) = 2 − min over j ∈ {−(2k−2), …, 2k−2} step 2 of |N − j| (Def 6.2).
    fn big_f(k: i64) -> Pwl {
        let z = Zigzag {
            top: Q::int(2),
            first_peak: Q::int(-(2 * k - 2)),
            last_peak: Q::int(2 * k - 2),
            peak_step: Q::int(if k == 1 { 0 } else { 2 }),
        };
        zigzag_pwl(&z)
    }

    #[test]
    fn theorem_6_3_shapes_are_found_across_k_and_x() {
        // (ii) at x = 2k + 2 + t: max{F_k(N), |N| − 2k} + t + 1, on k = 1..8, t = 0..3.
        let mut points = Vec::new();
        for k in 1..=8 {
            let base = big_f(k).max(&vee(&Q::zero(), &Q::int(-2 * k)));
            for t in 0..=3 {
                points.push((vec![k, t], base.add_const(&Q::int(t + 1))));
            }
        }
        let g = grid_form(&["k".to_string(), "t".to_string()], &points).unwrap();
        assert_eq!(g.linear.len(), 1);
        assert_eq!(
            (g.linear[0].name.as_str(), g.linear[0].step.clone()),
            ("t", Q::one())
        );
        let (p, form) = g.shaped.as_ref().unwrap();
        assert_eq!(
            (p.as_str(), form.kind, form.from),
            ("k", PwlKind::TailedZigzag, 2)
        );
        assert_eq!(
            g.expr("N"),
            "max(3 - min(j in -2k+2..2k-2 step 2: abs(N - j)), abs(N) - (2k-1)) + t"
        );
    }

    #[test]
    fn a_grid_with_two_linear_parameters_and_a_bent_one_has_no_form() {
        // Prop 6.1's f(x, x, z) = z − 1 + |1 + N|: linear in x (step 0) and z (step 1).
        let mut points = Vec::new();
        for x in 2..=5 {
            for z in 0..=3 {
                points.push((vec![x, z], vee(&Q::int(-1), &Q::int(z - 1))));
            }
        }
        let g = grid_form(&["x".to_string(), "z".to_string()], &points).unwrap();
        assert!(g.shaped.is_none());
        assert_eq!(g.expr("N"), "abs(N + 1) - 1 + z");
        // Two bent parameters: no form.
        let mut points = Vec::new();
        for a in 1..=4 {
            for b in 1..=4 {
                points.push((vec![a, b], big_f(a).add(&big_f(b))));
            }
        }
        assert!(grid_form(&["a".to_string(), "b".to_string()], &points).is_none());
    }
}
