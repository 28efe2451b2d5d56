//! Sequences over heap size: n ↦ f_N(n +_ℓ m), a heap of n beans under one ruleset plus fixed
//! heaps m (possibly under other rulesets); N = 0 gives Stewart's G_s(n) and G_s(n +_ℓ m).
//!
//! Periodicity. When the growing heap's ruleset has a [`UniformTail`] above k (taking, no
//! breaking), write V(n) = (f(n +_ℓ q))_q over the finitely many positions q reachable from m.
//! Each entry is a max over moves in the n-heap (entries of V(n − i), i ≤ k) and moves in q
//! (entries of V(n) for smaller q), so for n > k, V(n) is one fixed function of V(n−k..n−1):
//! a recurrence of order k, and [`crate::miner::prove_period`]'s window argument applies to the
//! states, then to the coordinate q = m. Breaking rulesets have no finite look-back; their
//! periods are reported as observed only, unless every move scores the same c with c + 2N > 0
//! (then the normal-play reduction proves them).
//! [`PeriodCertificate`] writes the window argument down so that it can be replayed.

mod certificate;
mod cost;

pub use certificate::{PeriodCertificate, PeriodProof, SequenceState};
pub use cost::{Route, SequenceCost};

use cost::CostModel;

use super::normal::{grundy_values, grundy_values_reporting, value_from_grundy};
use super::position::{Heap, Position, RulesId, ScoringGame};
use super::ruleset::{HeapSize, UniformTail};
use super::solver::{Limits, ValueSolution, search_values, solve_values, solve_values_extending};
use crate::error::{Error, Result};
use crate::miner::{
    PeriodicLinear, Periodicity, ResidueLine, component_period, observe_period, prove_octal_period,
    prove_period,
};
use crate::num::Q;
use crate::progress::{Progress, Silent};

/// Terms computed before the first periodicity check, at least.
const FIRST_CHECK: usize = 64;

/// How long a period search may work, by the cost model, before it stops at the largest heap it
/// can afford and reports what it has (OBSERVED, or no period) with the reason. A search with
/// the default `--max-heap` on a game whose terms grow expensive (breaking heaps, Nim's n moves
/// per heap) would otherwise run for hours.
pub const PERIOD_SECONDS: f64 = 30.0;

/// Estimated seconds above which a computation reports its progress.
pub const PROGRESS_SECONDS: f64 = 2.0;

/// n ↦ f_N(n +_ℓ plus) for a heap under ruleset `rules`.
#[derive(Clone, Debug)]
pub struct HeapSequence {
    game: ScoringGame,
    rules: RulesId,
    plus: Vec<Heap>,
    bonus: Q,
    /// [`Self::scale_and_largest`] over every heap up to the uniform tail, computed once: cost
    /// estimates ask whether the integer recurrence fits many times per sequence.
    tail_scale: std::sync::OnceLock<Option<(i128, i128)>>,
    /// [`Self::normal_play_points`], computed once: every cost estimate asks for it.
    normal_play: std::sync::OnceLock<Option<Q>>,
    /// The single-heap recurrence on machine integers, built once (`None`: it does not apply).
    recurrence: std::sync::OnceLock<Option<IntRecurrence>>,
}

/// The moves of one heap as (points, the heap left, if any).
type HeapMoves<P> = Vec<(P, Option<HeapSize>)>;

/// The single-heap recurrence f(n) = max over moves (p − f(n − i)) on machine integers: every
/// point and N multiplied by their common denominator s, so that the terms are the integers
/// s·f(n) (equal exactly when the rationals are) and s·f(n) / s is the exact value. Every step
/// is checked: an overflow ends the integer run and the caller takes the exact path.
#[derive(Clone, Debug)]
struct IntRecurrence {
    /// The common denominator s.
    scale: i64,
    /// s·N.
    bonus: i64,
    /// The moves of each heap up to the uniform tail, as (s·points, the heap left, if any);
    /// `None` for a heap that splits, where the recurrence stops.
    small: Vec<Option<HeapMoves<i64>>>,
    /// The moves of every larger heap: (beans taken, s·points).
    tail: Vec<(usize, i64)>,
}

impl IntRecurrence {
    /// Extends `a` (terms a(0), a(1), … computed before) to a(0..=max_n); `false` when a heap
    /// on the way splits or a term overflows (`a` then holds the terms up to there).
    fn extend(&self, a: &mut Vec<i64>, max_n: usize) -> bool {
        while a.len() <= max_n {
            let n = a.len();
            let mut best: Option<i64> = None;
            let mut consider = |c: Option<i64>| match c {
                Some(c) => {
                    best = Some(best.map_or(c, |b| b.max(c)));
                    true
                }
                None => false,
            };
            let ok = match self.small.get(n) {
                Some(None) => false,
                Some(Some(moves)) => moves.iter().all(|&(p, left)| {
                    // Taking the last bean ends the game: the child's value is −N.
                    let child = left.map_or(self.bonus.checked_neg(), |l| Some(a[l as usize]));
                    consider(child.and_then(|c| p.checked_sub(c)))
                }),
                None => self
                    .tail
                    .iter()
                    .all(|&(i, p)| consider(p.checked_sub(a[n - i]))),
            };
            // A heap with no move is a finished game: −N.
            let Some(term) = best.or(self.bonus.checked_neg()).filter(|_| ok) else {
                return false;
            };
            a.push(term);
        }
        true
    }
}

/// The period of a sequence with the reason it is proven, or why it is only observed.
#[derive(Clone, Debug)]
pub struct PeriodReport {
    /// The period found (proven or observed), if any.
    pub periodicity: Option<Periodicity>,
    /// Terms a(0..terms) examined.
    pub terms: usize,
    /// How the claim is backed, in words.
    pub argument: String,
    /// Where a search that found no proof stopped short of the largest heap asked for, because
    /// the memory limit or the time budget allowed no more (the argument says which); `None`
    /// when it reached that heap or proved the period first.
    pub stopped_at: Option<HeapSize>,
}

/// The least common denominator of `values` when it fits `i64` (every partial lcm divides it,
/// so checked machine arithmetic overflows exactly when it does not fit), else `None`.
fn machine_common_denominator(values: &[Q]) -> Option<i64> {
    values.iter().try_fold(1i64, |acc, q| {
        let (_, d) = q.to_i64_parts()?;
        (acc / num_integer::Integer::gcd(&acc, &d)).checked_mul(d)
    })
}

/// s·p as a machine integer, for s a multiple of p's denominator; `None` when it does not fit.
fn scaled_integer(p: &Q, scale: i64) -> Option<i64> {
    let (n, d) = p.to_i64_parts()?;
    n.checked_mul(scale / d)
}

/// The window argument's proof on a(0..) with look-back k, and, when `last` and there is no
/// proof, the period observed in the data.
fn period_and_observed<T: Eq>(
    a: &[T],
    k: usize,
    last: bool,
) -> (Option<Periodicity>, Option<Periodicity>) {
    let proof = prove_period(a, k, k + 1);
    let observed = (proof.is_none() && last)
        .then(|| observe_period(a, 3))
        .flatten();
    (proof, observed)
}

impl HeapSequence {
    /// The sequence for a heap under `rules`, plus `plus`, at bonus N.
    pub fn new(game: &ScoringGame, rules: RulesId, plus: &[Heap], bonus: Q) -> Result<Self> {
        if usize::from(rules) >= game.rulesets().len() {
            return Err(Error::invalid(format!(
                "ruleset {} does not exist (the game has {})",
                rules + 1,
                game.rulesets().len()
            )));
        }
        game.canonical(plus)?;
        Ok(HeapSequence {
            game: game.clone(),
            rules,
            plus: plus.to_vec(),
            bonus,
            tail_scale: std::sync::OnceLock::new(),
            normal_play: std::sync::OnceLock::new(),
            recurrence: std::sync::OnceLock::new(),
        })
    }

    fn heap(&self, n: HeapSize) -> Heap {
        Heap {
            size: n,
            rules: self.rules,
        }
    }

    fn tail(&self) -> Option<UniformTail> {
        self.game.rulesets()[usize::from(self.rules)].uniform_tail()
    }

    /// a(0..=max_n).
    pub fn values(&self, max_n: HeapSize, limits: &Limits) -> Result<Vec<Q>> {
        self.values_reporting(max_n, limits, &Silent)
    }

    /// [`values`](Self::values), reporting progress of long solves. The cost is estimated first
    /// ([`cost`](Self::cost)); above `limits` the request is refused at once with the estimate
    /// and the largest heap that fits.
    pub fn values_reporting(
        &self,
        max_n: HeapSize,
        limits: &Limits,
        progress: &dyn Progress,
    ) -> Result<Vec<Q>> {
        Ok(self.costed_values(max_n, limits, progress, None)?.0)
    }

    /// [`values`](Self::values) with the solution they were read from, when they came from a
    /// solve of the game itself (not from the normal-play shadow or a single-heap recurrence).
    /// That solution holds every position the terms reach, sums of several heaps among them,
    /// so those need no solve of their own.
    pub fn values_with_solution(
        &self,
        max_n: HeapSize,
        limits: &Limits,
    ) -> Result<(Vec<Q>, Option<ValueSolution>)> {
        self.costed_values(max_n, limits, &Silent, None)
    }

    /// [`values_with_solution`](Self::values_with_solution), extending `earlier` (the solution
    /// of this sequence to a smaller n) when both are ranked tables: the positions solved before
    /// keep their values and only the larger totals are solved. So a run over n = 1, 2, 3, … of
    /// a game that breaks heaps, whose cost grows exponentially in n, costs about one solve of
    /// its largest n.
    pub fn values_extending(
        &self,
        max_n: HeapSize,
        limits: &Limits,
        earlier: Option<ValueSolution>,
    ) -> Result<(Vec<Q>, Option<ValueSolution>)> {
        self.costed_values(max_n, limits, &Silent, earlier)
    }

    /// The values and their solution after the cost estimate, refused above `limits`.
    fn costed_values(
        &self,
        max_n: HeapSize,
        limits: &Limits,
        progress: &dyn Progress,
        earlier: Option<ValueSolution>,
    ) -> Result<(Vec<Q>, Option<ValueSolution>)> {
        let model = CostModel::new(self, max_n);
        let cost = model.cost(max_n);
        if cost.bytes > limits.max_bytes {
            return Err(self.too_large(&model, &cost, limits));
        }
        self.compute_values(max_n, cost.route, limits, progress, earlier)
    }

    /// The refusal [`values_reporting`](Self::values_reporting) would give for a(0..=max_n),
    /// without computing anything.
    pub fn values_within_limits(&self, max_n: HeapSize, limits: &Limits) -> Result<()> {
        let model = CostModel::new(self, max_n);
        let cost = model.cost(max_n);
        if cost.bytes > limits.max_bytes {
            return Err(self.too_large(&model, &cost, limits));
        }
        Ok(())
    }

    /// The largest `n ≤ max_n` whose a(0..=n) fits `limits`' memory, if any.
    pub fn largest_within_limits(&self, max_n: HeapSize, limits: &Limits) -> Option<HeapSize> {
        CostModel::new(self, max_n).largest_within(max_n, limits.max_bytes, f64::INFINITY)
    }

    /// a(0..=max_n) along `route`, without the up-front check.
    fn compute_values(
        &self,
        max_n: HeapSize,
        route: Route,
        limits: &Limits,
        progress: &dyn Progress,
        earlier: Option<ValueSolution>,
    ) -> Result<(Vec<Q>, Option<ValueSolution>)> {
        if route == Route::NormalPlay {
            return Ok((self.normal_play_values(max_n, progress)?, None));
        }
        if route == Route::SingleHeap
            && let Some(tail) = self.tail()
            && let Some(v) = self.single_heap_values(&tail, max_n)?
        {
            return Ok((v, None));
        }
        if route == Route::Search {
            // The ranked table announces its own exact size; a search only has the estimate.
            progress.start(CostModel::new(self, max_n).cost(max_n).positions);
        }
        let roots: Vec<Vec<Heap>> = (0..=max_n).map(|n| self.with(n, &self.plus)).collect();
        let sol =
            solve_values_extending(&self.game, &roots, &self.bonus, limits, progress, earlier)?;
        let values = roots.iter().map(|r| sol.value(r)).collect::<Result<_>>()?;
        Ok((values, Some(sol)))
    }

    /// The refusal of a request whose estimate exceeds the memory limit.
    fn too_large(&self, model: &CostModel<'_>, cost: &SequenceCost, limits: &Limits) -> Error {
        let suggestion = match model.largest_within(cost.max_n, limits.max_bytes, f64::INFINITY) {
            Some(n) => {
                format!("use a smaller heap: --max-heap {n} or less, or raise --memory-limit")
            }
            None => "raise --memory-limit".to_string(),
        };
        Error::TooLarge {
            what: format!(
                "the terms n = 0..={} of {} ({})",
                cost.max_n,
                self.describe(),
                cost.describe()
            ),
            needed_bytes: cost.bytes,
            limit_bytes: limits.max_bytes,
            suggestion,
        }
    }

    /// `G_s(n +ℓ 4@2) under {4,5} + 0.7` or `f_N(n) under 0.26 at N = 3`.
    fn describe(&self) -> String {
        let plus: String = self
            .plus
            .iter()
            .map(|h| format!(" +ℓ {}@{}", h.size, h.rules + 1))
            .collect();
        let rules = self.game.describe();
        if self.bonus == Q::zero() {
            format!("G_s(n{plus}) under {rules}")
        } else {
            format!("f_N(n{plus}) under {rules} at N = {}", self.bonus)
        }
    }

    /// The values from the normal-play shadow (see [`super::normal`]): exact whenever
    /// [`normal_play_points`](Self::normal_play_points) applies.
    fn normal_play_values(&self, max_n: HeapSize, progress: &dyn Progress) -> Result<Vec<Q>> {
        let c = self
            .normal_play_points()
            .ok_or_else(|| Error::invalid("the normal-play shadow does not apply"))?;
        let plus_grundy = self.plus_grundy()?;
        Ok(
            grundy_values_reporting(&self.game, self.rules, max_n, progress)?
                .into_iter()
                .map(|g| value_from_grundy(g ^ plus_grundy, &c, &self.bonus))
                .collect(),
        )
    }

    /// The Grundy value of the fixed heaps together.
    fn plus_grundy(&self) -> Result<u32> {
        let mut g = 0u32;
        for h in &self.plus {
            g ^= grundy_values(&self.game, h.rules, h.size)?[h.size as usize];
        }
        Ok(g)
    }

    /// The terms a(0), a(1), … without an end, computed in doubling blocks (each block solves
    /// afresh, so all the work is at most twice that of the last block). Stops after an error.
    pub fn iter<'a>(&'a self, limits: &'a Limits) -> impl Iterator<Item = Result<Q>> + 'a {
        let mut block: Vec<Q> = Vec::new();
        let mut next = 0usize;
        let mut failed = false;
        std::iter::from_fn(move || {
            if failed {
                return None;
            }
            if next >= block.len() {
                let max = HeapSize::try_from((2 * next).max(FIRST_CHECK) - 1).ok()?;
                match self.values(max, limits) {
                    Ok(v) => block = v,
                    Err(e) => {
                        failed = true;
                        return Some(Err(e));
                    }
                }
            }
            next += 1;
            Some(Ok(block[next - 1].clone()))
        })
    }

    fn with(&self, n: HeapSize, rest: &[Heap]) -> Vec<Heap> {
        let mut v = Vec::with_capacity(rest.len() + 1);
        v.push(self.heap(n));
        v.extend_from_slice(rest);
        v
    }

    /// Whether [`single_heap_values`](Self::single_heap_values) runs on machine integers up to
    /// `max_n`: every point and N share a denominator s that fits, and |f(n)| ≤ |N| + n·max |p|
    /// (at most n moves) stays within i64 after scaling by s.
    fn recurrence_fits(&self, tail: &UniformTail, max_n: HeapSize) -> bool {
        let scaled = if max_n >= tail.above {
            *self
                .tail_scale
                .get_or_init(|| self.scale_and_largest(tail, tail.above))
        } else {
            self.scale_and_largest(tail, max_n)
        };
        let Some((bonus, largest)) = scaled else {
            return false;
        };
        // |N·s| + (n + 1)·max |p·s| ≤ i64::MAX, in i128 (both factors are below 2^64).
        largest
            .checked_mul(i128::from(max_n) + 1)
            .and_then(|b| b.checked_add(bonus))
            .is_some_and(|bound| bound <= i128::from(i64::MAX))
    }

    /// With s the common denominator of N and every move's points on heaps up to `small` (and
    /// the tail's): |N·s| and the largest |p·s|, as integers; `None` when s or either value does
    /// not fit i64 (so the recurrence cannot run on machine integers) or a move cannot be listed.
    fn scale_and_largest(&self, tail: &UniformTail, small: HeapSize) -> Option<(i128, i128)> {
        let mut all: Vec<Q> = Vec::new();
        for n in 0..=small {
            let moves = self.game.heap_moves(self.heap(n)).ok()?;
            all.extend(moves.iter().map(|m| m.points.clone()));
        }
        all.extend(tail.moves.iter().map(|(_, p)| p.clone()));
        all.push(self.bonus.clone());
        let scale = machine_common_denominator(&all)?;
        let mut largest = 0i64;
        for p in &all[..all.len() - 1] {
            largest = largest.max(scaled_integer(p, scale)?.checked_abs()?);
        }
        let bonus = scaled_integer(&self.bonus, scale)?.checked_abs()?;
        Some((i128::from(bonus), i128::from(largest)))
    }

    /// The recurrence f(n) = max (p − f(n − i)) on machine integers scaled by the common
    /// denominator; `None` when a small heap splits or a value overflows (callers fall back).
    fn single_heap_values(&self, tail: &UniformTail, max_n: HeapSize) -> Result<Option<Vec<Q>>> {
        let Some(recurrence) = self.recurrence(tail)? else {
            return Ok(None);
        };
        let mut a = Vec::with_capacity(max_n as usize + 1);
        if !recurrence.extend(&mut a, max_n as usize) {
            return Ok(None);
        }
        let scale = recurrence.scale;
        Ok(Some(a.into_iter().map(|v| Q::frac(v, scale)).collect()))
    }

    /// The machine-integer recurrence of this sequence, built on first use; `None` when the
    /// common denominator or a scaled point does not fit `i64`.
    fn recurrence(&self, tail: &UniformTail) -> Result<Option<&IntRecurrence>> {
        if let Some(built) = self.recurrence.get() {
            return Ok(built.as_ref());
        }
        let built = self.build_recurrence(tail)?;
        Ok(self.recurrence.get_or_init(|| built).as_ref())
    }

    fn build_recurrence(&self, tail: &UniformTail) -> Result<Option<IntRecurrence>> {
        let mut small: Vec<Option<HeapMoves<Q>>> = Vec::new();
        for n in 0..=tail.above {
            let moves: Option<Vec<_>> = self
                .game
                .heap_moves(self.heap(n))?
                .iter()
                .map(|mv| match mv.leaves[..] {
                    [] => Some((mv.points.clone(), None)),
                    [left] => Some((mv.points.clone(), Some(left))),
                    _ => None,
                })
                .collect();
            small.push(moves);
        }
        let mut all: Vec<Q> = small
            .iter()
            .flatten()
            .flatten()
            .map(|(p, _)| p.clone())
            .collect();
        all.extend(tail.moves.iter().map(|(_, p)| p.clone()));
        all.push(self.bonus.clone());
        let Some(scale) = machine_common_denominator(&all) else {
            return Ok(None);
        };
        let scaled = |p: &Q| scaled_integer(p, scale);
        let Some(bonus) = scaled(&self.bonus) else {
            return Ok(None);
        };
        let small: Option<Vec<Option<HeapMoves<i64>>>> = small
            .into_iter()
            .map(|moves| match moves {
                None => Some(None),
                Some(moves) => moves
                    .iter()
                    .map(|(p, left)| Some((scaled(p)?, *left)))
                    .collect::<Option<Vec<_>>>()
                    .map(Some),
            })
            .collect();
        let tail_moves: Option<Vec<(usize, i64)>> = tail
            .moves
            .iter()
            .map(|(i, p)| Some((*i as usize, scaled(p)?)))
            .collect();
        let (Some(small), Some(tail)) = (small, tail_moves) else {
            return Ok(None);
        };
        Ok(Some(IntRecurrence {
            scale,
            bonus,
            small,
            tail,
        }))
    }

    /// a(0..=max_n) as the machine integers s·a(n) of [`IntRecurrence`], extending `terms`
    /// (the terms computed before); `None` when the recurrence does not apply or overflows.
    fn integer_terms<'t>(
        &self,
        tail: &UniformTail,
        terms: &'t mut Vec<i64>,
        max_n: HeapSize,
    ) -> Result<Option<&'t [i64]>> {
        let Some(recurrence) = self.recurrence(tail)? else {
            return Ok(None);
        };
        Ok(recurrence
            .extend(terms, max_n as usize)
            .then(|| &terms[..=max_n as usize]))
    }

    /// The positions reachable from the fixed heaps, in a fixed order; the plus position first.
    ///
    /// Found by search, never through the ranked table of every multiset: when the fixed heaps
    /// follow one breaking ruleset that table also holds multisets they cannot reach (under 0.7
    /// a heap of 2 never becomes 1 + 1), and [`states`](Self::states) solves only what the
    /// growing heap plus the fixed heaps reach, so every q listed here must be reachable.
    fn plus_positions(&self, limits: &Limits) -> Result<Vec<Position>> {
        let sol = search_values(
            &self.game,
            std::slice::from_ref(&self.plus),
            &self.bonus,
            limits,
        )?;
        let root = self.game.canonical(&self.plus)?;
        let rest: Vec<Position> = sol.solved().into_iter().filter(|p| *p != root).collect();
        let mut out = vec![root];
        out.extend(rest);
        Ok(out)
    }

    /// V(n) = (f(n +_ℓ q))_q for n = 0..=max_n, q over [`plus_positions`](Self::plus_positions).
    fn states(&self, qs: &[Position], max_n: HeapSize, limits: &Limits) -> Result<Vec<Vec<Q>>> {
        let roots: Vec<Vec<Heap>> = (0..=max_n).map(|n| self.with(n, &self.plus)).collect();
        let sol = solve_values(&self.game, &roots, &self.bonus, limits)?;
        (0..=max_n)
            .map(|n| {
                qs.iter()
                    .map(|q| sol.value(&self.with(n, q.heaps())))
                    .collect()
            })
            .collect()
    }

    /// Whether [`period`](Self::period) can end in a proof: the ruleset has a finite
    /// look-back, or every move in play scores the same (the normal-play reduction). Otherwise
    /// the search only observes, and searching further than the data needed costs time for
    /// nothing.
    pub fn period_provable(&self) -> bool {
        self.tail().is_some() || self.normal_play_points().is_some()
    }

    /// Least preperiod and period, proven when the ruleset has a finite look-back, computing
    /// terms in doubling blocks up to `max_n`.
    pub fn period(&self, max_n: HeapSize, limits: &Limits) -> Result<PeriodReport> {
        self.period_reporting(max_n, limits, &Silent)
    }

    /// [`period`](Self::period), reporting progress (in terms) when the cost model expects the
    /// search to take more than [`PROGRESS_SECONDS`]. The search never goes past the largest n
    /// whose estimated cost fits `limits` and [`PERIOD_SECONDS`]; when that is below `max_n`,
    /// the report says so.
    pub fn period_reporting(
        &self,
        max_n: HeapSize,
        limits: &Limits,
        progress: &dyn Progress,
    ) -> Result<PeriodReport> {
        let model = CostModel::new(self, max_n);
        let Some(reach) = model.largest_within(max_n, limits.max_bytes, PERIOD_SECONDS) else {
            return Err(self.too_large(&model, &model.cost(0), limits));
        };
        let stopped_at = (reach < max_n).then_some(reach);
        let stop = stopped_at.map(|reach| {
            let next = model.cost(reach + 1);
            if next.bytes > limits.max_bytes {
                format!(
                    "; stopped at n = {reach}: n = {} would exceed the memory limit ({})",
                    reach + 1,
                    next.describe()
                )
            } else {
                format!(
                    "; stopped at n = {reach}, the most a period search affords in about {PERIOD_SECONDS:.0} s ({} for n ≤ {})",
                    next.describe(),
                    reach + 1
                )
            }
        });
        let stop = stop.unwrap_or_default();
        let stopped_at = (reach < max_n).then_some(reach);
        let slow = model.cost(reach).seconds() > PROGRESS_SECONDS;
        let progress: &dyn Progress = if slow { progress } else { &Silent };
        if model.cost(reach).route == Route::NormalPlay {
            return self.period_by_normal_play(reach, &stop, stopped_at, progress);
        }
        let tail = self.tail();
        let order = tail.as_ref().map(|t| t.above as usize);
        let first = order.map_or(FIRST_CHECK, |k| FIRST_CHECK.max(8 * (k + 1)));
        let qs = match order {
            Some(_) if !self.plus.is_empty() => self.plus_positions(limits)?,
            _ => Vec::new(),
        };
        let Some(k) = order else {
            // No proof is possible: observe once, on every term the budget affords.
            progress.start(model.cost(reach).positions);
            let (data, _) =
                self.compute_values(reach, model.cost(reach).route, limits, progress, None)?;
            let terms = data.len();
            return Ok(PeriodReport {
                periodicity: observe_period(&data, 3),
                terms,
                argument: format!(
                    "the ruleset breaks heaps or has unbounded moves, so no finite look-back is known; observed only, on n ≤ {reach}{stop}"
                ),
                stopped_at,
            });
        };
        progress.start(u64::from(reach) + 1);
        let mut done = 0u64;
        let mut integers: Vec<i64> = Vec::new();
        let mut n = (first as HeapSize).min(reach);
        loop {
            let terms = n as usize + 1;
            let last = n >= reach;
            // The proof, and what was observed when this is the last try without one.
            let (proof, observed) = if self.plus.is_empty() {
                let tail = tail
                    .as_ref()
                    .expect("a look-back comes from a uniform tail");
                // The machine-integer terms s·a(n) when they fit (equal exactly when the
                // rationals are, so the periods are the same), else the exact values.
                match self.integer_terms(tail, &mut integers, n)? {
                    Some(v) => period_and_observed(v, k, last),
                    None => period_and_observed(&self.values(n, limits)?, k, last),
                }
            } else {
                let states = self.states(&qs, n, limits)?;
                let column: Vec<Q> = states.iter().map(|v| v[0].clone()).collect();
                let proof = prove_period(&states, k, k + 1).map(|p| {
                    let column: Vec<&Q> = column.iter().collect();
                    component_period(&column, &p)
                });
                let observed = (proof.is_none() && last)
                    .then(|| observe_period(&column, 3))
                    .flatten();
                (proof, observed)
            };
            progress.advance(terms as u64 - done);
            done = terms as u64;
            if let Some(p) = proof {
                return Ok(PeriodReport {
                    periodicity: Some(p),
                    terms,
                    argument: self.window_argument(k),
                    stopped_at: None,
                });
            }
            if last {
                return Ok(PeriodReport {
                    periodicity: observed,
                    terms,
                    argument: format!(
                        "no window of {k} terms recurs within n ≤ {n}; observed only{stop}"
                    ),
                    stopped_at,
                });
            }
            n = n.saturating_mul(2).min(reach);
        }
    }

    /// The sequence as an eventually periodic closed form, `a(Pk + i) = c_i (k ≥ k_i)` with the
    /// least period P and preperiod n₀ of `report` (a periodic-linear form whose slopes are all
    /// 0; proven exactly when the period is); `None` when `report` found no period.
    pub fn periodic_form(
        &self,
        report: &PeriodReport,
        limits: &Limits,
    ) -> Result<Option<PeriodicLinear>> {
        let Some(p) = &report.periodicity else {
            return Ok(None);
        };
        let last = p.preperiod + 2 * p.period;
        let values = self.values(last as HeapSize, limits)?;
        // Residue i is first seen at the least n ≥ n₀ with n ≡ i (mod P).
        let lines = (0..p.period)
            .map(|i| {
                let n = p.preperiod + (i + p.period - p.preperiod % p.period) % p.period;
                // The sharp start: back along the class while the value repeats.
                let mut first = n;
                while first >= p.period && values[first - p.period] == values[n] {
                    first -= p.period;
                }
                ResidueLine {
                    residue: i,
                    slope: Q::zero(),
                    intercept: values[n].clone(),
                    from_k: (first / p.period) as i64,
                }
            })
            .collect();
        Ok(Some(PeriodicLinear {
            period: p.period,
            preperiod: p.preperiod as i64,
            lines,
            confirming_periods: 0,
            first: 0,
            last: report.terms as i64 - 1,
        }))
    }

    /// When every move in play scores the same c and c + 2N > 0, f_N is a function of the
    /// normal-play Grundy value (see [`super::normal`]), whose period the octal periodicity
    /// theorem proves. Without a proof up to `max_n` the shadow's exact values are observed:
    /// the general solver would only reach a few dozen heaps of a breaking game. `stop` says in
    /// words why `max_n` is short of the heap asked for, and `stopped_at` is then `max_n`.
    fn period_by_normal_play(
        &self,
        max_n: HeapSize,
        stop: &str,
        stopped_at: Option<HeapSize>,
        progress: &dyn Progress,
    ) -> Result<PeriodReport> {
        let c = self
            .normal_play_points()
            .ok_or_else(|| Error::invalid("the normal-play shadow does not apply"))?;
        let k = self.game.rulesets()[usize::from(self.rules)]
            .as_octal()
            .expect("constant points come from octal rules")
            .max_take();
        let plus_grundy = self.plus_grundy()?;
        let reduction = format!(
            "every move scores {c}, so f_N = {c} + N where the normal-play Grundy value is non-zero and −N elsewhere (c + 2N > 0)"
        );
        // The proof on doubling prefixes g(0..=n), the values computed afresh for each (the
        // periodicity theorem only reads the prefix; the last computation dominates): most
        // periods are proven long before `max_n`, which is only the bound of the search.
        let mut n = (FIRST_CHECK.max(8 * (k + 1)) as HeapSize).min(max_n) as usize;
        loop {
            let g: Vec<u32> =
                grundy_values_reporting(&self.game, self.rules, n as HeapSize, progress)?
                    .into_iter()
                    .map(|v| v ^ plus_grundy)
                    .collect();
            let shadow: Vec<Q> = g
                .iter()
                .map(|&v| value_from_grundy(v, &c, &self.bonus))
                .collect();
            if let Some(p) = prove_octal_period(&g[..=n], k, &shadow[..=n]) {
                return Ok(PeriodReport {
                    periodicity: Some(p),
                    terms: n + 1,
                    argument: format!(
                        "{reduction}; the Grundy values are periodic by the octal periodicity theorem (checked for n₀ ≤ n < 2n₀ + p + {k})"
                    ),
                    stopped_at: None,
                });
            }
            if n >= max_n as usize {
                return Ok(PeriodReport {
                    periodicity: observe_period(&shadow, 3),
                    terms: shadow.len(),
                    argument: format!(
                        "{reduction}; the octal periodicity theorem proves no period of the Grundy values on n ≤ {max_n}; observed only{stop}"
                    ),
                    stopped_at,
                });
            }
            n = n.saturating_mul(2).min(max_n as usize);
        }
    }

    fn window_argument(&self, k: usize) -> String {
        if self.plus.is_empty() {
            format!(
                "a(n) depends only on a(n−{k}..n−1) for n > {k}, and a window of {k} terms recurs"
            )
        } else {
            format!(
                "the states (f(n + q)) over the positions q reachable from the fixed heaps depend only on the previous {k} states for n > {k}, and a window of {k} states recurs"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoring::OctalRules;
    use proptest::prelude::*;

    /// The subtraction game on `set` with `points` (one per element) at bonus N.
    fn sequence(set: &[HeapSize], points: Vec<Q>, bonus: Q) -> HeapSequence {
        let rules = OctalRules::subtraction(set, Some(points)).unwrap();
        HeapSequence::new(&ScoringGame::single(rules), 0, &[], bonus).unwrap()
    }

    /// a(0..=max_n) by the general exact solver (big rationals), never the recurrence.
    fn exact_values(seq: &HeapSequence, max_n: HeapSize) -> Vec<Q> {
        let roots: Vec<Vec<Heap>> = (0..=max_n).map(|n| seq.with(n, &[])).collect();
        let sol = solve_values(&seq.game, &roots, &seq.bonus, &Limits::default()).unwrap();
        roots.iter().map(|r| sol.value(r).unwrap()).collect()
    }

    fn rational() -> impl Strategy<Value = Q> {
        (-12i64..12, 1i64..5).prop_map(|(n, d)| Q::frac(n, d))
    }

    fn game() -> impl Strategy<Value = (Vec<HeapSize>, Vec<Q>, Q)> {
        prop::collection::btree_set(1u32..9, 1..4).prop_flat_map(|set| {
            let set: Vec<HeapSize> = set.into_iter().collect();
            let points = prop::collection::vec(rational(), set.len());
            (Just(set), points, rational())
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn the_machine_integer_recurrence_is_the_exact_solve((set, points, bonus) in game()) {
            let seq = sequence(&set, points, bonus);
            let tail = seq.tail().expect("subtraction games have a uniform tail");
            let fast = seq.single_heap_values(&tail, 60).unwrap().expect("small values fit");
            prop_assert_eq!(fast, exact_values(&seq, 60));
        }

        #[test]
        fn the_period_on_machine_integers_is_the_period_of_the_exact_values(
            (set, points, bonus) in game()
        ) {
            let seq = sequence(&set, points, bonus);
            // Constant points with c + 2N > 0 take the normal-play route, not the recurrence.
            prop_assume!(seq.normal_play_points().is_none());
            let report = seq.period(2000, &Limits::default()).unwrap();
            let k = seq.tail().unwrap().above as usize;
            let exact = exact_values(&seq, report.terms as HeapSize - 1);
            prop_assert_eq!(report.periodicity, prove_period(&exact, k, k + 1));
        }
    }

    #[test]
    fn an_overflowing_recurrence_falls_back_to_exact_values() {
        // s·N = i64::MAX: the first move's p − (−N) overflows i64.
        let seq = sequence(&[1, 2], vec![Q::int(1), Q::int(2)], Q::int(i64::MAX));
        let tail = seq.tail().unwrap();
        assert_eq!(seq.single_heap_values(&tail, 10).unwrap(), None);
        let report = seq.period(300, &Limits::default()).unwrap();
        let exact = exact_values(&seq, report.terms as HeapSize - 1);
        assert_eq!(report.periodicity, prove_period(&exact, 2, 3));
    }
}
