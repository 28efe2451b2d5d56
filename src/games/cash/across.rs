//! NIM with Cash along a family of move sets A(L) (e.g. {1, L}): each member's thresholds
//! certified and summarized as the miner's across-L analysis needs them
//! ([`crate::miner::across`]).
//!
//! §5–7 of the paper state f_A — the threshold of the plain game's winner — and f_A^⊥ — the other
//! player's — on n = Pk + i as B_i·k + c_i. A member is certified by [`threshold_forms`] on
//! enough data (60·(max A)² terms at first, doubled until the proof closes), and its intercepts
//! c_i are read off the certified forms two periods beyond where they hold.

use super::{
    Amount, CashSet, ThresholdForms, Winner, check_threshold_budget, threshold_forms, thresholds,
};
use crate::error::{Error, Result};
use crate::miner::across::AcrossMember;
use crate::num::Q;
use crate::progress::{Progress, Silent};

/// Terms fitted in about three seconds: a family needing more reports its progress.
pub const TERMS_WORTH_REPORTING: u128 = 2_000_000;

/// Most data a member is fitted on before its forms are given up on.
const MAX_DATA: Amount = 1 << 22;

/// The data a member is first fitted on: 60·(max A)² terms, at least 2000 (larger sets need
/// longer transients). The cost of a family is the sum over its members.
pub fn across_start_data(set: &CashSet) -> Amount {
    2000u64.max(60u64.saturating_mul(set.max()).saturating_mul(set.max()))
}

/// The members at L = l (with move set A(L)) certified and summarized, in order; `max_bytes`
/// bounds the data of each. `progress` hears the start data of every member (see
/// [`across_start_data`]) when their sum reaches [`TERMS_WORTH_REPORTING`].
pub fn across_members(
    family: &[(i64, CashSet)],
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Vec<AcrossMember>> {
    let work: u128 = family
        .iter()
        .map(|(_, set)| u128::from(across_start_data(set)))
        .sum();
    let progress: &dyn Progress = if work >= TERMS_WORTH_REPORTING {
        progress
    } else {
        &Silent
    };
    progress.start(u64::try_from(work).unwrap_or(u64::MAX));
    family
        .iter()
        .map(|(l, set)| {
            progress.advance(across_start_data(set));
            let forms = certified_forms(set, max_bytes)
                .map_err(|why| Error::invalid(format!("L = {l}, A = {set}: {why}")))?;
            across_member(*l, set, &forms)
        })
        .collect()
}

/// The certified forms of A, on data doubled from [`across_start_data`] (up to 2²² terms, each
/// size checked against `max_bytes`) until they are proven.
pub fn certified_forms(set: &CashSet, max_bytes: u64) -> Result<ThresholdForms> {
    let mut data = across_start_data(set);
    loop {
        match threshold_forms(set, data) {
            Ok(forms) => return Ok(forms),
            Err(_) if data < MAX_DATA => {
                data *= 2;
                check_threshold_budget(set, data, true, max_bytes)?;
            }
            Err(e) => return Err(e),
        }
    }
}

/// A member's summary: period, start, the distinct slopes of f^I and f^II, and the intercepts
/// of f_A and f_A^⊥.
fn across_member(l: i64, set: &CashSet, forms: &ThresholdForms) -> Result<AcrossMember> {
    let mut slopes: Vec<Q> = forms
        .f1
        .lines
        .iter()
        .chain(&forms.f2.lines)
        .map(|x| x.slope.clone())
        .collect();
    slopes.sort();
    slopes.dedup();
    let period = forms.certificate.recurrence.period;
    Ok(AcrossMember {
        l,
        period,
        from: forms.certificate.from,
        slopes,
        intercepts: main_other_intercepts(set, forms, period)?.to_vec(),
    })
}

/// f_A (the plain-game winner's threshold) and f_A^⊥ (the other player's) on n = Pk + i are
/// B_i·k + c_i; returns the c_i of both, read off the certified forms at two periods beyond
/// where they hold.
fn main_other_intercepts(
    set: &CashSet,
    forms: &ThresholdForms,
    period: usize,
) -> Result<[Vec<Q>; 2]> {
    let p = period as i64;
    let k0 = forms.certificate.from.div_euclid(p) + 2;
    let th = thresholds(set, ((k0 + 2) * p) as u64)?;
    let mut out = [Vec::with_capacity(period), Vec::with_capacity(period)];
    for i in 0..p {
        let at = |k: i64| -> [Q; 2] {
            let n = k * p + i;
            let (f1, f2) = (forms.f1.eval(n), forms.f2.eval(n));
            match th.winner[n as usize] {
                Winner::I => [f1, f2],
                Winner::II => [f2, f1],
            }
        };
        let (now, next) = (at(k0), at(k0 + 1));
        for j in 0..2 {
            let slope = &next[j] - &now[j];
            out[j].push(&now[j] - &(&slope * &Q::int(k0)));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intercepts_reproduce_the_thresholds_of_the_winner_and_the_other_player() {
        for (l, set) in [(4, "1,4"), (6, "1,6"), (5, "1,5,6")] {
            let a: CashSet = set.parse().unwrap();
            let m = &across_members(&[(l, a.clone())], 1 << 30, &Silent).unwrap()[0];
            assert_eq!(m.l, l);
            let p = m.period as i64;
            // Straight from Def 2.1/2.3, well past where the forms hold.
            let end = (m.from + 6 * p) as Amount;
            let th = thresholds(&a, end).unwrap();
            for n in m.from.max(0)..=end as i64 {
                let (k, i) = (n.div_euclid(p), n.rem_euclid(p) as usize);
                let (f1, f2) = (th.f1[n as usize], th.f2[n as usize]);
                let (main, other) = match th.winner[n as usize] {
                    Winner::I => (f1, f2),
                    Winner::II => (f2, f1),
                };
                for (j, truth) in [(0, main), (1, other)] {
                    // One slope B per period on every residue for these sets.
                    assert_eq!(m.slopes.len(), 1, "A = {a}");
                    let slope = &m.slopes[0];
                    let formula = &(slope * &Q::int(k)) + &m.intercepts[j][i];
                    assert_eq!(formula, Q::int(truth as i64), "A = {a}, n = {n}, j = {j}");
                }
            }
        }
    }

    #[test]
    fn start_data_grows_with_the_square_of_the_largest_move() {
        assert_eq!(across_start_data(&"1,4".parse().unwrap()), 2000);
        assert_eq!(across_start_data(&"1,10".parse().unwrap()), 6000);
        let huge = CashSet::new(vec![1, u64::MAX]).unwrap();
        assert_eq!(across_start_data(&huge), u64::MAX);
    }
}
