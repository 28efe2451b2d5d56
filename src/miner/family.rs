//! Closed forms along a one-parameter family: each numeric quantity of the members (heap sizes,
//! values, counts) as a periodic-linear function of the parameter k, the breakpoint structure of
//! a piecewise-linear quantity, and — when every member from some k on has one of the forms of
//! [`super::pwl_form`](mod@super::pwl_form) (a zigzag, a zigzag with upturned tails, …) with its numbers affine in
//! k — one closed form in (N, k) for the whole family.
//!
//! Everything here is OBSERVED on the members given: the data says nothing about the members
//! beyond it (callers may re-verify a form elsewhere, e.g. with the claims checker).

use super::linear::{FitOptions, PeriodicLinear, fit_periodic_linear};
use super::progressions::{
    CONFIRMING, NoProgressionForm, ProgressionFamily, mine_progressions_confirmed,
};
use super::pwl_form::{FamilyForm, PwlKind, family_form};
use super::shape::{PwlShape, pwl_shape};
use crate::num::{Pwl, Q};

/// One quantity along the family and its fit (`None`: no periodic-linear form).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantityFit {
    /// The quantity's name.
    pub name: String,
    /// Its closed form in the parameter.
    pub fit: Option<PeriodicLinear>,
}

/// The breakpoints of the piecewise-linear quantity along the family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BreakpointForms {
    /// Some member's breakpoints are not an arithmetic progression.
    Irregular,
    /// Every member's breakpoints form an arithmetic progression.
    Progression {
        /// `first_breakpoint`, `last_breakpoint` and `breakpoint_step` in the parameter.
        fits: Vec<QuantityFit>,
        /// The last member's cycle of values at the breakpoints, and the first parameter value
        /// from which every member shares it (`None` when fewer than three members do).
        cycle: Option<(Vec<Q>, i64)>,
    },
}

/// A closed form in (N, k) of a family of PWL functions, e.g. a family of zigzags
/// f(N) = top − min_j |N − j| over the peaks j = first, first + step, …, last, all affine in k.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosedForm {
    /// The parameter's name.
    pub param: String,
    /// Which form.
    pub kind: PwlKind,
    /// The formula in the claims' expression language (variables N and the parameter).
    pub expr: String,
    /// The form itself, its numbers affine in the parameter (what `expr` and the window print).
    pub form: FamilyForm,
    /// The first member it is found for.
    pub from: i64,
    /// The last member of the data.
    pub to: i64,
    /// Where to check it: N from two below the first breakpoint …
    pub n_from: String,
    /// … to two beyond the last, affine in the parameter.
    pub n_to: String,
}

/// The closed forms of a family's quantities, as [`mine_family`] finds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilyForms {
    /// The parameter's name.
    pub param: String,
    /// The first and last parameter value of the data.
    pub range: (i64, i64),
    /// One fit per numeric quantity, in the order given.
    pub quantities: Vec<QuantityFit>,
    /// The piecewise-linear quantity's name and the forms of its breakpoints (absent without one).
    pub breakpoints: Option<(String, BreakpointForms)>,
    /// The closed form of the piecewise-linear quantity, when one of the fixed templates fits.
    pub closed: Option<ClosedForm>,
    /// Without a template form, the general one: breakpoints as progressions whose numbers are
    /// periodic-linear in the parameter, or why there is none (absent with a template form or
    /// when some member has no function).
    pub progressions: Option<Result<ProgressionFamily, NoProgressionForm>>,
    /// Without a progressions form, the tail of the members' functions whose intercept follows
    /// no periodic-linear form, if one does ([`irregular_tail`]).
    pub irregular_tail: Option<IrregularTail>,
}

/// Members a closed form must cover (from the first of the final run with its kind).
const MIN_CLOSED: usize = 5;

/// Members sharing the final cycle of breakpoint values for the cycle to be reported.
const MIN_CYCLE_RUN: usize = 3;

/// How much of the data confirms a family's forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilyOptions {
    /// Members a progressions form needs beyond the two per residue class that fix its lines
    /// (see [`mine_progressions_confirmed`]): by default one; none when the caller tests every
    /// form on members beyond the data anyway.
    pub progressions_confirming: usize,
}

impl Default for FamilyOptions {
    fn default() -> FamilyOptions {
        FamilyOptions {
            progressions_confirming: CONFIRMING,
        }
    }
}

/// Fits the quantities of the members k = `first`, `first` + 1, … (every vector one value per
/// member) and, with `pwl` = (name, one function per member, `None` where a member has none),
/// the breakpoint structure and zigzag form of that quantity.
///
/// # Panics
///
/// If a quantity or the functions do not have one entry per member of the first quantity.
pub fn mine_family(
    param: &str,
    first: i64,
    quantities: &[(String, Vec<Q>)],
    pwl: Option<(&str, &[Option<Pwl>])>,
) -> FamilyForms {
    mine_family_with(param, first, quantities, pwl, &FamilyOptions::default())
}

/// [`mine_family`] with the confirmation its progressions form needs.
///
/// # Panics
///
/// As [`mine_family`].
pub fn mine_family_with(
    param: &str,
    first: i64,
    quantities: &[(String, Vec<Q>)],
    pwl: Option<(&str, &[Option<Pwl>])>,
    opts: &FamilyOptions,
) -> FamilyForms {
    let members = quantities
        .first()
        .map(|(_, v)| v.len())
        .or(pwl.map(|(_, f)| f.len()))
        .unwrap_or(0);
    let fit = |values: &[Q], offset: i64| {
        assert_eq!(values.len(), members, "one value per member");
        fit_quantity(values, offset)
    };
    let quantities = quantities
        .iter()
        .map(|(name, values)| QuantityFit {
            name: name.clone(),
            fit: fit(values, first),
        })
        .collect();
    let (breakpoints, closed, progressions, irregular) = match pwl {
        Some((name, fs)) => {
            assert_eq!(fs.len(), members, "one function per member");
            let closed = closed_form(fs, first, param);
            let all: Option<Vec<Pwl>> = fs.iter().cloned().collect();
            let (progressions, irregular) = match (&closed, all) {
                (None, Some(all)) => {
                    let form = mine_progressions_confirmed(
                        param,
                        first,
                        &all,
                        opts.progressions_confirming,
                    );
                    let irregular = form
                        .is_err()
                        .then(|| irregular_tail(param, first, &all))
                        .flatten();
                    (Some(form), irregular)
                }
                _ => (None, None),
            };
            (
                Some((name.to_string(), breakpoint_forms(fs, first))),
                closed,
                progressions,
                irregular,
            )
        }
        None => (None, None, None, None),
    };
    FamilyForms {
        param: param.to_string(),
        range: (first, first + members as i64 - 1),
        quantities,
        breakpoints,
        closed,
        progressions,
        irregular_tail: irregular,
    }
}

/// A quantity's periodic-linear fit: with the default confirmation (three full periods beyond
/// the two that fix the lines), else with one — a family's data is short (k = 1..14 holds only
/// four full periods of 3), and a closed form found so is re-verified beyond the data anyway.
fn fit_quantity(values: &[Q], offset: i64) -> Option<PeriodicLinear> {
    fit_periodic_linear(values, offset, &FitOptions::default()).or_else(|| {
        let once = FitOptions {
            min_confirming: 1,
            ..FitOptions::default()
        };
        fit_periodic_linear(values, offset, &once)
    })
}

/// Which tail of a piecewise-linear function: beyond its last breakpoint or before its first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TailSide {
    /// N → −∞.
    Left,
    /// N → +∞.
    Right,
}

/// A tail of a family's functions whose slope is the same for every member but whose intercept
/// follows no periodic-linear form in the parameter: where a family without a closed form
/// loses its regularity. A form of the progressions miner's kind has every number linear in
/// k along each residue class, its tails' intercepts included, so this is the first thing a
/// reader checks, and the values show how the intercept moves (2-adic jumps, say, which no
/// period fits).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IrregularTail {
    /// Which tail.
    pub side: TailSide,
    /// Its slope, common to every member.
    pub slope: Q,
    /// The family's parameter.
    pub param: String,
    /// The first member's parameter.
    pub first: i64,
    /// The intercept c of the tail s·N + c of each member, in order.
    pub intercepts: Vec<Q>,
    /// The longest period a fit could try on this many members.
    pub max_period: usize,
}

impl std::fmt::Display for IrregularTail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let last = self.first + self.intercepts.len() as i64 - 1;
        let values: Vec<String> = self.intercepts.iter().map(Q::to_string).collect();
        let p = &self.param;
        write!(
            f,
            "the intercept c of the {} tail {} follows no periodic-linear form in {p} with period ≤ {} on {p} = {}..{last} (c = {})",
            match self.side {
                TailSide::Left => "left",
                TailSide::Right => "right",
            },
            if self.slope.is_zero() {
                "c".to_string()
            } else {
                format!(
                    "{} + c",
                    crate::num::line_formula(&self.slope, &Q::zero(), "N")
                )
            },
            self.max_period,
            self.first,
            values.join(", ")
        )
    }
}

/// The first tail of `fs` (members `param` = `first`, `first` + 1, …), right then left, with one
/// slope for every member and an intercept that the quantities' fit (a period confirmed once
/// at the least) finds no form for; `None` when both tails are regular or a slope varies.
pub fn irregular_tail(param: &str, first: i64, fs: &[Pwl]) -> Option<IrregularTail> {
    [TailSide::Right, TailSide::Left]
        .into_iter()
        .find_map(|side| {
            let slope = |f: &Pwl| match side {
                TailSide::Left => f.left_slope().clone(),
                TailSide::Right => f.right_slope().clone(),
            };
            let common = slope(fs.first()?);
            if fs.iter().any(|f| slope(f) != common) {
                return None;
            }
            let intercepts: Vec<Q> = fs
                .iter()
                .map(|f| match side {
                    TailSide::Left => f.left_intercept(),
                    TailSide::Right => f.right_intercept(),
                })
                .collect();
            if fit_quantity(&intercepts, first).is_some() {
                return None;
            }
            Some(IrregularTail {
                side,
                slope: common,
                param: param.to_string(),
                first,
                max_period: intercepts.len() / MIN_PERIODS_OF_A_FIT,
                intercepts,
            })
        })
}

/// Periods of data the weakest fit of [`fit_quantity`] needs: two that fix the lines and one
/// that confirms them.
const MIN_PERIODS_OF_A_FIT: usize = 3;

/// A name for the index of a residue class that is not the parameter's (nor N):
/// `breakpoints(k = 2j) = 4j-1`, never `breakpoints(2k) = 4k-1` with k the family's own.
pub fn residue_index(param: &str) -> &'static str {
    ["j", "i", "m", "n", "r", "s", "t"]
        .into_iter()
        .find(|&n| n != param)
        .expect("seven names, one parameter")
}

/// First and last breakpoint and the step as closed forms in the parameter, and the cycle of
/// values at the breakpoints.
fn breakpoint_forms(fs: &[Option<Pwl>], first: i64) -> BreakpointForms {
    let Some(shapes) = fs
        .iter()
        .map(|f| f.as_ref().and_then(pwl_shape))
        .collect::<Option<Vec<PwlShape>>>()
    else {
        return BreakpointForms::Irregular;
    };
    let fit_of = |name: &str, values: Vec<Q>| QuantityFit {
        name: name.to_string(),
        fit: fit_periodic_linear(&values, first, &FitOptions::default()),
    };
    let fits = vec![
        fit_of(
            "first_breakpoint",
            shapes.iter().map(|s| s.first.clone()).collect(),
        ),
        fit_of(
            "last_breakpoint",
            shapes.iter().map(|s| s.last.clone()).collect(),
        ),
        fit_of(
            "breakpoint_step",
            shapes.iter().map(|s| s.step.clone()).collect(),
        ),
    ];
    // The cycle of the last member, and from which member on it holds.
    let cycle = shapes.last().and_then(|l| {
        let last = &l.value_cycle;
        let from = shapes
            .iter()
            .rposition(|s| &s.value_cycle != last)
            .map_or(0, |i| i + 1);
        (shapes.len() - from >= MIN_CYCLE_RUN).then(|| (last.clone(), first + from as i64))
    });
    BreakpointForms::Progression { fits, cycle }
}

/// The closed form, when every member from some k on (at least [`MIN_CLOSED`] of them) has a
/// form of one kind with its numbers affine in k; members without a function end the run.
fn closed_form(fs: &[Option<Pwl>], first: i64, param: &str) -> Option<ClosedForm> {
    let start = fs.iter().rposition(Option::is_none).map_or(0, |i| i + 1);
    let run: Vec<Pwl> = fs[start..].iter().flatten().cloned().collect();
    let form = family_form(first + start as i64, &run)?;
    if (form.to - form.from + 1) < MIN_CLOSED as i64 {
        return None;
    }
    let (n_from, n_to) = form.window(param);
    Some(ClosedForm {
        param: param.to_string(),
        kind: form.kind,
        expr: form.expr("N", param),
        from: form.from,
        to: form.to,
        n_from,
        n_to,
        form,
    })
}

impl FamilyForms {
    /// Every fit found, in order: the quantities, then the breakpoint forms.
    pub fn fits(&self) -> impl Iterator<Item = (&str, &PeriodicLinear)> {
        let breakpoints = match &self.breakpoints {
            Some((_, BreakpointForms::Progression { fits, .. })) => &fits[..],
            _ => &[],
        };
        self.quantities
            .iter()
            .chain(breakpoints)
            .filter_map(|q| Some((q.name.as_str(), q.fit.as_ref()?)))
    }

    /// The forms in words, one formula a line (what `nimlab mine family` prints).
    pub fn text(&self) -> String {
        let p = &self.param;
        let (k0, k1) = self.range;
        let index = residue_index(p);
        let formulas = |out: &mut String, name: &str, fit: &PeriodicLinear| {
            for f in fit.formulas_of_class(name, p, index) {
                out.push_str(&format!("  {f}\n"));
            }
        };
        let mut out = String::new();
        for q in &self.quantities {
            match &q.fit {
                Some(fit) => {
                    out.push_str(&format!(
                        "{}: period {} in {p}, from {p} = {} (OBSERVED on {p} = {k0}..{k1})\n",
                        q.name, fit.period, fit.preperiod
                    ));
                    formulas(&mut out, &q.name, fit);
                }
                None => out.push_str(&format!("{}: no periodic-linear form in {p}\n", q.name)),
            }
        }
        let Some((name, forms)) = &self.breakpoints else {
            return out;
        };
        match forms {
            BreakpointForms::Irregular => out.push_str(&format!(
                "{name}: breakpoints are not an arithmetic progression for every member\n"
            )),
            BreakpointForms::Progression { fits, cycle } => {
                out.push_str(&format!(
                    "{name}: breakpoints form an arithmetic progression for every member\n"
                ));
                for q in fits {
                    match &q.fit {
                        Some(fit) => formulas(&mut out, &q.name, fit),
                        None => {
                            out.push_str(&format!("  {}: no periodic-linear form in {p}\n", q.name))
                        }
                    }
                }
                out.push_str(&match cycle {
                    Some((values, from)) => format!(
                        "  values at the breakpoints cycle ({}) from the first, for {p} ≥ {from}\n",
                        values
                            .iter()
                            .map(Q::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => format!("  the cycle of values at the breakpoints changes with {p}\n"),
                });
            }
        }
        if let Some(z) = &self.closed {
            out.push_str(&format!(
                "{name}: closed form f(N) = {}  ({p} ≥ {})\n",
                z.expr, z.from
            ));
        }
        match &self.progressions {
            Some(Ok(form)) => {
                out.push_str(&format!(
                    "{name}: breakpoints as progressions in N, period {} in {p}, from {p} = {} (OBSERVED on {p} = {k0}..{k1})\n",
                    form.period, form.from
                ));
                for line in form.describe(p, index) {
                    out.push_str(&format!("  {line}\n"));
                }
                for a in &form.anomalies {
                    out.push_str(&format!(
                        "  anomaly: {p} = {} breaks the form: at N = {} the form gives {}, the member {}\n",
                        a.member, a.at, a.form, a.data
                    ));
                }
                out.push_str(&format!(
                    "{name}: closed form f(N) = {}  ({p} ≥ {})\n",
                    form.expr("N", p),
                    form.from
                ));
            }
            Some(Err(why)) => {
                out.push_str(&format!("{name}: no closed form: {why}\n"));
                if let Some(tail) = &self.irregular_tail {
                    out.push_str(&format!("  {tail}\n"));
                }
            }
            None => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tail_whose_intercept_jumps_at_powers_of_two_is_irregular() {
        // f_k(N) = max(k, N + c(k)) with c(k) the lowest set bit of k: 1, 2, 1, 4, 1, 2, 1, 8, …
        // — no period fits, the left tail (the constant k) is a line in k.
        let lowest_bit = |k: i64| k & -k;
        let family = |c: &dyn Fn(i64) -> i64, slope: &dyn Fn(i64) -> i64| -> Vec<Pwl> {
            (1..=16)
                .map(|k| Pwl::constant(Q::int(k)).max(&Pwl::linear(Q::int(slope(k)), Q::int(c(k)))))
                .collect()
        };
        let irregular = irregular_tail("k", 1, &family(&lowest_bit, &|_| 1)).unwrap();
        assert_eq!(irregular.side, TailSide::Right);
        assert_eq!(irregular.slope, Q::one());
        assert_eq!(irregular.max_period, 5);
        assert_eq!(
            irregular.intercepts[..8],
            [1, 2, 1, 4, 1, 2, 1, 8].map(Q::int)
        );
        assert_eq!(
            irregular.to_string(),
            "the intercept c of the right tail N + c follows no periodic-linear form in k with \
             period ≤ 5 on k = 1..16 (c = 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16)"
        );
        // The family's own parameter and first member name the range.
        let in_m = irregular_tail("m", 3, &family(&lowest_bit, &|_| 1)).unwrap();
        assert!(
            in_m.to_string()
                .contains("no periodic-linear form in m with period ≤ 5 on m = 3..18 (c = 1, 2,"),
            "{in_m}"
        );
        // An intercept periodic-linear in k (period 2 here) is regular.
        assert_eq!(
            irregular_tail("k", 1, &family(&|k| 3 * k + (k % 2) * 5, &|_| 1)),
            None
        );
        // A slope that changes from member to member leaves the intercepts incomparable.
        assert_eq!(
            irregular_tail("k", 1, &family(&lowest_bit, &|k| 1 + k % 2)),
            None
        );
    }

    #[test]
    fn affine_quantities_are_found_with_their_range() {
        let v: Vec<Q> = (1..=10).map(|m| Q::int(62 * m + 36)).collect();
        let forms = mine_family("m", 1, &[("v".to_string(), v)], None);
        assert_eq!(forms.range, (1, 10));
        assert_eq!(
            forms.text(),
            "v: period 1 in m, from m = 1 (OBSERVED on m = 1..10)\n  v(m) = 62m+36  (m ≥ 1)\n"
        );
        assert_eq!(forms.fits().count(), 1);
    }

    #[test]
    fn a_family_of_zigzags_gets_one_closed_form() {
        // F_k(N) = 2 − min_j |N − j|, j = −(2k−2), …, 2k−2 step 2 (Scoring Nim, Def 6.2).
        let f = |k: i64| -> Option<Pwl> {
            let pts: Vec<(Q, Q)> = (-(2 * k - 2)..=(2 * k - 2))
                .map(|x| (Q::int(x), Q::int(if x % 2 == 0 { 2 } else { 1 })))
                .collect();
            Pwl::from_points(Q::int(1), pts, Q::int(-1)).ok()
        };
        let fs: Vec<Option<Pwl>> = (1..=8).map(f).collect();
        let forms = mine_family("k", 1, &[], Some(("payoff", &fs)));
        let z = forms.closed.clone().expect("a closed form");
        assert_eq!(z.expr, "2 - min(j in -2k+2..2k-2 step 2: abs(N - j))");
        assert_eq!((z.from, z.to), (2, 8));
        assert!(
            forms
                .text()
                .contains("values at the breakpoints cycle (2, 1) from the first, for k ≥ 2")
        );
    }
}
