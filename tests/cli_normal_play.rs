//! Normal play end to end: `octal grundy` against Grundy sequences published in OEIS and in
//! tczajka/octal-games (a recomputation of Flammenkamp's tables), `octal period --normal-play`
//! against published preperiods and periods, hexadecimal codes, and input errors.

use crate::common;

use common::*;

/// The Grundy values g(0..) that `octal grundy CODE --max-heap N` prints, checking its columns.
fn grundy(code: &str, max_heap: usize) -> Vec<u32> {
    let csv = Csv::run_args(&[
        "octal",
        "grundy",
        code,
        "--max-heap",
        &max_heap.to_string(),
        "--format",
        "csv",
    ]);
    assert_eq!(csv.header, ["n", "grundy"]);
    csv.rows
        .iter()
        .enumerate()
        .map(|(n, row)| {
            assert_eq!(row[0], n.to_string(), "rows are n = 0, 1, 2, …");
            row[1].parse().unwrap()
        })
        .collect()
}

/// A published sequence written as comma-separated terms.
fn terms(s: &str) -> Vec<u32> {
    s.split(',').map(|t| t.trim().parse().unwrap()).collect()
}

/// A sequence in tczajka's notation: one character per heap from 0 (digits, then A = 10, …),
/// the period in parentheses.
fn nimber_string(s: &str) -> Vec<u32> {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_digit(36).unwrap())
        .collect()
}

#[test]
fn grundy_values_are_the_published_sequences() {
    let published: [(&str, usize, Vec<u32>); 6] = [
        // OEIS A002186, Kayles (.77), offset 0.
        (
            "0.77",
            0,
            terms(
                "0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1",
            ),
        ),
        // OEIS A002187, Dawson's chess (.137), offset 0; Dawson's Kayles (.07) is it one heap later.
        (
            "0.137",
            0,
            terms(
                "0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8",
            ),
        ),
        (
            "0.07",
            1,
            terms(
                "0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0",
            ),
        ),
        // OEIS A071074, Double Kayles (.7777), offset 0.
        (
            "0.7777",
            0,
            terms(
                "0, 1, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 4, 5, 12, 13, 9, 8, 2, 3, 4, 5, 15, 14, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 13, 12, 15, 14, 9, 8, 2, 3, 4, 5, 16, 17, 10, 11, 8, 9, 14, 15, 5, 4, 3, 2, 16, 17, 13, 12, 15, 14, 9, 8, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9, 14, 15, 5, 4, 3, 2",
            ),
        ),
        // tczajka/octal-games, TrivialGames.md: .4 and .44 from heap 0.
        (
            "0.4",
            0,
            nimber_string(
                "000112031103322405223301130211045274011203110332244552(3301130211045374811203110332244559)",
            ),
        ),
        (
            "0.44",
            0,
            nimber_string(
                "00011223311443322114422664411227711443322114466774411228855447722118866774411223311447722118822774411228811447722114422774411228811447722118866(774411228811447722118822)",
            ),
        ),
    ];
    for (code, shift, want) in published {
        let got = grundy(code, want.len() + shift - 1);
        assert_eq!(got[shift..], want[..], "{code}");
    }
}

#[test]
fn periods_are_the_published_ones() {
    // (code, least preperiod n₀, period): tczajka/octal-games' SolvedGames and TrivialGames
    // (prefix = n₀, heaps from 0), CGSuite's tests (Kayles, Dawson's Kayles), OEIS.
    for (code, n0, period) in [
        ("0.77", 71, 12),
        ("0.07", 53, 34),
        ("0.156", 3479, 349),
        ("0.165", 5181, 1550),
        ("0.356", 7315, 142),
        ("0.644", 3256, 442),
        ("0.045", 189, 32),
        ("0.7777", 142, 24),
    ] {
        let r = Csv::run_args(&[
            "octal",
            "period",
            "--normal-play",
            "--rules",
            code,
            "--format",
            "csv",
        ]);
        let r = r.records().remove(0);
        assert_eq!(
            (r["preperiod"], r["period"], r["saltus"], r["status"]),
            (
                n0.to_string().as_str(),
                period.to_string().as_str(),
                "0",
                "PROVEN"
            ),
            "{code}"
        );
        assert_eq!(r["last_exceptional"], (n0 - 1).to_string(), "{code}");
    }
}

#[test]
fn a_subtraction_set_is_a_code() {
    let set = Csv::run("octal period --normal-play --subtract 4,5 --format csv");
    let set = set.records().remove(0);
    assert_eq!(
        (set["code"], set["period"], set["status"]),
        ("0.00033", "9", "PROVEN")
    );
    assert_eq!(grundy("{4,5}", 30), grundy("0.00033", 30));
}

#[test]
fn hexadecimal_codes_are_normal_play_only() {
    // 0.3F: CGSuite's tests give heaps 1..=20; the values then grow by 3 every 6 heaps.
    let g = grundy("0.3F", 300);
    assert_eq!(
        g[1..=20],
        [1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8, 6, 7, 8, 9, 10, 11]
    );
    let json = run_json("octal period --normal-play --rules 0.3F --max-heap 300 --format json");
    let r = &json[0];
    assert_eq!(
        (r["period"].as_u64(), r["saltus"].as_u64()),
        (Some(6), Some(3))
    );
    assert_eq!(r["status"], "OBSERVED");
    for n in 0..g.len() - 6 {
        assert_eq!(g[n + 6], g[n] + 3, "n = {n}");
    }
    // Scoring play refuses the digit and says where it is supported.
    run_input_error(
        &words("octal values --rules 0.3F --max-heap 5"),
        &["`0.3F`", "`F`", "hexadecimal", "octal grundy"],
    );
}

#[test]
fn proven_windows_are_json_objects() {
    let json = run_json("octal period --normal-play --rules 0.77 --format json");
    let r = &json[0];
    assert_eq!(r["window"]["start"].as_u64(), Some(71));
    assert_eq!(r["window"]["end"].as_u64(), Some(155));
    assert_eq!(r["preperiod"].as_u64(), Some(71));
}

#[test]
fn bad_codes_exit_2_naming_the_value() {
    let cases: [(&str, &[&str]); 7] = [
        (
            "octal grundy 0.7G --max-heap 5",
            &["`0.7G`", "`G`", "hexadecimal digit"],
        ),
        (
            "octal grundy 4.07 --max-heap 5",
            &["`4.07`", "`4`", "before the point"],
        ),
        ("octal grundy 0.00 --max-heap 5", &["`0.00`", "no move"]),
        ("octal grundy 77 --max-heap 5", &["`77`", "0.137"]),
        ("octal grundy 0.77", &["--max-heap"]),
        (
            "octal grundy 0.77 --max-heap 20000000",
            &["--max-heap 20000000", "10000000"],
        ),
        (
            "octal period --normal-play --rules 0.77 --plus 3",
            &["--normal-play", "--plus"],
        ),
    ];
    for (line, needles) in cases {
        run_input_error(&words(line), needles);
    }
}

#[test]
fn a_code_survey_reproduces_the_published_table_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let survey = "octal survey --codes 2 --max-heap 2000";
    let run = |line: &str| {
        let out = nimlab().current_dir(d).args(words(line)).output().unwrap();
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    run(&format!("{survey} --format csv -o single.csv"));
    let mut joined = Vec::new();
    for i in 0..3 {
        run(&format!("{survey} --shard {i}/3 -o part-{i}.csv"));
        joined.extend(std::fs::read(d.join(format!("part-{i}.csv"))).unwrap());
    }
    let single = std::fs::read(d.join("single.csv")).unwrap();
    assert_eq!(joined, single);
    let stderr = run("merge part-0.csv part-1.csv part-2.csv -o merged.csv");
    assert!(stderr.contains("63 codes; period PROVEN for"), "{stderr}");
    let csv = Csv::parse(&String::from_utf8(single).unwrap());
    assert_eq!(
        csv.header,
        [
            "code",
            "preperiod",
            "period",
            "saltus",
            "status",
            "last_exceptional"
        ]
    );
    let records = csv.records();
    // tczajka/octal-games' TrivialGames and SolvedGames (prefix = preperiod n₀).
    for (code, n0, period) in [
        ("0.15", "1", "10"),
        ("0.17", "33", "34"),
        ("0.34", "7", "8"),
        ("0.35", "1", "6"),
        ("0.44", "143", "24"),
        ("0.45", "498", "20"),
        ("0.53", "11", "9"),
        ("0.54", "3", "7"),
        ("0.71", "3", "2"),
        ("0.77", "71", "12"),
    ] {
        let r = records.iter().find(|r| r["code"] == code).unwrap();
        assert_eq!(
            (r["preperiod"], r["period"], r["status"]),
            (n0, period, "PROVEN"),
            "{code}"
        );
    }
    // Officers (0.6) has no known period: no claim is made.
    let officers = records.iter().find(|r| r["code"] == "0.6").unwrap();
    assert_ne!(officers["status"], "PROVEN");
}
