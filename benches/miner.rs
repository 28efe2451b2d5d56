//! Benchmarks of the miner (the figures in issue 6's closing note).
//!
//! `cargo bench --bench miner`: median wall times of fitting a 10^6-term periodic-linear sequence
//! (f^I of the Appendix's set, and a synthetic one with a long transient and per-residue
//! slopes), and of `nimlab mine cash` for the Appendix's set including its certificate and
//! replay.

mod common;

use common::{repeats, time};
use nimlab::Q;
use nimlab::cash::{CashSet, replay_threshold_certificate, threshold_forms, thresholds};
use nimlab::{FitOptions, fit_periodic_linear};

fn main() {
    let repeats = repeats(5);
    let a: CashSet = "3,5,6,10,11".parse().unwrap();
    let th = thresholds(&a, 999_999).unwrap();
    let f1: Vec<Q> = th.f1.iter().map(|&v| Q::int(v as i64)).collect();
    let (t, fit) = time(repeats, || {
        fit_periodic_linear(&f1, 0, &FitOptions::default()).unwrap()
    });
    println!(
        "fit f^I of A = {a} on 10^6 terms: median {:.3} s (period {}, preperiod {})",
        t.as_secs_f64(),
        fit.period,
        fit.preperiod
    );
    // Period 97, slopes 3 or 5 by residue, a transient of 5000 irregular terms.
    let synthetic: Vec<Q> = (0..1_000_000i64)
        .map(|n| {
            if n < 5000 {
                Q::int((n * n) % 7919)
            } else {
                let (k, i) = (n / 97, n % 97);
                Q::int(if i % 3 == 0 { 5 } else { 3 } * k + i * i % 11)
            }
        })
        .collect();
    let (t, fit) = time(repeats, || {
        fit_periodic_linear(&synthetic, 0, &FitOptions::default()).unwrap()
    });
    println!(
        "fit a synthetic 10^6-term sequence: median {:.3} s (period {}, preperiod {})",
        t.as_secs_f64(),
        fit.period,
        fit.preperiod
    );
    let (t, from) = time(repeats, || {
        let forms = threshold_forms(&a, 2000).unwrap();
        replay_threshold_certificate(&a, &forms.certificate).unwrap();
        forms.certificate.from
    });
    println!(
        "mine cash A = {a} (fit n ≤ 2000, certificate, replay): median {:.3} s (PROVEN from n = {from})",
        t.as_secs_f64()
    );
}
