//! The `nimlab candy …` command line end to end: input errors, exact CSV columns, the paper's
//! values (Candy Nim, Mani et al. 2018) with the corrections recorded in the implementation
//! notes, an independent brute force written here, snapshots, and `-o FILE` atomicity.
//!
//! Command lines are written as one string split on whitespace (see [`words`]).

use crate::common;

use std::collections::{BTreeSet, HashMap};

use common::*;
use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Helpers

impl Csv {
    /// One column as integers.
    fn ints(&self, column: &str) -> Vec<i64> {
        self.records().iter().map(|r| int(r[column])).collect()
    }
}

fn json_int(v: &Value, key: &str) -> i64 {
    v[key]
        .as_i64()
        .unwrap_or_else(|| panic!("{key} is not an integer in {v}"))
}

fn json_str<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

/// `[7,16,23]` → [7, 16, 23]; `[]` → [].
/// Heaps in a JSON array.
fn json_heaps(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap_or_else(|| panic!("{v} is not a JSON array of heaps"))
        .iter()
        .map(|h| {
            h.as_u64()
                .and_then(|h| u32::try_from(h).ok())
                .expect("a heap")
        })
        .collect()
}

fn heaps_of(cell: &str) -> Vec<u32> {
    let inner = cell
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or_else(|| panic!("{cell:?} is not a bracketed heap list"));
    if inner.is_empty() {
        return Vec::new();
    }
    inner
        .split(',')
        .map(|h| {
            h.parse()
                .unwrap_or_else(|_| panic!("heap {h:?} in {cell:?}"))
        })
        .collect()
}

fn nim_sum(heaps: &[u32]) -> u32 {
    heaps.iter().fold(0, |a, &h| a ^ h)
}

fn total(heaps: &[u32]) -> i64 {
    heaps.iter().map(|&h| i64::from(h)).sum()
}

/// Heaps sorted decreasingly, zeros dropped.
fn decreasing(heaps: &[u32]) -> Vec<u32> {
    let mut h: Vec<u32> = heaps.iter().copied().filter(|&x| x > 0).collect();
    h.sort_unstable_by(|a, b| b.cmp(a));
    h
}

fn space_separated(heaps: &[u32]) -> String {
    heaps
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Independent Candy Nim solver: memoized minimax on sorted nonzero heap tuples. The player to
/// move is Luca when the nim-sum is 0 (any move) and Windsor otherwise (only moves to nim-sum
/// 0); each maximizes their own candies, i.e. their margin over the other player, because
/// every candy goes to one of the two.
#[derive(Default)]
struct Brute {
    memo: HashMap<Vec<u32>, i64>,
}

impl Brute {
    /// Candies of the player to move minus the other player's, under optimal play.
    fn margin(&mut self, heaps: &[u32]) -> i64 {
        let mut key: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if key.is_empty() {
            return 0;
        }
        if let Some(&m) = self.memo.get(&key) {
            return m;
        }
        let luca = nim_sum(&key) == 0;
        let mut best = i64::MIN;
        let mut child = key.clone();
        for i in 0..key.len() {
            for left in 0..key[i] {
                child[i] = left;
                if luca || nim_sum(&child) == 0 {
                    best = best.max(i64::from(key[i] - left) - self.margin(&child));
                }
            }
            child[i] = key[i];
        }
        assert!(best > i64::MIN, "{key:?}: Bouton gives Windsor a move");
        self.memo.insert(key, best);
        best
    }

    /// V = N_L − N_W.
    fn value(&mut self, heaps: &[u32]) -> i64 {
        let m = self.margin(heaps);
        if nim_sum(heaps) == 0 { m } else { -m }
    }

    /// Every optimal move (heap index, heaps left) of the player to move.
    fn optimal_moves(&mut self, heaps: &[u32]) -> Vec<(usize, u32)> {
        let want = self.margin(heaps);
        let luca = nim_sum(heaps) == 0;
        let mut out = Vec::new();
        let mut child = heaps.to_vec();
        for i in 0..heaps.len() {
            for left in 0..heaps[i] {
                child[i] = left;
                if (luca || nim_sum(&child) == 0)
                    && i64::from(heaps[i] - left) - self.margin(&child) == want
                {
                    out.push((i, left));
                }
            }
            child[i] = heaps[i];
        }
        out
    }
}

/// The summary of `candy value HEAPS --format json`: (to_move, v, n_l, n_w).
fn cli_value(heaps: &[u32]) -> (String, i64, i64, i64) {
    let json = run_json(&format!(
        "candy value {} --format json",
        space_separated(heaps)
    ));
    let v = &json[0];
    assert_eq!(json_int(v, "candies"), total(heaps), "{heaps:?}");
    assert_eq!(
        json_int(v, "nim_sum"),
        i64::from(nim_sum(heaps)),
        "{heaps:?}"
    );
    let (val, n_l, n_w) = (json_int(v, "v"), json_int(v, "n_l"), json_int(v, "n_w"));
    assert_eq!(n_l + n_w, total(heaps), "{heaps:?}: n_l + n_w = N");
    assert_eq!(val, n_l - n_w, "{heaps:?}: v = n_l − n_w");
    (json_str(v, "to_move").to_string(), val, n_l, n_w)
}

/// Checks the line of `candy value HEAPS --format csv`: each ply is legal (the player is Luca
/// exactly at nim-sum 0, Windsor always moves to nim-sum 0), optimal by the brute force, the
/// running totals add up, the game ends empty, and the final totals are (n_l, n_w).
fn check_line(heaps: &[u32], n_l: i64, n_w: i64, brute: &mut Brute) {
    let line = Csv::run(&format!(
        "candy value {} --format csv",
        space_separated(heaps)
    ));
    let columns = [
        "ply",
        "player",
        "heap",
        "taken",
        "after",
        "luca_total",
        "windsor_total",
    ];
    assert_eq!(line.header, columns);
    let mut g = heaps.to_vec();
    let (mut luca, mut windsor) = (0i64, 0i64);
    for (i, ply) in line.records().iter().enumerate() {
        let what = format!("{heaps:?} ply {}", i + 1);
        assert_eq!(int(ply["ply"]), i as i64 + 1, "{what}");
        let is_luca = nim_sum(&g) == 0;
        assert_eq!(
            ply["player"],
            if is_luca { "Luca" } else { "Windsor" },
            "{what}"
        );
        let h = usize::try_from(int(ply["heap"]) - 1).expect("heaps are numbered from 1");
        let taken = u32::try_from(int(ply["taken"])).expect("taken ≥ 0");
        assert!(
            taken >= 1 && taken <= g[h],
            "{what}: takes {taken} of {}",
            g[h]
        );
        let want = brute.margin(&g);
        let before = g.clone();
        g[h] -= taken;
        assert_eq!(heaps_of(ply["after"]), g, "{what}: after");
        if is_luca {
            luca += i64::from(taken);
        } else {
            assert_eq!(nim_sum(&g), 0, "{what}: Windsor must reach nim-sum 0");
            windsor += i64::from(taken);
        }
        assert_eq!(
            i64::from(taken) - brute.margin(&g),
            want,
            "{what}: {before:?} → {g:?} is not optimal"
        );
        assert_eq!(
            (int(ply["luca_total"]), int(ply["windsor_total"])),
            (luca, windsor),
            "{what}: running totals"
        );
    }
    assert!(
        g.iter().all(|&h| h == 0),
        "{heaps:?}: the line ends at {g:?}"
    );
    assert_eq!((luca, windsor), (n_l, n_w), "{heaps:?}: final totals");
}

// ---------------------------------------------------------------------------------------------
// 1. Bad input

#[test]
fn bad_input_exits_2_naming_the_value() {
    let cases: &[(&str, &[&str])] = &[
        ("candy value -- -2", &["'-2'", "negative"]),
        ("candy value 1 -2 3", &["'-2'"]),
        ("candy value 1 x 3", &["'x'", "whole number"]),
        ("candy value 99999999999", &["'99999999999'", "too large"]),
        ("candy value", &["<HEAP>"]),
        ("candy table --heaps 3 --max-heap x", &["'x'"]),
        ("candy table --heaps 3 --max-heap=-1", &["'-1'"]),
        ("candy allocate --max-candies 1", &["--max-candies 1"]),
        ("candy allocate --max-candies 0", &["--max-candies 0"]),
        (
            "candy allocate --max-candies 7",
            &["--max-candies 7", "even"],
        ),
        (
            "candy allocate --max-candies 1000",
            &["--max-candies 1000", "100"],
        ),
        ("candy allocate --max-candies x", &["'x'"]),
        ("candy allocate --candies 7", &["--candies 7", "even"]),
        (
            "candy strategy flip-flop 5 6 3",
            &["[5,6,3]", "standard form"],
        ),
        (
            "candy strategy fractal 7 16 22",
            &["[7,16,22]", "N-position"],
        ),
        ("candy strategy flip-flop 1 2 4", &["[1,2,4]", "N-position"]),
        (
            "candy strategy flip-flop 1 1 1 1",
            &["[1,1,1,1]", "is not one"],
        ),
        (
            "candy strategy fractal 7 16 23 --f 1,3",
            &["--f", "f(2) = 3", "contractive"],
        ),
        ("candy strategy fractal 7 16 23 --f x", &["--f", "'x'"]),
        ("candy strategy zigzag 7 16 23", &["'zigzag'"]),
        (
            "candy strategy fractal 7 16 23 --reading middle",
            &["'middle'"],
        ),
        ("candy frak --a 0..2 --m 1", &["--a 0..2", "≥ 1"]),
        ("candy frak --a 5 --m 0..2", &["--m 0..2", "≥ 1"]),
        // 2^⌊log₂ 5⌋ = 4, so no x in 4..4 gives a game.
        (
            "candy frak --a 5 --m 1 --x 4..4",
            &["no game", "x must be below"],
        ),
        ("candy standard --k 0..2 --m 1", &["--k 0..2", "≥ 1"]),
        ("candy standard --k 40 --m 1", &["k = 40"]),
        ("candy table --heaps 1 --max-heap 5", &["--heaps 1"]),
        ("candy table --heaps 0 --max-heap 5", &["--heaps 0"]),
        (
            "candy table --heaps 3 --max-heap 600 --memory-limit 1M",
            &["600", "1 MiB", "--memory-limit"],
        ),
        (
            "candy table --heaps 4 --max-heap 40 --memory-limit 1M",
            &["[40,40,40,40]", "1 MiB", "--memory-limit"],
        ),
        // A 9-heap position needs the dense box of its heaps: 10! points.
        (
            "candy value 1 2 3 4 5 6 7 8 9 --memory-limit 1M",
            &["[9,8,7,6,5,4,3,2,1]", "1 MiB", "--memory-limit"],
        ),
        ("candy value 1 2 3 --memory-limit 8X", &["'8X'"]),
        (
            "candy family 31,32m+,32m+31 --m 1..3",
            &["'31,32m+,32m+31'", "column 8"],
        ),
        (
            "candy family 31,32q,32m+31 --m 1..3",
            &["parameter q", "no range"],
        ),
        ("candy family k-5,1 --k 1..3", &["k=1", "-4"]),
        ("candy family 31,32m,32m+31 --m 5..2", &["'5..2'", "empty"]),
        ("candy frak --a 3 --m 5..2", &["'5..2'", "empty"]),
        ("candy standard --k 1 --m 5..2", &["'5..2'", "empty"]),
        ("candy value 1 2 3 --format xml", &["'xml'"]),
    ];
    for (line, needles) in cases {
        run_input_error(&words(line), needles);
    }
    // Neither --max-candies nor --candies.
    run_input_error(&words("candy allocate"), &["--max-candies"]);
    run_input_error(&["candy", "family", "", "--m", "1..3"], &["family ''"]);
}

// ---------------------------------------------------------------------------------------------
// 2. Exact CSV columns

#[test]
fn table_lists_every_p_position_once_with_consistent_values() {
    let table = Csv::run("candy table --heaps 3 --max-heap 8 --format csv");
    assert_eq!(table.header, ["h1", "h2", "h3", "v", "n_l", "n_w"]);
    let mut brute = Brute::default();
    let mut seen = BTreeSet::new();
    for r in table.records() {
        let h: Vec<u32> = ["h1", "h2", "h3"]
            .iter()
            .map(|c| u32::try_from(int(r[c])).expect("a heap"))
            .collect();
        assert!(h[0] >= h[1] && h[1] >= h[2] && h[2] >= 1, "{h:?}");
        assert!(h[0] <= 8, "{h:?}");
        assert_eq!(nim_sum(&h), 0, "{h:?} is a P-position");
        let (v, n_l, n_w) = (int(r["v"]), int(r["n_l"]), int(r["n_w"]));
        assert_eq!(n_l + n_w, total(&h), "{h:?}");
        assert_eq!(v, n_l - n_w, "{h:?}");
        assert!(v >= 0, "{h:?}: Lemma 2.12");
        assert_eq!(v, brute.value(&h), "{h:?}: brute force");
        assert!(seen.insert(h.clone()), "{h:?} listed twice");
    }
    // Exactly the P-positions 8 ≥ a ≥ b ≥ c ≥ 1.
    let mut all = BTreeSet::new();
    for a in 1..=8u32 {
        for b in 1..=a {
            let c = a ^ b;
            if (1..=b).contains(&c) {
                all.insert(vec![a, b, c]);
            }
        }
    }
    assert_eq!(seen, all);
    assert_eq!(seen.len(), 7);
}

#[test]
fn family_and_allocate_columns() {
    let fam = Csv::run_args(&[
        "candy",
        "family",
        "31,32m,32m+31",
        "--m",
        "1..4",
        "--format",
        "csv",
    ]);
    assert_eq!(fam.header, ["m", "h1", "h2", "h3", "v", "n_l", "n_w"]);
    assert_eq!(fam.ints("m"), [1, 2, 3, 4]);
    for r in fam.records() {
        let m = int(r["m"]);
        assert_eq!(
            [int(r["h1"]), int(r["h2"]), int(r["h3"])],
            [31, 32 * m, 32 * m + 31]
        );
        let n = 31 + 64 * m + 31;
        assert_eq!(int(r["n_l"]) + int(r["n_w"]), n);
        assert_eq!(int(r["v"]), int(r["n_l"]) - int(r["n_w"]));
    }

    let alloc = Csv::run("candy allocate --max-candies 16 --format csv");
    assert_eq!(
        alloc.header,
        ["candies", "min_nw", "argmin", "max_nw", "argmax"]
    );
    assert_eq!(alloc.ints("candies"), [2, 4, 6, 8, 10, 12, 14, 16]);
}

#[test]
fn json_has_the_csv_columns_and_cells() {
    for line in [
        "candy table --heaps 4 --max-heap 6",
        "candy allocate --max-candies 12",
        "candy standard --k 1..3 --m 1..2",
        "candy frak --a 4..7 --m 1..2 --x 0..3",
        "candy strategy fractal 7 16 23",
    ] {
        let csv = Csv::run(&format!("{line} --format csv"));
        let json = run_json(&format!("{line} --format json"));
        // `strategy` gives one row, the summary, with its turns nested: they match the CSV.
        let rows = json[0]
            .get("turns")
            .unwrap_or(&json)
            .as_array()
            .expect("a JSON array");
        assert_json_rows_match_csv(line, rows, &csv);
    }
}

// ---------------------------------------------------------------------------------------------
// 3. The paper's values

#[test]
fn values_of_the_papers_positions() {
    // [1,2,3]: V = 2, Luca gets 4 of 6.
    assert_eq!(cli_value(&[1, 2, 3]), ("Luca".into(), 2, 4, 2));
    // Remark 7.3: V([31,42,53]) = 96 but V([1,2,4,8,16,42,53]) = 94.
    assert_eq!(cli_value(&[31, 42, 53]).1, 96);
    assert_eq!(cli_value(&[1, 2, 4, 8, 16, 42, 53]).1, 94);
    // Values recorded in the notes (Prop 7.1, Conj 7.2, Fig. 2, Thm 5.1).
    for (heaps, v) in [
        (&[1, 2, 4, 7][..], 8),
        (&[3, 4, 7], 6),
        (&[3, 5, 6], 6),
        (&[1, 2, 5, 6], 6),
        (&[7, 8, 15], 18),
        (&[1, 6, 7], 6),
        (&[12, 20, 24], 38),
        (&[4, 8, 20, 24], 36),
        (&[63, 128, 191], 344),
        (&[127, 128, 255], 454),
    ] {
        assert_eq!(cli_value(heaps).1, v, "{heaps:?}");
    }

    // The [1,5,16,20] example: V = 28 and the optimal first move is in the heap of 5.
    let g = [1, 5, 16, 20];
    let (_, v, n_l, n_w) = cli_value(&g);
    assert_eq!(v, 28);
    let line = Csv::run("candy value 1 5 16 20 --format csv");
    let first = &line.records()[0];
    assert_eq!((first["player"], first["heap"]), ("Luca", "2"));
    let mut brute = Brute::default();
    assert_eq!(brute.value(&g), 28);
    let moves = brute.optimal_moves(&g);
    assert!(!moves.is_empty());
    assert!(
        moves.iter().all(|&(i, _)| i == 1),
        "optimal first moves {moves:?}"
    );
    check_line(&g, n_l, n_w, &mut brute);
}

#[test]
fn remark_4_5_and_prop_4_1_families() {
    // Remark 4.5: V([31, 32m, 32m+31]) = 62(m−1) + 98 (the paper checked m < 12).
    let fam = Csv::run_args(&[
        "candy",
        "family",
        "31,32m,32m+31",
        "--m",
        "1..64",
        "--format",
        "csv",
    ]);
    assert_eq!(fam.ints("m"), (1..=64).collect::<Vec<_>>());
    for r in fam.records() {
        let m = int(r["m"]);
        assert_eq!(int(r["v"]), 62 * (m - 1) + 98, "m = {m}");
    }
    // Prop 4.1: V([1, 2m, 2m+1]) = 2m.
    let fam = Csv::run_args(&[
        "candy",
        "family",
        "1,2m,2m+1",
        "--m",
        "1..40",
        "--format",
        "csv",
    ]);
    assert_eq!(fam.ints("m"), (1..=40).collect::<Vec<_>>());
    for r in fam.records() {
        assert_eq!(int(r["v"]), 2 * int(r["m"]));
    }
}

/// min N_W over P-positions with N candies and all its minimizers (notes §3.5, checked there by
/// an independent brute force over every partition), and the number of maximizers.
const ALLOCATION: &[(i64, i64, &str, usize)] = &[
    (2, 1, "1,1", 1),
    (4, 2, "2,2; 1,1,1,1", 2),
    (6, 2, "1,2,3", 3),
    (8, 3, "1,1,1,2,3", 5),
    (10, 3, "1,4,5", 7),
    (12, 3, "2,4,6", 11),
    (14, 3, "1,2,4,7", 15),
    (16, 4, "1,1,1,2,4,7", 22),
    (18, 5, "1,8,9; 1,2,2,2,4,7; 1,1,1,1,1,2,4,7", 30),
    (20, 5, "2,8,10", 42),
    (22, 4, "1,2,8,11", 56),
    (24, 5, "4,8,12; 1,1,1,2,8,11", 77),
    (26, 4, "1,4,8,13", 101),
    (28, 4, "2,4,8,14", 135),
    (30, 4, "1,2,4,8,15", 176),
    (32, 5, "1,1,1,2,4,8,15", 231),
    (34, 6, "1,2,2,2,4,8,15; 1,1,1,1,1,2,4,8,15", 297),
    (
        36,
        7,
        "1,2,3,3,4,8,15; 1,1,1,2,2,2,4,8,15; 1,1,1,1,1,1,1,2,4,8,15",
        385,
    ),
    (38, 6, "1,2,16,19", 490),
    (40, 7, "4,16,20; 1,1,1,2,16,19", 627),
];

/// Arrangements `[a,b,…];[c,…]` as a set of decreasing heap lists, checking each is a
/// P-position with `n` candies written in decreasing order.
fn arrangements(cell: &str, n: i64) -> BTreeSet<Vec<u32>> {
    cell.split(';')
        .map(|a| {
            let h = heaps_of(a);
            assert_eq!(h, decreasing(&h), "{a} is not in decreasing order");
            assert_eq!(total(&h), n, "{a}");
            assert_eq!(nim_sum(&h), 0, "{a}");
            h
        })
        .collect()
}

/// Partitions of n into parts ≤ max (decreasing).
fn partitions(n: u32, max: u32) -> Vec<Vec<u32>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for part in (1..=max.min(n)).rev() {
        for mut rest in partitions(n - part, part) {
            rest.insert(0, part);
            out.push(rest);
        }
    }
    out
}

#[test]
fn allocation_matches_the_brute_force_and_theorem_6_7() {
    let alloc = Csv::run("candy allocate --max-candies 40 --format csv");
    let records = alloc.records();
    assert_eq!(records.len(), ALLOCATION.len());
    let mut equality = Vec::new();
    for (r, &(n, min_nw, argmin, maximizers)) in records.iter().zip(ALLOCATION) {
        assert_eq!(int(r["candies"]), n);
        assert_eq!(int(r["min_nw"]), min_nw, "N = {n}");
        let expected: BTreeSet<Vec<u32>> = argmin
            .split("; ")
            .map(|a| decreasing(&heaps_of(&format!("[{a}]"))))
            .collect();
        assert_eq!(arrangements(r["argmin"], n), expected, "N = {n}: argmin");
        // Max N_W = N/2 (Lemma 2.12 and V([N/2, N/2]) = 0), attained exactly by the positions
        // whose heaps pair up, K + K (Lemma 6.3): one for each partition of N/2.
        assert_eq!(int(r["max_nw"]), n / 2, "N = {n}");
        let argmax = arrangements(r["argmax"], n);
        assert_eq!(argmax.len(), maximizers, "N = {n}: argmax count");
        let doubled: BTreeSet<Vec<u32>> = partitions(n as u32 / 2, n as u32 / 2)
            .into_iter()
            .map(|p| p.iter().flat_map(|&x| [x, x]).collect())
            .collect();
        assert_eq!(argmax, doubled, "N = {n}: argmax");
        // Theorem 6.7: N_W ≥ ⌊log₂ N⌋.
        let log = i64::from(n.ilog2());
        assert!(min_nw >= log, "N = {n}");
        if min_nw == log {
            equality.push(n);
        }
    }
    assert_eq!(equality, [2, 4, 6, 8, 10, 12, 14, 16, 22, 26, 28, 30, 32]);

    // --candies N gives the row of N alone.
    let one = Csv::run("candy allocate --candies 40 --format csv");
    assert_eq!(one.header, alloc.header);
    assert_eq!(one.rows, [alloc.rows[19].clone()]);
}

#[test]
fn flip_flop_value_is_m_times_2_to_the_k_plus_1_minus_2() {
    // Prop 4.3 prints (m − 1)(2^{k+1} − 2); playing Def 4.2 gives m(2^{k+1} − 2) (notes §3.3).
    let t = Csv::run("candy standard --k 1..5 --m 1..4 --format csv");
    let columns = [
        "k",
        "m",
        "h1",
        "h2",
        "h3",
        "v",
        "v_flip_flop",
        "v_fractal_largest",
        "v_fractal_smallest",
    ];
    assert_eq!(t.header, columns);
    assert_eq!(t.rows.len(), 20);
    for r in t.records() {
        let (k, m) = (int(r["k"]), int(r["m"]));
        let p = 1i64 << k;
        assert_eq!(
            [int(r["h1"]), int(r["h2"]), int(r["h3"])],
            [p - 1, p * m, p * (m + 1) - 1]
        );
        let ff = int(r["v_flip_flop"]);
        assert_eq!(ff, m * (2 * p - 2), "k = {k}, m = {m}");
        assert_ne!(ff, (m - 1) * (2 * p - 2), "k = {k}, m = {m}");
        // Every strategy is a strategy: V is at least its value.
        let v = int(r["v"]);
        for s in ["v_flip_flop", "v_fractal_largest", "v_fractal_smallest"] {
            assert!(int(r[s]) <= v, "k = {k}, m = {m}: {s}");
        }
    }
    // The strategy command agrees: [7,16,23] = 𝔊(7, 2, 0), two turns of 14 then [7,7].
    let ff = run_json("candy strategy flip-flop 7 16 23 --format json")[0].clone();
    assert_eq!(
        (json_int(&ff, "v_strategy"), json_int(&ff, "v_optimal")),
        (28, 32)
    );
    let values: Vec<i64> = ff["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| json_int(t, "turn_value"))
        .collect();
    assert_eq!(values, [14, 14, 0]);
}

#[test]
fn fractal_largest_reading_reproduces_figure_2() {
    let play = run_json("candy strategy fractal 7 16 23 --format json")[0].clone();
    let turns = play["turns"].as_array().expect("turns");
    // Flip-flop to H = [7,8,15], then 15 → 1 and Windsor 8 → 6: V_T = 12, leaving [1,6,7].
    assert_eq!(turns[1]["before"], serde_json::json!([7, 8, 15]));
    assert_eq!(json_int(&turns[1], "turn_value"), 12);
    assert_eq!(
        decreasing(&json_heaps(&turns[1]["after_windsor"])),
        [7, 6, 1]
    );
    let sum: i64 = turns.iter().map(|t| json_int(t, "turn_value")).sum();
    assert_eq!(sum, 32);
    assert_eq!(
        (json_int(&play, "v_strategy"), json_int(&play, "v_optimal")),
        (32, 32)
    );
    // Step (3) as written (smallest heap 7 → 1) gives V_T = 0 and [1,8,9], total 20.
    let play =
        run_json("candy strategy fractal 7 16 23 --reading smallest --format json")[0].clone();
    let turns = play["turns"].as_array().expect("turns");
    assert_eq!(json_int(&turns[1], "turn_value"), 0);
    assert_eq!(
        decreasing(&json_heaps(&turns[1]["after_windsor"])),
        [9, 8, 1]
    );
    assert_eq!(json_int(&play, "v_strategy"), 20);

    // Prop 4.4's strategy on [31,32,63]: a first turn of 60 − 4 = 56, 98 in all.
    let play = run_json("candy strategy fractal 31 32 63 --format json")[0].clone();
    let first = &play["turns"][0];
    assert_eq!(json_int(first, "turn_value"), 56);
    assert_eq!(json_str(first, "semiratio"), "15");
    assert_eq!(json_int(&play, "v_strategy"), 98);

    // f = ⌊a/2⌋ is not optimal at [63,128,191]: 340 < V = 344.
    let play = run_json("candy strategy fractal 63 128 191 --format json")[0].clone();
    assert_eq!(
        (json_int(&play, "v_strategy"), json_int(&play, "v_optimal")),
        (340, 344)
    );
}

#[test]
fn standard_fractal_largest_matches_the_corrected_theorem_4_8() {
    // sup_f V_Fractal at m = 1 (notes §3.3, corrected formula): 2, 6, 18, 42, 98, 214, 454.
    let t = Csv::run("candy standard --k 1..7 --m 1 --format csv");
    assert_eq!(t.ints("k"), [1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(t.ints("v_fractal_largest"), [2, 6, 18, 42, 98, 214, 454]);
    // The corrected formula of Theorem 4.8, computed here.
    let corrected = |k: u32, m: i64| -> i64 {
        let mut s = (m - 1) * ((1i64 << (k + 1)) - 2);
        for i in 0..=k.ilog2() {
            let (big, f) = (i64::from(k >> i), i64::from(k >> (i + 1)));
            s += (1i64 << (big + 1)) - (1i64 << (f + 1))
                + ((1i64 << (f + 1)) - 2) * ((1i64 << (big - f)) - 2);
        }
        s
    };
    for (k, v) in (1..=7).zip(t.ints("v_fractal_largest")) {
        assert_eq!(v, corrected(k, 1), "k = {k}");
    }
    // At m = 1 the fractal strategy is optimal for k ≤ 7.
    assert_eq!(t.ints("v"), t.ints("v_fractal_largest"));
}

// ---------------------------------------------------------------------------------------------
// 4. An independent brute force

#[test]
fn values_and_lines_agree_with_a_brute_force() {
    let mut brute = Brute::default();
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut positions: Vec<Vec<u32>> = Vec::new();
    while positions.len() < 30 {
        let k = rng.random_range(1..=5);
        let mut h: Vec<u32> = (0..k).map(|_| rng.random_range(0..8)).collect();
        if positions.len().is_multiple_of(2) && k >= 2 {
            // A P-position: the last heap is the nim-sum of the others (≤ 7).
            h[k - 1] = nim_sum(&h[..k - 1]);
        }
        if total(&h) > 0 && !positions.contains(&h) {
            positions.push(h);
        }
    }
    // The notes' N-position examples, including a positive one and one where Windsor must pick
    // among replies ([1,3,3]: 1 → 0 is best).
    for h in [
        &[1][..],
        &[2],
        &[1, 2],
        &[1, 1, 1],
        &[2, 3],
        &[1, 3],
        &[1, 1, 2],
        &[1, 2, 4],
        &[1, 3, 3],
        &[2, 4, 5],
        &[1, 1, 1, 1],
    ] {
        positions.push(h.to_vec());
    }
    let (mut p, mut negative, mut positive) = (0, 0, 0);
    for h in &positions {
        let (to_move, v, n_l, n_w) = cli_value(h);
        let expected = brute.value(h);
        assert_eq!(v, expected, "{h:?}");
        assert_eq!(
            to_move,
            if nim_sum(h) == 0 { "Luca" } else { "Windsor" },
            "{h:?}"
        );
        if nim_sum(h) == 0 {
            p += 1;
            assert!(v >= 0, "{h:?}: Lemma 2.12");
        } else if v < 0 {
            negative += 1;
        } else if v > 0 {
            positive += 1;
        }
        check_line(h, n_l, n_w, &mut brute);
    }
    assert!(p >= 12, "{p} P-positions");
    assert!(
        negative >= 5 && positive >= 2,
        "{negative} < 0, {positive} > 0"
    );
    for (h, v) in [
        (&[1][..], -1),
        (&[1, 3, 3], -1),
        (&[1, 2, 4], 1),
        (&[2, 4, 5], 3),
        (&[3, 4, 8, 14], 19),
        (&[30], -30),
    ] {
        assert_eq!(brute.value(h), v, "{h:?}");
        assert_eq!(cli_value(h).1, v, "{h:?}");
    }
}

#[test]
fn optimal_line_of_31_42_53_is_legal_and_optimal() {
    let mut brute = Brute::default();
    assert_eq!(brute.value(&[31, 42, 53]), 96);
    check_line(&[31, 42, 53], 111, 15, &mut brute);
}

// ---------------------------------------------------------------------------------------------
// 5. Snapshots (each value was checked against the paper and the notes before it was accepted)

/// Snapshots the stdout of a command line; the snapshot's description is the command.
fn assert_cli_snapshot(name: &str, line: &str) {
    let out = run_ok(&words(line));
    insta::with_settings!({ description => format!("nimlab {line}"), omit_expression => true }, {
        insta::assert_snapshot!(name, out);
    });
}

#[test]
fn snapshot_value_31_42_53() {
    assert_cli_snapshot("value_31_42_53", "candy value 31 42 53");
}

#[test]
fn snapshot_strategy_fractal_7_16_23() {
    assert_cli_snapshot("strategy_fractal_7_16_23", "candy strategy fractal 7 16 23");
}

#[test]
fn snapshot_standard_k1_4_m1_2() {
    assert_cli_snapshot("standard_k1_4_m1_2", "candy standard --k 1..4 --m 1..2");
}

#[test]
fn snapshot_allocate_12_csv() {
    assert_cli_snapshot(
        "allocate_max_12_csv",
        "candy allocate --max-candies 12 --format csv",
    );
}

// ---------------------------------------------------------------------------------------------
// 6. -o FILE is atomic

#[test]
fn output_file_is_atomic() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let failing = [
        "candy table --heaps 3 --max-heap 600 --memory-limit 1M --format csv",
        "candy value 1 x 3",
        "candy allocate --max-candies 1000",
        "candy strategy flip-flop 5 6 3",
    ];
    assert_failed_runs_leave_no_output_file(dir.path(), &failing);

    // A successful run replaces the old file with exactly what stdout would have shown.
    let line = "candy table --heaps 3 --max-heap 8 --format csv";
    let stdout = run_ok(&words(line));
    assert_output_file_holds(dir.path(), line, &stdout, "");
}

/// Issue 14: huge heaps and ranges are refused at once with the estimate, equal heaps of any size
/// are answered in closed form, and nothing panics or aborts.
mod huge_values {
    use super::*;
    use nimlab::candy::{MemoValues, allocation, plain_value};
    use proptest::prelude::*;
    use std::time::{Duration, Instant};

    #[test]
    fn ranges_are_costed_before_any_list_is_built() {
        refused_quickly("candy frak --a 1..100000000 --m 1", &["would need", "TiB"]);
        refused_quickly(
            "candy frak --a 31 --m 1..4294967296",
            &["--m", "4294967296"],
        );
        refused_quickly("candy frak --a 31 --m 1..4294967295", &["4294967295"]);
        refused_quickly("candy standard --k 1..31 --m 1..100000000", &["100000000"]);
        refused_quickly("candy standard --k 1..20 --m 1..4000", &["would need"]);
        refused_quickly(
            "mine family candy 31,32m,32m+31 --m 2..1000000 --memory-limit 2G",
            &["would need", "32000000"],
        );
    }

    #[test]
    fn a_quintillion_heaps_is_refused_not_allocated() {
        refused_quickly(
            "candy table --heaps 9223372036854775807 --max-heap 4",
            &["9223372036854775807", "--heaps", "0 to 10000"],
        );
        refused_quickly("candy table --heaps 3 --max-heap 0", &["--max-heap 0"]);
        refused_quickly("candy table --heaps 40 --max-heap 1", &["40 heaps"]);
    }

    #[test]
    fn allocation_is_costed_against_the_memory_limit() {
        let e = run_input_error(
            &words("candy allocate --candies 100 --memory-limit 256M"),
            &["--candies 100", "would need"],
        );
        // The suggestion is an even N that fits.
        let n: u32 = e
            .split("use --candies ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|t| t.parse().ok())
            .expect("a suggested N");
        assert!(n.is_multiple_of(2) && n < 100, "{e}");
        refused_quickly("candy allocate --max-candies 60 --memory-limit 1M", &["60"]);
        // The progress bar counts positions: the allocation itself is unchanged.
        let mut memo = MemoValues::new();
        let a = allocation(16, &mut memo).unwrap();
        let t = Csv::run("candy allocate --candies 16 --format csv");
        assert_eq!(t.records()[0]["min_nw"], a.min_nw.to_string());
    }

    #[test]
    fn two_equal_heaps_are_instant_at_any_size() {
        for h in ["4294967295", "2147483648", "65536"] {
            let start = Instant::now();
            let t = Csv::run(&format!("candy value {h} {h} --format csv"));
            assert!(start.elapsed() < Duration::from_secs(5));
            // Luca takes a heap, Windsor mirrors: V = 0, two plies.
            assert_eq!(t.rows.len(), 2);
            assert_eq!(t.records()[0]["taken"], h);
        }
        // The shortcut agrees with plain minimax where that can run.
        for h in 1..=6u32 {
            assert_eq!(plain_value(&[h, h]).v, 0);
            let t = Csv::run(&format!("candy value {h} 0 {h} --format csv"));
            assert_eq!(t.records()[0]["player"], "Luca");
            assert_eq!(t.records()[0]["heap"], "1");
            assert_eq!(t.records()[0]["taken"], h.to_string());
        }
    }

    #[test]
    fn frak_and_standard_stream_the_same_rows_as_before() {
        // Checked against the reference solver (plain minimax), not against stored numbers.
        let t = Csv::run("candy frak --a 4..7 --m 1..2 --x 0..3 --format csv");
        assert_eq!(t.rows.len(), 4 * 2 * 4);
        for r in t.records() {
            let heaps: Vec<u32> = ["h1", "h2", "h3"]
                .iter()
                .map(|c| r[c].parse().unwrap())
                .collect();
            assert_eq!(r["v"], plain_value(&heaps).v.to_string(), "{heaps:?}");
        }
        let t = Csv::run("candy standard --k 1..3 --m 1..2 --format csv");
        assert_eq!(t.rows.len(), 6);
        for r in t.records() {
            let heaps: Vec<u32> = ["h1", "h2", "h3"]
                .iter()
                .map(|c| r[c].parse().unwrap())
                .collect();
            assert_eq!(r["v"], plain_value(&heaps).v.to_string(), "{heaps:?}");
        }
    }

    fn near_powers() -> impl Strategy<Value = i128> {
        (prop::sample::select(vec![31u32, 32, 63, 64]), -3i128..=3)
            .prop_map(|(e, d)| (1i128 << e) + d)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        #[test]
        fn huge_options_exit_cleanly(v in near_powers()) {
            for line in [
                format!("candy value 1 {v} {v}"),
                format!("candy value {v} {v}"),
                format!("candy table --heaps {v} --max-heap 3"),
                format!("candy table --heaps 3 --max-heap {v}"),
                format!("candy frak --a {v} --m 1"),
                format!("candy frak --a 5 --m 1..{v}"),
                format!("candy standard --k 2 --m {v}"),
                format!("candy allocate --candies {v}"),
                format!("candy family 7,8m,8m+7 --m {v}"),
            ] {
                exits_cleanly_and_quickly(&line).map_err(TestCaseError::fail)?;
            }
        }
    }
}
