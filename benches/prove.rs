//! Benchmarks of `nimlab prove` (issues 18 and 20): median wall time of proving each forms file
//! in `data/proofs/` as `nimlab prove` does (nimlab's own refutation first, z3 for the rest),
//! and with each SMT solver alone (`--solver-only`; a solver that is not installed is said and
//! skipped). With a solver alone the third-pile system and Candy Nim's block 32 are slow (about
//! 5 s and 11 s with z3, minutes with cvc5), so the default is one run each;
//! `NIMLAB_BENCH_REPEATS` asks for more. The refutation keeps the answers of its feasibility
//! tests for the life of each thread, so only the first run of a file is cold: repeats measure
//! a proof whose tests are all answered already (fresh processes, as `hyperfine` runs them,
//! give the cold figure).
//!
//! `cargo bench --bench prove`.

mod common;

use std::path::Path;

use common::{repeats, time};
use nimlab::prove::{Outcome, Refuting, SECONDS_PER_OBLIGATION, Solver, System};

fn main() {
    let repeats = repeats(1);
    let files = [
        "data/proofs/scoring-nim-two-piles.toml",
        "data/proofs/scoring-nim-third-pile-at-most-1.toml",
        "data/proofs/candy-nim-block-2.toml",
        "data/proofs/candy-nim-block-32.toml",
    ];
    let ways = [
        (Solver::Z3, Refuting::InProcessFirst, "nimlab + z3"),
        (Solver::Z3, Refuting::SolverOnly, "z3 alone"),
        (Solver::Cvc5, Refuting::SolverOnly, "cvc5 alone"),
    ];
    for (solver, refuting, way) in ways {
        if !solver.available() {
            println!("{}: not installed, skipped", solver.program());
            continue;
        }
        for file in files {
            let system = System::load(Path::new(file)).expect("the forms file loads");
            let (t, (outcome, obligations, _)) = time(repeats, || {
                system
                    .prove(solver, refuting, SECONDS_PER_OBLIGATION)
                    .expect("the solver runs")
            });
            let verdict = match outcome {
                Outcome::Proven { .. } => "PROVEN",
                Outcome::Refuted { .. } => "REFUTED",
                Outcome::Unknown { .. } => "UNKNOWN",
            };
            println!(
                "{way:<11} {:<48} {verdict} ({} obligations, {} classes): median {:.2} s",
                file,
                obligations.len(),
                system.classes.len(),
                t.as_secs_f64()
            );
        }
    }
}
