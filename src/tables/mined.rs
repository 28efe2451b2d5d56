//! Mined closed forms as tables, shared by the reports and `nimlab mine`: the miner's forms of a
//! family ([`family_forms`], read from the family table's typed columns) and over a grid of
//! parameters ([`grid_forms`]), of an eventually periodic sequence, each with its status, in the
//! columns `nimlab mine … --format csv` prints.
//!
//! A mined form of a payoff is OBSERVED on its data only. [`verify_closed_form`] and
//! [`verify_grid_form`] re-verify it beyond the data with the claims checker: the claim
//! `payoff(N, [family]) = form` over the data's members and a few new ones is built as a value
//! ([`Claim::builder`]), its expression as a syntax tree made from the form's exact numbers —
//! the same tree the claims parser reads from the formula the miner prints (tested below), so
//! the formula shown and the formula checked cannot differ.

use crate::claims::eval::Definitions;
use crate::claims::expr::BinOp;
use crate::claims::expr::{Binder, Expr, ExprKind};
use crate::claims::{Claim, Finding, Quantifiers, Registry, check_registry_progress};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::miner::{
    Anomaly, ClosedForm, FamilyForm, FamilyForms, FamilyOptions, GridForm, KLine, PeriodicLinear,
    ProgressionFamily, PwlForm, PwlKind, grid_form, mine_family_with,
};
use crate::num::{Pwl, Q};
use crate::progress::{Progress, Silent};

/// The column of a family table holding piecewise-linear functions (Scoring Nim's payoffs).
pub(crate) const PWL_COLUMN: &str = "payoff";

/// One column of a family table, typed: what the miner reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// Integers (parameters, heaps, counts).
    Int(Vec<i64>),
    /// Exact rationals.
    Exact(Vec<Q>),
    /// Piecewise-linear functions of the bonus N.
    Pwl(Vec<Pwl>),
}

impl Column {
    /// The column's values as exact numbers, if it holds numbers.
    pub(crate) fn numbers(&self) -> Option<Vec<Q>> {
        match self {
            Column::Int(v) => Some(v.iter().map(|&i| Q::int(i)).collect()),
            Column::Exact(v) => Some(v.clone()),
            Column::Pwl(_) => None,
        }
    }

    /// The cells a table shows for the column, to check that typed columns and rendered tables
    /// agree.
    #[cfg(test)]
    pub(super) fn cells(&self) -> Vec<Cell> {
        match self {
            Column::Int(v) => v.iter().map(|&i| Cell::Int(i)).collect(),
            Column::Exact(v) => v.iter().cloned().map(Cell::Rational).collect(),
            Column::Pwl(v) => v.iter().map(Cell::from).collect(),
        }
    }

    /// The typed columns `typed` and the rendered `table` agree, column by column and row by
    /// row.
    #[cfg(test)]
    pub(super) fn assert_renders_as(typed: &[(String, Column)], table: &Table) {
        let names: Vec<&String> = typed.iter().map(|(n, _)| n).collect();
        assert_eq!(names, table.columns.iter().collect::<Vec<_>>());
        for (c, (name, column)) in typed.iter().enumerate() {
            let shown: Vec<&Cell> = table.rows.iter().map(|r| &r[c]).collect();
            assert_eq!(column.cells().iter().collect::<Vec<_>>(), shown, "{name}");
        }
    }

    /// The number of rows.
    fn len(&self) -> usize {
        match self {
            Column::Int(v) => v.len(),
            Column::Exact(v) => v.len(),
            Column::Pwl(v) => v.len(),
        }
    }
}

/// The closed forms of a family table's typed columns (e.g.
/// [`super::scoring::ScoringFamily::typed_columns`]): the first column is the one parameter
/// (consecutive integers, one row each), every other column of exact numbers is a quantity, and
/// a `payoff` column of piecewise-linear functions gets its breakpoint and zigzag forms (a
/// `payoff` column of values on a bonus grid has no function in any row). All OBSERVED.
pub fn family_forms(columns: &[(String, Column)]) -> Result<FamilyForms> {
    family_forms_with(columns, &FamilyOptions::default())
}

/// [`family_forms`] with the confirmation the payoff's progressions form needs.
pub fn family_forms_with(
    columns: &[(String, Column)],
    opts: &FamilyOptions,
) -> Result<FamilyForms> {
    let (param, first_column) = columns
        .first()
        .ok_or_else(|| Error::invalid("an empty family"))?;
    let Column::Int(ks) = first_column else {
        return Err(Error::invalid(
            "the family's first column is not an integer parameter",
        ));
    };
    if ks.windows(2).any(|w| w[1] != w[0] + 1) {
        return Err(Error::invalid(format!(
            "mining a family needs one parameter taking consecutive values (one row each); {param} does not"
        )));
    }
    let first = *ks
        .first()
        .ok_or_else(|| Error::invalid("a family without members"))?;
    let quantities: Vec<(String, Vec<Q>)> = columns[1..]
        .iter()
        .filter_map(|(name, c)| Some((name.clone(), c.numbers()?)))
        .collect();
    let pwl: Option<Vec<Option<Pwl>>> =
        columns
            .iter()
            .find(|(name, _)| name == PWL_COLUMN)
            .map(|(_, c)| match c {
                Column::Pwl(fs) => fs.iter().cloned().map(Some).collect(),
                other => vec![None; other.len()],
            });
    Ok(mine_family_with(
        param,
        first,
        &quantities,
        pwl.as_deref().map(|fs| (PWL_COLUMN, fs)),
        opts,
    ))
}

/// The closed form of a family table over its first `params` typed columns (a rectangular grid
/// of parameter values): the `payoff` column's [`GridForm`], or why there is none. OBSERVED.
pub fn grid_forms(columns: &[(String, Column)], params: usize) -> Result<GridForm> {
    let (_, payoff) = columns
        .iter()
        .find(|(name, _)| name == PWL_COLUMN)
        .ok_or_else(|| Error::invalid("the family table has no payoff column to mine"))?;
    let names: Vec<String> = columns[..params].iter().map(|(n, _)| n.clone()).collect();
    let values = columns[..params]
        .iter()
        .map(|(_, c)| match c {
            Column::Int(v) => Ok(v),
            _ => Err(Error::invalid("a parameter column holds a non-integer")),
        })
        .collect::<Result<Vec<_>>>()?;
    let Column::Pwl(fs) = payoff else {
        return Err(Error::invalid(
            "a payoff cell is not a piecewise-linear function",
        ));
    };
    let points: Vec<(Vec<i64>, Pwl)> = fs
        .iter()
        .enumerate()
        .map(|(row, f)| (values.iter().map(|v| v[row]).collect(), f.clone()))
        .collect();
    grid_form(&names, &points).ok_or_else(|| no_grid_form(&names))
}

/// Why the payoffs over a grid of `params` have no [`GridForm`]: what the miner would need.
pub fn no_grid_form(params: &[String]) -> Error {
    Error::invalid(format!(
        "the payoffs over ({}) have no closed form the miner knows: it needs every parameter but one to add a constant per step, and a line, V, zigzag or zigzag with upturned tails with numbers affine in the last",
        params.join(", ")
    ))
}

/// The columns of [`grid_form_table`].
pub const GRID_FORM_COLUMNS: [&str; 6] = ["parameter", "role", "step", "from", "formula", "status"];

/// One row per parameter of a grid form (`nimlab mine family scoring` over several parameters,
/// `--format csv`): a linear parameter with what the payoff adds per unit of it and its least
/// value, the shaped one with the value its family form holds from; each row carries the whole
/// closed form and its status.
pub fn grid_form_table(form: &GridForm, status: &str) -> Table {
    let mut table = Table::new(&GRID_FORM_COLUMNS);
    let formula = form.expr("N");
    for l in &form.linear {
        table.push(vec![
            l.name.clone().into(),
            "linear".into(),
            l.step.clone().into(),
            Cell::Int(l.least),
            formula.clone().into(),
            status.into(),
        ]);
    }
    if let Some((p, f)) = &form.shaped {
        table.push(vec![
            p.clone().into(),
            "shaped".into(),
            Cell::Text(String::new()),
            Cell::Int(f.from),
            formula.clone().into(),
            status.into(),
        ]);
    }
    table
}

/// The columns of [`family_forms_table`]: one row per residue class of each mined column's
/// periodic-linear form.
pub const FAMILY_FORM_COLUMNS: [&str; 9] = [
    "column",
    "period",
    "preperiod",
    "residue",
    "slope",
    "intercept",
    "from_k",
    "formula",
    "status",
];

/// One row per residue of every fit of a family (`nimlab mine family … --format csv`).
pub fn family_forms_table(forms: &FamilyForms) -> Table {
    let mut t = Table::new(&FAMILY_FORM_COLUMNS);
    for (name, fit) in forms.fits() {
        let index = crate::miner::residue_index(&forms.param);
        for (line, f) in fit
            .lines
            .iter()
            .zip(fit.formulas_of_class(name, &forms.param, index))
        {
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

/// `sk + c` as TeX (no `$`): `10k + 5`, `k`, `-k - 1`, `3`, `\frac{3k}{2} - \frac{1}{3}` —
/// the display twin of [`crate::miner::affine_text`], which the CSV and the CLI keep.
pub fn affine_math(slope: &Q, constant: &Q, var: &str) -> String {
    let number = |q: &Q| {
        if q.is_integer() {
            q.to_string()
        } else {
            let sign = if q.signum() < 0 { "-" } else { "" };
            format!("{sign}\\frac{{{}}}{{{}}}", q.abs().numer(), q.denom())
        }
    };
    let term = if slope.is_zero() {
        None
    } else if *slope == Q::one() {
        Some(var.to_string())
    } else if *slope == -Q::one() {
        Some(format!("-{var}"))
    } else if slope.is_integer() {
        Some(format!("{slope}{var}"))
    } else {
        let sign = if slope.signum() < 0 { "-" } else { "" };
        let numer = slope.abs().numer().into_owned();
        let times = if numer == 1.into() {
            String::new()
        } else {
            numer.to_string()
        };
        Some(format!("{sign}\\frac{{{times}{var}}}{{{}}}", slope.denom()))
    };
    match (term, constant.signum()) {
        (None, _) => number(constant),
        (Some(t), 0) => t,
        (Some(t), 1) => format!("{t} + {}", number(constant)),
        (Some(t), _) => format!("{t} - {}", number(&constant.abs())),
    }
}

/// One line `symbol(P·var + i) = s·var + c` of a periodic-linear form as displayed: `$…$`
/// mathematics, then its start in words-and-math, e.g. `$f^{\mathrm{I}}(16k + 3) = 10k + 5$
/// ($k \ge 4$)`; `from_k` `None` leaves the start out. `symbol` is TeX (no `$`).
pub fn line_math(
    symbol: &str,
    (period, residue): (usize, usize),
    (slope, intercept): (&Q, &Q),
    var: &str,
    from_k: Option<i64>,
) -> String {
    let arg = affine_math(&Q::int(period as i64), &Q::int(residue as i64), var);
    let rhs = affine_math(slope, intercept, var);
    match from_k {
        Some(k) => format!("${symbol}({arg}) = {rhs}$ (${var} \\ge {k}$)"),
        None => format!("${symbol}({arg}) = {rhs}$"),
    }
}

/// The displayed twin of [`PeriodicLinear::formulas_in`]: one `$…$` line per residue with its
/// start, `symbol` the sequence's name as TeX (`\mathcal{G}_s`, `h_{1}`).
pub fn formulas_math(form: &PeriodicLinear, symbol: &str, var: &str) -> Vec<String> {
    form.lines
        .iter()
        .map(|l| {
            line_math(
                symbol,
                (form.period, l.residue),
                (&l.slope, &l.intercept),
                var,
                Some(l.from_k),
            )
        })
        .collect()
}

/// The `formula` column of [`family_forms_table`] as displayed, row for row, each column's name
/// given as TeX by `symbol`.
pub fn family_formulas_math(forms: &FamilyForms, symbol: impl Fn(&str) -> String) -> Vec<String> {
    let index = crate::miner::residue_index(&forms.param);
    forms
        .fits()
        .flat_map(|(name, fit)| {
            if fit.period == 1 {
                return formulas_math(fit, &symbol(name), &forms.param);
            }
            // `$h(k = 2j + 1) = 4j - 1$ ($j \ge 1$)`: the class index is never the parameter.
            fit.lines
                .iter()
                .map(|l| {
                    let class =
                        affine_math(&Q::int(fit.period as i64), &Q::int(l.residue as i64), index);
                    let rhs = affine_math(&l.slope, &l.intercept, index);
                    format!(
                        "${}({} = {class}) = {rhs}$ (${index} \\ge {}$)",
                        symbol(name),
                        forms.param,
                        l.from_k
                    )
                })
                .collect()
        })
        .collect()
}

/// Members beyond the data on which a mined zigzag form is re-verified.
pub const ZIGZAG_BEYOND: i64 = 4;

/// A mined closed form re-verified by the claims checker.
#[derive(Clone, Debug)]
pub struct ClosedFormCheck {
    /// The parameter's name.
    pub param: String,
    /// The members checked: from the form's first to some past the data.
    pub from: i64,
    /// The last member checked.
    pub to: i64,
    /// How many of the members checked lie beyond the data.
    pub beyond: i64,
    /// The verdict, with its evidence.
    pub finding: Finding,
}

impl ClosedFormCheck {
    /// In words: `re-verified with `nimlab check` on k = 2..34 (4 beyond the data): HOLDS, …`.
    pub fn text(&self) -> String {
        format!(
            "re-verified with `nimlab check` on {} = {}..{} ({} beyond the data): {}, {}",
            self.param,
            self.from,
            self.to,
            self.beyond,
            self.finding.verdict,
            self.finding.evidence()
        )
    }
}

/// `N in from..to step 1/2`, as a value.
fn bonus_binder(from: Expr, to: Expr) -> Binder {
    Binder::interval("N", from, to, Some(Expr::rational(&Q::frac(1, 2))))
}

/// Re-verifies a zigzag form of the payoffs of `family` with the claims checker, on the data's
/// members from the form's first and on [`ZIGZAG_BEYOND`] new ones, at every half-integer N from
/// two below the first peak to two beyond the last. A finite check: the form stays OBSERVED.
pub fn verify_closed_form(form: &ClosedForm, family: &Family) -> Result<ClosedFormCheck> {
    verify_closed_form_to(form, family, form.to + ZIGZAG_BEYOND, &Silent)
}

/// [`verify_closed_form`] on the members up to `to` (at least the data's last); `progress`
/// hears the claims checker.
pub fn verify_closed_form_to(
    form: &ClosedForm,
    family: &Family,
    to: i64,
    progress: &dyn Progress,
) -> Result<ClosedFormCheck> {
    let to = to.max(form.to);
    let over = closed_form_range(form, to);
    Ok(ClosedFormCheck {
        param: form.param.clone(),
        from: form.from,
        to,
        beyond: to - form.to,
        finding: check_payoff_form(
            over,
            family,
            family_expr(&form.form, "N", &form.param),
            progress,
        )?,
    })
}

/// Re-verifies a progressions form of the payoffs of `family` (parameter `param`) with the
/// claims checker on the members from the form's first to `to`, at every half-integer N from
/// two below the leftmost breakpoint of any class to two beyond the rightmost. A finite check:
/// the form stays OBSERVED on the data, HOLDS on the range checked. `progress` hears the claims
/// checker.
pub fn verify_progression_form(
    form: &ProgressionFamily,
    param: &str,
    family: &Family,
    to: i64,
    progress: &dyn Progress,
) -> Result<ClosedFormCheck> {
    let last = form.range.1;
    let to = to.max(last);
    let (lo, hi) = progression_window(form, param);
    let over = Quantifiers::new(
        format!("{param} in {}..{to}, N in {lo}..{hi} step 1/2", form.from),
        vec![
            Binder::interval(param, Expr::int(form.from), Expr::int(to), None),
            bonus_binder(lo, hi),
        ],
    );
    Ok(ClosedFormCheck {
        param: param.to_string(),
        from: form.from,
        to,
        beyond: to - last,
        finding: check_payoff_form(over, family, form.expr("N", param), progress)?,
    })
}

/// N from two below the leftmost breakpoint of any class of the form to two beyond the
/// rightmost, as expressions in `param` (`min(…)` and `max(…)` over the classes' ends when
/// they differ; −2..2 for lines).
pub fn progression_window(form: &ProgressionFamily, param: &str) -> (Expr, Expr) {
    let spans: Vec<(KLine, KLine)> = (0..form.period as i64)
        .filter_map(|r| form.span(r))
        .collect();
    let bound = |ends: Vec<&KLine>, name: &str| {
        let mut distinct: Vec<&KLine> = Vec::new();
        for e in ends {
            if !distinct.contains(&e) {
                distinct.push(e);
            }
        }
        match &distinct[..] {
            [] => Expr::int(0),
            [one] => one.expr(param),
            many => Expr::call(name, many.iter().map(|l| l.expr(param)).collect()),
        }
    };
    let lo = bound(spans.iter().map(|(l, _)| l).collect(), "min");
    let hi = bound(spans.iter().map(|(_, h)| h).collect(), "max");
    (lo - Expr::int(2), hi + Expr::int(2))
}

/// The closed form's expression, evaluated by the claims evaluator, against every member of
/// the data from the form's first (anomalies aside) at every breakpoint of the member and of
/// the form's own rebuild of it, the midpoints between consecutive ones and one beyond each end
/// — where two PWL functions agree exactly when they are equal. `None` when every member is
/// rebuilt; else the first member and N where the expression differs, with both values.
pub fn rebuild_from_expr(
    form: &ProgressionFamily,
    param: &str,
    fs: &[Pwl],
) -> Result<Option<Anomaly>> {
    let skip: Vec<i64> = form.anomalies.iter().map(|a| a.member).collect();
    expr_disagreement(
        &form.expr("N", param),
        param,
        (form.range.0, form.from),
        fs,
        &skip,
        &|k| form.member(k),
    )
}

/// The first member of `fs` (member `first` + index, possibly beyond the data `forms` was
/// mined from) where the payoff's closed form of `forms` — its template form, else its
/// progressions form, the latter's anomalies skipped — evaluated by the claims evaluator differs
/// from the member, from the form's first member on. `None` when every member is rebuilt or
/// when `forms` has no payoff form.
pub fn payoff_form_disagreement(
    forms: &FamilyForms,
    first: i64,
    fs: &[Pwl],
) -> Result<Option<Anomaly>> {
    let p = &forms.param;
    if let Some(z) = &forms.closed {
        let expr = family_expr(&z.form, "N", p);
        return expr_disagreement(&expr, p, (first, z.from), fs, &[], &|_| None);
    }
    let Some(Ok(form)) = &forms.progressions else {
        return Ok(None);
    };
    let skip: Vec<i64> = form.anomalies.iter().map(|a| a.member).collect();
    expr_disagreement(&form.expr("N", p), p, (first, form.from), fs, &skip, &|k| {
        form.member(k)
    })
}

/// The first member k ≥ `from` (not in `skip`) of the data `fs` (member `first` + index) where
/// `expr` evaluated by the claims evaluator differs from the member, at the member's
/// breakpoints and `own(k)`'s (the form's rebuild of it, when it has one), the midpoints and
/// one beyond each end.
fn expr_disagreement(
    expr: &Expr,
    param: &str,
    (first, from): (i64, i64),
    fs: &[Pwl],
    skip: &[i64],
    own: &dyn Fn(i64) -> Option<Pwl>,
) -> Result<Option<Anomaly>> {
    use crate::claims::engines::Engines;
    use crate::claims::eval::Evaluator;
    use crate::claims::value::Value;
    let defs = Definitions::new();
    defs.check_with(expr, &["N".to_string(), param.to_string()])
        .map_err(|e| Error::invalid(format!("the mined form does not check: {e}")))?;
    let mut engines = Engines::new();
    let mut ev = Evaluator::new(&defs, &mut engines);
    for (j, f) in fs.iter().enumerate() {
        let k = first + j as i64;
        if k < from || skip.contains(&k) {
            continue;
        }
        let mut xs: Vec<Q> = f.breakpoints().iter().map(|(x, _)| x.clone()).collect();
        if let Some(g) = own(k) {
            xs.extend(g.breakpoints().iter().map(|(x, _)| x.clone()));
        }
        xs.sort();
        xs.dedup();
        let mut probes: Vec<Q> = Vec::new();
        for (i, x) in xs.iter().enumerate() {
            probes.push(x.clone());
            if let Some(next) = xs.get(i + 1) {
                probes.push(&(x + next) / &Q::int(2));
            }
        }
        let (lo, hi) = match (xs.first(), xs.last()) {
            (Some(lo), Some(hi)) => (lo.clone(), hi.clone()),
            _ => (Q::zero(), Q::zero()),
        };
        probes.push(&lo - &Q::one());
        probes.push(&hi + &Q::one());
        for n in probes {
            let mut env = vec![("N", Value::Num(n.clone())), (param, Value::Num(Q::int(k)))];
            let value = ev.eval(expr, &mut env).map_err(|e| {
                Error::invalid(format!(
                    "evaluating the mined form at {param} = {k}, N = {n}: {e}"
                ))
            })?;
            let Value::Num(value) = value else {
                return Err(Error::invalid("the mined form is not a number"));
            };
            let data = f.eval(&n);
            if value != data {
                return Ok(Some(Anomaly {
                    member: k,
                    at: n,
                    form: value,
                    data,
                }));
            }
        }
    }
    Ok(None)
}

/// A family's payoff closed form, checked: rebuilt from its expression on the data, then
/// re-verified by the claims checker beyond it.
#[derive(Clone, Debug)]
pub struct PayoffFormCheck {
    /// For a progressions form, the first member the expression does not rebuild (`None`: every
    /// member from the form's first is rebuilt exactly, anomalies aside).
    pub not_rebuilt: Option<Anomaly>,
    /// The claims checker's verdict on the members up to the range checked.
    pub check: ClosedFormCheck,
}

impl PayoffFormCheck {
    /// In words, one line each.
    pub fn text(&self) -> Vec<String> {
        let p = &self.check.param;
        let mut out = Vec::new();
        match &self.not_rebuilt {
            None => out.push(format!(
                "rebuilt from the expression exactly on every member of the data from {p} = {}",
                self.check.from
            )),
            Some(a) => out.push(format!(
                "NOT rebuilt from the expression: at {p} = {}, N = {} it gives {}, the member {}",
                a.member, a.at, a.form, a.data
            )),
        }
        out.push(self.check.text());
        out
    }

    /// The status of the form: `HOLDS on k = 3..28` (or the verdict), `FAILS` when the
    /// expression does not rebuild the data.
    pub fn status(&self) -> String {
        if self.not_rebuilt.is_some() {
            return "FAILS (not rebuilt on the data)".to_string();
        }
        format!(
            "{} on {} = {}..{}",
            self.check.finding.verdict, self.check.param, self.check.from, self.check.to
        )
    }
}

/// Checks the payoff's closed form of `forms` (mined from the typed `columns` of `family`'s
/// table): a template form or a progressions form re-verified by the claims checker on the
/// members up to `to`, a progressions form first rebuilt from its expression on the data.
/// `None` when there is no form. `progress` hears the claims checker, which solves every member
/// up to `to`: long for large heaps.
pub fn verify_family_payoff(
    forms: &FamilyForms,
    columns: &[(String, Column)],
    family: &Family,
    to: i64,
    progress: &dyn Progress,
) -> Result<Option<PayoffFormCheck>> {
    let fs = match columns.iter().find(|(name, _)| name == PWL_COLUMN) {
        Some((_, Column::Pwl(fs))) => fs,
        _ => return Ok(None),
    };
    if let Some(z) = &forms.closed {
        let expr = family_expr(&z.form, "N", &z.param);
        return Ok(Some(PayoffFormCheck {
            not_rebuilt: expr_disagreement(
                &expr,
                &z.param,
                (forms.range.0, z.from),
                fs,
                &[],
                &|_| None,
            )?,
            check: verify_closed_form_to(z, family, to, progress)?,
        }));
    }
    let Some(Ok(form)) = &forms.progressions else {
        return Ok(None);
    };
    Ok(Some(PayoffFormCheck {
        not_rebuilt: rebuild_from_expr(form, &forms.param, fs)?,
        check: verify_progression_form(form, &forms.param, family, to, progress)?,
    }))
}

/// The rows of a family's payoff closed form for [`family_forms_table`]'s columns: one per
/// residue class of a progressions form, its class's expression in `formula`; one per anomaly
/// (status `ANOMALY`); or one saying why there is none (status `NONE`). `status` is the form's
/// (e.g. `HOLDS on k = 3..28`).
pub fn closed_form_rows(forms: &FamilyForms, status: &str) -> Table {
    let mut t = Table::new(&FAMILY_FORM_COLUMNS);
    let p = &forms.param;
    let blank = || Cell::Text(String::new());
    let name = match &forms.breakpoints {
        Some((name, _)) => name.clone(),
        None => PWL_COLUMN.to_string(),
    };
    if let Some(z) = &forms.closed {
        t.push(vec![
            name.clone().into(),
            Cell::Int(1),
            Cell::Int(z.from),
            Cell::Int(0),
            blank(),
            blank(),
            Cell::Int(z.from),
            z.expr.clone().into(),
            status.into(),
        ]);
        return t;
    }
    match &forms.progressions {
        Some(Ok(form)) => {
            let single = |r: usize| ProgressionFamily {
                period: 1,
                classes: vec![form.classes[r].clone()],
                anomalies: Vec::new(),
                ..form.clone()
            };
            for r in 0..form.period {
                t.push(vec![
                    name.clone().into(),
                    Cell::Int(form.period as i64),
                    Cell::Int(form.from),
                    Cell::Int(r as i64),
                    blank(),
                    blank(),
                    Cell::Int(form.from),
                    single(r).expr("N", p).to_string().into(),
                    status.into(),
                ]);
            }
            for a in &form.anomalies {
                t.push(vec![
                    name.clone().into(),
                    Cell::Int(form.period as i64),
                    Cell::Int(form.from),
                    Cell::Int(a.member.rem_euclid(form.period as i64)),
                    blank(),
                    blank(),
                    Cell::Int(a.member),
                    format!(
                        "{p} = {}: at N = {} the form gives {}, the member {}",
                        a.member, a.at, a.form, a.data
                    )
                    .into(),
                    "ANOMALY".into(),
                ]);
            }
        }
        Some(Err(why)) => t.push(vec![
            name.into(),
            blank(),
            blank(),
            blank(),
            blank(),
            blank(),
            blank(),
            why.to_string().into(),
            "NONE".into(),
        ]),
        None => {}
    }
    t
}

/// Where [`verify_closed_form`] checks a form: `k in from..to, N in lo..hi step 1/2`.
fn closed_form_range(form: &ClosedForm, to: i64) -> Quantifiers {
    let (n_from, n_to) = family_window(&form.form, &form.param);
    Quantifiers::new(
        format!(
            "{} in {}..{to}, N in {}..{} step 1/2",
            form.param, form.from, form.n_from, form.n_to
        ),
        vec![
            Binder::interval(&form.param, Expr::int(form.from), Expr::int(to), None),
            bonus_binder(n_from, n_to),
        ],
    )
}

/// Re-verifies a grid form of the payoffs of `family` with the claims checker: the shaped
/// parameter from the form's first member to [`ZIGZAG_BEYOND`] past the data, every linear one
/// two past it, at every half-integer N of the form's window; returns the range checked in
/// words and the finding. A finite check: still OBSERVED.
pub fn verify_grid_form(
    form: &GridForm,
    family: &Family,
    ranges: &[(String, i64, i64)],
) -> Result<(String, Finding)> {
    let over = grid_form_range(form, ranges);
    let shown = over.text.clone();
    let finding = check_payoff_form(over, family, grid_expr(form, "N"), &Silent)?;
    Ok((shown, finding))
}

/// Where [`verify_grid_form`] checks a form over the data's `ranges` (name, first, last).
fn grid_form_range(form: &GridForm, ranges: &[(String, i64, i64)]) -> Quantifiers {
    let (n_from, n_to) = form.window();
    let mut text = Vec::new();
    let mut binders = Vec::new();
    for (p, lo, hi) in ranges {
        let (from, to) = match &form.shaped {
            Some((s, f)) if s == p => (f.from, hi + ZIGZAG_BEYOND),
            _ => (*lo, hi + 2),
        };
        text.push(format!("{p} in {from}..{to}"));
        binders.push(Binder::interval(p, Expr::int(from), Expr::int(to), None));
    }
    text.push(format!("N in {n_from}..{n_to} step 1/2"));
    let (lo, hi) = grid_window(form);
    binders.push(bonus_binder(lo, hi));
    Quantifiers::new(text.join(", "), binders)
}

/// The claims checker's verdict on `payoff(N, [family]) = expected` over the range `over`, a
/// claim built as a value.
fn check_payoff_form(
    over: Quantifiers,
    family: &Family,
    expected: Expr,
    progress: &dyn Progress,
) -> Result<Finding> {
    let defs = Definitions::new();
    let actual = Expr::call(
        "payoff",
        vec![
            Expr::var("N"),
            Expr::list(family.heaps().iter().map(heap_expr).collect()),
        ],
    );
    let claim = Claim::builder("form", "closed form", "")
        .over(over)
        .equal(actual, expected)
        .build(&defs)?;
    let reg = Registry::from_claims("mine", "", defs, vec![claim])?;
    let mut v = check_registry_progress(&reg, false, &[], progress)?;
    Ok(v.remove(0))
}

/// A heap of a family, c₀ + Σ cᵥ·v, as an expression.
fn heap_expr(h: &crate::family::Affine) -> Expr {
    let terms = h.coefficients().iter().map(|(v, &c)| match c {
        1 => Expr::var(v),
        -1 => -Expr::var(v),
        _ => Expr::int(c) * Expr::var(v),
    });
    let sum = terms.reduce(|a, b| a + b);
    match (sum, h.constant()) {
        (None, c) => Expr::int(c),
        (Some(s), 0) => s,
        (Some(s), c) => s + Expr::int(c),
    }
}

// The syntax trees of the miner's formulas. The miner prints a form's numbers, each affine in
// the parameter, with the rules of `miner::pwl_form` (`2k-1`, `a - (2k-1)`, `a + 2k-1`, …);
// each function below builds the tree the claims parser reads from that text, from the numbers
// themselves.

/// A number of a form: slope in the parameter and value at 0.
type Affine = (Q, Q);

fn affine_of(n: &crate::miner::AffineNumber) -> Affine {
    (n.slope.clone(), n.intercept.clone())
}

/// Whether the number prints with a leading minus sign.
fn leads_negative((slope, constant): &Affine) -> bool {
    if slope.is_zero() {
        constant.signum() < 0
    } else {
        slope.signum() < 0
    }
}

fn negated((slope, constant): &Affine) -> Affine {
    (-slope.clone(), -constant.clone())
}

fn is_zero((slope, constant): &Affine) -> bool {
    slope.is_zero() && constant.is_zero()
}

/// The number as the parser reads `affine_text(slope, constant, param)`: `c`, `k`, `-k`, `2k`,
/// `-2k`, `k/2`, `-3k/2`, then `+c` or `-c`.
fn affine_expr(n: &Affine, param: &str) -> Expr {
    let (slope, constant) = n;
    if slope.is_zero() {
        return Expr::rational(constant);
    }
    let k = Expr::var(param);
    let term = if *slope == Q::one() {
        k
    } else if *slope == -Q::one() {
        -k
    } else if slope.is_integer() {
        let times = Expr::int(slope.abs().numer().into_owned()) * k;
        if slope.signum() < 0 { -times } else { times }
    } else {
        // `-3k/2` reads as (−(3·k)) / 2.
        let numer = slope.abs().numer().into_owned();
        let times = if numer == 1.into() {
            k
        } else {
            Expr::int(numer) * k
        };
        let signed = if slope.signum() < 0 { -times } else { times };
        Expr::binary(BinOp::Div, signed, Expr::int(slope.denom().into_owned()))
    };
    match constant.signum() {
        0 => term,
        1 => term + Expr::rational(constant),
        _ => term - Expr::rational(&-constant.clone()),
    }
}

/// `a + n` written without brackets, as text: the sum's first term joins `a`'s chain.
fn chain_add(a: Expr, n: Expr) -> Expr {
    match n.kind {
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) => {
            Expr::binary(op, chain_add(a, *l), *r)
        }
        _ => a + n,
    }
}

/// `a + n`, written `a − (|n|)` when n reads negative and left out when n = 0.
fn plus(a: Expr, n: &Affine, param: &str) -> Expr {
    if is_zero(n) {
        a
    } else if leads_negative(n) {
        a - affine_expr(&negated(n), param)
    } else {
        chain_add(a, affine_expr(n, param))
    }
}

/// `a − (n)`, written `a + |n|` when n reads negative and left out when n = 0.
fn minus(a: Expr, n: &Affine, param: &str) -> Expr {
    if is_zero(n) {
        a
    } else if leads_negative(n) {
        chain_add(a, affine_expr(&negated(n), param))
    } else {
        a - affine_expr(n, param)
    }
}

fn abs(x: Expr) -> Expr {
    Expr::call("abs", vec![x])
}

/// The expression of a form of `kind` whose numbers are affine in `param` (as
/// `miner::pwl_form` prints it).
fn form_expr(kind: PwlKind, n: &[Affine], var: &str, param: &str) -> Expr {
    let t = |i: usize| affine_expr(&n[i], param);
    let zig = || {
        let dip = if is_zero(&n[3]) {
            abs(minus(Expr::var(var), &n[1], param))
        } else {
            Expr::aggregate(
                "min",
                vec![Binder::interval("j", t(1), t(2), Some(t(3)))],
                abs(Expr::var(var) - Expr::var("j")),
            )
        };
        t(0) - dip
    };
    let v = |c: &Affine, b: &Affine| plus(abs(minus(Expr::var(var), c, param)), b, param);
    match kind {
        PwlKind::Line => plus(t(0) * Expr::var(var), &n[1], param),
        PwlKind::Vee => v(&n[0], &n[1]),
        PwlKind::Zigzag => zig(),
        PwlKind::TailedZigzag => Expr::call("max", vec![zig(), v(&n[4], &n[5])]),
    }
}

/// [`FamilyForm::expr`] as a syntax tree.
pub fn family_expr(form: &FamilyForm, var: &str, param: &str) -> Expr {
    let numbers: Vec<Affine> = form.numbers.iter().map(affine_of).collect();
    form_expr(form.kind, &numbers, var, param)
}

/// [`PwlForm::expr`] as a syntax tree.
pub fn pwl_form_expr(form: &PwlForm, var: &str) -> Expr {
    let numbers: Vec<Affine> = form.numbers().into_iter().map(|q| (Q::zero(), q)).collect();
    form_expr(form.kind(), &numbers, var, "k")
}

/// [`GridForm::expr`] as a syntax tree.
pub fn grid_expr(form: &GridForm, var: &str) -> Expr {
    let mut e = match (&form.shaped, &form.base) {
        (Some((p, f)), _) => family_expr(f, var, p),
        (None, Some(b)) => pwl_form_expr(b, var),
        (None, None) => unreachable!("a grid form has a shaped parameter or a base"),
    };
    for l in &form.linear {
        if l.step.is_zero() {
            continue;
        }
        let offset = affine_expr(&(Q::one(), Q::int(-l.least)), &l.name);
        e = if l.step == Q::one() {
            chain_add(e, offset)
        } else {
            e + Expr::rational(&l.step) * offset
        };
    }
    e
}

/// [`FamilyForm::window`] as syntax trees: N from two below the first breakpoint to two beyond
/// the last (−2..2 for a line).
pub fn family_window(form: &FamilyForm, param: &str) -> (Expr, Expr) {
    let two = (Q::zero(), Q::int(2));
    match &form.span {
        Some((lo, hi)) => (
            minus(affine_expr(&affine_of(lo), param), &two, param),
            plus(affine_expr(&affine_of(hi), param), &two, param),
        ),
        None => (Expr::int(-2), Expr::int(2)),
    }
}

/// [`GridForm::window`] as syntax trees.
pub fn grid_window(form: &GridForm) -> (Expr, Expr) {
    match (&form.shaped, &form.base) {
        (Some((p, f)), _) => family_window(f, p),
        (None, Some(b)) => {
            let f = b.to_pwl();
            match (f.breakpoints().first(), f.breakpoints().last()) {
                (Some((lo, _)), Some((hi, _))) => (
                    Expr::rational(&(lo - &Q::int(2))),
                    Expr::rational(&(hi + &Q::int(2))),
                ),
                _ => (Expr::int(-2), Expr::int(2)),
            }
        }
        (None, None) => unreachable!("a grid form has a shaped parameter or a base"),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::claims::VerdictKind;
    use crate::claims::expr::{parse_binders, parse_expr};
    use crate::games::scoring::{Limits, Method};
    use crate::miner::{AffineNumber, LinearParameter};
    use crate::num::IntRange;
    use crate::tables::scoring::{ScoringFamily, family_table};
    use proptest::prelude::*;

    fn parsed(text: &str) -> Expr {
        parse_expr(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .unplaced()
    }

    fn parsed_binders(text: &str) -> Vec<Binder> {
        parse_binders(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .iter()
            .map(Binder::unplaced)
            .collect()
    }

    fn family(text: &str, ranges: &[(&str, i64, i64)]) -> (Family, ScoringFamily) {
        let fam: Family = text.parse().unwrap();
        let ranges: BTreeMap<String, IntRange> = ranges
            .iter()
            .map(|&(p, lo, hi)| (p.to_string(), IntRange::new(lo, hi).unwrap()))
            .collect();
        let t = family_table(&fam, &ranges, None, Method::Auto, &Limits::default()).unwrap();
        (fam, t)
    }

    /// The forms of Scoring Nim's Theorem 6.3 and Prop 4.2 as the miner finds them: the trees
    /// checked are the trees the claims parser reads from the formulas and ranges printed.
    #[test]
    fn the_formula_checked_is_the_formula_printed_on_real_mined_forms() {
        for (text, last) in [
            ("2k+1,2k,1", 12),
            ("2k+3,2k,1", 10),
            ("k+2,k", 9),
            ("4k+1,4k,1", 8),
            ("2k,2k-1,1", 10),
        ] {
            let (fam, t) = family(text, &[("k", 1, last)]);
            let forms = family_forms(&t.typed_columns()).unwrap();
            let z = forms.closed.expect("a closed form");
            assert_eq!(
                family_expr(&z.form, "N", "k"),
                parsed(&z.expr),
                "{}",
                z.expr
            );
            let (lo, hi) = family_window(&z.form, "k");
            assert_eq!((lo, hi), (parsed(&z.n_from), parsed(&z.n_to)));
            let over = closed_form_range(&z, z.to + ZIGZAG_BEYOND);
            assert_eq!(over.binders, parsed_binders(&over.text), "{}", over.text);
            let check = verify_closed_form(&z, &fam).unwrap();
            assert_eq!(
                check.finding.verdict,
                VerdictKind::Holds,
                "{}",
                check.text()
            );
        }
        for (text, shaped, linear) in [
            ("2k+2+t,2k,1", ("k", 1, 7), ("t", 0, 3)),
            ("y+1+t,y", ("y", 2, 7), ("t", 0, 4)),
        ] {
            let (fam, t) = family(text, &[shaped, linear]);
            let form = grid_forms(&t.typed_columns(), 2).unwrap();
            assert_eq!(grid_expr(&form, "N"), parsed(&form.expr("N")));
            let (lo, hi) = form.window();
            assert_eq!(grid_window(&form), (parsed(&lo), parsed(&hi)));
            let ranges: Vec<(String, i64, i64)> = t
                .params
                .iter()
                .map(|p| {
                    let (_, lo, hi) = [shaped, linear].into_iter().find(|r| r.0 == p).unwrap();
                    (p.clone(), lo, hi)
                })
                .collect();
            let over = grid_form_range(&form, &ranges);
            assert_eq!(over.binders, parsed_binders(&over.text), "{}", over.text);
            let (_, finding) = verify_grid_form(&form, &fam, &ranges).unwrap();
            assert_eq!(finding.verdict, VerdictKind::Holds, "{text}");
        }
    }

    /// The numbers a form's members may take: integer slopes of both signs and integer or
    /// half-integer intercepts.
    fn numbers(names: &'static [&'static str]) -> impl Strategy<Value = Vec<AffineNumber>> {
        let intercepts = vec![
            Q::int(-3),
            Q::frac(-5, 2),
            Q::int(-1),
            Q::zero(),
            Q::one(),
            Q::frac(3, 2),
            Q::int(4),
        ];
        names
            .iter()
            .map(|&name| {
                (-3i64..=3, proptest::sample::select(intercepts.clone())).prop_map(
                    move |(slope, intercept)| AffineNumber {
                        name,
                        slope: Q::int(slope),
                        intercept,
                    },
                )
            })
            .collect::<Vec<_>>()
    }

    /// A linear parameter of every kind of step (positive, negative, fractional, zero) and
    /// least value.
    fn linear_parameter(name: &'static str) -> impl Strategy<Value = LinearParameter> {
        let steps = vec![Q::one(), Q::int(2), Q::int(-1), Q::frac(1, 2), Q::zero()];
        (
            proptest::sample::select(steps),
            proptest::sample::select(vec![0, 2, -1]),
        )
            .prop_map(move |(step, least)| LinearParameter {
                name: name.to_string(),
                step,
                least,
            })
    }

    /// A form of every kind with its numbers, its span, and two linear parameters.
    fn forms() -> impl Strategy<
        Value = (
            PwlKind,
            Vec<AffineNumber>,
            Vec<AffineNumber>,
            [LinearParameter; 2],
        ),
    > {
        let kinds = vec![
            PwlKind::Line,
            PwlKind::Vee,
            PwlKind::Zigzag,
            PwlKind::TailedZigzag,
        ];
        proptest::sample::select(kinds).prop_flat_map(|kind| {
            (
                Just(kind),
                numbers(kind.number_names()),
                numbers(&["first_breakpoint", "last_breakpoint"]),
                [linear_parameter("s"), linear_parameter("t")],
            )
        })
    }

    proptest::proptest! {
        #![proptest_config(ProptestConfig::with_cases(800))]

        #[test]
        fn every_kind_of_form_is_built_as_its_text_parses(
            (kind, mut n, span, [s, t]) in forms()
        ) {
            let form = FamilyForm {
                kind,
                numbers: n.clone(),
                from: 1,
                to: 9,
                span: Some((span[0].clone(), span[1].clone())),
            };
            let text = form.expr("N", "k");
            prop_assert_eq!(family_expr(&form, "N", "k"), parsed(&text), "{}", text);
            let (lo, hi) = form.window("k");
            prop_assert_eq!(family_window(&form, "k"), (parsed(&lo), parsed(&hi)));
            // Over a grid: the form along k plus linear parameters of every kind of step.
            let grid = GridForm {
                linear: vec![s.clone(), t],
                shaped: Some(("k".to_string(), form.clone())),
                base: None,
            };
            let text = grid.expr("N");
            prop_assert_eq!(grid_expr(&grid, "N"), parsed(&text), "{}", text);
            // A single form (numbers constant in k) as the base of a grid.
            n.iter_mut().for_each(|x| x.slope = Q::zero());
            let values: Vec<Q> = n.iter().map(|x| x.intercept.clone()).collect();
            let base = match kind {
                PwlKind::Line => PwlForm::Line {
                    slope: values[0].clone(),
                    constant: values[1].clone(),
                },
                _ => PwlForm::Vee {
                    centre: values[0].clone(),
                    base: values[1].clone(),
                },
            };
            let grid = GridForm {
                linear: vec![s],
                shaped: None,
                base: Some(base),
            };
            let text = grid.expr("N");
            prop_assert_eq!(grid_expr(&grid, "N"), parsed(&text), "{}", text);
            let (lo, hi) = grid.window();
            prop_assert_eq!(grid_window(&grid), (parsed(&lo), parsed(&hi)));
        }
    }

    #[test]
    fn a_slope_that_is_not_an_integer_is_printed_and_checked_as_found() {
        // Printed `3/2k`, the claims parser would read 3/(2k): the miner writes `3k/2`.
        for (slope, constant, text) in [
            (Q::frac(1, 2), Q::one(), "k/2+1"),
            (Q::frac(-1, 2), Q::zero(), "-k/2"),
            (Q::frac(3, 2), Q::frac(-1, 3), "3k/2-1/3"),
            (Q::frac(-5, 4), Q::int(2), "-5k/4+2"),
        ] {
            let n = (slope, constant);
            assert_eq!(crate::miner::affine_text(&n.0, &n.1, "k"), text);
            assert_eq!(affine_expr(&n, "k"), parsed(text), "{text}");
            for k in -3..=3 {
                let found = &(&n.0 * &Q::int(k)) + &n.1;
                let read = crate::claims::evaluate(&format!("let k = {k} in {text}")).unwrap();
                assert_eq!(read.to_string(), found.to_string(), "{text} at k = {k}");
            }
        }
    }

    #[test]
    fn displayed_affine_numbers_are_the_texts_numbers_as_tex() {
        for (slope, constant, text, math) in [
            (Q::int(10), Q::int(5), "10k+5", "10k + 5"),
            (Q::one(), Q::zero(), "k", "k"),
            (-Q::one(), Q::int(-1), "-k-1", "-k - 1"),
            (Q::zero(), Q::int(3), "3", "3"),
            (Q::zero(), Q::frac(-1, 2), "-1/2", "-\\frac{1}{2}"),
            (
                Q::frac(3, 2),
                Q::frac(-1, 3),
                "3k/2-1/3",
                "\\frac{3k}{2} - \\frac{1}{3}",
            ),
            (Q::frac(-1, 2), Q::zero(), "-k/2", "-\\frac{k}{2}"),
        ] {
            assert_eq!(crate::miner::affine_text(&slope, &constant, "k"), text);
            assert_eq!(affine_math(&slope, &constant, "k"), math, "{text}");
        }
    }

    #[test]
    fn displayed_formulas_follow_the_printed_ones_line_for_line() {
        for text in ["2k+1,2k,1", "2k,k,1"] {
            displayed_formulas_follow_the_printed_ones(text);
        }
    }

    fn displayed_formulas_follow_the_printed_ones(text: &str) {
        let (_, t) = family(text, &[("k", 1, 12)]);
        let forms = family_forms(&t.typed_columns()).unwrap();
        let table = family_forms_table(&forms);
        let shown = family_formulas_math(&forms, |name| format!("\\mathrm{{{name}}}"));
        assert_eq!(shown.len(), table.rows.len());
        let formula = table.columns.iter().position(|c| c == "formula").unwrap();
        for (row, math) in table.rows.iter().zip(&shown) {
            // `h1(k) = 2k+1  (k ≥ 1)` against `$\mathrm{h1}(k) = 2k + 1$ ($k \ge 1$)`: the
            // same line once spaces, `$`, `\mathrm{…}` and `\ge` are read alike.
            let plain = |s: &str| {
                s.replace("\\mathrm{", "")
                    .replace("\\ge", "≥")
                    .chars()
                    .filter(|c| !" ${}".contains(*c))
                    .collect::<String>()
            };
            let printed = row[formula].text();
            assert_eq!(plain(math), plain(&printed), "{printed}");
            assert!(
                math.starts_with('$') && math.matches('$').count() == 4,
                "{math}"
            );
        }
    }

    /// A progressions form's expression, evaluated by the claims evaluator, rebuilds every
    /// member of the data; the claims checker re-verifies it beyond; a form with one number
    /// changed is caught by both.
    #[test]
    fn progressions_forms_rebuild_from_their_expression_and_re_verify() {
        for (text, last) in [("2k+1,2k,2,1", 12), ("2k,k,1", 10)] {
            let (fam, t) = family(text, &[("k", 1, last)]);
            let columns = t.typed_columns();
            let forms = family_forms(&columns).unwrap();
            assert!(forms.closed.is_none(), "{text}");
            let form = forms.progressions.clone().unwrap().unwrap();
            let Some((_, Column::Pwl(fs))) = columns.iter().find(|(n, _)| n == "payoff") else {
                panic!("a payoff column");
            };
            assert_eq!(rebuild_from_expr(&form, "k", fs).unwrap(), None, "{text}");
            let check = verify_family_payoff(&forms, &columns, &fam, 2 * last, &Silent)
                .unwrap()
                .unwrap();
            assert_eq!(check.not_rebuilt, None);
            assert_eq!(check.check.finding.verdict, VerdictKind::Holds, "{text}");
            assert_eq!((check.check.to, check.check.beyond), (2 * last, last));
            // The expression printed is the expression checked.
            let e = form.expr("N", "k");
            assert_eq!(parsed(&e.to_string()), e, "{e}");
            // One value of one class one more: neither the data nor the engine agree.
            let mut wrong = form.clone();
            let v = &mut wrong.classes[0].progressions[0].values[0];
            v.intercept = &v.intercept + &Q::one();
            let miss = rebuild_from_expr(&wrong, "k", fs).unwrap().expect("a miss");
            // Raised at one point, the function is raised by at most 1 between its neighbours.
            let d = &miss.form - &miss.data;
            assert!(d > Q::zero() && d <= Q::one(), "{text}: {miss:?}");
            assert_eq!(miss.member.rem_euclid(form.period as i64), 0);
            let check = verify_progression_form(&wrong, "k", &fam, last + 2, &Silent).unwrap();
            assert_eq!(check.finding.verdict, VerdictKind::Fails, "{text}");
        }
    }

    #[test]
    fn a_wrong_form_fails_its_re_verification() {
        let (fam, t) = family("2k+1,2k,1", &[("k", 1, 12)]);
        let mut z = family_forms(&t.typed_columns()).unwrap().closed.unwrap();
        // One more at the top of every zigzag: f_N is one less than that everywhere.
        let top = z.form.numbers.iter_mut().find(|n| n.name == "top").unwrap();
        top.intercept = &top.intercept + &Q::one();
        let check = verify_closed_form(&z, &fam).unwrap();
        assert_eq!(check.finding.verdict, VerdictKind::Fails);
        let counterexample = check
            .finding
            .counterexample
            .as_ref()
            .expect("a counterexample");
        assert_eq!(counterexample.point[0].0, "k", "{}", check.text());
    }

    #[test]
    fn a_family_needs_one_parameter_with_consecutive_values() {
        let columns = vec![
            ("k".to_string(), Column::Int(vec![1, 2, 4])),
            ("v".to_string(), Column::Int(vec![5, 6, 7])),
        ];
        let e = family_forms(&columns).unwrap_err().to_string();
        assert!(
            e.contains("consecutive values (one row each); k does not"),
            "{e}"
        );
        let e = family_forms(&[("k".to_string(), Column::Exact(vec![Q::zero()]))])
            .unwrap_err()
            .to_string();
        assert!(e.contains("not an integer parameter"), "{e}");
        assert!(family_forms(&[]).is_err());
        assert!(family_forms(&[("k".to_string(), Column::Int(vec![]))]).is_err());
        // A payoff column of values (a bonus grid) is a quantity with no function per member.
        let columns = vec![
            ("k".to_string(), Column::Int(vec![1, 2, 3, 4, 5])),
            ("payoff".to_string(), Column::Exact(vec![Q::one(); 5])),
        ];
        let forms = family_forms(&columns).unwrap();
        assert_eq!(forms.fits().count(), 1);
        assert_eq!(
            forms.breakpoints.map(|(name, _)| name),
            Some("payoff".to_string())
        );
        let e = grid_forms(&columns, 1).unwrap_err().to_string();
        assert!(e.contains("not a piecewise-linear function"), "{e}");
    }
}
