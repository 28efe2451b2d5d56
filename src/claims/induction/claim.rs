//! One claim's proof on its own, as `nimlab prove CLAIMS --claim ID` runs it: the forms file
//! the claim's `proof` table names (if any) proven by induction, then the claim's statement
//! proven from them (or from the claim file's definitions alone).
//!
//! `nimlab check` proves the same two parts, but keeps only the verdict. Run on its own, a
//! claim's proof can choose its solver, hand every obligation to it (`--solver-only`), and
//! write its certificate: every obligation of both parts, which `nimlab mine replay` poses
//! again from the claim file and the forms file and hands to a second solver
//! ([`super::replay_certificate`]). The statement's obligations are what turns proven forms
//! into the claim; a certificate of the forms alone would leave that step to trust.

use super::{
    Obligation, Outcome, Posing, Refuting, Solver, System, pose_claim_statement, run_posed,
};
use crate::claims::registry::{Check, Claim, ExprCheck, ProofBasis, ProofRef, Registry};
use crate::error::{Error, Result};

/// A claim with a `proof` table, as its proof needs it.
#[derive(Clone, Copy, Debug)]
pub struct ProvableClaim<'r> {
    /// The claim.
    pub claim: &'r Claim,
    /// Its expression check (the statement and its variables).
    pub check: &'r ExprCheck,
    /// Its `proof` table.
    pub proof: &'r ProofRef,
}

impl<'r> ProvableClaim<'r> {
    /// The claim of `reg` whose id (or label) is `id`; an error naming it when there is none,
    /// or when it has no `proof` table.
    pub fn find(reg: &'r Registry, id: &str) -> Result<ProvableClaim<'r>> {
        let shown = crate::claims::registry::excerpt(id);
        let claim = reg
            .claims
            .iter()
            .find(|c| c.id == id)
            .or_else(|| reg.claims.iter().find(|c| c.label == id))
            .ok_or_else(|| {
                Error::invalid(format!(
                    "no claim in `{}` has the id or label \"{shown}\"",
                    reg.path.display()
                ))
            })?;
        let proof = claim.proof.as_ref().ok_or_else(|| {
            Error::invalid(format!(
                "claim `{}` has no `proof` table, so nothing proves it for every value \
                 (`nimlab check {} --only {}` checks it on its range)",
                claim.id,
                reg.path.display(),
                claim.id
            ))
        })?;
        let Check::Expr(check) = &claim.check else {
            return Err(Error::invalid(format!(
                "claim `{}`: `proof` is for claims checked by an expression",
                claim.id
            )));
        };
        Ok(ProvableClaim {
            claim,
            check,
            proof,
        })
    }

    /// Where the proof covers the claim's variables, in the claim file's own words: the
    /// proof's `over`, with the claim's `where` when its own formula is what is proven.
    pub fn domain_words(&self) -> String {
        if super::where_joins_domain(self.check, self.proof) {
            format!("{} and the claim's `where`", self.proof.over_text)
        } else {
            self.proof.over_text.clone()
        }
    }
}

/// A claim's proof run on its own.
#[derive(Clone, Debug)]
pub struct ClaimProof {
    /// The forms file's system and how its obligations were posed, when the proof rests on one.
    pub forms: Option<(System, Posing)>,
    /// The statement's obligations split on the sign of N.
    pub statement_split: Vec<String>,
    /// Every obligation as finally posed: the forms', then the statement's (none when the
    /// forms fail).
    pub obligations: Vec<Obligation>,
    /// The outcome: the forms' when they are not proven, else the statement's, with the counts
    /// of both parts when it is proven.
    pub outcome: Outcome,
}

/// Proves `claim`: its forms file first (when it names one), then its statement from them, each
/// obligation tried as `refuting` says and then by `solver`, for at most `seconds`.
pub fn prove_claim_alone(
    reg: &Registry,
    claim: ProvableClaim<'_>,
    solver: Solver,
    refuting: Refuting,
    seconds: u32,
) -> Result<ClaimProof> {
    let (forms, mut obligations, forms_counts) = match &claim.proof.basis {
        ProofBasis::Forms { path, .. } => {
            let system = System::load(path)?;
            let (outcome, obligations, posing) = system.prove(solver, refuting, seconds)?;
            let Outcome::Proven {
                obligations: count,
                in_process,
            } = outcome
            else {
                return Ok(ClaimProof {
                    forms: Some((system, posing)),
                    statement_split: Vec::new(),
                    obligations,
                    outcome,
                });
            };
            (Some((system, posing)), obligations, (count, in_process))
        }
        ProofBasis::Definitions => (None, Vec::new(), (0, 0)),
    };
    let system = forms.as_ref().map(|(system, _)| system);
    let posed = pose_claim_statement(system, &reg.definitions, claim.check, claim.proof)?;
    let (outcome, statement, statement_split) = run_posed(posed, solver, refuting, seconds)?;
    obligations.extend(statement);
    let outcome = match outcome {
        Outcome::Proven {
            obligations: count,
            in_process,
        } => Outcome::Proven {
            obligations: forms_counts.0 + count,
            in_process: forms_counts.1 + in_process,
        },
        other => other,
    };
    Ok(ClaimProof {
        forms,
        statement_split,
        obligations,
        outcome,
    })
}

/// The obligations of `claim`'s proof posed again, as a certificate recorded them: the forms'
/// with `posing`, then the statement's with `statement_split`.
pub(super) fn pose_claim_again(
    reg: &Registry,
    claim: ProvableClaim<'_>,
    posing: &Posing,
    statement_split: &[String],
) -> Result<Vec<Obligation>> {
    let system = claim.proof.forms_path().map(System::load).transpose()?;
    let mut obligations = match &system {
        Some(system) => system.pose(posing)?,
        None => Vec::new(),
    };
    let statement =
        pose_claim_statement(system.as_ref(), &reg.definitions, claim.check, claim.proof)?;
    obligations.extend(super::split_as_recorded(statement, statement_split)?);
    Ok(obligations)
}
