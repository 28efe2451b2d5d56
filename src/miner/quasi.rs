//! Quasi-polynomials in a parameter: for each residue class of L modulo m, a polynomial in L
//! with rational coefficients, from some L₀ on — the shape of a quantity that grows faster
//! than linearly with a family's parameter, such as the preperiod (2L − 1)(L − 2) of the
//! scoring subtraction game {L − 1, L}.
//!
//! **The fit.** Along one residue class the members are equally spaced, L = L_r + m·j, so the
//! class's values lie on a polynomial of degree ≤ d in L exactly when their (d + 1)-th finite
//! differences in j vanish. For each modulus m ≤ `max_modulus` every class gets the least degree
//! d ≤ `max_degree` whose differences vanish on a suffix of the class that is at least
//! d + 1 + `confirming` values long (d + 1 values fix the polynomial, the rest confirm it); the
//! suffix starts after the last non-vanishing difference. The polynomial is then solved exactly
//! through the suffix's first d + 1 points (Gaussian elimination over ℚ), and L₀ is the least L
//! from which every class holds. Of the moduli that fit, the one with the least L₀ wins (then
//! the least modulus): a small modulus can fit a late stretch of the data — a run linear in L
//! inside one block of a longer pattern — that a larger one explains from the start. Everything
//! is OBSERVED on the data: the caller compares the form with members beyond it.

use crate::num::Q;

/// q(L) = p_{L mod m}(L) for every L ≥ `from`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuasiPolynomial {
    /// m: the classes are the residues of L modulo m.
    pub modulus: usize,
    /// L₀: the form holds for every L ≥ L₀ of the data.
    pub from: i64,
    /// For each residue r = L mod m (0 ≤ r < m), the coefficients c₀, c₁, … of Σ c_j·L^j, with
    /// no trailing zero (the zero polynomial has none).
    pub classes: Vec<Vec<Q>>,
}

/// How far the fit may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuasiOptions {
    /// The largest degree tried.
    pub max_degree: usize,
    /// The largest modulus tried.
    pub max_modulus: usize,
    /// Values of each class beyond the d + 1 that fix its polynomial.
    pub confirming: usize,
}

impl Default for QuasiOptions {
    fn default() -> QuasiOptions {
        QuasiOptions {
            max_degree: 3,
            max_modulus: 4,
            confirming: 2,
        }
    }
}

/// The polynomial with coefficients `c` at x.
fn poly_at(c: &[Q], x: &Q) -> Q {
    c.iter()
        .rev()
        .fold(Q::zero(), |acc, coef| &(&acc * x) + coef)
}

/// The coefficients of the polynomial of degree ≤ points − 1 through `points` (distinct x),
/// trailing zeros trimmed.
fn through(points: &[(Q, Q)]) -> Vec<Q> {
    let n = points.len();
    // The Vandermonde system [x^0 … x^(n−1) | y], reduced to the identity.
    let mut m: Vec<Vec<Q>> = points
        .iter()
        .map(|(x, y)| {
            let mut row = Vec::with_capacity(n + 1);
            let mut power = Q::one();
            for _ in 0..n {
                row.push(power.clone());
                power = &power * x;
            }
            row.push(y.clone());
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .find(|&r| !m[r][col].is_zero())
            .expect("distinct x: the Vandermonde matrix is invertible");
        m.swap(col, pivot);
        let p = m[col][col].clone();
        for x in &mut m[col] {
            *x = &*x / &p;
        }
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col && !row[col].is_zero() {
                let factor = row[col].clone();
                for (x, q) in row.iter_mut().zip(&pivot_row) {
                    *x = &*x - &(&factor * q);
                }
            }
        }
    }
    let mut c: Vec<Q> = m.into_iter().map(|row| row[n].clone()).collect();
    while c.last().is_some_and(Q::is_zero) {
        c.pop();
    }
    c
}

/// The index in `ys` from which the values lie on one polynomial of degree ≤ d: one past the
/// last non-vanishing (d + 1)-th difference (0 when every difference vanishes).
fn polynomial_from(ys: &[&Q], d: usize) -> usize {
    let mut diffs: Vec<Q> = ys.iter().map(|&y| y.clone()).collect();
    for _ in 0..=d {
        diffs = diffs.windows(2).map(|w| &w[1] - &w[0]).collect();
    }
    // Δ^{d+1} y_t involves y_t … y_{t+d+1}: a non-zero one at t rules out a start ≤ t.
    diffs
        .iter()
        .rposition(|x| !x.is_zero())
        .map_or(0, |t| t + 1)
}

/// Fits `values` (at L = first, first + 1, …) as a quasi-polynomial (see the module doc), or
/// `None` when no modulus and degree within `opts` fit with the confirmations asked.
pub fn fit_quasi_polynomial(
    first: i64,
    values: &[Q],
    opts: &QuasiOptions,
) -> Option<QuasiPolynomial> {
    (1..=opts.max_modulus.max(1))
        .filter_map(|m| fit_modulus(first, values, m, opts))
        .min_by_key(|f| (f.from, f.modulus))
}

/// The fit with modulus `m`, when every class has one.
fn fit_modulus(first: i64, values: &[Q], m: usize, opts: &QuasiOptions) -> Option<QuasiPolynomial> {
    let mut classes = vec![Vec::new(); m];
    let mut from = first;
    for start in 0..m {
        let ls: Vec<i64> = (start..values.len())
            .step_by(m)
            .map(|i| first + i as i64)
            .collect();
        let ys: Vec<&Q> = (start..values.len())
            .step_by(m)
            .map(|i| &values[i])
            .collect();
        let (d, s) = (0..=opts.max_degree).find_map(|d| {
            let s = polynomial_from(&ys, d);
            (ys.len() >= s + d + 1 + opts.confirming).then_some((d, s))
        })?;
        let points: Vec<(Q, Q)> = (s..=s + d)
            .map(|j| (Q::int(ls[j]), ys[j].clone()))
            .collect();
        classes[ls[0].rem_euclid(m as i64) as usize] = through(&points);
        if s > 0 {
            // The class's value at ls[s − 1] is off the polynomial; the next L is fine.
            from = from.max(ls[s - 1] + 1);
        }
    }
    Some(QuasiPolynomial {
        modulus: m,
        from,
        classes,
    })
}

impl QuasiPolynomial {
    /// The value at L.
    pub fn eval(&self, l: i64) -> Q {
        let r = l.rem_euclid(self.modulus as i64) as usize;
        poly_at(&self.classes[r], &Q::int(l))
    }

    /// The largest degree of a class.
    pub fn degree(&self) -> usize {
        self.classes
            .iter()
            .map(|c| c.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
    }

    /// One line per class: `preperiod(L) = 2L^2 - 5L + 2  (L ≥ 3)`, or with m > 1
    /// `period(L ≡ 1 mod 2) = 2L + 2  (L ≥ 3)`.
    pub fn formulas(&self, name: &str, param: &str) -> Vec<String> {
        (0..self.modulus)
            .map(|r| {
                let class = if self.modulus == 1 {
                    param.to_string()
                } else {
                    format!("{param} ≡ {r} mod {}", self.modulus)
                };
                format!(
                    "{name}({class}) = {}  ({param} ≥ {})",
                    poly_text(&self.classes[r], param),
                    self.from
                )
            })
            .collect()
    }

    /// The form in the claims' expression language, e.g. `2*L*L - 5*L + 2`, or
    /// `if L % 2 == 0 then … else …` with m > 1.
    pub fn expr(&self, param: &str) -> String {
        if self.modulus == 1 {
            return poly_expr(&self.classes[0], param);
        }
        let mut out = String::new();
        for r in 0..self.modulus - 1 {
            out.push_str(&format!(
                "if {param} % {} == {r} then {} else ",
                self.modulus,
                poly_expr(&self.classes[r], param)
            ));
        }
        out.push_str(&poly_expr(&self.classes[self.modulus - 1], param));
        out
    }
}

/// The terms of a polynomial, highest degree first: (sign, |coefficient|, degree).
fn terms(c: &[Q]) -> Vec<(bool, Q, usize)> {
    (0..c.len())
        .rev()
        .filter(|&j| !c[j].is_zero())
        .map(|j| {
            let negative = c[j].signum() < 0;
            (negative, if negative { -&c[j] } else { c[j].clone() }, j)
        })
        .collect()
}

/// Joins signed terms: `a - b + c`, a leading minus as `-a`.
fn join_terms(parts: Vec<(bool, String)>) -> String {
    if parts.is_empty() {
        return "0".to_string();
    }
    let mut out = String::new();
    for (i, (negative, text)) in parts.into_iter().enumerate() {
        out.push_str(match (i, negative) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        });
        out.push_str(&text);
    }
    out
}

/// `2L^2 - 5L + 2`, `(1/2)L^2 + (1/2)L`.
fn poly_text(c: &[Q], param: &str) -> String {
    let parts = terms(c)
        .into_iter()
        .map(|(negative, size, j)| {
            let power = match j {
                0 => String::new(),
                1 => param.to_string(),
                _ => format!("{param}^{j}"),
            };
            let coef = if j > 0 && size == Q::one() {
                String::new()
            } else if j > 0 && !size.is_integer() {
                format!("({size})")
            } else {
                size.to_string()
            };
            (negative, format!("{coef}{power}"))
        })
        .collect();
    join_terms(parts)
}

/// `2*L*L - 5*L + 2`, `1/2*L*L + 1/2*L`.
fn poly_expr(c: &[Q], param: &str) -> String {
    let parts = terms(c)
        .into_iter()
        .map(|(negative, size, j)| {
            let mut factors: Vec<String> = Vec::new();
            if j == 0 || size != Q::one() {
                factors.push(size.to_string());
            }
            factors.extend(std::iter::repeat_n(param.to_string(), j));
            (negative, factors.join("*"))
        })
        .collect();
    join_terms(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn q(n: i64) -> Q {
        Q::int(n)
    }

    #[test]
    fn a_quadratic_with_a_head_is_found_with_its_start() {
        // (2L − 1)(L − 2) from L = 4 on; L = 2, 3 broken.
        let values: Vec<Q> = (2..=16)
            .map(|l: i64| {
                if l < 4 {
                    q(100 + l)
                } else {
                    q((2 * l - 1) * (l - 2))
                }
            })
            .collect();
        let f = fit_quasi_polynomial(2, &values, &QuasiOptions::default()).unwrap();
        assert_eq!((f.modulus, f.from, f.degree()), (1, 4, 2));
        assert_eq!(f.classes[0], vec![q(2), q(-5), q(2)]);
        assert_eq!(f.formulas("pre", "L"), ["pre(L) = 2L^2 - 5L + 2  (L ≥ 4)"]);
        assert_eq!(f.expr("L"), "2*L*L - 5*L + 2");
        assert_eq!(f.eval(40), q(79 * 38));
    }

    #[test]
    fn classes_get_their_own_polynomials() {
        // 2L on even L, 2L + 2 on odd L; and a rational one.
        let values: Vec<Q> = (1..=12).map(|l: i64| q(2 * l + 2 * (l % 2))).collect();
        let f = fit_quasi_polynomial(1, &values, &QuasiOptions::default()).unwrap();
        assert_eq!((f.modulus, f.from), (2, 1));
        assert_eq!(
            f.formulas("period", "L"),
            [
                "period(L ≡ 0 mod 2) = 2L  (L ≥ 1)",
                "period(L ≡ 1 mod 2) = 2L + 2  (L ≥ 1)"
            ]
        );
        assert_eq!(f.expr("L"), "if L % 2 == 0 then 2*L else 2*L + 2");
        let tri: Vec<Q> = (0..=10).map(|l: i64| q(l * (l + 1) / 2)).collect();
        let t = fit_quasi_polynomial(0, &tri, &QuasiOptions::default()).unwrap();
        assert_eq!(t.formulas("t", "L"), ["t(L) = (1/2)L^2 + (1/2)L  (L ≥ 0)"]);
        assert_eq!(t.expr("L"), "1/2*L*L + 1/2*L");
        assert_eq!(t.eval(-3), q(3));
    }

    #[test]
    fn a_late_linear_run_loses_to_the_pattern_that_explains_everything() {
        // Blocks of 5: within a block linear in L, the blocks' starts quadratic. Modulus 1 fits
        // the last block alone; modulus 5 fits from the start and wins.
        let values: Vec<Q> = (3..=32)
            .map(|l: i64| {
                let (block, r) = ((l - 3).div_euclid(5), (l - 3).rem_euclid(5));
                q(10 * block * block + 7 * block + 2 * r)
            })
            .collect();
        let f = fit_quasi_polynomial(
            3,
            &values,
            &QuasiOptions {
                max_modulus: 6,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!((f.modulus, f.from), (5, 3));
        let one = fit_quasi_polynomial(
            3,
            &values,
            &QuasiOptions {
                max_modulus: 1,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!((one.modulus, one.from), (1, 28));
    }

    #[test]
    fn too_little_data_or_no_pattern_gives_none() {
        // Three values fix a quadratic but leave nothing to confirm it.
        let short = [q(1), q(4), q(9)];
        assert_eq!(
            fit_quasi_polynomial(1, &short, &QuasiOptions::default()),
            None
        );
        let exp: Vec<Q> = (0..20).map(|l| q(1 << l)).collect();
        assert_eq!(
            fit_quasi_polynomial(0, &exp, &QuasiOptions::default()),
            None
        );
    }

    proptest! {
        /// Any quasi-polynomial of modulus ≤ 3 and degree ≤ 2, with a broken head, is found again
        /// from its values: the fitted form agrees with it on every L from its start.
        #[test]
        fn a_quasi_polynomial_is_found_again(
            m in 1usize..=3,
            coefficients in proptest::collection::vec(proptest::collection::vec(-5i64..=5, 3), 3),
            head in 0usize..3,
        ) {
            let truth = |l: i64| -> Q {
                let c = &coefficients[l.rem_euclid(m as i64) as usize];
                q(c[0] + c[1] * l + c[2] * l * l)
            };
            let first = 1i64;
            let values: Vec<Q> = (0..30)
                .map(|i| {
                    let l = first + i as i64;
                    if (i as usize) < head { &truth(l) + &q(1000) } else { truth(l) }
                })
                .collect();
            let f = fit_quasi_polynomial(first, &values, &QuasiOptions::default()).unwrap();
            prop_assert!(f.modulus <= m && m % f.modulus == 0);
            prop_assert!(f.from <= first + head as i64);
            for l in f.from..first + 60 {
                prop_assert_eq!(f.eval(l), truth(l));
            }
        }
    }
}
