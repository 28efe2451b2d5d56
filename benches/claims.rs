//! Benchmarks of the claims checker and the reports (the figures in issues 7 and 8's notes).
//!
//! `cargo bench --bench claims`: median wall time of the default check of each registry in
//! `data/claims/` and of all four, and of rendering every report in memory.

mod common;

use std::path::Path;

use common::{repeats, time};
use nimlab::Silent;
use nimlab::{Registry, VerdictKind, check_registry};
use nimlab::{ReportOptions, render_reports};

fn main() {
    let repeats = repeats(3);
    let names = ["scoring-nim", "scoring-octal", "candy-nim", "nim-with-cash"];
    let registries: Vec<Registry> = names
        .iter()
        .map(|n| Registry::load(Path::new(&format!("data/claims/{n}.toml"))).unwrap())
        .collect();
    let check = |reg: &Registry| check_registry(reg, false, &[], &Silent).unwrap();
    for reg in &registries {
        let (t, v) = time(repeats, || check(reg));
        let fails = v.iter().filter(|v| v.verdict == VerdictKind::Fails).count();
        println!(
            "check {:<14} {:>3} claims ({fails} FAIL): median {:.2} s",
            reg.paper,
            v.len(),
            t.as_secs_f64()
        );
    }
    let (t, n) = time(repeats, || {
        registries.iter().map(|r| check(r).len()).sum::<usize>()
    });
    println!(
        "check all four     {n:>3} claims: median {:.2} s",
        t.as_secs_f64()
    );
    let papers = nimlab::paper_reports(std::path::Path::new("data/studies")).unwrap();
    let (t, files) = time(repeats, || {
        render_reports(&papers, &ReportOptions::default(), &Silent)
            .unwrap()
            .len()
    });
    println!(
        "report (all four, in memory, {files} files): median {:.2} s",
        t.as_secs_f64()
    );
}
