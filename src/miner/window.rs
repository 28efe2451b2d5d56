//! Window certificates: a replayable proof that a sequence with finite look-back is eventually
//! periodic, with its least preperiod and least period.
//!
//! Claim. a(n) is one fixed function of a(n−k), …, a(n−1) for every n ≥ r (look-back, or order,
//! k). If the window a(w..w+k) recurs at w + P and w + k ≥ r, induction on n gives
//! a(n + P) = a(n) for all n ≥ w (the argument of [`super::period`]). The certificate stores k,
//! r, the window and the base a(0..n₀+P); a replay recomputes the sequence from its definition
//! and checks
//! - the base and the window against the recomputed values, and that the window recurs P later;
//! - a(n) = a(n + P) for n₀ ≤ n < w, so the period holds from n₀ (not only from w);
//! - leastness: a(n₀ − 1) ≠ a(n₀ − 1 + P), and no proper divisor of P leaves the cycle
//!   a(n₀..n₀+P) unchanged under rotation (every eventual period is a multiple of the least one).
//!
//! Whether a(n) really depends only on the previous k terms from n = r on is a fact about where
//! the sequence comes from: the caller checks k and r against it before replaying. Nothing here
//! knows which game produced the sequence.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::period::{PeriodStatus, Periodicity};

/// A proof that a sequence of look-back `order` has least preperiod `preperiod` and least
/// period `period`, replayable from its JSON against a recomputed sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WindowCertificate<T> {
    /// k: a(n) is one fixed function of a(n−k..n) …
    pub order: usize,
    /// … for every n ≥ this.
    pub recurrence_from: usize,
    /// The least preperiod n₀.
    pub preperiod: usize,
    /// The least period P.
    pub period: usize,
    /// w: the window a(w..w+k) recurs at w + P.
    pub window_start: usize,
    /// a(w..w+k).
    pub window: Vec<T>,
    /// a(0..n₀+P): the whole sequence, since a(n) = a(n₀ + (n − n₀) mod P) for n ≥ n₀.
    pub base: Vec<T>,
}

/// Why a window certificate does not hold; every message names the index or field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WindowError {
    /// The period or the order is 0.
    #[error("the {field} is 0; it must be at least 1")]
    Zero {
        /// `period` or `order`.
        field: &'static str,
    },
    /// The base does not hold a(0..n₀+P).
    #[error("the base holds {found} values, but preperiod + period = {expected}")]
    BaseLength {
        /// n₀ + P.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// The window does not hold k values.
    #[error("the window holds {found} values, but the order is {order}")]
    WindowLength {
        /// k.
        order: usize,
        /// Values given.
        found: usize,
    },
    /// The window starts inside the preperiod.
    #[error("the window starts at n = {window_start}, before the preperiod {preperiod} ends")]
    WindowInPreperiod {
        /// w.
        window_start: usize,
        /// n₀.
        preperiod: usize,
    },
    /// The induction would start before the recurrence holds.
    #[error(
        "the window n = {window_start}..{} ends before the recurrence holds (from n = {recurrence_from}); the induction needs window start + order ≥ {recurrence_from}",
        window_start + order
    )]
    WindowTooEarly {
        /// w.
        window_start: usize,
        /// k.
        order: usize,
        /// r.
        recurrence_from: usize,
    },
    /// Indices beyond what a machine word holds.
    #[error("window start + period + order overflows")]
    Overflow,
    /// The recomputed sequence is shorter than the replay needs.
    #[error("the sequence has {given} terms; the replay needs {needed}")]
    TooShort {
        /// Terms needed.
        needed: usize,
        /// Terms given.
        given: usize,
    },
    /// A stored value differs from the sequence.
    #[error("{field} value a({n}) is {claimed}, but the sequence has {actual}")]
    Value {
        /// `base` or `window`.
        field: &'static str,
        /// The index.
        n: usize,
        /// The certificate's value.
        claimed: String,
        /// The recomputed value.
        actual: String,
    },
    /// The window does not recur, or the period fails between the preperiod and the window.
    #[error("a({n}) = {first} but a({}) = {second}: {period} is not a period from n = {n}", n + period)]
    NotPeriodic {
        /// The first index where a(n) ≠ a(n + P).
        n: usize,
        /// P.
        period: usize,
        /// a(n).
        first: String,
        /// a(n + P).
        second: String,
    },
    /// The preperiod is not the least.
    #[error(
        "the preperiod {preperiod} is not the least: a({}) = a({}) already",
        preperiod - 1,
        preperiod - 1 + period
    )]
    PreperiodNotLeast {
        /// n₀.
        preperiod: usize,
        /// P.
        period: usize,
    },
    /// The period is not the least.
    #[error("the period {period} is not the least: {divisor} is a period too")]
    PeriodNotLeast {
        /// P.
        period: usize,
        /// A proper divisor of P that is also a period.
        divisor: usize,
    },
}

impl<T: Clone + Eq + fmt::Display> WindowCertificate<T> {
    /// The certificate for `a`, claimed to have least preperiod `preperiod` and least period
    /// `period` with look-back `order` from `recurrence_from` on, using the earliest window
    /// the induction allows; checked against `a` before it is returned.
    pub fn from_sequence(
        a: &[T],
        order: usize,
        recurrence_from: usize,
        preperiod: usize,
        period: usize,
    ) -> Result<Self, WindowError> {
        let window_start = preperiod.max(recurrence_from.saturating_sub(order));
        let cert = WindowCertificate {
            order,
            recurrence_from,
            preperiod,
            period,
            window_start,
            window: Vec::new(),
            base: Vec::new(),
        };
        let needed = cert.terms_needed()?;
        if a.len() < needed {
            return Err(WindowError::TooShort {
                needed,
                given: a.len(),
            });
        }
        let cert = WindowCertificate {
            window: a[window_start..window_start + order].to_vec(),
            base: a[..preperiod + period].to_vec(),
            ..cert
        };
        cert.verify(a)?;
        Ok(cert)
    }

    /// How many terms a(0..) a replay needs: the base and the window's recurrence.
    pub fn terms_needed(&self) -> Result<usize, WindowError> {
        let recurs = self
            .window_start
            .checked_add(self.period)
            .and_then(|e| e.checked_add(self.order))
            .ok_or(WindowError::Overflow)?;
        let base = self
            .preperiod
            .checked_add(self.period)
            .ok_or(WindowError::Overflow)?;
        Ok(recurs.max(base))
    }

    /// The checks that need no sequence: the fields fit together.
    pub fn check_shape(&self) -> Result<(), WindowError> {
        if self.period == 0 {
            return Err(WindowError::Zero { field: "period" });
        }
        if self.order == 0 {
            return Err(WindowError::Zero { field: "order" });
        }
        self.terms_needed()?;
        if self.base.len() != self.preperiod + self.period {
            return Err(WindowError::BaseLength {
                expected: self.preperiod + self.period,
                found: self.base.len(),
            });
        }
        if self.window.len() != self.order {
            return Err(WindowError::WindowLength {
                order: self.order,
                found: self.window.len(),
            });
        }
        if self.window_start < self.preperiod {
            return Err(WindowError::WindowInPreperiod {
                window_start: self.window_start,
                preperiod: self.preperiod,
            });
        }
        if self.window_start + self.order < self.recurrence_from {
            return Err(WindowError::WindowTooEarly {
                window_start: self.window_start,
                order: self.order,
                recurrence_from: self.recurrence_from,
            });
        }
        Ok(())
    }

    /// Replays the certificate against `a`, the sequence recomputed from its definition (at
    /// least [`terms_needed`](Self::terms_needed) terms). The caller has confirmed that `a`
    /// has look-back `order` from `recurrence_from` on.
    pub fn verify(&self, a: &[T]) -> Result<(), WindowError> {
        self.check_shape()?;
        let needed = self.terms_needed()?;
        if a.len() < needed {
            return Err(WindowError::TooShort {
                needed,
                given: a.len(),
            });
        }
        let (n0, p, w) = (self.preperiod, self.period, self.window_start);
        let stored = self
            .base
            .iter()
            .enumerate()
            .map(|(n, v)| ("base", n, v))
            .chain(
                self.window
                    .iter()
                    .enumerate()
                    .map(|(j, v)| ("window", w + j, v)),
            );
        for (field, n, v) in stored {
            if *v != a[n] {
                return Err(WindowError::Value {
                    field,
                    n,
                    claimed: v.to_string(),
                    actual: a[n].to_string(),
                });
            }
        }
        // From n₀ to the window's end: the gap below the window, then the window's recurrence.
        if let Some(n) = (n0..w + self.order).find(|&n| a[n] != a[n + p]) {
            return Err(WindowError::NotPeriodic {
                n,
                period: p,
                first: a[n].to_string(),
                second: a[n + p].to_string(),
            });
        }
        if n0 > 0 && a[n0 - 1] == a[n0 - 1 + p] {
            return Err(WindowError::PreperiodNotLeast {
                preperiod: n0,
                period: p,
            });
        }
        let cycle = &a[n0..n0 + p];
        if let Some(divisor) = (1..p)
            .filter(|&d| p.is_multiple_of(d))
            .find(|&d| (0..p).all(|j| cycle[j] == cycle[(j + d) % p]))
        {
            return Err(WindowError::PeriodNotLeast { period: p, divisor });
        }
        Ok(())
    }

    /// The proven periodicity the certificate states, for `terms` terms examined.
    pub fn periodicity(&self, terms: usize) -> Periodicity {
        Periodicity {
            preperiod: self.preperiod,
            period: self.period,
            status: PeriodStatus::Proven {
                window_start: self.window_start,
                window_len: self.order,
            },
            terms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::miner::fixtures::subtraction;

    #[test]
    fn a_proven_period_gives_a_certificate_that_replays() {
        let a = subtraction(&[4, 5], 200);
        let p = super::super::prove_period(&a, 5, 5).unwrap();
        let cert = WindowCertificate::from_sequence(&a, 5, 5, p.preperiod, p.period).unwrap();
        assert_eq!(cert.window_start, p.preperiod);
        assert_eq!(cert.base.len(), p.preperiod + p.period);
        assert_eq!(cert.verify(&a[..cert.terms_needed().unwrap()]), Ok(()));
        // The JSON round trip keeps everything.
        let json = serde_json::to_string(&cert).unwrap();
        let back: WindowCertificate<i64> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, cert);
        assert_eq!(cert.periodicity(a.len()).period, p.period);
    }

    #[test]
    fn every_tampered_field_is_refused() {
        let a = subtraction(&[4, 5], 200);
        let p = super::super::prove_period(&a, 5, 5).unwrap();
        let cert = WindowCertificate::from_sequence(&a, 5, 5, p.preperiod, p.period).unwrap();
        let tamper = |f: &dyn Fn(&mut WindowCertificate<i64>)| {
            let mut c = cert.clone();
            f(&mut c);
            c.verify(&a)
        };
        assert!(matches!(
            tamper(&|c| c.base[3] += 1),
            Err(WindowError::Value {
                field: "base",
                n: 3,
                ..
            })
        ));
        assert!(matches!(
            tamper(&|c| c.window[0] += 1),
            Err(WindowError::Value {
                field: "window",
                ..
            })
        ));
        // A shorter window than the order, and a shorter order than the window.
        assert!(matches!(
            tamper(&|c| c.order = 4),
            Err(WindowError::WindowLength { .. })
        ));
        let late = WindowCertificate::from_sequence(&a, 5, p.preperiod + 7, p.preperiod, p.period)
            .unwrap();
        let mut short = late.clone();
        short.order = 4;
        short.window.pop();
        assert!(matches!(
            short.verify(&a),
            Err(WindowError::WindowTooEarly { .. })
        ));
        // A wrong period with a base to match is not a period at all.
        assert!(matches!(
            tamper(&|c| {
                c.period -= 1;
                c.base.pop();
            }),
            Err(WindowError::NotPeriodic { .. })
        ));
        // A multiple of the period is a period, but not the least.
        assert!(matches!(
            tamper(&|c| {
                c.period *= 2;
                c.base = a[..c.preperiod + c.period].to_vec();
            }),
            Err(WindowError::PeriodNotLeast { .. })
        ));
        assert!(matches!(
            tamper(&|c| c.period = 0),
            Err(WindowError::Zero { field: "period" })
        ));
        assert!(matches!(
            tamper(&|c| c.window_start = usize::MAX),
            Err(WindowError::Overflow)
        ));
    }

    #[test]
    fn preperiods_are_least_and_windows_may_start_late() {
        // 7, 7, then 1, 2 repeating, look-back 1 from n = 1: preperiod 2, period 2.
        let mut a = vec![7u8, 7];
        a.extend((0..20).map(|n| 1 + (n % 2) as u8));
        let cert = WindowCertificate::from_sequence(&a, 1, 1, 2, 2).unwrap();
        assert_eq!(cert.window_start, 2);
        let late = WindowCertificate::from_sequence(&a, 1, 9, 2, 2).unwrap();
        assert_eq!(late.window_start, 8);
        assert!(matches!(
            WindowCertificate::from_sequence(&a, 1, 1, 3, 2),
            Err(WindowError::PreperiodNotLeast { preperiod: 3, .. })
        ));
        // The window recurs, but the period fails between the claimed preperiod and it.
        let mut b = a.clone();
        b[9] = 5;
        b[11] = 5;
        let c = WindowCertificate {
            window_start: 14,
            window: vec![b[14]],
            ..cert.clone()
        };
        assert!(matches!(
            c.verify(&b),
            Err(WindowError::NotPeriodic { n: 7, .. })
        ));
        assert!(matches!(
            cert.verify(&a[..3]),
            Err(WindowError::TooShort {
                needed: 5,
                given: 3
            })
        ));
    }
}
