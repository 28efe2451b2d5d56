//! The P-positions of Nim (nim-sum 0, Bouton) with k non-empty heaps, listed without scanning
//! the box: sorted tuples a₁ ≥ … ≥ a_k ≥ 1 whose last heap is forced to be the nim-sum of the
//! others. These are the positions whose Candy Nim values `nimlab candy table` lists.

use super::{Candies, TableShape, ThreeHeapBox, nim_sum};

/// Sorted tuples a₁ ≥ … ≥ a_k ≥ 1 with a₁ = `largest` and nim-sum 0, in increasing
/// lexicographic order (one largest heap at a time, so a caller walking every largest heap
/// never holds the whole list). Empty for k < 2 (one non-empty heap has a non-zero nim-sum).
pub fn p_positions_with_largest(k: usize, largest: Candies) -> Vec<Vec<Candies>> {
    fn rec(buf: &mut Vec<Candies>, k: usize, max: Candies, out: &mut Vec<Vec<Candies>>) {
        if buf.len() == k - 1 {
            // The last heap is forced: the nim-sum of the others.
            let last = nim_sum(buf);
            if last >= 1 && last <= max {
                buf.push(last);
                out.push(buf.clone());
                buf.pop();
            }
            return;
        }
        for a in 1..=max {
            buf.push(a);
            rec(buf, k, a, out);
            buf.pop();
        }
    }
    let mut out = Vec::new();
    if k < 2 || largest == 0 {
        return out;
    }
    let mut buf = Vec::with_capacity(k);
    buf.push(largest);
    rec(&mut buf, k, largest, &mut out);
    out
}

/// Every P-position with k non-empty heaps of at most `max_heap` candies, sorted decreasingly
/// within, in increasing lexicographic order; produced one largest heap at a time.
pub fn p_positions(k: usize, max_heap: Candies) -> impl Iterator<Item = Vec<Candies>> {
    (1..=max_heap).flat_map(move |largest| p_positions_with_largest(k, largest))
}

/// The value table that covers exactly every P-position with k heaps of at most `max_heap`
/// candies: the 3-heap box for k = 3, the dense box of k heaps ≤ H otherwise.
pub fn p_position_table(k: usize, max_heap: Candies) -> TableShape {
    if k == 3 {
        TableShape::ThreeBox(max_heap)
    } else {
        TableShape::Box(vec![max_heap; k])
    }
}

/// The bytes of [`p_position_table`]`(k, H)`, computed before any list of k heaps exists (k may
/// be in the quintillions): `None` when the box has more than 2⁶⁴ points.
pub fn p_position_table_bytes(k: usize, max_heap: Candies) -> Option<u128> {
    if k == 3 {
        return Some(ThreeHeapBox::bytes(max_heap));
    }
    // (H + 1)^k points; H ≥ 1 makes this at most 64 steps before it leaves u64.
    let points = (0..k).try_fold(1u128, |acc, _| {
        acc.checked_mul(u128::from(max_heap) + 1)
            .filter(|&p| p <= u128::from(u64::MAX))
    });
    points.map(|p| p * 4 + 8 * k as u128)
}

/// The most heaps (at least 2, at most 64) whose box of heaps ≤ H fits in `max_bytes` at 4
/// bytes a point: what to suggest when a table is refused.
pub fn most_heaps_fitting(max_heap: Candies, max_bytes: u64) -> u32 {
    let mut fits = 2;
    while fits < 64
        && (u128::from(max_heap) + 1)
            .checked_pow(fits + 1)
            .and_then(|p| p.checked_mul(4))
            .is_some_and(|b| b <= u128::from(max_bytes))
    {
        fits += 1;
    }
    fits
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Normal-play Nim by minimax on sorted tuples (empty heaps allowed): a position is P iff
    /// no move reaches a P-position. Nothing about nim-sums assumed.
    fn is_p(heaps: &[Candies], memo: &mut HashMap<Vec<Candies>, bool>) -> bool {
        let mut key = heaps.to_vec();
        key.sort_unstable();
        if let Some(&p) = memo.get(&key) {
            return p;
        }
        let mut p = true;
        'moves: for i in 0..key.len() {
            for take in 1..=key[i] {
                let mut next = key.clone();
                next[i] -= take;
                if is_p(&next, memo) {
                    p = false;
                    break 'moves;
                }
            }
        }
        memo.insert(key, p);
        p
    }

    /// Every sorted tuple a₁ ≥ … ≥ a_k ≥ 1 with a₁ ≤ h, in increasing lexicographic order.
    fn sorted_tuples(k: usize, h: Candies) -> Vec<Vec<Candies>> {
        if k == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for a in 1..=h {
            for rest in sorted_tuples(k - 1, a) {
                let mut t = vec![a];
                t.extend(rest);
                out.push(t);
            }
        }
        out
    }

    #[test]
    fn p_positions_are_exactly_the_minimax_losses_in_order() {
        let mut memo = HashMap::new();
        for (k, h) in [(2, 12), (3, 12), (4, 8), (5, 6)] {
            let expected: Vec<Vec<Candies>> = sorted_tuples(k, h)
                .into_iter()
                .filter(|t| is_p(t, &mut memo))
                .collect();
            let listed: Vec<Vec<Candies>> = p_positions(k, h).collect();
            assert_eq!(listed, expected, "k = {k}, H = {h}");
        }
    }

    #[test]
    fn table_bytes_are_the_shapes_own_estimate() {
        for (k, h) in [(2, 10), (3, 10), (3, 1000), (4, 7), (6, 3)] {
            assert_eq!(
                p_position_table_bytes(k, h),
                Some(p_position_table(k, h).bytes()),
                "k = {k}, H = {h}"
            );
        }
        // 101^10 > 2^64 points: no estimate, and no list of heaps built to find out.
        assert_eq!(p_position_table_bytes(10, 100), None);
        assert_eq!(p_position_table_bytes(usize::MAX, 1), None);
    }

    #[test]
    fn the_suggested_heap_count_is_the_largest_that_fits() {
        for (h, limit) in [(100u32, 8u64 << 30), (10, 1 << 20), (1, 1 << 10), (1000, 1)] {
            let fits = most_heaps_fitting(h, limit);
            let bytes = |k: u32| 4 * (u128::from(h) + 1).pow(k);
            assert!(fits == 2 || bytes(fits) <= u128::from(limit), "H = {h}");
            assert!(fits == 64 || bytes(fits + 1) > u128::from(limit), "H = {h}");
        }
    }

    #[test]
    fn one_heap_or_none_has_no_p_position() {
        assert!(p_positions(1, 10).next().is_none());
        assert!(p_positions(0, 10).next().is_none());
        assert!(p_positions(3, 0).next().is_none());
        // Two heaps: exactly the pairs (a, a).
        let pairs: Vec<Vec<Candies>> = p_positions(2, 5).collect();
        assert_eq!(pairs, (1..=5).map(|a| vec![a, a]).collect::<Vec<_>>());
    }
}
