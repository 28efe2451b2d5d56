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

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{Obligation, Outcome, Solver, System};
use crate::error::{Error, Result};
use crate::num::Q;

/// The manifest's file name inside a certificate directory.
pub const MANIFEST: &str = "certificate.json";

/// The manifest's `kind`.
const KIND: &str = "induction";

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
    /// Always `induction`.
    kind: String,
    /// The nimlab version that wrote it.
    nimlab: String,
    /// The forms file, as the prove command was given it.
    forms: PathBuf,
    /// The SHA-256 of the forms file's bytes, in hex.
    forms_sha256: String,
    /// The forms' title.
    title: String,
    /// The solver that answered the obligations.
    solver: String,
    /// How the obligations were posed.
    posing: Posing,
    /// The obligations' names, in order (`<name>.smt2` each).
    obligations: Vec<String>,
}

/// What a replay established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The forms' title.
    pub title: String,
    /// The forms file.
    pub forms: PathBuf,
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
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::invalid(format!("cannot create {}: {e}", dir.display())))?;
    for o in obligations {
        let path = dir.join(format!("{}.smt2", o.query.name));
        let script = o.query.script(false);
        crate::fsio::write_output(&path, |w| w.write_all(script.as_bytes()))
            .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))?;
    }
    let manifest = Manifest {
        kind: KIND.to_string(),
        nimlab: env!("CARGO_PKG_VERSION").to_string(),
        forms: system.path.clone(),
        forms_sha256: file_sha256(&system.path)?,
        title: system.title.clone(),
        solver: solver.program().to_string(),
        posing: posing.clone(),
        obligations: obligations.iter().map(|o| o.query.name.clone()).collect(),
    };
    let json = serde_json::to_string_pretty(&manifest)
        .map_err(|e| Error::invalid(format!("cannot encode the manifest: {e}")))?;
    let path = dir.join(MANIFEST);
    crate::fsio::write_output(&path, |w| writeln!(w, "{json}"))
        .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))
}

/// Whether `dir` holds an induction certificate (a manifest of kind `induction`).
pub fn is_certificate_dir(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
}

/// Replays the certificate in `dir` with `solver` (by default the other of z3 and cvc5 than
/// the one that wrote it), each obligation for at most `seconds`. An error says why the
/// certificate is rejected: a changed forms file, a file that is not the obligation the forms
/// pose, a missing or extra obligation, or an obligation the solver does not answer `unsat`.
pub fn replay_certificate(dir: &Path, solver: Option<Solver>, seconds: u32) -> Result<Replay> {
    let manifest_path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&manifest_path)
        .map_err(|e| Error::invalid(format!("cannot read {}: {e}", manifest_path.display())))?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
        Error::invalid(format!(
            "{} is not an induction certificate's manifest: {e}",
            manifest_path.display()
        ))
    })?;
    if manifest.kind != KIND {
        return Err(Error::invalid(format!(
            "{}: kind \"{}\" is not \"{KIND}\"",
            manifest_path.display(),
            manifest.kind
        )));
    }
    let forms = &manifest.forms;
    let sha = file_sha256(forms).map_err(|e| {
        Error::invalid(format!(
            "the forms file the certificate names cannot be read ({e}); replay from the directory the proof ran in"
        ))
    })?;
    if sha != manifest.forms_sha256 {
        return Err(Error::invalid(format!(
            "{} has changed since the certificate was written (its SHA-256 differs)",
            forms.display()
        )));
    }
    let system = System::load(forms)?;
    let obligations = system.pose(&manifest.posing)?;
    let names: Vec<&str> = obligations.iter().map(|o| o.query.name.as_str()).collect();
    if names != manifest.obligations {
        return Err(Error::invalid(format!(
            "the manifest lists {} obligation(s), but the forms pose {} with its posing",
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
                "{} is not the obligation the forms pose (it was changed)",
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
            title: system.title.clone(),
            forms: forms.clone(),
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
