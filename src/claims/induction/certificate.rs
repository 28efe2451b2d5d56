//! An induction proof's certificate, and its replay.
//!
//! `nimlab prove FILE --certificate DIR` writes every obligation as `DIR/<name>.smt2` (each must
//! answer `unsat`) and `DIR/certificate.json`, the manifest: the forms file (its path and
//! SHA-256), the solver that answered, the obligations in order, and how they were posed — the
//! points each class's *attained* obligation was refined on, and the obligations answered as
//! their two cases on the sign of N ([`Posing`]).
//!
//! A replay trusts none of the files. It reads the forms file again (refusing it when its
//! SHA-256 differs), poses the obligations again from the forms with the recorded posing, and
//! requires every `.smt2` file to be, byte for byte, the obligation the forms pose — so a
//! certificate whose file was weakened, dropped, or written for other forms is rejected — then
//! hands each obligation to a second solver (by default not the one that wrote the
//! certificate), which must answer `unsat` to every one. The proof then rests on two solvers
//! agreeing and on the obligations' construction from the forms, never on the first run.
//!
//! A claim's certificate (`nimlab prove CLAIMS --claim ID --certificate DIR`, kind `claim`)
//! holds the obligations of its forms file (if any) and then those of its statement, which turn
//! the proven forms into the claim ([`super::claim`]). Its manifest also names the claim file,
//! with its SHA-256, and the claim's id; a replay reads both files again and poses both parts.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::claim::{ClaimProof, ProvableClaim, pose_claim_again};
use super::{Obligation, Outcome, Solver, System};
use crate::claims::registry::Registry;
use crate::error::{Error, Result};
use crate::num::Q;

/// The manifest's file name inside a certificate directory.
pub const MANIFEST: &str = "certificate.json";

/// What a certificate proves: the manifest's `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CertificateKind {
    /// A forms file's closed forms (`nimlab prove FORMS`).
    Induction,
    /// A claim of a claim file: its forms file's forms, if any, and its statement (`nimlab
    /// prove CLAIMS --claim ID`).
    Claim,
}

impl CertificateKind {
    /// The manifest's word for it.
    pub fn name(self) -> &'static str {
        match self {
            CertificateKind::Induction => "induction",
            CertificateKind::Claim => "claim",
        }
    }
}

/// The claim a certificate of kind `claim` proves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct ClaimSource {
    /// The claim file, as the prove command was given it.
    file: PathBuf,
    /// The SHA-256 of its bytes, in hex.
    file_sha256: String,
    /// The claim's id.
    id: String,
}

/// How a proof posed its obligations, beyond what the forms file fixes: enough to pose exactly
/// the same obligations again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posing {
    /// The classes whose *attained* obligation was posed again with more moves offered.
    pub refinements: Vec<Refinement>,
    /// The obligations answered as their two cases on the sign of N, by name.
    pub split: Vec<String>,
}

/// One class's refinement: the points (position, bonus) where an earlier choice of offered
/// moves failed, in the order they were found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refinement {
    /// The class's slug.
    pub class: String,
    /// The points, each a position (sorted piles) and a bonus N.
    pub points: Vec<(Vec<i64>, Q)>,
}

/// The manifest of a certificate directory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Manifest {
    /// What it proves.
    kind: CertificateKind,
    /// The nimlab version that wrote it.
    nimlab: String,
    /// The claim, for a claim's certificate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    claim: Option<ClaimSource>,
    /// The forms file, as the prove command was given it (or as the claim file names it);
    /// none for a claim proven from its file's definitions alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forms: Option<PathBuf>,
    /// The SHA-256 of the forms file's bytes, in hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forms_sha256: Option<String>,
    /// The forms' title, or the claim's label.
    title: String,
    /// The solver that answered the obligations.
    solver: String,
    /// How the forms' obligations were posed.
    posing: Posing,
    /// The claim's statement obligations answered as their two cases on the sign of N.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    statement_split: Vec<String>,
    /// The obligations' names, in order (`<name>.smt2` each).
    obligations: Vec<String>,
}

/// What a replay established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// What the certificate proves.
    pub kind: CertificateKind,
    /// The forms' title, or the claim's label.
    pub title: String,
    /// The files the obligations were posed from again, in words: the forms file, or the claim
    /// file and its claim's id (and the forms file it names).
    pub posed_from: String,
    /// The obligations the second solver answered `unsat`.
    pub obligations: usize,
    /// The solver that replayed them.
    pub solver: Solver,
}

/// The hex SHA-256 of a file, the error naming it.
fn file_sha256(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Writes the certificate of `system`'s proof into `dir`: each obligation as `<name>.smt2`, then
/// the manifest (last, so that a directory with a manifest is complete).
pub fn write_certificate(
    system: &System,
    solver: Solver,
    obligations: &[Obligation],
    posing: &Posing,
    dir: &Path,
) -> Result<()> {
    let manifest = Manifest {
        kind: CertificateKind::Induction,
        nimlab: env!("CARGO_PKG_VERSION").to_string(),
        claim: None,
        forms: Some(system.path.clone()),
        forms_sha256: Some(file_sha256(&system.path)?),
        title: system.title.clone(),
        solver: solver.program().to_string(),
        posing: posing.clone(),
        statement_split: Vec::new(),
        obligations: obligations.iter().map(|o| o.query.name.clone()).collect(),
    };
    write_directory(dir, obligations, &manifest)
}

/// Writes the certificate of a claim's proof ([`super::prove_claim_alone`]) into `dir`: every
/// obligation of its forms file and of its statement, then the manifest.
pub fn write_claim_certificate(
    reg: &Registry,
    claim: ProvableClaim<'_>,
    proof: &ClaimProof,
    solver: Solver,
    dir: &Path,
) -> Result<()> {
    let forms = proof.forms.as_ref();
    let manifest = Manifest {
        kind: CertificateKind::Claim,
        nimlab: env!("CARGO_PKG_VERSION").to_string(),
        claim: Some(ClaimSource {
            file: reg.path.clone(),
            file_sha256: file_sha256(&reg.path)?,
            id: claim.claim.id.clone(),
        }),
        forms: forms.map(|(system, _)| system.path.clone()),
        forms_sha256: forms
            .map(|(system, _)| file_sha256(&system.path))
            .transpose()?,
        title: claim.claim.label.clone(),
        solver: solver.program().to_string(),
        posing: forms.map(|(_, posing)| posing.clone()).unwrap_or_default(),
        statement_split: proof.statement_split.clone(),
        obligations: proof
            .obligations
            .iter()
            .map(|o| o.query.name.clone())
            .collect(),
    };
    write_directory(dir, &proof.obligations, &manifest)
}

/// Writes each obligation as `dir/<name>.smt2`, then the manifest. Two obligations with one name
/// (a forms file naming a class like a statement's obligation) are refused: one file would
/// hide the other.
fn write_directory(dir: &Path, obligations: &[Obligation], manifest: &Manifest) -> Result<()> {
    let mut names = std::collections::BTreeSet::new();
    if let Some(twice) = obligations
        .iter()
        .find(|o| !names.insert(o.query.name.as_str()))
    {
        return Err(Error::invalid(format!(
            "two obligations are named `{}`: rename the forms file's class",
            twice.query.name
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::invalid(format!("cannot create {}: {e}", dir.display())))?;
    for o in obligations {
        let path = dir.join(format!("{}.smt2", o.query.name));
        let script = o.query.script(false);
        crate::fsio::write_output(&path, |w| w.write_all(script.as_bytes()))
            .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))?;
    }
    let json = serde_json::to_string_pretty(manifest)
        .map_err(|e| Error::invalid(format!("cannot encode the manifest: {e}")))?;
    let path = dir.join(MANIFEST);
    crate::fsio::write_output(&path, |w| writeln!(w, "{json}"))
        .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))
}

/// Whether `dir` holds a certificate (a manifest; its kind is read by the replay).
pub fn is_certificate_dir(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
}

/// An error unless the file at `path` still has the SHA-256 `recorded`; `what` names the file
/// in the messages.
fn unchanged(path: &Path, recorded: Option<&str>, what: &str) -> Result<()> {
    let sha = file_sha256(path).map_err(|e| {
        Error::invalid(format!(
            "the {what} the certificate names cannot be read ({e}); replay from the directory the proof ran in"
        ))
    })?;
    if Some(sha.as_str()) != recorded {
        return Err(Error::invalid(format!(
            "{} has changed since the certificate was written (its SHA-256 differs)",
            path.display()
        )));
    }
    Ok(())
}

/// Replays the certificate in `dir` with `solver` (by default the other of z3 and cvc5 than
/// the one that wrote it), each obligation for at most `seconds`. An error says why the
/// certificate is rejected: a changed forms or claim file, a file that is not the obligation
/// they pose, a missing or extra obligation, or an obligation the solver does not answer
/// `unsat`.
pub fn replay_certificate(dir: &Path, solver: Option<Solver>, seconds: u32) -> Result<Replay> {
    let manifest_path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&manifest_path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", manifest_path.display())))?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        Error::invalid(format!(
            "{} is not the manifest of a certificate written by `nimlab prove`: {e}",
            manifest_path.display()
        ))
    })?;
    let (obligations, title, posed_from) = match manifest.kind {
        CertificateKind::Induction => {
            let forms = manifest.forms.as_ref().ok_or_else(|| {
                Error::invalid(format!(
                    "{}: an induction certificate must name its forms file",
                    manifest_path.display()
                ))
            })?;
            unchanged(forms, manifest.forms_sha256.as_deref(), "forms file")?;
            let system = System::load(forms)?;
            (
                system.pose(&manifest.posing)?,
                system.title.clone(),
                forms.display().to_string(),
            )
        }
        CertificateKind::Claim => {
            let source = manifest.claim.as_ref().ok_or_else(|| {
                Error::invalid(format!(
                    "{}: a claim's certificate must name its claim",
                    manifest_path.display()
                ))
            })?;
            unchanged(&source.file, Some(&source.file_sha256), "claim file")?;
            let reg = Registry::load(&source.file)?;
            let claim = ProvableClaim::find(&reg, &source.id)?;
            let forms = claim.proof.forms_path();
            if forms != manifest.forms.as_deref() {
                return Err(Error::invalid(format!(
                    "claim `{}` is proven from {}, but the certificate was written for {}",
                    source.id,
                    forms.map_or("its file's definitions".into(), |f| f.display().to_string()),
                    manifest
                        .forms
                        .as_ref()
                        .map_or("its file's definitions".into(), |f| f.display().to_string()),
                )));
            }
            if let Some(forms) = forms {
                unchanged(forms, manifest.forms_sha256.as_deref(), "forms file")?;
            }
            let posed_from = match forms {
                Some(f) => format!(
                    "{} (claim {}) and {}",
                    source.file.display(),
                    source.id,
                    crate::fsio::lexically_normal(f).display()
                ),
                None => format!("{} (claim {})", source.file.display(), source.id),
            };
            (
                pose_claim_again(&reg, claim, &manifest.posing, &manifest.statement_split)?,
                claim.claim.label.clone(),
                posed_from,
            )
        }
    };
    let names: Vec<&str> = obligations.iter().map(|o| o.query.name.as_str()).collect();
    if names != manifest.obligations {
        return Err(Error::invalid(format!(
            "the manifest lists {} obligation(s), but the files pose {} with its posing",
            manifest.obligations.len(),
            names.len()
        )));
    }
    for o in &obligations {
        let path = dir.join(format!("{}.smt2", o.query.name));
        let file = std::fs::read_to_string(&path)
            .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
        if file != o.query.script(false) {
            return Err(Error::invalid(format!(
                "{} is not the obligation the files pose (it was changed)",
                path.display()
            )));
        }
    }
    let solver = solver.unwrap_or(match manifest.solver.as_str() {
        "z3" => Solver::Cvc5,
        _ => Solver::Z3,
    });
    match super::run(&obligations, solver, super::Refuting::SolverOnly, seconds)? {
        Outcome::Proven { obligations, .. } => Ok(Replay {
            kind: manifest.kind,
            title,
            posed_from,
            obligations,
            solver,
        }),
        Outcome::Refuted { obligation, .. } => Err(Error::invalid(format!(
            "{}: {obligation} is satisfiable: the obligation fails",
            solver.program()
        ))),
        Outcome::Unknown { obligation, why } => Err(Error::invalid(format!(
            "{}: {obligation} is undecided ({why})",
            solver.program()
        ))),
    }
}
