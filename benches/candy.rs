//! Benchmarks of the Candy Nim solvers (the figures in issue 4's closing note).
//!
//! `cargo bench --bench candy`: median wall times of
//! - all 3-heap P-positions with heaps ≤ 1024 (and ≤ 256, 512 to show the growth);
//! - V([31, 32m, 32m + 31]) for every m ≤ 256 (one table covers the whole family);
//! - V([1, 2, 4, 8, 16, 42, 53]) on the dense table.

mod common;

use common::{repeats, time};
use nimlab::candy::{CandyTable, PValues, ThreeHeapTable, value_with};

fn main() {
    let repeats = repeats(3);
    const MEM: u64 = 4 << 30;
    for h in [256u32, 512, 1024] {
        let (t, count) = time(repeats, || {
            let table = ThreeHeapTable::solve(h, h, MEM).unwrap();
            table.positions(h).count()
        });
        println!(
            "3-heap P-positions, heaps ≤ {h:>5}: {count:>7} positions, median {:>8.3} s",
            t.as_secs_f64()
        );
    }
    for m_max in [64u32, 128, 256] {
        let (t, last) = time(repeats, || {
            let table = ThreeHeapTable::solve(31, 32 * m_max, MEM).unwrap();
            let values: Vec<i64> = (1..=m_max)
                .map(|m| table.p_value(&[31, 32 * m, 32 * m + 31]).unwrap())
                .collect();
            values[values.len() - 1]
        });
        println!(
            "V([31,32m,32m+31]) for m ≤ {m_max:>3}: V(m = {m_max}) = {last}, median {:>8.3} s",
            t.as_secs_f64()
        );
    }
    let h = [1, 2, 4, 8, 16, 42, 53];
    let (t, v) = time(repeats, || {
        value_with(&CandyTable::solve(&h, MEM).unwrap(), &h)
            .unwrap()
            .v
    });
    println!("V({h:?}) = {v}, median {:>8.3} s", t.as_secs_f64());
}
