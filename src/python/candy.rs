//! `nimlab.candy`: Candy Nim (Mani et al.) — V = N_L − N_W with an optimal line, the
//! P-positions of k heaps, affine families, the flip-flop and fractal strategies against the
//! optimum, and the allocations of N candies, as `nimlab candy …` prints them.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{DEFAULT_MEMORY, PyTable, int_ranges, interruptible, record, whole};
use crate::candy::{
    Contraction, MAX_ALLOCATION, Reading, Strategy, TableShape, allocation_cost, allocation_table,
    allocations, line_table, optimal_line, p_position_columns, p_position_row, p_position_table,
    p_position_table_bytes, p_positions, play_strategy, strategy_table, turns_table, value_table,
    value_with,
};
use crate::study::TableSpec;
use crate::{Family, Table};

/// Candies per heap, each from 0 to 2³² − 1.
fn candies(heaps: &[i128]) -> PyResult<Vec<u32>> {
    whole("heap", heaps, u64::from(u32::MAX))
}

/// V, N_L and N_W of `heaps` with an optimal line of play, as `nimlab candy value` prints
/// them: a dict with `position`, `to_move`, `candies`, `nim_sum`, `v`, `n_l`, `n_w` and
/// `line`, a table with `ply`, `player`, `heap` (from 1), `taken`, `after`, `luca_total`,
/// `windsor_total`.
///
/// >>> nimlab.candy.value([3, 2, 1])["v"]
/// 2
#[pyfunction]
fn value<'py>(py: Python<'py>, heaps: Vec<i128>) -> PyResult<Bound<'py, PyDict>> {
    let heaps = candies(&heaps)?;
    let (v, line) = interruptible(py, |progress| {
        let shape = TableShape::covering(std::slice::from_ref(&heaps))?;
        let table = shape.solve(DEFAULT_MEMORY, progress)?;
        Ok((
            value_with(table.as_ref(), &heaps)?,
            optimal_line(table.as_ref(), &heaps)?,
        ))
    })?;
    let d = record(py, &value_table(&heaps, &v))?;
    d.set_item("line", PyTable::new(line_table(&line)))?;
    Ok(d)
}

/// Every P-position of `heaps` heaps of 1 to `max_heap` candies (heaps in decreasing order)
/// with V, N_L and N_W, as `nimlab candy table --heaps K --max-heap H` prints them.
///
/// >>> nimlab.candy.table(3, 3)[0]
/// {'h1': 3, 'h2': 2, 'h3': 1, 'v': 2, 'n_l': 4, 'n_w': 2}
#[pyfunction]
fn table(py: Python<'_>, heaps: usize, max_heap: i128) -> PyResult<PyTable> {
    let h = whole::<u32>("max_heap", &[max_heap], u64::from(u32::MAX))?[0];
    if heaps < 2 {
        return Err(PyValueError::new_err(format!(
            "heaps = {heaps}: a P-position with no empty heap needs at least 2 heaps"
        )));
    }
    if h == 0 {
        return Err(PyValueError::new_err(
            "max_heap = 0: every heap would be empty; P-positions have heaps of 1 to max_heap candies",
        ));
    }
    if p_position_table_bytes(heaps, h).is_none_or(|b| b > u128::from(DEFAULT_MEMORY)) {
        return Err(PyValueError::new_err(format!(
            "heaps = {heaps}, max_heap = {h}: the value table needs more than {} GiB",
            DEFAULT_MEMORY >> 30
        )));
    }
    let t = interruptible(py, |progress| {
        let values = p_position_table(heaps, h).solve(DEFAULT_MEMORY, progress)?;
        let mut t = Table {
            columns: p_position_columns(heaps),
            rows: Vec::new(),
        };
        for p in p_positions(heaps, h) {
            let v = values
                .p_value(&p)
                .ok_or_else(|| crate::Error::invalid(format!("{p:?} is not in the value table")))?;
            t.push(p_position_row(&p, v));
        }
        Ok(t)
    })?;
    Ok(PyTable::new(t))
}

/// A family of positions whose heaps are affine in parameters, e.g. `"31, 32m, 32m+31"` with
/// `ranges={"m": "1..10"}`: the parameters, `h1`, `h2`, …, `v`, `n_l`, `n_w` —
/// `nimlab candy family`.
///
/// >>> nimlab.candy.family("1, 2k, 2k+1", {"k": "1..3"}).column("v")
/// [2, 4, 6]
#[pyfunction]
fn family(py: Python<'_>, family: &str, ranges: &Bound<'_, PyDict>) -> PyResult<PyTable> {
    let spec = TableSpec::CandyFamily {
        family: family.parse::<Family>().map_err(super::value_error)?,
        ranges: int_ranges(ranges)?,
    };
    let t = interruptible(py, |progress| spec.compute(DEFAULT_MEMORY, progress))?;
    Ok(PyTable::new(t))
}

/// A named strategy from the 3-heap P-position `heaps` (standard form [2^k−1, 2^k·m,
/// 2^k(m+1)−1]) against the optimum, as `nimlab candy strategy` prints it: a dict with
/// `position`, `strategy`, `v_strategy`, `v_optimal`, `n_l_strategy`, `n_l_optimal` and
/// `turns`, a table of G, G′, G″ per turn.
///
/// `name` is `"flip-flop"` (Def 4.2) or `"fractal"` (Def 4.7), whose `f` is `"half"` (⌊a/2⌋,
/// Theorem 4.8), `"identity"` or a list f(1), f(2), … (f(a) = a beyond it), and whose
/// `reading` of step (3) moves the `"largest"` heap (as Figure 2 and the proofs do) or the
/// `"smallest"` (as Def 4.7 is written).
///
/// >>> nimlab.candy.strategy("flip-flop", [7, 8, 15])["v_optimal"]
/// 18
#[pyfunction]
#[pyo3(signature = (name, heaps, f = None, reading = "largest"))]
fn strategy<'py>(
    py: Python<'py>,
    name: &str,
    heaps: Vec<i128>,
    f: Option<&Bound<'py, PyAny>>,
    reading: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let heaps = candies(&heaps)?;
    let strategy = match name {
        "flip-flop" | "flip_flop" => Strategy::FlipFlop,
        "fractal" => Strategy::Fractal {
            f: contraction(f)?,
            reading: match reading {
                "largest" => Reading::Largest,
                "smallest" => Reading::Smallest,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "reading {other:?}: use \"largest\" or \"smallest\""
                    )));
                }
            },
        },
        other => {
            return Err(PyValueError::new_err(format!(
                "strategy {other:?}: use \"flip-flop\" or \"fractal\""
            )));
        }
    };
    let (play, optimum) = interruptible(py, |progress| {
        let shape = TableShape::covering(std::slice::from_ref(&heaps))?;
        let table = shape.solve(DEFAULT_MEMORY, progress)?;
        let play = play_strategy(&strategy, &heaps)?;
        Ok((play, value_with(table.as_ref(), &heaps)?))
    })?;
    let d = record(py, &strategy_table(&heaps, &strategy, &play, &optimum))?;
    d.set_item("turns", PyTable::new(turns_table(&play)))?;
    Ok(d)
}

/// The fractal strategy's f: `"half"`, `"identity"`, or f(1), f(2), … as a list.
fn contraction(f: Option<&Bound<'_, PyAny>>) -> PyResult<Contraction> {
    let Some(f) = f else {
        return Ok(Contraction::Half);
    };
    if let Ok(name) = f.extract::<String>() {
        return match name.as_str() {
            "half" => Ok(Contraction::Half),
            "identity" => Ok(Contraction::Identity),
            other => Err(PyValueError::new_err(format!(
                "f = {other:?}: use \"half\", \"identity\" or a list f(1), f(2), …"
            ))),
        };
    }
    let values: Vec<i128> = f.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "f = {}: use \"half\", \"identity\" or a list f(1), f(2), …",
            super::shown(f)
        ))
    })?;
    Contraction::table(whole("f value", &values, u64::from(u32::MAX))?).map_err(super::value_error)
}

/// For each even N up to `max_candies` (or `candies` alone), the least and largest N_W over the
/// P-positions of N candies and the arrangements attaining them, as `nimlab candy allocate`
/// prints them (every arrangement listed).
///
/// >>> nimlab.candy.allocation(candies=6)[0]["min_nw"]
/// 2
#[pyfunction]
#[pyo3(signature = (*, candies = None, max_candies = None))]
fn allocation(
    py: Python<'_>,
    candies: Option<i128>,
    max_candies: Option<i128>,
) -> PyResult<PyTable> {
    let (what, n, only) = match (candies, max_candies) {
        (Some(n), None) => ("candies", n, true),
        (None, Some(n)) => ("max_candies", n, false),
        _ => {
            return Err(PyValueError::new_err(
                "give candies=N (one even N) or max_candies=N (every even N up to it)",
            ));
        }
    };
    let n: u32 = whole(what, &[n], u64::from(MAX_ALLOCATION))?[0];
    if n < 2 || n % 2 == 1 {
        return Err(PyValueError::new_err(format!(
            "{what} = {n}: a P-position holds an even number of candies, at least 2"
        )));
    }
    if allocation_cost(n).bytes > u128::from(DEFAULT_MEMORY) {
        return Err(PyValueError::new_err(format!(
            "{what} = {n}: solving every P-position of at most {n} candies needs more than {} GiB",
            DEFAULT_MEMORY >> 30
        )));
    }
    let evens: Vec<u32> = if only {
        vec![n]
    } else {
        (2..=n).step_by(2).collect()
    };
    let rows = interruptible(py, |progress| allocations(&evens, progress))?;
    Ok(PyTable::new(allocation_table(&rows)))
}

/// The submodule `nimlab.candy`.
pub(super) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "candy")?;
    m.add_function(wrap_pyfunction!(value, &m)?)?;
    m.add_function(wrap_pyfunction!(table, &m)?)?;
    m.add_function(wrap_pyfunction!(family, &m)?)?;
    m.add_function(wrap_pyfunction!(strategy, &m)?)?;
    m.add_function(wrap_pyfunction!(allocation, &m)?)?;
    Ok(m)
}
