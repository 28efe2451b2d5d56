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
    Amount, CashPeriodicity, CashSet, ThresholdForms, WinCondition, plain_winners, threshold_bytes,
    threshold_forms, thresholds,
};
use crate::miner::{PeriodicLinear, Periodicity, prove_period};
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

/// The columns of `nimlab cash survey`: [`SURVEY_COLUMNS`], then the periods and slopes of
/// f^I and f^II's certified forms and the win condition's status and modulus.
pub const SWEEP_COLUMNS: [&str; 13] = [
    "set",
    "max",
    "plain_preperiod",
    "plain_period",
    "cash",
    "cash_period",
    "cash_from",
    "f1_period",
    "f1_slopes",
    "f2_period",
    "f2_slopes",
    "win_condition",
    "win_modulus",
];

/// A surveyed set with its win-condition status as a row under [`SWEEP_COLUMNS`].
pub fn sweep_cells(row: &CashSurveyRow, win: &WinStatus) -> Vec<Cell> {
    let blank = || Cell::Text(String::new());
    let mut cells = vec![
        Cell::list("{", ",", "}", row.set.elements().iter().copied()),
        Cell::from(row.set.max()),
        row.plain.as_ref().map(|p| p.preperiod).into(),
        row.plain.as_ref().map(|p| p.period).into(),
        row.cash.word().into(),
    ];
    match row.cash {
        CashVerdict::Periodic { period, from } => {
            cells.extend([Cell::from(period), Cell::Int(from)]);
        }
        _ => cells.extend([blank(), blank()]),
    }
    for form in [
        row.forms.as_ref().map(|f| &f.0),
        row.forms.as_ref().map(|f| &f.1),
    ] {
        match form {
            Some(f) => cells.extend([
                Cell::from(f.period),
                Cell::list("{", ",", "}", f.lines.iter().map(|l| l.slope.clone())),
            ]),
            None => cells.extend([blank(), blank()]),
        }
    }
    cells.push(win.word().into());
    cells.push(match win {
        WinStatus::Proven { modulus } => Cell::from(*modulus),
        _ => blank(),
    });
    cells
}

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
    /// The certified closed forms of f^I and f^II (`None` when undecided).
    pub forms: Option<(PeriodicLinear, PeriodicLinear)>,
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
        let row = survey_row(set, max_n)?;
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
        forms: Some((forms.f1.clone(), forms.f2.clone())),
    })
}

/// One set of a survey: its row (see [`cash_survey`]).
pub fn survey_row(set: CashSet, max_n: Amount) -> Result<CashSurveyRow> {
    match threshold_forms(&set, max_n) {
        Ok(forms) => certified_row(set, &forms, max_n),
        Err(_) => {
            let k = usize::try_from(set.max()).unwrap_or(usize::MAX);
            let plain = prove_period(&plain_winners(&set, max_n), k, k);
            Ok(CashSurveyRow {
                set,
                plain,
                cash: CashVerdict::Undecided,
                forms: None,
            })
        }
    }
}

/// The first win table a survey's win-condition search reads (as `cash condition`'s default).
pub const WIN_START_N: Amount = 200;

/// Where the search for a set's win condition ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinStatus {
    /// Found and proven for every n, with the modulus of its boundaries.
    Proven {
        /// The modulus of the boundaries' residues.
        modulus: usize,
    },
    /// The cash game is not cash-periodic (proven), so it has no corresponding-state win
    /// condition.
    NotCashPeriodic,
    /// The cash game's periodicity is undecided on the data, so no condition was sought.
    Undecided,
    /// The win tables the search needs pass the memory allowed to one set.
    MemoryLimit,
    /// The boundaries did not settle into periodic-linear forms on the largest win table.
    NotSettled,
}

impl WinStatus {
    /// The status word the survey table shows.
    pub fn word(&self) -> &'static str {
        match self {
            WinStatus::Proven { .. } => "PROVEN",
            WinStatus::NotCashPeriodic => "NOT_CASH_PERIODIC",
            WinStatus::Undecided => "UNDECIDED",
            WinStatus::MemoryLimit => "MEMORY_LIMIT",
            WinStatus::NotSettled => "NOT_SETTLED",
        }
    }
}

/// The win condition's status for a surveyed row, its search within `max_bytes`: a set whose
/// search fails is a status, never an error.
pub fn win_status(row: &CashSurveyRow, max_bytes: u64) -> WinStatus {
    match row.cash {
        CashVerdict::NotPeriodic => return WinStatus::NotCashPeriodic,
        CashVerdict::Undecided => return WinStatus::Undecided,
        CashVerdict::Periodic { .. } => {}
    }
    match WinCondition::find(&row.set, WIN_START_N, max_bytes) {
        Ok(wc) => WinStatus::Proven {
            modulus: wc.modulus,
        },
        Err(Error::TooLarge { .. }) => WinStatus::MemoryLimit,
        Err(_) => WinStatus::NotSettled,
    }
}

/// The tally of a survey's sets: cash-periodicity and win-condition statuses.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CashTally {
    /// Sets surveyed.
    pub sets: u64,
    /// … cash-periodic (proven).
    pub cash_periodic: u64,
    /// … not cash-periodic (proven).
    pub not_cash_periodic: u64,
    /// … undecided on the data.
    pub undecided: u64,
    /// … with a proven win condition.
    pub win_proven: u64,
    /// … whose win-condition search passed its memory.
    pub win_memory_limit: u64,
    /// … whose boundaries did not settle.
    pub win_not_settled: u64,
}

impl CashTally {
    /// Counts one more surveyed set.
    pub fn add(&mut self, row: &CashSurveyRow, win: &WinStatus) {
        self.sets += 1;
        match row.cash {
            CashVerdict::Periodic { .. } => self.cash_periodic += 1,
            CashVerdict::NotPeriodic => self.not_cash_periodic += 1,
            CashVerdict::Undecided => self.undecided += 1,
        }
        match win {
            WinStatus::Proven { .. } => self.win_proven += 1,
            WinStatus::MemoryLimit => self.win_memory_limit += 1,
            WinStatus::NotSettled => self.win_not_settled += 1,
            WinStatus::NotCashPeriodic | WinStatus::Undecided => {}
        }
    }

    /// Adds the tally of the sets that follow in survey order (a later shard's).
    pub fn absorb(&mut self, next: CashTally) {
        self.sets += next.sets;
        self.cash_periodic += next.cash_periodic;
        self.not_cash_periodic += next.not_cash_periodic;
        self.undecided += next.undecided;
        self.win_proven += next.win_proven;
        self.win_memory_limit += next.win_memory_limit;
        self.win_not_settled += next.win_not_settled;
    }
}

/// Sets surveyed per parallel batch by [`survey_items_in_chunks`].
pub const CASH_SURVEY_CHUNK: usize = 256;

/// The sets numbered `items` of [`survey_sets`] surveyed `chunk` at a time in parallel, each
/// with its win-condition status (its search allowed `win_bytes`), handed to `each` a batch at
/// a time in survey order: one shard of a survey, in memory one batch at a time.
#[allow(clippy::too_many_arguments)]
pub fn survey_items_in_chunks(
    elements: IntRange,
    sizes: Option<IntRange>,
    items: std::ops::Range<u64>,
    max_n: Amount,
    win_bytes: u64,
    chunk: usize,
    progress: &dyn Progress,
    each: impl FnMut(Vec<(CashSurveyRow, WinStatus)>) -> Result<()>,
) -> Result<()> {
    let sets = survey_sets(elements, sizes)?;
    if items.end > sets.len() as u64 {
        return Err(Error::invalid(format!(
            "items {}..{} of a survey of {} sets",
            items.start,
            items.end,
            sets.len()
        )));
    }
    crate::progress::in_parallel_batches(
        items,
        chunk,
        progress,
        |item| {
            let row = survey_row(sets[item as usize].clone(), max_n)?;
            let win = win_status(&row, win_bytes);
            Ok((row, win))
        },
        each,
    )
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
