//! The `nimlab scoring …` command line end to end: input errors, `-o FILE` atomicity, snapshots
//! of the text outputs, agreement between commands and formats, the paper's values, closed pipes.
//!
//! Command lines are written as one string split on whitespace (see [`words`]).

use crate::common;

use std::collections::HashMap;
use std::fs;

use common::*;
use predicates::prelude::*;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Helpers

/// `x/2` written the way nimlab writes rationals: `3`, `-7/2`.
fn halves(two_x: i64) -> String {
    if two_x % 2 == 0 {
        (two_x / 2).to_string()
    } else {
        format!("{two_x}/2")
    }
}

/// What the table and family `payoff`, `breakpoints`, `c_minus`, `c_plus` columns should say
/// about a position, rebuilt from the pieces of `nimlab scoring payoff HEAPS --format csv`.
struct PayoffSummary {
    /// `[left slope] (x,y) … [right slope]`; a line is anchored at x = 0.
    text: String,
    breakpoints: i64,
    c_minus: String,
    c_plus: String,
}

impl PayoffSummary {
    fn of(heaps: &str) -> PayoffSummary {
        let pieces = Csv::run(&format!("scoring payoff {heaps} --format csv"));
        assert_eq!(pieces.header, ["lo", "hi", "slope", "intercept"]);
        let rows = &pieces.rows;
        let (first, last) = (&rows[0], &rows[rows.len() - 1]);
        assert_eq!(
            [&first[0], &last[1]],
            ["", ""],
            "({heaps}): unbounded tails"
        );
        let mut text = format!("[{}]", first[2]);
        if rows.len() == 1 {
            text += &format!(" (0,{})", first[3]);
        }
        for (piece, next) in rows.iter().zip(&rows[1..]) {
            assert_eq!(piece[1], next[0], "({heaps}): contiguous pieces");
            // Prop 3.1: breakpoints, slopes and intercepts are integers.
            let x = int(&piece[1]);
            text += &format!(" ({x},{})", int(&piece[2]) * x + int(&piece[3]));
        }
        text += &format!(" [{}]", last[2]);
        PayoffSummary {
            text,
            breakpoints: rows.len() as i64 - 1,
            c_minus: first[3].clone(),
            c_plus: last[3].clone(),
        }
    }

    /// Checks a table or family row against this summary.
    fn check_row(&self, row: &HashMap<&str, &str>, what: &str) {
        assert_eq!(row["payoff"], self.text, "{what}");
        assert_eq!(int(row["breakpoints"]), self.breakpoints, "{what}");
        assert_eq!(row["c_minus"], self.c_minus, "{what}");
        assert_eq!(row["c_plus"], self.c_plus, "{what}");
    }
}

/// `--format json` parses as an array of objects with the CSV's columns, in order, and the same
/// cells as `--format csv`.
fn assert_json_matches_csv(line: &str) {
    let csv = Csv::run(&format!("{line} --format csv"));
    let json = run_json(&format!("{line} --format json"));
    let objects = json.as_array().expect("a JSON array");
    assert_json_rows_match_csv(line, objects, &csv);
}

/// Independent naive minimax for Scoring Nim with everything doubled, so that half-integer N
/// stay in integers: returns 2·f_N(p) for N = two_n / 2.
fn naive_doubled(p: &[u32], two_n: i64, memo: &mut HashMap<Vec<u32>, i64>) -> i64 {
    let mut key: Vec<u32> = p.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if key.is_empty() {
        return -two_n;
    }
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = i64::MIN;
    for i in 0..key.len() {
        for rest in 0..key[i] {
            let mut child = key.clone();
            child[i] = rest;
            let v = 2 * i64::from(key[i] - rest) - naive_doubled(&child, two_n, memo);
            best = best.max(v);
        }
    }
    memo.insert(key, best);
    best
}

/// F_k(N) = 2 − min over j ∈ J_k = {−(2k−2), …, −2, 0, 2, …, 2k−2} of |N − j| (Def 6.2).
fn big_f(k: i64, n: i64) -> i64 {
    let nearest = (-(k - 1)..=(k - 1)).map(|i| (n - 2 * i).abs()).min();
    2 - nearest.expect("J_k is not empty")
}

// ---------------------------------------------------------------------------------------------
// 1. Bad input

#[test]
fn bad_input_exits_2_naming_the_value() {
    let cases: &[(&str, &[&str])] = &[
        ("scoring payoff -- -3 2", &["'-3'", "negative"]),
        ("scoring payoff -3 2", &["'-3'", "negative"]),
        ("scoring payoff 5 x 2", &["'x'", "whole number"]),
        (
            "scoring payoff 99999999999",
            &["'99999999999'", "too large"],
        ),
        // Heaps are required; the empty position is spelled `0` (see below).
        ("scoring payoff", &["<HEAP>"]),
        ("scoring limits", &["<HEAP>"]),
        ("scoring line 5 4 2", &["--bonus"]),
        ("scoring family 2k+1,2k,1 --k 5..2", &["'5..2'", "empty"]),
        (
            "scoring family 2k+1,2k,1 --k 1..",
            &["'1..'", "not a range"],
        ),
        ("scoring family 2k+1,2k,1 --k a..b", &["'a..b'", "'a'"]),
        ("scoring family 2k+,1 --k 1..3", &["'2k+,1'", "column 4"]),
        ("scoring family 2k+1,2k,1", &["parameter k", "no range"]),
        (
            "scoring family 2k+1,2k,1 --k 1..2 --x 1..2",
            &["x", "does not use"],
        ),
        ("scoring family k-5,1 --k 1..3", &["k=1", "-4"]),
        ("scoring payoff 5 4 2 --bonus 1/0", &["'1/0'"]),
        ("scoring payoff 5 4 2 --bonus abc", &["'abc'"]),
        ("scoring payoff 5 4 2 --bonus=2..-2", &["'2..-2'", "empty"]),
        ("scoring payoff 5 4 2 --bonus=0..2 --step 0", &["step 0"]),
        ("scoring moves 5 4 2 --bonus 1/0", &["'1/0'"]),
        ("scoring line 5 4 2 --bonus abc", &["'abc'"]),
        ("scoring table --heaps 2 --max-heap 3 --bonus x", &["'x'"]),
        ("scoring payoff 5 4 2 --format xml", &["'xml'", "csv"]),
        ("scoring payoff 5 --memory-limit 8X", &["'8X'"]),
        (
            "scoring table --heaps 0 --max-heap 3",
            &["--heaps", "'0'", "from 1"],
        ),
    ];
    for (line, needles) in cases {
        run_input_error(&words(line), needles);
    }
    run_input_error(&["scoring", "family", "", "--k", "1..3"], &["family ''"]);
}

#[test]
fn empty_position_is_spelled_zero() {
    // f_N(∅) = −N: the opponent has just taken the last stone.
    let out = run_ok(&words("scoring payoff 0 --format csv"));
    assert_eq!(out, "lo,hi,slope,intercept\n,,-1,0\n");
    assert!(run_ok(&words("scoring payoff 0")).contains("all N  -N"));
}

/// The value after "use --max-heap " in a too-large-table message.
fn suggested_max_heap(stderr: &str) -> u32 {
    let (_, rest) = stderr
        .split_once("use --max-heap ")
        .unwrap_or_else(|| panic!("no --max-heap suggestion in: {stderr}"));
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect("a heap size")
}

#[test]
fn too_large_tables_are_refused_with_a_suggestion() {
    let err = run_input_error(
        &words("scoring table --heaps 6 --max-heap 2000"),
        &[
            "6-heap",
            "2000",
            "use --max-heap",
            "or less",
            "--memory-limit",
        ],
    );
    let h = suggested_max_heap(&err);
    assert!((1..2000).contains(&h), "suggestion {h}");

    // With a small limit the suggestion is exactly the largest table that fits.
    let small = |h: u32| format!("scoring table --heaps 3 --max-heap {h} --memory-limit 1M");
    let needles = ["use --max-heap", "or less", "--memory-limit"];
    let h = suggested_max_heap(&run_input_error(&words(&small(100)), &needles));
    assert!((1..100).contains(&h), "suggestion {h}");
    assert!(run_ok(&words(&format!("{} --format csv", small(h)))).starts_with("h1,h2,h3,"));
    run_input_error(&words(&small(h + 1)), &needles);
}

#[test]
fn oversized_solves_are_refused_before_any_work() {
    // Issue 14: the per-heap move cache (O(H²)) was counted nowhere, so these ran to gigabytes.
    for line in [
        "scoring payoff 10000 4 2 --memory-limit 512M",
        "scoring payoff 5000 4 2 --memory-limit 512M",
        "scoring moves 5000 4 2 --memory-limit 512M",
        "scoring line 5000 4 2 --bonus 1 --memory-limit 512M",
        "scoring limits 5000 4 2 --memory-limit 512M",
        "scoring payoff 4294967295 4294967295 4294967295",
    ] {
        refused_quickly(line, &["would need", "cached heap moves", "--memory-limit"]);
    }
    // A solve that fits runs (the estimate is an estimate, not a refusal of everything).
    assert!(run_ok(&words("scoring payoff 300 4 2 --memory-limit 512M")).contains("f_N(300,4,2)"));
}

#[test]
fn table_sizes_never_overflow_and_refusals_are_instant() {
    for k in [
        "9223372036854775807",
        "18446744073709551616",
        "65",
        "4294967296",
    ] {
        refused_quickly(
            &format!("scoring table --max-heap 6 --heaps {k}"),
            &[k, "--heaps", "1 to 64"],
        );
    }
    // The suggestion comes from the cost formula by bisection, not by rebuilding tables.
    let err = refused_quickly(
        "scoring table --heaps 2 --max-heap 50000 --format csv --memory-limit 1000000G",
        &[
            "1250025000 rows",
            "limit of 1000000000",
            "use --max-heap 44720 ",
        ],
    );
    assert!(suggested_max_heap(&err) < 50_000);
    let err = refused_quickly(
        "scoring table --heaps 2 --max-heap 100000",
        &["5000050000 rows", "would need", "use --max-heap"],
    );
    assert!(suggested_max_heap(&err) < 100_000);
    let err = refused_quickly(
        "scoring table --heaps 2 --max-heap 100000 --memory-limit 64M",
        &["use --max-heap"],
    );
    let h = suggested_max_heap(&err);
    refused_quickly(
        &format!(
            "scoring table --heaps 2 --max-heap {} --memory-limit 64M",
            h + 1
        ),
        &["would need"],
    );
    refused_quickly(
        "scoring table --heaps 64 --max-heap 4294967295",
        &["over 2^64", "--memory-limit"],
    );
    refused_quickly(
        "scoring table --heaps 3 --max-heap 100 --bonus=-1000000..1000000 --format csv",
        &["343400171700 rows", "fewer bonus values"],
    );
}

#[test]
fn oversized_families_are_refused_with_the_longest_range_that_fits() {
    let err = refused_quickly(
        "mine family scoring 2k+1,2k,1 --k 2..1000000",
        &["2k+1,2k,1", "would need", "use k = 2.."],
    );
    let (_, rest) = err.split_once("use k = 2..").expect("a suggestion");
    let end: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let end: i64 = end.parse().expect("a range end");
    assert!((2..1_000_000).contains(&end), "{err}");
    refused_quickly(
        "scoring family 2k+1,2k,1 --k 2..10 --bonus=-1000000..1000000",
        &["18000009 rows", "would need", "fewer bonus values"],
    );
    refused_quickly(
        "mine family scoring 2k+1,2k,1 --k 2..10 --bonus=-1000000..1000000",
        &["18000009 rows", "would need"],
    );
    refused_quickly(
        "scoring family x,2k,1 --k 1..100000 --x 1..100000",
        &["10000000000 rows", "limit of 100000000 rows"],
    );
}

#[test]
fn huge_parameter_values_give_a_clear_refusal() {
    // Values near 2^31, 2^32, 2^63 and 2^64: each either lists the right heaps or names the
    // member whose heap leaves 0..=u32::MAX (or the range that does not parse).
    refused_quickly(
        "scoring family 2k+1,2k,1 --k 1..9223372036854775807",
        &["k=9223372036854775807", "is 18446744073709551615"],
    );
    refused_quickly(
        "scoring family 2k+1,2k,1 --k 2147483648",
        &["k=2147483648", "is 4294967297"],
    );
    refused_quickly(
        "scoring family 2k+1,2k,1 --k -9223372036854775808..9223372036854775807",
        &["k=-9223372036854775808"],
    );
    refused_quickly(
        "scoring family 2k+1,2k,1 --k 1..18446744073709551616",
        &["'18446744073709551616'"],
    );
    refused_quickly(
        "scoring family 9223372036854775807k+9223372036854775807k --k 1",
        &["overflows"],
    );
    // 2k at k = 2^31 − 1 is 2^32 − 2, still a heap: the refusal is for size, naming the solve.
    refused_quickly(
        "scoring family 2k,1 --k 2147483647",
        &["would need", "2k,1", "k = 2147483647"],
    );
    refused_quickly(
        "scoring payoff 5 4 2 --bonus=-10..10 --step 1/1000000000000000000000",
        &["rows", "limit of 1000000000"],
    );
}

// ---------------------------------------------------------------------------------------------
// 2. -o FILE is atomic

#[test]
fn failed_runs_leave_no_output_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let failing = [
        "scoring table --heaps 6 --max-heap 2000",
        "scoring table --heaps 3 --max-heap 100 --memory-limit 1M --format csv",
        "scoring payoff 5 4 2 --format xml",
        "scoring payoff 5 x 2",
        "scoring family 2k+,1 --k 1..3",
        "scoring payoff 5 4 2 --bonus 1/0",
    ];
    assert_failed_runs_leave_no_output_file(dir.path(), &failing);
}

#[test]
fn failure_while_committing_the_file_leaves_no_temporary() {
    // The output is written to a temporary file, then renaming it onto a directory fails.
    let dir = tempfile::tempdir().expect("a temporary directory");
    fs::create_dir(dir.path().join("sub")).unwrap();
    nimlab()
        .current_dir(dir.path())
        .args(words("scoring payoff 5 4 2 -o sub"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("sub").and(predicate::str::contains("panicked").not()));
    assert_eq!(dir_entries(dir.path()), ["sub"]);
    assert_eq!(dir_entries(&dir.path().join("sub")), Vec::<String>::new());

    // A missing directory is reported, not created.
    nimlab()
        .current_dir(dir.path())
        .args(words("scoring payoff 5 4 2 -o missing/out.csv"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing"));
    assert_eq!(dir_entries(dir.path()), ["sub"]);
}

#[test]
fn output_file_equals_stdout() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("out.csv");
    let commands = [
        "scoring payoff 5 4 2",
        "scoring moves 5 4 2 --format json",
        "scoring table --heaps 3 --max-heap 8 --format csv",
        "scoring family 2k+1,2k,1 --k 1..4 --bonus=-3..3 --format csv",
    ];
    for line in commands {
        let stdout = run_ok(&words(line));
        // A second run replaces the file of the first.
        for _ in 0..2 {
            assert_output_file_holds(dir.path(), line, &stdout, "");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o644, "{line}: mode {mode:o}");
        }
        fs::remove_file(&file).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Snapshots (each value was checked by hand against the paper before it was accepted)

/// Snapshots the stdout of a command line; the snapshot's description is the command.
fn assert_cli_snapshot(name: &str, line: &str) {
    let out = run_ok(&words(line));
    insta::with_settings!({ description => format!("nimlab {line}"), omit_expression => true }, {
        insta::assert_snapshot!(name, out);
    });
}

#[test]
fn snapshot_payoff_5_4_2() {
    assert_cli_snapshot("payoff_5_4_2", "scoring payoff 5 4 2");
}

#[test]
fn snapshot_moves_5_4_2() {
    assert_cli_snapshot("moves_5_4_2", "scoring moves 5 4 2");
}

#[test]
fn snapshot_line_5_4_2_at_3() {
    assert_cli_snapshot("line_5_4_2_bonus_3", "scoring line 5 4 2 --bonus 3");
}

#[test]
fn snapshot_limits_5_4_2() {
    assert_cli_snapshot("limits_5_4_2", "scoring limits 5 4 2");
}

#[test]
fn snapshot_family_2k1_2k_1() {
    assert_cli_snapshot("family_2k1_2k_1_k1_4", "scoring family 2k+1,2k,1 --k 1..4");
}

#[test]
fn snapshot_table_two_heaps_csv() {
    assert_cli_snapshot(
        "table_2_heaps_max_3_bonus_csv",
        "scoring table --heaps 2 --max-heap 3 --bonus=-2..2 --format csv",
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Commands and formats agree

#[test]
fn table_rows_agree_with_single_payoffs() {
    let table = Csv::run("scoring table --heaps 3 --max-heap 8 --format csv");
    let columns = [
        "h1",
        "h2",
        "h3",
        "breakpoints",
        "c_minus",
        "c_plus",
        "payoff",
    ];
    assert_eq!(table.header, columns);
    // Every position with 8 ≥ h1 ≥ h2 ≥ h3 ≥ 1 exactly once: C(10, 3) = 120.
    assert_eq!(table.rows.len(), 120);
    let records = table.records();
    for heaps in [
        "8 7 1", "5 4 2", "3 2 1", "8 8 8", "6 4 1", "5 4 3", "1 1 1", "7 5 2",
    ] {
        let row = records
            .iter()
            .find(|r| [r["h1"], r["h2"], r["h3"]] == words(heaps)[..])
            .unwrap_or_else(|| panic!("no row for ({heaps})"));
        PayoffSummary::of(heaps).check_row(row, heaps);
    }
}

#[test]
fn family_members_agree_with_single_payoffs() {
    let fam = Csv::run("scoring family x,2k,1 --x 3..9 --k 1..3 --format csv");
    let columns = [
        "k",
        "x",
        "h1",
        "h2",
        "h3",
        "breakpoints",
        "c_minus",
        "c_plus",
        "payoff",
    ];
    assert_eq!(fam.header, columns);
    assert_eq!(fam.rows.len(), 7 * 3);
    for row in fam.records() {
        let (k, x) = (int(row["k"]), int(row["x"]));
        let heaps = [int(row["h1"]), int(row["h2"]), int(row["h3"])];
        assert_eq!(heaps, [x, 2 * k, 1]);
        PayoffSummary::of(&format!("{x} {} 1", 2 * k)).check_row(&row, &format!("k={k} x={x}"));
    }

    // On a bonus grid too, against `payoff --bonus`.
    let grid =
        Csv::run("scoring family x,2k,1 --x 5..6 --k 2..2 --bonus=-4..4 --step 1/2 --format csv");
    for x in ["5", "6"] {
        let single = Csv::run(&format!(
            "scoring payoff {x} 4 1 --bonus=-4..4 --step 1/2 --format csv"
        ));
        let from_family: Vec<Vec<String>> = grid
            .records()
            .iter()
            .filter(|r| r["x"] == x)
            .map(|r| vec![r["bonus"].to_string(), r["payoff"].to_string()])
            .collect();
        assert_eq!(from_family, single.rows, "x={x}");
    }
}

#[test]
fn json_has_the_csv_columns_and_cells() {
    let commands = [
        "scoring table --heaps 3 --max-heap 8",
        "scoring table --heaps 2 --max-heap 4 --bonus=-3..3",
        "scoring family x,2k,1 --x 3..9 --k 1..3",
        "scoring family 2k+1,2k,1 --k 1..3 --bonus=-2..2 --step 1/2",
        "scoring payoff 5 4 2",
        "scoring payoff 5 4 2 --bonus=-2..2 --step 1/3",
        "scoring moves 5 4 2",
        "scoring moves 5 4 2 --bonus 3 --all",
        "scoring limits 5 4 2",
    ];
    for line in commands {
        assert_json_matches_csv(line);
    }
}

// ---------------------------------------------------------------------------------------------
// 5. The paper's values through the command line

#[test]
fn figure_2_payoff_of_5_4_2() {
    let f = PayoffSummary::of("5 4 2");
    let breakpoints = "(-4,1) (-2,3) (-1,2) (0,3) (1,2) (2,3) (4,1)";
    assert_eq!(f.text, format!("[-1] {breakpoints} [1]"));
    assert_eq!((f.breakpoints, &*f.c_minus, &*f.c_plus), (7, "-3", "-3"));

    // The tails: f = |N| − 3 for |N| ≥ 4. After Prop 5.5: the only move to P⁺ (and to P⁻) is
    // (5,4,2) → (5,4,1), after which the second player takes 7 of the 11 stones, so c± = −3.
    let limits = Csv::run("scoring limits 5 4 2 --format csv");
    let l = &limits.records()[0];
    let tails = [l["c_plus"], l["right_slope"], l["c_minus"], l["left_slope"]];
    assert_eq!(tails, ["-3", "1", "-3", "-1"]);
    let sets = [l["in_p_plus"], l["in_p_minus"], l["nim_sum"]];
    assert_eq!(sets, ["false", "false", "3"]);

    // Values on a half-integer grid against an independent minimax.
    let grid = Csv::run("scoring payoff 5 4 2 --bonus=-10..10 --step 1/2 --format csv");
    assert_eq!(grid.rows.len(), 41);
    for (row, two_n) in grid.rows.iter().zip(-20i64..) {
        let two_f = naive_doubled(&[5, 4, 2], two_n, &mut HashMap::new());
        assert_eq!(row, &[halves(two_n), halves(two_f)]);
        if two_n.abs() >= 8 {
            assert_eq!(two_f, two_n.abs() - 6, "f = |N| - 3 at N = {two_n}/2");
        }
    }
}

#[test]
fn section_2_moves_and_line_of_5_4_2() {
    // The paper's list: (5,4,1) for N ≤ −4, (1,4,2) or (0,4,2) on [−4,−1], (0,4,2) on [−1,1],
    // (1,4,2) on [1,4], (5,4,1) for N ≥ 4. At a breakpoint every tying move is listed.
    let moves = Csv::run("scoring moves 5 4 2 --format csv");
    let records = moves.records();
    let got: Vec<[&str; 2]> = records
        .iter()
        .map(|r| [r["interval"], r["moves"]])
        .collect();
    assert_eq!(
        got,
        [
            ["N < -4", "(5,4,1)"],
            ["N = -4", "(1,4,2) (0,4,2) (5,4,1)"],
            ["-4 < N ≤ -1", "(1,4,2) (0,4,2)"],
            ["-1 < N < 1", "(0,4,2)"],
            ["N = 1", "(1,4,2) (0,4,2)"],
            ["1 < N < 4", "(1,4,2)"],
            ["N = 4", "(1,4,2) (5,4,1)"],
            ["N > 4", "(5,4,1)"],
        ]
    );

    // The N = 3 line: the first player scores 8, the second 6 (3 stones and the bonus).
    let line = run_ok(&words("scoring line 5 4 2 --bonus 3 --format json"));
    let line: Value = serde_json::from_str(&line).expect("JSON output parses");
    // One row: the totals, with the plies nested.
    let line = &line[0];
    let scores = [&line["first_score"], &line["second_score"], &line["payoff"]];
    assert_eq!(scores, ["8", "6", "2"]);
    let plies = line["plies"].as_array().expect("a list of plies");
    assert_eq!(plies[0]["to"], serde_json::json!([1, 4, 2]));
    assert_eq!(plies[plies.len() - 1]["to"], serde_json::json!([0, 0, 0]));
    // Every payoff on the way is the minimax value of the position.
    for ply in plies {
        let heaps: Vec<u32> = ply["from"]
            .as_array()
            .expect("a position")
            .iter()
            .map(|h| {
                h.as_u64()
                    .and_then(|h| u32::try_from(h).ok())
                    .expect("a heap")
            })
            .collect();
        let two_f = naive_doubled(&heaps, 6, &mut HashMap::new());
        assert_eq!(ply["payoff_before"], halves(two_f), "{ply}");
    }
}

#[test]
fn theorem_6_3_closed_forms() {
    // (i) f_N(2k+1,2k,1) = F_k(N), with 4k − 3 breakpoints and tails 2k ± N.
    let fam = Csv::run("scoring family 2k+1,2k,1 --k 1..6 --bonus=-30..30 --format csv");
    assert_eq!(fam.header, ["k", "h1", "h2", "h3", "bonus", "payoff"]);
    assert_eq!(fam.rows.len(), 6 * 61);
    for r in fam.records() {
        let (k, n) = (int(r["k"]), int(r["bonus"]));
        assert_eq!(int(r["payoff"]), big_f(k, n), "f_{n}(2k+1,2k,1), k = {k}");
    }
    let pwl = Csv::run("scoring family 2k+1,2k,1 --k 1..6 --format csv");
    for r in pwl.records() {
        let k = int(r["k"]);
        assert_eq!(int(r["breakpoints"]), 4 * k - 3, "k = {k}");
        let tails = (int(r["c_minus"]), int(r["c_plus"]));
        assert_eq!(tails, (2 * k, 2 * k), "k = {k}");
    }

    // (ii) f_N(x,2k,1) = max{F_k(N), −2k + |N|} + x − 2k − 1 for x ≥ 2k + 2.
    let fam = Csv::run("scoring family x,2k,1 --k 1..3 --x 8..10 --bonus=-15..15 --format csv");
    assert_eq!(fam.rows.len(), 3 * 3 * 31);
    for r in fam.records() {
        let (k, x, n) = (int(r["k"]), int(r["x"]), int(r["bonus"]));
        let want = big_f(k, n).max(-2 * k + n.abs()) + x - 2 * k - 1;
        assert_eq!(int(r["payoff"]), want, "f_{n}({x},{},1)", 2 * k);
    }
}

#[test]
fn propositions_4_1_and_4_2() {
    // Prop 4.1: f(1) = 1 + N, f(x) = x − 1 + |1 + N| for x ≥ 2.
    let one = Csv::run("scoring table --heaps 1 --max-heap 8 --bonus=-10..10 --format csv");
    assert_eq!(one.rows.len(), 8 * 21);
    for r in one.records() {
        let (x, n) = (int(r["h1"]), int(r["bonus"]));
        let want = if x == 1 { 1 + n } else { x - 1 + (1 + n).abs() };
        assert_eq!(int(r["payoff"]), want, "f_{n}({x})");
    }

    // Prop 4.2: f(1,1) = −N, f(x,1) = x − 1 + |N|, f(x,x) = 1 − |1 + N|,
    // f(x,y) = x − y + |1 − |1 + N|| for x > y ≥ 2.
    let two = Csv::run("scoring table --heaps 2 --max-heap 8 --bonus=-10..10 --format csv");
    assert_eq!(two.header, ["h1", "h2", "bonus", "payoff"]);
    let mut seen = HashMap::new();
    for r in two.records() {
        let (x, y, n) = (int(r["h1"]), int(r["h2"]), int(r["bonus"]));
        assert!(x >= y && y >= 1, "({x},{y}) is listed largest heap first");
        *seen.entry((x, y)).or_insert(0) += 1;
        let want = match (x, y) {
            (1, 1) => -n,
            (_, 1) => x - 1 + n.abs(),
            _ if x == y => 1 - (1 + n).abs(),
            _ => x - y + (1 - (1 + n).abs()).abs(),
        };
        assert_eq!(int(r["payoff"]), want, "f_{n}({x},{y})");
    }
    // Each of the 36 positions 8 ≥ x ≥ y ≥ 1 at each of the 21 bonus values.
    assert_eq!(seen.len(), 36);
    assert!(seen.values().all(|&count| count == 21));
}

// ---------------------------------------------------------------------------------------------
// 6. Closed pipes

#[test]
fn closed_pipe_is_not_an_error() {
    // Each output is far larger than a pipe buffer, so the writer meets the closed pipe.
    let commands = [
        "scoring table --heaps 3 --max-heap 60 --format csv",
        "scoring table --heaps 3 --max-heap 60 --format json",
        "scoring table --heaps 3 --max-heap 40 --format text",
        "scoring payoff 5 4 2 --bonus=-100000..100000 --format csv",
        "scoring family 2k+1,2k,1 --k 1..3 --bonus=-50000..50000",
    ];
    for line in commands {
        let (first, out) = first_line_then_close_pipe(line);
        assert!(!first.is_empty(), "{line}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{line}: {stderr}");
        assert!(
            !stderr.contains("error") && !stderr.contains("panicked"),
            "{line}: {stderr}"
        );
    }
}

/// Theorem 6.3 (i) rediscovered from data alone: the payoffs of (2k+1, 2k, 1) are
/// F_k(N) = 2 − min_j |N − j| over j = −(2k−2), …, 2k−2 step 2, and the form is re-verified by
/// the claims checker on members beyond the data (up to twice the mined range).
#[test]
fn mine_family_rediscovers_f_k_as_a_closed_form() {
    let out = run_ok(&["mine", "family", "scoring", "2k+1,2k,1", "--k", "1..10"]);
    assert!(
        out.contains("closed form f(N) = 2 - min(j in -2k+2..2k-2 step 2: abs(N - j))  (k ≥ 2)"),
        "{out}"
    );
    assert!(
        out.contains("re-verified with `nimlab check` on k = 2..20 (10 beyond the data): HOLDS"),
        "{out}"
    );
    // (k, k, k) is Prop 6.1's f_N(x, x, z) = z − 1 + |1 + N| with x = z = k: a V, also re-verified.
    let out = run_ok(&["mine", "family", "scoring", "k,k,k", "--k", "1..10"]);
    assert!(
        out.contains("closed form f(N) = abs(N + 1) + k-1  (k ≥ 2)"),
        "{out}"
    );
    assert!(out.contains("(10 beyond the data): HOLDS"), "{out}");
    // A family whose payoffs have none of the templates' shapes gets the general form of
    // progressions of breakpoints (issue 19), also re-verified up to twice the range.
    let out = run_ok(&["mine", "family", "scoring", "2k,k,1", "--k", "1..10"]);
    assert!(
        out.contains("payoff: breakpoints as progressions in N, period 2 in k"),
        "{out}"
    );
    assert!(out.contains("(10 beyond the data): HOLDS"), "{out}");
}

/// Issue 18: tables of Scoring Nim are solved by the running minimum now; their output must be
/// byte for byte what the reference recursion printed. SHA-256 of the output of nimlab at
/// 3bac65f (before the running minimum), with the sizes in bytes.
#[test]
fn running_minimum_tables_print_what_the_reference_printed() {
    let expected = [
        (
            "scoring table --heaps 3 --max-heap 20 --format csv",
            "49d25371e13bd4fa011eadba99a179d9f6e4c6137c4cede7deb231d74e5430e2",
            166_446,
        ),
        (
            "scoring table --heaps 4 --max-heap 10 --format csv",
            "12df191114eb488faf991d3600f59ebf2ace346e4efacd3975d9694d707eb405",
            39_328,
        ),
        (
            "scoring table --heaps 2 --max-heap 12 --bonus=-5..5 --format csv",
            "d72985a1cf61614b0237eac1fda2012e6d727f0bf1151ebb9ef84fcb9b697cb2",
            7_926,
        ),
        (
            "scoring table --heaps 1 --max-heap 30 --format csv",
            "844d95ec42d2b151adcec7b47e5bde9a42d41d49cefec8e1d61488822aeb7d07",
            896,
        ),
    ];
    assert_output_digests(&expected);
}

/// Issue 18: the running minimum's kernels and the payoff column printed from machine integers
/// print what nimlab printed at 1c4bf86 (before them), in every format. SHA-256 of that
/// version's output, with the sizes in bytes.
#[test]
fn kernel_tables_print_what_the_generic_steps_printed() {
    assert_output_digests(&[
        (
            "scoring table --heaps 3 --max-heap 40 --format csv",
            "8f17cb29553dd7d351ac9c4918d40f9be1046fc5489e1a46b42eb5abf09d702f",
            2_741_357,
        ),
        (
            "scoring table --heaps 3 --max-heap 16 --format text",
            "bef415d2f4556255c4562174bd39711409a9c84c7ac6109c76b2bc50758cc23d",
            88_873,
        ),
        (
            "scoring table --heaps 3 --max-heap 16 --format md",
            "ad5e094f8b12c43ccd50805b106cef51a397dc5b52f12f07d52909e7b0f93b58",
            80_093,
        ),
        (
            "scoring table --heaps 3 --max-heap 12 --format json",
            "013eda445f9e2cfaddadc0a8c4cb8dcb2c369649b2c53dfbd9abf755f6e05f58",
            68_506,
        ),
    ]);
}
