//! Eventual periodicity of a sequence: the least preperiod and the least period, proven by a
//! window argument when the caller knows the recurrence's look-back, observed otherwise.
//!
//! Proof. Suppose a(n) is determined by a(n−k), …, a(n−1) for every n ≥ r (the same rule for
//! every n). If a(w + j) = a(w + P + j) for 0 ≤ j < k and w + k ≥ r, induction on n gives
//! a(n) = a(n + P) for all n ≥ w. The window is checked on data, so the claim is exact.
//!
//! Least period. The eventual periods of an eventually periodic sequence are exactly the multiples
//! of the least one, P*. Once P is proven from w, a(w..) is purely periodic with period P, hence
//! also with P* (P* | P): P* is the least divisor d of P under which the cycle a(w..w+P) is
//! invariant by rotation. No search over larger data is needed, and a multiple of the true period
//! is never reported. The least preperiod is one past the last n with a(n) ≠ a(n + P*).
//!
//! Without a recurrence, the same numbers are only *observed*: the least period of the data's
//! tail and the preperiod it implies, with the number of full periods confirming them.

use serde::Serialize;

/// How a period claim is backed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum PeriodStatus {
    /// Proven for all n ≥ preperiod: the window a(start..start+len) recurs P later.
    Proven {
        /// First index of the window.
        window_start: usize,
        /// Window length (the recurrence's look-back).
        window_len: usize,
    },
    /// Seen in the data only.
    Observed {
        /// Full periods after the preperiod inside the data.
        periods_seen: usize,
    },
}

/// An eventual period: a(n + period) = a(n) for all n ≥ preperiod.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    /// The least preperiod n₀.
    pub preperiod: usize,
    /// The least period P.
    pub period: usize,
    /// Proven or observed.
    #[serde(flatten)]
    pub status: PeriodStatus,
    /// Number of terms a(0..terms) examined.
    pub terms: usize,
}

impl Periodicity {
    /// Whether the claim is proven for all n.
    pub fn is_proven(&self) -> bool {
        matches!(self.status, PeriodStatus::Proven { .. })
    }
}

/// Least period of a whole slice (KMP failure function): the least p with s[i] = s[i + p].
fn least_period_of<T: Eq>(s: &[T]) -> usize {
    let n = s.len();
    if n == 0 {
        return 0;
    }
    let mut fail = vec![0usize; n];
    let mut k = 0;
    for i in 1..n {
        while k > 0 && s[i] != s[k] {
            k = fail[k - 1];
        }
        if s[i] == s[k] {
            k += 1;
        }
        fail[i] = k;
    }
    n - fail[n - 1]
}

/// The least divisor d of the cycle's length under which rotating by d leaves it unchanged.
fn least_rotation_period<T: Eq>(cycle: &[T]) -> usize {
    let p = cycle.len();
    (1..=p)
        .filter(|&d| p.is_multiple_of(d))
        .find(|&d| (0..p).all(|j| cycle[j] == cycle[(j + d) % p]))
        .expect("the full length qualifies")
}

/// One past the last n < `before` with a(n) ≠ a(n + p) (0 if none).
fn preperiod_below<T: Eq>(a: &[T], p: usize, before: usize) -> usize {
    (0..before.min(a.len().saturating_sub(p)))
        .rev()
        .find(|&n| a[n] != a[n + p])
        .map_or(0, |n| n + 1)
}

/// The period of the data's tail (its second half) and where it starts, if the tail holds at
/// least two full periods.
fn tail_candidate<T: Eq>(a: &[T]) -> Option<(usize, usize)> {
    let tail_start = a.len() / 2;
    let p = least_period_of(&a[tail_start..]);
    if p == 0 || 2 * p > a.len() - tail_start {
        return None;
    }
    Some((p, preperiod_below(a, p, a.len())))
}

/// Proves eventual periodicity of `a` when a(n) is a fixed function of a(n−k..n) for all n ≥ r.
/// `None` when the data does not (yet) contain a recurring window.
pub fn prove_period<T: Eq>(a: &[T], k: usize, r: usize) -> Option<Periodicity> {
    let (p, start) = tail_candidate(a)?;
    let w = start.max(r.saturating_sub(k));
    // A look-back beyond the data can never be checked (and w + p + k may not fit in usize).
    if w.checked_add(p)
        .and_then(|x| x.checked_add(k))
        .is_none_or(|end| end > a.len())
    {
        return None;
    }
    debug_assert!((w..w + k).all(|j| a[j] == a[j + p]));
    let d = least_rotation_period(&a[w..w + p]);
    Some(Periodicity {
        preperiod: preperiod_below(a, d, w),
        period: d,
        status: PeriodStatus::Proven {
            window_start: w,
            window_len: k,
        },
        terms: a.len(),
    })
}

/// Proves eventual periodicity of Sprague–Grundy values g of a finite octal game whose moves
/// remove at most k beans (the Guy–Smith octal periodicity theorem): see
/// [`prove_take_break_period`] with at most two heaps left by a move.
pub fn prove_octal_period<G: Eq, T: Eq>(g: &[G], k: usize, shadow: &[T]) -> Option<Periodicity> {
    prove_take_break_period(g, k, 2, shadow)
}

/// Proves eventual periodicity of the Sprague–Grundy values g of a take-and-break game whose
/// moves remove at most k beans and leave at most `parts` ≥ 1 heaps (two for octal codes, three
/// for hexadecimal ones): if g(n + P) = g(n) for all n₀ ≤ n < E, where
/// E = parts·n₀ + (parts − 1)·P + k, plus one when n₀ = 0, then for all n ≥ n₀.
///
/// Proof, by induction on n ≥ E: an option of heap n + P removes i ≤ k beans and leaves heaps
/// summing to n + P − i ≥ parts·(n₀ + P) (+1 when n₀ = 0), so its largest heap b has
/// b − P ≥ n₀, and b − P ≥ 1 (when n₀ = 0 by the extra term). Then g(b) = g(b − P) (b < n + P),
/// and the same removal from heap n leaving b − P in place of b is a legal move (the same number
/// of non-empty heaps) with the same value. Conversely an option of heap n leaves heaps summing
/// to n − i ≥ parts·n₀ + (parts − 1)·P, whose largest heap c ≥ n₀ has g(c + P) = g(c), and
/// adding P to it is an option of n + P. So heaps n and n + P have the same option values.
/// (Without the extra term, n₀ = 0 would pair a move leaving heaps (P, P) with one leaving a
/// single heap, which the code may forbid.) Returns the least period and preperiod of
/// `shadow(g)` for any sequence `shadow` that is a function of g term by term.
pub fn prove_take_break_period<G: Eq, T: Eq>(
    g: &[G],
    k: usize,
    parts: usize,
    shadow: &[T],
) -> Option<Periodicity> {
    assert_eq!(g.len(), shadow.len(), "one shadow term per Grundy value");
    assert!(parts >= 1, "a move leaves at most `parts` heaps, parts ≥ 1");
    let (p, n0) = tail_candidate(g)?;
    let extra = usize::from(n0 == 0);
    // The checked window n₀ ≤ n < E compares g(n) with g(n + P): its length, and E + P ≤ len.
    let window_len = (parts - 1)
        .checked_mul(n0.checked_add(p)?)
        .and_then(|x| x.checked_add(k))
        .and_then(|x| x.checked_add(extra))?;
    let needed = n0.checked_add(window_len).and_then(|x| x.checked_add(p));
    if needed.is_none_or(|end| end > g.len()) {
        return None;
    }
    let d = least_rotation_period(&shadow[n0..n0 + p]);
    Some(Periodicity {
        preperiod: preperiod_below(shadow, d, n0),
        period: d,
        status: PeriodStatus::Proven {
            window_start: n0,
            window_len,
        },
        terms: g.len(),
    })
}

/// An arithmetic period: g(n + period) = g(n) + saltus for all n ≥ preperiod, with saltus > 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArithmeticPeriodicity {
    /// The least preperiod n₀.
    pub preperiod: usize,
    /// The least period P.
    pub period: usize,
    /// The saltus s: what every period adds.
    pub saltus: u64,
    /// Full periods after the preperiod inside the data.
    pub periods_seen: usize,
}

/// The arithmetic period the data shows (observed only), when at least `min_periods` full
/// periods follow the preperiod and the saltus is positive.
///
/// g(n + P) − g(n) is constant from n₀ on exactly when the first differences
/// Δ(n) = g(n + 1) − g(n) are periodic with period P from n₀ on (the difference of two windows
/// of P consecutive Δ's), so this is [`observe_period`] on Δ; the saltus is the sum of one
/// period of Δ.
pub fn observe_arithmetic_period(g: &[u64], min_periods: usize) -> Option<ArithmeticPeriodicity> {
    let deltas: Vec<i128> = g
        .windows(2)
        .map(|w| i128::from(w[1]) - i128::from(w[0]))
        .collect();
    let seen = observe_period(&deltas, min_periods)?;
    let (n0, p) = (seen.preperiod, seen.period);
    let saltus = g.get(n0 + p)?.checked_sub(g[n0])?;
    (saltus > 0).then_some(ArithmeticPeriodicity {
        preperiod: n0,
        period: p,
        saltus,
        periods_seen: (g.len() - n0) / p,
    })
}

/// The period the data shows, when at least `min_periods` full periods follow the preperiod.
pub fn observe_period<T: Eq>(a: &[T], min_periods: usize) -> Option<Periodicity> {
    let (p, start) = tail_candidate(a)?;
    let periods_seen = (a.len() - start) / p;
    (periods_seen >= min_periods.max(2)).then_some(Periodicity {
        preperiod: start,
        period: p,
        status: PeriodStatus::Observed { periods_seen },
        terms: a.len(),
    })
}

/// Least period and preperiod of one component `c` of a vector sequence already proven periodic
/// with `proof` (c(n) is a coordinate of the proven states, so it inherits the proof).
pub fn component_period<T: Eq>(c: &[T], proof: &Periodicity) -> Periodicity {
    let PeriodStatus::Proven { window_start, .. } = proof.status else {
        panic!("component_period needs a proven period");
    };
    let p = proof.period;
    let w = window_start;
    let d = least_rotation_period(&c[w..w + p]);
    Periodicity {
        preperiod: preperiod_below(c, d, w),
        period: d,
        status: proof.status.clone(),
        terms: c.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::miner::fixtures::subtraction;

    #[test]
    fn periods_are_least_and_never_multiples() {
        // Purely periodic 0,1,2 repeated: period 3 even though 6, 9, … also fit.
        let a: Vec<u8> = (0..60).map(|n| (n % 3) as u8).collect();
        let p = prove_period(&a, 2, 2).unwrap();
        assert_eq!((p.preperiod, p.period), (0, 3));
        // A preperiod: 5, 5, then 1, 2 repeating.
        let mut b = vec![5u8, 5];
        b.extend((0..40).map(|n| 1 + (n % 2) as u8));
        let p = prove_period(&b, 1, 1).unwrap();
        assert_eq!((p.preperiod, p.period), (2, 2));
    }

    #[test]
    fn proof_needs_the_window_inside_the_data() {
        let a: Vec<u8> = (0..16).map(|n| (n % 4) as u8).collect();
        // Look-back 13 needs 4 + 13 terms; only 16 exist.
        assert!(prove_period(&a, 13, 13).is_none());
        assert_eq!(prove_period(&a, 12, 12).unwrap().period, 4);
    }

    #[test]
    fn subtraction_4_5_period_is_least_and_exact() {
        let a = subtraction(&[4, 5], 200);
        let p = prove_period(&a, 5, 6).unwrap();
        for n in p.preperiod..a.len() - p.period {
            assert_eq!(a[n], a[n + p.period]);
        }
        assert!(p.preperiod == 0 || a[p.preperiod - 1] != a[p.preperiod - 1 + p.period]);
        // The least period: no proper divisor works on the periodic part.
        for d in (1..p.period).filter(|&d| p.period.is_multiple_of(d)) {
            assert!((p.preperiod..a.len() - d).any(|n| a[n] != a[n + d]));
        }
    }

    #[test]
    fn octal_theorem_needs_twice_the_preperiod_plus_period_plus_k() {
        // Grundy values of 0.115 for n ≥ 1 (Winning Ways; OEIS A125829): period 14.
        let cycle = [1u8, 1, 1, 0, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2];
        let g: Vec<u8> = std::iter::once(0)
            .chain((0..100).map(|n| cycle[n % 14]))
            .collect();
        let p = prove_octal_period(&g, 3, &g).unwrap();
        assert_eq!((p.preperiod, p.period), (1, 14));
        // The shadow g ≠ 0 has the same period here, and a short prefix proves nothing.
        let nonzero: Vec<bool> = g.iter().map(|&v| v != 0).collect();
        assert_eq!(prove_octal_period(&g, 3, &nonzero).unwrap().period, 14);
        assert!(prove_octal_period(&g[..34], 3, &g[..34]).is_none());
    }

    #[test]
    fn a_purely_periodic_start_needs_one_more_term() {
        // Period 3 from n₀ = 0, k = 10, two heaps: E = 2·0 + 3 + 10 + 1 = 14, so the window
        // n < 14 is compared with n + 3 and g(0..17) is needed (16 without the extra term).
        let g: Vec<u8> = (0..24).map(|n| (n % 3) as u8).collect();
        assert!(prove_octal_period(&g[..16], 10, &g[..16]).is_none());
        let p = prove_octal_period(&g[..17], 10, &g[..17]).unwrap();
        assert_eq!(
            p.status,
            PeriodStatus::Proven {
                window_start: 0,
                window_len: 14
            }
        );
        // Three heaps: E = 3·0 + 2·3 + 10 + 1 = 17, so g(0..20) is needed.
        assert!(prove_take_break_period(&g[..19], 10, 3, &g[..19]).is_none());
        assert_eq!(
            prove_take_break_period(&g[..20], 10, 3, &g[..20])
                .unwrap()
                .period,
            3
        );
    }

    #[test]
    fn arithmetic_periods_carry_their_saltus() {
        // 0, 5, then 1, 2, 2 + 3j, … : g(n + 2) = g(n) + 3 from n = 2 on.
        let mut g = vec![0u64, 5];
        g.extend((0..40).map(|j| 1 + 3 * (j / 2) + (j % 2)));
        let a = observe_arithmetic_period(&g, 3).unwrap();
        assert_eq!((a.preperiod, a.period, a.saltus), (2, 2, 3));
        for n in a.preperiod..g.len() - a.period {
            assert_eq!(g[n + a.period], g[n] + a.saltus);
        }
        // A purely periodic sequence has no positive saltus.
        let flat: Vec<u64> = (0..40).map(|n| n % 4).collect();
        assert!(observe_arithmetic_period(&flat, 3).is_none());
    }

    #[test]
    fn observation_reports_how_many_periods_confirm() {
        let a: Vec<u8> = (0..30).map(|n| (n % 5) as u8).collect();
        let o = observe_period(&a, 3).unwrap();
        assert_eq!(o.period, 5);
        assert_eq!(o.status, PeriodStatus::Observed { periods_seen: 6 });
        assert!(observe_period(&a, 7).is_none());
        let random = [3u8, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9];
        assert!(observe_period(&random, 2).is_none());
    }
}
