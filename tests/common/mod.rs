//! Helpers shared by the command-line tests (`cli_*` and the other end-to-end modules): running
//! `nimlab`, parsing its CSV and JSON output, comparing the two formats, `-o FILE` runs and
//! closed pipes. Helpers that only one module needs stay in that module (for `Csv`, as an extra
//! `impl Csv` block there).
//!
//! `assert_cli_snapshot` deliberately stays in each test module: insta names and places a
//! snapshot after the module the assertion is written in.

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command as StdCommand, Output, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// The binary, with progress lines off: a slow machine must not turn a test's quiet run into
/// one that writes to stderr.
pub fn nimlab() -> Command {
    let mut cmd = Command::cargo_bin("nimlab").expect("the nimlab binary is built");
    cmd.env("NIMLAB_PROGRESS", "never");
    cmd
}

/// A command line split on whitespace.
/// Runs `line` (with a 20 s timeout); `Err` with the reason unless it exits 0 or 2, without a
/// panic, in under 10 s: what every extreme input must do (issue 14).
pub fn exits_cleanly_and_quickly(line: &str) -> Result<(), String> {
    let start = std::time::Instant::now();
    let out = nimlab()
        .args(words(line))
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .map_err(|e| format!("{line}: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !matches!(out.status.code(), Some(0 | 2)) || stderr.contains("panicked") {
        return Err(format!("{line}: {:?} {stderr}", out.status));
    }
    if start.elapsed() >= std::time::Duration::from_secs(10) {
        return Err(format!("{line}: took {:?}", start.elapsed()));
    }
    Ok(())
}

/// Runs `line`, which must be refused as an input error (exit 2, naming `needles`) within 5 s:
/// a refusal for size comes from an estimate, before any work (issue 14). Returns the message.
pub fn refused_quickly(line: &str, needles: &[&str]) -> String {
    let start = std::time::Instant::now();
    let err = run_input_error(&words(line), needles);
    let took = start.elapsed();
    assert!(
        took.as_secs_f64() < 5.0,
        "{line}: refused only after {took:?}"
    );
    err
}

pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Runs a command that must succeed and returns (stdout, stderr).
pub fn run_ok_stderr(args: &[&str]) -> (String, String) {
    let out = nimlab().args(args).output().expect("nimlab runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "nimlab {args:?} failed with {:?}: {stderr}",
        out.status
    );
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    (stdout, stderr)
}

/// Runs a command that must succeed quietly and returns its stdout.
pub fn run_ok(args: &[&str]) -> String {
    let (stdout, stderr) = run_ok_stderr(args);
    assert!(
        stderr.is_empty(),
        "nimlab {args:?} wrote to stderr: {stderr}"
    );
    stdout
}

/// Runs each command line (split on whitespace), which must succeed quietly, and checks the
/// SHA-256 and the length in bytes of its output: tables too long to keep as fixtures, pinned
/// to what an earlier version printed.
pub fn assert_output_digests(expected: &[(&str, &str, usize)]) {
    for &(line, sha, len) in expected {
        let out = run_ok(&words(line));
        let digest = <sha2::Sha256 as sha2::Digest>::digest(out.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!((hex.as_str(), out.len()), (sha, len), "{line}");
    }
}

/// Runs a command line (split on whitespace) that must succeed quietly and parses its JSON
/// output.
pub fn run_json(line: &str) -> Value {
    serde_json::from_str(&run_ok(&words(line))).expect("JSON output parses")
}

/// Runs a command that must fail as an input error: exit code 2, nothing on stdout, no panic,
/// and a message on stderr containing every needle. Returns stderr.
pub fn run_input_error(args: &[&str], needles: &[&str]) -> String {
    let out = nimlab().args(args).output().expect("nimlab runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "nimlab {args:?}: exit code, stderr: {stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.is_empty(),
        "nimlab {args:?} wrote to stdout: {stdout}"
    );
    assert!(!stderr.contains("panicked"), "nimlab {args:?}: {stderr}");
    assert!(stderr.starts_with("error"), "nimlab {args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "nimlab {args:?}: stderr does not mention {needle:?}: {stderr}"
        );
    }
    stderr
}

pub fn int(s: &str) -> i64 {
    s.parse()
        .unwrap_or_else(|_| panic!("{s:?} is not an integer"))
}

/// A parsed CSV output: header and rows of text cells.
pub struct Csv {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Csv {
    pub fn parse(text: &str) -> Csv {
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let header = r.headers().expect("a CSV header").iter().map(String::from);
        let header = header.collect();
        let rows = r
            .records()
            .map(|rec| {
                rec.expect("a CSV record")
                    .iter()
                    .map(String::from)
                    .collect()
            })
            .collect();
        Csv { header, rows }
    }

    /// Runs a command line (split on whitespace) that must succeed quietly and parses its CSV
    /// output.
    pub fn run(line: &str) -> Csv {
        Csv::run_args(&words(line))
    }

    /// Runs a command given as arguments that must succeed quietly and parses its CSV output.
    pub fn run_args(args: &[&str]) -> Csv {
        Csv::parse(&run_ok(args))
    }

    /// The rows as maps from column name to cell.
    pub fn records(&self) -> Vec<HashMap<&str, &str>> {
        let names = || self.header.iter().map(String::as_str);
        self.rows
            .iter()
            .map(|row| names().zip(row.iter().map(String::as_str)).collect())
            .collect()
    }
}

/// A JSON cell written the way the CSV writes it.
pub fn json_cell_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The numbers in a text, in order (`[1] (0,-2) [-1/2]` → 1, 0, -2, -1/2; `27..31` → 27, 31).
pub fn numbers_in(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '/' || c == '-' || c == '.'))
        .flat_map(|t| t.split(".."))
        .map(|t| t.trim_matches('.').to_string())
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .collect()
}

/// The numbers held by a JSON value, in order: its numbers, and those in its strings.
pub fn numbers_in_json(v: &Value) -> Vec<String> {
    match v {
        Value::Number(n) => vec![n.to_string()],
        Value::String(s) => numbers_in(s),
        Value::Array(items) => items.iter().flat_map(numbers_in_json).collect(),
        Value::Object(fields) => fields.values().flat_map(numbers_in_json).collect(),
        Value::Null | Value::Bool(_) => Vec::new(),
    }
}

/// The rows of a `--format json` output are objects with the CSV's columns, in order, and the
/// same cells as the `--format csv` output of the same command `line`. A list or a record
/// (a JSON array or object) holds the numbers of its CSV cell, in order (it may hold more, such
/// as the ruleset of each heap).
pub fn assert_json_rows_match_csv(line: &str, rows: &[Value], csv: &Csv) {
    assert_eq!(rows.len(), csv.rows.len(), "{line}: row count");
    for (obj, row) in rows.iter().zip(&csv.rows) {
        let obj = obj.as_object().expect("a JSON object per row");
        let keys: Vec<&String> = obj.keys().collect();
        assert_eq!(
            keys,
            csv.header.iter().collect::<Vec<_>>(),
            "{line}: columns"
        );
        for ((column, value), csv_cell) in obj.iter().zip(row) {
            if value.is_array() || value.is_object() {
                let mut held = numbers_in_json(value).into_iter();
                for n in numbers_in(csv_cell) {
                    assert!(
                        held.any(|m| m == n),
                        "{line}: {column}: {value} does not hold {n} of {csv_cell} in order"
                    );
                }
            } else {
                assert_eq!(&json_cell_text(value), csv_cell, "{line}: {column}");
            }
        }
    }
}

/// Names in a directory, sorted.
pub fn dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("readable directory")
        .map(|e| e.expect("a directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs a command line in a directory with `-o out.csv` appended.
pub fn run_to_file(dir: &Path, line: &str) -> assert_cmd::assert::Assert {
    nimlab()
        .current_dir(dir)
        .args(words(line))
        .args(["-o", "out.csv"])
        .assert()
}

/// In the empty directory `dir`, every failing command line run with `-o out.csv` exits 2
/// without a panic and leaves no file behind; then an existing `out.csv` is left untouched by a
/// failing run (the first one).
pub fn assert_failed_runs_leave_no_output_file(dir: &Path, failing: &[&str]) {
    for line in failing {
        run_to_file(dir, line)
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("panicked").not());
        assert_eq!(dir_entries(dir), Vec::<String>::new(), "{line}");
    }

    // An existing file is left untouched by a failing run.
    let file = dir.join("out.csv");
    fs::write(&file, "old\n").unwrap();
    run_to_file(dir, failing[0]).code(2);
    assert_eq!(fs::read_to_string(&file).unwrap(), "old\n");
    assert_eq!(dir_entries(dir), ["out.csv"]);
}

/// A successful run of `line` with `-o out.csv` in `dir` prints nothing on stdout and exactly
/// `stderr` on stderr, and leaves `out.csv`, holding `stdout`, as the only file in `dir`.
pub fn assert_output_file_holds(dir: &Path, line: &str, stdout: &str, stderr: &str) {
    run_to_file(dir, line)
        .success()
        .stdout("")
        .stderr(stderr.to_owned());
    assert_eq!(
        fs::read_to_string(dir.join("out.csv")).unwrap(),
        stdout,
        "{line}"
    );
    assert_eq!(dir_entries(dir), ["out.csv"], "{line}");
}

/// Runs a command line with stdout on a pipe, reads the first line, then closes the pipe (like
/// `| head -1`) and waits for the command. Returns the line and how the command ended.
pub fn first_line_then_close_pipe(line: &str) -> (String, Output) {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("nimlab"))
        .env("NIMLAB_PROGRESS", "never")
        .args(words(line))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nimlab starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut first)
        .expect("a first line");
    // The reader was dropped: the pipe is closed.
    let out = child.wait_with_output().expect("nimlab exits");
    (first, out)
}

/// The finding of every claim of a claim file's text, in order (for the builtins' tests).
pub fn check_findings(src: &str) -> Vec<nimlab::Finding> {
    let reg = nimlab::Registry::parse(Path::new("test.toml"), src).expect("the claim file parses");
    reg.claims
        .iter()
        .map(|c| nimlab::check_claim(&reg, c, false).expect("the check runs"))
        .collect()
}

/// The finding of a claim file with exactly one claim.
pub fn one_finding(src: &str) -> nimlab::Finding {
    let mut f = check_findings(src);
    assert_eq!(f.len(), 1);
    f.remove(0)
}
