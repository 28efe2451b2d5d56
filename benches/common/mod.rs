//! Timing helpers shared by the benchmarks (`benches/*.rs`, each built as its own crate with
//! `mod common;`).
//!
//! Not every benchmark calls every helper, and what one of them leaves out would be reported
//! as dead code there; hence the allow below.

#![allow(dead_code)]

use std::time::{Duration, Instant};

/// How many times to repeat each measurement: `NIMLAB_BENCH_REPEATS` if set to a number,
/// else `default`.
pub fn repeats(default: usize) -> usize {
    std::env::var("NIMLAB_BENCH_REPEATS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(default)
}

/// The median of some wall times (the upper one of the middle two for an even count).
pub fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

/// Runs `f` `repeats` times; returns the median wall time and the last result.
pub fn time<T>(repeats: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut out = None;
    for _ in 0..repeats {
        let start = Instant::now();
        out = Some(f());
        times.push(start.elapsed());
    }
    (median(times), out.expect("at least one repeat"))
}
