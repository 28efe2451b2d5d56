//! Every position of one ruleset with at most T beans, indexed without a hash map: the dense
//! table that makes taking-and-breaking games (where a heap of n reaches almost every multiset
//! of smaller heaps) feasible.
//!
//! Positions are multisets of *live* heaps (sizes with a move; dead heaps never move again and
//! are dropped), i.e. partitions of a total m into live sizes l₀ < l₁ < … . With A[m][j] the
//! number of partitions of m into the j smallest live sizes, a partition a₁ ≥ a₂ ≥ … (remaining
//! sums m₁ = m, m₂ = m − a₁, …) has rank Σ_i A[m_i][idx(a_i)] among the partitions of m ordered by
//! first part, then the rest recursively — a bijection onto 0..A[m][r]. Layers by total are
//! solved in parallel through the engine's layered driver; children are generated from the rank.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use super::position::{Heap, Position, RulesId, ScoringGame};
use super::ruleset::HeapSize;
use super::solver::{Limits, PointIds, ValueSolution, layers_by, solve_values_with};
use crate::error::{Error, Result};
use crate::num::Q;
use crate::progress::Progress;

/// The index of all positions of one ruleset with total ≤ T.
pub struct PartitionIndex {
    rules: RulesId,
    max_total: usize,
    /// Live heap sizes, increasing.
    live: Vec<HeapSize>,
    /// idx[h] = position of h in `live`, or `u32::MAX` for dead sizes.
    idx: Vec<u32>,
    /// count[m·(r + 1) + j]: partitions of m into the j smallest live sizes (j = 0..=r, r the
    /// number of live sizes), one flat table.
    count: Vec<u64>,
    /// first[m·(T + 1) + a] = count[m][idx(a)]: the partitions of m that come before those with
    /// first part a, read by size while a child is ranked (0 for dead sizes, never read).
    first: Vec<u64>,
    /// First global index of each total.
    offset: Vec<u64>,
    /// Moves of each live heap: (point id, live heaps left, sorted decreasing).
    moves: Vec<Vec<(u32, Vec<HeapSize>)>>,
    points: PointIds,
}

impl fmt::Debug for PartitionIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PartitionIndex")
            .field("rules", &self.rules)
            .field("max_total", &self.max_total)
            .field("positions", &self.len())
            .finish_non_exhaustive()
    }
}

/// Bytes per position of a fixed-N solve over the index (value, layer entry, slack).
const BYTES_PER_POSITION: u64 = 28;

impl PartitionIndex {
    /// Builds the index for heaps under ruleset `rules` with at most `max_total` beans in all.
    pub fn new(
        game: &ScoringGame,
        rules: RulesId,
        max_total: HeapSize,
        limits: &Limits,
    ) -> Result<PartitionIndex> {
        let t = max_total as usize;
        let mut live = Vec::new();
        let mut idx = vec![u32::MAX; t + 1];
        let mut raw_moves = Vec::new();
        for h in 1..=max_total {
            // Uncached: the index keeps its own compact copy of the moves.
            let m = game.heap_moves_uncached(Heap { size: h, rules })?;
            if !m.is_empty() {
                idx[h as usize] = live.len() as u32;
                live.push(h);
                raw_moves.push(m);
            }
        }
        let r = live.len();
        let mut count = vec![vec![0u64; r + 1]; t + 1];
        count[0] = vec![1; r + 1];
        for m in 1..=t {
            for j in 1..=r {
                let l = live[j - 1] as usize;
                let with = if l <= m { count[m - l][j] } else { 0 };
                count[m][j] = count[m][j - 1]
                    .checked_add(with)
                    .ok_or_else(|| too_many(max_total))?;
            }
        }
        let mut offset = Vec::with_capacity(t + 2);
        let mut acc = 0u64;
        for row in &count {
            offset.push(acc);
            acc = acc.checked_add(row[r]).ok_or_else(|| too_many(max_total))?;
        }
        offset.push(acc);
        let needed = acc.saturating_mul(BYTES_PER_POSITION);
        if acc >= u64::from(u32::MAX) || needed > limits.max_bytes {
            return Err(Error::TooLarge {
                what: format!("all {acc} positions with at most {max_total} beans"),
                needed_bytes: needed,
                limit_bytes: limits.max_bytes,
                suggestion: "use a smaller heap or raise --memory-limit".to_string(),
            });
        }
        let mut first = vec![0u64; (t + 1) * (t + 1)];
        for (m, row) in count.iter().enumerate() {
            for (&a, &c) in live.iter().zip(row) {
                first[m * (t + 1) + a as usize] = c;
            }
        }
        let count = count.concat();
        let mut points = PointIds::default();
        let moves = raw_moves
            .iter()
            .map(|ms| {
                ms.iter()
                    .map(|m| {
                        let mut left: Vec<HeapSize> = m
                            .leaves
                            .iter()
                            .copied()
                            .filter(|&l| idx[l as usize] != u32::MAX)
                            .collect();
                        left.sort_unstable_by(|a, b| b.cmp(a));
                        (points.id(&m.points), left)
                    })
                    .collect()
            })
            .collect();
        Ok(PartitionIndex {
            rules,
            max_total: t,
            live,
            idx,
            count,
            first,
            offset,
            moves,
            points,
        })
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.offset[self.max_total + 1] as usize
    }

    /// Whether there are no positions (never: the empty position is always one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Global index of a multiset of live heaps sorted decreasingly.
    fn index_of_sorted(&self, parts: &[HeapSize]) -> u64 {
        let total = parts.iter().map(|&p| p as usize).sum();
        self.child_index(parts, parts.len(), &[], total)
    }

    /// Global index of any list of heap sizes (dead heaps dropped), if within the table.
    pub fn index_of(&self, heaps: &[HeapSize]) -> Option<usize> {
        // A heap beyond the table's total is outside it, whatever its moves.
        if heaps.iter().any(|&h| h as usize > self.max_total) {
            return None;
        }
        let mut parts: Vec<HeapSize> = heaps
            .iter()
            .copied()
            .filter(|&h| h > 0 && self.idx[h as usize] != u32::MAX)
            .collect();
        if parts.iter().map(|&p| p as usize).sum::<usize>() > self.max_total {
            return None;
        }
        parts.sort_unstable_by(|a, b| b.cmp(a));
        Some(self.index_of_sorted(&parts) as usize)
    }

    /// The multiset (sorted decreasingly) and total of a global index.
    fn parts_of(&self, i: u64, out: &mut Vec<HeapSize>) -> usize {
        out.clear();
        let m = self.offset.partition_point(|&o| o <= i) - 1;
        let mut rank = i - self.offset[m];
        let mut rem = m;
        let mut j = self.live.len();
        while rem > 0 {
            // The first part is live[t] for the t with count[rem][t] ≤ rank < count[rem][t + 1].
            let row = &self.count[rem * (self.live.len() + 1)..];
            let t = row[..=j].partition_point(|&c| c <= rank) - 1;
            rank -= row[t];
            let a = self.live[t];
            out.push(a);
            rem -= a as usize;
            j = t + 1;
        }
        m
    }

    /// (point id, child index) of every move from position `i`.
    fn children(&self, i: u32, out: &mut Vec<(u32, u32)>, parts: &mut Vec<HeapSize>) {
        let total = self.parts_of(u64::from(i), parts);
        for (pos, &h) in parts.iter().enumerate() {
            if pos > 0 && parts[pos - 1] == h {
                continue;
            }
            for (pid, left) in &self.moves[self.idx[h as usize] as usize] {
                let child_total =
                    total - h as usize + left.iter().map(|&l| l as usize).sum::<usize>();
                let child = self.child_index(parts, pos, left, child_total);
                out.push((*pid, child as u32));
            }
        }
    }

    /// The global index of `parts` without `parts[skip]` (none when `skip` is past the end) and
    /// with the heaps `left` added (both sorted decreasingly), whose total is `total`: the
    /// merged multiset ranked while it is merged instead of built first. A partition
    /// a₁ ≥ a₂ ≥ … of m has rank Σ_i A\[m_i\]\[idx(a_i)\] (see the module doc).
    fn child_index(&self, parts: &[HeapSize], skip: usize, left: &[HeapSize], total: usize) -> u64 {
        let mut rank = 0u64;
        let mut rem = total;
        let stride = self.max_total + 1;
        let mut take = |a: HeapSize| {
            rank += self.first[rem * stride + a as usize];
            rem -= a as usize;
        };
        let mut l = 0;
        for (q, &p) in parts.iter().enumerate() {
            if q == skip {
                continue;
            }
            while l < left.len() && left[l] >= p {
                take(left[l]);
                l += 1;
            }
            take(p);
        }
        for &x in &left[l..] {
            take(x);
        }
        self.offset[total] + rank
    }

    /// The positions of the index, as canonical positions.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        let mut parts = Vec::new();
        (0..self.len() as u64).map(move |i| {
            self.parts_of(i, &mut parts);
            Position::from_sorted(
                parts
                    .iter()
                    .map(|&size| Heap {
                        size,
                        rules: self.rules,
                    })
                    .collect(),
            )
        })
    }

    /// Which ruleset the heaps follow.
    pub fn rules(&self) -> RulesId {
        self.rules
    }
}

/// f_N at one N of every position of ruleset `rules` with at most `max_total` beans, layer by
/// layer in parallel, reporting to `progress`.
///
/// `earlier`, a solve of the same game at the same N by this function up to a smaller total, is
/// extended rather than solved again: a position's index depends only on its own total and
/// parts (the offsets and counts of smaller totals, and the live sizes, do not depend on the
/// table's bound), so its positions keep their indices and values here and only the larger
/// totals are solved. Any other `earlier` (another ruleset or N, a search, a table as large) is
/// not used.
pub fn solve_partition_values(
    game: &ScoringGame,
    rules: RulesId,
    max_total: HeapSize,
    bonus: &Q,
    limits: &Limits,
    progress: &dyn Progress,
    earlier: Option<ValueSolution>,
) -> Result<ValueSolution> {
    let index = PartitionIndex::new(game, rules, max_total, limits)?;
    let known = earlier
        .and_then(|e| e.into_ranked(rules, bonus))
        .filter(|(e, _)| e.max_total < index.max_total && e.live.len() <= index.live.len())
        .map(|(e, values)| {
            debug_assert_eq!(e.offset[..], index.offset[..=e.max_total + 1]);
            values
        });
    progress.start(index.len() as u64);
    let totals = (0..=index.max_total).flat_map(|m| {
        let n = index.offset[m + 1] - index.offset[m];
        std::iter::repeat_n(m as u64, n as usize)
    });
    let layers = layers_by(totals);
    let children = |i: u32, out: &mut Vec<(u32, u32)>| {
        thread_local! {
            static PARTS: RefCell<Vec<HeapSize>> = const { RefCell::new(Vec::new()) };
        }
        PARTS.with(|parts| index.children(i, out, &mut parts.borrow_mut()));
    };
    let values = solve_values_with(
        &index.points.values,
        index.len(),
        &layers,
        children,
        bonus,
        progress,
        known,
    );
    Ok(ValueSolution::from_partitions(
        game.clone(),
        bonus.clone(),
        Arc::new(index),
        values,
    ))
}

fn too_many(max_total: HeapSize) -> Error {
    Error::invalid(format!(
        "the number of positions with at most {max_total} beans overflows 64 bits"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::scoring::OctalRules;

    /// A ranked solve extended from a smaller one (any smaller total, or one as large) has the
    /// values of the solve from nothing at every position, on the scaled and the exact path.
    #[test]
    fn an_extended_solve_is_the_solve_afresh() {
        let limits = Limits::default();
        for (code, bonus) in [
            ("0.25", Q::zero()),
            ("0.137", Q::frac(1, 3)),
            ("0.6", Q::int(-2)),
        ] {
            let game = ScoringGame::single(code.parse::<OctalRules>().unwrap());
            let fresh = solve_partition_values(&game, 0, 18, &bonus, &limits, &crate::Silent, None)
                .unwrap();
            let index = PartitionIndex::new(&game, 0, 18, &limits).unwrap();
            for smaller in [0, 1, 7, 17, 18] {
                let earlier = solve_partition_values(
                    &game,
                    0,
                    smaller,
                    &bonus,
                    &limits,
                    &crate::Silent,
                    None,
                )
                .unwrap();
                assert!(earlier.is_ranked(), "a ranked solve is offered as a start");
                let extended = solve_partition_values(
                    &game,
                    0,
                    18,
                    &bonus,
                    &limits,
                    &crate::Silent,
                    Some(earlier),
                )
                .unwrap();
                for p in index.positions() {
                    assert_eq!(
                        extended.value(p.heaps()).unwrap(),
                        fresh.value(p.heaps()).unwrap(),
                        "{code} from {smaller}: {p:?}"
                    );
                }
            }
        }
    }

    /// Every move's child ranked while merging is the child built, sorted and ranked.
    #[test]
    fn children_ranked_while_merged_are_the_children_built() {
        for code in ["0.137", "0.25", "0.6"] {
            let game = ScoringGame::single(code.parse::<OctalRules>().unwrap());
            let index = PartitionIndex::new(&game, 0, 14, &Limits::default()).unwrap();
            let (mut parts, mut out) = (Vec::new(), Vec::new());
            for i in 0..index.len() as u32 {
                out.clear();
                index.children(i, &mut out, &mut parts);
                let mut built = Vec::new();
                for (pos, &h) in parts.iter().enumerate() {
                    if pos > 0 && parts[pos - 1] == h {
                        continue;
                    }
                    for (pid, left) in &index.moves[index.idx[h as usize] as usize] {
                        let mut child = parts.clone();
                        child.remove(pos);
                        child.extend(left);
                        child.sort_unstable_by(|a, b| b.cmp(a));
                        built.push((*pid, index.index_of_sorted(&child) as u32));
                    }
                }
                assert_eq!(out, built, "{code}, position {parts:?}");
            }
        }
    }
}
