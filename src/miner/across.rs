//! Closed forms across a one-parameter family of certified periodic-linear forms: the second
//! level of mining.
//!
//! Each member of the family (parameter L = l₀, l₀ + step, …) comes with functions proven
//! periodic-linear, f(Pk + i) = B·k + c_i for n from some start, with the same slope B on every
//! residue or not. This module looks for the pattern along L:
//!
//! - the period P, the start and the common slope B, each as a closed form in L (affine in the
//!   index j of L = l₀ + step·j, fitted with two confirming periods);
//! - the intercept table c_0 … c_{P−1} of each function, per L, as floor/ceil forms in i on one or
//!   two consecutive pieces (with up to two last entries left as exceptions), and then the
//!   coefficients of those forms as closed forms in L — when every member from some L on has
//!   forms of the same shape;
//! - with period 2, where the table is too short to fit in i, the whole function as one
//!   floor/ceil form in n, when it is the same for every L.
//!
//! Everything here is OBSERVED on the range of L: each member's forms are proven, the pattern
//! across L is not. The module knows no game; the caller supplies the members.

use itertools::Itertools;

use super::linear::{FitOptions, FloorForm, FloorKind, affine_text, fit_periodic_linear};
use crate::num::Q;

/// One member of the family: its certified forms summarized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcrossMember {
    /// The parameter L.
    pub l: i64,
    /// The period P of the forms.
    pub period: usize,
    /// The forms hold (proven) from this n on.
    pub from: i64,
    /// The distinct slopes per period B over the residues, increasing.
    pub slopes: Vec<Q>,
    /// For each function, its intercepts c_0 … c_{P−1} (f(Pk + i) = B_i·k + c_i).
    pub intercepts: Vec<Vec<Q>>,
}

/// A quantity along L = l₀, l₀ + step, … as a closed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AcrossFit {
    /// slope·L + constant.
    Affine {
        /// The coefficient of L.
        slope: Q,
        /// The constant term.
        constant: Q,
    },
    /// Periodic-linear in the index j of L = l₀ + step·j, with a longer period or a preperiod:
    /// affine in L on each residue class of L modulo step·period, from L = l₀ + step·preperiod.
    PeriodicInIndex {
        /// The first L.
        l0: i64,
        /// The step in L.
        step: i64,
        /// The least period in j.
        period: usize,
        /// The least preperiod in j.
        preperiod: i64,
        /// One affine form per residue class of L, in the order of the classes' first L.
        classes: Vec<AcrossClass>,
        /// The members before the preperiod, (L, value): no class's form covers them.
        exceptions: Vec<(i64, Q)>,
    },
    /// No periodic-linear form with two confirming periods.
    None,
}

impl AcrossFit {
    /// Fits `values` (at L = l₀, l₀ + step, …).
    pub fn of(values: &[Q], l0: i64, step: i64) -> AcrossFit {
        let opts = FitOptions {
            min_confirming: 2,
            ..FitOptions::default()
        };
        match fit_periodic_linear(values, 0, &opts) {
            Some(fit) if fit.period == 1 && fit.preperiod == 0 => {
                // a(j) = s·j + c with L = l0 + step·j: a = (s/step)·L + (c − s·l0/step).
                let s = &fit.lines[0].slope;
                let c = &fit.lines[0].intercept;
                let slope = s / &Q::int(step);
                let constant = c - &(&slope * &Q::int(l0));
                AcrossFit::Affine { slope, constant }
            }
            Some(fit) => {
                // Class i is j = P·t + i, L = l₀ + step·i + step·P·t, where the fit gives
                // s_i·t + c_i; in L: s_i/(step·P)·L + c_i − s_i·(l₀ + step·i)/(step·P).
                let modulus = step * fit.period as i64;
                let from_j = fit.preperiod;
                let classes = (0..fit.period)
                    .map(|offset| {
                        // The class's first index at or after the preperiod, so that its
                        // residue is stated where the form starts to hold.
                        let j = from_j + offset as i64;
                        let line = &fit.lines[j.rem_euclid(fit.period as i64) as usize];
                        let first = l0 + step * j;
                        let slope = &line.slope / &Q::int(modulus);
                        let at_first = fit.eval(j);
                        let constant = &at_first - &(&slope * &Q::int(first));
                        AcrossClass {
                            residue: first.rem_euclid(modulus),
                            modulus,
                            slope,
                            constant,
                        }
                    })
                    .sorted_by_key(|c: &AcrossClass| c.residue)
                    .collect();
                let exceptions = (0..from_j.min(values.len() as i64))
                    .map(|j| (l0 + step * j, values[j as usize].clone()))
                    .collect();
                AcrossFit::PeriodicInIndex {
                    l0,
                    step,
                    period: fit.period,
                    preperiod: fit.preperiod,
                    classes,
                    exceptions,
                }
            }
            None => AcrossFit::None,
        }
    }

    /// A form periodic in the index as one statement: each residue class's form written by
    /// `class`, joined by `; `, then `, ` and the first L they hold from written by `start`, then
    /// the members before it written by `exception` (`None` for the other forms).
    pub fn per_class(
        &self,
        class: impl Fn(&AcrossClass) -> String,
        start: impl Fn(i64) -> String,
        exception: impl Fn(i64, &Q) -> String,
    ) -> Option<String> {
        let AcrossFit::PeriodicInIndex {
            l0,
            step,
            preperiod,
            classes,
            exceptions,
            ..
        } = self
        else {
            return None;
        };
        let forms: Vec<String> = classes.iter().map(class).collect();
        let mut out = format!("{}, {}", forms.join("; "), start(l0 + step * preperiod));
        if !exceptions.is_empty() {
            let at: Vec<String> = exceptions.iter().map(|(l, v)| exception(*l, v)).collect();
            out.push_str(&format!("; before that {}", at.join(", ")));
        }
        Some(out)
    }

    /// The form as a line about the quantity `name`: `name(L) = …`.
    pub fn text(&self, name: &str) -> String {
        match self {
            AcrossFit::Affine { slope, constant } => {
                format!("{name}(L) = {}", affine_text(slope, constant, "L"))
            }
            AcrossFit::PeriodicInIndex { .. } => self
                .per_class(
                    |c| {
                        format!(
                            "{name}(L) = {} for L ≡ {} (mod {})",
                            affine_text(&c.slope, &c.constant, "L"),
                            c.residue,
                            c.modulus
                        )
                    },
                    |l| format!("L ≥ {l}"),
                    |l, v| format!("{name}({l}) = {v}"),
                )
                .unwrap_or_default(),
            AcrossFit::None => format!("{name}: no closed form found across L"),
        }
    }
}

/// The affine form of a quantity on one residue class of L: slope·L + constant for
/// L ≡ residue (mod modulus).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcrossClass {
    /// L's residue, in 0..modulus.
    pub residue: i64,
    /// The modulus: the step in L times the period in the index.
    pub modulus: i64,
    /// The coefficient of L.
    pub slope: Q,
    /// The constant term.
    pub constant: Q,
}

impl AcrossClass {
    /// Whether L is in the class.
    pub fn contains(&self, l: i64) -> bool {
        l.rem_euclid(self.modulus) == self.residue
    }

    /// The form's value at L.
    pub fn at(&self, l: i64) -> Q {
        &(&self.slope * &Q::int(l)) + &self.constant
    }
}

/// An intercept table c_0 … c_{P−1} as floor/ceil forms on consecutive pieces (each form in the
/// index within its piece), then `tail` last entries left as exceptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableForm {
    /// (first index, form) of each piece.
    pub pieces: Vec<(usize, FloorForm)>,
    /// Entries at the end not covered by a piece.
    pub tail: usize,
}

impl TableForm {
    /// One floor/ceil form on all but the last ≤ 2 entries (needing three confirming periods),
    /// or else two forms split at the first index where both halves have one (one confirming
    /// period each: the pieces are short, and the forms across L are the stronger evidence).
    pub fn fit(c: &[Q]) -> Option<TableForm> {
        let form_of = |v: &[Q], confirming: usize| -> Option<FloorForm> {
            let opts = FitOptions {
                min_confirming: confirming,
                ..FitOptions::default()
            };
            let fit = fit_periodic_linear(v, 0, &opts)?;
            (fit.preperiod == 0).then_some(())?;
            fit.floor_form()
        };
        let single = (0..=2usize).find_map(|tail| {
            let head = c.get(..c.len().checked_sub(tail)?)?;
            Some(TableForm {
                pieces: vec![(0, form_of(head, 3)?)],
                tail,
            })
        });
        single.or_else(|| {
            (6..c.len().saturating_sub(5)).find_map(|split| {
                let (head, rest) = (form_of(&c[..split], 1)?, form_of(&c[split..], 1)?);
                Some(TableForm {
                    pieces: vec![(0, head), (split, rest)],
                    tail: 0,
                })
            })
        })
    }

    /// The value the form gives at index i of a table of `len` entries, where a piece covers i
    /// (`None` for the tail).
    pub fn eval(&self, i: usize, len: usize) -> Option<Q> {
        if i >= len.checked_sub(self.tail)? {
            return None;
        }
        let (start, form) = self.pieces.iter().rev().find(|(s, _)| *s <= i)?;
        let j = (i - start) as i64;
        let term = match form.kind {
            FloorKind::Line => j,
            FloorKind::Floor => j / 2,
            FloorKind::Ceil => (j + 1) / 2,
        };
        let linear = &(&form.slope * &Q::int(term)) + &form.constant;
        Some(&linear + &(&form.parity * &Q::int(j % 2)))
    }

    /// The table form as text, `c_i = … for 0 ≤ i < s; c_(s+i) = … for 0 ≤ i < …`, with the
    /// tail entries of `c` written out.
    pub fn text(&self, c: &[Q]) -> String {
        let p = c.len();
        let ends: Vec<usize> = self
            .pieces
            .iter()
            .skip(1)
            .map(|(s, _)| *s)
            .chain([p - self.tail])
            .collect();
        let mut parts: Vec<String> = self
            .pieces
            .iter()
            .zip(&ends)
            .map(|((start, f), end)| {
                let lhs = if *start == 0 {
                    "c_i".to_string()
                } else {
                    format!("c_({start}+i)")
                };
                format!("{lhs} = {} for 0 ≤ i < {}", f.text("i"), end - start)
            })
            .collect();
        parts.extend((p - self.tail..p).map(|i| format!("c_{i} = {}", c[i])));
        parts.join("; ")
    }

    /// The shape: the kind of each piece, and how many tail entries.
    fn shape(&self) -> (Vec<FloorKind>, usize) {
        (self.pieces.iter().map(|(_, f)| f.kind).collect(), self.tail)
    }
}

/// One piece of the intercept forms with its coefficients across L.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceAcross {
    /// The shape of the piece (the same for every L).
    pub kind: FloorKind,
    /// Where the piece starts, s_k(L) (`None` for the first piece, which starts at 0).
    pub start: Option<AcrossFit>,
    /// The coefficient a_k(L) of i, ⌊i/2⌋ or ⌈i/2⌉.
    pub slope: AcrossFit,
    /// The constant b_k(L).
    pub constant: AcrossFit,
    /// The coefficient d_k(L) of (i mod 2), for floor pieces.
    pub parity: Option<AcrossFit>,
}

/// What the intercept tables of one function do across L.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterceptsAcross {
    /// Period 2 for every L and one floor/ceil form of the whole function in n, the same for
    /// every L.
    Whole(FloorForm),
    /// No member has a floor/ceil form of its intercepts.
    NoForm,
    /// The forms change shape along L, or too few members (under four) share one.
    ShapeChanges,
    /// From `from_l` on every member's table has forms of one shape; their coefficients across L.
    Forms {
        /// The first L of the run.
        from_l: i64,
        /// The pieces.
        pieces: Vec<PieceAcross>,
        /// The tail entries c_(P−back) across L, for back = tail, …, 1.
        tail: Vec<(usize, AcrossFit)>,
    },
}

/// One function of the family across L.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionAcross {
    /// The function's name, e.g. `f_A`.
    pub name: String,
    /// Each member's intercept table form, when it has one.
    pub tables: Vec<Option<TableForm>>,
    /// The pattern across L.
    pub across: InterceptsAcross,
}

/// The second-level analysis of a family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcrossAnalysis {
    /// The members, in increasing L.
    pub members: Vec<AcrossMember>,
    /// The period P(L).
    pub period: AcrossFit,
    /// Where the forms are proven from, as a function of L.
    pub proven_from: AcrossFit,
    /// Each function's intercepts.
    pub functions: Vec<FunctionAcross>,
    /// The common slope B(L), when every member has one slope on all residues.
    pub slope: Option<AcrossFit>,
}

/// Analyses `members` (at L = l₀, l₀ + step, …, in that order), whose intercept tables are of
/// the functions `names` in order.
pub fn across_analysis(members: Vec<AcrossMember>, names: &[&str], step: i64) -> AcrossAnalysis {
    let l0 = members.first().map_or(0, |m| m.l);
    let per_l = |f: &dyn Fn(&AcrossMember) -> Q| members.iter().map(f).collect::<Vec<Q>>();
    let period = AcrossFit::of(&per_l(&|m| Q::int(m.period as i64)), l0, step);
    let proven_from = AcrossFit::of(&per_l(&|m| Q::int(m.from)), l0, step);
    let functions = names
        .iter()
        .enumerate()
        .map(|(j, name)| {
            let tables: Vec<Option<TableForm>> = members
                .iter()
                .map(|m| TableForm::fit(&m.intercepts[j]))
                .collect();
            let across = match whole_period_two(&members, j) {
                Some(form) => InterceptsAcross::Whole(form),
                None => intercepts_across(&members, &tables, step, j),
            };
            FunctionAcross {
                name: name.to_string(),
                tables,
                across,
            }
        })
        .collect();
    let slope = members
        .iter()
        .all(|m| m.slopes.len() == 1)
        .then(|| AcrossFit::of(&per_l(&|m| m.slopes[0].clone()), l0, step));
    AcrossAnalysis {
        members,
        period,
        proven_from,
        functions,
        slope,
    }
}

/// With period 2 the intercept table is too short to fit in i; the whole function is then one
/// floor/ceil form in n (from the certified lines), and if it is the same for every L, that is
/// the closed form across L.
fn whole_period_two(members: &[AcrossMember], j: usize) -> Option<FloorForm> {
    let forms: Option<Vec<FloorForm>> = members
        .iter()
        .map(|m| match (&m.slopes[..], &m.intercepts[j][..]) {
            ([slope], [c0, c1]) if m.period == 2 => Some(FloorForm::of_period_two(slope, c0, c1)),
            _ => None,
        })
        .collect();
    let forms = forms.filter(|f| !f.is_empty() && f.windows(2).all(|w| w[0] == w[1]))?;
    forms.into_iter().next()
}

/// The coefficients of the intercept forms as closed forms in L, over the members (consecutive
/// in the range, from the first with a form) whose tables have forms of the same shape.
fn intercepts_across(
    members: &[AcrossMember],
    tables: &[Option<TableForm>],
    step: i64,
    j: usize,
) -> InterceptsAcross {
    let Some(first) = tables.iter().position(Option::is_some) else {
        return InterceptsAcross::NoForm;
    };
    let reference = tables[first].as_ref().expect("found").shape();
    let same = tables[first..]
        .iter()
        .all(|f| f.as_ref().is_some_and(|t| t.shape() == reference));
    if !same || members.len() - first < 4 {
        return InterceptsAcross::ShapeChanges;
    }
    let l0 = members[first].l;
    let ts: Vec<&TableForm> = tables[first..].iter().flatten().collect();
    let across = |values: Vec<Q>| AcrossFit::of(&values, l0, step);
    let pieces = reference
        .0
        .iter()
        .enumerate()
        .map(|(k, kind)| PieceAcross {
            kind: *kind,
            start: (k > 0)
                .then(|| across(ts.iter().map(|t| Q::int(t.pieces[k].0 as i64)).collect())),
            slope: across(ts.iter().map(|t| t.pieces[k].1.slope.clone()).collect()),
            constant: across(ts.iter().map(|t| t.pieces[k].1.constant.clone()).collect()),
            parity: (*kind == FloorKind::Floor)
                .then(|| across(ts.iter().map(|t| t.pieces[k].1.parity.clone()).collect())),
        })
        .collect();
    let tail = (1..=reference.1)
        .rev()
        .map(|back| {
            let values: Vec<Q> = members[first..]
                .iter()
                .map(|m| m.intercepts[j][m.period - back].clone())
                .collect();
            (back, across(values))
        })
        .collect();
    InterceptsAcross::Forms {
        from_l: l0,
        pieces,
        tail,
    }
}

impl AcrossAnalysis {
    /// The analysis as text: `Across L (OBSERVED on the range):`, the period and the start,
    /// each function's intercept tables per L and their pattern, and the slope.
    pub fn text(&self) -> String {
        let mut out = String::from("Across L (OBSERVED on the range):\n");
        out.push_str(&format!("  {}\n", self.period.text("period")));
        out.push_str(&format!("  {}\n", self.proven_from.text("proven_from")));
        for (j, f) in self.functions.iter().enumerate() {
            let name = &f.name;
            for (m, t) in self.members.iter().zip(&f.tables) {
                let c: Vec<String> = m.intercepts[j].iter().map(Q::to_string).collect();
                let form = t
                    .as_ref()
                    .map_or(String::new(), |t| format!(": {}", t.text(&m.intercepts[j])));
                out.push_str(&format!(
                    "  L = {}: {name}({}k + i) = B·k + c_i, c = [{}]{form}\n",
                    m.l,
                    m.period,
                    c.join(", ")
                ));
            }
            out.push_str(&f.across.text(name));
        }
        match &self.slope {
            Some(slope) => out.push_str(&format!("  {}\n", slope.text("slope"))),
            None => out.push_str("  slopes differ between residues for some L\n"),
        }
        out
    }
}

impl InterceptsAcross {
    /// The pattern as indented lines about the function `name`.
    pub fn text(&self, name: &str) -> String {
        match self {
            InterceptsAcross::Whole(form) => format!(
                "  {name}(n) = {} for n ≥ proven_from, for every L in the range (each PROVEN)\n",
                form.text("n")
            ),
            InterceptsAcross::NoForm => {
                format!("  {name}: no floor/ceil form of the intercepts\n")
            }
            InterceptsAcross::ShapeChanges => {
                format!("  {name}: the intercept forms change shape across L\n")
            }
            InterceptsAcross::Forms {
                from_l,
                pieces,
                tail,
            } => {
                let mut out = format!("  {name}: for L ≥ {from_l} (OBSERVED on the range):\n");
                for (k, piece) in pieces.iter().enumerate() {
                    let term = match piece.kind {
                        FloorKind::Line => "i",
                        FloorKind::Floor => "⌊i/2⌋",
                        FloorKind::Ceil => "⌈i/2⌉",
                    };
                    let start = if k == 0 {
                        "c_i".to_string()
                    } else {
                        format!("c_(s{k}+i)")
                    };
                    let parity = if piece.parity.is_some() {
                        format!(" + d{k}·(i mod 2)")
                    } else {
                        String::new()
                    };
                    out.push_str(&format!(
                        "    {start} = a{k}·{term} + b{k}{parity} on piece {k}\n"
                    ));
                    if let Some(s) = &piece.start {
                        out.push_str(&format!("    {}\n", s.text(&format!("s{k}"))));
                    }
                    out.push_str(&format!("    {}\n", piece.slope.text(&format!("a{k}"))));
                    out.push_str(&format!("    {}\n", piece.constant.text(&format!("b{k}"))));
                    if let Some(d) = &piece.parity {
                        out.push_str(&format!("    {}\n", d.text(&format!("d{k}"))));
                    }
                }
                for (back, fit) in tail {
                    out.push_str(&format!("    {}\n", fit.text(&format!("c_(P-{back})"))));
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qs(v: &[i64]) -> Vec<Q> {
        v.iter().map(|&x| Q::int(x)).collect()
    }

    #[test]
    fn quantities_along_l_are_fitted_in_l_not_in_the_index() {
        // 3L + 1 at L = 4, 6, 8, …: in the index j it is 6j + 13.
        let values: Vec<Q> = (0..8).map(|j| Q::int(3 * (4 + 2 * j) + 1)).collect();
        assert_eq!(
            AcrossFit::of(&values, 4, 2),
            AcrossFit::Affine {
                slope: Q::int(3),
                constant: Q::int(1)
            }
        );
        assert_eq!(AcrossFit::of(&values, 4, 2).text("P"), "P(L) = 3L+1");
        // Alternating: periodic in the index, not affine.
        let alternating = qs(&[1, 5, 1, 5, 1, 5, 1, 5, 1, 5]);
        assert!(matches!(
            AcrossFit::of(&alternating, 1, 1),
            AcrossFit::PeriodicInIndex { period: 2, .. }
        ));
        assert_eq!(AcrossFit::of(&qs(&[1, 2]), 1, 1), AcrossFit::None);
    }

    #[test]
    fn a_quantity_periodic_in_the_index_is_affine_on_each_residue_class_of_l() {
        // L = 2, 3, …, 23: L + 1 on even L, 2 on odd L, with an odd first member at L = 3
        // breaking the pattern (a preperiod of two).
        let at = |l: i64| match l {
            3 => 9,
            _ if l % 2 == 0 => l + 1,
            _ => 2,
        };
        let values: Vec<Q> = (2..24).map(|l| Q::int(at(l))).collect();
        let fit = AcrossFit::of(&values, 2, 1);
        let AcrossFit::PeriodicInIndex {
            classes,
            exceptions,
            preperiod,
            ..
        } = &fit
        else {
            panic!("not periodic in the index: {fit:?}")
        };
        assert_eq!(exceptions, &[(2, Q::int(3)), (3, Q::int(9))]);
        assert_eq!(*preperiod, 2);
        let residues: Vec<i64> = classes.iter().map(|c| c.residue).collect();
        assert_eq!(residues, [0, 1]);
        // Every member from the preperiod on is rebuilt by its class's form.
        for l in 4..24 {
            let class = classes.iter().find(|c| c.contains(l)).unwrap();
            assert_eq!(class.at(l), Q::int(at(l)), "L = {l}");
        }
        assert_eq!(
            fit.text("P"),
            "P(L) = L+1 for L ≡ 0 (mod 2); P(L) = 2 for L ≡ 1 (mod 2), L ≥ 4; before that \
             P(2) = 3, P(3) = 9"
        );
        // With a step of 2 the classes are modulo 2·period.
        let steps: Vec<Q> = (0..12)
            .map(|j| Q::int(if j % 2 == 0 { 5 } else { j }))
            .collect();
        let AcrossFit::PeriodicInIndex { classes, .. } = AcrossFit::of(&steps, 1, 2) else {
            panic!("not periodic in the index")
        };
        assert!(classes.iter().all(|c| c.modulus == 4));
        for j in 0..12 {
            let l = 1 + 2 * j;
            let class = classes.iter().find(|c| c.contains(l)).unwrap();
            assert_eq!(class.at(l), steps[j as usize], "L = {l}");
        }
    }

    #[test]
    fn table_forms_reproduce_the_table_they_were_fitted_to() {
        // A line with two exceptional last entries; a floor form; two pieces.
        let line: Vec<Q> = (0..20)
            .map(|i| Q::int(3 * i + 2))
            .chain(qs(&[7, 9]))
            .collect();
        let floor: Vec<Q> = (0..24)
            .map(|i| Q::int(5 * (i / 2) + 1 + 2 * (i % 2)))
            .collect();
        let two: Vec<Q> = (0..10)
            .map(|i| Q::int(2 * i))
            .chain((0..10).map(|i| Q::int(100 - i)))
            .collect();
        for c in [line, floor, two] {
            let t = TableForm::fit(&c).expect("a form");
            for (i, v) in c.iter().enumerate() {
                if let Some(x) = t.eval(i, c.len()) {
                    assert_eq!(&x, v, "i = {i}: {}", t.text(&c));
                } else {
                    assert!(i >= c.len() - t.tail);
                }
            }
        }
    }

    /// A family whose intercepts are c_i = L + i on period P = L (one line per member).
    fn family(ls: &[i64]) -> Vec<AcrossMember> {
        ls.iter()
            .map(|&l| AcrossMember {
                l,
                period: l as usize,
                from: 2 * l,
                slopes: vec![Q::int(l)],
                intercepts: vec![(0..l).map(|i| Q::int(l + i)).collect()],
            })
            .collect()
    }

    #[test]
    fn the_coefficients_of_a_regular_family_are_found_in_l() {
        let a = across_analysis(family(&[10, 12, 14, 16, 18, 20]), &["f"], 2);
        let affine = |slope: i64, constant: i64| AcrossFit::Affine {
            slope: Q::int(slope),
            constant: Q::int(constant),
        };
        assert_eq!(a.period, affine(1, 0));
        assert_eq!(a.proven_from, affine(2, 0));
        assert_eq!(a.slope, Some(affine(1, 0)));
        let InterceptsAcross::Forms {
            from_l,
            pieces,
            tail,
        } = &a.functions[0].across
        else {
            panic!("{:?}", a.functions[0].across)
        };
        assert_eq!((*from_l, pieces.len()), (10, 1));
        assert_eq!(pieces[0].kind, FloorKind::Line);
        // c_i = 1·i + L.
        assert_eq!(pieces[0].slope, affine(0, 1));
        assert_eq!(pieces[0].constant, affine(1, 0));
        assert!(tail.is_empty());
        assert!(a.text().contains("    b0(L) = L\n"), "{}", a.text());
    }

    #[test]
    fn too_few_members_or_changing_shapes_are_said_so() {
        let a = across_analysis(family(&[10, 12, 14]), &["f"], 2);
        assert_eq!(a.functions[0].across, InterceptsAcross::ShapeChanges);
        let mut mixed = family(&[10, 12, 14, 16, 18]);
        mixed[2].slopes.push(Q::int(1));
        let a = across_analysis(mixed, &["f"], 2);
        assert_eq!(a.slope, None);
        assert!(
            a.text()
                .ends_with("  slopes differ between residues for some L\n")
        );
    }

    #[test]
    fn period_two_members_share_one_form_in_n() {
        // f(2k) = 3k, f(2k + 1) = 3k + 2 for every L: f(n) = 3·⌈n/2⌉ − (n mod 2)… as one form.
        let members: Vec<AcrossMember> = (1..6)
            .map(|l| AcrossMember {
                l,
                period: 2,
                from: 0,
                slopes: vec![Q::int(3)],
                intercepts: vec![qs(&[0, 2])],
            })
            .collect();
        let a = across_analysis(members, &["f"], 1);
        let InterceptsAcross::Whole(form) = &a.functions[0].across else {
            panic!("{:?}", a.functions[0].across)
        };
        assert_eq!(
            form,
            &FloorForm::of_period_two(&Q::int(3), &Q::int(0), &Q::int(2))
        );
    }
}
