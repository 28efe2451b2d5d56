//! Periodic-linear closed forms: a(Pk + i) = B_i·k + c_i for every n = Pk + i ≥ n₀, with one
//! slope and intercept per residue i — the shape of the NIM with Cash appendix
//! (f(16k + 3) = 10k + 5) and, with all B_i = 0, of plain eventual periodicity.
//!
//! Test. a is periodic-linear with period P from n₀ exactly when its second differences along
//! residue classes vanish: a(n + 2P) − 2a(n + P) + a(n) = 0 for all n ≥ n₀. For each P the least
//! such n₀ in the data is one past the last n where they do not; scanning from the end stops at
//! the first such n, so wrong periods are rejected in a few steps and a fit of 10⁶ terms is linear.
//!
//! Least period. If P fits, so does every multiple of P; the least P that fits (with enough
//! data behind it) is reported, never a multiple. Two periods of data after n₀ determine the
//! lines; each further full period *confirms* them. A fit needs `min_confirming` confirming
//! periods (3 by default) — what is in the data is only evidence: the status is OBSERVED until a
//! certificate proves the formula.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::num::Q;

/// Options of [`fit_periodic_linear`].
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Full periods of data beyond the two that determine the lines.
    pub min_confirming: usize,
    /// Largest period tried (default: as large as the data allows).
    pub max_period: Option<usize>,
    /// The formula must hold on at least the last 1/coverage of the data.
    pub coverage: usize,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            min_confirming: 3,
            max_period: None,
            coverage: 2,
        }
    }
}

/// The line of one residue class: a(Pk + residue) = slope·k + intercept for k ≥ from_k.
///
/// `from_k` is the line's *sharp start*: the least k from which the line holds at every term of
/// the data (a term below it breaks the line, or the data begins there). It can lie below the
/// fit's preperiod n₀ (one residue class may settle before another); a closed form printed with
/// it says exactly where the data stop following the line, never merely where a proof starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResidueLine {
    /// i, 0 ≤ i < P.
    pub residue: usize,
    /// B_i.
    pub slope: Q,
    /// c_i.
    pub intercept: Q,
    /// The least k from which a(Pk + i) = B_i·k + c_i for every term in the data (the sharp
    /// start; at most the least k with Pk + i ≥ n₀).
    pub from_k: i64,
}

/// A periodic-linear fit of a sequence a(offset), a(offset + 1), ….
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodicLinear {
    /// The least period P.
    pub period: usize,
    /// The least n₀ from which the formula holds in the data.
    pub preperiod: i64,
    /// One line per residue 0..P.
    pub lines: Vec<ResidueLine>,
    /// Full periods after the two that determine the lines.
    pub confirming_periods: usize,
    /// First and last index of the data.
    pub first: i64,
    /// Last index examined.
    pub last: i64,
}

impl PeriodicLinear {
    /// Whether every slope is 0 (plain eventual periodicity).
    pub fn is_periodic(&self) -> bool {
        self.lines.iter().all(|l| l.slope == Q::zero())
    }

    /// The value the formula gives at n (for any n ≥ preperiod).
    pub fn eval(&self, n: i64) -> Q {
        let p = self.period as i64;
        let (k, i) = (n.div_euclid(p), n.rem_euclid(p) as usize);
        let l = &self.lines[i];
        &(&l.slope * &Q::int(k)) + &l.intercept
    }

    /// The value the formula gives at any n ≥ preperiod, of any size.
    pub fn eval_big(&self, n: &num_bigint::BigInt) -> Q {
        use num_integer::Integer;
        let p = num_bigint::BigInt::from(self.period);
        let (k, i) = n.div_mod_floor(&p);
        let i: usize = i.try_into().expect("residue below the period");
        let l = &self.lines[i];
        &(&l.slope * &Q::from_bigint(k)) + &l.intercept
    }

    /// The whole sequence as one closed form with floor/ceil/mod, as the papers write
    /// intercept tables (c_i = ⌈i/2⌉): a line for period 1; for period 2 with one slope s per
    /// two steps, s·⌊i/2⌋ + c, s·⌈i/2⌉ + c or s·⌊i/2⌋ + c + d·(i mod 2). `None` for other shapes.
    /// Holds from the preperiod on.
    pub fn floor_form(&self) -> Option<FloorForm> {
        match &self.lines[..] {
            [l] => Some(FloorForm {
                kind: FloorKind::Line,
                slope: l.slope.clone(),
                constant: l.intercept.clone(),
                parity: Q::zero(),
            }),
            [even, odd] if even.slope == odd.slope => Some(FloorForm::of_period_two(
                &even.slope,
                &even.intercept,
                &odd.intercept,
            )),
            _ => None,
        }
    }

    /// The formulas as the papers print them, one line per residue:
    /// `f(16k+3) = 10k+5  (k ≥ 4)`.
    pub fn formulas(&self, name: &str) -> Vec<String> {
        self.formulas_in(name, "k")
    }

    /// The formulas along a family whose parameter is `param`, each residue class written with
    /// the fresh index `index`: `f(k = 3j+1) = 10j+5  (j ≥ 4)`; with period 1, `f(k) = 2k+1
    /// (k ≥ 1)`. The parameter's own name never stands for the class index.
    pub fn formulas_of_class(&self, name: &str, param: &str, index: &str) -> Vec<String> {
        if self.period == 1 {
            return self.formulas_in(name, param);
        }
        self.lines
            .iter()
            .map(|l| {
                let class = affine_text(
                    &Q::int(self.period as i64),
                    &Q::int(l.residue as i64),
                    index,
                );
                let rhs = affine_text(&l.slope, &l.intercept, index);
                format!(
                    "{name}({param} = {class}) = {rhs}  ({index} ≥ {})",
                    l.from_k
                )
            })
            .collect()
    }

    /// [`formulas`](Self::formulas) with another name for the variable k.
    pub fn formulas_in(&self, name: &str, var: &str) -> Vec<String> {
        self.lines
            .iter()
            .map(|l| {
                let arg = affine_text(&Q::int(self.period as i64), &Q::int(l.residue as i64), var);
                let rhs = affine_text(&l.slope, &l.intercept, var);
                format!("{name}({arg}) = {rhs}  ({var} ≥ {})", l.from_k)
            })
            .collect()
    }
}

impl fmt::Display for PeriodicLinear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in self.formulas("a") {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// `sk + c` written compactly: `10k+5`, `k`, `-k-1`, `3`, `k/2+1/3`, `-3k/2`.
pub fn affine_text(slope: &Q, constant: &Q, var: &str) -> String {
    let zero = Q::zero();
    let mut s = if *slope == zero {
        String::new()
    } else if *slope == Q::int(1) {
        var.to_string()
    } else if *slope == Q::int(-1) {
        format!("-{var}")
    } else if slope.is_integer() {
        format!("{slope}{var}")
    } else {
        // `3k/2`, not `3/2k`: the claims language reads a number written against a name as one
        // product, so `3/2k` would mean 3/(2k).
        let sign = if *slope < zero { "-" } else { "" };
        let numer = slope.abs().numer().into_owned();
        let times = if numer == 1.into() {
            String::new()
        } else {
            numer.to_string()
        };
        format!("{sign}{times}{var}/{}", slope.denom())
    };
    if s.is_empty() {
        s = constant.to_string();
    } else if *constant > zero {
        s.push_str(&format!("+{constant}"));
    } else if *constant < zero {
        s.push_str(&constant.to_string());
    }
    s
}

/// Which floor/ceil shape a [`FloorForm`] has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorKind {
    /// slope·i + constant.
    Line,
    /// slope·⌊i/2⌋ + constant + parity·(i mod 2).
    Floor,
    /// slope·⌈i/2⌉ + constant.
    Ceil,
}

/// A sequence in i as slope·(i, ⌊i/2⌋ or ⌈i/2⌉) + constant (+ parity·(i mod 2)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorForm {
    /// The shape.
    pub kind: FloorKind,
    /// The coefficient of i, ⌊i/2⌋ or ⌈i/2⌉.
    pub slope: Q,
    /// The constant.
    pub constant: Q,
    /// The coefficient of (i mod 2) (0 unless `kind` is `Floor`).
    pub parity: Q,
}

impl FloorForm {
    /// a(2k) = s·k + c₀, a(2k + 1) = s·k + c₁ as one form in n: s·⌈n/2⌉ + c₀ when c₁ − c₀ = s,
    /// else s·⌊n/2⌋ + c₀ + (c₁ − c₀)·(n mod 2).
    pub fn of_period_two(slope: &Q, c0: &Q, c1: &Q) -> FloorForm {
        let d = c1 - c0;
        let (kind, parity) = if d == *slope {
            (FloorKind::Ceil, Q::zero())
        } else {
            (FloorKind::Floor, d)
        };
        FloorForm {
            kind,
            slope: slope.clone(),
            constant: c0.clone(),
            parity,
        }
    }

    /// As an expression in `var` of the claims language.
    pub fn text(&self, var: &str) -> String {
        let term = match self.kind {
            FloorKind::Line => var.to_string(),
            FloorKind::Floor => format!("floor({var}/2)"),
            FloorKind::Ceil => format!("ceil({var}/2)"),
        };
        let mut text = affine_text(&self.slope, &self.constant, &term);
        if !self.parity.is_zero() {
            let extra = affine_text(&self.parity, &Q::zero(), &format!("({var} % 2)"));
            match extra.strip_prefix('-') {
                Some(rest) => text.push_str(&format!(" - {rest}")),
                None => text.push_str(&format!(" + {extra}")),
            }
        }
        text
    }
}

/// Second differences along residue classes, in machine integers when every term fits.
enum Terms<'a> {
    Small(Vec<i128>),
    Exact(&'a [Q]),
}

impl Terms<'_> {
    fn second_difference_vanishes(&self, n: usize, p: usize) -> bool {
        match self {
            Terms::Small(a) => a[n + 2 * p] - 2 * a[n + p] + a[n] == 0,
            Terms::Exact(a) => (&a[n + 2 * p] + &a[n]) == (&a[n + p] + &a[n + p]),
        }
    }
}

/// The least period and preperiod of a periodic-linear form of `a` (`a[j]` is the term at index
/// `offset + j`), or `None` when no period up to the limit fits with enough confirming periods.
pub fn fit_periodic_linear(a: &[Q], offset: i64, opts: &FitOptions) -> Option<PeriodicLinear> {
    let len = a.len();
    // Saturating: a huge requirement is simply never met (2 + K must not wrap to a small K).
    let needed = opts.min_confirming.max(1).saturating_add(2);
    let small: Option<Vec<i128>> = a
        .iter()
        .map(|q| q.is_integer().then(|| q.to_i64()).flatten().map(i128::from))
        .collect();
    let terms = match small {
        Some(v) => Terms::Small(v),
        None => Terms::Exact(a),
    };
    let max_p = (len / needed).min(opts.max_period.unwrap_or(usize::MAX));
    for p in 1..=max_p {
        // One past the last n whose second difference does not vanish.
        let n0 = (0..len - 2 * p)
            .rev()
            .find(|&n| !terms.second_difference_vanishes(n, p))
            .map_or(0, |n| n + 1);
        let confirming = (len - n0) / p;
        if confirming < needed || (len - n0).saturating_mul(opts.coverage.max(1)) < len {
            continue;
        }
        let lines = (0..p)
            .map(|i| {
                // The first two terms of residue class i at or after n0.
                let j0 = n0 + (i + p - n0 % p) % p;
                let n_first = offset + j0 as i64;
                let k_first = n_first.div_euclid(p as i64);
                let slope = &a[j0 + p] - &a[j0];
                let intercept = &a[j0] - &(&slope * &Q::int(k_first));
                // The sharp start: walk the residue class back from n₀ while the line holds.
                let mut from_k = k_first;
                let mut j = j0;
                while j >= p && a[j - p] == &(&slope * &Q::int(from_k - 1)) + &intercept {
                    j -= p;
                    from_k -= 1;
                }
                ResidueLine {
                    residue: n_first.rem_euclid(p as i64) as usize,
                    slope,
                    intercept,
                    from_k,
                }
            })
            .collect::<Vec<_>>();
        let mut lines = lines;
        lines.sort_by_key(|l| l.residue);
        return Some(PeriodicLinear {
            period: p,
            preperiod: offset + n0 as i64,
            lines,
            confirming_periods: confirming - 2,
            first: offset,
            last: offset + len as i64 - 1,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_forms_of_period_two_sequences() {
        let fit = |v: Vec<i64>| {
            let q: Vec<Q> = v.into_iter().map(Q::int).collect();
            fit_periodic_linear(&q, 0, &FitOptions::default()).unwrap()
        };
        let ceil: Vec<i64> = (0..12).map(|i: i64| (i + 1) / 2).collect();
        assert_eq!(fit(ceil).floor_form().unwrap().text("i"), "ceil(i/2)");
        let floor: Vec<i64> = (0..12).map(|i: i64| 3 * (i / 2) - 1).collect();
        assert_eq!(fit(floor).floor_form().unwrap().text("i"), "3floor(i/2)-1");
        let mixed: Vec<i64> = (0..12).map(|i: i64| i / 2 + 5 * (i % 2)).collect();
        assert_eq!(
            fit(mixed).floor_form().unwrap().text("i"),
            "floor(i/2) + 5(i % 2)"
        );
        let line: Vec<i64> = (0..12).map(|i: i64| 2 * i + 1).collect();
        assert_eq!(fit(line).floor_form().unwrap().text("i"), "2i+1");
    }

    fn seq(f: impl Fn(i64) -> i64, n: i64) -> Vec<Q> {
        (0..n).map(|i| Q::int(f(i))).collect()
    }

    #[test]
    fn finds_per_residue_slopes_and_the_least_preperiod() {
        // a(3k) = 10k + 5, a(3k+1) = 11k, a(3k+2) = 10k − 1, from n = 7; noise before.
        let f = |n: i64| {
            if n < 7 {
                100 + n * n
            } else {
                let (k, i) = (n / 3, n % 3);
                [10 * k + 5, 11 * k, 10 * k - 1][i as usize]
            }
        };
        let fit = fit_periodic_linear(&seq(f, 60), 0, &FitOptions::default()).unwrap();
        assert_eq!((fit.period, fit.preperiod), (3, 7));
        assert_eq!(
            fit.formulas("f"),
            [
                "f(3k) = 10k+5  (k ≥ 3)",
                "f(3k+1) = 11k  (k ≥ 2)",
                "f(3k+2) = 10k-1  (k ≥ 2)"
            ]
        );
        for n in 7..60 {
            assert_eq!(fit.eval(n), Q::int(f(n)));
        }
        assert!(!fit.is_periodic());
    }

    #[test]
    fn each_line_starts_where_the_data_start_to_follow_it() {
        // a(4k + i) = k + i, except a few early terms broken on residues 1 and 3 only: the
        // preperiod is one past the last break, but residues 0 and 2 follow their lines from
        // the first term, and residue 1 from just after its break.
        let f = |n: i64| match n {
            5 | 23 => -1,
            _ => n / 4 + n % 4,
        };
        let a = seq(f, 80);
        let fit = fit_periodic_linear(&a, 0, &FitOptions::default()).unwrap();
        assert_eq!((fit.period, fit.preperiod), (4, 24));
        // An independent sharp start: the least k with every later term of the class on the
        // line.
        for l in &fit.lines {
            let on_line = |k: i64| {
                Q::int(f(4 * k + l.residue as i64)) == &(&l.slope * &Q::int(k)) + &l.intercept
            };
            let last_off = (0..20).filter(|&k| !on_line(k)).max();
            assert_eq!(l.from_k, last_off.map_or(0, |k| k + 1), "{l:?}");
        }
        assert_eq!(
            fit.lines.iter().map(|l| l.from_k).collect::<Vec<_>>(),
            [0, 2, 0, 6]
        );
    }

    #[test]
    fn never_reports_a_multiple_of_the_period() {
        let a = seq(|n| [4, 1, 3][(n % 3) as usize], 40);
        let fit = fit_periodic_linear(&a, 0, &FitOptions::default()).unwrap();
        assert_eq!((fit.period, fit.preperiod), (3, 0));
        assert!(fit.is_periodic());
        // An arithmetic sequence has period 1.
        let fit = fit_periodic_linear(&seq(|n| 3 * n - 2, 10), 5, &FitOptions::default()).unwrap();
        assert_eq!((fit.period, fit.preperiod), (1, 5));
        assert_eq!(fit.formulas("a"), ["a(k) = 3k-17  (k ≥ 5)"]);
    }

    #[test]
    fn near_misses_and_short_data_are_not_fitted() {
        // Period 7 with a single glitch three periods before the end: only 2 periods after it.
        let mut a = seq(|n| [2, 7, 1, 8, 2, 8, 1][(n % 7) as usize], 40);
        a[25] = Q::int(99);
        let fit = fit_periodic_linear(&a, 0, &FitOptions::default());
        assert!(fit.as_ref().is_none_or(|f| f.preperiod >= 26), "{fit:?}");
        assert!(
            fit_periodic_linear(
                &a,
                0,
                &FitOptions {
                    max_period: Some(6),
                    ..FitOptions::default()
                }
            )
            .is_none()
        );
        // A short period that fits only the last few terms of a long sequence is refused.
        let mut b = seq(|n| (n * n) % 1000, 300);
        for x in &mut b[288..300] {
            *x = Q::int(7);
        }
        assert!(fit_periodic_linear(&b, 0, &FitOptions::default()).is_none());
        // Quadratic growth is never periodic-linear.
        assert!(fit_periodic_linear(&seq(|n| n * n, 200), 0, &FitOptions::default()).is_none());
    }

    #[test]
    fn rationals_take_the_exact_path() {
        let a: Vec<Q> = (0..30).map(|n| Q::frac(n, 2) + Q::frac(n % 2, 3)).collect();
        let fit = fit_periodic_linear(&a, 0, &FitOptions::default()).unwrap();
        assert_eq!((fit.period, fit.preperiod), (2, 0));
        for n in 0..30 {
            assert_eq!(fit.eval(n), a[n as usize]);
        }
    }
}
