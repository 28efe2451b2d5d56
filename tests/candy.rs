//! Candy Nim against the plain minimax, the paper's printed values and Scoring Nim's c⁺.

use nimlab::candy::{
    CandyTable, CandyValue, PValues, Role, ThreeHeapTable, nim_sum, optimal_line, plain_value,
    role, total, value_with, winning_moves,
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
        let line = optimal_line(&t, &h).unwrap();
        let luca: u64 = line.iter().filter(|p| p.player == Role::Luca).map(|p| u64::from(p.taken)).sum();
        prop_assert_eq!(luca, v.n_l);
        prop_assert!(line.last().is_none_or(|p| p.after.iter().all(|&x| x == 0)));
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
