//! The Python extension module `nimlab` (feature `python`, built by `pip install .` through
//! maturin): the engines from Python, with exact numbers as `fractions.Fraction`.
//!
//! It calls only the library's public facade, as any Rust caller would. Numbers cross the
//! boundary exactly: a `Fraction`, `int` or string such as `"7/2"` in, a `Fraction` out; a
//! `float` is refused, since it is not the number the user meant. Bad input raises
//! `ValueError` naming the value, as the command line exits 2; long solves release the GIL.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList};

use crate::mining::PeriodStatus;
use crate::normal_play::{GrundyPeriod, TakeBreakCode};
use crate::scoring::{Interval, Method, nim_heaps, scoring_nim, solve, tails};
use crate::{Pwl, Q, Silent};

/// A library error as the `ValueError` a Python caller expects.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `q` as a `fractions.Fraction`.
fn fraction<'py>(py: Python<'py>, q: &Q) -> PyResult<Bound<'py, PyAny>> {
    py.import("fractions")?
        .getattr("Fraction")?
        .call1((q.to_string(),))
}

/// An exact number from Python: a `Fraction`, an `int` or a string such as `"7/2"`.
fn exact(value: &Bound<'_, PyAny>) -> PyResult<Q> {
    if value.is_instance_of::<PyFloat>() {
        return Err(PyValueError::new_err(format!(
            "{} is a float, which is inexact; pass a Fraction, an int or a string such as '7/2'",
            value.repr()?
        )));
    }
    let text = value.str()?.to_string();
    text.trim().parse::<Q>().map_err(|_| {
        let shown = value.repr().map_or(text.clone(), |r| r.to_string());
        PyValueError::new_err(format!(
            "{shown} is not an exact number; pass a Fraction, an int or a string such as '7/2'"
        ))
    })
}

/// A piecewise-linear function of the bonus N with exact rational breakpoints.
#[pyclass(name = "Pwl", module = "nimlab", frozen)]
struct PyPwl {
    inner: Pwl,
    /// What the function is, e.g. `f_N(5,4,2)`.
    name: String,
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
        let rows = PyList::empty(py);
        for p in self.inner.pieces() {
            let row = PyDict::new(py);
            let end = |q: &Option<Q>| -> PyResult<Option<Bound<'py, PyAny>>> {
                q.as_ref().map(|q| fraction(py, q)).transpose()
            };
            row.set_item("lo", end(&p.lo)?)?;
            row.set_item("hi", end(&p.hi)?)?;
            row.set_item("slope", fraction(py, &p.slope)?)?;
            row.set_item("intercept", fraction(py, &p.intercept)?)?;
            rows.append(row)?;
        }
        Ok(rows)
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

    /// The pieces as `nimlab scoring payoff` prints them: one line per piece, its interval of
    /// N and its formula.
    fn __repr__(&self) -> String {
        let rows: Vec<(String, String)> = self
            .inner
            .pieces()
            .into_iter()
            .map(|p| {
                let interval = Interval {
                    lo_closed: p.lo.is_some(),
                    lo: p.lo.clone(),
                    hi_closed: p.hi.is_some(),
                    hi: p.hi.clone(),
                };
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
                    (None, Some(h)) => format!("N \\le {h}"),
                    (Some(l), None) => format!("N \\ge {l}"),
                    (Some(l), Some(h)) => format!("{l} \\le N \\le {h}"),
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

/// f_N(p) of Scoring Nim at position `heaps` (Oginuma–Shinoda), exactly, as a function of
/// the bonus N.
///
/// >>> import nimlab
/// >>> f = nimlab.scoring.payoff([5, 4, 2])
/// >>> f.eval(0)
/// Fraction(3, 1)
#[pyfunction]
fn payoff(py: Python<'_>, heaps: Vec<i64>) -> PyResult<PyPwl> {
    let sizes = heaps
        .iter()
        .map(|&h| {
            u32::try_from(h).map_err(|_| {
                PyValueError::new_err(format!(
                    "heap {h}: heaps are whole numbers from 0 to {}",
                    u32::MAX
                ))
            })
        })
        .collect::<PyResult<Vec<u32>>>()?;
    let position = nim_heaps(&sizes);
    let f = py
        .detach(|| {
            solve(&scoring_nim(), &position, Method::Auto, &Default::default())
                .and_then(|s| s.payoff(&position))
        })
        .map_err(value_error)?;
    let shown: Vec<String> = sizes.iter().map(u32::to_string).collect();
    Ok(PyPwl {
        inner: f,
        name: format!("f_N({})", shown.join(",")),
    })
}

/// A take-and-break code from Python: `"0.77"`, `"0.3F"`, `"{4,5}"`.
fn parse_code(text: &str) -> PyResult<TakeBreakCode> {
    text.parse().map_err(value_error)
}

/// The Sprague–Grundy values g(0), …, g(max_heap) of an octal or hexadecimal code in normal
/// play, as `nimlab octal grundy CODE --max-heap N` prints them.
///
/// >>> nimlab.normal_play.grundy("0.77", 6)
/// [0, 1, 2, 3, 1, 4, 3]
#[pyfunction]
fn grundy(py: Python<'_>, code: &str, max_heap: u32) -> PyResult<Vec<u32>> {
    let c = parse_code(code)?;
    Ok(py.detach(|| c.grundy_values(max_heap, &Silent)))
}

/// The least preperiod and period of a code's Grundy values, as `nimlab octal period
/// --normal-play` finds them: a dict with `preperiod`, `period`, `saltus`, `status` (PROVEN,
/// OBSERVED or NONE), `last_exceptional` and `argument`.
///
/// >>> nimlab.normal_play.period("0.77")["period"]
/// 12
#[pyfunction]
#[pyo3(signature = (code, max_heap = 1 << 20))]
fn period<'py>(py: Python<'py>, code: &str, max_heap: u32) -> PyResult<Bound<'py, PyDict>> {
    let c = parse_code(code)?;
    let budget = if c.is_octal() { u128::MAX } else { 1 << 35 };
    let r = py.detach(|| c.period(max_heap, budget, &Silent));
    let d = PyDict::new(py);
    d.set_item("code", c.to_string())?;
    let (pre, per, saltus, status) = match &r.shape {
        GrundyPeriod::Periodic(p) => (
            Some(p.preperiod),
            Some(p.period),
            Some(0),
            if matches!(p.status, PeriodStatus::Proven { .. }) {
                "PROVEN"
            } else {
                "OBSERVED"
            },
        ),
        GrundyPeriod::ArithmeticPeriodic(a) => (
            Some(a.preperiod),
            Some(a.period),
            Some(a.saltus),
            "OBSERVED",
        ),
        GrundyPeriod::Unknown => (None, None, None, "NONE"),
    };
    d.set_item("preperiod", pre)?;
    d.set_item("period", per)?;
    d.set_item("saltus", saltus)?;
    d.set_item("status", status)?;
    d.set_item("last_exceptional", r.last_exceptional())?;
    d.set_item("argument", &r.argument)?;
    Ok(d)
}

/// The module `nimlab`, with the submodules `nimlab.scoring` and `nimlab.normal_play`.
#[pymodule]
fn nimlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyPwl>()?;
    let scoring = PyModule::new(py, "scoring")?;
    scoring.add_function(wrap_pyfunction!(payoff, &scoring)?)?;
    let normal = PyModule::new(py, "normal_play")?;
    normal.add_function(wrap_pyfunction!(grundy, &normal)?)?;
    normal.add_function(wrap_pyfunction!(period, &normal)?)?;
    let modules = py.import("sys")?.getattr("modules")?;
    for sub in [scoring, normal] {
        m.add_submodule(&sub)?;
        // `import nimlab.scoring` finds the submodule too.
        modules.set_item(format!("nimlab.{}", sub.name()?), &sub)?;
    }
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
