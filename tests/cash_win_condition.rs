//! The proven win condition on A-critical states (`WinCondition`), checked against the win
//! table beyond the range its proof compared, at huge n through the shift its proof rests on,
//! and with tampered statements that must not prove.

use nimlab::cash::{CashSet, CashTable, WinCondition, g_thresholds, thresholds};
use num_bigint::BigUint;
use num_integer::Integer;

const MEMORY: u64 = 1 << 30;

fn set(s: &str) -> CashSet {
    s.parse().unwrap()
}

fn big(x: u64) -> BigUint {
    BigUint::from(x)
}

/// Sets with no edge layer, with one, with a boundary modulus beyond the cash period, and
/// with no A-critical state at all.
const SETS: [&str; 9] = [
    "1,4", "1,6", "1,3,4", "2,3", "3,4", "2,4,7", "4,7,9", "1,3", "5,6",
];

/// Every A-critical state of every n from the proof's start to well past its window agrees
/// with the win table (which the tests in `cash.rs` compare with Lemma 1.12's recursion).
#[test]
fn the_condition_agrees_with_the_win_table_far_beyond_its_proof() {
    for s in SETS {
        let a = set(s);
        let wc = WinCondition::find(&a, 100, MEMORY).unwrap();
        let pr = &wc.proof;
        let end = pr.step_from + 2 * pr.window + 60;
        let table = CashTable::solve(&a, end, MEMORY).unwrap();
        let th = thresholds(&a, end).unwrap();
        let mut critical = 0;
        for n in pr.from..=end {
            let (g1, g2) = g_thresholds(&a, n);
            let (f1, f2) = (th.f1[n as usize], th.f2[n as usize]);
            // Every state up to the window's end, the cut points only beyond it.
            let full = n < pr.step_from + pr.window;
            for d in g1..f1 {
                let es: Vec<u64> = if full {
                    (g2..f2).collect()
                } else {
                    let t = table.threshold(n, d).unwrap();
                    [t.saturating_sub(1), t, g2, f2.saturating_sub(1)]
                        .into_iter()
                        .filter(|e| (g2..f2).contains(e))
                        .collect()
                };
                for e in es {
                    critical += 1;
                    assert_eq!(
                        wc.critical_winner(&big(n), &big(d), &big(e)),
                        table.winner(n, d, e),
                        "A = {s}: ({n}; {d}, {e})"
                    );
                }
            }
        }
        if s == "1,3" {
            assert_eq!(critical, 0, "{{1,3}} has no A-critical state");
        } else {
            assert!(
                critical > 1000,
                "A = {s}: only {critical} A-critical states"
            );
        }
    }
}

/// The proof's shift: (n, d, e) → (n + MK·t, d + MK·t/2, e + MK·t/2) keeps the winner of a state
/// close to the poor edge. With t = 10¹⁵ this reaches n ≈ 10¹⁷ and more, far beyond any table.
#[test]
fn states_near_the_poor_edge_keep_their_winner_under_the_proofs_shift() {
    for s in ["1,4", "2,4,7", "4,7,9"] {
        let a = set(s);
        let wc = WinCondition::find(&a, 100, MEMORY).unwrap();
        let pr = &wc.proof;
        let sigma = pr.band_growth as u64;
        let k = pr.b_period / sigma.gcd(&pr.b_period);
        let shift = pr.n_period * k;
        let n0 = pr.step_from;
        let table = CashTable::solve(&a, n0 + shift, MEMORY).unwrap();
        let th = thresholds(&a, n0 + shift).unwrap();
        let t = big(1_000_000_000_000_000);
        let mut checked = 0;
        for n in n0..n0 + shift {
            let (g1, g2) = g_thresholds(&a, n);
            let (f1, f2) = (th.f1[n as usize], th.f2[n as usize]);
            for d in g1..(g1 + 4).min(f1) {
                for e in g2..f2 {
                    let w = table.winner(n, d, e).unwrap();
                    let lift = |x: u64| big(x) + &t * big(shift / 2);
                    let far = wc.critical_winner(&(big(n) + &t * big(shift)), &lift(d), &lift(e));
                    assert_eq!(
                        far,
                        Some(w),
                        "A = {s}: ({n}; {d}, {e}) lifted by {t}·{shift}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "A = {s}: {checked}");
    }
}

/// A stated condition proves only if it is the true one: changing one value of a boundary, its
/// head, or the edge layer is caught by the base or the induction step.
#[test]
fn tampered_conditions_do_not_prove() {
    for s in ["1,4", "2,4,7", "4,7,9"] {
        let a = set(s);
        let wc = WinCondition::find(&a, 100, MEMORY).unwrap();
        let again = WinCondition::prove(
            &a,
            wc.modulus,
            wc.boundaries.clone(),
            wc.edge.clone(),
            MEMORY,
        )
        .unwrap();
        assert_eq!(again.proof, wc.proof, "A = {s}: the replay proves the same");
        for i in 0..wc.boundaries.len() {
            for r in 0..wc.boundaries[i].form.lines.len() {
                for delta in [-1, 1] {
                    let mut bad = wc.boundaries.clone();
                    let l = &mut bad[i].form.lines[r];
                    l.intercept = &l.intercept + &nimlab::Q::int(delta);
                    let res = WinCondition::prove(&a, wc.modulus, bad, wc.edge.clone(), MEMORY);
                    assert!(
                        res.is_err(),
                        "A = {s}: h_{i} residue {r} moved by {delta} proved"
                    );
                }
            }
        }
        if wc.edge.depth > 0 {
            for j in 0..wc.edge.modulus {
                for delta in 0..wc.edge.depth {
                    // A clipped offset ("I never wins here", "I always wins here") may move
                    // one way without changing what it says, never both ways.
                    let Some(o) = wc.edge.offsets[j][delta] else {
                        continue;
                    };
                    let proves = |moved: i64| {
                        let mut bad = wc.edge.clone();
                        bad.offsets[j][delta] = Some(moved);
                        WinCondition::prove(&a, wc.modulus, wc.boundaries.clone(), bad, MEMORY)
                            .is_ok()
                    };
                    assert!(
                        !(proves(o + 1) && proves(o - 1)),
                        "A = {s}: o_{j}({delta}) moved both ways proved"
                    );
                }
            }
            let none = nimlab::cash::EdgeLayer::default();
            assert!(
                WinCondition::prove(&a, wc.modulus, wc.boundaries.clone(), none, MEMORY).is_err(),
                "A = {s} needs its edge layer"
            );
        }
    }
}

/// Lemma 5.6 (A = {1, L}, L even), in Def 4.3's coordinates: for even i ≤ L − 2, I wins iff
/// b† ≥ (L−1)⌊b/(L−1)⌋ + L − 1; for odd i and i = L, iff b† ≥ (L−1)⌊b/(L−1)⌋.
#[test]
fn lemma_5_6_is_rediscovered_for_one_l() {
    for l in [4u64, 6, 8, 10] {
        let a = set(&format!("1,{l}"));
        let wc = WinCondition::find(&a, 100, MEMORY).unwrap();
        assert_eq!(wc.modulus as u64, l + 1);
        assert_eq!(wc.edge.depth, 0);
        assert_eq!(wc.proof.from, 0);
        for (i, bd) in wc.boundaries.iter().enumerate() {
            let step = (l - 1) as i64;
            let extra = if i % 2 == 0 && (i as u64) < l {
                step
            } else {
                0
            };
            for b in 0..10 * step {
                let want = step * (b / step) + extra;
                let got = bd.form.eval(b);
                assert_eq!(got, nimlab::Q::int(want), "L = {l}, h_{i}({b})");
            }
        }
    }
}

/// Without cash-periodicity there are no corresponding states to speak of.
#[test]
fn a_set_that_is_not_cash_periodic_is_refused() {
    let err = WinCondition::find(&set("3,5,6,10,11"), 100, MEMORY).unwrap_err();
    assert!(err.to_string().contains("not cash-periodic"), "{err}");
}

/// Every move set A ⊆ {1, …, 7} with two or three elements: whenever a condition is found and
/// proven, the win table agrees with it at the cut of every A-critical row up to well past
/// the proof's window.
#[test]
fn every_proven_condition_for_small_sets_agrees_with_the_table() {
    let mut proven = 0;
    for x in 1..=7u64 {
        for y in x + 1..=7 {
            for z in std::iter::once(None).chain((y + 1..=7).map(Some)) {
                let s = match z {
                    None => format!("{x},{y}"),
                    Some(z) => format!("{x},{y},{z}"),
                };
                let a = set(&s);
                let Ok(wc) = WinCondition::find(&a, 100, MEMORY) else {
                    continue;
                };
                proven += 1;
                let pr = &wc.proof;
                let end = (pr.step_from + 3 * pr.window + 100).min(2500);
                let table = CashTable::solve(&a, end, MEMORY).unwrap();
                let th = thresholds(&a, end).unwrap();
                for n in pr.from..=end {
                    let (g1, g2) = g_thresholds(&a, n);
                    let (f1, f2) = (th.f1[n as usize], th.f2[n as usize]);
                    for d in g1..f1 {
                        let t = table.threshold(n, d).unwrap();
                        for e in [t.saturating_sub(1), t, g2, f2.saturating_sub(1)] {
                            if (g2..f2).contains(&e) {
                                assert_eq!(
                                    wc.critical_winner(&big(n), &big(d), &big(e)),
                                    table.winner(n, d, e),
                                    "A = {s}: ({n}; {d}, {e})"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(proven > 30, "{proven}");
}
