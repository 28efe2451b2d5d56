//! Whole tables of "reduce a heap to any smaller allowed size" rulesets by a running minimum:
//! one step per heap instead of one candidate per move.
//!
//! The reference recursion ([`super::solver`], used by [`super::table`] for every other ruleset)
//! takes, at each position, a maximum over all O(H) moves of O(H)-long payoff windows: H⁵ work for
//! a table of three heaps ≤ H. For the rulesets below the moves that shrink one heap form a prefix,
//! and the maximum over them can be carried from the position with that heap one bean smaller.
//!
//! **Which rulesets.** There must be one set A of heap sizes such that, for every heap x ≤ H, the
//! moves on x are exactly "leave x′" for each x′ ∈ A with x′ < x (x′ = 0: take the whole heap),
//! and the points are *separable*: the move x → x′ scores α(x) − β(x′). Nim is A = ℕ, α(x) = x,
//! β(x′) = x′; the codes 0.33…3 and 0.22…2 with at least H digits and points affine in the beans
//! removed qualify as well. [`PrefixMoves::detect`] checks this on the listed moves themselves,
//! so nothing is assumed about a ruleset. A finite subtraction set such as {1, 2, 3} does *not*
//! qualify: from x it reaches only x − 3 ≤ x′ < x, a sliding window whose minimum cannot be updated
//! by one step (the value leaving the window is lost); those rulesets keep the reference recursion.
//!
//! **The identity.** Write a position as a heap x plus the other heaps `rest`. With
//! f(p) = max over moves (points − f(p′)) and separable points, the moves on that heap give
//!
//!   max over x′ ∈ A, x′ < x of (α(x) − β(x′) − f(rest ∪ x′)) = α(x) − T(x, rest),
//!   T(x, rest) = min over x′ ∈ A, x′ < x of (β(x′) + f(rest ∪ x′)),
//!
//! because α(x) does not depend on the move and leaves the maximum, while −β(x′) − f turns into
//! the minimum of β(x′) + f. So f(p) = max over the heaps x of p of (α(x) − T(x, rest)), one
//! candidate per distinct heap size (equal heaps have the same moves). Since
//! A ∩ [0, x) = (A ∩ [0, x − 1)) ∪ ({x − 1} ∩ A),
//!
//!   T(x, rest) = min(T(x − 1, rest), β(x − 1) + f(rest ∪ {x − 1}))   (second term only if x − 1 ∈ A),
//!
//! with T(0, rest) = +∞ (the empty minimum: a heap of 0 has no move). When every heap's T is +∞
//! the position has no move and f(p) = −N, the terminal value: the empty maximum is *not* −∞ here,
//! and −N enters the recursion only as the payoff f(∅) of a child, inside the minimum — exactly
//! where the reference recursion uses it.
//!
//! **Why the grid stays exact.** All of this is elementwise in N: min and max of functions of N
//! are taken pointwise. On the integer grid M = s·N ([`super::grid`]) each β(x′) + f is a
//! unit-slope function with integer knots, and min(a, b) = −max(−a, −b) is a grid combine of the
//! negated functions, so T is again a grid function with its window and tails found exactly. The
//! functions inside T(x, rest) and the candidates α(x) − T are, up to the constant α(x), the
//! reference recursion's candidates α(x) − β(x′) − f(rest ∪ x′) themselves, so they fall in one
//! parity class exactly when the reference's do: the same scale is chosen, and a refusal at scale
//! q is retried at 2q as there. The values equal the reference's payoffs (tested against it and
//! against a naive minimax), and the grid's trimmed windows make the stored functions identical.
//!
//! **The kernels.** Each step is one pass over the packed steps of its candidates
//! ([`GridFn::shifted`], [`GridFn::min_step`], [`GridFn::max_of_differences`]): the extremum's
//! step bits are chosen 64 grid points at a time from the candidates' step bits, comparing
//! values point by point only where two candidates come close (see the kernels' doc in
//! [`super::grid`]), and the result is trimmed and packed once, in a per-thread scratch buffer.
//! They compute the same functions as the generic [`GridFn::lower_envelope`] and
//! [`GridFn::combine`] (same window analysis, same trimming; the generic combine itself when a
//! value may leave the grid's range), and the tests solve whole tables both ways ([`Steps`])
//! and compare them function for function, besides the reference recursion and naive minimax.
//!
//! **Order and memory.** T(x, rest) and f(rest ∪ {x − 1}) belong to the child one bean below
//! the position x ∪ rest, so every position reads only the *layer* below it, the positions with
//! one bean fewer in total. Positions are solved layer by layer (total beans 0, 1, …, k·H), each
//! layer in parallel on every core; only the carried minima of the previous layer and of the
//! current one are kept, and a child's minima are found by its rank among the previous layer's
//! (a binary search). The payoffs are stored in *slabs*, all positions whose largest heap is a₁
//! (a contiguous range of ranks), a₁ = 0, 1, …, H. Slab a₁ is complete after layer k·a₁ (its
//! last position is (a₁, …, a₁)) and is handed on at once ([`SlabSink`]), so that a table's
//! rows, which are listed in rank order, can be written while later layers are solved. A layer
//! (k·H + 1 of them) holds hundreds to thousands of positions, enough to share between cores at
//! little cost; the slabs' own sub-layers by total, which an earlier version solved one after
//! another, held a few dozen each, and the cores spent as long waking each other as working.
//! Work per position is at most k envelope steps and one combine of at most k candidates, each
//! linear in the window: the exponent drops by one (H⁴ for three heaps).

use std::sync::Arc;

use rayon::prelude::*;

use super::grid::{GRID_LIMIT, GridError, GridFn, Scratch};
use super::ruleset::HeapSize;
use super::solver::base_scale;
use super::table::{rank, resort};
use crate::num::Q;
use crate::progress::Progress;

/// Moves on every heap ≤ H are "leave any smaller size in A", scoring α(x) − β(x′).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PrefixMoves {
    /// α(x) for every heap x that has a move (`None` for heaps with none).
    alpha: Vec<Option<Q>>,
    /// β(x′) for x′ ∈ A, `None` for x′ ∉ A.
    beta: Vec<Option<Q>>,
}

/// [`PrefixMoves`] with α and β multiplied by the grid scale.
struct ScaledMoves {
    alpha: Vec<Option<i64>>,
    beta: Vec<Option<i64>>,
}

impl PrefixMoves {
    /// Recognises the ruleset from its moves: `heap_moves[x]` lists (point id, heap left; 0 =
    /// none) for every heap x ≤ H, `points[id]` the points. `None` when some heap's moves are not
    /// exactly A ∩ [0, x) for one set A, or the points are not α(x) − β(x′).
    pub(crate) fn detect(heap_moves: &[Vec<(u32, HeapSize)>], points: &[Q]) -> Option<Self> {
        let sizes = heap_moves.len();
        // A is read off the moves: x′ ∈ A when the heap x′ + 1 may be left at x′.
        let allowed: Vec<bool> = (0..sizes)
            .map(|left| {
                heap_moves
                    .get(left + 1)
                    .is_some_and(|moves| moves.iter().any(|&(_, l)| l as usize == left))
            })
            .collect();
        let mut alpha: Vec<Option<Q>> = vec![None; sizes];
        let mut beta: Vec<Option<Q>> = vec![None; sizes];
        let first_allowed = allowed.iter().position(|&a| a);
        let mut allowed_below = 0usize;
        let mut last_seen = vec![usize::MAX; sizes];
        for (heap, moves) in heap_moves.iter().enumerate() {
            // Each x′ ∈ A below the heap exactly once, and nothing else.
            if moves.len() != allowed_below {
                return None;
            }
            for &(_, left) in moves {
                let left = left as usize;
                if left >= heap || !allowed[left] || last_seen[left] == heap {
                    return None;
                }
                last_seen[left] = heap;
            }
            if let Some(a0) = first_allowed.filter(|&a0| a0 < heap) {
                let points_of = |left: usize| -> &Q {
                    let &(id, _) = moves
                        .iter()
                        .find(|&&(_, l)| l as usize == left)
                        .expect("every allowed size below the heap was seen above");
                    &points[id as usize]
                };
                // β(a₀) = 0 fixes the free constant: α(x) is the points of x → a₀.
                let a = points_of(a0).clone();
                // β(x′) is first met on the heap x′ + 1; every later heap must agree with it.
                beta[heap - 1] = allowed[heap - 1].then(|| &a - points_of(heap - 1));
                for &(id, left) in moves {
                    let b = beta[left as usize].as_ref().expect("left is allowed");
                    if &a - b != points[id as usize] {
                        return None;
                    }
                }
                alpha[heap] = Some(a);
            }
            if heap < sizes && allowed[heap] {
                allowed_below += 1;
            }
        }
        Some(PrefixMoves { alpha, beta })
    }

    /// α and β at grid scale s; refuses like the grid does for points that are not integers or
    /// not below [`GRID_LIMIT`].
    fn scaled(&self, scale: i64) -> Result<ScaledMoves, GridError> {
        let s = Q::int(scale);
        let one = |q: &Option<Q>| -> Result<Option<i64>, GridError> {
            let Some(q) = q else { return Ok(None) };
            let v = (q * &s).to_i64().ok_or(GridError::NotInteger)?;
            if v.abs() > GRID_LIMIT {
                return Err(GridError::Range);
            }
            Ok(Some(v))
        };
        Ok(ScaledMoves {
            alpha: self.alpha.iter().map(one).collect::<Result<_, _>>()?,
            beta: self.beta.iter().map(one).collect::<Result<_, _>>()?,
        })
    }
}

/// Calls `f` on every tuple a₁ ≥ … ≥ a_k ≥ 0 with a₁ ≤ `max` and Σ aᵢ = `total`, in increasing
/// lexicographic order.
fn for_each_tuple_with_total(k: usize, max: HeapSize, total: u64, f: &mut dyn FnMut(&[HeapSize])) {
    fn rec(
        buf: &mut Vec<HeapSize>,
        slots: usize,
        bound: HeapSize,
        left: u64,
        f: &mut dyn FnMut(&[HeapSize]),
    ) {
        if slots == 0 {
            if left == 0 {
                f(buf);
            }
            return;
        }
        // The remaining slots are each ≤ this one, so this one is at least their average.
        let lowest = left.div_ceil(slots as u64);
        let highest = left.min(u64::from(bound));
        for a in lowest..=highest {
            buf.push(a as HeapSize);
            rec(buf, slots - 1, a as HeapSize, left - a, f);
            buf.pop();
        }
    }
    rec(&mut Vec::with_capacity(k), k, max, total, f);
}

/// How the envelope steps of one position are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Steps {
    /// The dedicated kernels on the packed grid ([`GridFn::min_step`],
    /// [`GridFn::max_of_differences`]): one pass over the candidates' step bits, no allocation
    /// but the results.
    Kernel,
    /// The generic [`GridFn::lower_envelope`] and [`GridFn::combine`]: the reference the tests
    /// compare the kernels with, function for function.
    #[cfg(test)]
    Generic,
}

/// Receives each slab of a table as soon as it is solved: the grid scale, the slab's largest
/// heap a₁ and its payoffs in rank order. Returns `false` to stop the solve (its reader is gone).
pub(crate) type SlabSink<'s> = &'s mut dyn FnMut(i64, HeapSize, &Arc<Vec<GridFn>>) -> bool;

/// Solves every k-heap position with heaps ≤ `max_heap` (ranked with the binomial table
/// `binom` as [`super::table`] ranks them) by the running-minimum recursion, on the grid at the
/// base scale q of `points`, then 2q after a parity refusal, as [`super::solver`] does: the
/// scale and the slabs' payoffs, in order. Every slab goes to `sink` when it is solved (after a
/// refusal at q, the slabs solved again at 2q are handed on again: the same payoffs, exactly);
/// `Ok(None)` when the sink stopped the solve.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_prefix_table(
    moves: &PrefixMoves,
    points: &[Q],
    heaps: usize,
    max_heap: HeapSize,
    binom: &[Vec<u64>],
    progress: &dyn Progress,
    steps: Steps,
    sink: SlabSink<'_>,
) -> Result<Option<(i64, Slabs)>, GridError> {
    let q = base_scale(points).ok_or(GridError::Range)?;
    // Every attempt solves every position once: C(H + k, k) of them (ranks of the table).
    let positions = binom[max_heap as usize + heaps][heaps];
    for scale in [q, 2 * q] {
        let scaled = moves.scaled(scale)?;
        progress.add_work(positions);
        let mut scaled_sink = |first: HeapSize, fns: &Arc<Vec<GridFn>>| sink(scale, first, fns);
        match sweep(
            &scaled,
            heaps,
            max_heap,
            binom,
            progress,
            steps,
            &mut scaled_sink,
        ) {
            Ok(solved) => return Ok(solved.map(|slabs| (scale, slabs))),
            Err(GridError::Parity) if scale == q => continue,
            Err(e) => return Err(e),
        }
    }
    Err(GridError::Parity)
}

/// The payoffs of a table's slabs, by largest heap, each in rank order.
pub(crate) type Slabs = Vec<Arc<Vec<GridFn>>>;

/// Rank of the first position of the slab with largest heap `first`: C(first + k − 1, k).
fn slab_start(binom: &[Vec<u64>], k: usize, first: HeapSize) -> u64 {
    binom[first as usize + k - 1][k]
}

/// A slab's payoffs while its layers are solved, then shared once it is complete.
enum Slab {
    Open(Vec<GridFn>),
    Done(Arc<Vec<GridFn>>),
}

impl Slab {
    fn fns(&self) -> &[GridFn] {
        match self {
            Slab::Open(fns) => fns,
            Slab::Done(fns) => fns,
        }
    }
}

/// The layer-by-layer recursion at one scale: the slabs' payoffs in order, `None` when `sink`
/// stopped it.
fn sweep(
    moves: &ScaledMoves,
    k: usize,
    max_heap: HeapSize,
    binom: &[Vec<u64>],
    progress: &dyn Progress,
    steps: Steps,
    sink: &mut dyn FnMut(HeapSize, &Arc<Vec<GridFn>>) -> bool,
) -> Result<Option<Slabs>, GridError> {
    let mut slabs: Vec<Slab> = Vec::with_capacity(max_heap as usize + 1);
    // The previous layer's positions by rank, and T of each, k slots per position (see
    // `Context::previous_carried`).
    let mut previous_ranks: Vec<u64> = Vec::new();
    let mut previous_carried: Vec<Option<GridFn>> = Vec::new();
    // The first slab not yet handed to `sink`.
    let mut unsent: HeapSize = 0;
    let mut position: Vec<HeapSize> = vec![0; k];
    for total in 0..=k as u64 * u64::from(max_heap) {
        if total <= u64::from(max_heap) {
            // Slab a₁ = total starts with this layer (its position (a₁, 0, …, 0)). A terminal
            // payoff holds no heap memory: the placeholders cost nothing.
            let first = total as HeapSize;
            let len = slab_start(binom, k, first + 1) - slab_start(binom, k, first);
            slabs.push(Slab::Open(vec![GridFn::terminal(); len as usize]));
        }
        // The layer in rank order: by largest heap, then the other heaps lexicographically.
        let mut tuples: Vec<HeapSize> = Vec::new();
        let mut ranks: Vec<u64> = Vec::new();
        let lowest_first = total.div_ceil(k as u64);
        for first in lowest_first..=total.min(u64::from(max_heap)) {
            let first = first as HeapSize;
            let rest_total = total - u64::from(first);
            if rest_total > (k as u64 - 1) * u64::from(first) {
                continue;
            }
            position[0] = first;
            for_each_tuple_with_total(k - 1, first, rest_total, &mut |t| {
                position[1..].copy_from_slice(t);
                tuples.extend_from_slice(&position);
                ranks.push(rank(binom, &position));
            });
        }
        debug_assert!(ranks.is_sorted());
        // Each position writes its payoff and its minima into its own slots of the layer's
        // buffers; the payoffs are moved into their slabs afterwards.
        let mut solved: Vec<Option<GridFn>> = vec![None; ranks.len()];
        let mut minima: Vec<Option<GridFn>> = vec![None; ranks.len() * k];
        let views: Vec<&[GridFn]> = slabs.iter().map(Slab::fns).collect();
        let at = Context {
            moves,
            k,
            binom,
            slabs: &views,
            previous_ranks: &previous_ranks,
            previous_carried: &previous_carried,
        };
        // The refusal of the first position in rank order: the same on every run.
        let refused = tuples
            .par_chunks(k)
            .zip(solved.par_iter_mut())
            .zip(minima.par_chunks_mut(k))
            .enumerate()
            .with_min_len(8)
            .map_init(
                || (vec![0 as HeapSize; k], Scratch::default()),
                |(child, scratch), (j, ((position, payoff), minima))| {
                    solve_position(&at, position, child, scratch, minima, steps)
                        .map(|f| *payoff = Some(f))
                        .err()
                        .map(|e| (j, e))
                },
            )
            .flatten()
            .min_by_key(|&(j, _)| j);
        drop(views);
        if let Some((_, e)) = refused {
            return Err(e);
        }
        for ((position, &r), payoff) in tuples.chunks(k).zip(&ranks).zip(solved) {
            let first = position[0];
            let offset = (r - slab_start(binom, k, first)) as usize;
            let Slab::Open(fns) = &mut slabs[first as usize] else {
                unreachable!("a slab is complete only after its last layer");
            };
            fns[offset] = payoff.expect("solved or refused");
        }
        progress.advance(ranks.len() as u64);
        previous_ranks = ranks;
        previous_carried = minima;
        // Slab a₁ is complete after layer k·a₁, its position (a₁, …, a₁).
        while unsent <= max_heap && k as u64 * u64::from(unsent) <= total {
            let slab = &mut slabs[unsent as usize];
            let Slab::Open(fns) = std::mem::replace(slab, Slab::Open(Vec::new())) else {
                unreachable!("slabs are handed on once, in order");
            };
            let fns = Arc::new(fns);
            if !sink(unsent, &fns) {
                return Ok(None);
            }
            *slab = Slab::Done(fns);
            unsent += 1;
        }
    }
    Ok(Some(
        slabs
            .into_iter()
            .map(|slab| match slab {
                Slab::Done(fns) => fns,
                Slab::Open(_) => unreachable!("every slab is complete after the last layer"),
            })
            .collect(),
    ))
}

/// What every position of a layer reads: the moves, the payoffs of the slabs (all its children
/// are in the previous layer, solved) and the carried minima of the previous layer.
struct Context<'a> {
    moves: &'a ScaledMoves,
    k: usize,
    binom: &'a [Vec<u64>],
    /// The slabs' payoffs, by largest heap.
    slabs: &'a [&'a [GridFn]],
    /// The previous layer's positions by rank, increasing.
    previous_ranks: &'a [u64],
    /// T of the previous layer's positions, k slots each in the order of `previous_ranks`.
    previous_carried: &'a [Option<GridFn>],
}

impl Context<'_> {
    /// Where a sorted child (one bean fewer, so in the previous layer) lies: its slab's payoffs
    /// and its offset there, and its slots among the previous layer's minima.
    fn locate(&self, child: &[HeapSize], child_rank: u64) -> (&[GridFn], usize, &[Option<GridFn>]) {
        let offset = (child_rank - slab_start(self.binom, self.k, child[0])) as usize;
        let index = self
            .previous_ranks
            .binary_search(&child_rank)
            .expect("a child has one bean fewer: it is in the previous layer");
        (
            self.slabs[child[0] as usize],
            offset,
            &self.previous_carried[index * self.k..(index + 1) * self.k],
        )
    }
}

/// The payoff of one position, from its children's payoffs and carried minima; the carried
/// minimum T of each of its heaps goes to `minima` (slot i for the heap at position i, only the
/// first slot of each size, all `None` on entry). `child` and `scratch` are the thread's
/// buffers.
fn solve_position(
    at: &Context<'_>,
    position: &[HeapSize],
    child: &mut [HeapSize],
    scratch: &mut Scratch,
    minima: &mut [Option<GridFn>],
    steps: Steps,
) -> Result<GridFn, GridError> {
    for (slot, &size) in position.iter().enumerate() {
        if size == 0 || (slot > 0 && position[slot - 1] == size) {
            continue;
        }
        let smaller = size - 1;
        child.copy_from_slice(position);
        child[slot] = smaller;
        resort(child, slot);
        let child_rank = rank(at.binom, child);
        let (payoffs, offset, carried) = at.locate(child, child_rank);
        // T(x − 1, rest), carried at the child's first slot of size x − 1: empty for x − 1 = 0,
        // which has no move.
        let earlier = (smaller > 0)
            .then(|| {
                let slot = child.iter().position(|&h| h == smaller)?;
                carried[slot].as_ref()
            })
            .flatten();
        let fresh = at.moves.beta[smaller as usize].map(|b| (b, &payoffs[offset]));
        minima[slot] = match (earlier, fresh) {
            (None, None) => None,
            // Nothing new enters the minimum: it is carried unchanged.
            (Some(t), None) => Some(t.clone()),
            (None, Some((b, f))) => Some(match steps {
                Steps::Kernel => f.shifted(b)?,
                #[cfg(test)]
                Steps::Generic => GridFn::lower_envelope(&[(b, f)])?,
            }),
            (Some(t), Some((b, f))) => Some(match steps {
                Steps::Kernel => GridFn::min_step(t, b, f, scratch)?,
                #[cfg(test)]
                Steps::Generic => GridFn::lower_envelope(&[(0, t), (b, f)])?,
            }),
        };
    }
    let candidates: Vec<(i64, &GridFn)> = position
        .iter()
        .zip(minima.iter())
        .filter_map(|(&size, t)| {
            let t = t.as_ref()?;
            let a = at.moves.alpha[size as usize].expect("a heap with moves has α");
            Some((a, t))
        })
        .collect();
    if candidates.is_empty() {
        return Ok(GridFn::terminal());
    }
    match steps {
        Steps::Kernel => GridFn::max_of_differences(&candidates, scratch),
        #[cfg(test)]
        Steps::Generic => GridFn::combine(&candidates),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::*;
    use crate::games::scoring::octal::OctalRules;
    use crate::games::scoring::position::{Heap, ScoringGame};
    use crate::games::scoring::ruleset::{HeapMove, Ruleset};
    use crate::games::scoring::solver::{Limits, Method, Payoffs, PointIds};
    use crate::games::scoring::table::{HeapTable, Recursion, solve_table_by};
    use crate::games::scoring::{Nim, scoring_nim};
    use crate::progress::Silent;

    /// "Leave any smaller size in `allowed`", scoring α(x) − β(x′): the general shape the
    /// running minimum accepts, with A, α and β drawn at random.
    #[derive(Debug)]
    struct Separable {
        allowed: Vec<bool>,
        alpha: Vec<Q>,
        beta: Vec<Q>,
    }

    impl Ruleset for Separable {
        fn name(&self) -> String {
            "separable".to_string()
        }
        fn heap_moves(&self, heap: HeapSize) -> Vec<HeapMove> {
            (0..heap as usize)
                .filter(|&left| self.allowed[left])
                .map(|left| HeapMove {
                    points: &self.alpha[heap as usize] - &self.beta[left],
                    leaves: if left == 0 {
                        vec![]
                    } else {
                        vec![left as HeapSize]
                    },
                })
                .collect()
        }
        fn splits(&self) -> bool {
            false
        }
    }

    /// The work announced and the work done, as a progress bar counts them.
    #[derive(Default)]
    struct Counted(std::sync::Mutex<(u64, u64)>);

    impl crate::progress::Progress for Counted {
        fn add_work(&self, n: u64) {
            self.0.lock().unwrap().0 += n;
        }
        fn advance(&self, n: u64) {
            self.0.lock().unwrap().1 += n;
        }
    }

    #[test]
    fn a_table_announces_the_positions_it_then_solves() {
        let counted = Counted::default();
        let limits = Limits::default();
        solve_table_by(
            &scoring_nim(),
            3,
            12,
            Method::Auto,
            &limits,
            &counted,
            Recursion::Fastest,
        )
        .unwrap();
        let (announced, done) = *counted.0.lock().unwrap();
        // C(12 + 3, 3) positions, every one announced before it is counted as done.
        assert_eq!((announced, done), (455, 455));
    }

    fn table(game: &ScoringGame, k: usize, h: HeapSize, recursion: Recursion) -> HeapTable {
        let limits = Limits::default();
        solve_table_by(game, k, h, Method::Auto, &limits, &Silent, recursion).unwrap()
    }

    /// Naive minimax at one N straight from the ruleset's moves (independent of both recursions).
    fn naive(game: &ScoringGame, p: &[HeapSize], n: &Q, memo: &mut HashMap<Vec<HeapSize>, Q>) -> Q {
        let mut key = p.to_vec();
        key.sort_unstable();
        if let Some(v) = memo.get(&key) {
            return v.clone();
        }
        let rules = &game.rulesets()[0];
        let mut best: Option<Q> = None;
        for i in 0..key.len() {
            for m in rules.heap_moves(key[i]) {
                let mut child = key.clone();
                child[i] = m.leaves.first().copied().unwrap_or(0);
                let v = &m.points - &naive(game, &child, n, memo);
                if best.as_ref().is_none_or(|b| &v > b) {
                    best = Some(v);
                }
            }
        }
        let value = best.unwrap_or_else(|| -n);
        memo.insert(key, value.clone());
        value
    }

    /// The running minimum agrees with the reference on every payoff (as exact functions: the
    /// window of a line is not canonical) and on the method, and with naive minimax at a few N.
    fn check_against_references(game: &ScoringGame, k: usize, h: HeapSize) {
        let fast = table(game, k, h, Recursion::Fastest);
        let reference = table(game, k, h, Recursion::Reference);
        assert_eq!(fast.method(), reference.method());
        // The kernels give the generic envelope steps' functions themselves, windows included.
        let generic = table(game, k, h, Recursion::GenericSteps);
        match (fast.payoffs(), generic.payoffs()) {
            (Payoffs::Grid { scale, fns }, Payoffs::Grid { scale: s, fns: f }) => {
                assert_eq!((scale, fns), (s, f));
            }
            (Payoffs::Exact(a), Payoffs::Exact(b)) => assert_eq!(a, b),
            _ => panic!("the kernels and the generic steps took different methods"),
        }
        let scale = match fast.payoffs() {
            Payoffs::Grid { scale, .. } => *scale,
            Payoffs::Exact(_) => 0,
        };
        let bonuses = [
            Q::int(-7),
            Q::frac(-3, 2),
            Q::zero(),
            Q::frac(1, 3),
            Q::int(4),
        ];
        let mut memos: Vec<HashMap<Vec<HeapSize>, Q>> =
            bonuses.iter().map(|_| HashMap::new()).collect();
        for p in fast.positions() {
            let f = fast.payoff(&p).unwrap();
            assert_eq!(f, reference.payoff(&p).unwrap(), "{p:?} at scale {scale}");
            assert_eq!(
                fast.summary(&p).unwrap(),
                reference.summary(&p).unwrap(),
                "{p:?}"
            );
            for (n, memo) in bonuses.iter().zip(&mut memos) {
                assert_eq!(
                    fast.value(&p, n).unwrap(),
                    naive(game, &p, n, memo),
                    "{p:?} at N = {n}"
                );
            }
        }
    }

    fn detected(game: &ScoringGame, h: HeapSize) -> bool {
        let mut ids = PointIds::default();
        let moves: Vec<Vec<(u32, HeapSize)>> = (0..=h)
            .map(|x| {
                game.heap_moves_uncached(Heap::new(x))
                    .unwrap()
                    .iter()
                    .map(|m| (ids.id(&m.points), m.leaves.first().copied().unwrap_or(0)))
                    .collect()
            })
            .collect();
        PrefixMoves::detect(&moves, &ids.values).is_some()
    }

    fn octal(code: &str) -> ScoringGame {
        ScoringGame::single(code.parse::<OctalRules>().unwrap())
    }

    #[test]
    fn scoring_nim_tables_match_the_reference_and_naive_minimax() {
        let nim = scoring_nim();
        for (k, h) in [(1, 12), (2, 9), (3, 7), (4, 5)] {
            check_against_references(&nim, k, h);
        }
    }

    #[test]
    fn only_prefix_moves_with_separable_points_take_the_running_minimum() {
        assert!(detected(&scoring_nim(), 40));
        // Long enough codes reach every smaller size: 0.33…3 (Nim), 0.22…2 (never take all).
        assert!(detected(&octal("0.33333333"), 8));
        assert!(detected(&octal("0.2222222"), 8));
        // Constant points are separable (α = 2, β = 0); p_i = i² is not.
        assert!(detected(&octal("(33333333, 2,2,2,2,2,2,2,2)"), 8));
        assert!(!detected(&octal("(333, 1,4,9)"), 3));
        // Finite subtraction sets slide a window over smaller sizes: not a prefix.
        assert!(!detected(
            &ScoringGame::single(OctalRules::subtraction(&[1, 2, 3], None).unwrap()),
            6
        ));
        assert!(!detected(&octal("0.333"), 4));
        assert!(detected(&octal("0.333"), 3));
        // Taking the whole heap only when it is small: not one set A for every heap.
        assert!(!detected(&octal("0.2223"), 4));
        assert!(detected(&ScoringGame::single(Nim), 0));
    }

    #[test]
    fn rulesets_outside_the_shape_and_the_exact_method_keep_the_reference() {
        let limits = Limits::default();
        let nim = scoring_nim();
        let exact = solve_table_by(
            &nim,
            3,
            4,
            Method::Exact,
            &limits,
            &Silent,
            Recursion::Fastest,
        )
        .unwrap();
        assert_eq!(exact.method(), "exact rational PWL");
        check_against_references(
            &ScoringGame::single(OctalRules::subtraction(&[1, 3], None).unwrap()),
            3,
            6,
        );
    }

    fn point() -> impl Strategy<Value = Q> {
        (-6i64..=6, prop_oneof![Just(1i64), Just(2), Just(3)]).prop_map(|(n, d)| Q::frac(n, d))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// Random A, α and β: every payoff agrees with the reference and with naive minimax.
        #[test]
        fn random_separable_rulesets_match_the_references(
            allowed in proptest::collection::vec(any::<bool>(), 7),
            alpha in proptest::collection::vec(point(), 7),
            beta in proptest::collection::vec(point(), 7),
            k in 1usize..=3,
        ) {
            let rules = Separable { allowed, alpha, beta };
            let game = ScoringGame::new(vec![Arc::new(rules)]);
            prop_assert!(detected(&game, 6));
            check_against_references(&game, k, 6);
        }

        /// Random octal taking codes with random points: the running minimum where it applies,
        /// the reference elsewhere, both equal to naive minimax.
        #[test]
        fn random_octal_taking_codes_match_the_references(
            digits in proptest::collection::vec(0u8..=3, 1..=7),
            points in proptest::collection::vec(point(), 7),
            k in 1usize..=3,
        ) {
            prop_assume!(digits.iter().any(|&d| d != 0));
            let n = digits.len();
            let rules = OctalRules::new(digits, Some(points[..n].to_vec())).unwrap();
            check_against_references(&ScoringGame::single(rules), k, 6);
        }
    }
}
