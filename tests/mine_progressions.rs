//! The general PWL-family miner (issue 19, item 1) on payoffs computed by the Scoring Nim
//! engine: families no fixed template describes get a form of progressions of breakpoints whose
//! numbers are periodic-linear in k; the form must predict the engine's payoffs on members the
//! miner never saw (up to twice the mined range), a perturbed member must be reported as an
//! anomaly, and residue classes are written with an index that is not k.

use nimlab::Pwl;
use nimlab::mining::{NoProgressionForm, mine_progressions};
use nimlab::scoring::{Method, nim_heaps, scoring_nim, solve};

use crate::common::run_ok;

/// f_N of the members k = 1..=last of a family given by its heaps in k, one solve of the
/// largest member serving all (Nim never splits heaps).
fn payoffs(heaps: impl Fn(i64) -> Vec<u32>, last: i64) -> Vec<Pwl> {
    let mut hull = heaps(last);
    hull.sort_unstable_by(|a, b| b.cmp(a));
    for k in 1..last {
        let mut h = heaps(k);
        h.sort_unstable_by(|a, b| b.cmp(a));
        for (x, v) in hull.iter_mut().zip(h) {
            *x = (*x).max(v);
        }
    }
    let sol = solve(
        &scoring_nim(),
        &nim_heaps(&hull),
        Method::Auto,
        &Default::default(),
    )
    .unwrap();
    (1..=last)
        .map(|k| sol.payoff(&nim_heaps(&heaps(k))).unwrap())
        .collect()
}

fn u(x: i64) -> u32 {
    u32::try_from(x).unwrap()
}

/// The families of issue 19 that the fixed templates miss, with the period the form must have
/// (`2k+1,2k,2,1`: peaks of 4 at ±(2 + 6j), tails depending on k mod 3, as the issue says).
#[allow(clippy::type_complexity)]
const FAMILIES: [(&str, fn(i64) -> Vec<u32>, usize); 4] = [
    ("2k+1,2k,2,1", |k| vec![u(2 * k + 1), u(2 * k), 2, 1], 3),
    ("k+2,k,2", |k| vec![u(k + 2), u(k), 2], 4),
    ("2k+1,2k,3,1", |k| vec![u(2 * k + 1), u(2 * k), 3, 1], 2),
    ("2k,k,1", |k| vec![u(2 * k), u(k), 1], 2),
];

#[test]
fn forms_mined_on_k_up_to_14_predict_the_engine_up_to_28() {
    for (name, heaps, period) in FAMILIES {
        let all = payoffs(heaps, 28);
        let form = mine_progressions("k", 1, &all[..14]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(form.period, period, "{name}");
        assert!(form.anomalies.is_empty(), "{name}: {:?}", form.anomalies);
        for k in form.from..=28 {
            let predicted = form.member(k);
            assert_eq!(
                predicted.as_ref(),
                Some(&all[k as usize - 1]),
                "{name} at k = {k}"
            );
        }
    }
}

#[test]
fn a_perturbed_member_is_an_anomaly_with_its_breaking_value() {
    let (_, heaps, _) = FAMILIES[0];
    let mut fs = payoffs(heaps, 16);
    let clean = mine_progressions("k", 1, &fs).unwrap();
    // Member k = 9: move its breakpoint at N = 8 to N = 15/2 (same value there).
    let j = 8;
    let f = &fs[j];
    let points: Vec<_> = f
        .breakpoints()
        .iter()
        .map(|(x, y)| {
            if *x == nimlab::Q::int(8) {
                (nimlab::Q::frac(15, 2), y.clone())
            } else {
                (x.clone(), y.clone())
            }
        })
        .collect();
    let perturbed =
        Pwl::from_points(f.left_slope().clone(), points, f.right_slope().clone()).unwrap();
    assert_ne!(&perturbed, f);
    fs[j] = perturbed.clone();
    let form = mine_progressions("k", 1, &fs).unwrap();
    assert_eq!(form.anomalies.len(), 1, "{form:?}");
    let a = &form.anomalies[0];
    assert_eq!(a.member, 9);
    // The breaking value is where the member and the form really differ, and the form is the
    // one mined from the clean data.
    assert_eq!(perturbed.eval(&a.at), a.data);
    assert_ne!(a.form, a.data);
    assert_eq!((form.period, form.from), (clean.period, clean.from));
    assert_eq!(form.classes, clean.classes);
    // Every other member is still described.
    for (i, f) in fs.iter().enumerate() {
        let k = i as i64 + 1;
        if k >= form.from && k != 9 {
            assert_eq!(form.member(k).as_ref(), Some(f), "k = {k}");
        }
    }
}

#[test]
fn an_irregular_family_gets_a_reason_in_its_own_parameter() {
    let fs = payoffs(|k| vec![u(3 * k), u(2 * k), u(k)], 12);
    match mine_progressions("m", 1, &fs) {
        Err(why @ NoProgressionForm::ShapeNotPeriodic { first, last, .. }) => {
            assert_eq!((first, last), (1, 12));
            let text = why.to_string();
            assert!(text.contains("periodic in m on m = 1..12"), "{text}");
            assert!(!text.contains("in k") && !text.contains("k ="), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn mine_family_scoring_falls_back_to_progressions_and_re_verifies() {
    let text = run_ok(&["mine", "family", "scoring", "2k+1,2k,2,1", "--k", "1..14"]);
    for needle in [
        "payoff: breakpoints as progressions in N, period 3 in k, from k = 3",
        "breakpoints(k = 3j) = 4j+1",
        "rebuilt from the expression exactly on every member of the data from k = 3",
        "re-verified with `nimlab check` on k = 3..28 (14 beyond the data): HOLDS",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // Residue classes never reuse the family's parameter as their index.
    let text = run_ok(&["mine", "family", "scoring", "2k,k,1", "--k", "1..14"]);
    assert!(
        text.contains("breakpoints(k = 2j) = 4j-1  (j ≥ 1)"),
        "{text}"
    );
    assert!(!text.contains("(2k)") && !text.contains("(2k+1)"), "{text}");
    // No form: the reason.
    let text = run_ok(&["mine", "family", "scoring", "3k,2k,k", "--k", "1..10"]);
    assert!(
        text.contains("payoff: no closed form: the number and kind of the progressions is not eventually periodic in k on k = 1..10"),
        "{text}"
    );
    // And none exists for any range: its members of nim-sum 0 are the k without two adjacent
    // binary ones, which no period follows.
    assert!(
        text.contains("payoff: no form of the miner's shapes exists for any range (proven): the members (3k,2k,k) with nim-sum 0 are not eventually periodic in k"),
        "{text}"
    );
    assert!(!run_ok(&["mine", "family", "scoring", "2k,k,1", "--k", "1..14"]).contains("(proven)"));
    // The CSV carries the form's rows with their status, one per residue class.
    let csv = run_ok(&[
        "mine",
        "family",
        "scoring",
        "2k+1,2k,2,1",
        "--k",
        "1..14",
        "--format",
        "csv",
    ]);
    let rows: Vec<&str> = csv
        .lines()
        .filter(|l| l.starts_with("payoff,3,3,"))
        .collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(
        rows.iter().all(|r| r.ends_with("HOLDS on k = 3..28")),
        "{csv}"
    );
}
