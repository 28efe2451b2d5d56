//! Benchmarks of NIM with Cash (the figures in issue 5's closing note).
//!
//! `cargo bench --bench cash`: median wall times of f^I, f^II for n ≤ 10^7 (Def 2.1/2.3), and of
//! the whole win table (thresholds T(n, d)) for A = {3,5,6,10,11} with n, d, e ≤ 300, 1000, 3000,
//! of finding and proving the win condition on A-critical states (`nimlab cash condition`), and
//! of one A-critical state at n = 10^18 decided by it.

mod common;

use common::{repeats, time};
use nimlab::cash::{CashSet, CashTable, WinCondition, thresholds};
use num_bigint::BigUint;

fn main() {
    let repeats = repeats(5);
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
    for set in ["1,4", "4,7,9", "5,6", "4,9,10,12"] {
        let s: CashSet = set.parse().unwrap();
        let (t, wc) = time(repeats, || WinCondition::find(&s, 100, 4 << 30).unwrap());
        println!(
            "win condition A = {s}: median {:.3} s (PROVEN for n ≥ {}, step window {} ≤ n < {})",
            t.as_secs_f64(),
            wc.proof.from,
            wc.proof.step_from,
            wc.proof.step_from + wc.proof.window
        );
    }
    let s: CashSet = "1,4".parse().unwrap();
    let wc = WinCondition::find(&s, 100, 4 << 30).unwrap();
    let n: BigUint = "1000000000000000000".parse().unwrap();
    let d: BigUint = "799999999999999990".parse().unwrap();
    let (t, w) = time(repeats, || {
        (0..1000u32)
            .filter_map(|j| wc.critical_winner(&n, &d, &(&d + j % 9)))
            .count()
    });
    println!(
        "1000 A-critical states of A = {{1,4}} at n = 10^18: median {:.6} s ({w} decided)",
        t.as_secs_f64()
    );
}
