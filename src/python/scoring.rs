//! `nimlab.scoring`: Scoring Nim (Oginuma–Shinoda) — the payoff f_N(p) as an exact
//! piecewise-linear function of the bonus N, the optimal moves, an optimal line, the tail
//! constants, and tables of positions and of families, as `nimlab scoring …` prints them.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{
    DEFAULT_MEMORY, PyPwl, PyTable, bonus_grid, exact, int_ranges, interruptible, record, whole,
};
use crate::Family;
use crate::scoring::{
    HeapSize, Limits, Method, Solution, limits_table, line_table, move_regions_table,
    moves_at_table, nim_heaps, optimal_line, plies_table, scoring_nim, solve_many_reporting,
};
use crate::study::TableSpec;

/// Heap sizes from Python, each from 0 to 2³² − 1.
fn heap_sizes(heaps: &[i128]) -> PyResult<Vec<HeapSize>> {
    whole("heap", heaps, u64::from(HeapSize::MAX))
}

/// The payoff algebra by name, as `--method` takes it.
fn method(name: &str) -> PyResult<Method> {
    match name {
        "auto" => Ok(Method::Auto),
        "grid" => Ok(Method::Grid),
        "exact" => Ok(Method::Exact),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "method {other:?}: use auto, grid or exact"
        ))),
    }
}

/// Solves `sizes` (and every position below it), interruptibly.
fn solved(py: Python<'_>, sizes: &[HeapSize]) -> PyResult<Solution> {
    let root = nim_heaps(sizes);
    interruptible(py, |progress| {
        solve_many_reporting(
            &scoring_nim(),
            std::slice::from_ref(&root),
            Method::Auto,
            &Limits {
                max_bytes: DEFAULT_MEMORY,
            },
            progress,
        )
    })
}

/// `(5,4,2)`, as the command line names a position.
fn shown(sizes: &[HeapSize]) -> String {
    let parts: Vec<String> = sizes.iter().map(u32::to_string).collect();
    format!("({})", parts.join(","))
}

/// f_N(p) of Scoring Nim at position `heaps`, exactly, as a function of the bonus N — the
/// pieces `nimlab scoring payoff HEAPS` prints.
///
/// >>> import nimlab
/// >>> f = nimlab.scoring.payoff([5, 4, 2])
/// >>> f.eval(0)
/// Fraction(3, 1)
#[pyfunction]
fn payoff(py: Python<'_>, heaps: Vec<i128>) -> PyResult<PyPwl> {
    let sizes = heap_sizes(&heaps)?;
    let sol = solved(py, &sizes)?;
    let f = sol.payoff(&nim_heaps(&sizes)).map_err(super::value_error)?;
    Ok(PyPwl::new(f, &format!("f_N{}", shown(&sizes))))
}

/// The payoffs of several positions as one table (`position` and the payoff's `breakpoints`,
/// `c_minus`, `c_plus`, `payoff`, or with a bonus grid such as `"0..10"` its `bonus` and
/// `payoff` at each N, in steps of `step`), one solve serving them all.
///
/// >>> t = nimlab.scoring.payoffs([[3, 2, 1], [5, 4, 2]], bonus="0..2")
/// >>> t.columns
/// ['position', 'bonus', 'payoff']
#[pyfunction]
#[pyo3(signature = (positions, bonus = None, step = None, method = "auto"))]
fn payoffs(
    py: Python<'_>,
    positions: Vec<Vec<i128>>,
    bonus: Option<&str>,
    step: Option<&Bound<'_, PyAny>>,
    method: &str,
) -> PyResult<PyTable> {
    let spec = TableSpec::ScoringPayoff {
        positions: positions
            .iter()
            .map(|p| heap_sizes(p))
            .collect::<PyResult<_>>()?,
        grid: bonus_grid(bonus, step)?,
        method: self::method(method)?,
    };
    let t = interruptible(py, |progress| spec.compute(DEFAULT_MEMORY, progress))?;
    Ok(PyTable::new(t))
}

/// The optimal moves from `heaps`: by default for every bonus N, as intervals of N with the
/// moves optimal there (`interval`, `lo`, `lo_closed`, `hi`, `hi_closed`, `moves`); with
/// `bonus=N`, each move's value at N (`to`, `taken`, `points`, `value`, `optimal`), only the
/// optimal ones unless `all=True`.
///
/// >>> nimlab.scoring.moves([3, 2, 1], bonus=0)[0]["to"]
/// [0, 2, 1]
#[pyfunction]
#[pyo3(signature = (heaps, bonus = None, all = false))]
fn moves(
    py: Python<'_>,
    heaps: Vec<i128>,
    bonus: Option<&Bound<'_, PyAny>>,
    all: bool,
) -> PyResult<PyTable> {
    let sizes = heap_sizes(&heaps)?;
    let n = bonus.map(exact).transpose()?;
    let sol = solved(py, &sizes)?;
    let t = match n {
        Some(n) => moves_at_table(&sol, &sizes, &n, all),
        None => move_regions_table(&sol, &sizes),
    };
    Ok(PyTable::new(t.map_err(super::value_error)?))
}

/// An optimal line of play from `heaps` at bonus N: a dict with `bonus`, `first_score`,
/// `second_score`, `payoff` (= f_N of the start) and `plies`, a table with `ply`, `player`,
/// `from`, `to`, `taken`, `points`, `payoff_before`.
///
/// >>> nimlab.scoring.line([3, 2, 1], 1)["payoff"]
/// Fraction(1, 1)
#[pyfunction]
fn line<'py>(
    py: Python<'py>,
    heaps: Vec<i128>,
    bonus: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let sizes = heap_sizes(&heaps)?;
    let n = exact(bonus)?;
    let sol = solved(py, &sizes)?;
    let line = optimal_line(&sol, &nim_heaps(&sizes), &n).map_err(super::value_error)?;
    let d = record(py, &line_table(&line))?;
    d.set_item("plies", PyTable::new(plies_table(&line)))?;
    Ok(d)
}

/// The tail constants of f_N(heaps) and the position's Nim data, as `nimlab scoring limits`
/// prints them: `position`, `stones`, `nim_sum`, `in_p_plus`, `in_p_minus`, `c_plus`,
/// `right_slope`, `c_minus`, `left_slope`, `first_breakpoint`, `last_breakpoint`.
///
/// >>> nimlab.scoring.limits([5, 4, 2])["c_plus"]
/// Fraction(-3, 1)
#[pyfunction]
fn limits<'py>(py: Python<'py>, heaps: Vec<i128>) -> PyResult<Bound<'py, PyDict>> {
    let sizes = heap_sizes(&heaps)?;
    let sol = solved(py, &sizes)?;
    let f = sol.payoff(&nim_heaps(&sizes)).map_err(super::value_error)?;
    record(py, &limits_table(&sizes, &f))
}

/// A family of positions whose heaps are affine in parameters, e.g. `"2k+1, 2k, 1"` with
/// `ranges={"k": "1..20"}` (or `range(1, 21)`, or `(1, 20)`): the parameters, `h1`, `h2`, …
/// and each member's payoff (a `Pwl` in the `payoff` column), or its values on a bonus grid —
/// `nimlab scoring family`.
///
/// >>> t = nimlab.scoring.family("2k+1, 2k, 1", {"k": "1..5"})
/// >>> t[0]["payoff"](0)
/// Fraction(2, 1)
#[pyfunction]
#[pyo3(signature = (family, ranges, bonus = None, step = None, method = "auto"))]
fn family(
    py: Python<'_>,
    family: &str,
    ranges: &Bound<'_, PyDict>,
    bonus: Option<&str>,
    step: Option<&Bound<'_, PyAny>>,
    method: &str,
) -> PyResult<PyTable> {
    let spec = TableSpec::ScoringFamily {
        family: family.parse::<Family>().map_err(super::value_error)?,
        ranges: int_ranges(ranges)?,
        grid: bonus_grid(bonus, step)?,
        method: self::method(method)?,
    };
    let t = interruptible(py, |progress| spec.compute(DEFAULT_MEMORY, progress))?;
    Ok(PyTable::new(t))
}

/// The submodule `nimlab.scoring`.
pub(super) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "scoring")?;
    m.add_function(wrap_pyfunction!(payoff, &m)?)?;
    m.add_function(wrap_pyfunction!(payoffs, &m)?)?;
    m.add_function(wrap_pyfunction!(moves, &m)?)?;
    m.add_function(wrap_pyfunction!(line, &m)?)?;
    m.add_function(wrap_pyfunction!(limits, &m)?)?;
    m.add_function(wrap_pyfunction!(family, &m)?)?;
    Ok(m)
}
