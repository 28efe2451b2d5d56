//! `nimlab check` end to end: verdicts and exit codes, `--deep` and `--only`, the engine calls of
//! claim files against the engines' own commands, refused files with file, line, column and
//! caret, and the output formats.
//!
//! Tests marked `#[ignore = "BUG: …"]`, when there are any, reproduce a known bug that is not
//! fixed yet; `cargo test --test tests cli_check:: -- --ignored` runs them.

use crate::common;
use common::*;

use std::fs;
use std::path::{Path, PathBuf};

use nimlab::Q;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Helpers

/// A claim file of `paper` with the given `[[claim]]` tables.
fn file(paper: &str, claims: &[String]) -> String {
    format!(
        "paper = \"{paper}\"\ntitle = \"Tests\"\n{}",
        claims.concat()
    )
}

/// A `[[claim]]` table with the body's keys after id, label and statement.
fn claim(id: &str, label: &str, body: &str) -> String {
    format!("\n[[claim]]\nid = \"{id}\"\nlabel = \"{label}\"\nstatement = \"s\"\n{body}\n")
}

/// Writes `src` to `dir/name` and returns the path.
fn write(dir: &Path, name: &str, src: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, src).unwrap();
    path
}

/// A string as a TOML string.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// Runs `nimlab check ARGS`: (exit code, stdout, stderr).
fn check(args: &[&str]) -> (i32, String, String) {
    let out = nimlab()
        .arg("check")
        .args(args)
        .output()
        .expect("nimlab runs");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8 output");
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

/// Checks the claim file `src` (written to a fresh directory) with `--format csv` and the
/// extra arguments; the run must produce a table (exit code 0 or 1) and nothing on stderr.
fn check_text_csv(src: &str, extra: &[&str]) -> (i32, Csv) {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "claims.toml", src);
    let mut args = vec![p.to_str().unwrap(), "--format", "csv"];
    args.extend_from_slice(extra);
    let (code, out, err) = check(&args);
    assert!(code == 0 || code == 1, "exit {code}: {err}\n{src}");
    assert!(err.is_empty(), "{err}");
    let t = Csv::parse(&out);
    assert_eq!(
        t.header,
        ["paper", "label", "verdict", "range", "evidence", "tables"]
    );
    (code, t)
}

/// (label, verdict) of every row.
fn verdicts(t: &Csv) -> Vec<(String, String)> {
    t.records()
        .iter()
        .map(|r| (r["label"].to_string(), r["verdict"].to_string()))
        .collect()
}

/// Six claims of paper "demo", one of each kind of verdict and evidence:
///
/// | id | label | verdict |
/// |---|---|---|
/// | sq | Claim 1 | FAILS at k = 1 (k² = 2k) |
/// | gauss | Claim 2 | HOLDS at 21 points; with `--deep`, FAILS at k = 51 |
/// | even | Claim 3 | HOLDS at 5 points, 5 excluded by `where` |
/// | op | Claim 4 | OPEN (a conjecture whose `where` leaves nothing to check) |
/// | amb | Claim 5 | AMBIGUOUS: reading "a" HOLDS, reading "b" FAILS at k = 1 |
/// | cor | Claim 6 | FAILS, with a correction that holds at 10 points |
fn mixed_file() -> String {
    file(
        "demo",
        &[
            claim(
                "sq",
                "Claim 1",
                "for = \"k in 0..10\"\nactual = \"k^2\"\nexpected = \"2k\"",
            ),
            claim(
                "gauss",
                "Claim 2",
                "for = \"k in 0..20\"\ndeep = \"k in 0..60\"\n\
                 holds = \"sum(j in 1..k: j) == k*(k+1)/2 and k <= 50\"",
            ),
            claim(
                "even",
                "Claim 3",
                "for = \"k in 1..10\"\nwhere = \"k % 2 == 0\"\nholds = \"k % 2 == 0\"",
            ),
            claim(
                "op",
                "Claim 4",
                "open = true\nfor = \"k in 1..3\"\nwhere = \"k > 3\"\nholds = \"k > 0\"",
            ),
            claim(
                "amb",
                "Claim 5",
                "for = \"k in 1..3\"\n\n[[claim.reading]]\nname = \"a\"\nholds = \"k > 0\"\n\n\
                 [[claim.reading]]\nname = \"b\"\nholds = \"k > 1\"",
            ),
            claim(
                "cor",
                "Claim 6",
                "for = \"k in 1..10\"\nactual = \"3k + 1\"\nexpected = \"3k\"\n\
                 correction = \"3k + 1\"",
            ),
        ],
    )
}

/// Checks the claims (label, actual, expected) in one file of `paper`, together with a
/// deliberately wrong control claim built from the first one: the run exits with 1, every claim
/// HOLDS, and the control, the only claim that FAILS, shows that values were really compared.
fn assert_all_hold_with_control(paper: &str, claims: &[(String, String, String)]) {
    let mut tables: Vec<String> = claims
        .iter()
        .enumerate()
        .map(|(i, (label, actual, expected))| {
            claim(
                &format!("c{i}"),
                label,
                &format!(
                    "actual = {}\nexpected = {}",
                    toml_str(actual),
                    toml_str(expected)
                ),
            )
        })
        .collect();
    let (_, actual, expected) = &claims[0];
    tables.push(claim(
        "control",
        "control",
        &format!(
            "actual = {}\nexpected = {}",
            toml_str(&format!("[{actual}, 0]")),
            toml_str(&format!("[{expected}, 1]"))
        ),
    ));
    let (code, t) = check_text_csv(&file(paper, &tables), &[]);
    assert_eq!(code, 1, "{paper}: the control claim fails");
    let rows = t.records();
    assert_eq!(rows.len(), claims.len() + 1, "{paper}");
    for r in &rows {
        assert_eq!(r["paper"], paper);
        if r["label"] == "control" {
            assert_eq!(r["verdict"], "FAILS", "{paper}: the control claim fails");
            assert!(
                r["evidence"].starts_with("fails"),
                "{paper}: {}",
                r["evidence"]
            );
        } else {
            assert_eq!(
                (r["verdict"], r["evidence"]),
                ("HOLDS", "true at all 1 point"),
                "{paper}: {}",
                r["label"]
            );
        }
    }
    assert_eq!(rows[claims.len()]["label"], "control");
}

// ---------------------------------------------------------------------------------------------
// Verdicts, exit codes, --deep and --only

#[test]
fn verdicts_evidence_and_exit_codes() {
    // A claim FAILS: exit code 1, with the whole table on stdout.
    let (code, t) = check_text_csv(&mixed_file(), &[]);
    assert_eq!(code, 1, "a claim FAILS");
    let want: Vec<(String, String)> = [
        ("Claim 1", "FAILS"),
        ("Claim 2", "HOLDS"),
        ("Claim 3", "HOLDS"),
        ("Claim 4", "OPEN"),
        ("Claim 5", "AMBIGUOUS"),
        ("Claim 6", "FAILS"),
    ]
    .iter()
    .map(|(l, v)| (l.to_string(), v.to_string()))
    .collect();
    assert_eq!(verdicts(&t), want);
    let rows = t.records();
    let ranges: Vec<&str> = rows.iter().map(|r| r["range"]).collect();
    assert_eq!(
        ranges,
        [
            "k in 0..10",
            "k in 0..20",
            "k in 1..10",
            "k in 1..3",
            "k in 1..3",
            "k in 1..10"
        ]
    );
    assert!(
        rows[0]["evidence"].starts_with("fails at k = 1: expected 2, actual 1"),
        "{}",
        rows[0]["evidence"]
    );
    assert_eq!(rows[1]["evidence"], "true at all 21 points");
    assert_eq!(
        rows[2]["evidence"],
        "true at all 5 points (5 points excluded by `where`)"
    );
    assert_eq!(
        rows[3]["evidence"],
        "no point of the range satisfies `where`: nothing was checked"
    );
    assert_eq!(
        rows[4]["evidence"],
        "reading \"a\": HOLDS (true at all 3 points); reading \"b\": FAILS (false at k = 1: \
         expected $k > 1$, actual $k = 1$; fails for every k ≤ 1, holds from k = 2 on the range)"
    );
    assert!(
        rows[5]["evidence"].contains("correction"),
        "{}",
        rows[5]["evidence"]
    );
    assert!(
        rows[5]["evidence"].contains("holds at all 10 points"),
        "{}",
        rows[5]["evidence"]
    );
    assert!(rows.iter().all(|r| r["paper"] == "demo"));

    // Only passing claims: exit 0.
    let (code, t) = check_text_csv(&mixed_file(), &["--only", "Claim 2", "--only", "op"]);
    assert_eq!(code, 0);
    assert_eq!(
        verdicts(&t),
        [
            ("Claim 2".to_string(), "HOLDS".to_string()),
            ("Claim 4".to_string(), "OPEN".to_string())
        ]
    );
}

#[test]
fn deep_checks_the_deep_range() {
    let (code, t) = check_text_csv(&mixed_file(), &["--deep", "--only", "gauss"]);
    assert_eq!(code, 1);
    let r = &t.records()[0];
    assert_eq!((r["verdict"], r["range"]), ("FAILS", "k in 0..60"));
    assert_eq!(
        r["evidence"],
        "false at k = 51: expected $k \\le 50$, actual $k = 51$; holds for every k ≤ 50, fails from \
         k = 51 on the range"
    );
    // Claims without a deep range keep their range under --deep.
    let (_, t) = check_text_csv(&mixed_file(), &["--deep", "--only", "Claim 3"]);
    assert_eq!(t.records()[0]["range"], "k in 1..10");
}

#[test]
fn only_selects_by_label_and_id_across_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.toml", &mixed_file());
    let b = write(
        dir.path(),
        "b.toml",
        &file("other", &[claim("x", "Lemma 7", "holds = \"1 + 1 == 2\"")]),
    );
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    // By id in one file, by label in the other; rows in file order.
    let (code, out, _) = check(&[
        a, b, "--only", "Lemma 7", "--only", "even", "--format", "csv",
    ]);
    assert_eq!(code, 0);
    let t = Csv::parse(&out);
    let recs = t.records();
    let rows: Vec<(&str, &str)> = recs.iter().map(|r| (r["paper"], r["label"])).collect();
    assert_eq!(rows, [("demo", "Claim 3"), ("other", "Lemma 7")]);
    // All claims of both files, in order.
    let (code, out, _) = check(&[a, b, "--format", "csv"]);
    assert_eq!(code, 1);
    let t = Csv::parse(&out);
    assert_eq!(t.rows.len(), 7);
    assert_eq!(t.records()[6]["paper"], "other");
    // A label no file has is an error.
    run_input_error(
        &["check", a, b, "--only", "Lemma 99"],
        &["no claim", "Lemma 99"],
    );
    run_input_error(
        &["check", a, "--only", "Claim 1", "--only", "Lemma 7"],
        &["Lemma 7"],
    );
}

#[test]
fn only_takes_comma_separated_ids_and_whole_labels_with_commas() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(
        dir.path(),
        "a.toml",
        &file(
            "demo",
            &[
                claim("one", "Claim 1", "holds = \"1 + 1 == 2\""),
                claim("two", "§2, before Def 2.1", "holds = \"2 + 2 == 4\""),
                claim("three", "Claim 3", "holds = \"3 > 4\""),
            ],
        ),
    );
    let a = a.to_str().unwrap();
    let rows = |args: &[&str]| {
        let mut all = vec![a, "--format", "csv"];
        all.extend_from_slice(args);
        let (code, out, _) = check(&all);
        let t = Csv::parse(&out);
        let labels: Vec<String> = t.records().iter().map(|r| r["label"].to_string()).collect();
        (code, labels)
    };
    // Ids separated by commas (spaces allowed), rows in file order.
    assert_eq!(
        rows(&["--only", "three, one"]),
        (1, vec!["Claim 1".to_string(), "Claim 3".to_string()])
    );
    // A label with a comma in it names its claim whole.
    assert_eq!(
        rows(&["--only", "§2, before Def 2.1"]),
        (0, vec!["§2, before Def 2.1".to_string()])
    );
    // An unknown id in the list is an error naming it, exit 2.
    run_input_error(
        &["check", a, "--only", "one,nope"],
        &["no claim", "\"nope\""],
    );
}

// ---------------------------------------------------------------------------------------------
// Engine calls against the engines' own commands

fn q(s: &str) -> Q {
    s.parse()
        .unwrap_or_else(|_| panic!("{s:?} is not a rational"))
}

/// The CLI's payoff pieces as an `if … then … else` expression in N.
fn payoff_expression(pieces: &[Value]) -> String {
    let mut expr = String::new();
    for (i, p) in pieces.iter().enumerate() {
        let line = format!(
            "({})*N + ({})",
            json_cell_text(&p["slope"]),
            json_cell_text(&p["intercept"])
        );
        if i + 1 == pieces.len() {
            expr.push_str(&line);
        } else {
            expr.push_str(&format!(
                "if N <= {} then {line} else ",
                json_cell_text(&p["hi"])
            ));
        }
    }
    expr
}

#[test]
fn scoring_calls_match_the_scoring_commands() {
    let mut claims = Vec::new();
    for heaps in ["5 4 2", "3 2 1", "6 6 1", "7 4 2 1", "9"] {
        let p = format!("[{}]", heaps.replace(' ', ", "));
        let pieces = run_json(&format!("scoring payoff {heaps} --format json"));
        let pieces = pieces.as_array().expect("pieces");
        // The pieces themselves, evaluated here at N = -13/2, …, 13/2.
        for i in -13..=13 {
            let n = Q::frac(i, 2);
            let piece = pieces
                .iter()
                .find(|pc| {
                    let lo = json_cell_text(&pc["lo"]);
                    let hi = json_cell_text(&pc["hi"]);
                    (lo.is_empty() || q(&lo) <= n) && (hi.is_empty() || n <= q(&hi))
                })
                .expect("a piece covers every N");
            let v = q(&json_cell_text(&piece["slope"])) * n.clone()
                + q(&json_cell_text(&piece["intercept"]));
            claims.push((
                format!("f_{n}({heaps})"),
                format!("payoff({n}, {p})"),
                v.to_string(),
            ));
        }
        // …and as one expression over a range of N.
        let text = file(
            "scoring",
            &[claim(
                "pwl",
                "pieces",
                &format!(
                    "for = \"N in -12..12 step 1/4\"\nactual = \"payoff(N, {p})\"\nexpected = {}",
                    toml_str(&payoff_expression(pieces))
                ),
            )],
        );
        let (code, t) = check_text_csv(&text, &[]);
        assert_eq!(code, 0, "{heaps}");
        assert_eq!(
            t.records()[0]["evidence"],
            "true at all 97 points",
            "{heaps}"
        );

        let breakpoints: Vec<String> = pieces[1..]
            .iter()
            .map(|pc| json_cell_text(&pc["lo"]))
            .collect();
        claims.push((
            format!("breakpoints({heaps})"),
            format!("breakpoints({p})"),
            format!("[{}]", breakpoints.join(", ")),
        ));
        let limits = Csv::run(&format!("scoring limits {heaps} --format csv"));
        let r = &limits.records()[0];
        claims.push((
            format!("limits({heaps})"),
            format!("[cplus({p}), cminus({p}), in_pplus({p}), in_pminus({p})]"),
            format!(
                "[{}, {}, {}, {}]",
                r["c_plus"], r["c_minus"], r["in_p_plus"], r["in_p_minus"]
            ),
        ));
    }
    // The paper's Figure 2: c⁺(5,4,2) = −3.
    claims.insert(
        0,
        ("Figure 2".into(), "cplus([5, 4, 2])".into(), "-3".into()),
    );
    assert_all_hold_with_control("scoring", &claims);
}

#[test]
fn octal_calls_match_the_octal_commands() {
    let mut claims = Vec::new();
    for (flag, rules, max) in [
        ("--subtract 4,5", "{4,5}", 40),
        ("--rules 0.26", "0.26", 20),
        ("--rules 0.3333 --points 2,2,2,2", "(3333,2222)", 25),
    ] {
        let t = Csv::run(&format!(
            "octal values {flag} --max-heap {max} --format csv"
        ));
        assert_eq!(t.header, ["n", "value"]);
        assert_eq!(t.rows.len(), max + 1);
        for r in t.records() {
            claims.push((
                format!("G_s({rules}, {})", r["n"]),
                format!("gs({}, {})", toml_str(rules), r["n"]),
                r["value"].to_string(),
            ));
        }
    }
    for (n, m) in [(9, 4), (13, 7), (6, 6), (0, 5)] {
        let t = Csv::run(&format!("octal value --subtract 4,5 {n} {m} --format csv"));
        claims.push((
            format!("sum {n} {m}"),
            format!("gs(\"{{4,5}}\", [{n}, {m}])"),
            t.records()[0]["value"].to_string(),
        ));
        let t = Csv::run(&format!(
            "octal value --subtract 4,5 --also 0.26 {n} {m}@2 --format csv"
        ));
        claims.push((
            format!("mixed {n} {m}"),
            format!("gs_mixed(\"{{4,5}}\", {n}, \"0.26\", {m})"),
            t.records()[0]["value"].to_string(),
        ));
    }
    assert_all_hold_with_control("octal", &claims);
}

#[test]
fn candy_calls_match_the_candy_commands() {
    let mut claims = Vec::new();
    let v = run_json("candy value 31 42 53 --format json");
    let v = &v[0];
    assert_eq!(v["v"], 96, "the README's example");
    claims.push((
        "Remark 4.5".into(),
        "[candy_v([31, 42, 53]), candy_nl([31, 42, 53]), candy_nw([31, 42, 53])]".into(),
        format!("[{}, {}, {}]", v["v"], v["n_l"], v["n_w"]),
    ));
    // Every 3-heap P-position with heaps up to 20, in one claim per position.
    let t = Csv::run("candy table --heaps 3 --max-heap 20 --format csv");
    assert!(t.rows.len() > 30);
    for r in t.records() {
        let p = format!("[{}, {}, {}]", r["h1"], r["h2"], r["h3"]);
        claims.push((
            format!("V{p}"),
            format!("[candy_v({p}), candy_nl({p}), candy_nw({p})]"),
            format!("[{}, {}, {}]", r["v"], r["n_l"], r["n_w"]),
        ));
    }
    let t = Csv::run("candy standard --k 1..3 --m 1..3 --format csv");
    for r in t.records() {
        let p = format!("[{}, {}, {}]", r["h1"], r["h2"], r["h3"]);
        claims.push((
            format!("strategies{p}"),
            format!("[candy_v({p}), flipflop_v({p}), fractal_v({p}), fractal_small_v({p})]"),
            format!(
                "[{}, {}, {}, {}]",
                r["v"], r["v_flip_flop"], r["v_fractal_largest"], r["v_fractal_smallest"]
            ),
        ));
    }
    let t = Csv::run("candy frak --a 5 --m 1..3 --x 0..2 --format csv");
    for r in t.records() {
        let g = format!("frak({}, {}, {})", r["a"], r["m"], r["x"]);
        claims.push((
            g.clone(),
            format!("[{g}, candy_v({g})]"),
            format!("[[{}, {}, {}], {}]", r["h1"], r["h2"], r["h3"], r["v"]),
        ));
    }
    let t = Csv::run("candy allocate --max-candies 20 --format csv");
    let sorted = |cell: &str| format!("sort([{}])", cell.replace(';', ", "));
    for r in t.records() {
        let n = r["candies"];
        claims.push((
            format!("allocate {n}"),
            format!("[alloc_min_nw({n}), alloc_max_nw({n}), alloc_argmin({n}), alloc_argmax({n})]"),
            format!(
                "[{}, {}, {}, {}]",
                r["min_nw"],
                r["max_nw"],
                sorted(r["argmin"]),
                sorted(r["argmax"])
            ),
        ));
    }
    assert_all_hold_with_control("candy", &claims);
}

#[test]
fn cash_calls_match_the_cash_commands() {
    let mut claims = Vec::new();
    let a = "[3, 5, 6, 10, 11]";
    let t = Csv::run("cash thresholds --set 3,5,6,10,11 --max-n 100 --format csv");
    assert_eq!(t.rows.len(), 101);
    for r in t.records() {
        let n = r["n"];
        let mut actual = format!(
            "[winner({a}, {n}), f1({a}, {n}), f2({a}, {n}), g1({a}, {n}), g2({a}, {n}), least_f2({a}, {n})"
        );
        let mut expected = format!(
            "[\"{}\", {}, {}, {}, {}, {}",
            r["winner"], r["f1"], r["f2"], r["g1"], r["g2"], r["least_f2"]
        );
        // least_f1 is undefined (an empty cell) where II wins with no money at all.
        if !r["least_f1"].is_empty() {
            actual.push_str(&format!(", least_f1({a}, {n})"));
            expected.push_str(&format!(", {}", r["least_f1"]));
        }
        claims.push((format!("n = {n}"), actual + "]", expected + "]"));
    }
    // Example 1.11 and every state of A = {1,3,4} up to 9 stones and 9 dollars each.
    let w = Csv::run("cash winner --set 1,3,4 14 9 9 --format csv");
    claims.push((
        "Example 1.11".into(),
        "cash_winner([1, 3, 4], 14, 9, 9)".into(),
        format!("\"{}\"", w.records()[0]["winner"]),
    ));
    let t = Csv::run("cash table --set 1,3,4 --max-n 9 --format csv");
    for n in 0..=9 {
        let mut states: Vec<(i64, i64, String)> = t
            .records()
            .iter()
            .filter(|r| int(r["n"]) == n)
            .map(|r| (int(r["d"]), int(r["e"]), format!("\"{}\"", r["winner"])))
            .collect();
        states.sort();
        let de: Vec<(i64, i64)> = states.iter().map(|s| (s.0, s.1)).collect();
        let want: Vec<(i64, i64)> = (0..=9).flat_map(|d| (0..=9).map(move |e| (d, e))).collect();
        assert_eq!(de, want, "n = {n}: every (d, e) once");
        let rows: Vec<String> = states.into_iter().map(|s| s.2).collect();
        claims.push((
            format!("table n = {n}"),
            format!("list(d in 0..9, e in 0..9: cash_winner([1, 3, 4], {n}, d, e))"),
            format!("[{}]", rows.join(", ")),
        ));
    }
    assert_all_hold_with_control("cash", &claims);
    assert_eq!(w.records()[0]["winner"], "I");
}

// ---------------------------------------------------------------------------------------------
// Files that are refused

/// `bad.toml:line:col:` of the character `offset` characters into the first occurrence of
/// `needle`, and the column.
fn location_of(src: &str, needle: &str, offset: usize) -> (String, usize) {
    let found = src
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the file"));
    let at = found
        + src[found..]
            .chars()
            .take(offset)
            .map(char::len_utf8)
            .sum::<usize>();
    let line = src[..at].matches('\n').count() + 1;
    let start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let col = src[start..at].chars().count() + 1;
    (format!("bad.toml:{line}:{col}:"), col)
}

/// Checks `bad.toml` holding `src` in a fresh directory: exit code 2, nothing on stdout, the
/// message at `loc` with the line shown and a caret under the column. Returns stderr.
fn assert_refused_at(src: &str, loc: &(String, usize), message: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "bad.toml", src);
    let out = nimlab()
        .current_dir(dir.path())
        .args(["check", "bad.toml"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}\n{src}");
    assert!(out.stdout.is_empty(), "{src}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.starts_with(&format!("error: {}", loc.0)),
        "want `error: {}`:\n{err}",
        loc.0
    );
    assert!(err.contains(message), "want {message:?}:\n{err}");
    let lines: Vec<&str> = err.lines().collect();
    // error line, empty gutter, the source line, the caret line
    assert_eq!(lines.len(), 4, "{err}");
    let line_no: usize = loc.0.split(':').nth(1).unwrap().parse().unwrap();
    let src_line = src.lines().nth(line_no - 1).unwrap();
    assert_eq!(lines[2], format!("{line_no} | {src_line}"), "{err}");
    let bar = lines[3].find("| ").expect("a gutter");
    let caret = lines[3].find('^').expect("a caret");
    assert_eq!(
        lines[3][bar + 2..caret].chars().count(),
        loc.1 - 1,
        "caret under column {}:\n{err}",
        loc.1
    );
    err
}

#[test]
fn bad_expressions_are_refused_with_file_line_column_and_caret() {
    // (the claim's body, a unique piece of text, how far into it the fault is, the message)
    let cases: &[(&str, &str, usize, &str)] = &[
        (
            "for = \"k in 1..3\"\nholds = \"foo(k) > 0\"",
            "foo(k)",
            0,
            "unknown function `foo`",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"floor(k, 2) > 0\"",
            "floor(k, 2)",
            0,
            "`floor` takes 1 argument(s), 2 given",
        ),
        (
            "for = \"k in 1..3\"\nactual = \"candy_v(k)\"\nexpected = \"0\"",
            "candy_v(k)",
            8,
            "expected a list here, found a number",
        ),
        ("holds = \"n > 0\"", "n > 0", 0, "unknown name `n`"),
        (
            "for = \"k in 1..3\"\nholds = \"sum(j in 1..m: j) > 0\"",
            "m: j",
            0,
            "unknown name `m`",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"k >= \"",
            "k >= ",
            5,
            "expected an expression",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"k > 0 0\"",
            "k > 0 0",
            6,
            "expected",
        ),
        (
            "for = \"k in 1.10\"\nholds = \"true\"",
            "1.10",
            1,
            "expected",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"k + 1\"",
            "k + 1",
            0,
            "expected a truth value",
        ),
        (
            // Columns count characters, not bytes.
            "holds = \"1 ⊕ 2 ⊕ foo(1) == 0\"",
            "foo(1)",
            0,
            "unknown function `foo`",
        ),
        (
            // TOML literal strings map one to one as well.
            "for = 'k in 0..3'\nactual = 'gs(\"{4,5}\", k)'\nexpected = 'foo(k)'",
            "foo(k)",
            0,
            "unknown function `foo`",
        ),
        (
            "for = \"k in 1..3\"\nholds = \"winner([1, 2], k) == 1\"",
            "== 1",
            3,
            "never equal",
        ),
    ];
    for (body, needle, offset, message) in cases {
        let src = file("p", &[claim("a", "A", body)]);
        assert_refused_at(&src, &location_of(&src, needle, *offset), message);
    }
}

#[test]
fn bad_structure_is_refused_with_file_line_column_and_caret() {
    let one = |body: &str| file("p", &[claim("a", "A", body)]);
    // Unknown key: at the key.
    let src = one("holds = \"true\"\ncolour = \"red\"");
    assert_refused_at(
        &src,
        &location_of(&src, "colour", 0),
        "unknown field `colour`",
    );
    // Duplicate id: at the second claim.
    let src = file(
        "p",
        &[
            claim("a", "A", "holds = \"true\""),
            claim("a", "B", "holds = \"true\""),
        ],
    );
    let second = src.rfind("[[claim]]").unwrap();
    let line = src[..second].matches('\n').count() + 1;
    assert_refused_at(
        &src,
        &(format!("bad.toml:{line}:1:"), 1),
        "claim id `a` is used twice",
    );
    // Missing check, half a check, two checks, unknown builtin: at the claim.
    for (body, message) in [
        ("for = \"k in 1..3\"", "needs exactly one check"),
        (
            "for = \"k in 1..3\"\nactual = \"k\"",
            "both `actual` and `expected`",
        ),
        (
            "holds = \"true\"\nbuiltin = \"scoring.pwl_shape\"",
            "exactly one check",
        ),
        (
            "builtin = \"no.such_check\"",
            "unknown builtin `no.such_check`",
        ),
    ] {
        let src = one(body);
        let err = assert_refused_at(&src, &location_of(&src, "[[claim]]", 0), message);
        if body.contains("builtin = \"no") {
            assert!(err.contains("--list-builtins"), "{err}");
        }
    }
    // `checks` (the check in words): not empty, not on a builtin, on each reading rather than
    // on a claim read several ways; each at the key's value.
    for (body, needle, message) in [
        (
            "for = \"k in 1..3\"\nholds = \"true\"\nchecks = ' '",
            "' '",
            "`checks` says the check in words; it is empty",
        ),
        (
            "builtin = \"scoring.pwl_shape\"\nchecks = 'every shape'",
            "'every shape'",
            "neither `where`, `correction` nor `checks`",
        ),
        (
            "checks = 'both'\n[[claim.reading]]\nname = 'r'\nholds = \"true\"",
            "'both'",
            "`checks` belongs to each `[[claim.reading]]`",
        ),
    ] {
        let src = one(body);
        assert_refused_at(&src, &location_of(&src, needle, 0), message);
    }
    // `deep` binding other variables: at the deep range.
    let src = one("for = \"k in 1..3\"\ndeep = \"j in 1..30\"\nholds = \"true\"");
    assert_refused_at(
        &src,
        &location_of(&src, "\"j in", 0),
        "same variables as `for`",
    );
    let src =
        one("for = \"k in 1..3, j in 1..3\"\ndeep = \"j in 1..30, k in 1..3\"\nholds = \"true\"");
    assert_refused_at(
        &src,
        &location_of(&src, "\"j in 1..30", 0),
        "same variables",
    );
    // Not TOML at all.
    let src = "paper = \"p\"\n[[claim]\n";
    assert_refused_at(src, &location_of(src, "[[claim]", 8), "expected `]`");
    // A function calling an unknown one, in `define`.
    let src = "paper = \"p\"\ndefine = [\"F(k) = 2k + G(k)\"]\n";
    assert_refused_at(src, &location_of(src, "G(k)", 0), "unknown function `G`");
}

#[test]
fn missing_files_and_errors_in_a_later_file_print_nothing() {
    run_input_error(&["check", "no-such-file.toml"], &["no-such-file.toml"]);
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.toml", &mixed_file());
    let bad = write(
        dir.path(),
        "bad.toml",
        &file("p", &[claim("a", "A", "holds = \"nope(1)\"")]),
    );
    // Every file is checked before anything is evaluated or printed.
    let err = run_input_error(
        &["check", good.to_str().unwrap(), bad.to_str().unwrap()],
        &["bad.toml:", "unknown function `nope`"],
    );
    assert!(!err.contains("good.toml"), "{err}");
    run_input_error(&["check"], &[]);
}

#[test]
fn no_output_file_on_errors() {
    let files = tempfile::tempdir().unwrap();
    let bad = |name: &str, body: &str| {
        write(files.path(), name, &file("p", &[claim("a", "A", body)]))
            .to_str()
            .unwrap()
            .to_string()
    };
    let lines = [
        format!(
            "check {} --format csv",
            bad("f1.toml", "holds = \"foo(1)\"")
        ),
        format!(
            "check {}",
            bad("f2.toml", "for = \"k in 1..3\"\nholds = \"k\"")
        ),
        format!("check {}", bad("f3.toml", "holds = \"1/0 == 1\"")),
        format!("check {} --only nope", bad("f4.toml", "holds = \"true\"")),
        format!("check {}/missing.toml", files.path().display()),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let out = tempfile::tempdir().unwrap();
    assert_failed_runs_leave_no_output_file(out.path(), &lines);

    // A run that finds a failing claim is not an error: the table is written, exit code 1.
    let out = tempfile::tempdir().unwrap();
    let good = write(files.path(), "mixed.toml", &mixed_file());
    let line = format!("check {} --format csv", good.display());
    let stdout = nimlab().args(words(&line)).output().unwrap();
    assert_eq!(stdout.status.code(), Some(1));
    run_to_file(out.path(), &line).code(1).stdout("");
    assert_eq!(
        fs::read(out.path().join("out.csv")).unwrap(),
        stdout.stdout,
        "the file holds what stdout would"
    );
    // A passing run with -o.
    let out = tempfile::tempdir().unwrap();
    let line = format!("check {} --only gauss --format md", good.display());
    let stdout = run_ok(&words(&line));
    assert_output_file_holds(out.path(), &line, &stdout, "");
}

#[test]
fn impossible_ranges_are_refused_with_file_line_column_and_caret() {
    for (range, message) in [
        ("k in 1..10^9", "at most"),
        ("k in 1..10 step 0", "positive"),
        ("k in 1..10 step -1/2", "positive"),
    ] {
        let src = file(
            "p",
            &[claim(
                "a",
                "A",
                &format!("for = \"{range}\"\nholds = \"true\""),
            )],
        );
        let loc = location_of(&src, range, 0);
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "bad.toml", &src);
        let out = nimlab()
            .current_dir(dir.path())
            .args(["check", "bad.toml"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(message), "{err}");
        let line_prefix = loc.0.rsplitn(3, ':').nth(2).unwrap().to_string();
        assert!(
            err.starts_with(&format!("error: {line_prefix}:")),
            "{range}:\n{err}"
        );
        assert!(err.contains('^'), "a caret:\n{err}");
    }
}

#[test]
fn deep_expressions_do_not_crash_the_checker() {
    for expr in [
        format!("{}x == 1", "let x = 1 in ".repeat(300)),
        format!("{}1 == 2", "2^".repeat(1900)),
    ] {
        let src = file("p", &[claim("a", "A", &format!("holds = \"{expr}\""))]);
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "deep.toml", &src);
        let (code, _, err) = check(&[p.to_str().unwrap()]);
        assert!(code == 0 || code == 2, "exit {code}: {err}");
    }
}

#[test]
fn builtin_deep_range_binds_the_same_variables() {
    let src = file(
        "p",
        &[claim(
            "a",
            "A",
            "builtin = \"scoring.pwl_shape\"\nfor = \"a in 1..3\"\ndeep = \"x in 1..4\"\n\
             args = { position = \"[a]\", fact = \"continuous\" }",
        )],
    );
    assert_refused_at(&src, &location_of(&src, "\"x in", 0), "same variables");
}

#[test]
fn builtin_over_an_empty_range_does_not_hold() {
    let src = file(
        "p",
        &[claim(
            "a",
            "A",
            "builtin = \"scoring.pwl_shape\"\nfor = \"a in 3..1\"\n\
             args = { position = \"[a]\", fact = \"continuous\" }",
        )],
    );
    let (_, t) = check_text_csv(&src, &[]);
    assert_ne!(t.records()[0]["verdict"], "HOLDS", "{:?}", t.rows);
}

#[test]
fn huge_engine_arguments_are_refused_not_fatal() {
    for expr in ["gs(\"{4,5}\", 2^31) == 0", "f1([1], 2^30) == 0"] {
        let src = file(
            "p",
            &[claim("a", "A", &format!("holds = {}", toml_str(expr)))],
        );
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "big.toml", &src);
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 4000000; exec \"$0\" check \"$1\"")
            .arg(assert_cmd::cargo::cargo_bin("nimlab"))
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{expr}: {err}");
        assert!(err.starts_with("error: "), "{expr}: {err}");
    }
}

/// A builtin does its own enumeration: `where` (and `correction`) next to it is refused, never
/// silently ignored.
#[test]
fn where_is_refused_next_to_a_builtin() {
    let dir = tempfile::tempdir().unwrap();
    let src = file(
        "p",
        &[claim(
            "a",
            "A",
            "builtin = \"scoring.pwl_shape\"\nfor = \"a in 1..3\"\nwhere = \"false\"\n\
             args = { position = \"[a]\", fact = \"continuous\" }",
        )],
    );
    let p = write(dir.path(), "claims.toml", &src);
    let out = nimlab()
        .args(["check", p.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("takes neither `where`, `correction` nor `checks`"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Output formats

#[test]
fn formats_are_exact_and_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "claims.toml", &mixed_file());
    let p = p.to_str().unwrap();
    let (_, csv, _) = check(&[p, "--format", "csv"]);
    assert!(
        csv.starts_with("paper,label,verdict,range,evidence,tables\n"),
        "{csv}"
    );
    let csv = Csv::parse(&csv);
    let (_, json, _) = check(&[p, "--format", "json"]);
    let json: Value = serde_json::from_str(&json).expect("JSON parses");
    assert_json_rows_match_csv("check --format json", json.as_array().unwrap(), &csv);

    // Markdown: a header, a rule, one row per claim with the same cells.
    let (code, md, _) = check(&[p, "--format", "md"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(
        lines[0],
        "| paper | label | verdict | range | evidence | tables |"
    );
    assert_eq!(lines[1], "| --- | --- | --- | --- | --- | --- |");
    assert_eq!(lines.len(), 2 + csv.rows.len());
    for (line, row) in lines[2..].iter().zip(&csv.rows) {
        assert_eq!(*line, format!("| {} |", row.join(" | ")));
    }

    // Text: one entry per claim, "label — VERDICT (paper)" first, entries apart by a blank line.
    let (_, text, _) = check(&[p]);
    let entries: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(entries.len(), csv.rows.len());
    for (entry, row) in entries.iter().zip(&csv.rows) {
        let first = entry.lines().next().unwrap();
        assert_eq!(
            first,
            format!("{} — {} ({})", row[1], row[2], row[0]),
            "{entry}"
        );
    }
}

#[test]
fn markdown_escapes_bars() {
    let src = file(
        "p|q",
        &[claim(
            "a",
            "Lemma 1|2",
            "actual = \"\\\"a|b\\\"\"\nexpected = \"\\\"c\\\"\"",
        )],
    );
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "claims.toml", &src);
    let (code, md, err) = check(&[p.to_str().unwrap(), "--format", "md"]);
    assert_eq!(code, 1, "{err}");
    let row = md.lines().nth(2).unwrap();
    assert!(row.starts_with("| p\\|q | Lemma 1\\|2 | FAILS |"), "{row}");
    assert!(row.contains("actual \"a\\|b\""), "{row}");
    // Six cells (evidence tables last, none here): seven unescaped bars.
    let bars = row.len() - row.replace('|', "").len();
    let escaped = row.matches("\\|").count();
    assert_eq!(bars - escaped, 7, "{row}");
}

#[test]
fn output_is_deterministic() {
    // Many claims, checked in parallel: the order and the bytes never change.
    let mut claims: Vec<String> = (0..40)
        .map(|i| {
            claim(
                &format!("c{i}"),
                &format!("Claim {i}"),
                &format!(
                    "for = \"k in 0..{}\"\nactual = \"payoff(k/2, [{}, 2, 1])\"\nexpected = \"payoff(k/2, [{}, 2, 1])\"",
                    40 - i,
                    i % 5 + 1,
                    i % 5 + 1
                ),
            )
        })
        .collect();
    claims.push(claim(
        "sq",
        "Squares",
        "for = \"k in 0..10\"\nactual = \"k^2\"\nexpected = \"2k\"",
    ));
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "claims.toml", &file("p", &claims));
    let p = p.to_str().unwrap();
    for format in ["text", "csv", "json", "md"] {
        let a = nimlab()
            .args(["check", p, "--format", format])
            .output()
            .unwrap();
        let b = nimlab()
            .args(["check", p, "--format", format])
            .output()
            .unwrap();
        assert_eq!(a.status.code(), Some(1));
        assert_eq!(a.stdout, b.stdout, "{format}");
        assert_eq!(a.stderr, b.stderr, "{format}");
    }
    let (_, csv, _) = check(&[p, "--format", "csv"]);
    let t = Csv::parse(&csv);
    let labels: Vec<String> = t.records().iter().map(|r| r["label"].to_string()).collect();
    let mut want: Vec<String> = (0..40).map(|i| format!("Claim {i}")).collect();
    want.push("Squares".into());
    assert_eq!(labels, want);
}

#[test]
fn list_builtins() {
    let t = Csv::run("check --list-builtins --format csv");
    assert_eq!(t.header, ["builtin", "checks"]);
    let names: Vec<&str> = t.rows.iter().map(|r| r[0].as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(names, sorted, "sorted and unique");
    assert!(t.rows.iter().all(|r| !r[1].is_empty()));
    // Every listed builtin is accepted by the loader (its name is known).
    for name in names {
        let src = file("p", &[claim("a", "A", &format!("builtin = \"{name}\""))]);
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "b.toml", &src);
        let (_, _, err) = check(&[p.to_str().unwrap()]);
        assert!(!err.contains("unknown builtin"), "{name}: {err}");
    }
}

/// Claims too large to check are refused at once, exit 2, with the estimate and the file and
/// line of the claim; errors stay a few lines long however large the values involved.
#[test]
fn oversized_claims_are_refused_at_once_with_a_located_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let mut defines = vec![toml_str("F0(x) = x + 1")];
    for k in 1..=50 {
        defines.push(toml_str(&format!(
            "F{k}(x) = F{}(x) + F{}(x)",
            k - 1,
            k - 1
        )));
    }
    for (name, src, needle) in [
        (
            "nested",
            file(
                "p",
                &[claim(
                    "c",
                    "C",
                    "for = \"a in 1..1000000, b in 1..1000000\"\nholds = \"a + b > 0\"",
                )],
            ),
            "evaluation steps",
        ),
        (
            "aggregate",
            file(
                "p",
                &[claim(
                    "c",
                    "C",
                    "for = \"a in 1..1000000\"\nholds = \"all(b in 1..1000000: a + b > 0)\"",
                )],
            ),
            "evaluation steps",
        ),
        (
            "power",
            file("p", &[claim("c", "C", "holds = \"(3^160)^65536 * 2 > 0\"")]),
            "too large",
        ),
        (
            "defines",
            format!(
                "paper = \"p\"\ndefine = [{}]\n{}",
                defines.join(", "),
                claim("c", "C", "holds = \"F50(1) > 0\"")
            ),
            "evaluation steps",
        ),
        (
            "huge_value",
            file(
                "p",
                &[claim("c", "C", "holds = \"ilog2(-((7^65536)^4)) == 1\"")],
            ),
            "digits",
        ),
    ] {
        let path = write(dir.path(), &format!("{name}.toml"), &src);
        let started = std::time::Instant::now();
        let (code, _, err) = check(&[path.to_str().unwrap()]);
        assert!(
            started.elapsed().as_secs_f64() < 5.0,
            "{name}: {:?}",
            started.elapsed()
        );
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains(needle), "{name}: {err}");
        assert!(err.len() < 2000, "{name}: {} bytes", err.len());
        // Located: `file:line:col:`, the claim, and a caret line.
        let prefix = format!("{}:", path.display());
        assert!(
            err.contains(&prefix) && err.contains("claim `c`"),
            "{name}: {err}"
        );
        assert!(
            err.lines().any(|l| l.trim_end().ends_with('^')),
            "{name}: {err}"
        );
    }
}

/// The text format is one entry per claim, its mathematics in Unicode: a helper of the claim
/// file appears by its display form (here a correction written with it), never by its name.
#[test]
fn text_entries_show_helpers_by_their_display_form() {
    let src = "paper = \"t\"\n\
               define = [{ def = \"TWICE(k) = 2k\", display = 'D_{#k}', means = 'twice $k$' }]\n\
               [[claim]]\nid = \"a\"\nlabel = \"Claim A\"\nstatement = \"s\"\n\
               for = \"k in 1..4\"\nactual = \"2k\"\nexpected = \"k + 1\"\n\
               correction = \"TWICE(k)\"\n";
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "claims.toml", src);
    let (code, out, err) = check(&[p.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(!out.contains("TWICE") && !out.contains('$'), "{out}");
    assert!(
        out.starts_with("Claim A — FAILS (t)\n  range: k in 1..4\n"),
        "{out}"
    );
    assert!(
        out.contains("the correction Dₖ holds at all 4 points"),
        "{out}"
    );
}
