//! Verdicts of the `cash.*` builtins (NIM with Cash) on small claim files and on the registry.

use crate::common;

use common::one_finding as one;
use nimlab::{Finding, Registry, VerdictKind, check_claim};
use std::path::Path;

fn claim(builtin: &str, args: &str) -> String {
    format!(
        "paper = \"t\"\n[[claim]]\nid = \"c\"\nlabel = \"c\"\nstatement = \"\"\n\
         builtin = \"{builtin}\"\n[claim.args]\n{args}\n"
    )
}

/// The appendix's printed table (A = {3, 5, 6, 10, 11}, f(16k + i) = B_i k + c_i).
const PRINTED_F1: &str = "[[11, 3], [10, 3], [11, 5], [10, 5], [10, 3], [11, 3], [10, 5], \
                          [10, 6], [11, 6], [10, 8], [11, 10], [10, 10], [10, 8], [11, 11], \
                          [10, 10], [10, 11]]";
const PRINTED_F2: &str = "[[11, 0], [10, 0], [11, 0], [11, 3], [11, -1], [11, 5], [11, 3], \
                          [11, 5], [11, 5], [10, 5], [11, 3], [11, 6], [11, 5], [11, 10], \
                          [11, 6], [11, 10]]";
/// The certified table (`nimlab mine cash --set 3,5,6,10,11`).
const TRUE_F1: &str = "[[11, 2], [11, -2], [11, 4], [10, 5], [10, 3], [11, 3], [10, 5], \
                       [10, 6], [11, 6], [11, 5], [11, 10], [10, 10], [10, 8], [11, 11], \
                       [10, 10], [10, 11]]";
const TRUE_F2: &str = "[[11, 0], [10, 0], [11, 0], [11, 2], [11, -1], [11, 4], [11, 2], \
                       [11, 4], [11, 4], [10, 5], [11, 3], [11, 6], [11, 5], [11, 10], \
                       [11, 6], [11, 10]]";

fn appendix(from_k: u32, f1: &str, f2: &str) -> Finding {
    one(&claim(
        "cash.appendix",
        &format!("set = [3, 5, 6, 10, 11]\nperiod = 16\nfrom_k = {from_k}\nf1 = {f1}\nf2 = {f2}\n"),
    ))
}

#[test]
fn the_printed_appendix_has_nine_wrong_entries() {
    let f = appendix(4, PRINTED_F1, PRINTED_F2);
    assert_eq!(f.verdict, VerdictKind::Fails, "{}", f.evidence());
    let e = &f.evidence();
    assert!(
        e.starts_with(
            "fails at $n = 64$ ($16k + i$ with $k = 4$, $i = 0$): the printed line gives \
             $f^{\\mathrm{I}}(n) = 11 \\cdot 4 + 3 = 47$, Def 2.3 gives $46$"
        ),
        "{e}"
    );
    assert!(e.contains("9 of 32 entries are wrong"), "{e}");
    // The printed table, one row per residue with the wrong lines marked, then the wrong
    // entries as rows of a table (issue 16: a list is a table, not a sentence).
    let [printed, table] = f.tables.as_slice() else {
        panic!(
            "the printed table and the table of wrong entries: {:?}",
            f.tables
        )
    };
    assert_eq!(printed.rows.len(), 16, "{printed:?}");
    assert_eq!(
        printed.rows[0],
        ["$0$", "$11k + 3$ ✗", "$11k$"],
        "{printed:?}"
    );
    assert_eq!(
        printed.rows[3],
        ["$3$", "$10k + 5$", "$11k + 3$ ✗"],
        "{printed:?}"
    );
    let marked = printed
        .rows
        .iter()
        .flatten()
        .filter(|c| c.ends_with('✗'))
        .count();
    assert_eq!(marked, 9, "{printed:?}");
    assert_eq!(table.rows.len(), 9, "{table:?}");
    let certified: Vec<&str> = table.rows.iter().map(|r| r[2].as_str()).collect();
    for wrong in [
        r"$f^{\mathrm{I}}(16k) = 11k + 2$",
        r"$f^{\mathrm{I}}(16k + 1) = 11k - 2$ ($k \ge 5$)",
        r"$f^{\mathrm{I}}(16k + 2) = 11k + 4$",
        r"$f^{\mathrm{I}}(16k + 9) = 11k + 5$",
        r"$f^{\mathrm{II}}(16k + 3) = 11k + 2$",
        r"$f^{\mathrm{II}}(16k + 5) = 11k + 4$",
        r"$f^{\mathrm{II}}(16k + 6) = 11k + 2$",
        r"$f^{\mathrm{II}}(16k + 7) = 11k + 4$",
        r"$f^{\mathrm{II}}(16k + 8) = 11k + 4$",
    ] {
        assert!(
            certified.iter().any(|c| c.starts_with(wrong)),
            "{wrong} missing: {certified:?}"
        );
    }
    // f^I(65) = 43 and f^I(81) = 53 agree with the printed 10k + 3: it first fails at k = 6.
    assert!(
        table
            .rows
            .iter()
            .any(|r| r[0] == r"$f^{\mathrm{I}}(16k + 1) = 10k + 3$" && r[1] == "$k = 6$"),
        "{table:?}"
    );
    assert!(
        e.contains("(thresholds 16 of the plain-game winner, 7 of the plain-game loser)"),
        "{e}"
    );
    assert!(e.contains(r"holds for every $k \ge 5$ (PROVEN)"), "{e}");
}

#[test]
fn the_certified_table_is_proven_from_k_5_but_not_from_k_4() {
    let f = appendix(5, TRUE_F1, TRUE_F2);
    assert_eq!(f.verdict, VerdictKind::Proven, "{}", f.evidence());
    assert!(
        f.evidence().contains("all 32 printed entries"),
        "{}",
        f.evidence()
    );
    // f^I(65) = 43, not 11·4 − 2: the direct part of the check sees it.
    let f = appendix(4, TRUE_F1, TRUE_F2);
    assert_eq!(f.verdict, VerdictKind::Fails, "{}", f.evidence());
    assert!(
        f.evidence().starts_with(
            "fails at $n = 65$ ($16k + i$ with $k = 4$, $i = 1$): the printed line gives \
                 $f^{\\mathrm{I}}(n) = 11 \\cdot 4 - 2 = 42$, Def 2.3 gives $43$"
        ),
        "{}",
        f.evidence()
    );
    assert!(
        f.evidence().contains("1 of 32 entries are wrong"),
        "{}",
        f.evidence()
    );
}

#[test]
fn a_deliberately_wrong_table_fails_beyond_the_direct_range() {
    // f^II(16k + 15) = 11k + 10 printed as 12k + 5: right at k = 5 only, wrong for every other k,
    // so the failure lies beyond the first k checked and must still be found.
    let f2 = TRUE_F2.replace("[11, 6], [11, 10]]", "[11, 6], [12, 5]]");
    let f = appendix(5, TRUE_F1, &f2);
    assert_eq!(f.verdict, VerdictKind::Fails, "{}", f.evidence());
    // 12k + 5 = 11k + 10 only at k = 5: the first failure is f^II(16·6 + 15) = f^II(111).
    assert!(
        f.evidence().starts_with(
            "fails at $n = 111$ ($16k + i$ with $k = 6$, $i = 15$): the printed line gives \
                 $f^{\\mathrm{II}}(n) = 12 \\cdot 6 + 5 = 77$, Def 2.3 gives $76$"
        ),
        "{}",
        f.evidence()
    );
}

#[test]
fn three_five_six_ten_eleven_is_proven_not_cash_periodic() {
    let f = one(&claim("cash.not_cash_periodic", "set = [3, 5, 6, 10, 11]"));
    assert_eq!(f.verdict, VerdictKind::Proven, "{}", f.evidence());
    assert!(
        f.evidence().contains(concat!(
            r"$C^{\mathrm{II}}(16k, 5) = 11k - 10k = k$ for every $k \ge 5$ ",
            r"($C^{\mathrm{II}}(n, a) = f^{\mathrm{II}}(n) - f^{\mathrm{I}}(n - a)$, ",
            r"by the certified lines $f^{\mathrm{II}}(16k) = 11k$ and ",
            r"$f^{\mathrm{I}}(16k + 11) = 10k + 10$"
        )),
        "{}",
        f.evidence()
    );
    // {1, 3, 4} is cash-periodic (Lemma 6.4): the claim fails for it.
    let f = one(&claim("cash.not_cash_periodic", "set = [1, 3, 4]"));
    assert_eq!(f.verdict, VerdictKind::Fails, "{}", f.evidence());
    assert!(
        f.evidence().contains("least period $7$"),
        "{}",
        f.evidence()
    );
}

#[test]
fn wins_by_tells_normally_from_miserly() {
    let src = claim(
        "cash.wins_by",
        "set = [1, 3, 4]\ncases = [\n  { n = 14, d = 4, e = 4, winner = \"II\", how = \"miserly\" },\n  \
         { n = 9, d = 8, e = 5, winner = \"I\", how = \"miserly\" },\n  \
         { n = 10, d = 7, e = 7, winner = \"I\", how = \"normally\" },\n]",
    );
    let f = one(&src);
    assert_eq!(f.verdict, VerdictKind::Holds, "{}", f.evidence());
    // (10; 8, 6) is won normally only: the always-remove-1 strategy loses.
    let src = claim(
        "cash.wins_by",
        "set = [1, 3, 4]\ncases = [{ n = 10, d = 8, e = 6, winner = \"I\", how = \"miserly\" }]",
    );
    let f = one(&src);
    assert_eq!(f.verdict, VerdictKind::Fails, "{}", f.evidence());
    assert!(
        f.evidence()
            .contains("expected I wins miserly, actual I wins normally"),
        "{}",
        f.evidence()
    );
}

#[test]
fn one_slope_from_zero_is_decided_per_set() {
    let f = one(&claim(
        "cash.closed_forms",
        "claim = \"one_slope_from_zero\"\nsets = [[1, 2], [3, 5, 6, 10, 11]]",
    ));
    assert_eq!(f.verdict, VerdictKind::Fails, "{}", f.evidence());
    assert!(
        f.evidence().contains(concat!(
            r"A = {3,5,6,10,11}: $f^{\mathrm{I}}(16k) = 11k + 2$ ($k \ge 1$) but ",
            r"$f^{\mathrm{I}}(16k + 3) = 10k + 5$ ($k \ge 2$)"
        )),
        "{}",
        f.evidence()
    );
    assert!(
        f.evidence().contains("satisfied (PROVEN) by 1 set"),
        "{}",
        f.evidence()
    );
    let f = one(&claim(
        "cash.closed_forms",
        "claim = \"one_slope_from_zero\"\nsets = [[1, 2], [1, 3, 4]]",
    ));
    // Every listed set certified and satisfying it: each instance proven, HOLDS.
    assert_eq!(f.verdict, VerdictKind::Holds, "{}", f.evidence());
    assert!(
        f.evidence()
            .starts_with("each instance proven (2 listed sets A): no listed set refutes it"),
        "{}",
        f.evidence()
    );
    let i = f.instances.as_ref().unwrap();
    assert_eq!((i.total, i.proven), (2, 2));
}

#[test]
fn the_registry_builtin_claims_give_their_expected_verdicts() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/claims/nim-with-cash.toml");
    let reg = Registry::load(&path).expect("the registry loads");
    let expected = [
        ("ex-1.11-2", VerdictKind::Holds),
        ("ex-1.11-3", VerdictKind::Holds),
        ("rem-4-not-cash-periodic", VerdictKind::Proven),
        ("sec9-conj-1", VerdictKind::Fails),
        ("sec9-conj-2", VerdictKind::Holds),
        ("sec9-conj-3", VerdictKind::Open),
        ("appendix", VerdictKind::Fails),
    ];
    for (id, verdict) in expected {
        let c = reg
            .claims
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("claim {id}"));
        let f = check_claim(&reg, c, false).expect("the check runs");
        assert_eq!(f.verdict, verdict, "{id}: {}", f.evidence());
    }
}

#[test]
fn the_win_condition_evidence_proves_sets_the_corresponding_state_alone_does_not_decide() {
    // {3,4,8}: the corresponding state mod its cash period does not decide the winner (Def 4.3
    // fails at n = 27 and 39), yet a finer condition is PROVEN; {3,5,6,10,11} is not cash-periodic.
    let f = one(&claim(
        "cash.closed_forms",
        "claim = \"win_condition\"\nsets = [[1, 4], [3, 4, 8], [3, 5, 6, 10, 11]]",
    ));
    assert_eq!(f.verdict, VerdictKind::Open, "{}", f.evidence());
    for needle in [
        "decides the winner for 1 set and does not for 1",
        "not cash-periodic for 1",
        "PROVEN for every $n$ for 2 of 3 sets",
    ] {
        assert!(f.evidence().contains(needle), "{needle}: {}", f.evidence());
    }
    // Each set is a row of the table, not a clause of the sentence.
    let rows = &f.tables[0].rows;
    let row = |set: &str| rows.iter().find(|r| r[0] == set).expect(set);
    assert_eq!(rows.len(), 3);
    assert!(row(r"$\lbrace 3, 4, 8\rbrace$")[2].starts_with("does not decide"));
    assert_eq!(
        row(r"$\lbrace 1, 4\rbrace$")[3],
        r"PROVEN for $n \ge 0$: boundaries by $n \bmod 5$"
    );
    assert!(
        row(r"$\lbrace 3, 4, 8\rbrace$")[3]
            .starts_with(r"PROVEN for $n \ge 25$: boundaries by $n \bmod 12$, edge layer")
    );
    assert!(row(r"$\lbrace 3, 5, 6, 10, 11\rbrace$")[3].starts_with("none"));
    assert!(f.evidence().len() < 600, "{}", f.evidence());
}
