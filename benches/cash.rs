//! Benchmarks of NIM with Cash (the figures in issue 5's closing note).
//!
//! `cargo bench --bench cash`: median wall times of f^I, f^II for n ≤ 10^7 (Def 2.1/2.3), and of
//! the whole win table (thresholds T(n, d)) for A = {3,5,6,10,11} with n, d, e ≤ 300, 1000, 3000.

use std::time::{Duration, Instant};

use nimlab::games::cash::{CashSet, CashTable, thresholds};

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
        .unwrap_or(5);
    let a: CashSet = "3,5,6,10,11".parse().unwrap();
    for set in ["3,5,6,10,11", "1,4"] {
        let s: CashSet = set.parse().unwrap();
        let (t, last) = time(repeats, || {
            let th = thresholds(&s, 10_000_000).unwrap();
            (th.f1[10_000_000], th.f2[10_000_000])
        });
        println!(
            "f^I, f^II for A = {s}, n ≤ 10^7: median {:.3} s (f(10^7) = {last:?})",
            t.as_secs_f64()
        );
    }
    for n in [300u64, 1000, 3000] {
        let (t, never) = time(repeats, || {
            let table = CashTable::solve(&a, n, 4 << 30).unwrap();
            table.threshold(n, n).unwrap()
        });
        println!(
            "win table A = {a}, n, d, e ≤ {n}: median {:.3} s, {} MiB (T({n}, {n}) = {never})",
            t.as_secs_f64(),
            ((n + 1) * (n + 2) / 2 * 4) >> 20
        );
    }
}
