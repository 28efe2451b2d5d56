//! Benchmarks of the scoring octal engine (the figures in issue 3's closing note).
//!
//! `cargo bench --bench octal [-- survey:A..B] [-- breaking:CODE:N ...]`:
//! - `survey:1..16` proves the least period of every subtraction set inside 1..16 (65 535 sets)
//!   and reports the median wall time over repeats;
//! - `breaking:0.24:84` computes G_s(n) for every single heap n ≤ 84 of the taking-and-breaking
//!   code 0.24 (p_i = i), which needs every multi-heap position with at most 84 beans;
//! - `grundy:0.6:200000` computes the normal-play Grundy values of heaps ≤ 200 000 of the octal
//!   code 0.6 (Officers). Those values are memoised for the life of the process, so each repeat
//!   runs in a fresh child process (this bench binary again, with `child:` before the job).
//!   `grundy:0.4:100000` is a code whose values stay below 16, so no heap's scan stops early:
//!   the values are marked as the bits of a word.

mod common;

use common::{repeats, time};
use nimlab::Q;
use nimlab::scoring::{HeapSequence, Limits, OctalRules, ScoringGame, grundy_values};
use rayon::prelude::*;

fn survey(lo: u32, hi: u32) -> (usize, usize) {
    let width = hi - lo + 1;
    let limits = Limits::default();
    let proven: Vec<bool> = (1u32..1 << width)
        .into_par_iter()
        .map(|mask| {
            let set: Vec<u32> = (0..width)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| lo + b)
                .collect();
            let game = ScoringGame::single(OctalRules::subtraction(&set, None).unwrap());
            let seq = HeapSequence::new(&game, 0, &[], Q::zero()).unwrap();
            seq.period(100_000, &limits)
                .unwrap()
                .periodicity
                .is_some_and(|p| p.is_proven())
        })
        .collect();
    (proven.len(), proven.iter().filter(|&&p| p).count())
}

fn breaking(code: &str, n: u32) -> Q {
    let game = ScoringGame::single(code.parse::<OctalRules>().unwrap());
    let seq = HeapSequence::new(&game, 0, &[], Q::zero()).unwrap();
    let values = seq.values(n, &Limits::default()).unwrap();
    values[n as usize].clone()
}

/// The Grundy values of heaps ≤ n under `code`, as a summary: the value of heap n and the largest.
fn grundy(code: &str, n: u32) -> String {
    let game = ScoringGame::single(code.parse::<OctalRules>().unwrap());
    let g = grundy_values(&game, 0, n).unwrap();
    format!(
        "g({n}) = {}, largest {}",
        g[n as usize],
        g.iter().max().unwrap()
    )
}

/// Runs `job` in a fresh child process (see the module doc) and returns what it printed.
fn in_child(job: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .arg(format!("child:{job}"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{job}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn main() {
    if let Some(job) = std::env::args().find_map(|a| a.strip_prefix("child:").map(String::from)) {
        let ["grundy", code, n] = job.split(':').collect::<Vec<_>>()[..] else {
            panic!("unknown child job {job}");
        };
        println!("{}", grundy(code, n.parse().unwrap()));
        return;
    }
    let mut jobs: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if jobs.is_empty() {
        jobs = [
            "survey:1..12",
            "survey:1..16",
            "breaking:0.24:60",
            "breaking:0.24:70",
            "breaking:0.24:84",
            "grundy:0.6:200000",
            "grundy:0.74:100000",
            "grundy:0.04:100000",
            "grundy:0.4:100000",
        ]
        .map(String::from)
        .to_vec();
    }
    let repeats = repeats(3);
    for job in jobs {
        let (t, result) = time(repeats, || match job.split(':').collect::<Vec<_>>()[..] {
            ["survey", range] => {
                let (lo, hi) = range.split_once("..").expect("survey:A..B");
                let (sets, proven) = survey(lo.parse().unwrap(), hi.parse().unwrap());
                format!("{sets} sets, {proven} proven")
            }
            ["breaking", code, n] => {
                format!("G_s({n}) = {}", breaking(code, n.parse().unwrap()))
            }
            ["grundy", ..] => in_child(&job),
            _ => panic!("unknown job {job}: use survey:A..B, breaking:CODE:N or grundy:CODE:N"),
        });
        println!(
            "{job:<20} median {:>8.3} s over {repeats}  ({result})",
            t.as_secs_f64()
        );
    }
}
