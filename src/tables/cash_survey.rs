//! A survey of NIM with Cash over every move set A ⊆ {lo..hi} (optionally of given sizes): for
//! each set, the plain game's least preperiod and period (proven by a window of max A values,
//! SPEC §4: W_A(n) depends on the previous max A values only) and whether the cash game is
//! cash-periodic (Def 4.4(3), with an offset allowed), decided from the certified closed forms of
//! f^I and f^II ([`threshold_forms`], [`ThresholdForms::cash_periodicity`]). A set whose forms
//! cannot be certified on n ≤ max_n is `undecided`: no verdict is guessed from the data.
//!
//! The sets are listed in binary counting order of their element masks (the element `lo` is
//! bit 0), which orders them by largest element first.

use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::games::cash::{
    Amount, CashPeriodicity, CashSet, ThresholdForms, plain_winners, threshold_bytes,
    threshold_forms, thresholds,
};
use crate::miner::{Periodicity, prove_period};
use crate::num::IntRange;
use crate::progress::Progress;

/// The columns of [`survey_table`].
pub const SURVEY_COLUMNS: [&str; 7] = [
    "set",
    "max",
    "plain_preperiod",
    "plain_period",
    "cash",
    "cash_period",
    "cash_from",
];

/// The most elements a survey ranges over (2^20 − 1 sets).
pub const MAX_SURVEY_ELEMENTS: u64 = 20;

/// What the survey found about a set's cash game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CashVerdict {
    /// Cash-periodic with this least period from n = `from` on (proven by the certificate).
    Periodic {
        /// The least period.
        period: usize,
        /// Where the periodicity is proven to start.
        from: i64,
    },
    /// Not cash-periodic: a C value grows without bound along a residue class (proven).
    NotPeriodic,
    /// The closed forms of f^I, f^II could not be certified on the data.
    Undecided,
}

impl CashVerdict {
    /// The word the table shows.
    pub fn word(&self) -> &'static str {
        match self {
            CashVerdict::Periodic { .. } => "periodic",
            CashVerdict::NotPeriodic => "not periodic",
            CashVerdict::Undecided => "undecided",
        }
    }
}

/// One surveyed set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CashSurveyRow {
    /// The move set A.
    pub set: CashSet,
    /// The plain game's period, when a window of max A values recurs on n ≤ max_n.
    pub plain: Option<Periodicity>,
    /// The cash game's periodicity.
    pub cash: CashVerdict,
}

/// The sets a survey visits: every non-empty A ⊆ `elements` whose size is in `sizes` (all sizes
/// when `None`), in binary counting order.
pub fn survey_sets(elements: IntRange, sizes: Option<IntRange>) -> Result<Vec<CashSet>> {
    let width = survey_width(elements)?;
    let mut sets = Vec::new();
    for mask in 1u64..(1 << width) {
        let size = i64::from(mask.count_ones());
        if sizes.is_some_and(|s| size < s.start() || size > s.end()) {
            continue;
        }
        let members: Vec<Amount> = (0..width)
            .filter(|b| mask >> b & 1 == 1)
            .map(|b| elements.start() as Amount + b)
            .collect();
        sets.push(CashSet::new(members)?);
    }
    Ok(sets)
}

/// The number of elements of `elements`, refused unless they are 1 ≤ lo ≤ hi with at most
/// [`MAX_SURVEY_ELEMENTS`] of them.
fn survey_width(elements: IntRange) -> Result<u64> {
    if elements.start() < 1 {
        return Err(Error::invalid(format!(
            "elements {elements}: the elements of a move set are ≥ 1"
        )));
    }
    if elements.len() > MAX_SURVEY_ELEMENTS {
        return Err(Error::invalid(format!(
            "elements {elements}: {} numbers, 2^{} − 1 sets; at most {MAX_SURVEY_ELEMENTS} numbers are supported",
            elements.len(),
            elements.len()
        )));
    }
    Ok(elements.len())
}

/// Estimated peak bytes and work (steps of the threshold recurrence) of [`cash_survey`]: the
/// sets are surveyed one after another, so the peak is one set's closed-form fit plus the rows.
pub fn survey_cost(
    elements: IntRange,
    sizes: Option<IntRange>,
    max_n: Amount,
) -> Result<(u64, u64)> {
    let width = survey_width(elements)?;
    let sets = survey_sets(elements, sizes)?.len() as u64;
    let per_set = threshold_bytes(max_n, true);
    let bytes = u64::try_from(per_set)
        .unwrap_or(u64::MAX)
        .saturating_add(sets.saturating_mul(256));
    let work = sets
        .saturating_mul(max_n.saturating_add(1))
        .saturating_mul(width);
    Ok((bytes, work))
}

/// Surveys every set of [`survey_sets`] on n ≤ `max_n`.
pub fn cash_survey(
    elements: IntRange,
    sizes: Option<IntRange>,
    max_n: Amount,
    progress: &dyn Progress,
) -> Result<Vec<CashSurveyRow>> {
    let sets = survey_sets(elements, sizes)?;
    progress.start(sets.len() as u64);
    let mut rows = Vec::with_capacity(sets.len());
    for set in sets {
        let row = match threshold_forms(&set, max_n) {
            Ok(forms) => certified_row(set, &forms, max_n)?,
            Err(_) => {
                let k = usize::try_from(set.max()).unwrap_or(usize::MAX);
                let plain = prove_period(&plain_winners(&set, max_n), k, k);
                CashSurveyRow {
                    set,
                    plain,
                    cash: CashVerdict::Undecided,
                }
            }
        };
        rows.push(row);
        progress.advance(1);
    }
    Ok(rows)
}

/// The row of a set whose closed forms are certified.
fn certified_row(set: CashSet, forms: &ThresholdForms, max_n: Amount) -> Result<CashSurveyRow> {
    let th = thresholds(&set, max_n)?;
    let cash = match forms.cash_periodicity(&set, &th.winner) {
        CashPeriodicity::Periodic { period, from } => CashVerdict::Periodic { period, from },
        CashPeriodicity::NotPeriodic { .. } => CashVerdict::NotPeriodic,
    };
    Ok(CashSurveyRow {
        plain: Some(forms.plain_period.clone()),
        set,
        cash,
    })
}

/// The survey as a table under [`SURVEY_COLUMNS`].
pub fn survey_table(rows: &[CashSurveyRow]) -> Table {
    let mut t = Table::new(&SURVEY_COLUMNS);
    for r in rows {
        let (period, from) = match r.cash {
            CashVerdict::Periodic { period, from } => (Cell::from(period), Cell::Int(from)),
            _ => (Cell::Text(String::new()), Cell::Text(String::new())),
        };
        t.push(vec![
            Cell::list("{", ",", "}", r.set.elements().iter().copied()),
            Cell::from(r.set.max()),
            r.plain.as_ref().map(|p| p.preperiod).into(),
            r.plain.as_ref().map(|p| p.period).into(),
            r.cash.word().into(),
            period,
            from,
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;

    #[test]
    fn sets_are_every_subset_of_the_asked_sizes() {
        let all = survey_sets(IntRange::new(1, 4).unwrap(), None).unwrap();
        assert_eq!(all.len(), 15);
        assert_eq!(all[2].elements(), [1, 2]);
        let pairs = survey_sets(
            IntRange::new(1, 4).unwrap(),
            Some(IntRange::new(2, 2).unwrap()),
        )
        .unwrap();
        assert_eq!(pairs.len(), 6);
        assert!(pairs.iter().all(|s| s.elements().len() == 2));
        assert!(survey_sets(IntRange::new(0, 3).unwrap(), None).is_err());
        assert!(survey_sets(IntRange::new(1, 40).unwrap(), None).is_err());
    }

    #[test]
    fn each_row_carries_the_proven_plain_period() {
        let rows = cash_survey(IntRange::new(1, 3).unwrap(), None, 200, &Silent).unwrap();
        assert_eq!(rows.len(), 7);
        for r in &rows {
            let w = plain_winners(&r.set, 200);
            let p = r.plain.as_ref().expect("small sets recur early");
            for n in p.preperiod..150 {
                assert_eq!(w[n], w[n + p.period], "A = {}", r.set);
            }
        }
        let t = survey_table(&rows);
        assert_eq!(t.columns, SURVEY_COLUMNS);
        assert_eq!(t.rows.len(), 7);
    }
}
