//! Benchmark of the Scoring Nim table solver (the figures in issue 2's closing note).
//!
//! `cargo bench --bench scoring [-- K:H ...]` solves every K-heap position with heaps ≤ H
//! several times and prints the median wall time of the solve and of formatting every payoff
//! (what `nimlab scoring table --format csv` spends its time on), plus the inner-loop work: cell
//! updates = Σ over positions of (moves × grid cells of the result), a lower bound on the
//! max-and-subtract steps of the grid recursion, so updates per second says how close the inner
//! loop runs to the machine's few-billion-simple-operations-per-second-per-core.

mod common;

use std::time::Instant;

use common::{median, repeats};
use nimlab::Silent;
use nimlab::scoring::{Limits, Method, Payoffs, scoring_nim, solve_table};

const DEFAULT_RUNS: &[(usize, u32)] = &[
    (3, 16),
    (3, 32),
    (3, 64),
    (3, 128),
    (4, 8),
    (4, 16),
    (4, 24),
    (4, 32),
];

fn main() {
    let args: Vec<(usize, u32)> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .filter_map(|a| {
            let (k, h) = a.split_once(':')?;
            Some((k.parse().ok()?, h.parse().ok()?))
        })
        .collect();
    let runs = if args.is_empty() {
        DEFAULT_RUNS.to_vec()
    } else {
        args
    };
    let repeats = repeats(5);
    let game = scoring_nim();
    let limits = Limits::default();
    println!(
        "{:>2} {:>4} {:>10} {:>10} {:>10} {:>14} {:>12}",
        "k", "H", "positions", "solve_s", "format_s", "cell_updates", "updates/s"
    );
    for (k, h) in runs {
        let mut solve_times = Vec::new();
        let mut format_times = Vec::new();
        let mut table = None;
        for _ in 0..repeats {
            let start = Instant::now();
            let t = solve_table(&game, k, h, Method::Auto, &limits, &Silent)
                .expect("benchmark tables fit");
            solve_times.push(start.elapsed());
            let start = Instant::now();
            let bytes: usize = t
                .positions()
                .iter()
                .map(|p| t.summary(p).expect("in table").text.len())
                .sum();
            format_times.push(start.elapsed());
            std::hint::black_box(bytes);
            table = Some(t);
        }
        let t = table.expect("at least one repeat");
        let positions = t.positions();
        let updates: u64 = match t.payoffs() {
            Payoffs::Grid { fns, .. } => positions
                .iter()
                .map(|p| {
                    let mut distinct = p.clone();
                    distinct.dedup();
                    let moves: u64 = distinct.iter().map(|&a| u64::from(a)).sum();
                    let g = &fns[t.index(p).expect("in table")];
                    moves * (g.hi() - g.lo() + 1) as u64
                })
                .sum(),
            Payoffs::Exact(_) => 0,
        };
        let solve = median(solve_times);
        println!(
            "{k:>2} {h:>4} {:>10} {:>10.3} {:>10.3} {updates:>14} {:>12.3e}",
            positions.len(),
            solve.as_secs_f64(),
            median(format_times).as_secs_f64(),
            updates as f64 / solve.as_secs_f64()
        );
    }
}
