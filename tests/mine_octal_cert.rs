//! `nimlab mine octal --certificate` and `nimlab mine replay` for G_s period certificates (issue
//! 6): certificates replay VALID, state the period and preperiod `mine octal` prints, and every
//! tampered field — a value, the period, a shorter order, a different game — is REJECTED with
//! exit status 2.

use crate::common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::{Value, json};

/// Runs `mine octal ARGS --certificate DIR/NAME` and returns the certificate's path and JSON,
/// after checking that the output is the same as without the flag.
fn certify(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, Value) {
    let path = dir.join(name);
    let mut with = vec!["mine", "octal"];
    with.extend(args);
    let plain = run_ok(&with);
    with.extend(["--certificate", path.to_str().unwrap()]);
    assert_eq!(run_ok(&with), plain, "{args:?}: output with --certificate");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(json["kind"], "octal-period");
    (path, json)
}

/// The (preperiod, period) that `mine octal ARGS --format csv` prints on every row.
fn printed_period(args: &[&str]) -> (u64, u64) {
    let mut all = vec!["mine", "octal"];
    all.extend(args);
    all.extend(["--format", "csv"]);
    let t = Csv::run_args(&all);
    let recs = t.records();
    let first = (
        int(recs[0]["preperiod"]) as u64,
        int(recs[0]["period"]) as u64,
    );
    assert!(recs.iter().all(|r| r["status"] == "PROVEN"), "{args:?}");
    assert!(
        recs.iter()
            .all(|r| (int(r["preperiod"]) as u64, int(r["period"]) as u64) == first)
    );
    assert_eq!(recs.len() as u64, first.1, "one row per residue");
    first
}

/// Replays the certificate and expects VALID.
fn assert_valid(path: &Path) -> String {
    let out = run_ok(&["mine", "replay", path.to_str().unwrap()]);
    assert!(out.contains("VALID"), "{out}");
    out
}

/// Writes `json` edited by `edit` beside `path` and expects the replay to be REJECTED with
/// exit status 2 and every needle in the message.
fn assert_rejected(path: &Path, json: &Value, edit: impl FnOnce(&mut Value), needles: &[&str]) {
    let mut bad = json.clone();
    edit(&mut bad);
    let file = path.with_file_name("tampered.json");
    std::fs::write(&file, serde_json::to_string_pretty(&bad).unwrap()).unwrap();
    let mut all = vec!["REJECTED"];
    all.extend(needles);
    run_input_error(&["mine", "replay", file.to_str().unwrap()], &all);
}

/// The value `v` (a number as a string) plus one, as a string.
fn plus_one(v: &Value) -> Value {
    let n: i64 = v.as_str().unwrap().parse().unwrap();
    json!((n + 1).to_string())
}

/// The certificate inside the file.
fn claim(v: &mut Value) -> &mut Value {
    &mut v["certificate"]
}

/// The window certificate of a proof over values.
fn values_proof(v: &mut Value) -> &mut Value {
    &mut v["certificate"]["proof"]["values"]
}

/// The proof over states (positions and window certificate).
fn states_proof(v: &mut Value) -> &mut Value {
    &mut v["certificate"]["proof"]["states"]
}

#[test]
fn subtraction_4_5_certificate_replays_and_states_the_printed_period() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--subtract", "4,5"];
    let (path, json) = certify(dir.path(), "gs.json", &args);
    let c = &json["certificate"];
    // Table 1 of Stewart's paper and `mine octal`: least period 10 from n = 27.
    assert_eq!(printed_period(&args), (27, 10));
    assert_eq!(
        (c["preperiod"].as_u64(), c["period"].as_u64()),
        (Some(27), Some(10))
    );
    assert_eq!(c["rules"], json!(["{4,5}"]));
    let w = &c["proof"]["values"];
    assert_eq!(
        (w["order"].as_u64(), w["recurrence_from"].as_u64()),
        (Some(5), Some(6))
    );
    assert_eq!(w["base"].as_array().unwrap().len(), 37);
    // G_s(13) = 3 (Table 1).
    assert_eq!(w["base"][13], "3");
    let out = assert_valid(&path);
    assert!(
        out.contains("G_s(n) under {4,5}: least period 10, least preperiod 27, PROVEN for all n"),
        "{out}"
    );
}

#[test]
fn tampering_with_any_field_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let (path, json) = certify(dir.path(), "gs.json", &["--subtract", "4,5"]);
    let (c, w) = (claim, values_proof);
    // A wrong value in the base and in the window.
    assert_rejected(
        &path,
        &json,
        |v| w(v)["base"][13] = plus_one(&w(v)["base"][13]),
        &["base value a(13) is 4"],
    );
    assert_rejected(
        &path,
        &json,
        |v| w(v)["window"][2] = plus_one(&w(v)["window"][2]),
        &["window value a(29)"],
    );
    // A wrong period or preperiod: in the claim, in the proof, or in both with a base to match.
    assert_rejected(
        &path,
        &json,
        |v| c(v)["period"] = json!(20),
        &["claims least preperiod 27 and period 20"],
    );
    assert_rejected(
        &path,
        &json,
        |v| c(v)["preperiod"] = json!(26),
        &["claims least preperiod 26"],
    );
    assert_rejected(
        &path,
        &json,
        |v| w(v)["period"] = json!(5),
        &["base holds 37 values"],
    );
    assert_rejected(
        &path,
        &json,
        |v| {
            w(v)["period"] = json!(9);
            w(v)["base"].as_array_mut().unwrap().pop();
        },
        &["9 is not a period"],
    );
    assert_rejected(
        &path,
        &json,
        |v| {
            w(v)["preperiod"] = json!(28);
            w(v)["window_start"] = json!(28);
            let base = w(v)["base"].clone();
            let a = base.as_array().unwrap();
            w(v)["base"].as_array_mut().unwrap().push(a[27].clone());
            w(v)["window"] = json!(a[28..33]);
            c(v)["preperiod"] = json!(28);
        },
        &["preperiod 28 is not the least"],
    );
    // A shorter order (with a window to match), an earlier start of the recurrence.
    assert_rejected(
        &path,
        &json,
        |v| {
            w(v)["order"] = json!(4);
            w(v)["window"].as_array_mut().unwrap().pop();
        },
        &["order 4 is smaller than the look-back 5 that {4,5} needs"],
    );
    assert_rejected(
        &path,
        &json,
        |v| w(v)["recurrence_from"] = json!(5),
        &["holds from n = 6"],
    );
    assert_rejected(
        &path,
        &json,
        |v| w(v)["window_start"] = json!(26),
        &["before the preperiod 27 ends"],
    );
    // A different game: rules, bonus, fixed heaps.
    assert_rejected(
        &path,
        &json,
        |v| c(v)["rules"] = json!(["{4,6}"]),
        &["look-back 6"],
    );
    assert_rejected(
        &path,
        &json,
        |v| c(v)["rules"] = json!(["{3,5}"]),
        &["base value a(3) is 0, but the sequence has 3"],
    );
    assert_rejected(
        &path,
        &json,
        |v| c(v)["rules"] = json!(["0.26"]),
        &["breaks heaps"],
    );
    assert_rejected(
        &path,
        &json,
        |v| c(v)["rules"] = json!(["0.9"]),
        &["rules[0] '0.9'"],
    );
    assert_rejected(
        &path,
        &json,
        |v| c(v)["bonus"] = json!("1"),
        &["base value a(0) is 0, but the sequence has -1"],
    );
    assert_rejected(
        &path,
        &json,
        |v| c(v)["plus"] = json!(["4@1"]),
        &["runs on states"],
    );
    assert_rejected(
        &path,
        &json,
        |v| c(v)["plus"] = json!(["4@2"]),
        &["plus heap '4@2'"],
    );
    // A certificate of another kind, and fields that are not there.
    assert_rejected(
        &path,
        &json,
        |v| v["kind"] = json!("cash-thresholds"),
        &["not a well-formed cash-thresholds certificate"],
    );
    assert_rejected(
        &path,
        &json,
        |v| w(v)["extra"] = json!(1),
        &["not a well-formed octal-period"],
    );
    let mut other = json.clone();
    other["kind"] = json!("nonsense");
    let file = dir.path().join("other.json");
    std::fs::write(&file, other.to_string()).unwrap();
    run_input_error(
        &["mine", "replay", file.to_str().unwrap()],
        &["unknown certificate kind 'nonsense'"],
    );
    // The untouched certificate still replays.
    assert_valid(&path);
}

#[test]
fn stewarts_3333_2222_and_a_bonus_certify_too() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--rules", "(3333, 2222)"];
    let (path, json) = certify(dir.path(), "s.json", &args);
    let c = &json["certificate"];
    // Stewart's (3333, 2222) table: period 5 (proven by `mine octal` through normal play).
    assert_eq!(printed_period(&args), (0, 5));
    assert_eq!(
        (c["preperiod"].as_u64(), c["period"].as_u64()),
        (Some(0), Some(5))
    );
    assert_eq!(c["rules"], json!(["(3333, 2,2,2,2)"]));
    assert_valid(&path);
    assert_rejected(
        &path,
        &json,
        |v| v["certificate"]["rules"] = json!(["(3333, 2,2,2,1)"]),
        &["base value"],
    );

    let args = ["--subtract", "4,5", "--bonus", "3"];
    let (path, json) = certify(dir.path(), "b.json", &args);
    let (pre, per) = printed_period(&args);
    let c = &json["certificate"];
    assert_eq!(
        (c["preperiod"].as_u64(), c["period"].as_u64()),
        (Some(pre), Some(per))
    );
    assert!(assert_valid(&path).contains("at N = 3"));
    assert_rejected(
        &path,
        &json,
        |v| v["certificate"]["bonus"] = json!("0"),
        &["base value a(0) is -3"],
    );
}

#[test]
fn fixed_heaps_certify_through_states() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--subtract", "4,5", "--plus", "4"][..],
        &["--subtract", "4,5", "--also", "{1,2}", "--plus", "3@2"][..],
    ] {
        let (path, json) = certify(dir.path(), "p.json", args);
        let c = &json["certificate"];
        let (pre, per) = printed_period(args);
        assert_eq!(
            (c["preperiod"].as_u64(), c["period"].as_u64()),
            (Some(pre), Some(per)),
            "{args:?}"
        );
        assert_valid(&path);
        let s = states_proof;
        assert_rejected(
            &path,
            &json,
            |v| s(v)["positions"].as_array_mut().unwrap().reverse(),
            &["positions"],
        );
        assert_rejected(
            &path,
            &json,
            |v| s(v)["window"]["base"][9][0] = plus_one(&s(v)["window"]["base"][9][0]),
            &["base value a(9)"],
        );
        assert_rejected(
            &path,
            &json,
            |v| v["certificate"]["plus"] = json!([]),
            &["runs on values"],
        );
        assert_rejected(
            &path,
            &json,
            |v| v["certificate"]["plus"] = json!(["5"]),
            &["positions"],
        );
        assert_rejected(
            &path,
            &json,
            |v| v["certificate"]["period"] = json!(per * 2),
            &[&format!(
                "claims least preperiod {pre} and period {}",
                per * 2
            )],
        );
    }
}

#[test]
fn games_without_a_window_argument_get_no_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("c.json");
    let cert = cert.to_str().unwrap();
    // 0.07 breaks heaps: its period is proven through normal play, but there is no look-back.
    run_input_error(
        &["mine", "octal", "--rules", "0.07", "--certificate", cert],
        &["0.07 breaks heaps", "no window certificate"],
    );
    // 0.26's period is only observed.
    run_input_error(
        &[
            "mine",
            "octal",
            "--rules",
            "0.26",
            "--max-heap",
            "64",
            "--certificate",
            cert,
        ],
        &["only OBSERVED"],
    );
    assert_eq!(dir_entries(dir.path()), Vec::<String>::new());
    run_input_error(&["mine", "replay", cert], &["cannot read"]);
}
