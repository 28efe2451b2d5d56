//! Verdicts of the `octal.*` builtins (Stewart's scoring octal games) on small claim files.

mod common;

use common::{check_findings as check, one_finding as one};
use nimlab::claims::VerdictKind;

const HEAD: &str = "paper = \"t\"\n";

#[test]
fn lemma_13_is_proven_on_small_sets() {
    let f = one(&format!(
        "{HEAD}[[claim]]\nid = \"l\"\nlabel = \"Lemma 13\"\nstatement = \"\"\n\
         for = \"k in 1..5, i in 1..2\"\nbuiltin = \"octal.lemma_13\"\n\
         args = {{ k = \"k\", i = \"i\" }}\n"
    ));
    assert_eq!(f.verdict, VerdictKind::Proven, "{}", f.evidence);
    assert!(f.evidence.contains("31 sets S"), "{}", f.evidence);
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
        f[2].evidence.contains("actual least period 5"),
        "{}",
        f[2].evidence
    );
    assert!(f[4].evidence.contains("n = 21"), "{}", f[4].evidence);
    assert!(
        f[5].evidence.contains("least preperiod is 27"),
        "{}",
        f[5].evidence
    );
    assert!(f[5].evidence.contains("n = 26"), "{}", f[5].evidence);
}

#[test]
fn theorem_12_holds_and_conjecture_14_stays_open() {
    let f = check(&format!(
        "{HEAD}[[claim]]\nid = \"t12\"\nlabel = \"Theorem 12\"\nstatement = \"\"\n\
         for = \"n in 0..8, m in 0..3\"\nbuiltin = \"octal.theorem_12\"\n\
         args = {{ n = \"n\", m = \"m\", rules = [\"{{4,5}}\", \"0.26\"], plus = [\"(137, 1,-2,1/2)\"] }}\n\
         [[claim]]\nid = \"c14\"\nlabel = \"Conjecture 14\"\nstatement = \"\"\n\
         for = \"k in 1..6\"\nbuiltin = \"octal.conjecture_14\"\nargs = {{ k = \"k\" }}\nopen = true\n"
    ));
    assert_eq!(f[0].verdict, VerdictKind::Holds, "{}", f[0].evidence);
    assert!(f[0].evidence.contains("72 positions"), "{}", f[0].evidence);
    assert_eq!(f[1].verdict, VerdictKind::Open, "{}", f[1].evidence);
    assert!(f[1].evidence.contains("63 sets S"), "{}", f[1].evidence);
}
