//! Benchmarks of `nimlab prove` (issue 20): median wall time of proving each forms file in
//! `data/proofs/` with each SMT solver that is installed (z3, cvc5; a missing solver is said
//! and skipped). The third-pile system and Candy Nim's block 32 are slow (about 5 s and 15 s
//! with z3, minutes with cvc5), so the default is one run each; `NIMLAB_BENCH_REPEATS` asks for
//! more.
//!
//! `cargo bench --bench prove`.

mod common;

use std::path::Path;

use common::{repeats, time};
use nimlab::prove::{Outcome, SECONDS_PER_OBLIGATION, Solver, System};

fn main() {
    let repeats = repeats(1);
    let files = [
        "data/proofs/scoring-nim-two-piles.toml",
        "data/proofs/scoring-nim-third-pile-at-most-1.toml",
        "data/proofs/candy-nim-block-2.toml",
        "data/proofs/candy-nim-block-32.toml",
    ];
    for solver in [Solver::Z3, Solver::Cvc5] {
        if !solver.available() {
            println!("{}: not installed, skipped", solver.program());
            continue;
        }
        for file in files {
            let system = System::load(Path::new(file)).expect("the forms file loads");
            let (t, (outcome, obligations, _)) = time(repeats, || {
                system
                    .prove(solver, SECONDS_PER_OBLIGATION)
                    .expect("the solver runs")
            });
            let verdict = match outcome {
                Outcome::Proven { .. } => "PROVEN",
                Outcome::Refuted { .. } => "REFUTED",
                Outcome::Unknown { .. } => "UNKNOWN",
            };
            println!(
                "{:<5} {:<48} {verdict} ({} obligations, {} classes): median {:.1} s",
                solver.program(),
                file,
                obligations.len(),
                system.classes.len(),
                t.as_secs_f64()
            );
        }
    }
}
