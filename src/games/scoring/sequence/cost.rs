//! What a sequence a(0..=n) costs, estimated from the rules and n alone before any work, so that
//! oversized requests are refused at once (naming the estimate and the largest n that fits)
//! instead of after minutes, and long ones can show a progress bar with a real length.
//!
//! The estimate follows the route [`HeapSequence::values_reporting`] takes:
//! - the normal-play shadow (every move in play scores the same c, c + 2N > 0): one Grundy value
//!   per heap, work = the moves of every heap up to n;
//! - the single-heap recurrence (taking without breaking, no fixed heaps): one integer per heap;
//! - the ranked table of every multiset of live heaps (one breaking ruleset for every heap):
//!   exactly the number of partitions of the totals ≤ T into live heap sizes, counted here by
//!   the same recurrence the table uses — this count is what makes breaking games exponential
//!   in n (scoring values are not additive, so every multiset a heap breaks into is a position
//!   of its own);
//! - search from the roots otherwise: the heaps the growing heap reaches (n + 1 without
//!   breaking, at most the multisets of totals ≤ n with it) times those the fixed heaps reach.
//!
//! Partition counts are computed up to [`COUNT_CAP`] beans; beyond that they are only used as
//! lower bounds, and for rulesets that break heaps they exceed 2⁶⁴ long before it.

use std::cell::RefCell;

use super::HeapSequence;
use crate::error::{Error, Result};
use crate::games::scoring::normal::common_constant_points;
use crate::games::scoring::position::{Heap, ScoringGame};
use crate::games::scoring::ruleset::{HeapSize, Ruleset};
use crate::games::scoring::solver::Limits;
use crate::num::{Q, last_fitting};

/// Totals up to which multisets of live heaps are counted exactly.
const COUNT_CAP: u64 = 4096;

/// Bytes of one exact value in a result vector (a rational of two big integers).
pub(super) const VALUE_BYTES: u64 = 64;

/// Bytes the engine's per-heap move cache spends on one move (its points, the heaps it leaves).
const CACHED_MOVE_BYTES: u64 = 160;

/// How the terms are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Grundy values of the normal-play shadow.
    NormalPlay,
    /// The order-k recurrence on one heap.
    SingleHeap,
    /// The ranked table of every multiset of live heaps.
    Partitions,
    /// Search from the roots through a hash map of positions.
    Search,
}

/// The estimated cost of a(0..=max_n).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceCost {
    /// The largest heap n.
    pub max_n: HeapSize,
    /// How the terms would be computed.
    pub route: Route,
    /// Positions solved (saturating).
    pub positions: u64,
    /// Moves examined (saturating): the work.
    pub moves: u64,
    /// Peak memory in bytes (saturating).
    pub bytes: u64,
}

impl SequenceCost {
    /// Rough wall-clock seconds on one core, from throughputs measured on each route.
    pub fn seconds(&self) -> f64 {
        let (moves_per_s, positions_per_s) = match self.route {
            Route::NormalPlay => (4e8, 1e8),
            Route::SingleHeap => (1e8, 5e7),
            Route::Partitions => (1e7, 2e6),
            Route::Search => (1e6, 2e5),
        };
        self.moves as f64 / moves_per_s + self.positions as f64 / positions_per_s
    }

    /// The estimate in words, e.g. `about 1.1e7 positions, 3.2e8 moves, 310 MiB, 20 s`.
    pub fn describe(&self) -> String {
        format!(
            "{}: {} positions and {} moves, {} and {}",
            match self.route {
                Route::NormalPlay => "Grundy values of the normal-play shadow",
                Route::SingleHeap => "the single-heap recurrence",
                Route::Partitions => "every multiset of live heaps (the heap breaks)",
                Route::Search => "search over the reachable positions",
            },
            count_text(self.positions),
            count_text(self.moves),
            bytes_text(self.bytes),
            seconds_text(self.seconds())
        )
    }
}

/// A count in words, `about 12345` or `about 1.2e9`, `over 1.8e19` when it saturated.
pub(super) fn count_text(n: u64) -> String {
    if n == u64::MAX {
        "over 1.8e19".to_string()
    } else if n < 1_000_000 {
        format!("about {n}")
    } else {
        format!("about {:.1e}", n as f64)
    }
}

fn bytes_text(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    if b == u64::MAX {
        return "over 16 EiB".to_string();
    }
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    format!("{v:.0} {}", UNITS[u])
}

pub(super) fn seconds_text(s: f64) -> String {
    if s < 1.0 {
        "under a second".to_string()
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 48.0 * 3600.0 {
        format!("{:.0} h", s / 3600.0)
    } else if s < 1e6 * 86400.0 {
        format!("{:.0} days", s / 86400.0)
    } else {
        "over a million days".to_string()
    }
}

/// Cumulative counts of multisets of live heaps of one ruleset: `cum[m]` = the number with at
/// most m beans in all, for m ≤ min(T, [`COUNT_CAP`]), saturating at `u64::MAX`.
///
/// The cumulative counts only grow, so once one saturates every later one is `u64::MAX`, which
/// is what [`CostModel::multisets`] reads past the end: the counts stop at the first saturated
/// one, found by counting to [`SATURATION_PROBE`] first (a count to m needs only the heaps of
/// at most m beans), so a ruleset whose counts saturate early costs a sixteenth of the full
/// table's quadratic work.
fn multiset_counts(rules: &dyn Ruleset, t: u64) -> Vec<u64> {
    if t > SATURATION_PROBE {
        let mut probe = counted_multisets(rules, SATURATION_PROBE);
        if let Some(first) = probe.iter().position(|&c| c == u64::MAX) {
            probe.truncate(first + 1);
            return probe;
        }
    }
    counted_multisets(rules, t)
}

/// Totals to which [`multiset_counts`] counts before the full table: the multisets of all
/// heap sizes pass `u64::MAX` near 400 beans.
const SATURATION_PROBE: u64 = 1024;

/// [`multiset_counts`] counted to min(t, [`COUNT_CAP`]) in full.
fn counted_multisets(rules: &dyn Ruleset, t: u64) -> Vec<u64> {
    let t = t.min(COUNT_CAP) as usize;
    let mut exact = vec![0u64; t + 1];
    exact[0] = 1;
    for h in 1..=t {
        if rules.move_count(h as HeapSize) == 0 {
            continue;
        }
        for m in h..=t {
            exact[m] = exact[m].saturating_add(exact[m - h]);
        }
    }
    let mut acc = 0u64;
    exact
        .into_iter()
        .map(|c| {
            acc = acc.saturating_add(c);
            acc
        })
        .collect()
}

/// Σ_{m ≤ n} moves(m): exact for small n, by the trapezoid rule above (the count is linear in
/// m for octal codes above their digits, and for Nim).
fn moves_up_to(rules: &dyn Ruleset, n: HeapSize) -> u64 {
    if n <= EXACT_MOVE_SUMS {
        return (0..=n).map(|m| rules.move_count(m)).sum();
    }
    let ends = rules.move_count(0).saturating_add(rules.move_count(n));
    (u64::from(n) + 1).saturating_mul(ends) / 2 + ends
}

/// `kept[j]` = Σ_{h ≤ j} term(h), the running totals kept extended to j first (saturating).
fn running_total(kept: &RefCell<Vec<u64>>, j: usize, term: impl Fn(HeapSize) -> u64) -> u64 {
    let mut totals = kept.borrow_mut();
    while totals.len() <= j {
        let h = totals.len() as HeapSize;
        let before = totals.last().copied().unwrap_or(0);
        totals.push(before.saturating_add(term(h)));
    }
    totals[j]
}

/// Heap sizes up to which [`moves_up_to`] adds the moves up exactly.
const EXACT_MOVE_SUMS: HeapSize = 8192;

/// The cost model of one sequence, with its partition counts computed once.
pub(super) struct CostModel<'a> {
    seq: &'a HeapSequence,
    route_hint: Route,
    /// Whether `route_hint` is the general solver's route, whatever shortcuts would apply.
    solver_only: bool,
    /// Cumulative multiset counts of the growing heap's ruleset (splitting rulesets only).
    growing: Vec<u64>,
    /// `move_sums[j]` = Σ_{m ≤ j} moves(m) under the growing heap's ruleset, for the j asked
    /// for so far (at most [`EXACT_MOVE_SUMS`]): a search for the largest n that fits asks
    /// for the cost of a dozen n, and each added these up afresh.
    move_sums: RefCell<Vec<u64>>,
    /// `live_counts[j]` = the number of heap sizes 1..=j with a move, for the j asked for so
    /// far (at most [`COUNT_CAP`]).
    live_counts: RefCell<Vec<u64>>,
    /// Positions the fixed heaps reach, at most.
    plus_reach: u64,
    plus_total: u64,
    plus_moves: u64,
    /// Moves of every heap up to each fixed heap, for the fixed heaps' Grundy values.
    plus_grundy_moves: u64,
    plus_heaps: u64,
}

impl<'a> CostModel<'a> {
    /// The model for n up to `max_n`.
    pub(super) fn new(seq: &'a HeapSequence, max_n: HeapSize) -> CostModel<'a> {
        let rules = seq.ruleset();
        let plus_total: u64 = seq.plus.iter().map(|h| u64::from(h.size)).sum();
        let route_hint = seq.route(max_n);
        let growing = if rules.splits() {
            multiset_counts(rules, u64::from(max_n) + plus_total)
        } else {
            Vec::new()
        };
        let mut plus_reach = 1u64;
        for h in &seq.plus {
            plus_reach = plus_reach.saturating_mul(reach(seq.ruleset_of(h), u64::from(h.size)));
        }
        let plus_moves = seq
            .plus
            .iter()
            .map(|h| seq.ruleset_of(h).move_count(h.size))
            .fold(0u64, u64::saturating_add);
        let plus_grundy_moves = seq
            .plus
            .iter()
            .map(|h| moves_up_to(seq.ruleset_of(h), h.size))
            .fold(0u64, u64::saturating_add);
        let plus_heaps = seq
            .plus
            .iter()
            .map(|h| {
                if seq.ruleset_of(h).splits() {
                    u64::from(h.size)
                } else {
                    1
                }
            })
            .sum();
        CostModel {
            seq,
            route_hint,
            solver_only: false,
            growing,
            move_sums: RefCell::default(),
            live_counts: RefCell::default(),
            plus_reach,
            plus_total,
            plus_moves,
            plus_grundy_moves,
            plus_heaps,
        }
    }

    /// The model of the general solver alone (the ranked table or search), as `octal value`
    /// and `octal outcome` solve one position.
    pub(super) fn solver_only(seq: &'a HeapSequence, max_n: HeapSize) -> CostModel<'a> {
        let mut model = CostModel::new(seq, max_n);
        let all_same = seq.plus.iter().all(|h| h.rules == seq.rules);
        model.route_hint = if all_same && seq.ruleset().splits() {
            Route::Partitions
        } else {
            Route::Search
        };
        model.solver_only = true;
        model
    }

    /// [`moves_up_to`] under the growing heap's ruleset: up to [`EXACT_MOVE_SUMS`], the sums
    /// kept, extended to n first.
    fn moves_up_to(&self, n: HeapSize) -> u64 {
        if n > EXACT_MOVE_SUMS {
            return moves_up_to(self.seq.ruleset(), n);
        }
        let rules = self.seq.ruleset();
        running_total(&self.move_sums, n as usize, |m| rules.move_count(m))
    }

    /// The heap sizes 1..=t with a move under the growing heap's ruleset, those above
    /// [`COUNT_CAP`] all counted as live (the counts kept, extended to t first).
    fn live_up_to(&self, t: u64) -> u64 {
        let rules = self.seq.ruleset();
        let live = running_total(&self.live_counts, t.min(COUNT_CAP) as usize, |h| {
            u64::from(h > 0 && rules.move_count(h) > 0)
        });
        live + t.saturating_sub(COUNT_CAP)
    }

    /// Multisets of the growing heap's ruleset with at most `t` beans (a lower bound beyond the
    /// counted range).
    fn multisets(&self, t: u64) -> u64 {
        match self.growing.get(t as usize) {
            Some(&c) => c,
            None => self.growing.last().copied().unwrap_or(1).max(t + 1),
        }
    }

    /// The cost of a(0..=n).
    pub(super) fn cost(&self, n: HeapSize) -> SequenceCost {
        let rules = self.seq.ruleset();
        let terms = u64::from(n) + 1;
        let output = terms.saturating_mul(VALUE_BYTES);
        let route = match self.route_hint {
            // Whether the integer recurrence fits depends on n: re-derive it.
            Route::SingleHeap | Route::Search if self.seq.plus.is_empty() && !self.solver_only => {
                self.seq.route(n)
            }
            r => r,
        };
        let (positions, moves, bytes) = match route {
            Route::NormalPlay => {
                let moves = self.moves_up_to(n).saturating_add(self.plus_grundy_moves);
                (terms, moves, terms.saturating_mul(4).saturating_add(output))
            }
            Route::SingleHeap => {
                let k = rules.uniform_tail().map_or(1, |t| t.moves.len() as u64 + 1);
                (
                    terms,
                    terms.saturating_mul(k),
                    terms.saturating_mul(8).saturating_add(output),
                )
            }
            Route::Partitions => {
                let t = u64::from(n) + self.plus_total;
                let positions = self.multisets(t);
                let live = self.live_up_to(t);
                let per_position = isqrt(t)
                    .max(1)
                    .saturating_mul(rules.move_count((t / 4) as HeapSize).max(1))
                    / 2;
                let moves = positions.saturating_mul(per_position.max(1));
                // 28 bytes per position, the count tables (by live index and by size) and the
                // move lists of every heap.
                let table = (t + 1)
                    .saturating_mul((live + 1).saturating_add(t + 1))
                    .saturating_mul(8);
                let lists = self
                    .moves_up_to(t as HeapSize)
                    .saturating_mul(CACHED_MOVE_BYTES + 56);
                let bytes = positions
                    .saturating_mul(28)
                    .saturating_add(table)
                    .saturating_add(lists)
                    .saturating_add(output);
                (positions, moves, bytes)
            }
            Route::Search => {
                let growing = if rules.splits() {
                    self.multisets(u64::from(n))
                } else {
                    terms
                };
                let positions = growing.saturating_mul(self.plus_reach);
                let per_growing = self.moves_up_to(n) / terms.max(1);
                let moves = positions.saturating_mul(
                    per_growing
                        .saturating_add(self.plus_moves)
                        .saturating_mul(if rules.splits() {
                            isqrt(u64::from(n)).max(1)
                        } else {
                            1
                        })
                        .max(1),
                );
                let heaps = if rules.splits() { u64::from(n) } else { 1 } + self.plus_heaps;
                // Mirrors the solver's accounting: key, index entry and value per position, and
                // one edge per move.
                let per_position = 128 + 8 * heaps;
                let cache = self.moves_up_to(n).saturating_mul(CACHED_MOVE_BYTES);
                let bytes = positions
                    .saturating_mul(per_position)
                    .saturating_add(moves.saturating_mul(8))
                    .saturating_add(cache)
                    .saturating_add(output);
                (positions, moves, bytes)
            }
        };
        SequenceCost {
            max_n: n,
            route,
            positions,
            moves,
            bytes,
        }
    }

    /// The largest n ≤ `max_n` whose cost stays within `max_bytes` and `max_seconds`, if any
    /// (costs grow with n, so a binary search on the formula; nothing is computed).
    pub(super) fn largest_within(
        &self,
        max_n: HeapSize,
        max_bytes: u64,
        max_seconds: f64,
    ) -> Option<HeapSize> {
        // Every n in 0..=max_n is a HeapSize.
        let fits = |n: i64| {
            let c = self.cost(n as HeapSize);
            c.bytes <= max_bytes && c.seconds() <= max_seconds
        };
        last_fitting(0, i64::from(max_n), fits).map(|n| n as HeapSize)
    }
}

/// Positions a single heap of `size` reaches under `rules`, at most.
fn reach(rules: &dyn Ruleset, size: u64) -> u64 {
    if rules.splits() {
        multiset_counts(rules, size)
            .last()
            .copied()
            .unwrap_or(1)
            .max(size + 1)
    } else {
        size + 1
    }
}

fn isqrt(n: u64) -> u64 {
    (n as f64).sqrt() as u64
}

impl HeapSequence {
    fn ruleset(&self) -> &dyn Ruleset {
        self.game.rulesets()[usize::from(self.rules)].as_ref()
    }

    fn ruleset_of(&self, h: &Heap) -> &dyn Ruleset {
        self.game.rulesets()[usize::from(h.rules)].as_ref()
    }

    /// The common score c of every move in play when the normal-play shadow decides the values
    /// (c + 2N > 0), else `None`.
    pub(super) fn normal_play_points(&self) -> Option<Q> {
        self.normal_play
            .get_or_init(|| {
                let mut heaps = self.plus.clone();
                heaps.push(self.heap(1));
                let c = common_constant_points(&self.game, &heaps)?;
                ((&c + &(&self.bonus + &self.bonus)).signum() > 0).then_some(c)
            })
            .clone()
    }

    /// The route [`values_reporting`](Self::values_reporting) takes for a(0..=max_n).
    pub(super) fn route(&self, max_n: HeapSize) -> Route {
        if self.normal_play_points().is_some() {
            return Route::NormalPlay;
        }
        if self.plus.is_empty()
            && let Some(tail) = self.tail()
            && self.recurrence_fits(&tail, max_n)
        {
            return Route::SingleHeap;
        }
        let all_same = self.plus.iter().all(|h| h.rules == self.rules);
        if all_same && self.ruleset().splits() {
            Route::Partitions
        } else {
            Route::Search
        }
    }

    /// The estimated cost of a(0..=max_n).
    pub fn cost(&self, max_n: HeapSize) -> SequenceCost {
        CostModel::new(self, max_n).cost(max_n)
    }

    /// Refuses, before any work, a position of `game` whose solve by the general solver would
    /// exceed `limits`: estimated as the sequence of its largest heap plus the others (whose
    /// terms it reaches anyway), with the largest heap that would fit.
    pub fn check_position(game: &ScoringGame, heaps: &[Heap], limits: &Limits) -> Result<()> {
        let Some((at, largest)) = heaps.iter().enumerate().max_by_key(|(_, h)| h.size) else {
            return Ok(());
        };
        let mut plus = heaps.to_vec();
        plus.remove(at);
        let seq = HeapSequence::new(game, largest.rules, &plus, Q::zero())?;
        let model = CostModel::solver_only(&seq, largest.size);
        let cost = model.cost(largest.size);
        if cost.bytes <= limits.max_bytes {
            return Ok(());
        }
        let suggestion = match model.largest_within(largest.size, limits.max_bytes, f64::INFINITY) {
            Some(n) => format!(
                "use a smaller heap (at most {n} in place of {}), or raise --memory-limit",
                largest.size
            ),
            None => "use smaller heaps, or raise --memory-limit".to_string(),
        };
        Err(Error::TooLarge {
            what: format!(
                "solving a position with a heap of {} ({})",
                largest.size,
                cost.describe()
            ),
            needed_bytes: cost.bytes,
            limit_bytes: limits.max_bytes,
            suggestion,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::scoring::parse_rules;

    /// What the model keeps reads as what it computed afresh before: the multiset counts cut at
    /// their first saturated total as the full table, and the kept move sums and live counts as
    /// `moves_up_to` and a count of the live heaps, for codes that break heaps (whose counts
    /// saturate) and codes that do not, with and without a fixed heap.
    #[test]
    fn kept_counts_read_as_the_counts_computed_afresh() {
        let mut saturated = 0;
        for code in ["0.4", "0.04", "0.6", "0.77", "0.137", "0.0074", "{4,5}"] {
            let rules = parse_rules(code).expect("a ruleset");
            let full = counted_multisets(rules.as_ref(), COUNT_CAP);
            let cut = multiset_counts(rules.as_ref(), COUNT_CAP);
            saturated += usize::from(cut.len() < full.len());
            for (t, &count) in full.iter().enumerate() {
                let read = cut.get(t).or(cut.last()).copied();
                assert_eq!(read, Some(count), "{code}, t = {t}");
            }
            let game = ScoringGame::new(vec![Arc::clone(&rules)]);
            for plus in [vec![], vec![Heap::new(5)]] {
                let seq = HeapSequence::new(&game, 0, &plus, Q::zero()).expect("a sequence");
                let model = CostModel::new(&seq, 9000);
                for n in (0..=9100).step_by(7) {
                    assert_eq!(
                        model.moves_up_to(n),
                        moves_up_to(rules.as_ref(), n),
                        "{code}, n = {n}"
                    );
                    let t = u64::from(n);
                    let live = (1..=t.min(COUNT_CAP))
                        .filter(|&h| rules.move_count(h as HeapSize) > 0)
                        .count() as u64
                        + t.saturating_sub(COUNT_CAP);
                    assert_eq!(model.live_up_to(t), live, "{code}, t = {t}");
                }
            }
        }
        // Not vacuous: the breaking codes with many live heaps are cut.
        assert!(saturated >= 3, "{saturated} codes cut");
    }
}
