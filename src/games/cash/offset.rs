//! Offsets of NIM with Cash's thresholds (Conjecture 8.1): the least Θ from which f^I and f^II
//! both grow by exactly `growth` every `shift` stones, f(n + shift) = f(n) + growth for all
//! n ≥ Θ, and the sharp start of a certified line.
//!
//! Exact for all n. The certified forms ([`threshold_forms`], certificate replayed) give f^I and
//! f^II as periodic-linear in n with one period P for every n ≥ n₀: f(n + P) = f(n) + B_{n mod P}.
//! Then the difference D(n) = f(n + shift) − f(n) satisfies D(n + P) = D(n) for n ≥ n₀ (both
//! terms gain the same B_{n mod P}, as n + shift ≡ n + shift + P). So D = growth holds for all
//! n ≥ n₀ exactly when it holds on the one period n₀ ≤ n < n₀ + P, and below n₀ the values of
//! Def 2.3 decide: Θ is one past the last n < n₀ + P where D ≠ growth, and no offset exists when
//! that n lies in the period.

use super::{Amount, CashSet, ThresholdForms, replay_threshold_certificate, thresholds};
use crate::error::{Error, Result};

/// The least offset of a set, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offset {
    /// f(n + shift) = f(n) + growth for both thresholds and every n ≥ Θ, and not at Θ − 1.
    Least(Amount),
    /// D(n) ≠ growth at some n of the certified periodic part: no offset exists (the first such
    /// n).
    None(Amount),
}

/// The least Θ with f^I(n + shift) = f^I(n) + growth and f^II(n + shift) = f^II(n) + growth
/// for every n ≥ Θ, proven through `forms` (whose certificate is replayed here).
pub fn least_offset(
    set: &CashSet,
    forms: &ThresholdForms,
    shift: Amount,
    growth: Amount,
) -> Result<Offset> {
    if shift == 0 {
        return Err(Error::invalid(format!(
            "the shift of an offset must be positive, not {shift}"
        )));
    }
    replay_threshold_certificate(set, &forms.certificate)?;
    let from = Amount::try_from(forms.certificate.from.max(0))
        .map_err(|_| Error::invalid("the certificate's start is out of range"))?;
    let period = Amount::try_from(forms.certificate.recurrence.period)
        .map_err(|_| Error::invalid("the certificate's period is out of range"))?;
    let end = from + period;
    let th = thresholds(set, end + shift)?;
    let off = |n: Amount| {
        let (a, b) = (n as usize, (n + shift) as usize);
        let grew = |f: &[Amount]| i128::from(f[b]) - i128::from(f[a]);
        grew(&th.f1) != i128::from(growth) || grew(&th.f2) != i128::from(growth)
    };
    if let Some(n) = (from..end).find(|&n| off(n)) {
        return Ok(Offset::None(n));
    }
    Ok(Offset::Least(
        (0..from).rev().find(|&n| off(n)).map_or(0, |n| n + 1),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cash::threshold_forms;

    /// The least Θ seen on the data alone: one past the last failure below `upto`.
    fn seen(set: &CashSet, shift: Amount, growth: Amount, upto: Amount) -> Amount {
        let th = thresholds(set, upto + shift).unwrap();
        (0..=upto)
            .rev()
            .find(|&n| {
                let (a, b) = (n as usize, (n + shift) as usize);
                let grew = |f: &[Amount]| i128::from(f[b]) - i128::from(f[a]);
                grew(&th.f1) != i128::from(growth) || grew(&th.f2) != i128::from(growth)
            })
            .map_or(0, |n| n + 1)
    }

    #[test]
    fn the_least_offset_is_where_the_data_settle_for_good() {
        for (l, m) in [(1, 3), (2, 3), (2, 5), (3, 4), (3, 8), (4, 6)] {
            let set = CashSet::new((l..=m).collect()).unwrap();
            let forms = threshold_forms(&set, 1500).unwrap();
            let got = least_offset(&set, &forms, l + m, m).unwrap();
            assert_eq!(got, Offset::Least(seen(&set, l + m, m, 1400)), "{l}, {m}");
        }
    }

    #[test]
    fn a_growth_the_forms_never_settle_to_has_no_offset() {
        let set = CashSet::new(vec![2, 3]).unwrap();
        let forms = threshold_forms(&set, 1000).unwrap();
        // Over one period f grows by 3 (the test above); by 4 it never does, far out.
        let Offset::None(n) = least_offset(&set, &forms, 5, 4).unwrap() else {
            panic!("an offset for growth 4");
        };
        assert!(seen(&set, 5, 4, 900) > 800 && n >= forms.certificate.from as Amount);
        assert!(least_offset(&set, &forms, 0, 3).is_err());
    }
}
