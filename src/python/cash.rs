//! `nimlab.cash`: NIM with Cash (Gasarch et al.) — who wins a state (n; d, e) and why, the
//! thresholds f and g, the whole win table, the certified closed forms of f^I and f^II, the
//! proven win condition on A-critical states, and surveys of move sets, as `nimlab cash …` and
//! `nimlab mine cash` print them.

use num_bigint::{BigInt, BigUint, Sign};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{DEFAULT_MEMORY, PyTable, int_range, interruptible, record, whole};
use crate::Table;
use crate::cash::{
    CASH_SURVEY_CHUNK, CashSet, SWEEP_COLUMNS, WinCondition, certified_forms_table,
    decide_reporting, decision_table, survey_items_in_chunks, survey_sets, sweep_cells,
    threshold_forms, win_condition_table, win_condition_text,
};
use crate::study::TableSpec;

/// The move set A from a list of positive integers.
fn move_set(set: &[i128]) -> PyResult<CashSet> {
    CashSet::new(whole("move", set, u64::MAX)?).map_err(super::value_error)
}

/// A whole number of any size (n, d or e of a state).
fn natural(what: &str, value: &BigInt) -> PyResult<BigUint> {
    match value.sign() {
        Sign::Minus => Err(PyValueError::new_err(format!(
            "{what} = {value}: must be a whole number, 0 or more"
        ))),
        _ => Ok(value.magnitude().clone()),
    }
}

/// Who wins the state (n; d, e) of NIM with Cash with move set `set` — n stones, the player to
/// move holding d dollars and the other e, of any size — and why, as `nimlab cash winner`
/// prints it: a dict with `set`, `n`, `d`, `e` (ints), `winner`, `plain_winner`, `why`; with
/// `classify=True` also `f1`, `f2`, `g1`, `g2`, `player_i` and `player_ii`, as `nimlab cash
/// classify`.
///
/// >>> nimlab.cash.winner([1, 2], 10, 3, 5)["winner"]
/// 'II'
#[pyfunction]
#[pyo3(signature = (set, n, d, e, classify = false))]
fn winner<'py>(
    py: Python<'py>,
    set: Vec<i128>,
    n: BigInt,
    d: BigInt,
    e: BigInt,
    classify: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let set = move_set(&set)?;
    let (n, d, e) = (natural("n", &n)?, natural("d", &d)?, natural("e", &e)?);
    let decision = interruptible(py, |progress| {
        decide_reporting(&set, &n, &d, &e, DEFAULT_MEMORY, progress)
    })?;
    let row = record(py, &decision_table(&set, (&n, &d, &e), &decision, classify))?;
    // Numbers of any size are text in the table (one JSON type per column); here, ints.
    row.set_item("n", BigInt::from(n))?;
    row.set_item("d", BigInt::from(d))?;
    row.set_item("e", BigInt::from(e))?;
    Ok(row)
}

/// f^I, f^II, g^I and g^II by heap size n ≤ `max_n` with the plain winner, and (unless
/// `defined_only`) the true least thresholds beside Def 2.3's, as `nimlab cash thresholds`
/// prints them.
///
/// >>> nimlab.cash.thresholds([1, 4], 20).columns[:2]
/// ['n', 'winner']
#[pyfunction]
#[pyo3(signature = (set, max_n, defined_only = false))]
fn thresholds(
    py: Python<'_>,
    set: Vec<i128>,
    max_n: i128,
    defined_only: bool,
) -> PyResult<PyTable> {
    let spec = TableSpec::CashThresholds {
        set: move_set(&set)?,
        max_n: whole("max_n", &[max_n], u64::MAX)?[0],
        defined_only,
    };
    let t = interruptible(py, |progress| spec.compute(DEFAULT_MEMORY, progress))?;
    Ok(PyTable::new(t))
}

/// Every state (n; d, e) with n, d, e ≤ `max_n` and its winner, as `nimlab cash table` prints
/// it.
#[pyfunction]
fn table(py: Python<'_>, set: Vec<i128>, max_n: i128) -> PyResult<PyTable> {
    let spec = TableSpec::CashTable {
        set: move_set(&set)?,
        max_n: whole("max_n", &[max_n], u64::MAX)?[0],
    };
    let t = interruptible(py, |progress| spec.compute(DEFAULT_MEMORY, progress))?;
    Ok(PyTable::new(t))
}

/// The closed forms of f^I and f^II, fitted on n ≤ `max_n` and certified for every n from the
/// certificate's start, as `nimlab mine cash` prints them (one row per residue line).
///
/// >>> nimlab.cash.forms([1, 2])[0]["sequence"]
/// 'f1'
#[pyfunction]
#[pyo3(signature = (set, max_n = 2000))]
fn forms(py: Python<'_>, set: Vec<i128>, max_n: i128) -> PyResult<PyTable> {
    let set = move_set(&set)?;
    let max_n = whole("max_n", &[max_n], u64::MAX)?[0];
    let forms = interruptible(py, |_| threshold_forms(&set, max_n))?;
    Ok(PyTable::new(certified_forms_table(&forms)))
}

/// The win condition on A-critical states (both players middle class), PROVEN for every n
/// from its start, as `nimlab cash condition` finds it: a dict with `text` (the condition in
/// words) and `parts` (the table `--format csv` prints). The search starts with the win table
/// up to `start_n` and grows it until the proof closes.
#[pyfunction]
#[pyo3(signature = (set, start_n = 200))]
fn condition<'py>(py: Python<'py>, set: Vec<i128>, start_n: i128) -> PyResult<Bound<'py, PyDict>> {
    let set = move_set(&set)?;
    let start_n = whole("start_n", &[start_n], u64::MAX)?[0];
    let wc = interruptible(py, |progress| {
        WinCondition::find_reporting(&set, start_n, DEFAULT_MEMORY, progress)
    })?;
    let d = PyDict::new(py);
    d.set_item("text", win_condition_text(&wc))?;
    d.set_item("parts", PyTable::new(win_condition_table(&wc)))?;
    Ok(d)
}

/// Every move set A ⊆ `elements` (a range such as `"1..6"`, of the sizes in `sizes` when
/// given) with its plain period, whether it is cash-periodic, the periods and slopes of f^I
/// and f^II's certified forms (fitted on n ≤ `max_n`) and its win condition's status, as
/// `nimlab cash survey --set-subsets-of` prints it.
///
/// >>> nimlab.cash.survey("1..3")[0]["cash"]
/// 'periodic'
#[pyfunction]
#[pyo3(signature = (elements, sizes = None, max_n = 400))]
fn survey(
    py: Python<'_>,
    elements: &Bound<'_, PyAny>,
    sizes: Option<&Bound<'_, PyAny>>,
    max_n: i128,
) -> PyResult<PyTable> {
    let elements = int_range("elements", elements)?;
    let sizes = sizes.map(|s| int_range("sizes", s)).transpose()?;
    let max_n = whole("max_n", &[max_n], u64::MAX)?[0];
    let t = interruptible(py, |progress| {
        let count = survey_sets(elements, sizes)?.len() as u64;
        // Each thread searches one set's win condition at a time within its share.
        let win_bytes = DEFAULT_MEMORY / rayon::current_num_threads().max(1) as u64;
        let mut t = Table::new(&SWEEP_COLUMNS);
        survey_items_in_chunks(
            elements,
            sizes,
            0..count,
            max_n,
            win_bytes,
            CASH_SURVEY_CHUNK,
            progress,
            |rows| {
                t.rows
                    .extend(rows.iter().map(|(row, win)| sweep_cells(row, win)));
                Ok(())
            },
        )?;
        Ok(t)
    })?;
    Ok(PyTable::new(t))
}

/// The submodule `nimlab.cash`.
pub(super) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "cash")?;
    m.add_function(wrap_pyfunction!(winner, &m)?)?;
    m.add_function(wrap_pyfunction!(thresholds, &m)?)?;
    m.add_function(wrap_pyfunction!(table, &m)?)?;
    m.add_function(wrap_pyfunction!(forms, &m)?)?;
    m.add_function(wrap_pyfunction!(condition, &m)?)?;
    m.add_function(wrap_pyfunction!(survey, &m)?)?;
    Ok(m)
}
