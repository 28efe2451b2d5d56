//! `nimlab study` end to end: bad study files refused with file:line:col before anything is
//! written, the starter study's round trip, every table kind agreeing with the command that
//! prints the same table, the cash survey against a naive recomputation, and the cache.

use std::fs;
use std::path::Path;

use crate::common;
use common::*;

/// A study file in a fresh directory: (the directory, the file's path as text).
fn study_file(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("s.toml");
    fs::write(&path, text).expect("the study is written");
    (dir, path.to_str().expect("UTF-8 path").to_string())
}

const HEAD: &str = "[study]\nname = \"s\"\ntitle = \"t\"\n\n";

/// Runs `study check` and `study tables` on `body` (after a [study] table); both must exit 2
/// naming `s.toml:line:col` and `needles`, and `tables` must write nothing.
fn refused(body: &str, line_col: &str, needles: &[&str]) {
    let (dir, path) = study_file(&format!("{HEAD}{body}"));
    let place = format!("s.toml:{line_col}: ");
    let mut all = vec![place.as_str()];
    all.extend(needles);
    run_input_error(&["study", "check", &path], &all);
    let out = dir.path().join("out");
    let cache = dir.path().join("cache");
    run_input_error(
        &[
            "study",
            "tables",
            &path,
            "-o",
            out.to_str().unwrap(),
            "--cache",
            cache.to_str().unwrap(),
        ],
        &all,
    );
    assert!(!out.exists(), "nothing is written for a refused study");
    assert!(!cache.exists(), "nothing is computed for a refused study");
}

#[test]
fn an_unknown_kind_is_refused_at_the_kind() {
    refused(
        "[[table]]\nname = \"a\"\nkind = \"scoring.famly\"\nfamily = \"k,1\"\n",
        "7:8",
        &["unknown kind `scoring.famly`", "scoring.family"],
    );
}

#[test]
fn a_wrong_parameter_is_refused_at_the_key() {
    refused(
        "[[table]]\nname = \"a\"\nkind = \"cash.thresholds\"\nset = [1, 4]\nmax_m = 20\n",
        "9:1",
        &["unknown parameter `max_m`", "set, max_n, defined_only"],
    );
    refused(
        "[[table]]\nname = \"a\"\nkind = \"cash.thresholds\"\nset = [1, 4]\n",
        "7:8",
        &["needs the parameter `max_n`"],
    );
    refused(
        "[[table]]\nname = \"a\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,1\"\nranges = { m = \"1..3\" }\n",
        "9:10",
        &["parameters {k}"],
    );
    refused(
        "[[table]]\nname = \"a\"\nkind = \"octal.values\"\nrules = \"0.9\"\nmax_heap = 10\n",
        "8:9",
        &["parameter `rules`"],
    );
    // A misspelt key outside a table is caught by the schema.
    refused(
        "[[figures]]\nname = \"a\"\n",
        "5:3",
        &["unknown field `figures`"],
    );
}

#[test]
fn a_figure_naming_a_missing_column_is_refused() {
    refused(
        "[[table]]\nname = \"a\"\nkind = \"cash.thresholds\"\nset = [1, 4]\nmax_n = 20\n\n\
         [[figure]]\nname = \"f\"\ntable = \"a\"\nx = \"n\"\ny = [\"f1\", \"f3\"]\nstyle = \"line\"\n",
        "15:12",
        &[
            "column `f3`",
            "n, winner, f1, f2, g1, g2, least_f1, least_f2",
        ],
    );
    refused(
        "[[value]]\nname = \"v\"\ntable = \"nothing\"\ncolumn = \"n\"\n",
        "7:9",
        &["table `nothing`", "does not declare"],
    );
}

#[test]
fn a_cycle_of_mining_steps_is_refused() {
    refused(
        "[[mine]]\nname = \"a\"\ntable = \"b\"\nhow = \"family\"\ncolumns = [\"x\"]\n\n\
         [[mine]]\nname = \"b\"\ntable = \"a\"\nhow = \"family\"\ncolumns = [\"x\"]\n",
        "7:9",
        &["cycle: a → b → a"],
    );
}

#[test]
fn an_oversized_computation_is_refused_before_any_work() {
    let body = "[[table]]\nname = \"small\"\nkind = \"cash.thresholds\"\nset = [1, 4]\nmax_n = 20\n\n\
                [[table]]\nname = \"huge\"\nkind = \"cash.table\"\nset = [1, 4]\nmax_n = 400\n";
    let (dir, path) = study_file(&format!("{HEAD}{body}"));
    let out = dir.path().join("out");
    let needles = [
        "s.toml:12:8: ",
        "table `huge` (cash.table) would need about",
        "more than the limit of 64 MiB",
    ];
    let start = std::time::Instant::now();
    run_input_error(
        &["study", "check", &path, "--memory-limit", "64M"],
        &needles,
    );
    run_input_error(
        &[
            "study",
            "tables",
            &path,
            "--memory-limit",
            "64M",
            "--no-cache",
            "-o",
            out.to_str().unwrap(),
        ],
        &needles,
    );
    assert!(
        start.elapsed().as_secs_f64() < 5.0,
        "refused from the estimate"
    );
    assert!(!out.exists(), "not even the small table is written");
    // Within the budget the same file is accepted.
    run_ok(&["study", "check", &path, "--memory-limit", "100G"]);
}

#[test]
fn an_inline_claim_error_points_into_the_study_file() {
    refused(
        "[[claim]]\nid = \"c\"\nlabel = \"L\"\nstatement = \"s\"\nfor = \"k in 1..3\"\nholds = \"k +* 1 == 2\"\n",
        "10:13",
        &["expected an expression"],
    );
}

#[test]
fn a_new_study_checks_and_computes() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("my-study");
    let name = name.to_str().unwrap();
    run_ok_stderr(&["study", "new", name]);
    let file = format!("{name}.toml");
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains("name = \"my-study\""), "{text}");
    // Never over an existing file.
    run_input_error(&["study", "new", name], &["never overwritten"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    let check = Csv::run_args(&["study", "check", &file, "--format", "csv"]);
    assert_eq!(
        check.header,
        ["table", "kind", "columns", "rows", "bytes", "work"]
    );
    assert_eq!(check.rows.len(), 2);
    let out = dir.path().join("out");
    run_ok_stderr(&[
        "study",
        "tables",
        &file,
        "--no-cache",
        "-o",
        out.to_str().unwrap(),
    ]);
    for table in ["family", "thresholds"] {
        assert!(out.join("my-study").join(format!("{table}.csv")).is_file());
    }
    run_input_error(&["study", "new", "Bad_Name"], &["study name"]);
}

/// The CSV `study tables` writes for one table of kind `kind` with parameters `params`.
fn study_csv(kind: &str, params: &str) -> String {
    let (dir, path) = study_file(&format!(
        "{HEAD}[[table]]\nname = \"t\"\nkind = \"{kind}\"\n{params}\n"
    ));
    let out = dir.path().join("out");
    run_ok_stderr(&[
        "study",
        "tables",
        &path,
        "--no-cache",
        "-o",
        out.to_str().unwrap(),
    ]);
    fs::read_to_string(out.join("s").join("t.csv")).expect("the table is written")
}

#[test]
fn every_kind_agrees_with_its_command() {
    let cases = [
        (
            "scoring.family",
            "family = \"2k+1,2k,1\"\nranges = { k = \"1..6\" }",
            "scoring family 2k+1,2k,1 --k 1..6 --format csv",
        ),
        (
            "scoring.family",
            "family = \"x,2k,1\"\nranges = { k = \"1..2\", x = \"3..5\" }\ngrid = \"-3..3 step 1/2\"",
            "scoring family x,2k,1 --k 1..2 --x 3..5 --bonus=-3..3 --step 1/2 --format csv",
        ),
        (
            "octal.values",
            "subtract = [4, 5]\nmax_heap = 40",
            "octal values --subtract 4,5 --max-heap 40 --format csv",
        ),
        (
            "octal.values",
            "rules = \"0.26\"\nmax_heap = 30\nbonus = \"1/2\"",
            "octal values --rules 0.26 --max-heap 30 --bonus 1/2 --format csv",
        ),
        (
            "candy.family",
            "family = \"31,32m,32m+31\"\nranges = { m = \"1..5\" }",
            "candy family 31,32m,32m+31 --m 1..5 --format csv",
        ),
        (
            "cash.thresholds",
            "set = [3, 5, 6, 10, 11]\nmax_n = 60",
            "cash thresholds --set 3,5,6,10,11 --max-n 60 --format csv",
        ),
        (
            "cash.thresholds",
            "set = \"1,4\"\nmax_n = 5000\ndefined_only = true",
            "cash thresholds --set 1,4 --max-n 5000 --defined-only --format csv",
        ),
        (
            "cash.table",
            "set = [1, 3, 4]\nmax_n = 6",
            "cash table --set 1,3,4 --max-n 6 --format csv",
        ),
    ];
    for (kind, params, line) in cases {
        assert_eq!(
            study_csv(kind, params),
            run_ok(&words(line)),
            "{kind}: {params}"
        );
    }
}

#[test]
fn payoffs_of_several_positions_agree_with_the_family_command() {
    let grid = study_csv(
        "scoring.payoff",
        "positions = [[5, 4, 2], [3, 2, 1]]\ngrid = \"-2..2\"",
    );
    let t = Csv::parse(&grid);
    assert_eq!(t.header, ["position", "bonus", "payoff"]);
    assert_eq!(t.rows.len(), 10);
    // f_N(5,4,2) is the member k = 2 of (2k+1, 2k, 2)... as a one-member family.
    let fam = Csv::run("scoring family 5,4,k --k 2..2 --bonus=-2..2 --format csv");
    for (row, want) in t.rows[..5].iter().zip(&fam.rows) {
        assert_eq!(row[0], "[5,4,2]");
        assert_eq!(row[1..], want[4..]);
    }
    let pwl = Csv::parse(&study_csv("scoring.payoff", "positions = [[3, 2, 1]]"));
    let fam = Csv::run("scoring family 3,2,k --k 1..1 --format csv");
    assert_eq!(pwl.rows[0][1..], fam.rows[0][4..]);
}

/// W_A(n) for n ≤ max by the definition: n is won by the mover iff some move leads to a loss.
fn naive_plain(set: &[usize], max: usize) -> Vec<bool> {
    let mut win = vec![false; max + 1];
    for n in 0..=max {
        win[n] = set.iter().any(|&a| a <= n && !win[n - a]);
    }
    win
}

#[test]
fn the_cash_survey_agrees_with_a_naive_recomputation() {
    let csv = study_csv("cash.survey", "elements = \"1..4\"\nmax_n = 160");
    let t = Csv::parse(&csv);
    assert_eq!(
        t.header,
        [
            "set",
            "max",
            "plain_preperiod",
            "plain_period",
            "cash",
            "cash_period",
            "cash_from"
        ]
    );
    assert_eq!(t.rows.len(), 15, "every non-empty A ⊆ {{1..4}}");
    let mut periodic = 0;
    for r in t.records() {
        let set: Vec<usize> = r["set"]
            .trim_matches(|c| c == '{' || c == '}')
            .split(',')
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(int(r["max"]) as usize, *set.iter().max().unwrap());
        // The least period and preperiod of W_A on the data, by brute force.
        let w = naive_plain(&set, 160);
        let holds = |pre: usize, p: usize| (pre..=160 - p).all(|n| w[n] == w[n + p]);
        let p = (1..=40)
            .find(|&p| holds(40, p))
            .expect("a period within 40");
        let pre = (0..=40).find(|&s| holds(s, p)).unwrap();
        assert_eq!(
            (
                int(r["plain_preperiod"]) as usize,
                int(r["plain_period"]) as usize
            ),
            (pre, p),
            "A = {:?}",
            set
        );
        if r["cash"] == "periodic" {
            periodic += 1;
            // Def 4.4(3): W and every C^I(n, a) = f^I(n) − f^II(n−a) − a and
            // C^II(n, a) = f^II(n) − f^I(n−a) repeat with the cash period from cash_from on.
            let th = Csv::run(&format!(
                "cash thresholds --set {} --max-n 160 --defined-only --format csv",
                r["set"].trim_matches(|c| c == '{' || c == '}')
            ));
            let f: Vec<(i64, i64, String)> = th
                .records()
                .iter()
                .map(|x| (int(x["f1"]), int(x["f2"]), x["winner"].to_string()))
                .collect();
            let key = |n: usize| {
                let cs: Vec<(i64, i64)> = set
                    .iter()
                    .map(|&a| (f[n].0 - f[n - a].1 - a as i64, f[n].1 - f[n - a].0))
                    .collect();
                (f[n].2.clone(), cs)
            };
            let period = int(r["cash_period"]) as usize;
            let from = int(r["cash_from"]) as usize;
            for n in from..=160 - period {
                assert_eq!(key(n), key(n + period), "A = {set:?}, n = {n}");
            }
        } else {
            assert!(matches!(r["cash"], "not periodic" | "undecided"), "{r:?}");
        }
    }
    assert!(periodic > 0, "some small sets are cash-periodic");
}

#[test]
fn a_cache_hit_and_a_corrupt_entry_give_identical_bytes() {
    let (dir, path) = study_file(&format!(
        "{HEAD}[[table]]\nname = \"f\"\nkind = \"scoring.family\"\nfamily = \"2k+1,2k,2\"\nranges = {{ k = \"1..6\" }}\n"
    ));
    let cache = dir.path().join("cache");
    let out = dir.path().join("out");
    let args = [
        "study",
        "tables",
        &path,
        "--cache",
        cache.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    let run = || {
        let out_path = out.join("s").join("f.csv");
        let (_, stderr) = run_ok_stderr(&args);
        (fs::read(out_path).unwrap(), stderr)
    };
    let progress = |args: &[&str]| {
        let out = common::nimlab()
            .env_remove("NIMLAB_PROGRESS")
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let (cold, _) = run();
    assert!(progress(&args).contains("read from the cache"));
    let (warm, _) = run();
    assert_eq!(warm, cold);
    let entries: Vec<_> = fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1);
    fs::write(&entries[0], b"{\"truncated").unwrap();
    assert!(progress(&args).contains("unusable cache entry was replaced"));
    let (again, _) = run();
    assert_eq!(again, cold);
    assert!(Path::new(&entries[0]).is_file());
}

#[test]
fn the_documented_example_and_the_shipped_study_are_valid() {
    let readme = fs::read_to_string("data/studies/README.md").unwrap();
    let example: String = readme
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README has a complete example")
        .to_string();
    let (_dir, path) = study_file(&example);
    let check = Csv::run_args(&["study", "check", &path, "--format", "csv"]);
    let kinds: Vec<&str> = check.rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(kinds, ["scoring.family", "scoring.family", "cash.survey"]);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    run_ok_stderr(&[
        "study",
        "tables",
        "data/studies/example.toml",
        "--no-cache",
        "-o",
        out,
    ]);
    let sets = Csv::parse(&fs::read_to_string(dir.path().join("example/sets.csv")).unwrap());
    assert_eq!(sets.rows.len(), 15);
}
