//! `nimlab prove`: closed forms over a closure of positions proven for every parameter, or one
//! claim of a claim file proven from them (or from its file's definitions).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::claims::Registry;
use crate::claims::induction::{
    Outcome, ProvableClaim, Refuting, Solver, System, deciders, prove_claim_alone,
    write_certificate, write_claim_certificate,
};

const EXAMPLES: &str = "\
Examples:
  nimlab prove data/proofs/scoring-nim-two-piles.toml            PROVEN, or where the forms fail
  nimlab prove data/proofs/scoring-nim-third-pile-at-most-1.toml --certificate cert/
  nimlab prove my-forms.toml --solver cvc5 --solver-only           every obligation by the other solver
  nimlab mine replay cert/                                        re-pose from the forms, cvc5 answers
  for f in cert/*.smt2; do z3 \"$f\"; done                          every file must say unsat
  nimlab prove data/claims/scoring-nim.toml --claim thm-6.3-i --certificate cert/
                                      a claim: its forms file's proof and the step to the claim
  nimlab prove data/claims/scoring-nim.toml --claim def-6.2-zero --solver cvc5 --solver-only

The forms file format is in data/proofs/README.md. The solvers are Debian packages (z3, cvc5).
Exit status: 0 when PROVEN, 1 when refuted or undecided, 2 on errors in the file.";

/// Prove closed forms of a game's values for every parameter and every bonus N, by induction
/// on the number of stones, each step an SMT query (z3 or cvc5); or, with `--claim`, one claim
/// of a claim file from the forms its `proof` table names.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ProveArgs {
    /// The forms file (TOML), or with `--claim` a claim file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Prove the claim of FILE (a claim file) with this id or label, which must have a `proof`
    /// table: its forms file's proof, then the step from the forms to the claim.
    #[arg(long, value_name = "ID")]
    claim: Option<String>,
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

/// Runs `nimlab prove`; returns whether the forms (or the claim) are proven.
pub fn run(a: ProveArgs) -> anyhow::Result<bool> {
    let solver = match a.solver {
        SolverArg::Z3 => Solver::Z3,
        SolverArg::Cvc5 => Solver::Cvc5,
    };
    let refuting = if a.solver_only {
        Refuting::SolverOnly
    } else {
        Refuting::InProcessFirst
    };
    if let Some(id) = &a.claim {
        return prove_one_claim(&a, id, solver, refuting);
    }
    let system = System::load(&a.file)?;
    eprintln!(
        "proving the forms of {} classes with {}",
        system.classes.len(),
        solver.program()
    );
    let started = std::time::Instant::now();
    let (outcome, obligations, posing) = system.prove(solver, refuting, a.timeout)?;
    eprintln!(
        "{} obligations posed in {:.1} s",
        obligations.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(dir) = &a.certificate {
        write_certificate(&system, solver, &obligations, &posing, dir)?;
    }
    print_outcome(&outcome, &system.title, solver);
    Ok(matches!(outcome, Outcome::Proven { .. }))
}

/// `nimlab prove CLAIMS --claim ID`.
fn prove_one_claim(
    a: &ProveArgs,
    id: &str,
    solver: Solver,
    refuting: Refuting,
) -> anyhow::Result<bool> {
    let reg = Registry::load(&a.file)?;
    let claim = ProvableClaim::find(&reg, id)?;
    let proof = claim.proof;
    let basis = match proof.forms_path() {
        Some(forms) => format!(
            "the forms of {}",
            crate::fsio::lexically_normal(forms).display()
        ),
        None => "the claim file's definitions".to_string(),
    };
    eprintln!(
        "proving claim {} ({}) from {basis} with {}",
        claim.claim.id,
        claim.claim.label,
        solver.program()
    );
    let started = std::time::Instant::now();
    let proven = prove_claim_alone(&reg, claim, solver, refuting, a.timeout)?;
    eprintln!(
        "{} obligation{} posed in {:.1} s",
        proven.obligations.len(),
        if proven.obligations.len() == 1 {
            ""
        } else {
            "s"
        },
        started.elapsed().as_secs_f64()
    );
    if let Some(dir) = &a.certificate {
        write_claim_certificate(&reg, claim, &proven, solver, dir)?;
    }
    let domain = claim.domain_words();
    let what = match &proof.lemma {
        Some(_) => format!(
            "{}, through its lemma, for every value with {domain}, from {basis}",
            claim.claim.label
        ),
        None => format!(
            "{} for every value with {domain}, from {basis}",
            claim.claim.label
        ),
    };
    print_outcome(&proven.outcome, &what, solver);
    Ok(matches!(proven.outcome, Outcome::Proven { .. }))
}

/// Prints how a proof of `what` ended: PROVEN with who answered, or the failing obligation with
/// the solver's point (and the exact engine's confirmation), or UNKNOWN with the solver's reason.
fn print_outcome(outcome: &Outcome, what: &str, solver: Solver) {
    match outcome {
        Outcome::Proven {
            obligations,
            in_process,
        } => {
            println!(
                "PROVEN: {what} ({obligations} obligation{} unsatisfiable; answered by {})",
                if *obligations == 1 { "" } else { "s" },
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
}
