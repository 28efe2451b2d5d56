//! `nimlab.octal` and `nimlab.normal_play`: take-and-break games. Scoring play is Stewart's
//! scoring octal and subtraction games — the values G(n) with a bonus N for the last move and
//! their least period, a position's value and outcome (`nimlab octal values|period|value|
//! outcome`); normal play is the Sprague–Grundy values
//! of octal and hexadecimal codes and their period (`nimlab octal grundy`, `octal period
//! --normal-play`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{DEFAULT_MEMORY, PyTable, exact, interruptible, record, whole};
use crate::normal_play::{TakeBreakCode, normal_period_table};
use crate::scoring::{
    Heap, HeapSequence, HeapSize, Limits, Method, ScoringGame, outcome_table, period_table,
    position_value_table, solve, solve_values_reporting,
};
use crate::study::{OctalRulesSpec, TableSpec, octal_ruleset};
use crate::{Cell, Q};

/// The largest heap a scoring period search examines unless told otherwise, as `nimlab octal
/// period` does.
const SCORING_PERIOD_MAX_HEAP: HeapSize = 100_000;

/// The largest heap a normal-play period search examines unless told otherwise: enough for
/// 0.16 (period 149459 from n = 105351).
const NORMAL_PLAY_MAX_HEAP: HeapSize = 1 << 20;

/// Options a hexadecimal code's period search may examine (about 30 s), as the CLI allows.
const NORMAL_PLAY_MAX_OPTIONS: u128 = 1 << 35;

/// The ruleset from `rules` (an octal code `"0.07"`, Stewart's `"(07, 12)"`, `"{4,5}"`,
/// `"nim"`) or `subtract` (a subtraction set, with `points` for its elements).
fn ruleset(
    rules: Option<&str>,
    subtract: Option<Vec<i128>>,
    points: Option<Vec<Bound<'_, PyAny>>>,
) -> PyResult<OctalRulesSpec> {
    match (rules, subtract) {
        (Some(code), None) => {
            if points.is_some() {
                return Err(PyValueError::new_err(format!(
                    "points apply to subtract=…; write the points into the code instead (Stewart's \"(d1d2…, p1p2…)\"), not {code:?}"
                )));
            }
            Ok(OctalRulesSpec::Rules(code.to_string()))
        }
        (None, Some(set)) => Ok(OctalRulesSpec::Subtract {
            set: whole("subtraction", &set, u64::from(HeapSize::MAX))?,
            points: points
                .map(|p| p.iter().map(exact).collect::<PyResult<Vec<Q>>>())
                .transpose()?,
        }),
        (Some(code), Some(_)) => Err(PyValueError::new_err(format!(
            "rules={code:?} and subtract=… both given; give one"
        ))),
        (None, None) => Err(PyValueError::new_err(
            "give rules (e.g. \"0.07\") or subtract (e.g. [1, 2])",
        )),
    }
}

/// The bonus N of a scoring game (0: Stewart's G_s).
fn bonus_value(bonus: &Bound<'_, PyAny>) -> PyResult<Q> {
    exact(bonus)
}

/// The values G(0), …, G(max_heap) of a scoring octal or subtraction game with bonus N for the
/// last move (N = 0: Stewart's G_s), as `nimlab octal values` prints them (`n`, `value`).
///
/// >>> nimlab.octal.values("0.07", max_heap=4).column("value")
/// [Fraction(0, 1), Fraction(0, 1), Fraction(2, 1), Fraction(2, 1), Fraction(2, 1)]
#[pyfunction]
#[pyo3(signature = (rules = None, *, max_heap, subtract = None, points = None, bonus = None))]
fn values(
    py: Python<'_>,
    rules: Option<&str>,
    max_heap: i128,
    subtract: Option<Vec<i128>>,
    points: Option<Vec<Bound<'_, PyAny>>>,
    bonus: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyTable> {
    let spec = TableSpec::OctalValues {
        rules: ruleset(rules, subtract, points)?,
        max_heap: whole("max_heap", &[max_heap], u64::from(HeapSize::MAX))?[0],
        bonus: bonus.map(bonus_value).transpose()?.unwrap_or_else(Q::zero),
    };
    let t = interruptible(py, |progress| spec.compute(DEFAULT_MEMORY, progress))?;
    Ok(PyTable::new(t))
}

/// The least preperiod and period of a scoring game's values G(n), as `nimlab octal period`
/// finds them: a dict with `rules`, `plus`, `bonus`, `preperiod`, `period`, `status` (PROVEN,
/// OBSERVED or NONE), `window`, `periods_seen`, `terms` and `argument`.
///
/// >>> nimlab.octal.period(subtract=[1, 2])["period"]
/// 4
#[pyfunction]
#[pyo3(signature = (rules = None, *, subtract = None, points = None, bonus = None, max_heap = None))]
fn period<'py>(
    py: Python<'py>,
    rules: Option<&str>,
    subtract: Option<Vec<i128>>,
    points: Option<Vec<Bound<'py, PyAny>>>,
    bonus: Option<&Bound<'py, PyAny>>,
    max_heap: Option<i128>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = ruleset(rules, subtract, points)?;
    let bonus = bonus.map(bonus_value).transpose()?.unwrap_or_else(Q::zero);
    let max_heap = match max_heap {
        Some(h) => whole("max_heap", &[h], u64::from(HeapSize::MAX))?[0],
        None => SCORING_PERIOD_MAX_HEAP,
    };
    let game = ScoringGame::new(vec![octal_ruleset(&spec).map_err(super::value_error)?]);
    let seq = HeapSequence::new(&game, 0, &[], bonus.clone()).map_err(super::value_error)?;
    let limits = Limits {
        max_bytes: DEFAULT_MEMORY,
    };
    let report = interruptible(py, |progress| {
        seq.period_reporting(max_heap, &limits, progress)
    })?;
    let plus = Cell::list("", ",", "", std::iter::empty::<u64>());
    record(py, &period_table(&game.describe(), plus, &bonus, &report))
}

/// A position of a one-ruleset scoring game with its value G at a bonus.
struct Valued {
    game: ScoringGame,
    heaps: Vec<Heap>,
    limits: Limits,
    bonus: Q,
    value: Q,
    /// Positions the solve visited.
    solved: usize,
}

/// Solves the position `heaps` of the game `spec` at `bonus` (0 unless given), interruptibly,
/// after checking the heaps against the memory a solve may use.
fn valued(
    py: Python<'_>,
    spec: OctalRulesSpec,
    heaps: &[i128],
    bonus: Option<&Bound<'_, PyAny>>,
) -> PyResult<Valued> {
    let bonus = bonus.map(bonus_value).transpose()?.unwrap_or_else(Q::zero);
    let game = ScoringGame::new(vec![octal_ruleset(&spec).map_err(super::value_error)?]);
    let heaps: Vec<Heap> = whole::<HeapSize>("heap", heaps, u64::from(HeapSize::MAX))?
        .into_iter()
        .map(|size| Heap { size, rules: 0 })
        .collect();
    let limits = Limits {
        max_bytes: DEFAULT_MEMORY,
    };
    HeapSequence::check_position(&game, &heaps, &limits).map_err(super::value_error)?;
    let (value, solved) = interruptible(py, |progress| {
        let roots = std::slice::from_ref(&heaps);
        let v = solve_values_reporting(&game, roots, &bonus, &limits, progress)?;
        Ok((v.value(&heaps)?, v.positions()))
    })?;
    Ok(Valued {
        game,
        heaps,
        limits,
        bonus,
        value,
        solved,
    })
}

/// The value G of a position (a disjunctive sum of heaps) of a scoring octal game at bonus N,
/// as `nimlab octal value` prints it: a dict with `position`, `bonus`, `value`, `outcome` (on
/// an empty scoreboard) and `positions_solved`, and with `payoff=True` the payoff f_N as a
/// `Pwl` of N.
///
/// >>> nimlab.octal.value([7, 5], "0.26")["value"]
/// Fraction(2, 1)
#[pyfunction]
#[pyo3(signature = (heaps, rules = None, *, subtract = None, points = None, bonus = None, payoff = false))]
fn value<'py>(
    py: Python<'py>,
    heaps: Vec<i128>,
    rules: Option<&str>,
    subtract: Option<Vec<i128>>,
    points: Option<Vec<Bound<'py, PyAny>>>,
    bonus: Option<&Bound<'py, PyAny>>,
    payoff: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let p = valued(py, ruleset(rules, subtract, points)?, &heaps, bonus)?;
    let f = if payoff {
        let solved = interruptible(py, |_| solve(&p.game, &p.heaps, Method::Auto, &p.limits))?;
        Some(solved.payoff(&p.heaps).map_err(super::value_error)?)
    } else {
        None
    };
    let t = position_value_table(&p.game, &p.heaps, &p.bonus, &p.value, p.solved, f.as_ref());
    record(py, &t)
}

/// The outcome of a position with `score` already on the board (Stewart's classes L, R, N, P,
/// T), as `nimlab octal outcome` prints it: `position`, `score`, `bonus`, `value`,
/// `left_final`, `right_final` and `outcome`.
///
/// >>> nimlab.octal.outcome([7, 5], "0.26", score=3)["outcome"]
/// 'L'
#[pyfunction]
#[pyo3(signature = (heaps, rules = None, *, subtract = None, points = None, bonus = None, score = None))]
fn outcome<'py>(
    py: Python<'py>,
    heaps: Vec<i128>,
    rules: Option<&str>,
    subtract: Option<Vec<i128>>,
    points: Option<Vec<Bound<'py, PyAny>>>,
    bonus: Option<&Bound<'py, PyAny>>,
    score: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let score = score.map(exact).transpose()?.unwrap_or_else(Q::zero);
    let p = valued(py, ruleset(rules, subtract, points)?, &heaps, bonus)?;
    record(
        py,
        &outcome_table(&p.game, &p.heaps, &score, &p.bonus, &p.value),
    )
}

/// A take-and-break code from Python: `"0.77"`, `"0.3F"`, `"{4,5}"`.
fn parse_code(text: &str) -> PyResult<TakeBreakCode> {
    text.parse().map_err(super::value_error)
}

/// The Sprague–Grundy values g(0), …, g(max_heap) of an octal or hexadecimal code in normal
/// play, as `nimlab octal grundy CODE --max-heap N` prints them.
///
/// >>> nimlab.normal_play.grundy("0.77", 6)
/// [0, 1, 2, 3, 1, 4, 3]
#[pyfunction]
fn grundy(py: Python<'_>, code: &str, max_heap: i128) -> PyResult<Vec<u32>> {
    let c = parse_code(code)?;
    let max_heap: HeapSize = whole("max_heap", &[max_heap], u64::from(HeapSize::MAX))?[0];
    interruptible(py, |progress| Ok(c.grundy_values(max_heap, progress)))
}

/// The least preperiod and period of a code's Grundy values, as `nimlab octal period
/// --normal-play` finds them: a dict with `code`, `preperiod`, `period`, `saltus`, `status`
/// (PROVEN, OBSERVED or NONE), `window`, `periods_seen`, `last_exceptional`, `terms` and
/// `argument`.
///
/// >>> nimlab.normal_play.period("0.77")["period"]
/// 12
#[pyfunction]
#[pyo3(name = "period", signature = (code, max_heap = None))]
fn normal_period<'py>(
    py: Python<'py>,
    code: &str,
    max_heap: Option<i128>,
) -> PyResult<Bound<'py, PyDict>> {
    let c = parse_code(code)?;
    let max_heap = match max_heap {
        Some(h) => whole("max_heap", &[h], u64::from(HeapSize::MAX))?[0],
        None => NORMAL_PLAY_MAX_HEAP,
    };
    let budget = if c.is_octal() {
        u128::MAX
    } else {
        NORMAL_PLAY_MAX_OPTIONS
    };
    let r = interruptible(py, |progress| Ok(c.period(max_heap, budget, progress)))?;
    record(py, &normal_period_table(&c, &r))
}

/// The submodule `nimlab.octal` (scoring play).
pub(super) fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "octal")?;
    m.add_function(wrap_pyfunction!(values, &m)?)?;
    m.add_function(wrap_pyfunction!(value, &m)?)?;
    m.add_function(wrap_pyfunction!(outcome, &m)?)?;
    m.add_function(wrap_pyfunction!(period, &m)?)?;
    Ok(m)
}

/// The submodule `nimlab.normal_play`.
pub(super) fn normal_play_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "normal_play")?;
    m.add_function(wrap_pyfunction!(grundy, &m)?)?;
    m.add_function(wrap_pyfunction!(normal_period, &m)?)?;
    Ok(m)
}
