//! Benchmarks of streamed tabular output (issue 18): rows encoded straight from machine
//! integers on every core and written as they come, into `io::sink()` so that only the
//! encoding and the writer are timed.
//!
//! `cargo bench --bench streaming`: median wall times of
//! - the Scoring Nim table of 3 heaps ≤ 32 on the bonus grid −100..100 (1.2 M rows, CSV and
//!   text), the solve timed apart;
//! - the whole win table of NIM with Cash for A = {3,5,6,10,11}, n, d, e ≤ 150 (3.4 M rows, CSV);
//! - the survey of every subtraction set inside 1..14 (16 383 sets) streamed a batch at a time.
//!
//! The full-size workloads (`scoring table --heaps 3 --max-heap 64 --bonus=-200..200`, `cash
//! table --max-n 300`, `octal survey --subtract-subsets-of 1..20`) are measured on the release
//! binary with `/usr/bin/time -v`.

mod common;

use std::io;

use common::{repeats, time};
use nimlab::cash::{CashSet, CashTable, STATE_COLUMNS, encode_state_rows, state_row_groups};
use nimlab::scoring::{
    Limits, Method, SURVEY_CHUNK, encode_table_rows, scoring_nim, solve_table, survey_in_chunks,
};
use nimlab::{Cell, Format, IntRange, Q, QRange, Silent, TableWriter, write_rows_parallel};

fn main() {
    let repeats = repeats(3);
    let (solve, table) = time(repeats, || {
        solve_table(
            &scoring_nim(),
            3,
            32,
            Method::Auto,
            &Limits::default(),
            &Silent,
        )
        .unwrap()
    });
    println!(
        "scoring table 3 heaps ≤ 32: solve median {:.3} s",
        solve.as_secs_f64()
    );
    let grid = QRange::new(Q::int(-100), Q::int(100), Q::one()).unwrap();
    let columns: Vec<String> = ["h1", "h2", "h3", "bonus", "payoff"]
        .map(String::from)
        .to_vec();
    for format in [Format::Csv, Format::Text] {
        let (t, rows) = time(repeats, || {
            let mut sink = io::sink();
            let mut writer = TableWriter::new(format, &columns, &mut sink).unwrap();
            let positions = table.positions_iter().filter(|p| p.iter().all(|&h| h > 0));
            write_rows_parallel(&mut writer, positions, 160, |p, out| {
                encode_table_rows(&table, p, Some(&grid), out)
            })
            .unwrap();
            let rows = writer.rows();
            writer.finish().unwrap();
            rows
        });
        println!(
            "scoring table 3 heaps ≤ 32, bonus −100..100, {}: {rows} rows, median {:.3} s",
            format.name(),
            t.as_secs_f64()
        );
    }

    let a: CashSet = "3,5,6,10,11".parse().unwrap();
    let cash = CashTable::solve(&a, 150, 1 << 30).unwrap();
    let columns: Vec<String> = STATE_COLUMNS.map(String::from).to_vec();
    let (t, rows) = time(repeats, || {
        let mut sink = io::sink();
        let mut writer = TableWriter::new(Format::Csv, &columns, &mut sink).unwrap();
        write_rows_parallel(&mut writer, state_row_groups(&cash), 434, |&(n, d), out| {
            encode_state_rows(&cash, n, d, out)
        })
        .unwrap();
        let rows = writer.rows();
        writer.finish().unwrap();
        rows
    });
    println!(
        "cash table A = {a}, n, d, e ≤ 150, csv: {rows} rows, median {:.3} s",
        t.as_secs_f64()
    );

    let columns: Vec<String> = ["set", "period"].map(String::from).to_vec();
    let (t, rows) = time(repeats, || {
        let mut sink = io::sink();
        let mut writer = TableWriter::new(Format::Csv, &columns, &mut sink).unwrap();
        let range = IntRange::new(1, 14).unwrap();
        survey_in_chunks(range, 100_000, SURVEY_CHUNK, &Silent, |rows| {
            let mut out = writer.encoder();
            for row in &rows {
                out.cell(&Cell::list("{", ",", "}", row.set.iter().copied()));
                out.int(
                    row.report
                        .periodicity
                        .as_ref()
                        .map_or(0, |p| p.period as i64),
                );
                out.end_row();
            }
            writer.write(out).expect("a sink never fails");
            Ok(())
        })
        .unwrap();
        let rows = writer.rows();
        writer.finish().unwrap();
        rows
    });
    println!(
        "octal survey of the subsets of 1..14, streamed: {rows} sets, median {:.3} s",
        t.as_secs_f64()
    );
}
