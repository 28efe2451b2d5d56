//! `nimlab prove`: closed forms over a closure of positions proven for every parameter.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::claims::induction::{Outcome, Refuting, Solver, System, deciders, write_certificate};

const EXAMPLES: &str = "\
Examples:
  nimlab prove data/proofs/scoring-nim-two-piles.toml            PROVEN, or where the forms fail
  nimlab prove data/proofs/scoring-nim-third-pile-at-most-1.toml --certificate cert/
  nimlab prove my-forms.toml --solver cvc5 --solver-only           every obligation by the other solver
  nimlab mine replay cert/                                        re-pose from the forms, cvc5 answers
  for f in cert/*.smt2; do z3 \"$f\"; done                          every file must say unsat

The forms file format is in data/proofs/README.md. The solvers are Debian packages (z3, cvc5).
Exit status: 0 when PROVEN, 1 when refuted or undecided, 2 on errors in the file.";

/// Prove closed forms of a game's values for every parameter and every bonus N, by induction
/// on the number of stones, each step an SMT query (z3 or cvc5).
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ProveArgs {
    /// The forms file (TOML).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The SMT solver to run.
    #[arg(long, value_enum, default_value_t = SolverArg::Z3)]
    solver: SolverArg,
    /// The time limit of one obligation, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::claims::induction::SECONDS_PER_OBLIGATION,
          value_parser = super::args::ranged(1u32, 86_400))]
    timeout: u32,
    /// Write every obligation as DIR/<name>.smt2 (each must answer unsat) and the manifest
    /// DIR/certificate.json, which `nimlab mine replay DIR` replays.
    #[arg(long, value_name = "DIR")]
    certificate: Option<PathBuf>,
    /// Hand every obligation to the solver; by default nimlab first refutes what it can
    /// itself (Fourier–Motzkin elimination with case splits) and the solver decides the rest.
    #[arg(long)]
    solver_only: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SolverArg {
    Z3,
    Cvc5,
}

/// Runs `nimlab prove`; returns whether the forms are proven.
pub fn run(a: ProveArgs) -> anyhow::Result<bool> {
    let system = System::load(&a.file)?;
    let solver = match a.solver {
        SolverArg::Z3 => Solver::Z3,
        SolverArg::Cvc5 => Solver::Cvc5,
    };
    eprintln!(
        "proving the forms of {} classes with {}",
        system.classes.len(),
        solver.program()
    );
    let started = std::time::Instant::now();
    let refuting = if a.solver_only {
        Refuting::SolverOnly
    } else {
        Refuting::InProcessFirst
    };
    let (outcome, obligations, posing) = system.prove(solver, refuting, a.timeout)?;
    eprintln!(
        "{} obligations posed in {:.1} s",
        obligations.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(dir) = &a.certificate {
        write_certificate(&system, solver, &obligations, &posing, dir)?;
    }
    match &outcome {
        Outcome::Proven {
            obligations,
            in_process,
        } => {
            println!(
                "PROVEN: {} ({obligations} obligations unsatisfiable; answered by {})",
                system.title,
                deciders(solver, *obligations, *in_process)
            );
        }
        Outcome::Refuted {
            obligation,
            about,
            values,
            confirmed,
        } => {
            let shown: Vec<String> = values.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            println!(
                "REFUTED: {obligation}: {about} fails at {}",
                shown.join(", ")
            );
            if let Some(d) = confirmed {
                let piles: Vec<String> = d.position.iter().map(i64::to_string).collect();
                let piles = piles.join(",");
                match &d.bonus {
                    Some(bonus) => println!(
                        "confirmed by the exact engine: the form of class {} gives {} at ({piles}) \
                         with N = {bonus}, but f_N({piles}) = {}",
                        d.class, d.form, d.exact
                    ),
                    None => println!(
                        "confirmed by the exact engine: the form of class {} gives {} at \
                         [{piles}], but V([{piles}]) = {}",
                        d.class, d.form, d.exact
                    ),
                }
            }
        }
        Outcome::Unknown { obligation, why } => {
            println!("UNKNOWN: {obligation}: {why}");
        }
    }
    Ok(matches!(outcome, Outcome::Proven { .. }))
}
