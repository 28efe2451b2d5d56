//! The `nimlab cash` and `nimlab mine` commands end to end: exact headers, the paper's examples,
//! certified closed forms for huge n, certificates replayed and tampering rejected, input errors.

use crate::common;
use common::*;

#[test]
fn headers_are_exact() {
    let t = Csv::run("cash thresholds --set 3,5,6,10,11 --max-n 30 --format csv");
    assert_eq!(
        t.header,
        [
            "n", "winner", "f1", "f2", "g1", "g2", "least_f1", "least_f2"
        ]
    );
    assert_eq!(t.rows.len(), 31);
    let t = Csv::run("cash table --set 1,3,4 --max-n 4 --format csv");
    assert_eq!(t.header, ["n", "d", "e", "winner"]);
    assert_eq!(t.rows.len(), 125);
    assert!(t.rows.iter().all(|r| r[3] == "I" || r[3] == "II"));
}

#[test]
fn example_1_11_through_the_cli() {
    // A = {1,3,4}, n = 14: (14; 9, 9) is won by I although the plain game is lost.
    let out = run_ok(&words("cash winner --set 4,3,1,3 14 9 9 --format csv"));
    let t = Csv::parse(&out);
    let r = &t.records()[0];
    assert_eq!(
        (r["set"], r["winner"], r["plain_winner"]),
        ("{1,3,4}", "I", "II")
    );
    let t = Csv::run("cash winner --set 1,3,4 14 4 4 --format csv");
    assert_eq!(t.records()[0]["winner"], "II");
}

#[test]
fn huge_n_uses_certified_forms() {
    // The appendix set at n = 10^18: f^I(n) from the proven form, decided by Theorem 2.4.
    let r = Csv::run(
        "cash winner --set 3,5,6,10,11 1000000000000000000 900000000000000000 1 --format csv",
    );
    let rec = &r.records()[0];
    assert_eq!(rec["winner"], "I");
    assert!(rec["why"].contains("PROVEN"), "{}", rec["why"]);
    // A-critical states beyond the table of a set that is not cash-periodic are refused, not
    // guessed.
    run_input_error(
        &words(
            "cash winner --set 3,5,6,10,11 1000000000000000000 687500000000000001 687499999999999999",
        ),
        &["A-critical", "not cash-periodic"],
    );
}

#[test]
fn huge_a_critical_states_follow_the_proven_win_condition() {
    // A = {1,4}, n = 10^18 ≡ 0 (mod 5): f^I = 8·10^17 − 1, f^II = 8·10^17, so d = f^I − 9 has
    // b = 8 and h_0(8) = 3⌊8/3⌋ + 3 = 9 (Lemma 5.6): I wins iff b† = f^II − 1 − e ≥ 9.
    let n = "1000000000000000000";
    let d = "799999999999999990";
    for (e, winner) in [("799999999999999990", "I"), ("799999999999999991", "II")] {
        let r = Csv::run_args(&["cash", "winner", "--set", "1,4", n, d, e, "--format", "csv"]);
        let rec = &r.records()[0];
        assert_eq!(rec["winner"], winner, "e = {e}");
        assert!(rec["why"].contains("A-critical"), "{}", rec["why"]);
        assert!(
            rec["why"].contains("win condition PROVEN"),
            "{}",
            rec["why"]
        );
    }
}

#[test]
fn cash_condition_prints_the_boundaries_and_their_proof() {
    let text = run_ok(&words("cash condition --set 1,4"));
    assert!(text.contains("h_0(b) = 3⌊b/3⌋+3  (b ≥ 0)"), "{text}");
    assert!(text.contains("h_1(b) = 3⌊b/3⌋  (b ≥ 0)"), "{text}");
    assert!(text.contains("PROVEN for n ≥ 0 (induction on n)"), "{text}");
    let t = Csv::run("cash condition --set 2,4,7 --format csv");
    assert_eq!(
        t.header,
        [
            "part",
            "i",
            "b_period",
            "b_residue",
            "delta",
            "slope",
            "intercept",
            "formula",
            "status"
        ]
    );
    let recs = t.records();
    assert!(
        recs.iter().any(|r| r["part"] == "edge"),
        "{{2,4,7}} has an edge layer"
    );
    assert!(recs.iter().all(|r| r["status"] == "PROVEN for n ≥ 0"));
    let text = run_ok(&words("cash condition --set 1,3"));
    assert!(text.contains("No state is A-critical"), "{text}");
    run_input_error(
        &words("cash condition --set 3,5,6,10,11"),
        &["not cash-periodic"],
    );
}

#[test]
fn mine_cash_certificate_replays_and_tampering_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert.json");
    let cert_s = cert.to_str().unwrap();
    let out = run_ok(&[
        "mine",
        "cash",
        "--set",
        "3,5,6,10,11",
        "--certificate",
        cert_s,
    ]);
    // The sharp start: f^I(19) = 14 is off the line (10·1 + 5), f^I(35) = 25 is on it.
    assert!(out.contains("f1(16k+3) = 10k+5  (k ≥ 2)"), "{out}");
    assert!(out.contains("PROVEN for all n ≥ 66"), "{out}");
    let ok = run_ok(&["mine", "replay", cert_s]);
    assert!(ok.contains("VALID"), "{ok}");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    let slot = &mut json["certificate"]["formulas"][1][5][1];
    let v: i64 = slot.as_str().unwrap().parse().unwrap();
    *slot = serde_json::Value::String((v + 1).to_string());
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&json).unwrap()).unwrap();
    run_input_error(&["mine", "replay", bad.to_str().unwrap()], &["REJECTED"]);
}

#[test]
fn mine_sequence_reads_csv_and_names_problems() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.csv");
    run_ok(&[
        "cash",
        "thresholds",
        "--set",
        "3,5,6,10,11",
        "--max-n",
        "600",
        "--defined-only",
        "--format",
        "csv",
        "-o",
        f.to_str().unwrap(),
    ]);
    let out = run_ok(&[
        "mine",
        "sequence",
        "--csv",
        f.to_str().unwrap(),
        "--index",
        "n",
        "--value",
        "f2",
    ]);
    assert!(out.starts_with("period 16, preperiod 63"), "{out}");
    // On the line from its first term: f^II(9) = 5, f^II(25) = 15.
    assert!(out.contains("f2(16k+9) = 10k+5  (k ≥ 0)"), "{out}");
    run_input_error(
        &[
            "mine",
            "sequence",
            "--csv",
            f.to_str().unwrap(),
            "--index",
            "n",
            "--value",
            "zz",
        ],
        &["--value zz", "f1"],
    );
    run_input_error(
        &[
            "mine",
            "sequence",
            "--csv",
            "/nonexistent.csv",
            "--index",
            "n",
            "--value",
            "f1",
        ],
        &["/nonexistent.csv"],
    );
}

#[test]
fn bad_input_exits_2_naming_the_value() {
    for (line, needle) in [
        ("cash winner --set 0,1 5 1 1", "0"),
        ("cash winner --set 1,x 5 1 1", "'x'"),
        ("cash winner --set 1,3 -5 1 1", "-5"),
        ("cash thresholds --set 1,3 --max-n 30000", "--defined-only"),
        ("cash table --set 1,3 --max-n 1000", "rows"),
        (
            "cash thresholds --set 1,3 --max-n 3000 --memory-limit 1K",
            "--max-n",
        ),
    ] {
        run_input_error(&words(line), &[needle]);
    }
    run_input_error(&["cash", "winner", "--set", "", "5", "1", "1"], &["empty"]);
}

#[test]
fn mine_octal_prints_proven_periodic_forms() {
    let out = run_ok(&words("mine octal --subtract 4,5"));
    assert!(
        out.starts_with("{4,5}: least period 10, least preperiod 27 (PROVEN"),
        "{out}"
    );
    // The sharp start: G_s(3) = 0, G_s(13) = 3 (Table 1).
    assert!(out.contains("G_s(10k+3) = 3  (k ≥ 1)"), "{out}");
    let t = Csv::run("mine octal --rules 0.3333 --points 2,2,2,2 --format csv");
    let values: Vec<&str> = t
        .records()
        .iter()
        .map(|r| r["value"])
        .collect::<Vec<_>>()
        .into_iter()
        .collect();
    assert_eq!(values, ["0", "2", "2", "2", "2"]);
    assert!(t.records().iter().all(|r| r["status"] == "PROVEN"));
}

#[test]
fn mine_family_rediscovers_eq_5_and_remark_4_5() {
    // Scoring Nim: f(2k+1,2k,1) has 4k−3 breakpoints and c± = 2k (eq. (5)).
    let out = run_ok(&["mine", "family", "scoring", "2k+1,2k,1", "--k", "1..20"]);
    assert!(out.contains("breakpoints(k) = 4k-3  (k ≥ 1)"), "{out}");
    assert!(out.contains("c_plus(k) = 2k  (k ≥ 1)"), "{out}");
    // Theorem 6.3(i)'s F_k from data: breakpoints −(2k−2), …, 2k−2 step 1, values 2, 1, 2, ….
    assert!(
        out.contains("first_breakpoint(k) = -2k+2  (k ≥ 1)"),
        "{out}"
    );
    assert!(out.contains("last_breakpoint(k) = 2k-2  (k ≥ 1)"), "{out}");
    assert!(
        out.contains("values at the breakpoints cycle (2, 1) from the first, for k ≥ 2"),
        "{out}"
    );
    // Candy Nim: V([31,32m,32m+31]) = 62m + 36 = 62(m−1) + 98 (Remark 4.5's conjecture).
    let out = run_ok(&["mine", "family", "candy", "31,32m,32m+31", "--m", "1..64"]);
    assert!(out.contains("v(m) = 62m+36  (m ≥ 1)"), "{out}");
    // Two parameters go to the grid miner; (x, 2k, 1) with x < 2k + 2 at k = 2 mixes the two
    // regimes of Theorem 6.3, so no parameter adds a constant everywhere: a clear refusal.
    run_input_error(
        &[
            "mine", "family", "scoring", "x,2k,1", "--x", "3..5", "--k", "1..2",
        ],
        &["over (k, x) have no closed form"],
    );
    // Candy families still need one parameter.
    run_input_error(
        &[
            "mine",
            "family",
            "candy",
            "31,32m,32m+k",
            "--m",
            "1..3",
            "--k",
            "1..2",
        ],
        &["one parameter"],
    );
}

#[test]
fn corresponding_states_decide_critical_states_on_the_data() {
    let (out, err) = run_ok_stderr(&words("cash critical --set 1,4 --max-n 40 --format csv"));
    let t = Csv::parse(&out);
    assert_eq!(t.header, ["n", "d", "e", "i", "b", "b_dagger", "winner"]);
    assert!(!t.rows.is_empty());
    assert!(
        err.contains("cash period 5 from n = 8") && err.contains("each decides the winner"),
        "{err}"
    );
    // Each row's winner agrees with the single-state query.
    for r in t.records().iter().step_by(97) {
        let w = Csv::run(&format!(
            "cash winner --set 1,4 {} {} {} --format csv",
            r["n"], r["d"], r["e"]
        ));
        assert_eq!(w.records()[0]["winner"], r["winner"]);
    }
    run_input_error(
        &words("cash critical --set 3,5,6,10,11 --max-n 40"),
        &["not cash-periodic"],
    );
}

#[test]
fn mine_across_finds_the_period_and_slope_in_l() {
    // {1, L}, L even: f^I, f^II periodic-linear with period L + 1 and slope L per period,
    // each member PROVEN by its certificate; the shapes across L are observed.
    let out = run_ok(&[
        "mine", "across", "cash", "--set", "1,L", "--L", "2..16", "--step", "2",
    ]);
    assert!(out.contains("period(L) = L+1"), "{out}");
    assert!(out.contains("slope(L) = L"), "{out}");
    assert!(
        out.contains("L = 12: A = {1,12}, f^I and f^II periodic-linear with period 13, PROVEN"),
        "{out}"
    );
    run_input_error(
        &["mine", "across", "cash", "--set", "1,k", "--L", "2..4"],
        &["parameter L"],
    );
}

/// Second-level mining across L rediscovers the intercept tables of §5–7 with floor/ceil
/// forms, and their coefficients as closed forms in L. For A = {1, L} (L even): c_i = ⌈i/2⌉ for
/// the plain-game winner and ⌊i/2⌋ − L/2 + 1 for the other player (0 ≤ i < L), c_L = L and L/2.
/// For A = {1, L, L+1} (L odd) the tables have two pieces: ⌈i/2⌉ up to i = L, then
/// ⌊i/2⌋ + L + 1 from i = L + 1, with slope B = (3L+1)/2.
#[test]
fn mine_across_finds_the_intercept_tables_in_floor_ceil_form() {
    let out = run_ok(&[
        "mine", "across", "cash", "--set", "1,L", "--L", "2..24", "--step", "2",
    ]);
    for needle in [
        "L = 10: f_A(11k + i) = B·k + c_i, c = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 10]: c_i = ceil(i/2) for 0 ≤ i < 10; c_10 = 10",
        "  f_A: for L ≥ 10 (OBSERVED on the range):\n    c_i = a0·⌈i/2⌉ + b0 on piece 0\n    a0(L) = 1\n    b0(L) = 0\n    c_(P-1)(L) = L",
        "    b0(L) = -L/2+1",
        "    c_(P-1)(L) = L/2",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    let out = run_ok(&[
        "mine", "across", "cash", "--set", "1,L,L+1", "--L", "3..21", "--step", "2",
    ]);
    for needle in [
        "c_i = ceil(i/2) for 0 ≤ i < 10; c_(10+i) = floor(i/2)+10 for 0 ≤ i < 9",
        "    c_(s1+i) = a1·⌊i/2⌋ + b1 + d1·(i mod 2) on piece 1\n    s1(L) = L+1\n    a1(L) = 1\n    b1(L) = L+1",
        "slope(L) = 3L/2+1/2",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    // {1, L} with L odd: every move is odd, the period is 2 and the tables have two entries —
    // too short to fit in i, so the whole function is given in n: ⌈n/2⌉ for the winner.
    let out = run_ok(&[
        "mine", "across", "cash", "--set", "1,L", "--L", "3..15", "--step", "2",
    ]);
    for needle in [
        "f_A(n) = ceil(n/2) for n ≥ proven_from, for every L in the range (each PROVEN)",
        "f_A^⊥(n) = floor(n/2) for n ≥ proven_from, for every L in the range (each PROVEN)",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
}

/// Between 2 000 and 20 000 stones `cash winner` answers by the proven closed forms and win
/// condition (falling back to the table when they do not apply); the answers and every
/// `classify` column agree with the win table and the thresholds computed here.
#[test]
fn mid_sized_states_by_closed_forms_agree_with_the_table() {
    use nimlab::cash::{CashSet, CashTable, g_thresholds, thresholds};
    let n = 2101u64;
    for set in ["1,4", "1,3,4", "3,5,6,10,11"] {
        let a: CashSet = set.parse().unwrap();
        let table = CashTable::solve(&a, n, 1 << 30).unwrap();
        let th = thresholds(&a, n).unwrap();
        let (f1, f2) = (th.f1[n as usize], th.f2[n as usize]);
        let (g1, g2) = g_thresholds(&a, n);
        // Around every threshold, where the answer changes, and a few states far from them.
        let mut moneys: Vec<u64> = [f1, f2, g1, g2]
            .iter()
            .flat_map(|&x| [x.saturating_sub(2), x.saturating_sub(1), x, x + 1])
            .chain([0, 5, n / 3, n])
            .collect();
        moneys.sort_unstable();
        moneys.dedup();
        for &d in &moneys {
            for &e in moneys.iter().step_by(2) {
                let line = format!("cash classify --set {set} {n} {d} {e} --format csv");
                let t = Csv::run(&line);
                let r = &t.records()[0];
                let standing = |m: u64, f: u64, g: u64| {
                    if m >= f {
                        "rich"
                    } else if m < g {
                        "poor"
                    } else {
                        "middle class"
                    }
                };
                assert_eq!(
                    r["winner"],
                    table.winner(n, d, e).unwrap().to_string(),
                    "{line}"
                );
                assert_eq!(
                    [
                        r["f1"],
                        r["f2"],
                        r["g1"],
                        r["g2"],
                        r["player_i"],
                        r["player_ii"]
                    ],
                    [
                        f1.to_string().as_str(),
                        &f2.to_string(),
                        &g1.to_string(),
                        &g2.to_string(),
                        standing(d, f1, g1),
                        standing(e, f2, g2)
                    ],
                    "{line}"
                );
            }
        }
    }
}

/// Issue 14: values at and beyond 2⁶³ and 2⁶⁴ give the right numbers or a quick, clear refusal.
mod huge_values {
    use super::*;
    use num_bigint::BigUint;
    use proptest::prelude::*;

    /// Def 3.1 in big integers, independently of nimlab: with i = n mod 2a₁,
    /// g^I = (n − i)/2 + min(i + 1, a₁), g^II = (n − i)/2 + max(0, i + 1 − a₁).
    fn def_3_1(a1: u64, n: u64) -> (BigUint, BigUint) {
        let (a1, n) = (BigUint::from(a1), BigUint::from(n));
        let i = &n % (&a1 * 2u32);
        let half = (&n - &i) / 2u32;
        let next = &i + 1u32;
        let g2 = if next > a1 {
            &next - &a1
        } else {
            BigUint::from(0u32)
        };
        (&half + next.min(a1), half + g2)
    }

    #[test]
    fn g_thresholds_do_not_wrap_for_a1_above_2_to_the_63() {
        // 2·a₁ wrapped to 2, giving g^I = 1 2 2 3 3 4 4 and g^II = 0 0 1 1 2 2 3.
        let t = Csv::run(
            "cash thresholds --set 9223372036854775809 --max-n 6 --defined-only --format csv",
        );
        for r in t.records() {
            let n: u64 = r["n"].parse().unwrap();
            let (g1, g2) = def_3_1(9223372036854775809, n);
            assert_eq!((r["g1"], r["g2"]), (&*g1.to_string(), &*g2.to_string()));
        }
        assert_eq!(t.rows.len(), 7);
    }

    #[test]
    fn winner_with_a1_at_2_to_the_63_does_not_panic() {
        // A remainder by 2·a₁ = 0 panicked; with no move possible II wins.
        let r = Csv::run("cash winner --set 9223372036854775808 0 0 0 --format csv");
        assert_eq!(r.records()[0]["winner"], "II");
        let r = Csv::run("cash classify --set 9223372036854775808 7 5 5 --format csv");
        let (g1, g2) = def_3_1(9223372036854775808, 7);
        assert_eq!(r.records()[0]["g1"], g1.to_string());
        assert_eq!(r.records()[0]["g2"], g2.to_string());
    }

    #[test]
    fn a_move_of_2_to_the_64_minus_1_is_refused_not_sliced() {
        refused_quickly(
            "cash winner --set 1,18446744073709551615 100000 5 5",
            &["max A = 18446744073709551615"],
        );
        refused_quickly(
            "mine cash --set 1,18446744073709551615",
            &["max A = 18446744073709551615"],
        );
    }

    #[test]
    fn table_refusal_counts_rows_exactly() {
        // (10¹³ + 1)³ exceeds u128; the count was printed wrapped.
        let rows = (BigUint::from(10_000_000_000_000u64) + 1u32).pow(3);
        refused_quickly(
            "cash table --set 1 --max-n 10000000000000",
            &[&rows.to_string()],
        );
        let rows = (BigUint::from(u64::MAX) + 1u32).pow(3);
        refused_quickly(
            "cash table --set 1 --max-n 18446744073709551615",
            &[&rows.to_string()],
        );
    }

    #[test]
    fn confirming_periods_near_2_to_the_64_never_wrap() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("f.csv");
        let csv = csv.to_str().unwrap();
        run_ok(&words(&format!(
            "cash thresholds --set 1,4 --max-n 60 --defined-only --format csv -o {csv}"
        )));
        // 2 + K wrapped to 1 for K = 2⁶⁴ − 1, so a fit that K = 100 rejects was accepted. Now
        // K is at most 2³² − 1, where the sum cannot wrap, and larger K are refused.
        for k in ["100", "4294967295"] {
            let t = Csv::run(&format!(
                "mine sequence --csv {csv} --index n --value f1 --confirming-periods {k} --format csv"
            ));
            assert_eq!(t.records()[0]["status"], "NONE", "K = {k}");
        }
        for k in ["18446744073709551615", "18446744073709551614", "4294967296"] {
            run_input_error(
                &words(&format!(
                    "mine sequence --csv {csv} --index n --value f1 --confirming-periods {k}"
                )),
                &[k, "--confirming-periods", "0 to 4294967295"],
            );
        }
        let t = Csv::run(&format!(
            "mine sequence --csv {csv} --index n --value f1 --confirming-periods 3 --format csv"
        ));
        assert_eq!(t.records()[0]["status"], "OBSERVED");
    }

    #[test]
    fn oversized_work_is_refused_before_it_starts() {
        refused_quickly(
            "cash thresholds --set 1 --max-n 2000000000 --defined-only",
            &["n ≤ 2000000000", "would need", "use n ≤"],
        );
        refused_quickly(
            "mine cash --set 1,4 --max-n 100000000000",
            &["n ≤ 100000000000", "would need"],
        );
        refused_quickly(
            "mine across cash --set 1,L --L 2..1000000",
            &["L = 1000000", "would need"],
        );
    }

    /// Values around 2³¹, 2³², 2⁶³, 2⁶⁴ in the move set and in n.
    fn near_powers() -> impl Strategy<Value = u64> {
        (prop::sample::select(vec![31u32, 32, 63, 64]), -3i64..=3).prop_map(|(e, d)| {
            let base = 1i128 << e;
            (base + i128::from(d)).clamp(1, i128::from(u64::MAX)) as u64
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        #[test]
        fn thresholds_match_def_3_1_for_any_a1(a1 in near_powers(), n in 0u64..40) {
            let t = Csv::run(&format!(
                "cash thresholds --set {a1} --max-n {n} --defined-only --format csv"
            ));
            prop_assert_eq!(t.rows.len() as u64, n + 1);
            for r in t.records() {
                let k: u64 = r["n"].parse().unwrap();
                let (g1, g2) = def_3_1(a1, k);
                prop_assert_eq!(r["g1"], &*g1.to_string());
                prop_assert_eq!(r["g2"], &*g2.to_string());
                // No move fits below a₁: nobody needs money.
                prop_assert_eq!((r["f1"], r["f2"]), ("0", "0"));
            }
        }

        #[test]
        fn huge_options_exit_cleanly(v in near_powers(), a1 in near_powers()) {
            for line in [
                format!("cash winner --set {a1} {v} {v} {v}"),
                format!("cash classify --set 1,{a1} {v} 3 4"),
                format!("cash table --set {a1} --max-n {v}"),
                format!("cash thresholds --set 1,{a1} --max-n {v} --defined-only"),
                format!("cash critical --set 1,{a1} --max-n {v}"),
                format!("mine cash --set 1,{a1} --max-n {v}"),
            ] {
                exits_cleanly_and_quickly(&line).map_err(TestCaseError::fail)?;
            }
        }
    }
}

/// Issue 18: state tables encoded with itoa and the inline CSV scan print what nimlab printed
/// at 1c4bf86, in every format. SHA-256 of that version's output, with the sizes in bytes.
#[test]
fn state_tables_print_what_the_previous_encoder_printed() {
    assert_output_digests(&[
        (
            "cash table --set 3,5,6,10,11 --max-n 100 --format csv",
            "e020d74a0b0ddf79a48bde39d064ff26e2330a8ee9a4361111a602ab6310d2da",
            11_469_896,
        ),
        (
            "cash table --set 1,3,4 --max-n 20 --format text",
            "7a1219d8e64d917ae153142f06e5661596dd211df0d8e4bd5a195b36f661a890",
            133_785,
        ),
        (
            "cash table --set 1,3,4 --max-n 12 --format json",
            "18be1d7f3a23e10636426ae6a69b27358e4db63959e2c3d2add1ebc10bad365b",
            81_654,
        ),
    ]);
}
