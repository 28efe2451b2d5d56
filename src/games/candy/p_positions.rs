//! The P-positions of Nim (nim-sum 0, Bouton) with k non-empty heaps, listed without scanning
//! the box: sorted tuples a₁ ≥ … ≥ a_k ≥ 1 whose last heap is forced to be the nim-sum of the
//! others. These are the positions whose Candy Nim values `nimlab candy table` lists.

use super::{Candies, nim_sum};

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
    fn one_heap_or_none_has_no_p_position() {
        assert!(p_positions(1, 10).next().is_none());
        assert!(p_positions(0, 10).next().is_none());
        assert!(p_positions(3, 0).next().is_none());
        // Two heaps: exactly the pairs (a, a).
        let pairs: Vec<Vec<Candies>> = p_positions(2, 5).collect();
        assert_eq!(pairs, (1..=5).map(|a| vec![a, a]).collect::<Vec<_>>());
    }
}
