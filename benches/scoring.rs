//! Benchmark of the Scoring Nim table solver (issue 2's closing note, issue 18's targets).
//!
//! `cargo bench --bench scoring [-- K:H ...]` solves every K-heap position with heaps ≤ H
//! several times and prints the median wall time of the solve and of writing the table as
//! `nimlab scoring table --format csv` writes it (every row encoded on every core, the payoff
//! text straight from the grid), into `io::sink()` so that no disk is timed, the grid
//! cells of all payoffs (Σ window lengths: the size of the work of one pass over the table), the
//! bytes the payoffs hold, and `table_bytes`' estimate of the whole solve, which must stay above
//! what is held. Tables of Nim take the running-minimum recursion (one envelope step per heap
//! and position), so the solve grows as H⁴ for three heaps; the whole command at larger sizes
//! is measured with the release binary (README, performance).

mod common;

use std::time::Instant;

use common::{median, repeats};
use nimlab::scoring::{
    GridFn, HeapTable, Limits, Method, PWL_COLUMNS, Payoffs, encode_table_rows, scoring_nim,
    solve_table, table_bytes,
};
use nimlab::{Format, Silent, TableWriter, write_rows_parallel};

const DEFAULT_RUNS: &[(usize, u32)] = &[
    (3, 16),
    (3, 64),
    (3, 128),
    (3, 256),
    (4, 16),
    (4, 32),
    (4, 64),
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
    let repeats = repeats(3);
    let game = scoring_nim();
    let limits = Limits::default();
    println!(
        "{:>2} {:>4} {:>10} {:>10} {:>10} {:>14} {:>12} {:>12}",
        "k", "H", "positions", "solve_s", "csv_s", "grid_cells", "held_MB", "estimate_MB"
    );
    for (k, h) in runs {
        let mut solve_times = Vec::new();
        let mut format_times = Vec::new();
        let mut table = None;
        for _ in 0..repeats {
            // The previous table is dropped first, so two never coexist.
            drop(table.take());
            let start = Instant::now();
            let t = solve_table(&game, k, h, Method::Auto, &limits, &Silent)
                .expect("benchmark tables fit");
            solve_times.push(start.elapsed());
            let start = Instant::now();
            let bytes = write_csv(&t);
            format_times.push(start.elapsed());
            std::hint::black_box(bytes);
            table = Some(t);
        }
        let t = table.expect("at least one repeat");
        let (cells, held) = match t.payoffs() {
            Payoffs::Grid { fns, .. } => fns.iter().fold((0u64, 0usize), |(c, b), g| {
                (
                    c + (g.hi() - g.lo() + 1) as u64,
                    b + std::mem::size_of::<GridFn>() + g.heap_bytes(),
                )
            }),
            Payoffs::Exact(_) => (0, 0),
        };
        let estimate = table_bytes(&game, k, h).expect("fits");
        let positions = t.positions_iter().count();
        println!(
            "{k:>2} {h:>4} {positions:>10} {:>10.3} {:>10.3} {cells:>14} {:>12.1} {:>12.1}",
            median(solve_times).as_secs_f64(),
            median(format_times).as_secs_f64(),
            held as f64 / 1e6,
            estimate as f64 / 1e6,
        );
    }
}

/// Writes the table as `nimlab scoring table --format csv` does, into a sink; returns the rows.
fn write_csv(table: &HeapTable) -> u64 {
    let k = table.heaps();
    let mut columns: Vec<String> = (1..=k).map(|i| format!("h{i}")).collect();
    columns.extend(PWL_COLUMNS.iter().map(|c| c.to_string()));
    let mut sink = std::io::sink();
    let mut writer = TableWriter::new(Format::Csv, &columns, &mut sink).expect("a sink");
    let positions = table.positions_iter().filter(|p| p.iter().all(|&h| h > 0));
    // The command's chunk of positions (`ROW_CHUNK` in `src/cli/scoring.rs`).
    write_rows_parallel(&mut writer, positions, 65536, |p, out| {
        encode_table_rows(table, p, None, out)
    })
    .expect("a sink never fails");
    let rows = writer.rows();
    writer.finish().expect("a sink never fails");
    rows
}
