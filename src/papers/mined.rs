//! Mined closed forms as tables, shared by the reports and `nimlab mine`: the miner's forms of a
//! family table ([`family_forms`]) and of an eventually periodic sequence, each with its status,
//! in the columns `nimlab mine … --format csv` prints.

use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::miner::{FamilyForms, GridForm, PeriodicLinear, grid_form, mine_family};
use crate::num::{Pwl, Q};

/// The column of a family table holding piecewise-linear functions (Scoring Nim's payoffs).
const PWL_COLUMN: &str = "payoff";

/// An exact number in a table cell, if it holds one.
fn cell_number(c: &Cell) -> Option<Q> {
    match c {
        Cell::Int(i) => Some(Q::int(*i)),
        Cell::UInt(u) => Some(Q::from_bigint((*u).into())),
        Cell::Rational(q) => Some(q.clone()),
        Cell::Text(t) => t.parse().ok(),
        Cell::Bool(_) | Cell::List(_) | Cell::Record(_) => None,
    }
}

/// A piecewise-linear function in a table cell (a payoff record, or its text), if it holds one.
fn pwl_of(c: &Cell) -> Option<Pwl> {
    match c {
        Cell::Record(_) | Cell::Text(_) => c.text().parse().ok(),
        _ => None,
    }
}

/// The closed forms of a family table: the first column is the one parameter (consecutive
/// integers, one row each), every other column of exact numbers is a quantity, and a `payoff`
/// column of piecewise-linear functions gets its breakpoint and zigzag forms. All OBSERVED.
pub fn family_forms(t: &Table) -> Result<FamilyForms> {
    let param = t
        .columns
        .first()
        .ok_or_else(|| Error::invalid("an empty family"))?;
    let ks: Vec<i64> = t
        .rows
        .iter()
        .map(|r| match &r[0] {
            Cell::Int(k) => Ok(*k),
            _ => Err(Error::invalid(
                "the family's first column is not an integer parameter",
            )),
        })
        .collect::<Result<_>>()?;
    if ks.windows(2).any(|w| w[1] != w[0] + 1) {
        return Err(Error::invalid(format!(
            "mining a family needs one parameter taking consecutive values (one row each); {param} does not"
        )));
    }
    let first = *ks
        .first()
        .ok_or_else(|| Error::invalid("a family without members"))?;
    let quantities: Vec<(String, Vec<Q>)> = t
        .columns
        .iter()
        .enumerate()
        .skip(1)
        .filter_map(|(c, name)| {
            let values: Option<Vec<Q>> = t.rows.iter().map(|r| cell_number(&r[c])).collect();
            Some((name.clone(), values?))
        })
        .collect();
    let pwl: Option<Vec<Option<Pwl>>> = t
        .columns
        .iter()
        .position(|c| c == PWL_COLUMN)
        .map(|c| t.rows.iter().map(|r| pwl_of(&r[c])).collect());
    Ok(mine_family(
        param,
        first,
        &quantities,
        pwl.as_deref().map(|fs| (PWL_COLUMN, fs)),
    ))
}

/// The closed form of a family table over its first `params` columns (a rectangular grid of
/// parameter values): the `payoff` column's [`GridForm`], or why there is none. OBSERVED.
pub fn grid_forms(t: &Table, params: usize) -> Result<GridForm> {
    let c = t
        .columns
        .iter()
        .position(|c| c == PWL_COLUMN)
        .ok_or_else(|| Error::invalid("the family table has no payoff column to mine"))?;
    let points = t
        .rows
        .iter()
        .map(|r| {
            let m = r[..params]
                .iter()
                .map(|c| match c {
                    Cell::Int(v) => Ok(*v),
                    _ => Err(Error::invalid("a parameter column holds a non-integer")),
                })
                .collect::<Result<Vec<i64>>>()?;
            let f = pwl_of(&r[c]).ok_or_else(|| {
                Error::invalid("a payoff cell is not a piecewise-linear function")
            })?;
            Ok((m, f))
        })
        .collect::<Result<Vec<_>>>()?;
    grid_form(&t.columns[..params], &points).ok_or_else(|| {
        Error::invalid(format!(
            "the payoffs over ({}) have no closed form the miner knows: it needs every parameter but one to add a constant per step, and a line, V, zigzag or zigzag with upturned tails with numbers affine in the last",
            t.columns[..params].join(", ")
        ))
    })
}

/// One row per residue of every fit of a family (`nimlab mine family … --format csv`).
pub fn family_forms_table(forms: &FamilyForms) -> Table {
    let mut t = Table::new(&[
        "column",
        "period",
        "preperiod",
        "residue",
        "slope",
        "intercept",
        "from_k",
        "formula",
        "status",
    ]);
    for (name, fit) in forms.fits() {
        for (line, f) in fit.lines.iter().zip(fit.formulas_in(name, &forms.param)) {
            t.push(vec![
                name.into(),
                Cell::Int(fit.period as i64),
                Cell::Int(fit.preperiod),
                Cell::Int(line.residue as i64),
                line.slope.clone().into(),
                line.intercept.clone().into(),
                Cell::Int(line.from_k),
                f.into(),
                "OBSERVED".into(),
            ]);
        }
    }
    t
}

/// One row per residue of an eventually periodic sequence `name` (`nimlab mine octal --format
/// csv`), each with `status` (PROVEN or OBSERVED, as its period is).
pub fn periodic_forms_table(form: &PeriodicLinear, name: &str, status: &str) -> Table {
    let mut t = Table::new(&[
        "residue",
        "period",
        "preperiod",
        "value",
        "from_k",
        "formula",
        "status",
    ]);
    for (line, f) in form.lines.iter().zip(form.formulas(name)) {
        t.push(vec![
            Cell::Int(line.residue as i64),
            Cell::Int(form.period as i64),
            Cell::Int(form.preperiod),
            line.intercept.clone().into(),
            Cell::Int(line.from_k),
            f.into(),
            status.into(),
        ]);
    }
    t
}
