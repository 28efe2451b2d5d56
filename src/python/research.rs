//! `nimlab.mining`, `nimlab.claims`, `nimlab.study` and `nimlab.certificates`: the layers above
//! the engines. The miner fits eventually periodic-linear closed forms to a sequence or along a
//! family (OBSERVED, with the data they were seen on); the claims checker turns a claim file
//! into typed findings (HOLDS, PROVEN, FAILS, …, with evidence); a study file is computed and
//! rendered as a report; a certificate is replayed independently of the run that wrote it.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::{DEFAULT_MEMORY, PyTable, exact, int_ranges, interruptible, json};
use crate::mining::{CertificateFile, Replayed, family_forms, family_forms_table};
use crate::prove::{SECONDS_PER_OBLIGATION, Solver, is_certificate_dir, replay_certificate};
use crate::reports::{Renderer, install, paper_report, render_paper};
use crate::scoring::{Limits, Method};
use crate::study::{Cache, RunOptions};
use crate::{Family, FitOptions, Q, Registry, ReportOptions, check_claim, fit_periodic_linear};

/// Reads a file named by the caller, the error naming it.
fn read_text(path: &Path) -> PyResult<String> {
    std::fs::read_to_string(path)
        .map_err(|e| PyValueError::new_err(format!("cannot read {}: {e}", path.display())))
}

/// The least eventually periodic-linear form a(n) = slope_r·n + intercept_r (n ≡ r mod P,
/// n ≥ n₀) of `values` = a(first), a(first+1), …, confirmed by `confirming_periods` full
/// periods after the two that determine it, as `nimlab mine sequence` finds it: a dict with
/// `status` (OBSERVED, or NONE when no form is confirmed), `period`, `preperiod`,
/// `confirming_periods`, `first`, `last` and `lines`, one dict per residue with `residue`,
/// `slope`, `intercept`, `from_k` and `formula`. Values are Fractions, ints or strings.
///
/// >>> nimlab.mining.fit([0, 1, 0, 3, 0, 5, 0, 7, 0, 9, 0, 11])["period"]
/// 2
#[pyfunction]
#[pyo3(signature = (values, first = 0, confirming_periods = 2, name = "a"))]
fn fit<'py>(
    py: Python<'py>,
    values: Vec<Bound<'py, PyAny>>,
    first: i64,
    confirming_periods: usize,
    name: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let values = values.iter().map(exact).collect::<PyResult<Vec<Q>>>()?;
    let opts = FitOptions {
        min_confirming: confirming_periods,
        ..FitOptions::default()
    };
    let found = interruptible(py, |_| Ok(fit_periodic_linear(&values, first, &opts)))?;
    let d = PyDict::new(py);
    d.set_item("first", first)?;
    d.set_item("last", first + values.len() as i64 - 1)?;
    let Some(form) = found else {
        d.set_item("status", "NONE")?;
        for key in ["period", "preperiod", "confirming_periods"] {
            d.set_item(key, py.None())?;
        }
        d.set_item("lines", PyList::empty(py))?;
        return Ok(d);
    };
    d.set_item("status", "OBSERVED")?;
    d.set_item("period", form.period)?;
    d.set_item("preperiod", form.preperiod)?;
    d.set_item("confirming_periods", form.confirming_periods)?;
    let lines = PyList::empty(py);
    for (line, formula) in form.lines.iter().zip(form.formulas(name)) {
        let l = PyDict::new(py);
        l.set_item("residue", line.residue)?;
        l.set_item("slope", super::fraction(py, &line.slope)?)?;
        l.set_item("intercept", super::fraction(py, &line.intercept)?)?;
        l.set_item("from_k", line.from_k)?;
        l.set_item("formula", formula)?;
        lines.append(l)?;
    }
    d.set_item("lines", lines)?;
    Ok(d)
}

/// The closed forms along a one-parameter family of `game` (`"scoring"` or `"candy"`), e.g.
/// `fit_family("scoring", "2k+1, 2k, 1", {"k": "1..12"})`, as `nimlab mine family` mines
/// them: a dict with `text` (the forms in words) and `forms`, a table with each quantity's
/// period, residue lines and status (OBSERVED on the family's data).
#[pyfunction]
fn fit_family<'py>(
    py: Python<'py>,
    game: &str,
    family: &str,
    ranges: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyDict>> {
    let fam: Family = family.parse().map_err(super::value_error)?;
    let ranges = int_ranges(ranges)?;
    let scoring = match game {
        "scoring" => true,
        "candy" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "game {other:?}: families are mined for \"scoring\" or \"candy\""
            )));
        }
    };
    let forms = interruptible(py, |progress| {
        let columns = if scoring {
            let limits = Limits {
                max_bytes: DEFAULT_MEMORY,
            };
            crate::scoring::family_table_reporting(
                &fam,
                &ranges,
                None,
                Method::Auto,
                &limits,
                progress,
            )?
            .typed_columns()
        } else {
            crate::candy::family_table(&fam, &ranges, DEFAULT_MEMORY, progress)?.typed_columns()
        };
        family_forms(&columns)
    })?;
    let d = PyDict::new(py);
    d.set_item("text", forms.text())?;
    d.set_item("forms", PyTable::new(family_forms_table(&forms)))?;
    Ok(d)
}

/// What checking one claim found: its verdict (HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN), the
/// range checked, the evidence in words, and every typed part of the finding (counterexample,
/// correction, proof, data fit) as dicts.
#[pyclass(name = "Finding", module = "nimlab.claims", frozen)]
struct PyFinding {
    inner: crate::Finding,
}

#[pymethods]
impl PyFinding {
    /// The claim file's `paper`.
    #[getter]
    fn paper(&self) -> &str {
        &self.inner.claim.paper
    }
    /// The claim's id.
    #[getter]
    fn id(&self) -> &str {
        &self.inner.claim.id
    }
    /// The claim's label (e.g. "Theorem 6.3").
    #[getter]
    fn label(&self) -> &str {
        &self.inner.claim.label
    }
    /// The claim's statement, as its file writes it.
    #[getter]
    fn statement(&self) -> &str {
        &self.inner.claim.statement
    }
    /// HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN.
    #[getter]
    fn verdict(&self) -> String {
        self.inner.verdict.to_string()
    }
    /// The range checked, in words (the `range` column of `nimlab check`).
    #[getter]
    fn range(&self) -> String {
        self.inner.range_text()
    }
    /// The evidence in words (the `evidence` column of `nimlab check`).
    #[getter]
    fn evidence(&self) -> String {
        self.inner.evidence()
    }
    /// The smallest counterexample of a FAILS verdict (None otherwise), as a dict.
    #[getter]
    fn counterexample<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, "counterexample")
    }
    /// The corrected statement that holds, for a FAILS verdict (None otherwise), as a dict.
    #[getter]
    fn correction<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, "correction")
    }
    /// The argument of a PROVEN verdict (None otherwise), as a dict.
    #[getter]
    fn proof<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, "proof")
    }
    /// The evidence tables, each a dict with `caption`, `columns` and `rows`.
    #[getter]
    fn tables<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.part(py, "tables")
    }
    /// The whole finding as a dict (every typed part, as `nimlab check --format json` keeps
    /// them), with the verdict, range and evidence in words.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut value = serde_json::to_value(&self.inner).map_err(super::value_error)?;
        if let Some(fields) = value.as_object_mut() {
            fields.insert("verdict".into(), self.verdict().into());
            fields.insert("range_text".into(), self.range().into());
            fields.insert("evidence".into(), self.evidence().into());
        }
        json(py, &value)
    }
    fn __repr__(&self) -> String {
        format!(
            "<Finding {} ({}): {}>",
            self.inner.claim.label, self.inner.claim.id, self.inner.verdict
        )
    }
}

impl PyFinding {
    /// One typed part of the finding, serialized field by field into Python values.
    fn part<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let value = serde_json::to_value(&self.inner).map_err(super::value_error)?;
        json(py, value.get(name).unwrap_or(&serde_json::Value::Null))
    }
}

/// Checks the claims of `registry` (all, or those whose id or label is in `only`).
fn check_all(
    py: Python<'_>,
    registry: &Registry,
    deep: bool,
    only: Option<Vec<String>>,
) -> PyResult<Vec<PyFinding>> {
    let only = only.unwrap_or_default();
    for name in &only {
        if !registry
            .claims
            .iter()
            .any(|c| &c.id == name || &c.label == name)
        {
            return Err(PyValueError::new_err(format!(
                "only: no claim has the id or label {name:?}"
            )));
        }
    }
    let findings = interruptible(py, |progress| {
        crate::language::check_registry_progress(registry, deep, &only, progress)
    })?;
    Ok(findings
        .into_iter()
        .map(|inner| PyFinding { inner })
        .collect())
}

/// Checks the claims of a claim file (TOML, as `nimlab check FILE`), returning one `Finding`
/// per claim. `deep=True` runs the longer checks (`--deep`); `only` lists ids or labels.
///
/// >>> [f.verdict for f in nimlab.claims.check("data/claims/scoring-nim.toml", only=["prop-3.1-i"])]
/// ['HOLDS']
#[pyfunction]
#[pyo3(signature = (path, deep = false, only = None))]
fn check(
    py: Python<'_>,
    path: PathBuf,
    deep: bool,
    only: Option<Vec<String>>,
) -> PyResult<Vec<PyFinding>> {
    let text = read_text(&path)?;
    let registry = Registry::parse(&path, &text).map_err(super::value_error)?;
    check_all(py, &registry, deep, only)
}

/// Checks claims written as TOML text (a claim file's content, e.g. one `[[claim]]` with
/// `for` and `holds`), `name` standing for the file in messages.
///
/// >>> text = '''paper = "demo"
/// ... [[claim]]
/// ... id = "odd"
/// ... label = "Example"
/// ... statement = "squares of odd numbers are odd"
/// ... for = "k in 0..20"
/// ... holds = "mod((2*k + 1)^2, 2) == 1"
/// ... '''
/// >>> nimlab.claims.check_text(text)[0].verdict
/// 'HOLDS'
#[pyfunction]
#[pyo3(signature = (text, name = "<string>", deep = false))]
fn check_text(py: Python<'_>, text: &str, name: &str, deep: bool) -> PyResult<Vec<PyFinding>> {
    let registry = Registry::parse(Path::new(name), text).map_err(super::value_error)?;
    check_all(py, &registry, deep, None)
}

/// Checks one claim of a registry given as TOML text, by id or label.
#[pyfunction]
#[pyo3(signature = (text, claim, name = "<string>", deep = false))]
fn check_one(
    py: Python<'_>,
    text: &str,
    claim: &str,
    name: &str,
    deep: bool,
) -> PyResult<PyFinding> {
    let registry = Registry::parse(Path::new(name), text).map_err(super::value_error)?;
    let c = registry
        .claims
        .iter()
        .find(|c| c.id == claim || c.label == claim)
        .ok_or_else(|| PyValueError::new_err(format!("no claim has the id or label {claim:?}")))?;
    let inner = interruptible(py, |_| check_claim(&registry, c, deep))?;
    Ok(PyFinding { inner })
}

/// Computes the tables a study file declares, as `nimlab study tables` does: a dict from each
/// table's name to its `Table`. Refused before any work when a table's estimate exceeds
/// `memory_limit` bytes.
#[pyfunction]
#[pyo3(signature = (path, memory_limit = DEFAULT_MEMORY))]
fn tables<'py>(py: Python<'py>, path: PathBuf, memory_limit: u64) -> PyResult<Bound<'py, PyDict>> {
    let study = crate::study::parse(&path, &read_text(&path)?).map_err(super::value_error)?;
    study
        .check_budget(memory_limit)
        .map_err(super::value_error)?;
    let d = PyDict::new(py);
    for decl in &study.tables {
        let t = interruptible(py, |progress| decl.spec.compute(memory_limit, progress))
            .map_err(|e| PyValueError::new_err(format!("table `{}`: {e}", decl.name)))?;
        d.set_item(&decl.name, PyTable::new(t))?;
    }
    Ok(d)
}

/// Renders a study file's report (Markdown, LaTeX, CSV, SVG; no PDF) as `nimlab study run`
/// does, returning a dict from each file's name to its text (bytes for binary files). With
/// `output`, the files are also installed atomically into `output/<study name>/`.
#[pyfunction]
#[pyo3(signature = (path, output = None, memory_limit = DEFAULT_MEMORY))]
fn run<'py>(
    py: Python<'py>,
    path: PathBuf,
    output: Option<PathBuf>,
    memory_limit: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let study = crate::study::parse(&path, &read_text(&path)?).map_err(super::value_error)?;
    study
        .check_budget(memory_limit)
        .map_err(super::value_error)?;
    let command = format!("nimlab.study.run({:?})", path.display().to_string());
    let cache = Cache::disabled();
    let files = interruptible(py, |progress| {
        if study.paper.is_some() {
            let opts = ReportOptions {
                command: Some(command.clone()),
                cache: cache.clone(),
                max_bytes: memory_limit,
                ..ReportOptions::default()
            };
            let paper = paper_report(&study, &opts, progress)?;
            return render_paper(&Renderer::new()?, paper, progress);
        }
        let tables = study
            .tables
            .iter()
            .map(|decl| decl.spec.compute(memory_limit, progress))
            .collect::<crate::Result<Vec<_>>>()?;
        let opts = RunOptions {
            cache: &cache,
            max_bytes: memory_limit,
            command: command.clone(),
            commit: None,
        };
        Ok(crate::study::render(&study, &tables, &opts, progress)?.files)
    })?;
    if let Some(dir) = output {
        install(&dir.join(&study.meta.name), &files).map_err(super::value_error)?;
    }
    let d = PyDict::new(py);
    for (name, bytes) in files.iter() {
        match std::str::from_utf8(bytes) {
            Ok(text) => d.set_item(name, text)?,
            Err(_) => d.set_item(name, pyo3::types::PyBytes::new(py, bytes))?,
        }
    }
    Ok(d)
}

/// Replays a certificate file (`nimlab mine cash --certificate`, `nimlab octal period
/// --certificate`) independently of the run that wrote it, as `nimlab mine replay` does: a
/// dict with `valid` (True), `kind` and `statement` (what it proves). A certificate that does
/// not hold raises `ValueError` saying it is REJECTED and why.
///
/// A directory written by `nimlab prove --certificate DIR` is replayed as `nimlab mine replay
/// DIR` does it: the obligations posed again from the forms file (and for `nimlab prove CLAIMS
/// --claim ID --certificate DIR`, from the claim file too), every file checked to be one of
/// them, and a second solver (`"z3"` or `"cvc5"`, by default the other one) answering `unsat`
/// to each; `kind` is then `induction` (or `claim`).
#[pyfunction]
#[pyo3(signature = (path, solver = None))]
fn replay<'py>(
    py: Python<'py>,
    path: PathBuf,
    solver: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let label = path.display().to_string();
    if is_certificate_dir(&path) {
        let solver = match solver {
            None => None,
            Some("z3") => Some(Solver::Z3),
            Some("cvc5") => Some(Solver::Cvc5),
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "solver {other:?}: use \"z3\" or \"cvc5\""
                )));
            }
        };
        let r = interruptible(py, |_| {
            replay_certificate(&path, solver, SECONDS_PER_OBLIGATION)
        })
        .map_err(|e| PyValueError::new_err(format!("{label} is REJECTED: {e}")))?;
        let d = PyDict::new(py);
        d.set_item("valid", true)?;
        d.set_item("kind", r.kind.name())?;
        d.set_item(
            "statement",
            format!(
                "{}: {} obligation{} posed again from {}, each answered unsat by {}",
                r.title,
                r.obligations,
                if r.obligations == 1 { "" } else { "s" },
                r.posed_from,
                r.solver.program()
            ),
        )?;
        return Ok(d);
    }
    if solver.is_some() {
        return Err(PyValueError::new_err(format!(
            "solver applies to an induction certificate (a directory), not to {label}"
        )));
    }
    let file = CertificateFile::read(&read_text(&path)?, &label).map_err(super::value_error)?;
    let replayed = interruptible(py, |_| {
        file.replay().map(|r| match r {
            Replayed::CashThresholds { set, from } => (
                "cash-thresholds",
                format!("f^I and f^II of A = {set} follow the stated forms for every n ≥ {from}"),
            ),
            Replayed::OctalPeriod(c) => (
                "octal-period",
                format!(
                    "{}: least period {}, least preperiod {}, PROVEN for all n ({})",
                    c.describe(),
                    c.period,
                    c.preperiod,
                    c.argument()
                ),
            ),
        })
    })
    .map_err(|e| PyValueError::new_err(format!("{label} is REJECTED: {e}")))?;
    let d = PyDict::new(py);
    d.set_item("valid", true)?;
    d.set_item("kind", replayed.0)?;
    d.set_item("statement", replayed.1)?;
    Ok(d)
}

/// The submodule `nimlab.mining`.
pub(super) fn mining_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "mining")?;
    m.add_function(wrap_pyfunction!(fit, &m)?)?;
    m.add_function(wrap_pyfunction!(fit_family, &m)?)?;
    Ok(m)
}

/// The submodule `nimlab.claims`.
pub(super) fn claims_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "claims")?;
    m.add_class::<PyFinding>()?;
    m.add_function(wrap_pyfunction!(check, &m)?)?;
    m.add_function(wrap_pyfunction!(check_text, &m)?)?;
    m.add_function(wrap_pyfunction!(check_one, &m)?)?;
    Ok(m)
}

/// The submodule `nimlab.study`.
pub(super) fn study_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "study")?;
    m.add_function(wrap_pyfunction!(tables, &m)?)?;
    m.add_function(wrap_pyfunction!(run, &m)?)?;
    Ok(m)
}

/// The submodule `nimlab.certificates`.
pub(super) fn certificates_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "certificates")?;
    m.add_function(wrap_pyfunction!(replay, &m)?)?;
    Ok(m)
}
