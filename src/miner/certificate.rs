//! Certificates: proofs, for all n ≥ n₀, that periodic-linear formulas satisfy the min/max-plus
//! recurrence that produced the data.
//!
//! The caller describes the recurrence per residue class of a common period P: each sequence
//! s_j(n) is a min or a max of terms s_t(n − shift) + add (a guarded min keeps only the terms
//! whose guard term equals a target term). Substituting the formulas, every term at n = Pk + i is
//! affine in k. The formula is proven from k₀ on when
//! - some term is identically the formula's line at residue i (same slope and constant), and
//! - every other term stays on the right side of it for all k ≥ k₀: for a min, slope ≥ and value
//!   at k₀ ≥ (a line that starts above and rises at least as fast never crosses); for a max, the
//!   mirror image; a guard either holds identically or fails at every integer k ≥ k₀;
//!
//! plus the base: the formulas equal the data on the window n₀ ≤ n < n₀ + look-back, which every
//! term at n ≥ n₀ + look-back refers into. Induction on n then gives the formulas for all n ≥ n₀.
//! Nothing here knows which game the recurrence came from.

use serde::{Deserialize, Serialize};

use super::linear::PeriodicLinear;
use crate::num::Q;

/// s_seq(n − shift) + add.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// Which sequence.
    pub seq: usize,
    /// How far back.
    pub shift: usize,
    /// A constant added.
    pub add: Q,
}

/// How one sequence is computed at one residue class, for all large n.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rule {
    /// The least of the terms.
    Min(Vec<Term>),
    /// The greatest of the terms.
    Max(Vec<Term>),
    /// The least of the value terms whose guard term equals `target`.
    GuardedMin {
        /// (value, guard) pairs.
        terms: Vec<(Term, Term)>,
        /// What the guard must equal.
        target: Term,
    },
}

/// A recurrence over several sequences, by residue class mod `period`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recurrence {
    /// The common period P of the rules.
    pub period: usize,
    /// `rules[j][i]`: how sequence j is computed at n ≡ i (mod P).
    pub rules: Vec<Vec<Rule>>,
    /// The largest shift (terms at n refer back at most this far).
    pub lookback: usize,
    /// The rules hold for every n ≥ this (e.g. where the plain game is already periodic).
    pub valid_from: i64,
}

/// A line in k: slope·k + constant.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    slope: Q,
    constant: Q,
}

impl Line {
    fn at(&self, k: i64) -> Q {
        &(&self.slope * &Q::int(k)) + &self.constant
    }
}

/// A proof that `formulas` hold for all n ≥ `from` (status PROVEN), replayable from its JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// The recurrence the formulas satisfy.
    pub recurrence: Recurrence,
    /// Per sequence: the period, and per residue the (slope, intercept) of a(Pk + i).
    pub formulas: Vec<Vec<(Q, Q)>>,
    /// The formulas hold for every n ≥ from.
    pub from: i64,
    /// The base values s_j(n) for from ≤ n < from + look-back, which the caller must confirm
    /// are the true values.
    pub base: Vec<Vec<Q>>,
}

/// The largest period, look-back, shift or |start| a certificate may state. Data never reaches
/// this far, and below it every index computation (n = Pk + i, n − shift, k·slope) fits in i64
/// with room to spare, so a certificate read from a file cannot make the check wrap or panic.
pub const MAX_CERTIFICATE_INDEX: i64 = 1 << 40;

/// `x` as an i64 index, if it is at most [`MAX_CERTIFICATE_INDEX`] in size.
fn index(x: usize) -> Option<i64> {
    i64::try_from(x)
        .ok()
        .filter(|&v| v <= MAX_CERTIFICATE_INDEX)
}

/// Refuses recurrences whose period, look-back or start no data could reach.
fn check_extent(rec: &Recurrence, from: i64) -> Result<(), String> {
    if rec.period == 0 || index(rec.period).is_none() {
        return Err(format!(
            "the recurrence's period {} is not between 1 and {MAX_CERTIFICATE_INDEX}",
            rec.period
        ));
    }
    if index(rec.lookback).is_none() {
        return Err(format!(
            "the recurrence's look-back {} is beyond {MAX_CERTIFICATE_INDEX}",
            rec.lookback
        ));
    }
    for (what, v) in [("start", from), ("rules' start", rec.valid_from)] {
        if v.unsigned_abs() > MAX_CERTIFICATE_INDEX as u64 {
            return Err(format!(
                "the certificate's {what} n = {v} is beyond ±{MAX_CERTIFICATE_INDEX}"
            ));
        }
    }
    Ok(())
}

fn line_of(formulas: &[Vec<(Q, Q)>], p: usize, t: &Term, i: usize) -> Line {
    // n − shift = Pk + i − shift = P(k + q) + r with r = (i − shift) mod P.
    let d = i as i64 - t.shift as i64;
    let (q, r) = (d.div_euclid(p as i64), d.rem_euclid(p as i64) as usize);
    let (b, c) = &formulas[t.seq][r];
    Line {
        slope: b.clone(),
        constant: &(&(b * &Q::int(q)) + c) + &t.add,
    }
}

fn formula_value(formulas: &[Vec<(Q, Q)>], p: usize, seq: usize, n: i64) -> Q {
    let (k, i) = (n.div_euclid(p as i64), n.rem_euclid(p as i64) as usize);
    let (b, c) = &formulas[seq][i];
    &(b * &Q::int(k)) + c
}

impl Certificate {
    /// Builds and checks a certificate for fits that share one period; `data[j][n]` are the
    /// computed values (n from 0). Returns why it fails otherwise.
    pub fn prove(
        recurrence: Recurrence,
        fits: &[PeriodicLinear],
        data: &[Vec<Q>],
    ) -> Result<Certificate, String> {
        let p = recurrence.period;
        check_extent(&recurrence, 0)?;
        if fits
            .iter()
            .any(|f| f.period == 0 || !p.is_multiple_of(f.period))
        {
            return Err(format!(
                "the fitted periods {:?} do not divide the recurrence's period {p}",
                fits.iter().map(|f| f.period).collect::<Vec<_>>()
            ));
        }
        let formulas: Vec<Vec<(Q, Q)>> = fits
            .iter()
            .map(|f| {
                (0..p)
                    .map(|i| {
                        // Re-express each line over the common period P = f.period·m.
                        let m = (p / f.period) as i64;
                        let l = &f.lines[i % f.period];
                        let shift = (i / f.period) as i64; // i = f.period·shift + (i mod f.period)
                        // a(Pk + i) = a(f.period(mk + shift) + r) = B(mk + shift) + c.
                        (
                            &l.slope * &Q::int(m),
                            &(&l.slope * &Q::int(shift)) + &l.intercept,
                        )
                    })
                    .collect()
            })
            .collect();
        let from = fits
            .iter()
            .map(|f| f.preperiod)
            .max()
            .unwrap_or(0)
            .max(recurrence.valid_from - recurrence.lookback as i64)
            .max(0);
        let end = from + recurrence.lookback as i64;
        let mut base = Vec::new();
        for (j, d) in data.iter().enumerate() {
            if (d.len() as i64) < end {
                return Err(format!("sequence {j} has no data up to n = {}", end - 1));
            }
            base.push(d[from as usize..end as usize].to_vec());
        }
        let cert = Certificate {
            recurrence,
            formulas,
            from,
            base,
        };
        cert.verify()?;
        Ok(cert)
    }

    /// The checks that need no arithmetic on the formulas: the indices stay in range (see
    /// [`MAX_CERTIFICATE_INDEX`]), every sequence has its formulas, rules and full window of
    /// base values, and every term stays within the look-back.
    pub fn check_shape(&self) -> Result<(), String> {
        let rec = &self.recurrence;
        check_extent(rec, self.from)?;
        let p = rec.period;
        // The induction stands on a full window of base values for every sequence.
        if self.base.len() != self.formulas.len()
            || self.base.iter().any(|b| b.len() != rec.lookback)
        {
            return Err(format!(
                "the certificate needs {} base values per sequence (its look-back) for each of its {} formulas",
                rec.lookback,
                self.formulas.len()
            ));
        }
        if self.formulas.len() != rec.rules.len()
            || rec.rules.iter().any(|r| r.len() != p)
            || self.formulas.iter().any(|f| f.len() != p)
        {
            return Err("the certificate's shape does not match its recurrence".to_string());
        }
        if rec.rules.iter().flatten().any(|r| {
            let terms: Vec<&Term> = match r {
                Rule::Min(t) | Rule::Max(t) => t.iter().collect(),
                Rule::GuardedMin { terms, target } => terms
                    .iter()
                    .flat_map(|(a, b)| [a, b])
                    .chain([target])
                    .collect(),
            };
            terms
                .iter()
                .any(|t| t.shift > rec.lookback || t.seq >= self.formulas.len())
        }) {
            return Err("a term reaches beyond the look-back or names no sequence".to_string());
        }
        Ok(())
    }

    /// Re-checks the whole argument (the base values against the formulas, then every rule
    /// symbolically). The caller confirms the base values are the true ones.
    pub fn verify(&self) -> Result<(), String> {
        self.check_shape()?;
        let rec = &self.recurrence;
        let p = rec.period;
        for (j, vals) in self.base.iter().enumerate() {
            for (off, v) in vals.iter().enumerate() {
                let n = self.from + off as i64;
                let f = formula_value(&self.formulas, p, j, n);
                if &f != v {
                    return Err(format!(
                        "base: sequence {j} at n = {n} is {v}, the formula gives {f}"
                    ));
                }
            }
        }
        let start = self.from + rec.lookback as i64;
        if start < rec.valid_from {
            return Err(format!(
                "the rules hold from n = {}, after the induction starts at {start}",
                rec.valid_from
            ));
        }
        for (j, rules) in rec.rules.iter().enumerate() {
            for (i, rule) in rules.iter().enumerate() {
                // The least k with Pk + i ≥ start.
                let k0 = (start - i as i64 + p as i64 - 1).div_euclid(p as i64);
                let own = Line {
                    slope: self.formulas[j][i].0.clone(),
                    constant: self.formulas[j][i].1.clone(),
                };
                let line = |t: &Term| line_of(&self.formulas, p, t, i);
                let candidates: Vec<Line> = match rule {
                    Rule::Min(ts) | Rule::Max(ts) => ts.iter().map(line).collect(),
                    Rule::GuardedMin { terms, target } => {
                        let target = line(target);
                        let mut kept = Vec::new();
                        for (value, guard) in terms {
                            let g = line(guard);
                            if g == target {
                                kept.push(line(value));
                            } else if ever_equal(&g, &target, k0) {
                                return Err(format!(
                                    "sequence {j}, residue {i}: a guard holds at some k ≥ {k0} but not always"
                                ));
                            }
                        }
                        kept
                    }
                };
                let is_min = !matches!(rule, Rule::Max(_));
                if !candidates.contains(&own) {
                    return Err(format!(
                        "sequence {j}, residue {i}: no term equals the formula {}k + {}",
                        own.slope, own.constant
                    ));
                }
                for c in &candidates {
                    let ok = if is_min {
                        c.slope >= own.slope && c.at(k0) >= own.at(k0)
                    } else {
                        c.slope <= own.slope && c.at(k0) <= own.at(k0)
                    };
                    if !ok {
                        return Err(format!(
                            "sequence {j}, residue {i}: the term {}k + {} is not always on the {} side of the formula from k = {k0}",
                            c.slope,
                            c.constant,
                            if is_min { "upper" } else { "lower" }
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether two different lines meet at an integer k ≥ k0.
fn ever_equal(a: &Line, b: &Line, k0: i64) -> bool {
    if a.slope == b.slope {
        return false;
    }
    let k = &(&b.constant - &a.constant) / &(&a.slope - &b.slope);
    k.is_integer() && k >= Q::int(k0)
}
