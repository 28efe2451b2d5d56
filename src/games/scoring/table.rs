//! Payoffs of *all* positions with k heaps of at most H beans under one non-splitting ruleset.
//!
//! A position is a sorted tuple a₁ ≥ … ≥ a_k (zeros allowed, so every sub-position is in the
//! table); it is ranked by the combinatorial number system, rank = Σ C(a_i + k − i, k − i + 1),
//! a bijection onto 0..C(H + k, k). Children are computed on the fly from the rank, so memory is
//! the payoffs alone. Layers by total beans are solved in parallel as in [`super::solver`].

use super::grid::GridSummary;
use super::position::{Heap, ScoringGame};
use super::ruleset::HeapSize;
use super::solver::{Limits, Method, Payoffs, PointIds, layers_by, solve_with};
use crate::error::{Error, Result};
use crate::num::{Pwl, Q};

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

/// Estimated bytes for a grid table: the windows (about the total beans times the heaps) and
/// per-position overhead.
fn estimate_bytes(count: u64, k: usize, max_heap: HeapSize, scale: u64) -> u64 {
    count.saturating_mul(4 * (scale * k as u64 * u64::from(max_heap) + 3) + 64)
}

/// Number of k-heap positions with heaps ≤ H, or `None` if it overflows.
pub fn table_size(k: usize, max_heap: HeapSize) -> Option<u64> {
    let b = binomials(max_heap as usize + k, k)?;
    Some(b[max_heap as usize + k][k])
}

fn rank(binom: &[Vec<u64>], sorted_desc: &[HeapSize]) -> u64 {
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
/// `progress` receives the number of positions finished after each layer.
pub fn solve_table(
    game: &ScoringGame,
    heaps: usize,
    max_heap: HeapSize,
    method: Method,
    limits: &Limits,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<HeapTable> {
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
    let count = table_size(heaps, max_heap).filter(|&c| c < u64::from(u32::MAX));
    let needed = count.map(|c| estimate_bytes(c, heaps, max_heap, 1));
    if needed.is_none_or(|b| b > limits.max_bytes) {
        let fits = (0..max_heap).rev().find(|&h| {
            table_size(heaps, h).is_some_and(|c| estimate_bytes(c, heaps, h, 1) <= limits.max_bytes)
        });
        return Err(Error::TooLarge {
            what: format!("the table of all {heaps}-heap positions with heaps ≤ {max_heap}"),
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

    // Moves of each heap size as (point id, heap left; 0 = none).
    let mut point_ids = PointIds::default();
    let mut heap_moves: Vec<Vec<(u32, HeapSize)>> = Vec::with_capacity(max_heap as usize + 1);
    for h in 0..=max_heap {
        let moves = game.heap_moves(Heap::new(h))?;
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
    let payoffs = solve_with(
        method,
        &point_ids.values,
        count,
        &layers,
        children,
        progress,
    )?;
    Ok(HeapTable {
        heaps,
        max_heap,
        binom,
        payoffs,
    })
}

/// Restores decreasing order after `t[i]` decreased.
fn resort(t: &mut [HeapSize], mut i: usize) {
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
        let mut out = Vec::new();
        for_each_tuple(self.heaps, self.max_heap, &mut |t| out.push(t.to_vec()));
        out
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
    }
}
