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

pub use certificate::{PeriodCertificate, PeriodProof, SequenceState};

use num_traits::ToPrimitive;

use super::normal::{common_constant_points, grundy_values, value_from_grundy};
use super::position::{Heap, Position, RulesId, ScoringGame};
use super::ruleset::{HeapSize, UniformTail};
use super::solver::{Limits, NoProgress, Progress, solve_values, solve_values_reporting};
use crate::error::{Error, Result};
use crate::miner::{
    PeriodicLinear, Periodicity, ResidueLine, component_period, observe_period, prove_octal_period,
    prove_period,
};
use crate::num::{Q, common_denominator};

/// Terms computed before the first periodicity check, at least.
const FIRST_CHECK: usize = 64;

/// n ↦ f_N(n +_ℓ plus) for a heap under ruleset `rules`.
#[derive(Clone, Debug)]
pub struct HeapSequence {
    game: ScoringGame,
    rules: RulesId,
    plus: Vec<Heap>,
    bonus: Q,
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
        self.values_reporting(max_n, limits, &NoProgress)
    }

    /// [`values`](Self::values), reporting progress of long solves.
    pub fn values_reporting(
        &self,
        max_n: HeapSize,
        limits: &Limits,
        progress: &dyn Progress,
    ) -> Result<Vec<Q>> {
        if self.plus.is_empty()
            && let Some(tail) = self.tail()
            && let Some(v) = self.single_heap_values(&tail, max_n)?
        {
            return Ok(v);
        }
        let roots: Vec<Vec<Heap>> = (0..=max_n).map(|n| self.with(n, &self.plus)).collect();
        let sol = solve_values_reporting(&self.game, &roots, &self.bonus, limits, progress)?;
        roots.iter().map(|r| sol.value(r)).collect()
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

    /// The recurrence f(n) = max (p − f(n − i)) on machine integers scaled by the common
    /// denominator; `None` when a small heap splits or a value overflows (callers fall back).
    fn single_heap_values(&self, tail: &UniformTail, max_n: HeapSize) -> Result<Option<Vec<Q>>> {
        let small = max_n.min(tail.above);
        let mut moves: Vec<Vec<(Q, Option<HeapSize>)>> = Vec::with_capacity(small as usize + 1);
        for n in 0..=small {
            let mut m = Vec::new();
            for mv in self.game.heap_moves(self.heap(n))?.iter() {
                match mv.leaves[..] {
                    [] => m.push((mv.points.clone(), None)),
                    [left] => m.push((mv.points.clone(), Some(left))),
                    _ => return Ok(None),
                }
            }
            moves.push(m);
        }
        let mut all: Vec<Q> = moves.iter().flatten().map(|(p, _)| p.clone()).collect();
        all.extend(tail.moves.iter().map(|(_, p)| p.clone()));
        all.push(self.bonus.clone());
        let Some(scale) = common_denominator(&all).to_i64() else {
            return Ok(None);
        };
        let s = Q::int(scale);
        let scaled = |p: &Q| (p * &s).to_i64();
        let Some(bonus) = scaled(&self.bonus) else {
            return Ok(None);
        };
        let tail_moves: Option<Vec<(usize, i64)>> = tail
            .moves
            .iter()
            .map(|(i, p)| Some((*i as usize, scaled(p)?)))
            .collect();
        let Some(tail_moves) = tail_moves else {
            return Ok(None);
        };
        let mut a: Vec<i64> = Vec::with_capacity(max_n as usize + 1);
        for n in 0..=max_n as usize {
            let mut best: Option<i64> = None;
            let mut consider = |c: Option<i64>| -> bool {
                match c {
                    Some(c) => {
                        best = Some(best.map_or(c, |b| b.max(c)));
                        true
                    }
                    None => false,
                }
            };
            let ok = if n <= small as usize {
                moves[n].iter().all(|(p, left)| {
                    let child = left.map_or(-bonus, |l| a[l as usize]);
                    consider(scaled(p).and_then(|p| p.checked_sub(child)))
                })
            } else {
                tail_moves
                    .iter()
                    .all(|&(i, p)| consider(p.checked_sub(a[n - i])))
            };
            if !ok {
                return Ok(None);
            }
            a.push(best.unwrap_or(-bonus));
        }
        Ok(Some(a.into_iter().map(|v| Q::frac(v, scale)).collect()))
    }

    /// The positions reachable from the fixed heaps, in a fixed order; the plus position first.
    fn plus_positions(&self, limits: &Limits) -> Result<Vec<Position>> {
        let sol = solve_values(
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

    /// Least preperiod and period, proven when the ruleset has a finite look-back, computing
    /// terms in doubling blocks up to `max_n`.
    pub fn period(&self, max_n: HeapSize, limits: &Limits) -> Result<PeriodReport> {
        if let Some(report) = self.period_by_normal_play(max_n)? {
            return Ok(report);
        }
        let tail = self.tail();
        let order = tail.as_ref().map(|t| t.above as usize);
        let first = order.map_or(FIRST_CHECK, |k| FIRST_CHECK.max(8 * (k + 1)));
        let mut n = (first as HeapSize).min(max_n);
        let qs = match order {
            Some(_) if !self.plus.is_empty() => self.plus_positions(limits)?,
            _ => Vec::new(),
        };
        let mut last: Option<Vec<Q>> = None;
        let mut refused: Option<HeapSize> = None;
        loop {
            let terms = n as usize + 1;
            if let Some(k) = order {
                let proof = if self.plus.is_empty() {
                    prove_period(&self.values(n, limits)?, k, k + 1)
                } else {
                    let states = self.states(&qs, n, limits)?;
                    prove_period(&states, k, k + 1).map(|p| {
                        let column: Vec<&Q> = states.iter().map(|v| &v[0]).collect();
                        component_period(&column, &p)
                    })
                };
                if let Some(p) = proof {
                    return Ok(PeriodReport {
                        periodicity: Some(p),
                        terms,
                        argument: self.window_argument(k),
                    });
                }
            }
            if order.is_none() {
                // No proof is possible: observe on as many terms as memory allows.
                match self.values(n, limits) {
                    Ok(v) => last = Some(v),
                    Err(Error::TooLarge { .. }) if last.is_some() => {
                        refused = Some(n);
                        n = max_n;
                    }
                    Err(e) => return Err(e),
                }
            }
            if n >= max_n {
                let data = match last.take() {
                    Some(v) => v,
                    None => self.values(n, limits)?,
                };
                let terms = data.len();
                let observed = observe_period(&data, 3);
                let n = terms - 1;
                return Ok(PeriodReport {
                    periodicity: observed,
                    terms,
                    argument: match order {
                        Some(k) => {
                            format!("no window of {k} terms recurs within n ≤ {n}; observed only")
                        }
                        None => format!(
                            "the ruleset breaks heaps or has unbounded moves, so no finite look-back is known; observed only, on n ≤ {n}{}",
                            match refused {
                                Some(r) => format!(" (n ≤ {r} would exceed the memory limit)"),
                                None => String::new(),
                            }
                        ),
                    },
                });
            }
            n = n.saturating_mul(2).min(max_n);
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
                ResidueLine {
                    residue: i,
                    slope: Q::zero(),
                    intercept: values[n].clone(),
                    from_k: (n / p.period) as i64,
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
    /// theorem proves. `None` when the reduction does not apply or proves nothing up to `max_n`.
    fn period_by_normal_play(&self, max_n: HeapSize) -> Result<Option<PeriodReport>> {
        let mut heaps = self.plus.clone();
        heaps.push(self.heap(1));
        let Some(c) = common_constant_points(&self.game, &heaps) else {
            return Ok(None);
        };
        if (&c + &(&self.bonus + &self.bonus)).signum() <= 0 {
            return Ok(None);
        }
        let k = self.game.rulesets()[usize::from(self.rules)]
            .as_octal()
            .expect("constant points come from octal rules")
            .max_take();
        let mut plus_grundy = 0u32;
        for h in &self.plus {
            plus_grundy ^= grundy_values(&self.game, h.rules, h.size)?[h.size as usize];
        }
        let mut n = (FIRST_CHECK.max(8 * (k + 1)) as HeapSize).min(max_n);
        loop {
            let g: Vec<u32> = grundy_values(&self.game, self.rules, n)?
                .into_iter()
                .map(|v| v ^ plus_grundy)
                .collect();
            let shadow: Vec<Q> = g
                .iter()
                .map(|&v| value_from_grundy(v, &c, &self.bonus))
                .collect();
            if let Some(p) = prove_octal_period(&g, k, &shadow) {
                return Ok(Some(PeriodReport {
                    periodicity: Some(p),
                    terms: n as usize + 1,
                    argument: format!(
                        "every move scores {c}, so f_N = {c} + N where the normal-play Grundy value is non-zero and −N elsewhere (c + 2N > 0); the Grundy values are periodic by the octal periodicity theorem (checked for n₀ ≤ n < 2n₀ + p + {k})"
                    ),
                }));
            }
            if n >= max_n {
                return Ok(None);
            }
            n = n.saturating_mul(2).min(max_n);
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
