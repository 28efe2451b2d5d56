//! Benchmarks of the Candy Nim solvers (the figures in issue 4's closing note and issue 18).
//!
//! `cargo bench --bench candy`: median wall times of
//! - the exact box of 3-heap P-positions with heaps ≤ H (what `candy table --heaps 3` solves),
//!   parallel layers, for H = 1024, 2048 (and 3072, which no longer costs as much as 4096);
//! - the table bounded by the two smaller heaps (x, y ≤ H) for H ≤ 1024, the previous path;
//! - V([31, 32m, 32m + 31]) for every m ≤ 256 (one table covers the whole family);
//! - V([1, 2, 4, 8, 16, 42, 53]) on the dense table;
//! - the allocation problem for every even N ≤ 56 and ≤ 64, layered on packed codes, next to
//!   the recursive memo (`allocation` on a shared `MemoValues`) up to 48.

mod common;

use common::{repeats, time};
use nimlab::Silent;
use nimlab::candy::{
    CandyTable, MemoValues, PValues, ThreeHeapBox, ThreeHeapTable, allocation, allocations,
    value_with,
};

fn main() {
    let repeats = repeats(3);
    const MEM: u64 = 4 << 30;
    for h in [1024u32, 2048, 3072] {
        let (t, v) = time(repeats, || {
            let table = ThreeHeapBox::solve(h, MEM).unwrap();
            table.p_value(&[h / 3, h - 1, (h / 3) ^ (h - 1)])
        });
        println!(
            "3-heap box, heaps ≤ {h:>5}: V = {v:?} at the corner, median {:>8.3} s",
            t.as_secs_f64()
        );
    }
    for h in [256u32, 512, 1024] {
        let (t, count) = time(repeats, || {
            let table = ThreeHeapTable::solve(h, h, MEM).unwrap();
            table.positions(h).count()
        });
        println!(
            "3-heap P-positions with x, y ≤ {h:>5}: {count:>7} positions, median {:>8.3} s",
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
    for n in [48u32, 56, 64] {
        let evens: Vec<u32> = (2..=n).step_by(2).collect();
        let (t, min_nw) = time(repeats, || {
            allocations(&evens, &Silent).unwrap().last().unwrap().min_nw
        });
        println!(
            "allocation, every even N ≤ {n}, layered: min N_W({n}) = {min_nw}, median {:>8.3} s",
            t.as_secs_f64()
        );
    }
    let (t, min_nw) = time(repeats, || {
        let mut memo = MemoValues::new();
        let rows: Vec<_> = (2..=48)
            .step_by(2)
            .map(|n| allocation(n, &mut memo).unwrap())
            .collect();
        rows.last().unwrap().min_nw
    });
    println!(
        "allocation, every even N ≤ 48, recursive memo: min N_W(48) = {min_nw}, median {:>8.3} s",
        t.as_secs_f64()
    );
}
