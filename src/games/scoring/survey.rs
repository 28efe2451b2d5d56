//! Surveys of scoring subtraction games: the period of G_s for every subtraction set inside a
//! range, and the tally behind Stewart's Conjecture 14.
//!
//! A subtraction game S (take s ∈ S beans from a heap, scoring s) has a finite look-back max S,
//! so the window argument proves the least preperiod and period of n ↦ G_s(n) once a window of
//! max S terms recurs (see [`HeapSequence::period`]). Conjecture 14 says that 2·max S is always a
//! period (not necessarily the least) of G_s; [`Conjecture14Tally`] counts, among the proven
//! periods, those equal to 2·max S and those dividing it, and lists the sets where it fails.

use super::{HeapSequence, HeapSize, Limits, OctalRules, PeriodReport, ScoringGame};
use crate::error::{Error, Result};
use crate::num::{IntRange, Q};
use crate::progress::Progress;

/// Most numbers a survey range may span: 2^24 − 1 subtraction sets (about a CPU-hour; split it
/// with `--shard`).
pub const MAX_SURVEY_WIDTH: i64 = 24;

/// One surveyed subtraction set.
#[derive(Clone, Debug)]
pub struct SurveyRow {
    /// S, increasing.
    pub set: Vec<HeapSize>,
    /// The period search on n ↦ G_s(n).
    pub report: PeriodReport,
    /// The search was refused for memory (its estimate passed the limit): the set is a row
    /// with this status, not the end of the survey.
    pub memory_limited: bool,
}

impl SurveyRow {
    /// max S.
    pub fn max(&self) -> HeapSize {
        *self.set.last().expect("a surveyed set is non-empty")
    }
}

/// Conjecture 14 over a survey: how often 2·max S is the least period, or a period.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Conjecture14Tally {
    /// Sets surveyed.
    pub sets: usize,
    /// Sets whose least period is proven.
    pub proven: usize,
    /// … of which the least period is 2·max S.
    pub twice_max: usize,
    /// … of which the least period divides 2·max S (the conjecture holds).
    pub divides: usize,
    /// The proven sets where it does not, with their least period, in survey order.
    pub exceptions: Vec<(Vec<HeapSize>, usize)>,
}

/// The elements of a survey range, checked: every element ≥ 1, at most
/// [`MAX_SURVEY_WIDTH`] numbers.
fn survey_elements(elements: IntRange) -> Result<Vec<HeapSize>> {
    if elements.start() < 1 {
        return Err(Error::invalid(format!(
            "{}..{}: elements of a subtraction set are ≥ 1",
            elements.start(),
            elements.end()
        )));
    }
    let width = elements.end() - elements.start() + 1;
    if width > MAX_SURVEY_WIDTH {
        return Err(Error::invalid(format!(
            "{}..{} spans {width} numbers, 2^{width} − 1 sets; at most {MAX_SURVEY_WIDTH} numbers are supported",
            elements.start(),
            elements.end()
        )));
    }
    Ok(elements.iter().map(|e| e as HeapSize).collect())
}

/// Subset number `mask` of `elements`: bit b holds element b.
fn subset(elements: &[HeapSize], mask: u32) -> Vec<HeapSize> {
    (0..elements.len())
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| elements[b])
        .collect()
}

/// The sets a survey of `elements` visits, in survey order: the non-empty subsets, the subset
/// with bit b of its number holding element `start + b`, numbered 1, 2, … An error when the
/// range has an element below 1 or spans more than [`MAX_SURVEY_WIDTH`] numbers.
pub fn subtraction_sets(elements: IntRange) -> Result<Vec<Vec<HeapSize>>> {
    let elements = survey_elements(elements)?;
    Ok((1..1u32 << elements.len())
        .map(|mask| subset(&elements, mask))
        .collect())
}

/// The period search on G_s of one subtraction set `set` (increasing; points = beans taken,
/// N = 0), up to heap `max_heap`.
pub fn survey_set(set: Vec<HeapSize>, max_heap: HeapSize, limits: &Limits) -> Result<SurveyRow> {
    let rules = OctalRules::subtraction(&set, None).map_err(|e| Error::invalid(e.to_string()))?;
    let game = ScoringGame::single(rules);
    let seq = HeapSequence::new(&game, 0, &[], Q::zero())?;
    match seq.period(max_heap, limits) {
        Ok(report) => Ok(SurveyRow {
            set,
            report,
            memory_limited: false,
        }),
        Err(e @ Error::TooLarge { .. }) => Ok(SurveyRow {
            set,
            report: PeriodReport {
                periodicity: None,
                terms: 0,
                argument: e.to_string(),
                stopped_at: None,
            },
            memory_limited: true,
        }),
        Err(e) => Err(e),
    }
}

/// The period search on G_s for every subtraction set inside `elements` (in the order of
/// [`subtraction_sets`]), up to heap `max_heap`, in parallel; `progress` hears the number of
/// sets, then each set done.
pub fn survey_subtraction_games(
    elements: IntRange,
    max_heap: HeapSize,
    progress: &dyn Progress,
) -> Result<Vec<SurveyRow>> {
    let mut rows = Vec::new();
    survey_in_chunks(elements, max_heap, SURVEY_CHUNK, progress, |chunk| {
        rows.extend(chunk);
        Ok(())
    })?;
    Ok(rows)
}

/// Sets surveyed per parallel batch by [`survey_subtraction_games`].
pub const SURVEY_CHUNK: usize = 4096;

/// The number of sets a survey of `elements` visits (2^width − 1), after the checks of
/// [`subtraction_sets`].
pub fn survey_size(elements: IntRange) -> Result<u64> {
    Ok((1u64 << survey_elements(elements)?.len()) - 1)
}

/// [`survey_subtraction_games`] a batch at a time: the sets are surveyed `chunk` at a time in
/// parallel, and each batch of rows is handed to `each` in survey order before the next one is
/// surveyed, so memory holds one batch whatever the number of sets (2^24 − 1 of them for a
/// range of [`MAX_SURVEY_WIDTH`] numbers). Stops at the first error, of the survey or of
/// `each`.
pub fn survey_in_chunks(
    elements: IntRange,
    max_heap: HeapSize,
    chunk: usize,
    progress: &dyn Progress,
    each: impl FnMut(Vec<SurveyRow>) -> Result<()>,
) -> Result<()> {
    let all = 0..survey_size(elements)?;
    survey_items_in_chunks(elements, all, max_heap, chunk, progress, each)
}

/// [`survey_in_chunks`] for the sets numbered `items` in survey order (item j is the set
/// numbered j + 1 of [`subtraction_sets`]): one shard of a survey.
pub fn survey_items_in_chunks(
    elements: IntRange,
    items: std::ops::Range<u64>,
    max_heap: HeapSize,
    chunk: usize,
    progress: &dyn Progress,
    each: impl FnMut(Vec<SurveyRow>) -> Result<()>,
) -> Result<()> {
    let elements = survey_elements(elements)?;
    let sets = (1u64 << elements.len()) - 1;
    if items.end > sets {
        return Err(Error::invalid(format!(
            "items {}..{} of a survey of {sets} sets",
            items.start, items.end
        )));
    }
    let limits = Limits::default();
    crate::progress::in_parallel_batches(
        items,
        chunk,
        progress,
        |item| {
            let mask = u32::try_from(item + 1).expect("at most 2^24 − 1 sets");
            survey_set(subset(&elements, mask), max_heap, &limits)
        },
        each,
    )
}

impl Conjecture14Tally {
    /// Adds the tally of the sets that follow in survey order (a later shard's).
    pub fn absorb(&mut self, next: Conjecture14Tally) {
        self.sets += next.sets;
        self.proven += next.proven;
        self.twice_max += next.twice_max;
        self.divides += next.divides;
        self.exceptions.extend(next.exceptions);
    }

    /// Counts one more surveyed set.
    pub fn add(&mut self, row: &SurveyRow) {
        self.sets += 1;
        let Some(p) = row.report.periodicity.as_ref().filter(|p| p.is_proven()) else {
            return;
        };
        self.proven += 1;
        let twice_max = 2 * row.max() as usize;
        self.twice_max += usize::from(p.period == twice_max);
        if twice_max.is_multiple_of(p.period) {
            self.divides += 1;
        } else {
            self.exceptions.push((row.set.clone(), p.period));
        }
    }
}

/// Conjecture 14 tallied over surveyed sets.
pub fn conjecture_14(rows: &[SurveyRow]) -> Conjecture14Tally {
    let mut tally = Conjecture14Tally::default();
    rows.iter().for_each(|row| tally.add(row));
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;

    fn range(a: i64, b: i64) -> IntRange {
        IntRange::new(a, b).unwrap()
    }

    /// G_s(n) by the definition: the best of s − G_s(n − s) over s ∈ S, s ≤ n; 0 without moves.
    fn g_naive(set: &[HeapSize], max_n: usize) -> Vec<i64> {
        let mut g = vec![0i64; max_n + 1];
        for n in 0..=max_n {
            g[n] = set
                .iter()
                .filter(|&&s| s as usize <= n)
                .map(|&s| i64::from(s) - g[n - s as usize])
                .max()
                .unwrap_or(0);
        }
        g
    }

    #[test]
    fn every_non_empty_subset_is_visited_once() {
        let sets = subtraction_sets(range(2, 5)).unwrap();
        assert_eq!(sets.len(), 15);
        assert_eq!(sets[0], [2]);
        assert_eq!(sets[2], [2, 3]);
        assert_eq!(sets[14], [2, 3, 4, 5]);
        let mut unique = sets.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 15);
        assert!(subtraction_sets(range(0, 3)).is_err());
        assert!(subtraction_sets(range(1, 25)).is_err());
    }

    #[test]
    fn surveyed_periods_hold_on_the_values_by_definition() {
        let rows = survey_subtraction_games(range(1, 6), 2000, &Silent).unwrap();
        assert_eq!(rows.len(), 63);
        for row in &rows {
            let p = row
                .report
                .periodicity
                .as_ref()
                .expect("subtraction games are periodic");
            assert!(p.is_proven(), "{:?}", row.set);
            let g = g_naive(&row.set, 400);
            let (pre, per) = (p.preperiod, p.period);
            assert!(
                (pre..=400 - per).all(|n| g[n] == g[n + per]),
                "{:?}",
                row.set
            );
            // Least preperiod: one step earlier the period fails.
            assert!(pre == 0 || g[pre - 1] != g[pre - 1 + per], "{:?}", row.set);
            // Least: no proper divisor of the period repeats from the preperiod on.
            for d in (1..per).filter(|d| per % d == 0) {
                assert!(
                    (pre..=400 - d).any(|n| g[n] != g[n + d]),
                    "{:?}: {d}",
                    row.set
                );
            }
        }
    }

    #[test]
    fn batches_come_in_survey_order_and_cover_every_set() {
        let whole = survey_subtraction_games(range(2, 7), 2000, &Silent).unwrap();
        let mut batched = Vec::new();
        survey_in_chunks(range(2, 7), 2000, 5, &Silent, |rows| {
            assert!(rows.len() <= 5);
            batched.extend(rows);
            Ok(())
        })
        .unwrap();
        let sets = |rows: &[SurveyRow]| rows.iter().map(|r| r.set.clone()).collect::<Vec<_>>();
        assert_eq!(sets(&batched), subtraction_sets(range(2, 7)).unwrap());
        assert_eq!(sets(&batched), sets(&whole));
        assert_eq!(conjecture_14(&batched), conjecture_14(&whole));
    }

    #[test]
    fn the_tally_counts_what_the_rows_say() {
        let rows = survey_subtraction_games(range(1, 7), 2000, &Silent).unwrap();
        let t = conjecture_14(&rows);
        assert_eq!(t.sets, rows.len());
        let proven: Vec<(&SurveyRow, usize)> = rows
            .iter()
            .filter_map(|r| Some((r, r.report.periodicity.as_ref()?.period)))
            .collect();
        assert_eq!(t.proven, proven.len());
        let twice = |r: &SurveyRow| 2 * r.max() as usize;
        assert_eq!(
            t.twice_max,
            proven.iter().filter(|(r, p)| *p == twice(r)).count()
        );
        assert_eq!(t.divides + t.exceptions.len(), t.proven);
        for (set, period) in &t.exceptions {
            assert_ne!((2 * *set.last().unwrap() as usize) % period, 0);
        }
        // By the definition's values: 2·max S is a period from the preperiod on exactly for the
        // sets the tally does not list as exceptions.
        for (row, period) in proven {
            let g = g_naive(&row.set, 400);
            let pre = row.report.periodicity.as_ref().unwrap().preperiod;
            let twice = twice(row);
            let holds = (pre..=400 - twice).all(|n| g[n] == g[n + twice]);
            let listed = t.exceptions.contains(&(row.set.clone(), period));
            assert_eq!(holds, !listed, "{:?}", row.set);
        }
    }
}
