//! The `nimlab octal …` command line end to end: input errors, `-o FILE` atomicity, snapshots,
//! output columns, Stewart's values (Table 1, the (3333, 2222) table, proven periods), outcome
//! classes with a score on the board, and an independent brute force written here.
//!
//! Command lines are written as one string split on whitespace (see [`words`]); arguments that
//! contain spaces or are empty are passed as slices.

use crate::common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::*;
use num_rational::Rational64;
use num_traits::{Signed, Zero};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Helpers

impl Csv {
    /// Runs a command (arguments as a slice, `--format csv` appended) that must succeed quietly
    /// and parses its output.
    fn run_args_csv(args: &[&str]) -> Csv {
        let mut all = args.to_vec();
        all.extend(["--format", "csv"]);
        Csv::run_args(&all)
    }

    /// Runs a command line (split on whitespace, `--format csv` appended) that must succeed
    /// quietly and parses its output.
    fn run_csv(line: &str) -> Csv {
        Csv::run_args_csv(&words(line))
    }

    /// The only row, as a map from column name to cell.
    fn record(&self) -> HashMap<&str, &str> {
        assert_eq!(self.rows.len(), 1, "one record expected");
        self.records().remove(0)
    }

    /// The `value` column of `octal values` output, checking n runs 0, 1, 2, ….
    fn sequence(&self) -> Vec<Rational64> {
        assert_eq!(self.header, ["n", "value"]);
        self.rows
            .iter()
            .enumerate()
            .map(|(n, row)| {
                assert_eq!(row[0], n.to_string(), "rows are n = 0, 1, 2, …");
                q(&row[1])
            })
            .collect()
    }
}

/// A rational as nimlab writes it: `3`, `-7/2`.
fn q(s: &str) -> Rational64 {
    s.parse()
        .unwrap_or_else(|_| panic!("{s:?} is not a rational number"))
}

fn ints(values: &[Rational64]) -> Vec<i64> {
    values
        .iter()
        .map(|v| {
            assert!(v.is_integer(), "{v} is not an integer");
            v.to_integer()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// An independent brute force: negamax over sums of heaps, each heap under its own octal ruleset,
// exactly as SPEC §2 defines G_s (plus the bonus N: a position without a move is worth −N).

/// An octal ruleset for the brute force: digit t_i and points p_i for removing i beans.
#[derive(Clone)]
struct Rules {
    digits: Vec<u8>,
    points: Vec<Rational64>,
}

impl Rules {
    /// `0.d1d2…` with p_i = i unless `points` is given.
    fn code(code: &str, points: Option<&[Rational64]>) -> Rules {
        let digits: Vec<u8> = code
            .strip_prefix("0.")
            .expect("a code 0.d1d2…")
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let points = match points {
            Some(p) => p.to_vec(),
            None => (1..=digits.len() as i64).map(Rational64::from).collect(),
        };
        assert_eq!(digits.len(), points.len());
        Rules { digits, points }
    }

    /// The subtraction set S with p_s = s.
    fn subtraction(set: &[u32]) -> Rules {
        let k = *set.iter().max().expect("a non-empty set") as usize;
        let mut digits = vec![0; k];
        for &s in set {
            digits[s as usize - 1] = 3;
        }
        let points = (1..=k as i64).map(Rational64::from).collect();
        Rules { digits, points }
    }

    /// Every move on a heap of n: (points, heaps left). Left-over heaps are non-empty.
    fn moves(&self, n: u32) -> Vec<(Rational64, Vec<u32>)> {
        let mut out = Vec::new();
        for (i, (&t, &p)) in self.digits.iter().zip(&self.points).enumerate() {
            let take = i as u32 + 1;
            if take > n {
                break;
            }
            let rest = n - take;
            if t & 1 != 0 && rest == 0 {
                out.push((p, vec![]));
            }
            if t & 2 != 0 && rest >= 1 {
                out.push((p, vec![rest]));
            }
            if t & 4 != 0 {
                for b in 1..=rest / 2 {
                    out.push((p, vec![rest - b, b]));
                }
            }
        }
        out
    }
}

/// A heap: (size, index of its ruleset).
type BfHeap = (u32, usize);

/// Memoized negamax G(position) = max over moves (points − G(next)), −N without a move.
struct Brute {
    rules: Vec<Rules>,
    bonus: Rational64,
    memo: HashMap<Vec<BfHeap>, Rational64>,
}

impl Brute {
    fn new(rules: Vec<Rules>, bonus: Rational64) -> Brute {
        Brute {
            rules,
            bonus,
            memo: HashMap::new(),
        }
    }

    fn value(&mut self, heaps: &[BfHeap]) -> Rational64 {
        let mut key: Vec<BfHeap> = heaps.iter().copied().filter(|h| h.0 > 0).collect();
        key.sort_unstable();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best: Option<Rational64> = None;
        for i in 0..key.len() {
            let (n, r) = key[i];
            for (p, leaves) in self.rules[r].moves(n) {
                let mut child = key.clone();
                child.remove(i);
                child.extend(leaves.into_iter().map(|l| (l, r)));
                let v = p - self.value(&child);
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        let v = best.unwrap_or(-self.bonus);
        self.memo.insert(key, v);
        v
    }

    /// n ↦ G(n@0 + plus) for n = 0..=max_n, filled bottom-up to keep the recursion shallow.
    fn sequence(&mut self, plus: &[BfHeap], max_n: u32) -> Vec<Rational64> {
        (0..=max_n)
            .map(|n| {
                let mut pos = vec![(n, 0)];
                pos.extend_from_slice(plus);
                self.value(&pos)
            })
            .collect()
    }
}

/// Explicit Left/Right minimax (Left maximizes Left − Right, Right minimizes it): the points
/// Left − Right scored from here to the end when `left_moves` starts, with both playing
/// perfectly. No negamax and no G_s: Theorem 12 is what connects the two.
fn final_margin(
    rules: &[Rules],
    bonus: Rational64,
    heaps: &[BfHeap],
    left_moves: bool,
    memo: &mut HashMap<(Vec<BfHeap>, bool), Rational64>,
) -> Rational64 {
    let mut key: Vec<BfHeap> = heaps.iter().copied().filter(|h| h.0 > 0).collect();
    key.sort_unstable();
    if let Some(&v) = memo.get(&(key.clone(), left_moves)) {
        return v;
    }
    let mut best: Option<Rational64> = None;
    for i in 0..key.len() {
        let (n, r) = key[i];
        for (p, leaves) in rules[r].moves(n) {
            let mut child = key.clone();
            child.remove(i);
            child.extend(leaves.into_iter().map(|l| (l, r)));
            let rest = final_margin(rules, bonus, &child, !left_moves, memo);
            best = Some(match best {
                None if left_moves => p + rest,
                None => rest - p,
                Some(b) if left_moves => b.max(p + rest),
                Some(b) => b.min(rest - p),
            });
        }
    }
    // SPEC's bonus goes to the last mover, i.e. against the player who cannot move.
    let v = best.unwrap_or(if left_moves { -bonus } else { bonus });
    memo.insert((key, left_moves), v);
    v
}

/// Left's and Right's final scores (Def 3) of a position with `score` already on the board.
fn final_scores(rules: &[Rules], heaps: &[BfHeap], score: Rational64) -> (Rational64, Rational64) {
    let mut memo = HashMap::new();
    let zero = Rational64::zero();
    let left = score + final_margin(rules, zero, heaps, true, &mut memo);
    let right = score + final_margin(rules, zero, heaps, false, &mut memo);
    (left, right)
}

/// G_s(0..=max_n) of a subtraction game with p_s = s: a(n) = max_{s ≤ n} (s − a(n − s)), or 0.
fn subtraction_values(set: &[u32], max_n: usize) -> Vec<i64> {
    let mut a = vec![0i64; max_n + 1];
    for n in 0..=max_n {
        a[n] = set
            .iter()
            .map(|&s| s as usize)
            .filter(|&s| s <= n)
            .map(|s| s as i64 - a[n - s])
            .max()
            .unwrap_or(0);
    }
    a
}

/// Least preperiod and least period of a sequence of states v(n) that is a fixed function of
/// v(n−k..n−1) for every n > k, *proven* on the data: if the window v(w..w+k) recurs at w + P
/// with w ≥ 1, then v(n + P) = v(n) for all n ≥ w by induction. The least period divides P and
/// the least preperiod is read off the data below w. `None` if no window recurs in the data.
fn proven_period<T: PartialEq>(v: &[T], k: usize) -> Option<(usize, usize)> {
    let len = v.len();
    for w in 1..len.saturating_sub(k) {
        for p in 1..=(len - w - k).min(8 * (k + 1)) {
            if (w..w + k).all(|j| v[j] == v[j + p]) {
                let least = (1..=p)
                    .filter(|d| p % d == 0)
                    .find(|&d| (w..w + p).all(|j| v[j] == v[w + (j - w + d) % p]))
                    .expect("p itself qualifies");
                let pre = (0..w)
                    .rev()
                    .find(|&n| v[n] != v[n + least])
                    .map_or(0, |n| n + 1);
                return Some((pre, least));
            }
        }
    }
    None
}

/// The least preperiod and least period of the sequence `column(n)` when the states
/// `states(n)` are proven periodic with order k (a coordinate inherits the proof).
fn proven_component_period(states: &[Vec<Rational64>], k: usize, c: usize) -> (usize, usize) {
    let (pre, p) = proven_period(states, k).expect("the states recur within the data");
    let col: Vec<Rational64> = states.iter().map(|s| s[c]).collect();
    let d = (1..=p)
        .filter(|d| p % d == 0)
        .find(|&d| (pre..pre + p).all(|j| col[j] == col[j + d]))
        .expect("p itself qualifies");
    let pre = (0..pre)
        .rev()
        .find(|&n| col[n] != col[n + d])
        .map_or(0, |n| n + 1);
    (pre, d)
}

/// A piecewise-linear payoff as `value --payoff` writes it: `[s] (x,y) (x,y) … [s]`.
struct Pwl {
    left_slope: Rational64,
    points: Vec<(Rational64, Rational64)>,
    right_slope: Rational64,
}

impl Pwl {
    fn parse(text: &str) -> Pwl {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        assert!(tokens.len() >= 3, "{text:?}: slope, point(s), slope");
        let slope = |t: &str| {
            let inner = t.strip_prefix('[').and_then(|t| t.strip_suffix(']'));
            q(inner.unwrap_or_else(|| panic!("{text:?}: {t:?} is not a [slope]")))
        };
        let points = tokens[1..tokens.len() - 1]
            .iter()
            .map(|t| {
                let inner = t.strip_prefix('(').and_then(|t| t.strip_suffix(')'));
                let inner = inner.unwrap_or_else(|| panic!("{text:?}: {t:?} is not a point"));
                let (x, y) = inner.split_once(',').expect("a point (x,y)");
                (q(x), q(y))
            })
            .collect::<Vec<_>>();
        assert!(
            points.windows(2).all(|w| w[0].0 < w[1].0),
            "{text:?}: increasing x"
        );
        Pwl {
            left_slope: slope(tokens[0]),
            points,
            right_slope: slope(tokens[tokens.len() - 1]),
        }
    }

    fn at(&self, n: Rational64) -> Rational64 {
        let (first, last) = (self.points[0], self.points[self.points.len() - 1]);
        if n <= first.0 {
            return first.1 + self.left_slope * (n - first.0);
        }
        if n >= last.0 {
            return last.1 + self.right_slope * (n - last.0);
        }
        let i = self.points.iter().position(|p| p.0 >= n).expect("inside");
        let ((x0, y0), (x1, y1)) = (self.points[i - 1], self.points[i]);
        y0 + (y1 - y0) * (n - x0) / (x1 - x0)
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Bad input

#[test]
fn bad_input_exits_2_naming_the_value() {
    let v = |rest: &[&'static str]| {
        let mut a = vec!["octal", "values", "--max-heap", "5"];
        a.extend_from_slice(rest);
        a
    };
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        // Malformed codes.
        (
            v(&["--rules", "0.9"]),
            &["--rules", "`0.9`", "`9`", "octal digit"],
        ),
        (v(&["--rules", "0."]), &["`0.`", "no digits"]),
        (v(&["--rules", ""]), &["--rules: ``", "not an octal code"]),
        (v(&["--rules", "1.3"]), &["`1.3`", "not an octal code"]),
        (
            v(&["--rules", "(33, 2)"]),
            &["`(33, 2)`", "`2`", "2 digits"],
        ),
        (v(&["--rules", "(33, 1,x)"]), &["`(33, 1,x)`", "`x`"]),
        (
            v(&["--rules", "(33 22)"]),
            &["`(33 22)`", "(digits, points)"],
        ),
        (v(&["--rules", "(33, 22"]), &["`(33, 22`", "closing"]),
        (v(&["--rules", "0.00"]), &["`0.00`", "no move"]),
        (
            v(&["--subtract", "4,5", "--also", "0.9"]),
            &["--also 0.9", "`9`"],
        ),
        (v(&["--subtract", "4,5", "--format", "xml"]), &["'xml'"]),
        // Point vectors of the wrong length or not rational.
        (
            v(&["--rules", "0.33", "--points", "1,2,3"]),
            &["0.33", "3 points", "2 digits"],
        ),
        (
            v(&["--subtract", "4,5", "--points", "1,2,3"]),
            &["{4,5}", "3 points", "one per element (2)", "1..5"],
        ),
        (
            v(&["--subtract", "4,5", "--points", "1,x"]),
            &["--points", "'x'", "rational"],
        ),
        (
            v(&["--rules", "0.3", "--points", "1/0"]),
            &["--points", "'1/0'"],
        ),
        (
            v(&["--subtract", "4,5", "--points", ""]),
            &["--points", "''"],
        ),
        // Points twice: Stewart's spelling carries them already.
        (
            v(&["--rules", "(33, 22)", "--points", "1,2"]),
            &["--points given twice", "(33, 22)", "0.33"],
        ),
        // Subtraction sets.
        (v(&["--subtract", "0,4"]), &["`0,4`", "`0`", "positive"]),
        (v(&["--subtract", "4,x"]), &["`4,x`", "`x`"]),
        (
            v(&["--subtract", ""]),
            &["--subtract", "at least one element"],
        ),
        (v(&["--subtract", "5000"]), &["5000", "4096"]),
        // Clap: conflicting or missing rules.
        (
            v(&["--subtract", "4,5", "--rules", "0.3"]),
            &["--subtract", "--rules"],
        ),
        (v(&[]), &["--rules"]),
        // Heaps.
        (
            words("octal value --subtract 4,5 --also 0.26 7@3"),
            &["7@3", "ruleset 3", "only 2"],
        ),
        (
            words("octal values --subtract 4,5 --plus 3@2 --max-heap 5"),
            &["3@2", "ruleset 2", "only 1"],
        ),
        (
            words("octal value --subtract 4,5 7@0"),
            &["'7@0'", "after @"],
        ),
        (words("octal value --subtract 4,5 3@x"), &["'3@x'"]),
        (
            words("octal value --subtract 4,5 -- -3"),
            &["'-3'", "negative"],
        ),
        (
            words("octal outcome --subtract 4,5 x"),
            &["'x'", "whole number"],
        ),
        (
            words("octal value --subtract 4,5 99999999999"),
            &["'99999999999'", "too large"],
        ),
        (
            words("octal values --subtract 4,5 --max-heap=-1"),
            &["'-1'", "negative"],
        ),
        (
            words("octal values --subtract 4,5 --max-heap 20000000"),
            &["--max-heap 20000000", "10000000"],
        ),
        (
            words("octal period --subtract 4,5 --max-heap 20000000"),
            &["--max-heap 20000000", "10000000"],
        ),
        (
            words("octal outcome --subtract 4,5 13 --score 1/0"),
            &["'1/0'", "--score"],
        ),
        (
            words("octal value --subtract 4,5 13 --bonus abc"),
            &["'abc'"],
        ),
        // Surveys.
        (
            words("octal survey --subtract-subsets-of 1..30"),
            &["1..30", "30 numbers", "at most 24"],
        ),
        (
            words("octal survey --subtract-subsets-of 0..5"),
            &["0..5", "≥ 1"],
        ),
        (
            words("octal survey --subtract-subsets-of 5..2"),
            &["'5..2'", "empty"],
        ),
    ];
    for (args, needles) in &cases {
        run_input_error(args, needles);
    }
}

#[test]
fn splitting_game_beyond_the_memory_limit_is_refused_quickly() {
    // The positions of a splitting game grow exponentially with the heap: nimlab must refuse
    // before searching, naming the limit and suggesting a way out.
    for (line, limit) in [
        ("octal value --rules 0.24 60 --memory-limit 16M", "16 MiB"),
        ("octal value --rules 0.24 70 --memory-limit 64M", "64 MiB"),
        ("octal value --rules 0.26 7 90 --memory-limit 64M", "64 MiB"),
        (
            "octal values --rules 0.24 --max-heap 60 --memory-limit 16M",
            "16 MiB",
        ),
    ] {
        let start = Instant::now();
        run_input_error(
            &words(line),
            &["MiB", limit, "smaller heap", "--memory-limit"],
        );
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{line}: {:?}",
            start.elapsed()
        );
    }
    // Below the limit it is solved, and agrees with the brute force.
    let c = Csv::run_csv("octal value --rules 0.24 45 --memory-limit 64M");
    let r = c.record();
    let mut b = Brute::new(vec![Rules::code("0.24", None)], Rational64::zero());
    assert_eq!(q(r["value"]), b.value(&[(45, 0)]));
    assert_eq!(r["value"], "1");
}

// ---------------------------------------------------------------------------------------------
// 2. -o FILE is atomic

#[test]
fn failed_octal_runs_leave_no_output_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let failing = [
        "octal value --rules 0.24 60 --memory-limit 16M --format csv",
        "octal values --rules 0.9 --max-heap 10",
        "octal survey --subtract-subsets-of 1..30 --format csv",
        "octal period --subtract 4,5 --points 1,2,3",
    ];
    assert_failed_runs_leave_no_output_file(dir.path(), &failing);

    // A successful run replaces the old file with exactly what stdout would show; the survey's
    // summary still goes to stderr.
    let line = "octal survey --subtract-subsets-of 1..6 --format csv";
    let (stdout, summary) = run_ok_stderr(&words(line));
    assert_output_file_holds(dir.path(), line, &stdout, &summary);
}

// ---------------------------------------------------------------------------------------------
// 3. Columns and formats

#[test]
fn csv_headers_are_exact() {
    let out = run_ok(&words(
        "octal values --subtract 4,5 --max-heap 3 --format csv",
    ));
    assert_eq!(out, "n,value\n0,0\n1,0\n2,0\n3,0\n");
    let (out, _) = run_ok_stderr(&words(
        "octal survey --subtract-subsets-of 1..2 --format csv",
    ));
    assert_eq!(
        out,
        "set,max,preperiod,period,status\n{1},1,0,2,PROVEN\n{2},2,0,4,PROVEN\n\"{1,2}\",2,0,4,PROVEN\n"
    );
    let header = |line: &str| Csv::run_csv(line).header;
    assert_eq!(
        header("octal value --subtract 4,5 13"),
        ["position", "bonus", "value", "outcome", "positions_solved"]
    );
    assert_eq!(
        header("octal value --subtract 4,5 13 --payoff"),
        [
            "position",
            "bonus",
            "value",
            "outcome",
            "positions_solved",
            "payoff"
        ]
    );
    assert_eq!(
        header("octal outcome --subtract 4,5 13"),
        [
            "position",
            "score",
            "bonus",
            "value",
            "left_final",
            "right_final",
            "outcome"
        ]
    );
    assert_eq!(
        header("octal period --subtract 4,5"),
        [
            "rules",
            "plus",
            "bonus",
            "preperiod",
            "period",
            "status",
            "window",
            "periods_seen",
            "terms",
            "argument"
        ]
    );
}

#[test]
fn json_has_the_csv_columns_and_cells() {
    for line in [
        "octal values --subtract 4,5 --max-heap 20",
        "octal value --rules 0.26 7 5 --payoff",
        "octal outcome --subtract 4,5 13 --score=-10",
        "octal period --subtract 4,5 --plus 4",
        "octal period --rules 0.26 --max-heap 40",
        "octal survey --subtract-subsets-of 1..4",
    ] {
        let (csv, _) = run_ok_stderr(&words(&format!("{line} --format csv")));
        let csv = Csv::parse(&csv);
        let (json, _) = run_ok_stderr(&words(&format!("{line} --format json")));
        let json: Value = serde_json::from_str(&json).expect("JSON output parses");
        let objects = json.as_array().expect("a JSON array");
        assert_json_rows_match_csv(line, objects, &csv);
    }
}

#[test]
fn closed_pipe_is_not_an_error() {
    let line = "octal values --subtract 4,5 --max-heap 3000000 --format csv";
    let (first, out) = first_line_then_close_pipe(line);
    assert_eq!(first, "n,value\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{line}: {stderr}");
    assert!(stderr.is_empty(), "{line}: {stderr}");
}

// ---------------------------------------------------------------------------------------------
// 4. Snapshots (each value checked by hand and against the brute force below before acceptance)

/// Snapshots the stdout of a command line; the snapshot's description is the command.
fn assert_cli_snapshot(name: &str, line: &str) {
    // How many positions the solver visits is an implementation detail, not a value.
    let out: String = run_ok(&words(line))
        .lines()
        .map(|l| match l.strip_prefix("positions_solved") {
            Some(n) => {
                assert!(int(n.trim()) > 0, "{l}");
                "positions_solved  [count]\n".to_string()
            }
            None => format!("{l}\n"),
        })
        .collect();
    insta::with_settings!({ description => format!("nimlab {line}"), omit_expression => true }, {
        insta::assert_snapshot!(name, out);
    });
}

#[test]
fn snapshot_period_4_5() {
    assert_cli_snapshot("octal_period_4_5", "octal period --subtract 4,5");
}

#[test]
fn snapshot_value_026_7_5() {
    assert_cli_snapshot("octal_value_026_7_5", "octal value --rules 0.26 7 5");
}

#[test]
fn snapshot_outcome_4_5_13() {
    assert_cli_snapshot("octal_outcome_4_5_13", "octal outcome --subtract 4,5 13");
}

#[test]
fn snapshot_values_4_5_csv() {
    assert_cli_snapshot(
        "octal_values_4_5_max_30_csv",
        "octal values --subtract 4,5 --max-heap 30 --format csv",
    );
}

#[test]
fn snapshot_values_agree_with_the_brute_force() {
    // The values in the snapshots above, recomputed independently.
    let seq = Csv::run_csv("octal values --subtract 4,5 --max-heap 30").sequence();
    let want: Vec<i64> = subtraction_values(&[4, 5], 30);
    assert_eq!(ints(&seq), want);
    let mut b = Brute::new(vec![Rules::code("0.26", None)], Rational64::zero());
    assert_eq!(b.value(&[(7, 0), (5, 0)]), Rational64::from(2));
    assert_eq!(want[13], 3);
}

// ---------------------------------------------------------------------------------------------
// 5. Stewart's values through the command line

/// `octal values --max-heap MAX_HEAP` gives the integer values `want` under every spelling of
/// one ruleset.
fn assert_values_under_every_spelling(spellings: &[&[&str]], max_heap: &str, want: &[i64]) {
    for rules in spellings {
        let mut args = vec!["octal", "values", "--max-heap", max_heap];
        args.extend_from_slice(rules);
        assert_eq!(
            ints(&Csv::run_args_csv(&args).sequence()),
            want,
            "{rules:?}"
        );
    }
}

const TABLE_1: [i64; 16] = [0, 0, 0, 0, 4, 5, 5, 5, 5, 1, 0, 0, 0, 3, 4, 5];

#[test]
fn table_1_subtraction_set_4_5() {
    // Every spelling of S = {4,5} with p_i = i.
    let spellings: [&[&str]; 5] = [
        &["--subtract", "4,5"],
        &["--subtract", "{5,4}"],
        &["--rules", "{4,5}"],
        &["--rules", "0.00033"],
        &["--rules", "(00033, 12345)"],
    ];
    assert_values_under_every_spelling(&spellings, "15", &TABLE_1);
    // The text after the table: G_s(13) = max{4 − G_s(9), 5 − G_s(8)} = 4 − 1 = 3.
    let c = Csv::run_csv("octal value --subtract 4,5 13");
    let r = c.record();
    assert_eq!([r["value"], r["outcome"]], ["3", "N"]);
}

#[test]
fn table_3333_2222() {
    let want = [0, 2, 2, 2, 2, 0, 2, 2, 2, 2, 0];
    let spellings: [&[&str]; 4] = [
        &["--rules", "0.3333", "--points", "2,2,2,2"],
        &["--rules", "(3333, 2222)"],
        &["--rules", "(3333, 2,2,2,2)"],
        &["--subtract", "1,2,3,4", "--points", "2,2,2,2"],
    ];
    assert_values_under_every_spelling(&spellings, "10", &want);
    // "This game has period 5": proven, from n = 0.
    let c = Csv::run_args_csv(&["octal", "period", "--rules", "(3333, 2222)"]);
    let r = c.record();
    let got = [r["preperiod"], r["period"], r["status"]];
    assert_eq!(got, ["0", "5", "PROVEN"]);
    assert_eq!(r["rules"], "(3333, 2,2,2,2)");
    // The same code with p_i = i is the subtraction game {1,2,3,4}: period 2k = 8.
    let c = Csv::run_csv("octal period --rules 0.3333");
    let r = c.record();
    assert_eq!(
        [r["preperiod"], r["period"], r["status"]],
        ["0", "8", "PROVEN"]
    );
}

#[test]
fn proven_periods_of_stewarts_examples() {
    // (rules, plus, preperiod, period); each is also proven independently below.
    let cases: [(&[&str], &str, &str, &str); 5] = [
        (&["--subtract", "4,5"], "", "27", "10"),
        (&["--rules", "(3333, 2222)"], "", "0", "5"),
        (&["--subtract", "4,5"], "4", "22", "10"),
        (&["--subtract", "4,5", "--also", "{1,2}"], "3@2", "9", "10"),
        (&["--subtract", "4,5", "--also", "{1,2}"], "2@2", "0", "10"),
    ];
    for (rules, plus, pre, period) in cases {
        let mut args = vec!["octal", "period"];
        args.extend_from_slice(rules);
        if !plus.is_empty() {
            args.extend(["--plus", plus]);
        }
        let c = Csv::run_args_csv(&args);
        let r = c.record();
        let got = [r["preperiod"], r["period"], r["status"]];
        assert_eq!(got, [pre, period, "PROVEN"], "{args:?}");
    }

    // The brute force's own window proofs.
    let a = subtraction_values(&[4, 5], 300);
    assert_eq!(proven_period(&a, 5), Some((27, 10)));
    assert_ne!(a[26], a[36]);
    let mut b = Brute::new(
        vec![Rules::code("0.3333", Some(&[Rational64::from(2); 4]))],
        Rational64::zero(),
    );
    assert_eq!(proven_period(&b.sequence(&[], 100), 4), Some((0, 5)));
    // Sums: the state vector (G(n + q))_q over every heap q below the fixed heap.
    let plus_states = |second: Rules, m: u32| -> Vec<Vec<Rational64>> {
        let mut b = Brute::new(
            vec![Rules::subtraction(&[4, 5]), second],
            Rational64::zero(),
        );
        let columns: Vec<Vec<Rational64>> =
            (0..=m).rev().map(|q| b.sequence(&[(q, 1)], 300)).collect();
        (0..=300)
            .map(|n| columns.iter().map(|c| c[n]).collect())
            .collect()
    };
    let states = plus_states(Rules::subtraction(&[4, 5]), 4);
    assert_eq!(proven_component_period(&states, 5, 0), (22, 10));
    let states = plus_states(Rules::subtraction(&[1, 2]), 3);
    assert_eq!(proven_component_period(&states, 5, 0), (9, 10));
    let states = plus_states(Rules::subtraction(&[1, 2]), 2);
    assert_eq!(proven_component_period(&states, 5, 0), (0, 10));
}

#[test]
fn survey_1_to_10_is_proven_and_agrees_with_window_proofs() {
    let (out, summary) = run_ok_stderr(&words(
        "octal survey --subtract-subsets-of 1..10 --format csv",
    ));
    assert!(
        summary.contains("1023 sets; period PROVEN for 1023;"),
        "{summary}"
    );
    assert!(summary.contains("(Conjecture 14) for 1023"), "{summary}");
    let survey = Csv::parse(&out);
    assert_eq!(
        survey.header,
        ["set", "max", "preperiod", "period", "status"]
    );
    assert_eq!(survey.rows.len(), 1023);
    let mut seen = HashMap::new();
    for r in survey.records() {
        let set: Vec<u32> = r["set"]
            .trim_matches(['{', '}'])
            .split(',')
            .map(|e| e.parse().expect("an element"))
            .collect();
        let k = *set.last().expect("non-empty");
        assert!(set.windows(2).all(|w| w[0] < w[1]), "{}", r["set"]);
        assert_eq!(int(r["max"]), i64::from(k), "{}", r["set"]);
        assert_eq!(r["status"], "PROVEN", "{}", r["set"]);
        let (pre, period) = (int(r["preperiod"]), int(r["period"]));
        // Conjecture 14: 2·max S is a period.
        assert_eq!((2 * i64::from(k)) % period, 0, "{}", r["set"]);
        // An independent window proof on 600 terms.
        let a = subtraction_values(&set, 600);
        let (p0, p) = proven_period(&a, k as usize).expect("a recurring window");
        assert_eq!((pre, period), (p0 as i64, p as i64), "{}", r["set"]);
        assert!(seen.insert(r["set"].to_string(), pre).is_none());
    }
    // The notes' window-proven preperiods (brute force, period 2k).
    for (set, pre) in [
        ("{1}", 0),
        ("{2,3}", 5),
        ("{3,4}", 14),
        ("{3,5}", 8),
        ("{4,5}", 27),
        ("{4,6}", 10),
        ("{5,6}", 44),
        ("{9,10}", 152),
        ("{1,2}", 0),
        ("{2,4}", 0),
        ("{1,5}", 0),
    ] {
        assert_eq!(seen[set], pre, "{set}");
    }
    assert_eq!(seen.values().max(), Some(&152));
}

// ---------------------------------------------------------------------------------------------
// 6. Values, outcome classes and final scores

/// Rules and heaps on the command line, and the same for the brute force.
type OutcomeCase = (
    Vec<&'static str>,
    Vec<Rules>,
    Vec<&'static str>,
    Vec<BfHeap>,
);

/// Def 6 from the signs of the Left and Right final scores.
fn def_6(left: Rational64, right: Rational64) -> &'static str {
    let (l, r) = (left.signum().to_integer(), right.signum().to_integer());
    match (l, r) {
        (1, 1) | (1, 0) | (0, 1) => "L",
        (-1, -1) | (-1, 0) | (0, -1) => "R",
        (1, -1) => "N",
        (-1, 1) => "P",
        _ => "T",
    }
}

#[test]
fn outcome_classes_with_a_score_on_the_board() {
    // (rules args, brute-force rulesets, heaps as given, heaps for the brute force)
    let half = Rational64::new(1, 2);
    let cases: Vec<OutcomeCase> = vec![
        (
            words("--subtract 4,5"),
            vec![Rules::subtraction(&[4, 5])],
            vec!["13"],
            vec![(13, 0)],
        ),
        (
            words("--subtract 4,5"),
            vec![Rules::subtraction(&[4, 5])],
            vec!["3"],
            vec![(3, 0)],
        ),
        (
            words("--rules 0.21 --points 1,2"),
            vec![Rules::code("0.21", None)],
            vec!["3"],
            vec![(3, 0)],
        ),
        (
            words("--rules 0.26"),
            vec![Rules::code("0.26", None)],
            vec!["7", "5"],
            vec![(7, 0), (5, 0)],
        ),
        (
            words("--subtract 4,5 --also 0.26"),
            vec![Rules::subtraction(&[4, 5]), Rules::code("0.26", None)],
            vec!["9", "4@2"],
            vec![(9, 0), (4, 1)],
        ),
        (
            words("--rules 0.137 --points 1/2,-1,3"),
            vec![Rules::code(
                "0.137",
                Some(&[half, Rational64::from(-1), Rational64::from(3)]),
            )],
            vec!["6", "2"],
            vec![(6, 0), (2, 0)],
        ),
    ];
    let mut classes = HashMap::new();
    for (rules, bf_rules, heaps, bf_heaps) in &cases {
        for score in ["0", "1/2", "-1/2", "1", "-1", "3", "-3", "10", "-10"] {
            let mut args = vec!["octal", "outcome"];
            args.extend(rules);
            args.extend(heaps);
            let score_arg = format!("--score={score}");
            args.push(&score_arg);
            let c = Csv::run_args_csv(&args);
            let r = c.record();
            let what = format!("{args:?}");
            let (s, v) = (q(score), q(r["value"]));
            assert_eq!(q(r["score"]), s, "{what}");
            let (left, right) = (q(r["left_final"]), q(r["right_final"]));
            assert_eq!((left, right), (s + v, s - v), "{what}");
            // Theorem 12 against explicit Left/Right minimax from the score on the board.
            assert_eq!((left, right), final_scores(bf_rules, bf_heaps, s), "{what}");
            assert_eq!(r["outcome"], def_6(left, right), "{what}");
            classes.insert(r["outcome"].to_string(), what);
        }
    }
    // All five classes occur: L and R only with a score on the board (Stewart, after Def 7).
    let mut found: Vec<&String> = classes.keys().collect();
    found.sort();
    assert_eq!(found, ["L", "N", "P", "R", "T"]);

    let at = |score: &str| {
        let c = Csv::run_csv(&format!("octal outcome --subtract 4,5 13 --score={score}"));
        let r = c.record();
        [r["left_final"], r["right_final"], r["outcome"]].map(String::from)
    };
    assert_eq!(at("0"), ["3", "-3", "N"]);
    assert_eq!(at("10"), ["13", "7", "L"]);
    assert_eq!(at("-10"), ["-7", "-13", "R"]);
    // A tie on one side and a win on the other: L (Def 6: L_= ∩ R_>) and R.
    assert_eq!(at("3"), ["6", "0", "L"]);
    assert_eq!(at("-3"), ["0", "-6", "R"]);
    // `value` reports the class at score 0.
    let c = Csv::run_csv("octal value --subtract 4,5 13");
    let r = c.record();
    assert_eq!([r["value"], r["outcome"]], ["3", "N"]);
    let c = Csv::run_csv("octal value --rules 0.21 --points 1,2 3");
    let r = c.record();
    assert_eq!([r["value"], r["outcome"]], ["-1", "P"]);
    let c = Csv::run_csv("octal value --subtract 4,5 3");
    let r = c.record();
    assert_eq!([r["value"], r["outcome"]], ["0", "T"]);
}

// ---------------------------------------------------------------------------------------------
// 7. The command line against the brute force

#[test]
fn subtraction_games_up_to_5_match_the_brute_force() {
    for mask in 1u32..32 {
        let set: Vec<u32> = (1..=5).filter(|s| mask >> (s - 1) & 1 == 1).collect();
        let list = set.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let seq = Csv::run_csv(&format!("octal values --subtract {list} --max-heap 40")).sequence();
        assert_eq!(ints(&seq), subtraction_values(&set, 40), "S = {{{list}}}");
    }
}

/// Rules on the command line, for the brute force, `--plus` on the command line, for the brute
/// force, the bonus, the largest heap.
type SequenceCase = (
    &'static str,
    Vec<Rules>,
    &'static str,
    Vec<BfHeap>,
    &'static str,
    u32,
);

#[test]
fn codes_points_bonuses_and_sums_match_the_brute_force() {
    let r = |s: &str| q(s);
    // (command-line rules, brute-force rules, --plus, brute-force plus heaps, bonus, max n)
    let cases: Vec<SequenceCase> = vec![
        (
            "--rules 0.26",
            vec![Rules::code("0.26", None)],
            "",
            vec![],
            "0",
            25,
        ),
        (
            "--rules 0.24",
            vec![Rules::code("0.24", None)],
            "",
            vec![],
            "0",
            22,
        ),
        (
            "--rules 0.7",
            vec![Rules::code("0.7", None)],
            "",
            vec![],
            "0",
            22,
        ),
        (
            "--rules 0.137 --points 1/2,-1,3",
            vec![Rules::code("0.137", Some(&[r("1/2"), r("-1"), r("3")]))],
            "",
            vec![],
            "0",
            20,
        ),
        (
            "--rules 0.21 --points 1,2",
            vec![Rules::code("0.21", None)],
            "",
            vec![],
            "0",
            40,
        ),
        (
            "--rules 0.1302 --points 3,-2,1/3,7",
            vec![Rules::code(
                "0.1302",
                Some(&[r("3"), r("-2"), r("1/3"), r("7")]),
            )],
            "",
            vec![],
            "0",
            40,
        ),
        (
            "--subtract 2,3 --points -1,5/2",
            vec![Rules::code("0.033", Some(&[r("1"), r("-1"), r("5/2")]))],
            "",
            vec![],
            "0",
            40,
        ),
        (
            "--subtract 4,5",
            vec![Rules::subtraction(&[4, 5])],
            "",
            vec![],
            "3/2",
            40,
        ),
        (
            "--subtract 4,5",
            vec![Rules::subtraction(&[4, 5])],
            "",
            vec![],
            "-7",
            40,
        ),
        (
            "--rules 0.26",
            vec![Rules::code("0.26", None)],
            "",
            vec![],
            "-1",
            16,
        ),
        (
            "--subtract 4,5",
            vec![Rules::subtraction(&[4, 5])],
            "4",
            vec![(4, 0)],
            "0",
            40,
        ),
        (
            "--subtract 4,5 --also {1,2}",
            vec![Rules::subtraction(&[4, 5]), Rules::subtraction(&[1, 2])],
            "3@2",
            vec![(3, 1)],
            "0",
            40,
        ),
        (
            "--subtract 4,5 --also 0.26",
            vec![Rules::subtraction(&[4, 5]), Rules::code("0.26", None)],
            "2,5@2",
            vec![(2, 0), (5, 1)],
            "1/2",
            30,
        ),
        (
            "--rules 0.26",
            vec![Rules::code("0.26", None)],
            "3",
            vec![(3, 0)],
            "0",
            16,
        ),
    ];
    for (rules, bf_rules, plus, bf_plus, bonus, max_n) in cases {
        let mut line = format!("octal values {rules} --max-heap {max_n} --bonus={bonus}");
        if !plus.is_empty() {
            line += &format!(" --plus {plus}");
        }
        let got = Csv::run_csv(&line).sequence();
        let want = Brute::new(bf_rules, q(bonus)).sequence(&bf_plus, max_n);
        assert_eq!(got, want, "{line}");
    }
}

#[test]
fn one_engine_nim_under_octal_is_scoring_nim() {
    // SPEC's unification: Figure 2's f_N(5,4,2) of Scoring Nim, through `octal value`.
    let c = Csv::run_csv("octal value --rules nim 5 4 2 --payoff");
    let r = c.record();
    let fig_2 = "[-1] (-4,1) (-2,3) (-1,2) (0,3) (1,2) (2,3) (4,1) [1]";
    assert_eq!([r["value"], r["outcome"], r["payoff"]], ["3", "N", fig_2]);
    // G_s(n) = n under Nim is not periodic, and moves are unbounded: no period, no proof.
    let c = Csv::run_csv("octal period --rules nim --max-heap 200");
    let r = c.record();
    assert_eq!([r["preperiod"], r["period"], r["status"]], ["", "", "NONE"]);
}

#[test]
fn payoff_at_zero_is_the_value_and_matches_the_brute_force() {
    // (rules, heaps, brute-force rules, brute-force heaps)
    let half = Rational64::new(1, 2);
    let cases: Vec<(&str, &str, Vec<Rules>, Vec<BfHeap>)> = vec![
        (
            "--subtract 4,5",
            "13",
            vec![Rules::subtraction(&[4, 5])],
            vec![(13, 0)],
        ),
        (
            "--subtract 4,5",
            "3",
            vec![Rules::subtraction(&[4, 5])],
            vec![(3, 0)],
        ),
        (
            "--subtract 4,5",
            "0",
            vec![Rules::subtraction(&[4, 5])],
            vec![],
        ),
        (
            "--subtract 4,5",
            "26 9",
            vec![Rules::subtraction(&[4, 5])],
            vec![(26, 0), (9, 0)],
        ),
        (
            "--rules 0.26",
            "7 5",
            vec![Rules::code("0.26", None)],
            vec![(7, 0), (5, 0)],
        ),
        (
            "--subtract 4,5 --also 0.26",
            "9 4@2",
            vec![Rules::subtraction(&[4, 5]), Rules::code("0.26", None)],
            vec![(9, 0), (4, 1)],
        ),
        (
            "--rules 0.137 --points 1/2,-1,3",
            "6 2",
            vec![Rules::code(
                "0.137",
                Some(&[half, Rational64::from(-1), Rational64::from(3)]),
            )],
            vec![(6, 0), (2, 0)],
        ),
        (
            "--rules (3333,2222)",
            "7 3",
            vec![Rules::code("0.3333", Some(&[Rational64::from(2); 4]))],
            vec![(7, 0), (3, 0)],
        ),
    ];
    for (rules, heaps, bf_rules, bf_heaps) in cases {
        let line = format!("octal value {rules} {heaps} --payoff");
        let c = Csv::run_csv(&line);
        let row = c.record();
        let pwl = Pwl::parse(row["payoff"]);
        assert_eq!(row["bonus"], "0", "{line}");
        assert_eq!(pwl.at(Rational64::zero()), q(row["value"]), "{line}");
        // On a grid of bonuses: the PWL, `value --bonus` and the brute force agree.
        for two_n in [-13, -7, -5, -3, -1, 1, 2, 3, 5, 9] {
            let n = Rational64::new(two_n, 2);
            let want = Brute::new(bf_rules.clone(), n).value(&bf_heaps);
            assert_eq!(pwl.at(n), want, "{line} at N = {n}");
            if two_n % 3 == 0 {
                let at = Csv::run_csv(&format!("octal value {rules} {heaps} --bonus={n}"));
                assert_eq!(q(at.record()["value"]), want, "{line} --bonus={n}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 14: fixed heaps under a breaking ruleset, the cost model before work

/// The least preperiod and least period of the brute-force sequence, read on its whole length
/// (the claimed period must hold on every term from the claimed preperiod on).
fn check_period_on_brute_force(values: &[Rational64], pre: usize, period: usize, what: &str) {
    assert!(pre + 3 * period < values.len(), "{what}: too few terms");
    for n in pre..values.len() - period {
        assert_eq!(values[n], values[n + period], "{what}: n = {n}");
    }
    // Least: no proper divisor of the period works, and the term before the preperiod differs.
    for d in (1..period).filter(|d| period.is_multiple_of(*d)) {
        assert!(
            (pre..values.len() - d).any(|n| values[n] != values[n + d]),
            "{what}: {d} is a smaller period"
        );
    }
    if pre > 0 {
        assert_ne!(
            values[pre - 1],
            values[pre - 1 + period],
            "{what}: preperiod"
        );
    }
}

#[test]
fn fixed_heaps_that_break_get_proven_periods_checked_by_brute_force() {
    // These exited 2 with "position (…) is not among the positions solved": the fixed heap's
    // breaking ruleset has multisets it never reaches (under 0.7, 2 never becomes 1 + 1).
    let sub13 = Rules::subtraction(&[1, 3]);
    for (line, rules, plus) in [
        (
            "octal period --subtract 1,3 --also 0.7 --plus 2@2",
            vec![sub13.clone(), Rules::code("0.7", None)],
            (2u32, 1usize),
        ),
        (
            "octal period --rules 0.23 --also 0.26 --plus 5@2",
            vec![Rules::code("0.23", None), Rules::code("0.26", None)],
            (5, 1),
        ),
    ] {
        let c = Csv::run_csv(line);
        let r = c.record();
        assert_eq!(r["status"], "PROVEN", "{line}");
        let (pre, period) = (int(r["preperiod"]) as usize, int(r["period"]) as usize);
        let mut b = Brute::new(rules, Rational64::zero());
        let values = b.sequence(&[plus], (pre + 6 * period + 40) as u32);
        check_period_on_brute_force(&values, pre, period, line);
    }
    // mine octal: the closed forms are the brute-force values.
    let line = "mine octal --subtract 1,3 --also 0.7 --plus 4@2";
    let c = Csv::run_csv(line);
    let rows = c.records();
    let period = int(rows[0]["period"]) as usize;
    let pre = int(rows[0]["preperiod"]) as usize;
    assert!(rows.iter().all(|r| r["status"] == "PROVEN"), "{line}");
    let mut b = Brute::new(vec![sub13, Rules::code("0.7", None)], Rational64::zero());
    let values = b.sequence(&[(4, 1)], (pre + 6 * period + 40) as u32);
    check_period_on_brute_force(&values, pre, period, line);
    for r in &rows {
        let residue = int(r["residue"]) as usize;
        let from = int(r["from_k"]) as usize * period + residue;
        for n in (from..values.len()).step_by(period) {
            assert_eq!(values[n], q(r["value"]), "{line}: n = {n}");
        }
    }
}

#[test]
fn oversized_octal_work_is_refused_before_it_starts() {
    // Ran 7 min 42 s, then refused for memory; now the estimate comes first, with a heap that fits.
    refused_quickly(
        "octal values --rules 0.77 --also 0.26 --plus 3@2 --max-heap 83",
        &["positions", "would need about", "--max-heap", "or less"],
    );
    // --memory-limit was ignored by the single-heap recurrence and by mine octal.
    refused_quickly(
        "octal values --subtract 4,5 --max-heap 100 --memory-limit 1",
        &["would need about", "1 bytes", "--memory-limit"],
    );
    refused_quickly(
        "mine octal --subtract 4,5 --memory-limit 1",
        &["would need about", "--memory-limit"],
    );
    refused_quickly(
        "octal period --rules 0.054 --points 2,2,2 --memory-limit 1",
        &["would need about", "--memory-limit"],
    );
    // Single positions with a heap far too large: refused with the estimate, not aborted.
    for line in [
        "octal value --rules 0.26 4294967295",
        "octal outcome --rules 0.26 100000",
        "octal value --rules nim 4294967295",
        "octal value --subtract 4,5 --also 0.7 7 4294967295@2",
    ] {
        refused_quickly(line, &["would need", "smaller heap"]);
    }
    // A heap bound far beyond what the table of multisets could hold: refused, not aborted.
    refused_quickly(
        "octal values --rules 0.26 --max-heap 10000000",
        &["would need over 16 EiB", "--max-heap 104 or less"],
    );
}

#[test]
fn the_suggested_heap_fits() {
    let err = run_input_error(
        &words("octal values --rules 0.24 --max-heap 60 --memory-limit 16M"),
        &["--max-heap"],
    );
    let n = err
        .split("--max-heap ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .expect("a suggested heap");
    let line = format!("octal values --rules 0.24 --max-heap {n} --memory-limit 16M");
    let c = Csv::run_csv(&line);
    let mut b = Brute::new(vec![Rules::code("0.24", None)], Rational64::zero());
    let expected = b.sequence(&[], int(n) as u32);
    assert_eq!(c.sequence(), expected, "{line}");
}

#[test]
fn period_searches_stop_at_what_they_can_afford_and_say_why() {
    // Nim has no finite look-back and n moves per heap: the search stops at the heap the memory
    // limit affords instead of running until the allocator fails.
    // A period search no longer refuses outright: it observes on the heaps the limit affords.
    let c = Csv::run_csv("octal period --rules 0.24 --memory-limit 16M");
    let r = c.record();
    assert!(
        r["argument"].contains("stopped at n ="),
        "{}",
        r["argument"]
    );
    let err = run_input_error(
        &words("mine octal --rules NIM --memory-limit 64M"),
        &["no period found", "stopped at n =", "memory limit"],
    );
    assert!(!err.contains("raise --max-heap"), "{err}");
    // A breaking game with unequal points observes on the multisets that fit, and says so.
    let c = Csv::run_csv("octal period --rules 0.36 --memory-limit 64M");
    let r = c.record();
    assert_eq!(r["status"], "OBSERVED");
    assert!(
        r["argument"].contains("stopped at n ="),
        "{}",
        r["argument"]
    );
    assert!(int(r["terms"]) > 30);
    // The terms it observed on are the brute force's (the first 31: the brute force keeps every
    // multiset in a hash map).
    let mut b = Brute::new(vec![Rules::code("0.36", None)], Rational64::zero());
    let values = b.sequence(&[], 30);
    let c = Csv::run_csv("octal values --rules 0.36 --max-heap 30");
    assert_eq!(c.sequence(), values);
    let (pre, period) = (int(r["preperiod"]) as usize, int(r["period"]) as usize);
    for n in pre..values.len() - period {
        assert_eq!(values[n], values[n + period], "0.36: n = {n}");
    }
}

/// Grundy values g(0..=max_n) of an octal code by the plain mex rule (normal play).
fn grundy(rules: &Rules, max_n: u32) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=max_n {
        let options: Vec<u32> = rules
            .moves(n)
            .iter()
            .map(|(_, left)| left.iter().fold(0, |x, &l| x ^ g[l as usize]))
            .collect();
        g.push((0..).find(|v| !options.contains(v)).expect("a mex"));
    }
    g
}

#[test]
fn normal_play_games_use_the_grundy_shadow_everywhere() {
    // 0.4 (every move scores 1): mine octal proves the period through Grundy values, fast.
    let start = Instant::now();
    let c = Csv::run_csv("mine octal --rules 0.4 --max-heap 4000");
    let rows = c.records();
    assert!(rows.iter().all(|r| r["status"] == "PROVEN"));
    let (pre, period) = (
        int(rows[0]["preperiod"]) as usize,
        int(rows[0]["period"]) as usize,
    );
    // Every move scores 1, so G_s = [g ≠ 0] for the Grundy value g: the negamax confirms that on
    // the first terms, a plain mex computation gives the rest.
    let rules = Rules::code("0.4", None);
    let g = grundy(&rules, pre as u32 + 4 * period as u32 + 40);
    let values: Vec<Rational64> = g
        .iter()
        .map(|&v| Rational64::from(i64::from(v != 0)))
        .collect();
    let mut b = Brute::new(vec![rules], Rational64::zero());
    assert_eq!(b.sequence(&[], 30)[..], values[..=30]);
    check_period_on_brute_force(&values, pre, period, "0.4");
    assert!(start.elapsed() < Duration::from_secs(60));
    // octal values of (054, 2,2,2) far beyond what the multiset table reaches, checked against
    // the brute force on the first terms.
    let c = Csv::run_csv("octal values --rules 0.054 --points 2,2,2 --max-heap 3000");
    let v = c.sequence();
    let two = Rational64::from(2);
    let rules = Rules::code("0.054", Some(&[two, two, two]));
    let expected: Vec<Rational64> = grundy(&rules, 3000)
        .iter()
        .map(|&g| if g != 0 { two } else { Rational64::zero() })
        .collect();
    assert_eq!(v, expected);
    let mut b = Brute::new(vec![rules], Rational64::zero());
    assert_eq!(v[..=30], b.sequence(&[], 30)[..]);
}
