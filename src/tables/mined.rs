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
use crate::claims::{Claim, Finding, Quantifiers, Registry, check_registry};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::miner::{
    ClosedForm, FamilyForm, FamilyForms, GridForm, PeriodicLinear, PwlForm, PwlKind, grid_form,
    mine_family,
};
use crate::num::{Pwl, Q};

/// The column of a family table holding piecewise-linear functions (Scoring Nim's payoffs).
const PWL_COLUMN: &str = "payoff";

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
    fn numbers(&self) -> Option<Vec<Q>> {
        match self {
            Column::Int(v) => Some(v.iter().map(|&i| Q::int(i)).collect()),
            Column::Exact(v) => Some(v.clone()),
            Column::Pwl(_) => None,
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
    Ok(mine_family(
        param,
        first,
        &quantities,
        pwl.as_deref().map(|fs| (PWL_COLUMN, fs)),
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
    grid_form(&names, &points).ok_or_else(|| {
        Error::invalid(format!(
            "the payoffs over ({}) have no closed form the miner knows: it needs every parameter but one to add a constant per step, and a line, V, zigzag or zigzag with upturned tails with numbers affine in the last",
            names.join(", ")
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

/// Members beyond the data on which a mined zigzag form is re-verified.
pub const ZIGZAG_BEYOND: i64 = 4;

/// A mined zigzag form re-verified by the claims checker.
#[derive(Clone, Debug)]
pub struct ClosedFormCheck {
    /// The parameter's name.
    pub param: String,
    /// The members checked: from the form's first to [`ZIGZAG_BEYOND`] past the data.
    pub from: i64,
    /// The last member checked.
    pub to: i64,
    /// The verdict, with its evidence.
    pub finding: Finding,
}

impl ClosedFormCheck {
    /// In words: `re-verified with `nimlab check` on k = 2..34 (4 beyond the data): HOLDS, …`.
    pub fn text(&self) -> String {
        format!(
            "re-verified with `nimlab check` on {} = {}..{} ({ZIGZAG_BEYOND} beyond the data): {}, {}",
            self.param, self.from, self.to, self.finding.verdict, self.finding.evidence
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
    let to = form.to + ZIGZAG_BEYOND;
    let (n_from, n_to) = family_window(&form.form, &form.param);
    let over = Quantifiers::new(
        format!(
            "{} in {}..{to}, N in {}..{} step 1/2",
            form.param, form.from, form.n_from, form.n_to
        ),
        vec![
            Binder::interval(&form.param, Expr::int(form.from), Expr::int(to), None),
            bonus_binder(n_from, n_to),
        ],
    );
    Ok(ClosedFormCheck {
        param: form.param.clone(),
        from: form.from,
        to,
        finding: check_payoff_form(over, family, family_expr(&form.form, "N", &form.param))?,
    })
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
    let over = Quantifiers::new(text.join(", "), binders);
    let shown = over.text.clone();
    let finding = check_payoff_form(over, family, grid_expr(form, "N"))?;
    Ok((shown, finding))
}

/// The claims checker's verdict on `payoff(N, [family]) = expected` over the range `over`, a
/// claim built as a value.
fn check_payoff_form(over: Quantifiers, family: &Family, expected: Expr) -> Result<Finding> {
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
    let mut v = check_registry(&reg, false, &[], &|| {})?;
    Ok(v.remove(0).finding)
}

/// A heap of a family, c₀ + Σ cᵥ·v, as an expression.
fn heap_expr(h: &crate::family::Affine) -> Expr {
    let terms = h.coefficients().iter().map(|(v, &c)| match c {
        1 => Expr::var(v),
        -1 => Expr::neg(Expr::var(v)),
        _ => Expr::mul(Expr::int(c), Expr::var(v)),
    });
    let sum = terms.reduce(Expr::add);
    match (sum, h.constant()) {
        (None, c) => Expr::int(c),
        (Some(s), 0) => s,
        (Some(s), c) => Expr::add(s, Expr::int(c)),
    }
}

// The syntax trees of the miner's formulas. The miner prints a form's numbers, each affine in
// the parameter, with the rules of `miner::pwl_form` (`2k-1`, `a - (2k-1)`, `a + 2k-1`, …);
// each function below builds the tree the claims parser reads from that text, from the numbers
// themselves. One exception: a slope that is not an integer prints as `1/2k`, which the parser
// reads as 1/(2k); the tree here says (1/2)·k, what the miner found.

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
/// `-2k`, then `+c` or `-c`.
fn affine_expr(n: &Affine, param: &str) -> Expr {
    let (slope, constant) = n;
    if slope.is_zero() {
        return Expr::rational(constant);
    }
    let k = Expr::var(param);
    let term = if *slope == Q::one() {
        k
    } else if *slope == -Q::one() {
        Expr::neg(k)
    } else if slope.is_integer() {
        let times = Expr::mul(Expr::int(slope.abs().numer().clone()), k);
        if slope.signum() < 0 {
            Expr::neg(times)
        } else {
            times
        }
    } else {
        Expr::mul(Expr::rational(slope), k)
    };
    match constant.signum() {
        0 => term,
        1 => Expr::add(term, Expr::rational(constant)),
        _ => Expr::sub(term, Expr::rational(&-constant.clone())),
    }
}

/// `a + n` written without brackets, as text: the sum's first term joins `a`'s chain.
fn chain_add(a: Expr, n: Expr) -> Expr {
    match n.kind {
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) => {
            Expr::binary(op, chain_add(a, *l), *r)
        }
        _ => Expr::add(a, n),
    }
}

/// `a + n`, written `a − (|n|)` when n reads negative and left out when n = 0.
fn plus(a: Expr, n: &Affine, param: &str) -> Expr {
    if is_zero(n) {
        a
    } else if leads_negative(n) {
        Expr::sub(a, affine_expr(&negated(n), param))
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
        Expr::sub(a, affine_expr(n, param))
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
                abs(Expr::sub(Expr::var(var), Expr::var("j"))),
            )
        };
        Expr::sub(t(0), dip)
    };
    let v = |c: &Affine, b: &Affine| plus(abs(minus(Expr::var(var), c, param)), b, param);
    match kind {
        PwlKind::Line => plus(Expr::mul(t(0), Expr::var(var)), &n[1], param),
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
            Expr::add(e, Expr::mul(Expr::rational(&l.step), offset))
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
