//! The Python extension module `nimlab` (feature `python`, built by `pip install .` through
//! maturin): the engines, the miner, the claims checker, studies and certificates from Python,
//! with exact numbers as `fractions.Fraction` and tables as lists of dicts.
//!
//! It calls only the library's public facade, as any Rust caller would, and builds its tables
//! with the same functions as the command line, so a table has the CLI's column names and
//! values. Numbers cross the boundary exactly: a `Fraction`, `int` or string such as `"7/2"` in,
//! a `Fraction` out; a `float` is refused, since it is not the number the user meant. Bad input
//! raises `ValueError` naming the value, as the command line exits 2.
//!
//! Long computations run on a worker thread with the GIL released; the calling thread polls
//! for signals, so Ctrl-C raises `KeyboardInterrupt` at once and stops the worker at its next
//! progress report (see [`interruptible`]).
//!
//! One file per area: [`scoring`] (`nimlab.scoring`), [`octal`] (`nimlab.octal` and
//! `nimlab.normal_play`), [`candy`], [`cash`], and [`research`] (`nimlab.mining`,
//! `nimlab.claims`, `nimlab.study`, `nimlab.certificates`).

mod candy;
mod cash;
mod octal;
mod research;
mod scoring;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use num_bigint::BigInt;
use num_rational::BigRational;
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyImportError, PyIndexError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyRange, PyString, PyTuple, PyType};

use crate::scoring::{piece_interval, tails};
use crate::{Cell, Format, IntRange, Progress, Pwl, Q, QRange, Table};

/// The memory a computation may use unless the caller says otherwise, as the command line's
/// `--memory-limit auto` allows at most.
const DEFAULT_MEMORY: u64 = 8 << 30;

/// The worker thread's stack: the engines' recursions are bounded, but deeper than a default
/// thread's 2 MiB allows for the largest inputs.
const WORKER_STACK: usize = 256 << 20;

/// How often the calling thread looks for Ctrl-C while the worker computes.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A library error as the `ValueError` a Python caller expects.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The payload a worker unwinds with when the caller was interrupted.
struct Interrupted;

/// The progress the worker reports to: it does nothing but stop the work, by unwinding, once
/// the caller has been interrupted. Every engine reports progress in batches from its loops,
/// so the work stops soon after Ctrl-C; its partial state is dropped with it.
struct StopFlag(AtomicBool);

impl StopFlag {
    fn check(&self) {
        if self.0.load(Ordering::Relaxed) {
            // Not a panic: no hook runs and no message is printed.
            resume_unwind(Box::new(Interrupted));
        }
    }
}

impl Progress for StopFlag {
    fn start(&self, _total: u64) {
        self.check();
    }
    fn add_work(&self, _n: u64) {
        self.check();
    }
    fn advance(&self, _n: u64) {
        self.check();
    }
    fn stage(&self, _what: &str) {
        self.check();
    }
}

/// Runs `work` on a worker thread with the GIL released, the calling thread waiting for it and
/// polling for signals: Ctrl-C (or any signal handler that raises) is raised as soon as it
/// arrives, the worker stopped at its next progress report. A library error becomes
/// `ValueError`.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&dyn Progress) -> crate::Result<T> + Send,
) -> PyResult<T> {
    let stop = StopFlag(AtomicBool::new(false));
    let (joined, interrupt) = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let stop = &stop;
            let worker = std::thread::Builder::new()
                .name("nimlab".to_string())
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let result = catch_unwind(AssertUnwindSafe(|| work(stop)));
                    // The receiver waits until this is sent or the sender dropped.
                    let _ = done.send(());
                    result
                });
            let worker = match worker {
                Ok(w) => w,
                Err(e) => {
                    let err: PyErr = value_error(format!("cannot start a worker thread: {e}"));
                    return (None, Some(err));
                }
            };
            let mut interrupt: Option<PyErr> = None;
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) if interrupt.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            interrupt = Some(e);
                            stop.0.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
            (Some(worker.join()), interrupt)
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    match joined {
        Some(Ok(Ok(result))) => result.map_err(value_error),
        Some(Ok(Err(payload)) | Err(payload)) => {
            if payload.is::<Interrupted>() {
                Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(()))
            } else {
                // A bug: raised as pyo3's PanicException, never an abort.
                resume_unwind(payload)
            }
        }
        None => Err(value_error("the worker thread did not run")),
    }
}

/// `fractions.Fraction`, looked up once.
static FRACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `q` as a `fractions.Fraction`, from its exact numerator and denominator.
fn fraction<'py>(py: Python<'py>, q: &Q) -> PyResult<Bound<'py, PyAny>> {
    FRACTION
        .import(py, "fractions", "Fraction")?
        .call1((q.numer().into_owned(), q.denom().into_owned()))
}

/// An exact number from Python: a `Fraction`, an `int` or a string such as `"7/2"`.
fn exact(value: &Bound<'_, PyAny>) -> PyResult<Q> {
    if value.is_instance_of::<PyFloat>() {
        return Err(PyValueError::new_err(format!(
            "{} is a float, which is inexact; pass a Fraction, an int or a string such as '7/2'",
            value.repr()?
        )));
    }
    let fraction_type = FRACTION.import(value.py(), "fractions", "Fraction")?;
    if value.is_instance(fraction_type)? {
        let numer: BigInt = value.getattr("numerator")?.extract()?;
        let denom: BigInt = value.getattr("denominator")?.extract()?;
        return Ok(Q::from_ratio(BigRational::new(numer, denom)));
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(Q::from_bigint(value.extract()?));
    }
    let refused = || {
        let shown = value
            .repr()
            .map_or_else(|_| "the value".to_string(), |r| r.to_string());
        PyValueError::new_err(format!(
            "{shown} is not an exact number; pass a Fraction, an int or a string such as '7/2'"
        ))
    };
    let text: String = value.cast::<PyString>().map_err(|_| refused())?.extract()?;
    text.trim().parse::<Q>().map_err(|_| refused())
}

/// Whole numbers from Python, each at most `max` (the bad one named with `what`).
fn whole<T: TryFrom<i128>>(what: &str, values: &[i128], max: u64) -> PyResult<Vec<T>> {
    values
        .iter()
        .map(|&v| {
            T::try_from(v)
                .ok()
                .filter(|_| (0..=i128::from(max)).contains(&v))
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "{what} {v}: must be a whole number from 0 to {max}"
                    ))
                })
        })
        .collect()
}

/// A parameter's range from Python: `"0..20"`, `range(0, 21)` (step 1), a pair `(0, 20)`
/// (both ends included) or one integer.
fn int_range(name: &str, value: &Bound<'_, PyAny>) -> PyResult<IntRange> {
    let bad = |why: String| PyValueError::new_err(format!("{name} = {}: {why}", shown(value)));
    if let Ok(text) = value.cast::<PyString>() {
        return text
            .extract::<String>()?
            .parse::<IntRange>()
            .map_err(|e| bad(e.to_string()));
    }
    if let Ok(r) = value.cast::<PyRange>() {
        let (start, stop, step): (i64, i64, i64) = (
            r.getattr("start")?.extract()?,
            r.getattr("stop")?.extract()?,
            r.getattr("step")?.extract()?,
        );
        if step != 1 {
            return Err(bad("a range of a parameter has step 1".to_string()));
        }
        return IntRange::new(start, stop - 1).map_err(|e| bad(e.to_string()));
    }
    if let Ok(pair) = value.cast::<PyTuple>() {
        let (lo, hi): (i64, i64) = pair
            .extract()
            .map_err(|_| bad("a pair (lo, hi) of integers".to_string()))?;
        return IntRange::new(lo, hi).map_err(|e| bad(e.to_string()));
    }
    if value.is_instance_of::<PyInt>() {
        let k: i64 = value.extract().map_err(|e: PyErr| bad(e.to_string()))?;
        return IntRange::new(k, k).map_err(|e| bad(e.to_string()));
    }
    Err(bad(
        "write \"0..20\", range(0, 21), (0, 20) or an integer".to_string()
    ))
}

/// Ranges of a family's parameters, by name.
fn int_ranges(ranges: &Bound<'_, PyDict>) -> PyResult<BTreeMap<String, IntRange>> {
    ranges
        .iter()
        .map(|(k, v)| {
            let name: String = k.extract()?;
            let range = int_range(&name, &v)?;
            Ok((name, range))
        })
        .collect()
}

/// A bonus grid such as `"0..10"` with a step (1 unless given), as `--bonus` and `--step`
/// read it.
fn bonus_grid(value: Option<&str>, step: Option<&Bound<'_, PyAny>>) -> PyResult<Option<QRange>> {
    let step = step.map(exact).transpose()?.unwrap_or_else(Q::one);
    value
        .map(|text| {
            QRange::parse_with_step(text, step.clone())
                .map_err(|e| PyValueError::new_err(format!("bonus = {text:?}: {e}")))
        })
        .transpose()
}

/// A value as `repr` shows it, for error messages.
fn shown(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map_or_else(|_| "the value".to_string(), |r| r.to_string())
}

/// A table cell as a Python value: integers as `int`, rationals as `Fraction`, empty text as
/// `None`, lists as lists, a piecewise-linear function as a [`PyPwl`], other records as dicts.
fn cell<'py>(py: Python<'py>, c: &Cell) -> PyResult<Bound<'py, PyAny>> {
    match c {
        Cell::Int(n) => n.into_bound_py_any(py),
        Cell::UInt(n) => n.into_bound_py_any(py),
        Cell::Rational(q) => fraction(py, q),
        Cell::Text(s) if s.is_empty() => Ok(py.None().into_bound(py)),
        Cell::Text(s) => s.into_bound_py_any(py),
        Cell::Bool(b) => b.into_bound_py_any(py),
        Cell::List(l) => {
            let items = l
                .items
                .iter()
                .map(|c| cell(py, c))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyList::new(py, items)?.into_any())
        }
        Cell::Record(r) => match c.as_pwl() {
            Some(f) => PyPwl::new(f, "f").into_bound_py_any(py),
            None => {
                let d = PyDict::new(py);
                for (k, v) in &r.fields {
                    d.set_item(k, cell(py, v)?)?;
                }
                Ok(d.into_any())
            }
        },
    }
}

/// A row of `t` as a dict from column names to values.
fn row_dict<'py>(py: Python<'py>, t: &Table, row: &[Cell]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, c) in t.columns.iter().zip(row) {
        d.set_item(name, cell(py, c)?)?;
    }
    Ok(d)
}

/// The only row of a one-row table as a dict.
fn record<'py>(py: Python<'py>, t: &Table) -> PyResult<Bound<'py, PyDict>> {
    match t.rows.first() {
        Some(row) => row_dict(py, t, row),
        None => Ok(PyDict::new(py)),
    }
}

/// JSON (a typed value serialized by serde, never text) as Python values.
fn json<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    match v {
        Value::Null => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py),
            (None, Some(u)) => u.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        Value::String(s) => s.into_bound_py_any(py),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|v| json(py, v))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyList::new(py, items)?.into_any())
        }
        Value::Object(fields) => {
            let d = PyDict::new(py);
            for (k, v) in fields {
                d.set_item(k, json(py, v)?)?;
            }
            Ok(d.into_any())
        }
    }
}

/// A table of exact values with the command line's column names: rows as dicts, `len`,
/// indexing and iteration, `to_pandas()`, and the CLI's text, CSV, JSON or Markdown.
#[pyclass(name = "Table", module = "nimlab", frozen, sequence)]
struct PyTable {
    inner: Table,
}

impl PyTable {
    fn new(inner: Table) -> PyTable {
        PyTable { inner }
    }

    fn render_str(&self, format: Format) -> String {
        String::from_utf8_lossy(&self.inner.render(format)).into_owned()
    }
}

/// Rows `__repr__` shows before it says how many more there are.
const REPR_ROWS: usize = 20;

#[pymethods]
impl PyTable {
    /// The column names, as the CLI's CSV header has them.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.inner.columns.clone()
    }

    /// Every row as a dict from column names to exact values.
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rows = self
            .inner
            .rows
            .iter()
            .map(|r| row_dict(py, &self.inner, r))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, rows)
    }

    /// The values of one column, top to bottom.
    fn column<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyList>> {
        let i = self
            .inner
            .columns
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| {
                PyKeyError::new_err(format!(
                    "no column {name:?}; the columns are {}",
                    self.inner.columns.join(", ")
                ))
            })?;
        let values = self
            .inner
            .rows
            .iter()
            .map(|r| cell(py, &r[i]))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, values)
    }

    fn __len__(&self) -> usize {
        self.inner.rows.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyDict>> {
        let len = self.inner.rows.len() as isize;
        let i = if index < 0 { index + len } else { index };
        if !(0..len).contains(&i) {
            return Err(PyIndexError::new_err(format!(
                "row {index} of a table of {len} rows"
            )));
        }
        row_dict(py, &self.inner, &self.inner.rows[i as usize])
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.rows(py)?.try_iter()?.into_any())
    }

    /// A `pandas.DataFrame` with the same columns (values stay exact: Fractions are objects).
    /// pandas is an optional dependency: `pip install 'nimlab[pandas]'`.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = py.import("pandas").map_err(|_| {
            PyImportError::new_err(
                "to_pandas needs pandas, an optional dependency: pip install 'nimlab[pandas]'",
            )
        })?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("columns", self.columns())?;
        pandas
            .getattr("DataFrame")?
            .call((self.rows(py)?,), Some(&kwargs))
    }

    /// The table as CSV text, byte for byte what `--format csv` prints.
    fn to_csv(&self) -> String {
        self.render_str(Format::Csv)
    }

    /// The table in one of the CLI's formats: `text`, `csv`, `json` or `md`.
    #[pyo3(signature = (format = "text"))]
    fn render(&self, format: &str) -> PyResult<String> {
        let f = match format {
            "text" => Format::Text,
            "csv" => Format::Csv,
            "json" => Format::Json,
            "md" => Format::Md,
            other => {
                return Err(PyValueError::new_err(format!(
                    "format {other:?}: use text, csv, json or md"
                )));
            }
        };
        Ok(self.render_str(f))
    }

    fn __repr__(&self) -> String {
        let rows = self.inner.rows.len();
        let mut head = Table::new(&[]);
        head.columns = self.inner.columns.clone();
        head.rows = self.inner.rows.iter().take(REPR_ROWS).cloned().collect();
        let mut out = String::from_utf8_lossy(&head.render(Format::Text)).into_owned();
        if rows > REPR_ROWS {
            out.push_str(&format!(
                "… {} more rows ({rows} in all)\n",
                rows - REPR_ROWS
            ));
        }
        out
    }

    /// An HTML table, for notebooks.
    fn _repr_html_(&self) -> String {
        let escape = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let mut out = String::from("<table>\n<thead><tr>");
        for c in &self.inner.columns {
            out.push_str(&format!("<th>{}</th>", escape(c)));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in self.inner.rows.iter().take(REPR_ROWS * 5) {
            out.push_str("<tr>");
            for c in row {
                out.push_str(&format!("<td>{}</td>", escape(&c.text())));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        let rows = self.inner.rows.len();
        if rows > REPR_ROWS * 5 {
            out.push_str(&format!("<p>{} of {rows} rows shown</p>\n", REPR_ROWS * 5));
        }
        out
    }
}

/// A piecewise-linear function of the bonus N with exact rational breakpoints.
#[pyclass(name = "Pwl", module = "nimlab", frozen)]
struct PyPwl {
    inner: Pwl,
    /// What the function is, e.g. `f_N(5,4,2)`.
    name: String,
}

impl PyPwl {
    fn new(inner: Pwl, name: &str) -> PyPwl {
        PyPwl {
            inner,
            name: name.to_string(),
        }
    }
}

#[pymethods]
impl PyPwl {
    /// The value at N (a Fraction, int or string such as "7/2"), as a Fraction.
    ///
    /// >>> nimlab.scoring.payoff([5, 4, 2]).eval(3)
    /// Fraction(2, 1)
    fn eval<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, &self.inner.eval(&exact(n)?))
    }

    /// The same as `eval`.
    fn __call__<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        self.eval(py, n)
    }

    /// The breakpoints (N, f(N)) from left to right, as pairs of Fractions.
    fn breakpoints<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
        self.inner
            .breakpoints()
            .iter()
            .map(|(x, y)| Ok((fraction(py, x)?, fraction(py, y)?)))
            .collect()
    }

    /// The linear pieces from left to right: dicts with `lo`, `hi` (None for ∓∞), `slope`
    /// and `intercept` (f = intercept + slope·N on [lo, hi]), the columns of
    /// `nimlab scoring payoff --format csv`.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyTable::new(crate::scoring::pieces_table(&self.inner)).rows(py)
    }

    /// The tails: `c_plus`, `c_minus` (f = c± ± N far out) and the two tail slopes.
    fn tails<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = tails(&self.inner);
        let d = PyDict::new(py);
        d.set_item("c_plus", fraction(py, &t.c_plus)?)?;
        d.set_item("right_slope", fraction(py, &t.right_slope)?)?;
        d.set_item("c_minus", fraction(py, &t.c_minus)?)?;
        d.set_item("left_slope", fraction(py, &t.left_slope)?)?;
        Ok(d)
    }

    /// Two functions are equal when they agree at every N.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPwl>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }

    /// The pieces as `nimlab scoring payoff` prints them: one line per piece, its interval of
    /// N and its formula.
    fn __repr__(&self) -> String {
        let rows: Vec<(String, String)> = self
            .inner
            .pieces()
            .into_iter()
            .map(|p| {
                let interval = piece_interval(p.lo.clone(), p.hi.clone());
                (interval.to_string(), p.formula("N"))
            })
            .collect();
        let width = rows
            .iter()
            .map(|(i, _)| i.chars().count())
            .max()
            .unwrap_or(0)
            .max("piece".len());
        let mut out = format!(
            "{}: piecewise linear in N, {} breakpoint(s)\n{:<width$}  {}\n",
            self.name,
            self.inner.breakpoints().len(),
            "piece",
            self.name
        );
        for (interval, formula) in rows {
            let pad = width - interval.chars().count();
            out.push_str(&format!("{interval}{:pad$}  {formula}\n", ""));
        }
        out
    }

    /// The function as a LaTeX `cases` display, for notebooks.
    fn _repr_latex_(&self) -> String {
        let lines: Vec<String> = self
            .inner
            .pieces()
            .into_iter()
            .map(|p| {
                let domain = match (&p.lo, &p.hi) {
                    (None, None) => "\\text{all } N".to_string(),
                    (None, Some(h)) => format!("N \\le {}", latex_number(h)),
                    (Some(l), None) => format!("N \\ge {}", latex_number(l)),
                    (Some(l), Some(h)) => {
                        format!("{} \\le N \\le {}", latex_number(l), latex_number(h))
                    }
                };
                format!("{} & {domain}", p.formula("N").replace('·', " "))
            })
            .collect();
        format!(
            "$${} = \\begin{{cases}} {} \\end{{cases}}$$",
            self.name,
            lines.join(" \\\\ ")
        )
    }
}

/// A rational in LaTeX: `\frac{7}{2}`, `-\frac{1}{3}`, `5`.
fn latex_number(q: &Q) -> String {
    crate::language::rational_math(q)
}

/// Adds `sub` to `parent` as `nimlab.<name>`, importable as such.
fn add_submodule(parent: &Bound<'_, PyModule>, sub: &Bound<'_, PyModule>) -> PyResult<()> {
    parent.add_submodule(sub)?;
    let modules = parent.py().import("sys")?.getattr("modules")?;
    modules.set_item(format!("nimlab.{}", sub.name()?), sub)
}

/// The extension module `nimlab._nimlab` (the package `nimlab` re-exports it): the classes
/// [`PyPwl`] and [`PyTable`], and one submodule per area.
#[pymodule]
#[pyo3(name = "_nimlab")]
fn nimlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyPwl>()?;
    m.add_class::<PyTable>()?;
    for sub in [
        scoring::module(py)?,
        octal::module(py)?,
        octal::normal_play_module(py)?,
        candy::module(py)?,
        cash::module(py)?,
        research::mining_module(py)?,
        research::claims_module(py)?,
        research::study_module(py)?,
        research::certificates_module(py)?,
    ] {
        add_submodule(m, &sub)?;
    }
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
