//! Scoring Nim: the fast and exact solvers against a naive minimax and the paper's values.

use std::collections::HashMap;

use nimlab::Q;
use nimlab::games::scoring::{
    Method, in_p_plus, nim_heaps, optimal_line, scoring_nim, solve, tails,
};
use proptest::prelude::*;

/// Naive exact minimax at one rational N over sorted heap tuples (independent of the engine).
fn naive(p: &[u32], n: &Q, memo: &mut HashMap<Vec<u32>, Q>) -> Q {
    let mut key = p.to_vec();
    key.retain(|&h| h > 0);
    key.sort_unstable();
    if key.is_empty() {
        return -n;
    }
    if let Some(v) = memo.get(&key) {
        return v.clone();
    }
    let mut best: Option<Q> = None;
    for i in 0..key.len() {
        for t in 0..key[i] {
            let mut child = key.clone();
            child[i] = t;
            let v = Q::int(i64::from(key[i] - t)) - naive(&child, n, memo);
            if best.as_ref().is_none_or(|b| &v > b) {
                best = Some(v);
            }
        }
    }
    let best = best.expect("non-empty position has a move");
    memo.insert(key, best.clone());
    best
}

fn f(heaps: &[u32], n: i64) -> Q {
    let sol = solve(
        &scoring_nim(),
        &nim_heaps(heaps),
        Method::Auto,
        &Default::default(),
    )
    .unwrap();
    sol.value(&nim_heaps(heaps), &Q::int(n)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn grid_and_exact_agree_with_naive_minimax(heaps in proptest::collection::vec(0u32..6, 1..=6), num in -30i64..30, den in 1i64..4) {
        let n = Q::frac(num, den);
        let game = scoring_nim();
        let grid = solve(&game, &nim_heaps(&heaps), Method::Grid, &Default::default()).unwrap();
        let exact = solve(&game, &nim_heaps(&heaps), Method::Exact, &Default::default()).unwrap();
        let fg = grid.payoff(&nim_heaps(&heaps)).unwrap();
        prop_assert_eq!(&fg, &exact.payoff(&nim_heaps(&heaps)).unwrap());
        prop_assert_eq!(fg.eval(&n), naive(&heaps, &n, &mut HashMap::new()));
        // Prop 3.1: integer breakpoints; the line of play realises f.
        prop_assert!(fg.breakpoints().iter().all(|(x, _)| x.is_integer()));
        prop_assert_eq!(optimal_line(&grid, &nim_heaps(&heaps), &n).unwrap().payoff, fg.eval(&n));
    }
}

#[test]
fn paper_values() {
    // Prop 4.1 and 4.2 on a range (Scoring Nim §4).
    for n in -8..=8 {
        assert_eq!(f(&[1, 1], n), Q::int(-n));
        for x in 2..7u32 {
            assert_eq!(f(&[x, 1], n), Q::int(i64::from(x) - 1 + n.abs()));
            assert_eq!(f(&[x, x], n), Q::int(1 - (1 + n).abs()));
            for y in 2..x {
                assert_eq!(
                    f(&[x, y], n),
                    Q::int(i64::from(x - y) + (1 - (1 + n).abs()).abs())
                );
            }
        }
    }
    // c+(5,4,2) = -3 and c±(3,2,1) = 2 (after Prop 5.5); the §2 line at N = 3.
    let sol = solve(
        &scoring_nim(),
        &nim_heaps(&[5, 4, 2]),
        Method::Auto,
        &Default::default(),
    )
    .unwrap();
    let t = tails(&sol.payoff(&nim_heaps(&[5, 4, 2])).unwrap());
    assert_eq!((t.c_plus, t.right_slope), (Q::int(-3), Q::int(1)));
    assert!(!in_p_plus(&[5, 4, 2]));
    let line = optimal_line(&sol, &nim_heaps(&[5, 4, 2]), &Q::int(3)).unwrap();
    assert_eq!(
        (line.first_score, line.second_score),
        (Q::int(8), Q::int(6))
    );
    let t321 = tails(
        &solve(
            &scoring_nim(),
            &nim_heaps(&[3, 2, 1]),
            Method::Auto,
            &Default::default(),
        )
        .unwrap()
        .payoff(&nim_heaps(&[3, 2, 1]))
        .unwrap(),
    );
    assert_eq!((t321.c_plus, t321.c_minus), (Q::int(2), Q::int(2)));
}

/// Prop 5.5: f_N(p) is linear for N ≥ |p| − 2 and for N ≤ −|p|, i.e. every breakpoint lies in
/// [−|p|, |p| − 2]; checked on every 3-heap position with heaps ≤ 12 and every 4-heap one ≤ 7.
#[test]
fn prop_5_5_breakpoint_window_on_whole_tables() {
    let game = nimlab::games::scoring::scoring_nim();
    for (k, h) in [(3usize, 12u32), (4, 7)] {
        let table = nimlab::games::scoring::solve_table(
            &game,
            k,
            h,
            nimlab::games::scoring::Method::Auto,
            &nimlab::games::scoring::Limits::default(),
            &|_| {},
        )
        .unwrap();
        for p in table.positions() {
            let stones: i64 = p.iter().map(|&x| i64::from(x)).sum();
            let f = table.payoff(&p).unwrap();
            for (x, _) in f.breakpoints() {
                assert!(
                    *x >= Q::int(-stones) && *x <= Q::int(stones - 2),
                    "{p:?}: breakpoint at {x} outside [−{stones}, {}]",
                    stones - 2
                );
            }
        }
    }
}
