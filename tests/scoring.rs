//! Scoring Nim: the fast and exact solvers against a naive minimax and the paper's values.

use std::collections::HashMap;

use nimlab::Q;
use nimlab::scoring::{Method, in_p_plus, nim_heaps, optimal_line, scoring_nim, solve, tails};
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
    let game = nimlab::scoring::scoring_nim();
    for (k, h) in [(3usize, 12u32), (4, 7)] {
        let table = nimlab::scoring::solve_table(
            &game,
            k,
            h,
            nimlab::scoring::Method::Auto,
            &nimlab::scoring::Limits::default(),
            &nimlab::Silent,
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

// ---------------------------------------------------------------------------------------------
// Issue 14: the cost model's arithmetic against big-integer references, at values around 2^31,
// 2^32, 2^63 and 2^64.

mod sizes {
    use std::collections::BTreeMap;

    use nimlab::Family;
    use nimlab::IntRange;
    use nimlab::scoring::{Heap, Method, scoring_nim, solve_cost, table_size};
    use num_bigint::{BigInt, BigUint};
    use proptest::prelude::*;

    /// C(n, r) exactly.
    fn binomial(n: u128, r: u128) -> BigUint {
        (0..r).fold(BigUint::from(1u8), |c, j| {
            c * BigUint::from(n - j) / BigUint::from(j + 1)
        })
    }

    /// Values near the machine-integer boundaries, and small ones.
    fn near_boundaries() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..20,
            (0u64..4, prop::sample::select(vec![31u32, 32, 63, 64])).prop_map(
                |(d, e)| (1u128 << e)
                    .saturating_sub(u128::from(d))
                    .min(u128::from(u64::MAX)) as u64
            ),
            any::<u64>(),
        ]
    }

    fn signed_near_boundaries() -> impl Strategy<Value = i64> {
        (near_boundaries(), any::<bool>()).prop_map(|(v, neg)| {
            let v = v.min(i64::MAX as u64) as i64;
            if neg { -v } else { v }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn table_sizes_are_exact_or_refused(k in near_boundaries(), h in near_boundaries()) {
            let (k, h) = (k.min(usize::MAX as u64) as usize, h.min(u64::from(u32::MAX)) as u32);
            // Keep the reference cheap: one of the two is small.
            prop_assume!(k <= 64 || h <= 64);
            let exact = binomial(h as u128 + k as u128, (k as u128).min(u128::from(h)));
            let expected = u64::try_from(&exact).ok().filter(|&c| c != u64::MAX);
            prop_assert_eq!(table_size(k, h), expected);
        }

        #[test]
        fn range_lengths_never_wrap(a in signed_near_boundaries(), b in signed_near_boundaries()) {
            let (lo, hi) = (a.min(b), a.max(b));
            let r = IntRange::new(lo, hi).unwrap();
            let exact = BigInt::from(hi) - BigInt::from(lo) + 1;
            let expected = u64::try_from(&exact).unwrap_or(u64::MAX);
            prop_assert_eq!(r.len(), expected);
        }

        #[test]
        fn heap_maxima_match_every_member(
            a in signed_near_boundaries(),
            b in signed_near_boundaries(),
            start in signed_near_boundaries(),
            len in 0i64..4,
        ) {
            // With a = 0 the family has no parameter, and a range for k is an error.
            prop_assume!(a != 0);
            let end = start.saturating_add(len);
            let family: Family = format!("{a}k + {b}").replace("+ -", "- ").parse().unwrap();
            let ranges: BTreeMap<String, IntRange> =
                [("k".to_string(), IntRange::new(start, end).unwrap())].into();
            // The reference: every member's heap in big integers.
            let values: Vec<BigInt> = (start..=end)
                .map(|k| BigInt::from(a) * BigInt::from(k) + BigInt::from(b))
                .collect();
            let in_range = values
                .iter()
                .all(|v| *v >= BigInt::from(0) && *v <= BigInt::from(u32::MAX));
            match family.heap_maxima(&ranges) {
                Ok(m) => {
                    prop_assert!(in_range);
                    prop_assert_eq!(BigInt::from(m[0]), values.iter().max().unwrap().clone());
                }
                Err(e) => {
                    prop_assert!(!in_range, "{}", e);
                    prop_assert!(e.to_string().contains("heap 1"), "{}", e);
                }
            }
        }

        #[test]
        fn solve_costs_saturate_instead_of_wrapping(h in near_boundaries(), copies in 1usize..5) {
            let h = h.min(u64::from(u32::MAX)) as u32;
            let heaps = vec![Heap::new(h); copies];
            let cost = solve_cost(&scoring_nim(), &[heaps], Method::Auto).unwrap();
            // Equal heaps: the positions are the multisets, C(h + copies, copies).
            let exact = binomial(u128::from(h) + copies as u128, copies as u128);
            prop_assert_eq!(cost.positions, u64::try_from(&exact).unwrap_or(u64::MAX));
            let moves = BigUint::from(h) * BigUint::from(u64::from(h) + 1) / BigUint::from(2u8);
            prop_assert_eq!(BigUint::from(cost.cached_moves), moves);
            prop_assert!(cost.bytes >= cost.positions.min(u64::MAX / 200));
        }
    }
}
