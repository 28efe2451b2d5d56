//! Payoffs of *all* positions with k heaps of at most H beans under one non-splitting ruleset.
//!
//! A position is a sorted tuple a₁ ≥ … ≥ a_k (zeros allowed, so every sub-position is in the
//! table); it is ranked by the combinatorial number system, rank = Σ C(a_i + k − i, k − i + 1),
//! a bijection onto 0..C(H + k, k). Children are computed on the fly from the rank, so memory is
//! the payoffs alone. Layers by total beans are solved in parallel as in [`super::solver`].

use super::grid::{GridFn, GridSummary};
use super::position::{Heap, ScoringGame};
use super::ruleset::HeapSize;
use std::sync::Arc;

use super::running_min::{PrefixMoves, SlabSink, Steps, solve_prefix_table};
use super::solver::{
    Limits, Method, PayoffRef, Payoffs, PointIds, layers_by, multisets, solve_with,
};
use crate::error::{Error, Result};
use crate::num::{Pwl, Q, last_fitting};
use crate::progress::Progress;

/// Payoffs of every k-heap position with heaps ≤ H.
#[derive(Debug, Clone)]
pub struct HeapTable {
    heaps: usize,
    max_heap: HeapSize,
    binom: Vec<Vec<u64>>,
    payoffs: Payoffs,
}

/// Binomial coefficients C(n, r) for n ≤ n_max, r ≤ r_max; `None` on overflow.
fn binomials(n_max: usize, r_max: usize) -> Option<Vec<Vec<u64>>> {
    let mut c = vec![vec![0u64; r_max + 1]; n_max + 1];
    for n in 0..=n_max {
        c[n][0] = 1;
        for r in 1..=r_max.min(n) {
            c[n][r] = c[n - 1][r - 1].checked_add(c[n - 1][r])?;
        }
    }
    Some(c)
}

/// The most heaps a table may have: its positions are ranked in 64 bits, and each one is a
/// k-tuple walked k times per move, so wider tables are never worth building.
pub const MAX_TABLE_HEAPS: usize = 64;

/// Number of k-heap positions with heaps ≤ H, C(H + k, k), or `None` if it overflows 64 bits.
/// A product formula (never a table of binomials), so it is instant for any k and H.
pub fn table_size(k: usize, max_heap: HeapSize) -> Option<u64> {
    let (h, k) = (u64::from(max_heap), k as u64);
    // C(h + k, k) = C(h + k, h): run the product over the smaller of the two.
    let c = if k <= h {
        multisets(h, k)
    } else {
        multisets(k, h)
    };
    (c != u64::MAX).then_some(c)
}

/// Estimated peak bytes of [`solve_table`] for k heaps ≤ H, `None` when it overflows.
///
/// Per position: one packed grid payoff ([`GridFn`]: its fixed part, and one bit per grid step
/// of a window of k·H + 3 points — the average over the table of the 2|p| breakpoint range of
/// Prop 5.5, the solver's model — with the allocator's overhead), and the total and layer entry
/// of the reference recursion. Besides: the carried minima of the running minimum, k per
/// position of two layers, a layer (a fixed total) holding at most C(H + k − 1, k − 1)
/// positions because its other heaps fix the largest; the moves of every heap size (8 bytes
/// each) and the binomial table of the ranking.
pub fn table_bytes(game: &ScoringGame, k: usize, max_heap: HeapSize) -> Option<u64> {
    let count = table_size(k, max_heap)?;
    let window = (k as u64)
        .checked_mul(u64::from(max_heap))?
        .checked_add(3)?;
    let payoff = packed_payoff_bytes(window);
    let per_position = payoff.checked_add(12)?;
    let layer = table_size(k.saturating_sub(1), max_heap)?;
    // Each layer position: its tuple and rank, its result slot, k carried minima.
    let per_layer_position = payoff
        .checked_mul(k as u64)?
        .checked_add(4 * k as u64 + 8 + 64)?;
    let carried = layer.checked_mul(per_layer_position)?.checked_mul(2)?;
    let moves = game
        .rulesets()
        .first()
        .and_then(|r| r.moves_up_to(max_heap))
        .unwrap_or_else(|| u64::from(max_heap) * (u64::from(max_heap) + 1) / 2);
    let binomials = (u64::from(max_heap) + k as u64 + 1).checked_mul(8 * (k as u64 + 1))?;
    count
        .checked_mul(per_position)?
        .checked_add(carried)?
        .checked_add(moves.checked_mul(8)?)?
        .checked_add((u64::from(max_heap) + 1) * 24)?
        .checked_add(binomials)
}

/// What the allocator spends on one block besides the bytes asked for (its header and rounding).
const ALLOCATION_OVERHEAD: u64 = 16;

/// Bytes of one [`GridFn`] with a window of `window` grid points, its packed steps included.
fn packed_payoff_bytes(window: u64) -> u64 {
    let steps = GridFn::heap_bytes_for(window);
    let block = if steps > 0 {
        steps + ALLOCATION_OVERHEAD
    } else {
        0
    };
    std::mem::size_of::<GridFn>() as u64 + block
}

/// The largest H′ < `max_heap` with `bytes(H′)` within `limit`, by bisection (`bytes` must grow
/// with H′; `None` counts as too large). `None` when not even H′ = 0 fits. Costs O(log H) calls,
/// so a refusal can suggest a size at once.
pub fn largest_fitting_max_heap(
    max_heap: HeapSize,
    limit: u64,
    bytes: impl Fn(HeapSize) -> Option<u64>,
) -> Option<HeapSize> {
    // Sizes below the refused `max_heap` only; every one is a u32.
    let fits = |h: i64| bytes(h as HeapSize).is_some_and(|b| b <= limit);
    last_fitting(0, i64::from(max_heap) - 1, fits).map(|h| h as HeapSize)
}

/// The index of a tuple sorted largest first: Σ C(aᵢ + k − 1 − i, k − i) (0-based i).
pub(super) fn rank(binom: &[Vec<u64>], sorted_desc: &[HeapSize]) -> u64 {
    let k = sorted_desc.len();
    sorted_desc
        .iter()
        .enumerate()
        .map(|(i, &a)| binom[a as usize + k - 1 - i][k - i])
        .sum()
}

/// Calls `f` on every sorted tuple a₁ ≥ … ≥ a_k with a₁ ≤ max, in lexicographic order of
/// (a₁, a₂, …) increasing.
fn for_each_tuple(k: usize, max: HeapSize, f: &mut dyn FnMut(&[HeapSize])) {
    fn rec(buf: &mut Vec<HeapSize>, k: usize, max: HeapSize, f: &mut dyn FnMut(&[HeapSize])) {
        if buf.len() == k {
            f(buf);
            return;
        }
        for a in 0..=max {
            buf.push(a);
            rec(buf, k, a, f);
            buf.pop();
        }
    }
    rec(&mut Vec::with_capacity(k), k, max, f);
}

/// Solves every k-heap position with heaps ≤ `max_heap` of a single non-splitting ruleset.
/// `progress` advances by the positions finished as the solve goes.
///
/// Rulesets whose moves on a heap reach every smaller allowed size with separable points (Nim
/// among them) are solved on the grid by the running minimum of the `running_min` module; every
/// other ruleset, the exact method, and any grid refusal there take the reference recursion.
pub fn solve_table(
    game: &ScoringGame,
    heaps: usize,
    max_heap: HeapSize,
    method: Method,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<HeapTable> {
    TablePlan::new(game, heaps, max_heap, method, limits)?.solve(progress)
}

/// Which recursion [`TablePlan::solve_by`] may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Recursion {
    /// The running minimum where it applies, else the reference.
    Fastest,
    /// The running minimum where it applies with the generic envelope steps instead of the
    /// kernels (the cross-check of the kernels), else the reference.
    #[cfg(test)]
    GenericSteps,
    /// Always the reference recursion of [`super::solver`] (the cross-check of the tests).
    #[cfg(test)]
    Reference,
}

/// [`solve_table`] with the choice of recursion, so tests can compare the two.
#[cfg(test)]
pub(crate) fn solve_table_by(
    game: &ScoringGame,
    heaps: usize,
    max_heap: HeapSize,
    method: Method,
    limits: &Limits,
    progress: &dyn Progress,
    recursion: Recursion,
) -> Result<HeapTable> {
    let plan = TablePlan::new(game, heaps, max_heap, method, limits)?;
    Ok(plan
        .solve_by(progress, recursion, &mut |_, _, _| true)?
        .expect("the sink never stops the solve"))
}

/// A table checked and ready to solve: [`TablePlan::new`] refuses what [`solve_table`] refuses,
/// before any work, and the plan then solves the table whole ([`TablePlan::solve`]) or hands
/// its slabs on as they are solved ([`TablePlan::stream`]).
#[derive(Debug)]
pub struct TablePlan {
    heaps: usize,
    max_heap: HeapSize,
    method: Method,
    count: usize,
    binom: Vec<Vec<u64>>,
    /// The distinct points of the moves.
    points: Vec<Q>,
    /// Moves of each heap size as (point id, heap left; 0 = none).
    heap_moves: Vec<Vec<(u32, HeapSize)>>,
}

impl TablePlan {
    /// Checks the table (one non-splitting ruleset, 1 to [`MAX_TABLE_HEAPS`] heaps, the
    /// positions indexable and [`table_bytes`] within `limits`) and lists the moves of every heap
    /// size.
    pub fn new(
        game: &ScoringGame,
        heaps: usize,
        max_heap: HeapSize,
        method: Method,
        limits: &Limits,
    ) -> Result<TablePlan> {
        if heaps == 0 {
            return Err(Error::invalid(
                "a table needs at least one heap (--heaps 0 given)",
            ));
        }
        if game.rulesets().len() != 1 || game.splits() {
            return Err(Error::invalid(format!(
                "tables over all k-heap positions need one ruleset that never splits heaps; {} does not qualify",
                game.describe()
            )));
        }
        if heaps > MAX_TABLE_HEAPS {
            return Err(Error::invalid(format!(
                "a table of {heaps} heaps is too wide: at most {MAX_TABLE_HEAPS} heaps"
            )));
        }
        let count = table_size(heaps, max_heap).filter(|&c| c < u64::from(u32::MAX));
        let needed = count.and(table_bytes(game, heaps, max_heap));
        if needed.is_none_or(|b| b > limits.max_bytes) {
            let fits = largest_fitting_max_heap(max_heap, limits.max_bytes, |h| {
                table_size(heaps, h).filter(|&c| c < u64::from(u32::MAX))?;
                table_bytes(game, heaps, h)
            });
            return Err(Error::TooLarge {
                what: format!(
                    "the table of all {} {heaps}-heap positions with heaps ≤ {max_heap}",
                    count.map_or_else(|| "over 2^32".to_string(), |c| c.to_string())
                ),
                needed_bytes: needed.unwrap_or(u64::MAX),
                limit_bytes: limits.max_bytes,
                suggestion: match fits {
                    Some(h) => {
                        format!("use --max-heap {h} or less, fewer heaps, or raise --memory-limit")
                    }
                    None => "use fewer heaps or raise --memory-limit".to_string(),
                },
            });
        }
        let count = count.expect("checked above") as usize;
        let binom = binomials(max_heap as usize + heaps, heaps).expect("checked above");

        let mut point_ids = PointIds::default();
        let mut heap_moves: Vec<Vec<(u32, HeapSize)>> = Vec::with_capacity(max_heap as usize + 1);
        for h in 0..=max_heap {
            // Uncached: this compact copy is all the table keeps (the engine's memo would hold
            // the O(H²) moves a second time, at 17 times the size).
            let moves = game.heap_moves_uncached(Heap::new(h))?;
            heap_moves.push(
                moves
                    .iter()
                    .map(|m| {
                        (
                            point_ids.id(&m.points),
                            m.leaves.first().copied().unwrap_or(0),
                        )
                    })
                    .collect(),
            );
        }
        Ok(TablePlan {
            heaps,
            max_heap,
            method,
            count,
            binom,
            points: point_ids.values,
            heap_moves,
        })
    }

    /// Solves the whole table.
    pub fn solve(self, progress: &dyn Progress) -> Result<HeapTable> {
        Ok(self
            .solve_by(progress, Recursion::Fastest, &mut |_, _, _| true)?
            .expect("the sink never stops the solve"))
    }

    /// Solves the table on another thread while `consume` reads its slabs on this one, in order
    /// (every position whose largest heap is 0, then 1, …, H), each as soon as it is solved, and
    /// returns what `consume` returns. The running minimum finishes the slabs one by one; the
    /// other recursions finish them all at once, at the end. An error of the solve ends the
    /// slabs with an `Err` item; when `consume` returns before the last slab, the solve stops.
    ///
    /// Memory is that of [`TablePlan::solve`]: the slabs share the solver's payoffs.
    pub fn stream<R>(
        self,
        progress: &dyn Progress,
        consume: impl FnOnce(&mut dyn Iterator<Item = Result<TableSlab>>) -> R,
    ) -> R {
        let (heaps, max_heap) = (self.heaps, self.max_heap);
        // Unbounded, yet nothing grows with the rows: an item is a slab's handle on payoffs the
        // solver holds anyway, and there are H + 1 of them.
        let (sender, receiver) = std::sync::mpsc::channel::<Result<TableSlab>>();
        std::thread::scope(|scope| {
            scope.spawn(move || {
                // After a refusal the running minimum starts over (at 2q, or the reference
                // takes over): the slabs already sent are exact and are not sent again.
                let mut next: HeapSize = 0;
                let mut sink = |scale: i64, first: HeapSize, fns: &Arc<Vec<GridFn>>| {
                    if first < next {
                        return true;
                    }
                    next = first + 1;
                    let source = SlabSource::Grid {
                        scale,
                        fns: Arc::clone(fns),
                    };
                    let slab = TableSlab {
                        heaps,
                        first,
                        source,
                    };
                    sender.send(Ok(slab)).is_ok()
                };
                match self.solve_by(progress, Recursion::Fastest, &mut sink) {
                    Ok(Some(table)) => {
                        let table = Arc::new(table);
                        for first in next..=max_heap {
                            let start = binom_start(&table.binom, heaps, first);
                            let source = SlabSource::Table {
                                table: Arc::clone(&table),
                                start,
                            };
                            let slab = TableSlab {
                                heaps,
                                first,
                                source,
                            };
                            if sender.send(Ok(slab)).is_err() {
                                break;
                            }
                        }
                    }
                    Ok(None) => {}
                    Err(e) => {
                        // The reader may be gone already: then nobody needs the error.
                        let _ = sender.send(Err(e));
                    }
                }
            });
            let mut slabs = receiver.iter();
            consume(&mut slabs)
            // The receiver is dropped here, before the scope joins the solver: a solver still
            // running sees its next send fail and stops.
        })
    }

    /// The solve with the choice of recursion; each slab the running minimum finishes goes to
    /// `sink` (see `SlabSink`). `Ok(None)` when the sink stopped it.
    pub(crate) fn solve_by(
        self,
        progress: &dyn Progress,
        recursion: Recursion,
        sink: SlabSink<'_>,
    ) -> Result<Option<HeapTable>> {
        let TablePlan {
            heaps,
            max_heap,
            method,
            count,
            binom,
            points,
            heap_moves,
        } = self;
        let steps = match recursion {
            Recursion::Fastest => Some(Steps::Kernel),
            #[cfg(test)]
            Recursion::GenericSteps => Some(Steps::Generic),
            #[cfg(test)]
            Recursion::Reference => None,
        };
        let prefix = (steps.is_some() && method != Method::Exact)
            .then(|| PrefixMoves::detect(&heap_moves, &points))
            .flatten();
        if let (Some(prefix), Some(steps)) = (prefix, steps) {
            let solved = solve_prefix_table(
                &prefix, &points, heaps, max_heap, &binom, progress, steps, sink,
            );
            // A grid refusal here (values beyond its range) is left to the reference recursion,
            // which refuses or falls back to the exact path exactly as it always did.
            match solved {
                Ok(Some((scale, slabs))) => {
                    // The slabs end to end are the table in rank order; each is freed once
                    // moved.
                    let mut fns = Vec::with_capacity(count);
                    for slab in slabs {
                        fns.extend(Arc::unwrap_or_clone(slab));
                    }
                    debug_assert_eq!(fns.len(), count);
                    return Ok(Some(HeapTable {
                        heaps,
                        max_heap,
                        binom,
                        payoffs: Payoffs::Grid { scale, fns },
                    }));
                }
                Ok(None) => return Ok(None),
                Err(_) => {}
            }
        }

        let mut totals = vec![0u64; count];
        for_each_tuple(heaps, max_heap, &mut |t| {
            totals[rank(&binom, t) as usize] = t.iter().map(|&a| u64::from(a)).sum();
        });
        let layers = layers_by(totals.into_iter());

        let tuple_of = |r: u32| unrank(&binom, heaps, max_heap, u64::from(r));
        let children = |r: u32, out: &mut Vec<(u32, u32)>| {
            let t = tuple_of(r);
            let mut child = t.clone();
            for i in 0..heaps {
                if i > 0 && t[i - 1] == t[i] {
                    continue;
                }
                for &(pid, left) in &heap_moves[t[i] as usize] {
                    child.copy_from_slice(&t);
                    child[i] = left;
                    resort(&mut child, i);
                    out.push((pid, rank(&binom, &child) as u32));
                }
            }
        };
        let payoffs = solve_with(method, &points, count, &layers, children, progress)?;
        Ok(Some(HeapTable {
            heaps,
            max_heap,
            binom,
            payoffs,
        }))
    }
}

/// Rank of the first position whose largest heap is `first`: C(first + k − 1, k).
fn binom_start(binom: &[Vec<u64>], k: usize, first: HeapSize) -> usize {
    binom[first as usize + k - 1][k] as usize
}

/// The positions of a table whose largest heap is one size a₁, with their payoffs: a
/// contiguous run of the table's rank order, as [`TablePlan::stream`] hands them on.
#[derive(Clone, Debug)]
pub struct TableSlab {
    heaps: usize,
    first: HeapSize,
    source: SlabSource,
}

/// Where a slab's payoffs are held.
#[derive(Clone, Debug)]
enum SlabSource {
    /// The running minimum's payoffs of this slab alone.
    Grid { scale: i64, fns: Arc<Vec<GridFn>> },
    /// A whole solved table, the slab from rank `start` on.
    Table { table: Arc<HeapTable>, start: usize },
}

impl TableSlab {
    /// The largest heap a₁ of every position of the slab.
    pub fn first_heap(&self) -> HeapSize {
        self.first
    }

    /// The slab's positions as sorted tuples (largest first), in the table's order: the i-th
    /// has the payoff [`payoff(i)`](Self::payoff).
    pub fn positions(&self) -> impl Iterator<Item = Vec<HeapSize>> + use<> {
        let mut start = vec![0; self.heaps];
        start[0] = self.first;
        // The first heap is fixed: the odometer turns the others only.
        odometer(start, 1, self.first)
    }

    /// The payoff of the slab's i-th position.
    pub fn payoff(&self, i: usize) -> PayoffRef<'_> {
        match &self.source {
            SlabSource::Grid { scale, fns } => PayoffRef::Grid {
                scale: *scale,
                f: &fns[i],
            },
            SlabSource::Table { table, start } => table.payoffs.get(start + i),
        }
    }
}

/// Sorted tuples a₁ ≥ … ≥ a_k from `start` on in lexicographic order, the entries before
/// `from` fixed, a₁ ≤ `max`.
fn odometer(
    start: Vec<HeapSize>,
    from: usize,
    max: HeapSize,
) -> impl Iterator<Item = Vec<HeapSize>> {
    let k = start.len();
    std::iter::successors(Some(start), move |t| {
        // Bump the last entry below its bound (the entry before it, or H for a₁) and zero
        // everything after it.
        let i = (from..k)
            .rev()
            .find(|&i| t[i] < if i == 0 { max } else { t[i - 1] })?;
        let mut next = t.clone();
        next[i] += 1;
        next[i + 1..].fill(0);
        Some(next)
    })
}

/// Restores decreasing order after `t[i]` decreased.
pub(super) fn resort(t: &mut [HeapSize], mut i: usize) {
    while i + 1 < t.len() && t[i] < t[i + 1] {
        t.swap(i, i + 1);
        i += 1;
    }
}

/// The sorted tuple with a given rank (inverse of [`rank`]).
fn unrank(binom: &[Vec<u64>], k: usize, max: HeapSize, mut r: u64) -> Vec<HeapSize> {
    let mut out = Vec::with_capacity(k);
    let mut upper = max as usize + k - 1;
    for i in 0..k {
        let r_choose = k - i;
        // Largest b ≤ upper with C(b, r_choose) ≤ r; b = a_i + (k − 1 − i).
        let mut b = upper;
        while binom[b][r_choose] > r {
            b -= 1;
        }
        r -= binom[b][r_choose];
        out.push((b - (k - 1 - i)) as HeapSize);
        upper = b.saturating_sub(1);
    }
    out
}

impl HeapTable {
    /// Number of heaps k.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// Largest heap size H.
    pub fn max_heap(&self) -> HeapSize {
        self.max_heap
    }

    /// How the payoffs were computed.
    pub fn method(&self) -> String {
        self.payoffs.method()
    }

    /// Every position as a sorted tuple (largest first), in lexicographic order.
    pub fn positions(&self) -> Vec<Vec<HeapSize>> {
        self.positions_iter().collect()
    }

    /// [`positions`](Self::positions) one at a time, so a caller streaming rows never holds
    /// the whole list.
    pub fn positions_iter(&self) -> impl Iterator<Item = Vec<HeapSize>> + '_ {
        odometer(vec![0; self.heaps], 0, self.max_heap)
    }

    /// The payoffs, indexed by [`index`](Self::index).
    pub fn payoffs(&self) -> &Payoffs {
        &self.payoffs
    }

    /// Where a position's payoff is stored in [`payoffs`](Self::payoffs).
    pub fn index(&self, heaps: &[HeapSize]) -> Result<usize> {
        let mut t = heaps.to_vec();
        if t.len() != self.heaps || t.iter().any(|&h| h > self.max_heap) {
            return Err(Error::invalid(format!(
                "{heaps:?} is not a {}-heap position with heaps ≤ {}",
                self.heaps, self.max_heap
            )));
        }
        t.sort_unstable_by(|a, b| b.cmp(a));
        Ok(rank(&self.binom, &t) as usize)
    }

    /// The exact payoff of a position in the table.
    pub fn payoff(&self, heaps: &[HeapSize]) -> Result<Pwl> {
        Ok(self.payoffs.pwl(self.index(heaps)?))
    }

    /// What a table row shows of a position's payoff (see [`GridFn::summary`](super::grid::GridFn::summary)).
    pub fn summary(&self, heaps: &[HeapSize]) -> Result<GridSummary> {
        Ok(self.payoffs.summary(self.index(heaps)?))
    }

    /// f_N of a position in the table.
    pub fn value(&self, heaps: &[HeapSize], n: &Q) -> Result<Q> {
        Ok(self.payoffs.value(self.index(heaps)?, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_is_a_bijection_and_unrank_inverts_it() {
        let (k, max) = (3usize, 7u32);
        let binom = binomials(max as usize + k, k).unwrap();
        let mut seen = vec![false; table_size(k, max).unwrap() as usize];
        for_each_tuple(k, max, &mut |t| {
            let r = rank(&binom, t);
            assert!(!seen[r as usize]);
            seen[r as usize] = true;
            assert_eq!(unrank(&binom, k, max, r), t);
        });
        assert!(seen.iter().all(|&s| s));
        let mut listed = Vec::new();
        for_each_tuple(k, max, &mut |t| listed.push(t.to_vec()));
        let table = HeapTable {
            heaps: k,
            max_heap: max,
            binom,
            payoffs: Payoffs::Exact(Vec::new()),
        };
        assert_eq!(table.positions(), listed);
    }

    #[test]
    fn sizes_by_product_formula_match_the_binomial_table() {
        for k in 1..=6 {
            for h in 0..=20u32 {
                let b = binomials(h as usize + k, k).unwrap();
                assert_eq!(table_size(k, h), Some(b[h as usize + k][k]), "k={k} H={h}");
            }
        }
        // Wide or tall tables overflow without allocating anything.
        assert_eq!(table_size(usize::MAX >> 1, 6), None);
        assert_eq!(table_size(3, u32::MAX), None);
        assert_eq!(table_size(usize::MAX >> 1, 0), Some(1));
    }

    #[test]
    fn the_suggestion_is_the_largest_size_that_fits() {
        let game = super::super::scoring_nim();
        let limit = 64 << 20;
        let fits = |h| table_bytes(&game, 2, h).is_some_and(|b| b <= limit);
        let h = largest_fitting_max_heap(100_000, limit, |h| table_bytes(&game, 2, h)).unwrap();
        assert!(fits(h) && !fits(h + 1));
        assert_eq!(largest_fitting_max_heap(5, 0, |_| Some(1)), None);
    }

    /// Streams a table and lists what the slabs show: each slab's largest heap, then every
    /// position with its exact payoff, in order.
    fn streamed(
        game: &ScoringGame,
        k: usize,
        h: HeapSize,
        method: Method,
    ) -> (Vec<HeapSize>, Vec<(Vec<HeapSize>, Pwl)>) {
        let plan = TablePlan::new(game, k, h, method, &Limits::default()).unwrap();
        plan.stream(&crate::progress::Silent, |slabs| {
            let (mut firsts, mut rows) = (Vec::new(), Vec::new());
            for slab in slabs {
                let slab = slab.unwrap();
                firsts.push(slab.first_heap());
                for (i, p) in slab.positions().enumerate() {
                    assert_eq!(p[0], slab.first_heap());
                    rows.push((p, slab.payoff(i).pwl()));
                }
            }
            (firsts, rows)
        })
    }

    /// The streamed slabs, end to end, are the table of the reference recursion: every slab in
    /// order, every position once, each with the reference's payoff.
    fn check_stream(game: &ScoringGame, k: usize, h: HeapSize, method: Method) {
        let reference = solve_table_by(
            game,
            k,
            h,
            method,
            &Limits::default(),
            &crate::progress::Silent,
            Recursion::Reference,
        )
        .unwrap();
        let (firsts, rows) = streamed(game, k, h, method);
        assert_eq!(firsts, (0..=h).collect::<Vec<_>>());
        let positions: Vec<Vec<HeapSize>> = rows.iter().map(|(p, _)| p.clone()).collect();
        assert_eq!(positions, reference.positions());
        for (p, f) in &rows {
            assert_eq!(f, &reference.payoff(p).unwrap(), "{p:?}");
        }
    }

    #[test]
    fn streamed_slabs_are_the_reference_table() {
        let nim = super::super::scoring_nim();
        for (k, h) in [(1, 9), (2, 8), (3, 7), (4, 4)] {
            check_stream(&nim, k, h, Method::Auto);
        }
        // The exact method and a ruleset outside the running minimum: the whole table first,
        // then its slabs.
        check_stream(&nim, 3, 5, Method::Exact);
        let subtraction = ScoringGame::single(
            super::super::octal::OctalRules::subtraction(&[1, 3], None).unwrap(),
        );
        check_stream(&subtraction, 3, 6, Method::Auto);
    }

    #[test]
    fn a_reader_that_stops_early_stops_the_solve() {
        let plan = TablePlan::new(
            &super::super::scoring_nim(),
            3,
            60,
            Method::Auto,
            &Limits::default(),
        )
        .unwrap();
        let first = plan.stream(&crate::progress::Silent, |slabs| {
            slabs
                .take(2)
                .map(|s| s.unwrap().first_heap())
                .collect::<Vec<_>>()
        });
        assert_eq!(first, [0, 1]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// Octal taking codes with random points, some refused on the grid at the base scale
        /// part way through (then solved again at twice the scale, or by the reference):
        /// every slab is streamed once, with the reference's payoffs.
        #[test]
        fn streamed_octal_tables_are_the_reference_tables(
            digits in proptest::collection::vec(0u8..=3, 1..=6),
            points in proptest::collection::vec((-6i64..=6, 1i64..=3), 6),
            k in 1usize..=3,
        ) {
            proptest::prop_assume!(digits.iter().any(|&d| d != 0));
            let n = digits.len();
            let points = points[..n].iter().map(|&(a, b)| Q::frac(a, b)).collect();
            let rules = super::super::octal::OctalRules::new(digits, Some(points)).unwrap();
            check_stream(&ScoringGame::single(rules), k, 6, Method::Auto);
        }
    }
}
