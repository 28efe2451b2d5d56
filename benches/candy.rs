//! Benchmarks of the Candy Nim solvers (the figures in issue 4's closing note).
//!
//! `cargo bench --bench candy`: median wall times of
//! - all 3-heap P-positions with heaps ≤ 1024 (and ≤ 256, 512 to show the growth);
//! - V([31, 32m, 32m + 31]) for every m ≤ 256 (one table covers the whole family);
//! - V([1, 2, 4, 8, 16, 42, 53]) on the dense table.

use std::time::{Duration, Instant};

use nimlab::games::candy::{CandyTable, PValues, ThreeHeapTable, value_with};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<T>(repeats: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut out = None;
    for _ in 0..repeats {
        let start = Instant::now();
        out = Some(f());
        times.push(start.elapsed());
    }
    (median(times), out.expect("at least one repeat"))
}

fn main() {
    let repeats: usize = std::env::var("NIMLAB_BENCH_REPEATS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
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
