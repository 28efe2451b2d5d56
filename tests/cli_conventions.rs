//! Output and command-line conventions, checked over the whole command tree: every
//! `--format json` output is an array of row objects whose lists and structured values are JSON
//! arrays and objects; every whole-number option rejects malformed, negative and huge values
//! with exit code 2 and a message naming the option, the value and the allowed range. Both walk
//! `Cli::command()`, so a new command or option is covered (or the test says it must be listed).
//! Also: shell completions, the man page and `--version`.

use crate::common;

use std::any::TypeId;
use std::collections::BTreeSet;
use std::path::Path;

use clap::CommandFactory;
use common::*;
use nimlab::Pwl;
use nimlab::app::Cli;
use num_bigint::BigUint;
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Helpers

/// Every runnable command path (`["scoring", "payoff"]`) with its clap command.
fn leaves() -> Vec<(Vec<String>, clap::Command)> {
    fn walk(
        cmd: &clap::Command,
        path: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, clap::Command)>,
    ) {
        let subs: Vec<&clap::Command> = cmd
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .collect();
        if subs.is_empty() {
            out.push((path.clone(), cmd.clone()));
        }
        for sub in subs {
            path.push(sub.get_name().to_string());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, &mut Vec::new(), &mut out);
    out
}

/// Runs a command line (its own words, not split) and returns (exit code, stdout, stderr).
fn run_args(args: &[String]) -> (Option<i32>, String, String) {
    let out = nimlab().args(args).output().expect("nimlab runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// ---------------------------------------------------------------------------------------------
// 1. JSON: arrays of row objects, lists as arrays

/// One small invocation of every command with `--format json`, and the fields of its rows that
/// hold lists or structured values (checked to be JSON arrays or objects; `a.b` looks inside the
/// nested rows of `a`). `{csv}` is a CSV file of `cash thresholds`.
const JSON_COMMANDS: &[(&str, &[&str])] = &[
    ("scoring payoff 5 4 2", &[]),
    ("octal grundy 0.77 --max-heap 5", &[]),
    ("scoring moves 5 4 2", &["moves"]),
    ("scoring moves 5 4 2 --bonus 3 --all", &["to"]),
    (
        "scoring line 5 4 2 --bonus 3",
        &["plies", "plies.from", "plies.to"],
    ),
    ("scoring limits 5 4 2", &["position"]),
    ("scoring table --heaps 2 --max-heap 4", &["payoff"]),
    ("scoring family 2k+1,2k,1 --k 1..3", &["payoff"]),
    (
        "discover scoring --heaps 2 --slopes 0..1 --offsets 0..1 --k 1..8 --no-claims",
        &["known_claims", "anomalies", "c_plus_form"],
    ),
    (
        "discover candy --bits 2 --a 1..3 --m 1..8 --no-claims",
        &["known_claims", "anomalies", "v_form"],
    ),
    (
        "discover cash --max-element 4 --no-claims",
        &["set", "rates", "known_claims", "condition", "forms"],
    ),
    (
        "discover subtraction --slopes 0..1 --offsets=0..1 --L 1..10 --no-claims",
        &["preperiod_form", "period_form"],
    ),
    ("octal values --subtract 4,5 --max-heap 5", &[]),
    (
        "octal value --subtract 4,5 --also 0.26 9 4@2 --payoff",
        &["position", "payoff"],
    ),
    ("octal period --subtract 4,5 --plus 4", &["plus", "window"]),
    ("octal outcome --rules 0.26 7 5 --score 3", &["position"]),
    ("octal survey --subtract-subsets-of 1..3", &["set"]),
    (
        "cash survey --set-subsets-of 1..3",
        &["set", "f1_slopes", "f2_slopes"],
    ),
    ("candy value 3 2 1", &["position", "line", "line.after"]),
    ("candy table --heaps 2 --max-heap 3", &[]),
    ("candy family 31,32m,32m+31 --m 1..2", &[]),
    ("candy allocate --max-candies 8", &["argmin", "argmax"]),
    (
        "candy strategy fractal 7 16 23",
        &["position", "turns", "turns.before"],
    ),
    ("candy standard --k 1..2 --m 1..2", &[]),
    ("candy frak --a 4..5 --m 1..2", &[]),
    ("cash winner --set 1,3,4 14 9 9", &["set"]),
    ("cash classify --set 1,3,4 14 9 9", &["set"]),
    ("cash thresholds --set 1,3,4 --max-n 5", &[]),
    ("cash critical --set 1,4 --max-n 20", &[]),
    ("cash condition --set 1,4", &[]),
    ("cash table --set 1,3,4 --max-n 2", &[]),
    ("mine sequence --csv {csv} --index n --value f1", &[]),
    (
        "mine check --csv {csv} --index n --value f1 --formula n",
        &[],
    ),
    ("mine cash --set 1,4", &[]),
    ("mine octal --subtract 4,5", &[]),
    ("mine family scoring 2k+1,2k,1 --k 1..6", &[]),
    ("mine family candy 31,32m,32m+31 --m 1..8", &[]),
    ("mine across cash --set 1,L --L 2..4", &["set", "slopes"]),
    ("check data/claims/candy-nim.toml --only Lemma_3.2", &[]),
    ("check --list-builtins", &[]),
    ("study check data/studies/example.toml", &["columns"]),
];

/// Keys whose text may look like a list: ruleset names such as `{4,5}` or `(3333, 2222)`, which
/// `--rules` reads back.
const RULESET_KEYS: [&str; 2] = ["rules", "game"];

/// Fails on a string that encodes a list (`[3,2,1]`, `{1,3,4}`, `(0,2) (1,1)`) anywhere in `v`.
fn assert_no_encoded_lists(line: &str, key: &str, v: &Value) {
    match v {
        Value::String(s) if !RULESET_KEYS.contains(&key) => {
            let t = s.trim();
            let bracketed = t.starts_with(['[', '{', '(']) && t.ends_with([']', '}', ')']);
            assert!(
                !(bracketed && t.contains([',', ';', ' '])),
                "{line}: {key} = {s:?} is a list written as a string"
            );
        }
        Value::Array(items) => items
            .iter()
            .for_each(|i| assert_no_encoded_lists(line, key, i)),
        Value::Object(fields) => fields
            .iter()
            .for_each(|(k, v)| assert_no_encoded_lists(line, k, v)),
        _ => {}
    }
}

/// Every object shaped like a payoff reads back as the library's [`Pwl`].
fn assert_payoffs_read_back(line: &str, v: &Value) {
    match v {
        Value::Object(fields) => {
            if fields.contains_key("knots") {
                let f: Result<Pwl, _> = serde_json::from_value(v.clone());
                assert!(f.is_ok(), "{line}: {v} is not a payoff: {f:?}");
            }
            fields
                .values()
                .for_each(|v| assert_payoffs_read_back(line, v));
        }
        Value::Array(items) => items.iter().for_each(|v| assert_payoffs_read_back(line, v)),
        _ => {}
    }
}

/// The rows at a dotted path: the top-level rows, or the nested rows of a field.
fn rows_at<'a>(rows: &'a [Value], path: &[&str]) -> Vec<&'a Value> {
    match path {
        [] | [_] => rows.iter().collect(),
        [first, rest @ ..] => {
            let nested: Vec<&Value> = rows
                .iter()
                .flat_map(|r| r[*first].as_array().expect("nested rows").iter())
                .collect();
            nested
                .into_iter()
                .flat_map(|r| rows_at(std::slice::from_ref(r), rest))
                .collect()
        }
    }
}

fn csv_of_thresholds(dir: &Path) -> String {
    let csv = dir.join("thresholds.csv");
    let path = csv.to_str().expect("a UTF-8 path").to_string();
    run_ok(&words(&format!(
        "cash thresholds --set 1,3,4 --max-n 30 --format csv -o {path}"
    )));
    path
}

/// The words of a command line; `_` stands for a space inside a word, `{csv}` for the CSV file.
fn json_words(line: &str, csv: &str) -> Vec<String> {
    words(line)
        .into_iter()
        .map(|w| w.replace('_', " ").replace("{csv}", csv))
        .chain(["--format".to_string(), "json".to_string()])
        .collect()
}

#[test]
fn every_json_command_is_listed() {
    let with_format: BTreeSet<String> = leaves()
        .into_iter()
        .filter(|(_, c)| c.get_arguments().any(|a| a.get_id() == "format"))
        .map(|(p, _)| p.join(" "))
        .collect();
    let listed: BTreeSet<String> = JSON_COMMANDS
        .iter()
        .map(|(line, _)| {
            let (path, _) = leaves()
                .into_iter()
                .filter(|(p, _)| line.starts_with(&format!("{} ", p.join(" "))))
                .max_by_key(|(p, _)| p.len())
                .unwrap_or_else(|| panic!("{line}: no such command"));
            path.join(" ")
        })
        .collect();
    assert_eq!(
        with_format, listed,
        "every command with --format needs a line in JSON_COMMANDS"
    );
}

#[test]
fn every_json_output_is_an_array_of_row_objects_with_lists_as_arrays() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let csv = csv_of_thresholds(dir.path());
    for (line, nested) in JSON_COMMANDS {
        let args = json_words(line, &csv);
        let (code, stdout, stderr) = run_args(&args);
        assert!(
            matches!(code, Some(0 | 1)),
            "{line}: exit {code:?}: {stderr}"
        );
        let json: Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{line}: not JSON ({e}): {stdout}"));
        let rows = json
            .as_array()
            .unwrap_or_else(|| panic!("{line}: not an array: {stdout}"));
        assert!(!rows.is_empty(), "{line}: no rows");
        for row in rows {
            assert!(row.is_object(), "{line}: a row is not an object: {row}");
        }
        for field in *nested {
            let path: Vec<&str> = field.split('.').collect();
            let key = path[path.len() - 1];
            for row in rows_at(rows, &path) {
                let v = &row[key];
                assert!(
                    v.is_array() || v.is_object(),
                    "{line}: {field} is not a JSON array or object: {v}"
                );
            }
        }
        assert_no_encoded_lists(line, "", &json);
        assert_payoffs_read_back(line, &json);
        // A round trip through serde_json's own text keeps every value.
        let again: Value = serde_json::from_str(&serde_json::to_string(&json).unwrap()).unwrap();
        assert_eq!(again, json, "{line}");
    }
}

#[test]
fn json_lists_hold_exactly_the_csv_values() {
    // The same rows in both formats: a list cell's numbers are the CSV cell's, in order.
    for line in [
        "scoring moves 5 4 2",
        "scoring table --heaps 2 --max-heap 5",
        "scoring family 2k+1,2k,1 --k 1..4",
        "candy allocate --max-candies 10",
        "cash winner --set 1,3,4 14 9 9",
        "octal period --subtract 4,5 --plus 4",
        "octal period --normal-play --rules 0.77",
        "mine across cash --set 1,L --L 2..4",
    ] {
        let csv = Csv::run(&format!("{line} --format csv"));
        let json = run_json(&format!("{line} --format json"));
        assert_json_rows_match_csv(line, json.as_array().expect("an array"), &csv);
    }
    // Exactly, where the form is fixed: the payoff of (3,2,1) is [1] (0,2) [-1].
    let json = run_json("scoring family 2k+1,2k,1 --k 1 --format json");
    assert_eq!(
        json[0]["payoff"],
        serde_json::json!({"left_slope": "1", "knots": [["0", "2"]], "right_slope": "-1"})
    );
    let json = run_json("candy allocate --candies 6 --format json");
    assert_eq!(
        json[0]["argmax"],
        serde_json::json!([[3, 3], [2, 2, 1, 1], [1, 1, 1, 1, 1, 1]])
    );
    // Whole numbers beyond i64 stay exact JSON numbers.
    let json = run_json("cash winner --set 1,18446744073709551615 5 1 1 --format json");
    assert_eq!(json[0]["set"][1].as_u64(), Some(u64::MAX));
}

// ---------------------------------------------------------------------------------------------
// 2. Whole-number options

/// The integer types of whole-number options (their value parsers' output types).
fn integer_types() -> [(TypeId, bool); 12] {
    [
        (TypeId::of::<u8>(), false),
        (TypeId::of::<u16>(), false),
        (TypeId::of::<u32>(), false),
        (TypeId::of::<u64>(), false),
        (TypeId::of::<u128>(), false),
        (TypeId::of::<usize>(), false),
        (TypeId::of::<i8>(), true),
        (TypeId::of::<i16>(), true),
        (TypeId::of::<i32>(), true),
        (TypeId::of::<i64>(), true),
        (TypeId::of::<i128>(), true),
        (TypeId::of::<isize>(), true),
    ]
}

/// A value clap accepts for a positional before the one under test.
fn valid_value(arg: &clap::Arg) -> String {
    arg.get_possible_values()
        .first()
        .map_or("1".to_string(), |v| v.get_name().to_string())
}

#[test]
fn every_whole_number_option_names_the_option_the_value_and_the_range() {
    let mut checked = 0;
    for (path, cmd) in leaves() {
        let positionals: Vec<&clap::Arg> = cmd.get_positionals().collect();
        for arg in cmd.get_arguments() {
            let id = arg.get_value_parser().type_id();
            let integer = integer_types().into_iter().find(|(t, _)| id == *t);
            let big = id == TypeId::of::<BigUint>();
            let Some(signed) = integer.map(|(_, s)| s).or(big.then_some(false)) else {
                continue;
            };
            let mut bad = vec!["abc", "1.5"];
            if !signed {
                bad.push("-1");
            }
            if !big {
                bad.push("99999999999999999999999");
            }
            for value in bad {
                let mut args = path.clone();
                let name = match arg.get_long() {
                    Some(long) => {
                        args.push(format!("--{long}={value}"));
                        format!("--{long}")
                    }
                    None => {
                        let at = positionals
                            .iter()
                            .position(|p| p.get_id() == arg.get_id())
                            .expect("a positional");
                        args.extend(positionals[..at].iter().map(|p| valid_value(p)));
                        args.push(value.to_string());
                        let names = arg.get_value_names().expect("a value name");
                        format!("<{}>", names[0])
                    }
                };
                let (code, _, stderr) = run_args(&args);
                let line = args.join(" ");
                assert_eq!(code, Some(2), "{line}: {stderr}");
                assert!(
                    stderr.contains(&format!("'{value}'")),
                    "{line}: value: {stderr}"
                );
                assert!(stderr.contains(&name), "{line}: option: {stderr}");
                let range = if big {
                    stderr.contains("≥ 0")
                } else {
                    stderr.contains(" from ") && stderr.contains(" to ")
                };
                assert!(range, "{line}: range: {stderr}");
                assert!(
                    !stderr.contains("invalid digit") && !stderr.contains("too large to fit"),
                    "{line}: a raw Rust parse error: {stderr}"
                );
                checked += 1;
            }
        }
    }
    // The walk found the options (heaps, --max-heap, --max-n, --heaps, --step, …).
    assert!(
        checked > 60,
        "only {checked} checks: the walk missed the options"
    );
}

#[test]
fn ranges_and_sets_name_the_bad_element_and_the_range() {
    for (line, needles) in [
        (
            "scoring family k --k 1..99999999999999999999",
            &[
                "--k",
                "'99999999999999999999' is too large",
                "9223372036854775807",
            ][..],
        ),
        (
            "scoring family k --k a..3",
            &["--k", "'a' is not a whole number from"],
        ),
        (
            "cash winner --set 1,99999999999999999999999 1 1 1",
            &[
                "--set",
                "'99999999999999999999999' in A is too large",
                "18446744073709551615",
            ],
        ),
        (
            "cash thresholds --set 1,x --max-n 3",
            &["--set", "'x' in A is not a whole number from 1"],
        ),
        (
            "octal period --subtract 1,99999999999999999999",
            &[
                "--subtract",
                "`99999999999999999999` is too large",
                "4294967295",
            ],
        ),
        (
            "candy strategy fractal 7 16 23 --f 1,99999999999999",
            &["--f", "'99999999999999' is too large", "4294967295"],
        ),
    ] {
        run_input_error(&words(line), needles);
    }
}

#[test]
fn advice_names_only_options_the_command_has() {
    // `cash winner` has no --max-n: a win table too large for the memory limit is advised in
    // its own terms.
    let stderr = run_input_error(
        &words("cash winner --set 1,3,4 1500 1 1 --memory-limit 1K"),
        &["use a smaller n or raise --memory-limit"],
    );
    assert!(!stderr.contains("--max-n"), "{stderr}");
    // `cash table` has it, and says so.
    run_input_error(
        &words("cash table --set 1,3,4 --max-n 300 --memory-limit 1K"),
        &["use a smaller --max-n or raise --memory-limit"],
    );
}

#[test]
fn a_huge_input_gives_a_short_message() {
    let heaps: Vec<String> = (1..=100_000).map(|h| h.to_string()).collect();
    let mut args = vec!["candy".to_string(), "value".to_string()];
    args.extend(heaps);
    let (code, _, stderr) = run_args(&args);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.len() < 1000,
        "{} bytes: {}",
        stderr.len(),
        &stderr[..300]
    );
    // Cut to an excerpt, whichever layer did it.
    assert!(stderr.contains('…'), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// 3. Completions, man page, version

#[test]
fn completions_for_every_shell_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = run_ok(&["completions", shell]);
        for word in ["nimlab", "scoring", "thresholds", "max-heap"] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    run_input_error(&["completions", "tcsh"], &["'tcsh'"]);
}

/// Commands in the tree, the top level and every group included.
fn command_count(cmd: &clap::Command) -> usize {
    1 + cmd
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(command_count)
        .sum::<usize>()
}

#[test]
fn man_pages_describe_the_commands() {
    let page = run_ok(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH nimlab 1"),
        "{page}"
    );
    assert!(page.contains("scoring"), "the page lists the commands");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("man");
    run_ok(&["man", "-o", out.to_str().unwrap()]);
    let pages = dir_entries(&out);
    assert_eq!(pages.len(), command_count(&Cli::command()), "{pages:?}");
    for page in [
        "nimlab.1",
        "nimlab-scoring-payoff.1",
        "nimlab-cash-thresholds.1",
    ] {
        assert!(pages.contains(&page.to_string()), "{page} in {pages:?}");
    }
    let thresholds = std::fs::read_to_string(out.join("nimlab-cash-thresholds.1")).unwrap();
    assert!(
        thresholds.contains("least_f1"),
        "the page defines the columns"
    );
}

#[test]
fn version_names_the_commit() {
    let version = run_ok(&["--version"]);
    let rest = version
        .strip_prefix(&format!("nimlab {} (commit ", env!("CARGO_PKG_VERSION")))
        .unwrap_or_else(|| panic!("{version}"));
    let commit = rest
        .trim_end()
        .trim_end_matches(')')
        .trim_end_matches("-dirty");
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "{version}"
    );
}

#[test]
fn thresholds_help_defines_the_least_thresholds() {
    let help = run_ok(&["cash", "thresholds", "--help"]);
    for needle in [
        "least_f1",
        "the least d with which I wins (n; d, ∞)",
        "the least e with which II wins (n; least_f1 − 1, e)",
        "the least e with which II wins (n; ∞, e)",
        "the least d with which I wins (n; d, least_f2 − 1)",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
}
