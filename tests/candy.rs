//! Candy Nim against the plain minimax, the paper's printed values and Scoring Nim's c⁺.

use nimlab::Silent;
use nimlab::candy::{
    Allocation, CandyTable, CandyValue, MemoValues, PValues, Role, ThreeHeapBox, ThreeHeapTable,
    allocation, allocations, nim_sum, optimal_line, p_partitions, plain_value, role, total,
    value_with, winning_moves,
};
use nimlab::scoring::{Limits, Method, nim_heaps, scoring_nim, solve, tails};
use proptest::prelude::*;

const MEM: u64 = 1 << 30;

fn table_value(heaps: &[u32]) -> CandyValue {
    let t = CandyTable::solve(heaps, MEM).unwrap();
    value_with(&t, heaps).unwrap()
}

/// A random P-position: random heaps plus one heap fixing the nim-sum to 0.
fn p_position(max_heaps: usize, max_heap: u32) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(0..=max_heap, 1..max_heaps).prop_map(|mut h| {
        h.push(nim_sum(&h));
        h
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The dense table equals the plain minimax on P-positions with up to 7 heaps.
    #[test]
    fn table_matches_plain_minimax_on_p_positions(h in p_position(7, 6)) {
        prop_assert_eq!(role(&h), Role::Luca);
        prop_assert_eq!(table_value(&h), plain_value(&h));
    }

    /// …and on N-positions (Windsor to move), where V may be negative.
    #[test]
    fn table_matches_plain_minimax_on_n_positions(h in proptest::collection::vec(0u32..=6, 1..=7)) {
        prop_assume!(nim_sum(&h) != 0);
        prop_assert_eq!(table_value(&h), plain_value(&h));
    }

    /// The 3-heap table equals the plain minimax, and the optimal line achieves V.
    #[test]
    fn three_heap_table_and_lines(a in 1u32..=20, b in 1u32..=20) {
        let h = [a, b, a ^ b];
        let t = ThreeHeapTable::solve(20, 31, MEM).unwrap();
        let v = value_with(&t, &h).unwrap();
        prop_assert_eq!(v, plain_value(&h));
        // The table reads its heaps in any order and past empty ones; four or more non-empty
        // heaps, or a pair of different heaps, are not in it.
        prop_assert_eq!(t.p_value(&[0, a ^ b, 0, b, a]), Some(v.v));
        prop_assert_eq!(t.p_value(&[0, b, 0, b]), Some(0));
        prop_assert_eq!(t.p_value(&[a, b, a ^ b, 1, 1]), None);
        prop_assert_eq!(t.p_value(&[a, a + 1]), None);
        let line = optimal_line(&t, &h).unwrap();
        let luca: u64 = line.iter().filter(|p| p.player == Role::Luca).map(|p| u64::from(p.taken)).sum();
        prop_assert_eq!(luca, v.n_l);
        prop_assert!(line.last().is_none_or(|p| p.after.iter().all(|&x| x == 0)));
    }

    /// The exact 3-heap box (parallel layers, one move-with-reply per block entry) equals the
    /// plain minimax, and its optimal lines achieve V.
    #[test]
    fn three_heap_box_matches_plain_minimax(a in 1u32..=24, b in 1u32..=24) {
        let h = [a, b, a ^ b];
        let t = ThreeHeapBox::solve(a.max(b).max(a ^ b), MEM).unwrap();
        let v = value_with(&t, &h).unwrap();
        prop_assert_eq!(v, plain_value(&h));
        let line = optimal_line(&t, &h).unwrap();
        let luca: u64 = line.iter().filter(|p| p.player == Role::Luca).map(|p| u64::from(p.taken)).sum();
        prop_assert_eq!(luca, v.n_l);
    }

    /// The memo of packed codes equals the plain minimax, on positions that pack (≤ 112 candies)
    /// and on ones kept by their heaps (three heaps up to 60 hold up to 180 candies).
    #[test]
    fn memo_matches_plain_minimax(h in p_position(6, 9), wide in p_position(3, 60)) {
        let mut memo = MemoValues::new();
        for g in [h, wide] {
            prop_assert_eq!(memo.p_value(&g), plain_value(&g).v, "{:?}", g);
        }
    }

    /// The memo's lookups sort the heaps on the stack: asked again in another order, with the
    /// empty heaps moved, a position gets the plain minimax's value from the memo too.
    #[test]
    fn memo_answers_a_position_in_any_order(h in p_position(6, 9)) {
        let mut memo = MemoValues::new();
        let v = plain_value(&h).v;
        prop_assert_eq!(memo.p_value(&h), v, "{:?}", h);
        let mut again = h.clone();
        again.reverse();
        again.push(0);
        prop_assert_eq!(memo.p_value(&again), v, "{:?}", again);
    }

    /// The layered allocation answers any set of N as the full run does.
    #[test]
    fn allocations_of_some_n_are_rows_of_all(picked in proptest::collection::btree_set(1u32..=18, 1..5)) {
        let all = allocations(&(1..=18).map(|n| 2 * n).collect::<Vec<_>>(), &Silent).unwrap();
        let evens: Vec<u32> = picked.iter().map(|n| 2 * n).collect();
        let some = allocations(&evens, &Silent).unwrap();
        let expected: Vec<&Allocation> = picked.iter().map(|&n| &all[n as usize - 1]).collect();
        prop_assert_eq!(some.iter().collect::<Vec<_>>(), expected);
    }

    /// V(G) = c⁺(G) of Scoring Nim for P-positions (SPEC §3).
    #[test]
    fn value_is_scoring_nims_c_plus(h in p_position(4, 7)) {
        let game = scoring_nim();
        let heaps = nim_heaps(&h);
        let sol = solve(&game, &heaps, Method::Auto, &Limits::default()).unwrap();
        let c_plus = tails(&sol.payoff(&heaps).unwrap()).c_plus;
        prop_assert_eq!(c_plus, nimlab::Q::int(table_value(&h).v));
    }
}

#[test]
fn printed_values() {
    // [1,2,3]: V = 2, N_L = 4 (proof of Prop. 4.1).
    assert_eq!(
        table_value(&[1, 2, 3]),
        CandyValue {
            v: 2,
            n_l: 4,
            n_w: 2
        }
    );
    // [1,5,16,20]: V = 28 with the optimal first move in the heap of 5.
    let h = [1, 5, 16, 20];
    let t = CandyTable::solve(&h, MEM).unwrap();
    assert_eq!(value_with(&t, &h).unwrap().v, 28);
    assert_eq!(optimal_line(&t, &h).unwrap()[0].heap, 1);
    // Remark 7.3: V([31,42,53]) = 96, V([1,2,4,8,16,42,53]) = 94.
    let t3 = ThreeHeapTable::solve(31, 42, MEM).unwrap();
    assert_eq!(t3.p_value(&[31, 42, 53]), Some(96));
    assert_eq!(table_value(&[1, 2, 4, 8, 16, 42, 53]).v, 94);
}

#[test]
fn three_heap_replies_are_unique_lemma_3_2() {
    for x in 1u32..=12 {
        for y in x..=12 {
            let h = [x, y, x ^ y];
            for i in 0..3 {
                for left in 0..h[i] {
                    let mut g = h;
                    g[i] = left;
                    assert_eq!(winning_moves(&g).len(), 1, "{h:?} → {g:?}");
                }
            }
        }
    }
    // Not so with four heaps: after Luca empties the 7 of [4,5,6,7], Windsor has three replies.
    assert_eq!(winning_moves(&[4, 5, 6, 0]).len(), 3);
}

#[test]
fn totals_and_values_have_the_same_parity() {
    for h in [[3u32, 5, 6], [7, 9, 14], [2, 2, 0]] {
        let v = table_value(&h);
        assert_eq!(v.n_l + v.n_w, total(&h));
        assert!(v.v >= 0, "Lemma 2.12");
    }
}

/// Positions of more heaps than the memo sorts on the stack (16) take the allocating path and
/// agree with the plain minimax.
#[test]
fn memo_matches_plain_minimax_on_many_heaps() {
    let mut memo = MemoValues::new();
    for g in [
        vec![1u32; 18],
        [vec![2, 2], vec![1; 14], vec![0; 3]].concat(),
        [vec![3], vec![1; 16], vec![2, 1]].concat(),
    ] {
        assert_eq!(memo.p_value(&g), plain_value(&g).v, "{g:?}");
    }
}

/// The layered, packed allocation equals the recursive one on a shared memo (the path `candy
/// allocate` took before) up to N = 40, and, up to N = 16, the plain minimax of every partition.
#[test]
fn allocations_match_the_recursion_and_plain_minimax() {
    let evens: Vec<u32> = (2..=40).step_by(2).collect();
    let layered = allocations(&evens, &Silent).unwrap();
    let mut memo = MemoValues::new();
    for (row, &n) in layered.iter().zip(&evens) {
        assert_eq!(row, &allocation(n, &mut memo).unwrap(), "N = {n}");
    }
    for (row, &n) in layered.iter().zip(&evens).take(8) {
        let nw: Vec<(u64, Vec<u32>)> = p_partitions(n)
            .into_iter()
            .map(|p| (plain_value(&p).n_w, p))
            .collect();
        let min = nw.iter().map(|x| x.0).min().unwrap();
        let max = nw.iter().map(|x| x.0).max().unwrap();
        let arg = |m: u64| -> Vec<Vec<u32>> {
            nw.iter()
                .filter(|x| x.0 == m)
                .map(|x| x.1.clone())
                .collect()
        };
        assert_eq!((row.min_nw, &row.argmin), (min, &arg(min)), "N = {n}");
        assert_eq!((row.max_nw, &row.argmax), (max, &arg(max)), "N = {n}");
        assert_eq!(row.positions, nw.len(), "N = {n}");
    }
    // N is checked: even, positive and within the packed codes.
    for bad in [0, 7, 114] {
        assert!(allocations(&[bad], &Silent).is_err(), "{bad}");
    }
}
