//! Verdicts of the `octal.*` builtins (Stewart's scoring octal games) on small claim files.

use crate::common;

use common::{check_findings as check, one_finding as one};
use nimlab::VerdictKind;

const HEAD: &str = "paper = \"t\"\n";

#[test]
fn lemma_13_holds_with_each_set_proven() {
    let f = one(&format!(
        "{HEAD}[[claim]]\nid = \"l\"\nlabel = \"Lemma 13\"\nstatement = \"\"\n\
         for = \"k in 1..5, i in 1..2\"\nbuiltin = \"octal.lemma_13\"\n\
         args = {{ k = \"k\", i = \"i\" }}\n"
    ));
    // Each S with max S ≤ 5 is proven for every i ≥ 1, but Lemma 13 speaks of every finite S:
    // HOLDS, each instance proven, with the proof of each instance.
    assert_eq!(f.verdict, VerdictKind::Holds, "{}", f.evidence());
    assert!(
        f.evidence()
            .starts_with("each instance proven (31 sets S): 31 sets $S$"),
        "{}",
        f.evidence()
    );
    assert!(matches!(
        f.proof,
        Some(nimlab::findings::Proof::FamilyPeriods { sets: 31, .. })
    ));
    let i = f.instances.as_ref().unwrap();
    assert_eq!((i.total, i.proven), (31, 31));
}

#[test]
fn stated_periods_are_proven_or_refuted_by_the_prover() {
    let claim = |id: &str, args: &str| {
        let range = if id == "late-range" {
            "30..60"
        } else {
            "0..60"
        };
        format!(
            "[[claim]]\nid = \"{id}\"\nlabel = \"{id}\"\nstatement = \"\"\nfor = \"n in {range}\"\n\
             builtin = \"octal.period\"\nargs = {{ n = \"n\", {args} }}\n"
        )
    };
    let src = [
        HEAD.to_string(),
        // Right: (3333, 2222) has least period 5 from n = 0.
        claim("right", "rules = \"(3333,2222)\", period = 5"),
        // 10 is a period of it, but not the least one.
        claim(
            "multiple",
            "rules = \"(3333,2222)\", period = 10, least = false",
        ),
        claim("not-least", "rules = \"(3333,2222)\", period = 10"),
        // {4,5}: least period 10 only from n = 27 on (G_s(26) = 5 ≠ G_s(36) = 4).
        claim(
            "wrong-period",
            "rules = \"{4,5}\", period = 5, preperiod = 27",
        ),
        // The range shows G_s(21) = 0 ≠ G_s(31) = 1.
        claim(
            "wrong-preperiod",
            "rules = \"{4,5}\", period = 10, preperiod = 20",
        ),
        // The range (n ≥ 30) shows nothing wrong; the prover's least preperiod 27 does.
        claim(
            "late-range",
            "rules = \"{4,5}\", period = 10, preperiod = 20",
        ),
    ]
    .concat();
    let f = check(&src);
    let verdicts: Vec<VerdictKind> = f.iter().map(|f| f.verdict).collect();
    assert_eq!(
        verdicts,
        [
            VerdictKind::Proven,
            VerdictKind::Proven,
            VerdictKind::Fails,
            VerdictKind::Fails,
            VerdictKind::Fails,
            VerdictKind::Fails,
        ],
        "{f:#?}"
    );
    assert!(
        f[2].evidence().contains("the least period is $5$"),
        "{}",
        f[2].evidence()
    );
    assert!(f[4].evidence().contains("n = 21"), "{}", f[4].evidence());
    assert!(
        f[5].evidence().contains("least preperiod is $27"),
        "{}",
        f[5].evidence()
    );
    assert!(f[5].evidence().contains("n = 26"), "{}", f[5].evidence());
}

#[test]
fn theorem_12_holds_and_conjecture_14_holds_with_each_set_proven() {
    let f = check(&format!(
        "{HEAD}[[claim]]\nid = \"t12\"\nlabel = \"Theorem 12\"\nstatement = \"\"\n\
         for = \"n in 0..8, m in 0..3\"\nbuiltin = \"octal.theorem_12\"\n\
         args = {{ n = \"n\", m = \"m\", rules = [\"{{4,5}}\", \"0.26\"], plus = [\"(137, 1,-2,1/2)\"] }}\n\
         [[claim]]\nid = \"c14\"\nlabel = \"Conjecture 14\"\nstatement = \"\"\n\
         for = \"k in 1..6\"\nbuiltin = \"octal.conjecture_14\"\nargs = {{ k = \"k\" }}\nopen = true\n"
    ));
    assert_eq!(f[0].verdict, VerdictKind::Holds, "{}", f[0].evidence());
    assert!(
        f[0].evidence().contains("72 positions"),
        "{}",
        f[0].evidence()
    );
    assert_eq!(f[1].verdict, VerdictKind::Holds, "{}", f[1].evidence());
    assert!(
        f[1].evidence()
            .starts_with("each instance proven (63 sets S): 63 sets $S$"),
        "{}",
        f[1].evidence()
    );
}

/// Runs a claim file that must fail quickly with a message containing every needle.
fn refused_quickly(src: &str, needles: &[&str]) {
    let start = std::time::Instant::now();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("c.toml");
    std::fs::write(&path, src).expect("claim file written");
    let out = common::nimlab()
        .args(["check", path.to_str().expect("UTF-8 path")])
        .output()
        .expect("nimlab runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains("panicked") && !text.contains("overflow"),
        "{text}"
    );
    for needle in needles {
        assert!(text.contains(needle), "no {needle:?} in {text}");
    }
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn theorem_12_on_a_long_game_neither_overflows_the_stack_nor_runs_away() {
    // A heap of 20 000 under a subtraction game: 20 000 moves deep. It used to overflow the
    // stack; the minimax now grows its stack, and this size fits its budget.
    let f = one(&format!(
        "{HEAD}[[claim]]\nid = \"t\"\nlabel = \"T12\"\nstatement = \"\"\n\
         for = \"n in 20000..20000, m in 0..0\"\nbuiltin = \"octal.theorem_12\"\n\
         args = {{ n = \"n\", m = \"m\", rules = [\"{{1,2}}\"] }}\n"
    ));
    assert_eq!(f.verdict, VerdictKind::Holds, "{}", f.evidence());
    // A breaking ruleset at that size is refused before the minimax starts, with the estimate.
    refused_quickly(
        &format!(
            "{HEAD}[[claim]]\nid = \"t\"\nlabel = \"T12\"\nstatement = \"\"\n\
             for = \"n in 20000..20000, m in 0..0\"\nbuiltin = \"octal.theorem_12\"\n\
             args = {{ n = \"n\", m = \"m\", rules = [\"0.26\"] }}\n"
        ),
        &["theorem_12", "positions", "use smaller n or m"],
    );
}

#[test]
fn family_builtins_budget_their_arguments_before_building_lists() {
    refused_quickly(
        &format!(
            "{HEAD}[[claim]]\nid = \"c\"\nlabel = \"C16\"\nstatement = \"\"\n\
             for = \"L in 12..12, m in 1..1\"\nbuiltin = \"octal.conjecture_16\"\n\
             args = {{ L = \"L\", m = \"m\", o_points = [1, 2, 3], p_points = [1, 2], p_len = 3 }}\n"
        ),
        &["instances", "more than the 100000"],
    );
    refused_quickly(
        &format!(
            "{HEAD}[[claim]]\nid = \"c\"\nlabel = \"C15\"\nstatement = \"\"\n\
             for = \"L in 2..2, m in 1..1\"\nbuiltin = \"octal.conjecture_15\"\n\
             args = {{ L = \"L\", m = \"m\", p_len = 1000000000 }}\n"
        ),
        &["p_len = 1000000000"],
    );
    // An enormous heap bound is refused with the estimate, not by the allocator.
    refused_quickly(
        &format!(
            "{HEAD}[[claim]]\nid = \"p\"\nlabel = \"P\"\nstatement = \"\"\n\
             for = \"n in 0..3\"\nbuiltin = \"octal.period\"\n\
             args = {{ n = \"n\", rules = \"0.26\", period = 2, max_heap = 4000000000 }}\n"
        ),
        &["`args.max_heap` = 4000000000", "would need", "positions"],
    );
}

#[test]
fn conjecture_15_holds_as_printed_and_its_pure_reading_fails() {
    let f = one(&format!(
        "{HEAD}[[claim]]\nid = \"c15\"\nlabel = \"Conjecture 15\"\nstatement = \"\"\n\
         for = \"t in 1..2, m in 0..0\"\nbuiltin = \"octal.conjecture_15\"\n\
         args = {{ L = \"t\", m = \"m\", max_heap = 200 }}\n"
    ));
    // The paper's gloss makes "for all n ≥ N" the statement as printed; it holds, each instance
    // proven, while "for all n ≥ 0" fails: the claim HOLDS as printed, the pure reading shown
    // beside it. That reading's counterexample is at a heap O can move from; the first failure,
    // O = 0.2 at n = 0, is told beside it.
    assert_eq!(f.verdict, VerdictKind::Holds, "{}", f.evidence());
    // The statement as printed leads.
    assert!(f.readings[0].literal && !f.readings[1].literal);
    assert_eq!(f.readings[0].finding.verdict, VerdictKind::Holds);
    assert_eq!(f.readings[1].finding.verdict, VerdictKind::Fails);
    let pure = f.readings[1].finding.evidence();
    assert!(pure.contains("a heap with a move"), "{pure}");
    assert!(pure.contains("a heap without a move"), "{pure}");
    assert!(pure.contains("$\\mathcal G_s("), "{pure}");
}

#[test]
fn the_largest_preperiod_over_max_s_is_checked_against_its_formula() {
    let src = |formula: &str| {
        format!(
            "{HEAD}[[claim]]\nid = \"mp\"\nlabel = \"M\"\nstatement = \"\"\n\
             for = \"k in 3..6\"\nbuiltin = \"octal.max_preperiod\"\n\
             args = {{ k = \"k\", preperiod = \"{formula}\" }}\n"
        )
    };
    let f = one(&src("(2k-1)*(k-2)"));
    assert_eq!(f.verdict, VerdictKind::Holds, "{}", f.evidence());
    assert!(
        f.evidence().contains("each instance proven"),
        "{}",
        f.evidence()
    );
    let wrong = one(&src("(2k-1)*(k-2) + 1"));
    assert_eq!(wrong.verdict, VerdictKind::Fails, "{}", wrong.evidence());
}

#[test]
fn conjecture_17_searches_periods_beyond_the_compared_heaps() {
    // 0.4 has least period 34 (preperiod 37), proven by the normal-play reduction only on
    // n ≥ 142: a search capped at the range's n ≤ 30 would list it as having no period.
    let f = one(&format!(
        "{HEAD}[[claim]]\nid = \"c17\"\nlabel = \"Conjecture 17\"\nstatement = \"\"\n\
         for = \"L in 1..1, m in 0..0, n in 0..30\"\nbuiltin = \"octal.conjecture_17\"\n\
         args = {{ L = \"L\", m = \"m\", n = \"n\", max_heap = 1000 }}\n"
    ));
    let eventual = &f
        .readings
        .iter()
        .find(|r| r.literal)
        .expect("the printed reading")
        .finding;
    // The family's facts are rows of a table (issue 16), shown after the readings.
    assert!(
        eventual
            .evidence()
            .contains("the family's periods in the table below"),
        "{}",
        eventual.evidence()
    );
    assert!(
        f.tables
            .iter()
            .flat_map(|t| &t.rows)
            .any(|r| r[0] == "largest least period (PROVEN)"
                && r[1].starts_with("$34$ at $O = 0.4,")),
        "{:?}",
        f.tables
    );
    // The NONE table: the one whose rows name instances.
    let listed = f
        .tables
        .iter()
        .filter(|t| t.columns[0] == "instance")
        .flat_map(|t| &t.rows);
    assert!(
        listed.clone().all(|r| !r[0].contains("O = 0.4,")),
        "{:?}",
        f.tables
    );
    // The NONE table compares the range's heaps only (its period search is its own column).
    assert!(
        listed.clone().all(|r| r[2] == "$0 \\le n \\le 30$"),
        "{:?}",
        f.tables
    );
}
