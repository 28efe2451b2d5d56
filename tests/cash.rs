//! NIM with Cash: the threshold table against the literal recursion, monotonicity, and the
//! paper's general theorems on random move sets.

use nimlab::cash::{
    CashSet, CashTable, Winner, cash_winner_naive, classify, g_thresholds, least_thresholds,
    plain_winners, thresholds,
};
use proptest::prelude::*;

fn random_set() -> impl Strategy<Value = CashSet> {
    proptest::collection::vec(1u64..=9, 1..=4).prop_map(|v| CashSet::new(v).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The threshold table equals Lemma 1.12's literal recursion on every state, and the win
    /// region is monotone in both players' money (verified on the recursion, not assumed).
    #[test]
    fn table_equals_recursion_and_money_is_monotone(a in random_set()) {
        let max = 18;
        let table = CashTable::solve(&a, max, 1 << 24).unwrap();
        for n in 0..=max {
            for d in 0..=max + 2 {
                for e in 0..=max + 2 {
                    let w = cash_winner_naive(&a, n, d, e);
                    prop_assert_eq!(table.winner(n, d, e).unwrap(), w, "A = {}, ({}; {}, {})", a, n, d, e);
                    if w == Winner::I {
                        prop_assert_eq!(cash_winner_naive(&a, n, d + 1, e), Winner::I);
                        if e > 0 {
                            prop_assert_eq!(cash_winner_naive(&a, n, d, e - 1), Winner::I);
                        }
                    }
                }
            }
        }
    }

    /// Theorems 2.2, 2.4 and 3.7 on every state with n ≤ 40. (Note 4.2, g ≤ f, is not assumed:
    /// it already fails for A = {1} at n = 0 and n = 1.)
    #[test]
    fn general_theorems_hold(a in random_set()) {
        let max = 40;
        let table = CashTable::solve(&a, max, 1 << 24).unwrap();
        let th = thresholds(&a, max).unwrap();
        for n in 0..=max {
            let m = n as usize;
            let (f1, f2, w) = (th.f1[m], th.f2[m], th.winner[m]);
            // Theorem 2.2.
            match w {
                Winner::I => prop_assert_eq!(table.winner(n, f1, n).unwrap(), Winner::I),
                Winner::II => prop_assert_eq!(table.winner(n, n, f2).unwrap(), Winner::II),
            }
            for d in 0..=max + 1 {
                for e in 0..=max + 1 {
                    let c = classify(&a, n, d, e, f1, f2, w);
                    if let Some((winner, why)) = c.by_theorem {
                        prop_assert_eq!(table.winner(n, d, e).unwrap(), winner, "A = {}, ({}; {}, {}): {}", a, n, d, e, why);
                    }
                }
            }
        }
    }
}

#[test]
fn least_thresholds_agree_with_the_definition_where_the_theorems_say_so() {
    // Def 2.1's f^I is the least d with which I wins (n; d, ∞) (the paper, §2).
    for set in ["1,3,4", "2,5", "3,5,6,10,11", "1,4", "1,6,7"] {
        let a: CashSet = set.parse().unwrap();
        let max = 120;
        let table = CashTable::solve(&a, max, 1 << 26).unwrap();
        let th = thresholds(&a, max).unwrap();
        let w = plain_winners(&a, max);
        for n in 0..=max {
            let (l1, l2) = least_thresholds(&table, n, w[n as usize]).unwrap();
            match w[n as usize] {
                Winner::I => assert_eq!(l1, Some(th.f1[n as usize]), "A = {a}, n = {n}: f^I"),
                Winner::II => assert_eq!(l2, th.f2[n as usize], "A = {a}, n = {n}: f^II"),
            }
        }
    }
}

#[test]
fn note_4_2_fails_at_the_smallest_heaps() {
    let a: CashSet = "1".parse().unwrap();
    let th = thresholds(&a, 1).unwrap();
    // n = 0: f^I = 0 < g^I = 1; n = 1: f^II = 0 < g^II = 1.
    assert_eq!((th.f1[0], g_thresholds(&a, 0).0), (0, 1));
    assert_eq!((th.f2[1], g_thresholds(&a, 1).1), (0, 1));
}

#[test]
fn defined_values_bound_the_true_ones_and_example_1_11() {
    // The other player's defined value is never below the true least one, and sometimes above:
    // {2,3} at n = 7 (W = I): f^II = 3, least 2; {1,3,4} at n = 6: f^II = 4, least 3.
    for (set, n, f2, least) in [("2,3", 7u64, 3u64, 2u64), ("1,3,4", 6, 4, 3)] {
        let a: CashSet = set.parse().unwrap();
        let table = CashTable::solve(&a, n, 1 << 20).unwrap();
        let th = thresholds(&a, n).unwrap();
        assert_eq!(th.f2[n as usize], f2);
        assert_eq!(
            least_thresholds(&table, n, th.winner[n as usize])
                .unwrap()
                .1,
            least
        );
    }
    // Example 1.11: A = {1,3,4}, n = 14 (W = II): (14; ∞, 10) II, (14; 4, 4) II, (14; 9, 9) I.
    let a: CashSet = "1,3,4".parse().unwrap();
    let t = CashTable::solve(&a, 14, 1 << 20).unwrap();
    assert_eq!(plain_winners(&a, 14)[14], Winner::II);
    assert_eq!(t.winner(14, 1000, 10), Some(Winner::II));
    assert_eq!(t.winner(14, 1000, 9), Some(Winner::I));
    assert_eq!(t.winner(14, 4, 4), Some(Winner::II));
    assert_eq!(t.winner(14, 9, 9), Some(Winner::I));
}

#[test]
fn example_1_5_plain_game_patterns() {
    let ii = |set: Vec<u64>, n: u64| plain_winners(&CashSet::new(set).unwrap(), n);
    // (1) A = {L..M}: II iff n mod (L+M) < L.
    for l in 1..=6u64 {
        for m in l + 1..=9 {
            let w = ii((l..=m).collect(), 200);
            for (n, w) in w.iter().enumerate() {
                assert_eq!(
                    *w == Winner::II,
                    (n as u64) % (l + m) < l,
                    "{{{l}..{m}}}, n = {n}"
                );
            }
        }
    }
    for l in (2..=16u64).step_by(2) {
        // (2) A = {1, L}, L even: II iff n mod (L+1) is even and ≤ L − 2.
        for (n, w) in ii(vec![1, l], 300).iter().enumerate() {
            let r = n as u64 % (l + 1);
            assert_eq!(
                *w == Winner::II,
                r.is_multiple_of(2) && r <= l - 2,
                "{{1,{l}}}, n = {n}"
            );
        }
        // (3) A = {1, L, L+1}, L even: II iff n mod 2L is even and ≤ L − 2.
        for (n, w) in ii(vec![1, l, l + 1], 300).iter().enumerate() {
            let r = n as u64 % (2 * l);
            assert_eq!(
                *w == Winner::II,
                r.is_multiple_of(2) && r <= l - 2,
                "{{1,{l},{}}}, n = {n}",
                l + 1
            );
        }
    }
    // (4) A = {1, L, L+1}, L odd ≥ 3: II iff n mod (2L+1) is even and ≤ L − 1.
    for l in (3..=15u64).step_by(2) {
        for (n, w) in ii(vec![1, l, l + 1], 300).iter().enumerate() {
            let r = n as u64 % (2 * l + 1);
            assert_eq!(
                *w == Winner::II,
                r.is_multiple_of(2) && r < l,
                "{{1,{l},{}}}, n = {n}",
                l + 1
            );
        }
    }
}

#[test]
fn appendix_thresholds_are_periodic_linear_with_period_16() {
    // The miner, on f^I and f^II of {3,5,6,10,11}: period 16, per-residue slopes 10 and 11.
    use nimlab::Q;
    use nimlab::{FitOptions, fit_periodic_linear};
    let a: CashSet = "3,5,6,10,11".parse().unwrap();
    let th = thresholds(&a, 2000).unwrap();
    for (values, n0) in [(&th.f1, 66), (&th.f2, 63)] {
        let q: Vec<Q> = values.iter().map(|&x| Q::int(x as i64)).collect();
        let fit = fit_periodic_linear(&q, 0, &FitOptions::default()).unwrap();
        assert_eq!((fit.period, fit.preperiod), (16, n0));
        let slopes: std::collections::BTreeSet<Q> =
            fit.lines.iter().map(|l| l.slope.clone()).collect();
        assert_eq!(slopes, [Q::int(10), Q::int(11)].into_iter().collect());
        for n in n0..=2000 {
            assert_eq!(fit.eval(n), q[n as usize]);
        }
    }
    // f^I(65) = 43 breaks residue 1's line 11k − 2 at k = 4 (it would give 42).
    assert_eq!(th.f1[65], 43);
}

#[test]
fn threshold_forms_are_certified_and_tampering_is_caught() {
    use nimlab::Q;
    use nimlab::cash::{replay_threshold_certificate, threshold_forms};
    for set in ["3,5,6,10,11", "1,4", "1,6", "1,3,4", "2,3", "1,4,5"] {
        let a: CashSet = set.parse().unwrap();
        let forms = threshold_forms(&a, 3000).unwrap_or_else(|e| panic!("A = {a}: {e}"));
        replay_threshold_certificate(&a, &forms.certificate).unwrap();
        // The proven forms agree with the recursion far beyond the data used.
        let th = thresholds(&a, 20_000).unwrap();
        for n in forms.certificate.from..=20_000 {
            assert_eq!(
                forms.f1.eval(n),
                Q::int(th.f1[n as usize] as i64),
                "A = {a}, f^I({n})"
            );
            assert_eq!(
                forms.f2.eval(n),
                Q::int(th.f2[n as usize] as i64),
                "A = {a}, f^II({n})"
            );
        }
        // Tampering: change one intercept, or one base value.
        let mut bad = forms.certificate.clone();
        bad.formulas[0][0].1 = &bad.formulas[0][0].1 + &Q::int(1);
        assert!(replay_threshold_certificate(&a, &bad).is_err(), "A = {a}");
        let mut bad = forms.certificate.clone();
        bad.base[1][0] = &bad.base[1][0] + &Q::int(1);
        assert!(replay_threshold_certificate(&a, &bad).is_err(), "A = {a}");
        // A recurrence other than Def 2.3's, even one the forms satisfy (the f^II rule of
        // every residue replaced by the f^I rule of that residue, and vice versa), is refused.
        let mut bad = forms.certificate.clone();
        bad.recurrence.rules.swap(0, 1);
        let e = replay_threshold_certificate(&a, &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not Def 2.3's"), "A = {a}: {e}");
    }
}

/// A forged certificate whose own recurrence is consistent (each residue's value is the one
/// P terms before plus a constant, which any periodic-linear form satisfies) is refused
/// because the recurrence is not Def 2.3's for A.
#[test]
fn certificates_with_a_recurrence_of_their_own_are_refused() {
    use nimlab::cash::{replay_threshold_certificate, threshold_forms};
    use nimlab::mining::{Rule, Term};
    let a: CashSet = "1,4".parse().unwrap();
    let forms = threshold_forms(&a, 3000).unwrap();
    let mut bad = forms.certificate.clone();
    let p = bad.recurrence.period;
    for seq in 0..2 {
        for (i, rule) in bad.recurrence.rules[seq].iter_mut().enumerate() {
            let slope = bad.formulas[seq][i].0.clone();
            *rule = Rule::Min(vec![Term {
                seq,
                shift: p,
                add: slope,
            }]);
        }
    }
    bad.recurrence.lookback = p.max(bad.recurrence.lookback);
    let e = replay_threshold_certificate(&a, &bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not Def 2.3's"), "{e}");
}

#[test]
fn certified_forms_decide_exactly_as_the_table_does() {
    use nimlab::cash::{threshold_forms, winner_by_forms};
    use num_bigint::BigUint;
    for set in ["3,5,6,10,11", "1,4", "1,3,4"] {
        let a: CashSet = set.parse().unwrap();
        let forms = threshold_forms(&a, 2000).unwrap();
        let th = thresholds(&a, 2000).unwrap();
        let max = 160;
        let table = CashTable::solve(&a, max, 1 << 24).unwrap();
        let mut decided = 0;
        for n in forms.certificate.from as u64..=max {
            for d in (0..=max).step_by(3) {
                for e in (0..=max).step_by(5) {
                    let big = |x: u64| BigUint::from(x);
                    let (w, _, _) =
                        winner_by_forms(&a, &forms, &th.winner, &big(n), &big(d), &big(e));
                    if let Some((w, why)) = w {
                        decided += 1;
                        assert_eq!(
                            Some(w),
                            table.winner(n, d, e),
                            "A = {a}, ({n}; {d}, {e}): {why}"
                        );
                    }
                }
            }
        }
        assert!(decided > 1000, "A = {a}: only {decided} states decided");
    }
}

#[test]
fn cash_periodicity_from_forms_matches_the_data() {
    use nimlab::cash::{CashPeriodicity, c_values, threshold_forms};
    for (set, expected) in [
        ("1,4", Some(5)),
        ("1,3,4", Some(7)),
        ("1,4,5", Some(8)),
        ("3,5,6,10,11", None),
    ] {
        let a: CashSet = set.parse().unwrap();
        let forms = threshold_forms(&a, 3000).unwrap();
        let th = thresholds(&a, 3000).unwrap();
        let key = |n: u64| (th.winner[n as usize], c_values(&a, &th, n));
        match forms.cash_periodicity(&a, &th.winner) {
            CashPeriodicity::Periodic { period, from } => {
                assert_eq!(Some(period), expected, "A = {a}");
                let (m, from) = (period as u64, from as u64);
                assert!((from..=3000 - m).all(|n| key(n) == key(n + m)), "A = {a}");
                for d in (1..m).filter(|d| m.is_multiple_of(*d)) {
                    assert!(
                        (from..=3000 - d).any(|n| key(n) != key(n + d)),
                        "A = {a}: {d}"
                    );
                }
            }
            CashPeriodicity::NotPeriodic {
                residue,
                a: step,
                which,
                ..
            } => {
                assert_eq!(expected, None, "A = {a}");
                // The witness C value really keeps changing along its residue class.
                let idx = usize::from(which == "C^II");
                let c = |n: u64| {
                    let v = c_values(&a, &th, n);
                    let (_, c1, c2) = v.into_iter().find(|(x, _, _)| *x == step).unwrap();
                    [c1, c2][idx]
                };
                let p = forms.certificate.recurrence.period as u64;
                let n0 = 200 + (residue as u64 + p - 200 % p) % p;
                assert_ne!(c(n0), c(n0 + 10 * p), "A = {a}");
            }
        }
    }
}

#[test]
fn lemma_4_5_needs_the_corrected_c1_and_the_main_view_is_the_least_threshold() {
    use nimlab::cash::{c_values, c1_as_printed, corresponding_state};
    let a: CashSet = "1,3,4".parse().unwrap();
    let th = thresholds(&a, 60).unwrap();
    let mut printed_differs = false;
    for n in 4..=60u64 {
        for (step, c1, c2) in c_values(&a, &th, n) {
            printed_differs |= c1_as_printed(&th, n, step) != c1;
            for (d, e) in [(step, 0), (step + 3, 5), (40, 40)] {
                // Lemma 4.5: the move (n; d, e) → (n − a; e, d − a) maps b to b†' + c^I and
                // b† to b' + c^II (m = 7, the cash period of {1,3,4}).
                let (_, b, bd) = corresponding_state(&th, 7, n, d, e);
                let (_, b2, bd2) = corresponding_state(&th, 7, n - step, e, d - step);
                assert_eq!(bd2, b - c1, "A = {a}, n = {n}, a = {step}");
                assert_eq!(b2, bd - c2, "A = {a}, n = {n}, a = {step}");
            }
        }
    }
    assert!(
        printed_differs,
        "Def 4.4's printed C^I agrees with Lemma 4.5 everywhere"
    );
    // f_A (the plain-game winner's threshold) is the true least one; f_A^⊥ is only a bound.
    let table = CashTable::solve(&a, 60, 1 << 22).unwrap();
    for n in 0..=60u64 {
        let (main, other) = th.main_and_other(n);
        let (l1, l2) = least_thresholds(&table, n, th.winner[n as usize]).unwrap();
        match th.winner[n as usize] {
            Winner::I => assert_eq!((Some(main), l2 <= other), (l1, true), "n = {n}"),
            Winner::II => assert!(main == l2 && l1.is_none_or(|l| l <= other), "n = {n}"),
        }
    }
}
