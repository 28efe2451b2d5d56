//! Typed findings (issue 15): the committed claim files' failures carry labelled
//! counterexamples, every finding survives a JSON round trip, and a claim checked in shards
//! merges into the finding of one run.

use std::collections::BTreeMap;
use std::path::Path;

use nimlab::{Finding, Registry, VerdictKind, check_claim, check_registry};

/// Every FAILS in `f`, its readings' included.
fn failures(f: &Finding) -> Vec<&Finding> {
    let mut out: Vec<&Finding> = f
        .readings
        .iter()
        .flat_map(|r| failures(&r.finding))
        .collect();
    if f.verdict == VerdictKind::Fails {
        out.push(f);
    }
    out
}

/// serialize → deserialize gives the same finding, with the same evidence.
fn assert_round_trip(f: &Finding) {
    let json = serde_json::to_string(f).expect("a finding serializes");
    let back: Finding = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(&back, f, "{json}");
    assert_eq!(back.evidence(), f.evidence());
}

/// The FAILS and AMBIGUOUS claims of the committed verdict tables, re-checked: the same evidence,
/// every failure with a counterexample whose coordinates are named and whose values are
/// labelled, and a JSON round trip that changes nothing.
#[test]
fn committed_failures_have_labelled_counterexamples_and_round_trip_through_json() {
    let mut seen = 0;
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    for entry in std::fs::read_dir(&reports).unwrap() {
        let dir = entry.unwrap().path();
        let table = dir.join("verdicts.csv");
        if !table.exists() {
            continue;
        }
        let mut committed: BTreeMap<String, String> = BTreeMap::new();
        let mut rd = csv::Reader::from_path(&table).unwrap();
        for row in rd.deserialize::<BTreeMap<String, String>>() {
            let row = row.unwrap();
            if row["verdict"] == "FAILS" || row["verdict"] == "AMBIGUOUS" {
                committed.insert(row["label"].clone(), row["evidence"].clone());
            }
        }
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/claims")
            .join(format!("{name}.toml"));
        let reg = Registry::load(&path).unwrap();
        let labels: Vec<String> = committed.keys().cloned().collect();
        // No label would mean every claim (an empty `only`): a paper with no failure has none
        // to re-check.
        if labels.is_empty() {
            continue;
        }
        for f in check_registry(&reg, false, &labels, &nimlab::Silent).unwrap() {
            assert_eq!(f.claim.paper, reg.paper);
            let shown = committed
                .get(&f.claim.label)
                .unwrap_or_else(|| panic!("{}: checked but not among the committed rows", f.claim));
            assert_eq!(&f.evidence(), shown, "{}", f.claim);
            for fail in failures(&f) {
                let ce = fail
                    .counterexample
                    .as_ref()
                    .unwrap_or_else(|| panic!("{}: a FAILS without a counterexample", f.claim));
                assert!(ce.is_labelled(), "{}: {ce:?}", f.claim);
                seen += 1;
            }
            assert_round_trip(&f);
        }
    }
    assert!(seen >= 20, "only {seen} failures checked");
}

/// The typed fields of one failing expression claim: the point by name, the values labelled
/// with the claim's own expressions (component by component for a list literal), the
/// correction as an expression that holds on the claim's range.
#[test]
fn an_expression_claim_fails_with_named_coordinates_labelled_values_and_a_typed_correction() {
    let src = "paper = \"t\"\n[[claim]]\nid = \"a\"\nlabel = \"A\"\nstatement = \"s\"\n\
               for = \"k in 1..4, m in 0..2\"\nactual = \"[k * m, k]\"\nexpected = \"[k + m, k]\"\n\
               correction = \"[k * m, k]\"\n";
    let reg = Registry::parse(Path::new("t.toml"), src).unwrap();
    let f = check_claim(&reg, &reg.claims[0], false).unwrap();
    assert_eq!(f.verdict, VerdictKind::Fails);
    assert_eq!(
        f.evidence(),
        "fails at k = 1, m = 0: expected ($k + m = 1$, $k = 1$), actual ($km = 0$, $k = 1$); \
         fails for every k on the range; the correction $[km, k]$ holds at all 12 points"
    );
    let ce = f.counterexample.as_ref().unwrap();
    let names: Vec<&str> = ce.point.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["k", "m"]);
    let labels = |side: &[nimlab::findings::Labelled]| -> Vec<String> {
        side.iter().map(|l| l.label.clone()).collect()
    };
    assert_eq!(labels(&ce.expected), ["k + m", "k"]);
    assert_eq!(labels(&ce.actual), ["k * m", "k"]);
    let c = f.correction.as_ref().unwrap();
    assert!(c.holds());
    assert_eq!(c.checked, 12);
    assert_eq!(c.range[0].text, "k in 1..4, m in 0..2");
    assert_eq!(c.range[0].binders.len(), 2);
    // The correction is the parsed expression (its spans point into the claim file).
    use nimlab::language::{BinOp, ExprKind};
    assert!(
        matches!(&c.expr.kind, ExprKind::List(items) if items.len() == 2
            && matches!(items[0].kind, ExprKind::Binary(BinOp::Mul, ..))),
        "{:?}",
        c.expr
    );
    assert_round_trip(&f);
}

/// One claim file per shard of `k in 1..12`, with the same claim.
fn shard(range: &str, expected: &str) -> Finding {
    let src = format!(
        "paper = \"t\"\n[[claim]]\nid = \"sq\"\nlabel = \"Squares\"\nstatement = \"s\"\n\
         for = \"{range}\"\nactual = \"k^2\"\nexpected = \"{expected}\"\n"
    );
    let reg = Registry::parse(Path::new("t.toml"), &src).unwrap();
    check_claim(&reg, &reg.claims[0], false).unwrap()
}

#[test]
fn a_claim_checked_in_shards_merges_into_the_single_run() {
    // HOLDS everywhere: the counts add up and the ranges are united.
    let whole = shard("k in 1..12", "k * k");
    let merged = shard("k in 1..4", "k * k")
        .merge(shard("k in 5..8", "k * k"))
        .and_then(|f| f.merge(shard("k in 9..12", "k * k")))
        .unwrap();
    assert_eq!(merged.verdict, VerdictKind::Holds);
    assert_eq!(merged.points, whole.points);
    assert_eq!(merged.evidence(), whole.evidence());
    assert_eq!(merged.range_text(), "k in 1..4; k in 5..8; k in 9..12");
    // k² = 5k − 6 holds at k = 2, 3 only: each shard fails at its first k, and shards merged in
    // any order or grouping keep the single run's first counterexample, k = 1.
    let whole = shard("k in 1..12", "5k - 6");
    let (a, b, c) = (
        shard("k in 1..4", "5k - 6"),
        shard("k in 5..8", "5k - 6"),
        shard("k in 9..12", "5k - 6"),
    );
    for merged in [
        a.clone()
            .merge(b.clone())
            .unwrap()
            .merge(c.clone())
            .unwrap(),
        c.clone()
            .merge(b.clone())
            .unwrap()
            .merge(a.clone())
            .unwrap(),
        a.clone()
            .merge(b.clone().merge(c.clone()).unwrap())
            .unwrap(),
    ] {
        assert_eq!(merged.verdict, VerdictKind::Fails);
        assert_eq!(merged.counterexample, whole.counterexample);
        assert!(
            merged
                .evidence()
                .starts_with("fails at k = 1: expected -1, actual 1"),
            "{}",
            merged.evidence()
        );
    }
    // Another claim does not merge.
    let other = {
        let src = "paper = \"t\"\n[[claim]]\nid = \"cube\"\nlabel = \"Cubes\"\nstatement = \"s\"\n\
                   for = \"k in 1..3\"\nholds = \"k^3 > 0\"\n";
        let reg = Registry::parse(Path::new("t.toml"), src).unwrap();
        check_claim(&reg, &reg.claims[0], false).unwrap()
    };
    let e = whole.merge(other).unwrap_err().to_string();
    assert!(
        e.contains("different claims") && e.contains("`sq`") && e.contains("`cube`"),
        "{e}"
    );
}

/// A check said in words (`checks`) is shown in place of its formula, while its range is still
/// typeset from the check; a helper that only the hidden formula uses gets no Notation entry,
/// and a correction is still typeset from its expression.
#[test]
fn a_check_in_words_replaces_its_formula_but_not_its_range_or_correction() {
    let file = r#"
paper = "toy"
define = [
  { def = "SUCC(k) = [k + 1, k + 2]", display = '\mathrm{succ}(#k)', means = 'the two successors of $k$' },
]
[[claim]]
id = "succ"
label = "Lemma 1"
statement = "The successors of $k$ are $k + 1$ and $k + 3$."
for = "k in 0..4"
actual = "SUCC(k)"
expected = "[k + 1, k + 3]"
correction = "[k + 1, k + 2]"
checks = '''the two successors of $k$ are $k + 1$ and $k + 3$'''
"#;
    let registry = Registry::parse(Path::new("toy.toml"), file).unwrap();
    let finding = check_claim(&registry, &registry.claims[0], false).unwrap();
    assert_eq!(finding.verdict, VerdictKind::Fails);
    let e = nimlab::reports::claim_entry(&registry, &finding, "nimlab check toy.toml");
    let reading = e.reading.as_ref().unwrap();
    assert_eq!(
        reading.formula,
        "the two successors of $k$ are $k + 1$ and $k + 3$"
    );
    assert_eq!(reading.range.as_deref(), Some("$0 \\le k \\le 4$"));
    let correction = e.correction.as_ref().unwrap();
    assert!(
        correction.statement.formula.contains("\\mathrm{succ}(k)"),
        "{:?}",
        correction.statement
    );
}
