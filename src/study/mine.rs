//! A study's mining steps: each mined column's periodic-linear form along the index (a family's
//! one parameter, or a sequence's index column), through the miner itself ([`mine_family`]), with
//! a column of piecewise-linear functions mined for its breakpoints and its closed form in
//! (N, index). Everything the miner finds is OBSERVED; `verify_to` re-computes the table
//! further (through the cache) and checks every form on the new rows, and a payoff's closed
//! form is re-checked by the claims checker — larger finite checks, said as such.
//!
//! Kept apart from the render because it is the one place a study's data is read back as
//! typed numbers and functions (never from their text) and handed to the miner.

use super::run::{PartsOptions, column_index, numbers};
use super::{MineDecl, MineHow, Study, TableSpec};
use crate::claims::eval::Definitions;
use crate::claims::typeset::{expr_math, name_math, rational_math};
use crate::error::Result;
use crate::export::{Cell, Table};
use crate::miner::{
    AcrossMember, BreakpointForms, FamilyForms, across_analysis, grid_form, mine_family,
};
use crate::num::{Pwl, Q};
use crate::progress::Progress;
use crate::report::context::{MinedForm, MinedSection};
use crate::tables::across::{across_forms, across_forms_table};
use crate::tables::cash_across::ACROSS_FUNCTIONS;
use crate::tables::mined::{
    GRID_FORM_COLUMNS, ZIGZAG_BEYOND, family_expr, family_forms_table, formulas_math, grid_expr,
    grid_form_table, no_grid_form, verify_closed_form, verify_grid_form,
};

/// One mining step: the periodic-linear forms of its columns along the index (a family's
/// parameter, or a sequence's index column), re-verified on a larger table when `verify_to`
/// asks for it.
pub(super) fn mine(
    study: &Study,
    m: &MineDecl,
    table: &Table,
    opts: &PartsOptions<'_>,
    progress: &dyn Progress,
) -> Result<(MinedSection, Table)> {
    let here =
        |message: String| study.error_at(m.at, &format!("mining step `{}`: {message}", m.name));
    let how = match m.how {
        MineHow::Family => "along the family",
        MineHow::Sequence => "as sequences",
        MineHow::Pwl => return mine_pwl(study, m, table).map_err(here),
        MineHow::Across => return mine_across(m, table).map_err(here),
    };
    let index = step_index(m, table).map_err(here)?;
    if m.how == MineHow::Family && m.index.is_none() {
        // A family's parameters come first; the miner reads one.
        let spec = study.tables.iter().find(|t| t.name == m.source);
        if let Some(params) = spec.and_then(|t| family_params(&t.spec))
            && params.len() > 1
        {
            return Err(here(format!(
                "mining along a family needs one parameter; the table `{}` has {}",
                m.source,
                params.join(", ")
            )));
        }
    }
    let (first, ks) = index_values(table, &index).map_err(here)?;
    let mut quantities = Vec::new();
    // At most one column of piecewise-linear functions (a payoff): its breakpoints and its
    // closed form in (N, index) are mined too.
    let mut functions: Option<(String, Vec<Option<Pwl>>)> = None;
    for c in &m.columns {
        let at = column_index(table, c).expect("the file checked the columns");
        if let Some(values) = numbers(table, at).into_iter().collect::<Option<Vec<Q>>>() {
            quantities.push((c.clone(), values));
            continue;
        }
        let fs: Option<Vec<Pwl>> = table.rows.iter().map(|r| r[at].as_pwl()).collect();
        match (fs, &functions) {
            (Some(fs), None) => functions = Some((c.clone(), fs.into_iter().map(Some).collect())),
            (Some(_), Some((other, _))) => {
                return Err(here(format!(
                    "one column of functions at a time: `{other}` and `{c}` both hold them"
                )));
            }
            (None, _) => {
                return Err(here(format!(
                    "the column `{c}` of `{}` holds neither exact numbers nor piecewise-linear functions in every row",
                    m.source
                )));
            }
        }
    }
    let forms: FamilyForms = mine_family(
        &index,
        first,
        &quantities,
        functions.as_ref().map(|(n, fs)| (n.as_str(), &fs[..])),
    );
    let last = *ks.last().expect("a non-empty index");
    let verified = match m.verify_to {
        None => None,
        Some(to) if to <= last => {
            return Err(here(format!(
                "verify_to = {to} is not beyond the data, which ends at {index} = {last}"
            )));
        }
        Some(to) => {
            let spec = study
                .tables
                .iter()
                .find(|t| t.name == m.source)
                .and_then(|t| t.spec.extended(&index, to))
                .ok_or_else(|| {
                    here(format!(
                        "verify_to needs a table whose `{index}` the study can extend; `{}` is not one",
                        m.source
                    ))
                })?;
            progress.stage(&format!("re-verifying `{}` to {index} = {to}", m.name));
            let (more, _) = opts
                .cache
                .table(&spec, opts.max_bytes, progress)
                .map_err(|e| here(format!("re-verification table: {e}")))?;
            Some((more, last + 1, to))
        }
    };
    let var = index.clone();
    let range = format!("${first} \\le {} \\le {last}$", name_math(&var));
    let mut shown = Vec::new();
    for q in &forms.quantities {
        let symbol = name_math(&q.name);
        let Some(fit) = &q.fit else {
            shown.push(MinedForm {
                column: q.name.clone(),
                status: "NONE".into(),
                range: range.clone(),
                formulas: Vec::new(),
                verified: None,
            });
            continue;
        };
        let verified = match &verified {
            None => None,
            Some((more, from, to)) => {
                Some(reverify(more, &index, &q.name, fit, *from, *to).map_err(here)?)
            }
        };
        shown.push(MinedForm {
            column: q.name.clone(),
            status: "OBSERVED".into(),
            range: range.clone(),
            formulas: formulas_math(fit, &symbol, &name_math(&var)),
            verified,
        });
    }
    if let Some((_, BreakpointForms::Progression { fits, .. })) = &forms.breakpoints {
        for q in fits {
            shown.push(MinedForm {
                column: q.name.clone(),
                status: if q.fit.is_some() { "OBSERVED" } else { "NONE" }.into(),
                range: range.clone(),
                formulas: q
                    .fit
                    .as_ref()
                    .map(|fit| formulas_math(fit, &name_math(&q.name), &name_math(&var)))
                    .unwrap_or_default(),
                verified: None,
            });
        }
    }
    if let Some((name, _)) = &functions {
        shown.push(closed_form(study, m, name, &forms, &var).map_err(|e| here(e.to_string()))?);
    }
    let section = MinedSection {
        name: m.name.clone(),
        title: m.title.clone().unwrap_or_else(|| m.name.clone()),
        what: format!(
            "{} of the table `{}` {how}, in ${}$",
            m.columns
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", "),
            m.source,
            name_math(&var)
        ),
        forms: shown,
        csv: format!("{}.csv", m.name),
    };
    Ok((section, family_forms_table(&forms)))
}

/// A `pwl` step: the closed form in N and every parameter of a Scoring family's payoffs over
/// the grid of its parameter values ([`grid_form`]: every parameter but at most one adds a
/// constant per step, the last shapes a line, V or zigzag with numbers affine in it), OBSERVED
/// on the data and re-verified by the claims checker beyond it ([`verify_grid_form`]). No form
/// is a result (NONE), not an error.
fn mine_pwl(
    study: &Study,
    m: &MineDecl,
    table: &Table,
) -> std::result::Result<(MinedSection, Table), String> {
    let Some(TableSpec::ScoringFamily {
        family,
        ranges,
        grid: None,
        ..
    }) = study
        .tables
        .iter()
        .find(|t| t.name == m.source)
        .map(|t| &t.spec)
    else {
        return Err(format!(
            "`how = \"pwl\"` mines the payoffs of a `scoring.family` table without a grid; `{}` is not one",
            m.source
        ));
    };
    if m.verify_to.is_some() {
        return Err(format!(
            "`verify_to` does not apply to `how = \"pwl\"`: the claims checker re-verifies the form {ZIGZAG_BEYOND} beyond the data along its shaped parameter and 2 beyond along each other one"
        ));
    }
    let [column] = &m.columns[..] else {
        return Err("`how = \"pwl\"` mines one column of payoffs: give one".to_string());
    };
    let at = column_index(table, column).expect("the file checked the columns");
    let params: Vec<String> = ranges.keys().cloned().collect();
    let param_at: Vec<usize> = params
        .iter()
        .map(|p| column_index(table, p).expect("a family table has its parameters' columns"))
        .collect();
    let points = table
        .rows
        .iter()
        .map(|row| {
            let f = row[at].as_pwl()?;
            let values = param_at
                .iter()
                .map(|&i| match &row[i] {
                    Cell::Int(v) => Some(*v),
                    _ => None,
                })
                .collect::<Option<Vec<i64>>>()?;
            Some((values, f))
        })
        .collect::<Option<Vec<(Vec<i64>, Pwl)>>>()
        .ok_or_else(|| {
            format!(
                "the column `{column}` of `{}` does not hold a piecewise-linear function in every row",
                m.source
            )
        })?;
    let bounds: Vec<(String, i64, i64)> = ranges
        .iter()
        .map(|(p, r)| (p.clone(), r.start(), r.end()))
        .collect();
    // Where a form holds: the data's bounds, the shaped parameter's from where its form starts.
    let range = |shaped_from: Option<(&str, i64)>| {
        let bound = |(p, lo, hi): &(String, i64, i64)| {
            let lo = match shaped_from {
                Some((s, from)) if s == p => from,
                _ => *lo,
            };
            format!("{lo} \\le {} \\le {hi}", name_math(p))
        };
        format!(
            "${}$",
            bounds.iter().map(bound).collect::<Vec<_>>().join(",\\ ")
        )
    };
    let variables = params.iter().map(|p| name_math(p)).collect::<Vec<_>>();
    let section = |forms: Vec<MinedForm>| MinedSection {
        name: m.name.clone(),
        title: m.title.clone().unwrap_or_else(|| m.name.clone()),
        what: format!(
            "`{column}` of the table `{}` over the grid of its parameters, in $N, {}$",
            m.source,
            variables.join(", ")
        ),
        forms,
        csv: format!("{}.csv", m.name),
    };
    let Some(form) = grid_form(&params, &points) else {
        let none = MinedForm {
            column: column.clone(),
            status: "NONE".into(),
            range: range(None),
            formulas: Vec::new(),
            verified: Some(no_grid_form(&params).to_string()),
        };
        return Ok((section(vec![none]), Table::new(&GRID_FORM_COLUMNS)));
    };
    let observed = bounds
        .iter()
        .map(|(p, lo, hi)| format!("{p} = {lo}..{hi}"))
        .collect::<Vec<_>>()
        .join(", ");
    let (over, finding) = verify_grid_form(&form, family, &bounds).map_err(|e| e.to_string())?;
    let expr = expr_math(&grid_expr(&form, "N"), &Definitions::new());
    let mined = MinedForm {
        column: column.clone(),
        status: "OBSERVED".into(),
        range: range(form.shaped.as_ref().map(|(p, f)| (p.as_str(), f.from))),
        formulas: vec![format!("${}(N) = {expr}$", name_math(column))],
        verified: Some(format!(
            "re-verified by the claims checker beyond the data, on `{over}`: {}, {}",
            finding.verdict,
            finding.evidence()
        )),
    };
    Ok((
        section(vec![mined]),
        grid_form_table(&form, &format!("OBSERVED on {observed}")),
    ))
}

/// The column a step reads its index from: the one it names, else the table's first.
fn step_index(m: &MineDecl, table: &Table) -> std::result::Result<String, String> {
    match &m.index {
        Some(i) => Ok(i.clone()),
        None => table
            .columns
            .first()
            .cloned()
            .ok_or_else(|| format!("the table `{}` has no columns", m.source)),
    }
}

/// An `across` step: a table of members each with certified periodic-linear forms (its
/// parameter, `period`, `proven_from`, `slopes`, and one list of intercepts c_0 … c_{P−1} per
/// mined column), read back as typed numbers and handed to the second-level fit
/// ([`across_analysis`]). Its forms are OBSERVED across the parameter; no form is a result.
fn mine_across(m: &MineDecl, table: &Table) -> std::result::Result<(MinedSection, Table), String> {
    if m.verify_to.is_some() {
        return Err(
            "`verify_to` does not apply to `how = \"across\"`: each member's forms are already proven, and the pattern across the parameter is observed on the members computed"
                .to_string(),
        );
    }
    let index = step_index(m, table)?;
    let column = |name: &str| {
        column_index(table, name).ok_or_else(|| {
            format!(
                "`how = \"across\"` reads members with certified forms, which need the columns `period`, `proven_from` and `slopes`; `{}` has no `{name}`",
                m.source
            )
        })
    };
    let (at_l, at_period, at_from, at_slopes) = (
        column(&index)?,
        column("period")?,
        column("proven_from")?,
        column("slopes")?,
    );
    let at_functions: Vec<usize> = m
        .columns
        .iter()
        .map(|c| column(c))
        .collect::<Result<_, _>>()?;
    let int = |cell: &Cell| match cell {
        Cell::Int(v) => Some(*v),
        _ => None,
    };
    let rationals = |cell: &Cell| match cell {
        Cell::List(list) => list
            .items
            .iter()
            .map(|c| match c {
                Cell::Int(v) => Some(Q::int(*v)),
                Cell::Rational(q) => Some(q.clone()),
                _ => None,
            })
            .collect::<Option<Vec<Q>>>(),
        _ => None,
    };
    let members = table
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let bad = |what: &str| format!("row {} of `{}`: {what}", r + 1, m.source);
            let period = int(&row[at_period])
                .and_then(|p| usize::try_from(p).ok())
                .filter(|&p| p > 0)
                .ok_or_else(|| bad("`period` is not a positive whole number"))?;
            let intercepts = at_functions
                .iter()
                .zip(&m.columns)
                .map(|(&at, c)| {
                    rationals(&row[at])
                        .filter(|v| v.len() == period)
                        .ok_or_else(|| {
                            bad(&format!(
                                "`{c}` is not a list of {period} exact numbers, one per residue"
                            ))
                        })
                })
                .collect::<std::result::Result<Vec<_>, _>>()?;
            Ok(AcrossMember {
                l: int(&row[at_l])
                    .ok_or_else(|| bad(&format!("`{index}` is not a whole number")))?,
                period,
                from: int(&row[at_from])
                    .ok_or_else(|| bad("`proven_from` is not a whole number"))?,
                slopes: rationals(&row[at_slopes])
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| bad("`slopes` is not a list of exact numbers"))?,
                intercepts,
            })
        })
        .collect::<std::result::Result<Vec<AcrossMember>, String>>()?;
    let (Some(first), Some(last)) = (members.first(), members.last()) else {
        return Err(format!("the table `{}` has no members", m.source));
    };
    let (first, last) = (first.l, last.l);
    // The members are consecutive in one step: the fit across the parameter is in its index.
    let step = members.get(1).map_or(1, |second| second.l - first);
    if step < 1 || members.windows(2).any(|w| w[1].l - w[0].l != step) {
        return Err(format!(
            "`{index}` does not step evenly upwards through the table `{}`",
            m.source
        ));
    }
    let named: Vec<(&str, &str)> = m
        .columns
        .iter()
        .map(|c| {
            ACROSS_FUNCTIONS
                .iter()
                .find(|(column, _, _)| column == c)
                .map_or((c.as_str(), c.as_str()), |(_, name, symbol)| {
                    (*name, *symbol)
                })
        })
        .collect();
    let symbols: Vec<String> = named
        .iter()
        .zip(&m.columns)
        .map(|((_, symbol), c)| {
            if *symbol == c.as_str() {
                name_math(c)
            } else {
                symbol.to_string()
            }
        })
        .collect();
    let names: Vec<&str> = named.iter().map(|(name, _)| *name).collect();
    let functions: Vec<(&str, &str)> = m
        .columns
        .iter()
        .zip(&symbols)
        .map(|(c, s)| (c.as_str(), s.as_str()))
        .collect();
    let analysis = across_analysis(members, &names, step);
    let forms = across_forms(&analysis, &index, &functions);
    let var = name_math(&index);
    let range = if step == 1 {
        format!("${first} \\le {var} \\le {last}$")
    } else {
        format!("${var} = {first}, {}, \\dots, {last}$", first + step)
    };
    let shown = forms
        .iter()
        .map(|f| MinedForm {
            column: f.quantity.clone(),
            status: if f.found { "OBSERVED" } else { "NONE" }.into(),
            range: range.clone(),
            formulas: f.formulas.clone(),
            verified: None,
        })
        .collect();
    let section = MinedSection {
        name: m.name.clone(),
        title: m.title.clone().unwrap_or_else(|| m.name.clone()),
        what: format!(
            "the certified forms of the table `{}` across ${var}$: period, start, slope and the intercepts {}",
            m.source,
            symbols
                .iter()
                .map(|s| format!("${s}$"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        forms: shown,
        csv: format!("{}.csv", m.name),
    };
    Ok((section, across_forms_table(&forms)))
}

/// The closed form in (N, index) of a column of functions, when the miner finds one, re-verified
/// by the claims checker beyond the data when the functions are a Scoring family's payoffs.
fn closed_form(
    study: &Study,
    m: &MineDecl,
    column: &str,
    forms: &FamilyForms,
    var: &str,
) -> Result<MinedForm> {
    let Some(z) = &forms.closed else {
        return Ok(MinedForm {
            column: column.to_string(),
            status: "NONE".into(),
            range: format!(
                "${} \\le {} \\le {}$",
                forms.range.0,
                name_math(var),
                forms.range.1
            ),
            formulas: Vec::new(),
            verified: None,
        });
    };
    let expr = expr_math(&family_expr(&z.form, "N", var), &Definitions::new());
    let family = study
        .tables
        .iter()
        .find(|t| t.name == m.source)
        .and_then(|t| match &t.spec {
            TableSpec::ScoringFamily {
                family, grid: None, ..
            } => Some(family),
            _ => None,
        });
    let verified = family
        .map(|f| verify_closed_form(z, f))
        .transpose()?
        .map(|check| {
            format!(
                "re-verified by the claims checker on ${} \\le {} \\le {}$ ({ZIGZAG_BEYOND} beyond the data) at every half-integer $N$ from two below the first breakpoint to two beyond the last: {}, {}",
                check.from,
                name_math(var),
                check.to,
                check.finding.verdict,
                check.finding.evidence()
            )
        });
    Ok(MinedForm {
        column: column.to_string(),
        status: "OBSERVED".into(),
        range: format!("${} \\le {} \\le {}$", z.from, name_math(var), z.to),
        formulas: vec![format!("${}(N) = {expr}$", name_math(column))],
        verified,
    })
}

/// The parameters of a family table's spec, if it is one.
fn family_params(spec: &TableSpec) -> Option<Vec<String>> {
    match spec {
        TableSpec::ScoringFamily { ranges, .. } | TableSpec::CandyFamily { ranges, .. } => {
            Some(ranges.keys().cloned().collect())
        }
        _ => None,
    }
}

/// The index column's first value and values, which must be consecutive whole numbers.
fn index_values(table: &Table, index: &str) -> std::result::Result<(i64, Vec<i64>), String> {
    let at = column_index(table, index).ok_or_else(|| format!("no column `{index}`"))?;
    let ks: Vec<i64> = numbers(table, at)
        .into_iter()
        .map(|q| q.filter(Q::is_integer).and_then(|q| q.to_i64()))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("the index `{index}` is not a whole number in every row"))?;
    if ks.windows(2).any(|w| w[1] != w[0] + 1) {
        return Err(format!(
            "the index `{index}` must take consecutive values, one row each"
        ));
    }
    let first = *ks.first().ok_or("the table has no rows")?;
    Ok((first, ks))
}

/// Checks a form on the rows `from..=to` of the larger table: `HOLDS` in words, or where it
/// fails.
fn reverify(
    more: &Table,
    index: &str,
    column: &str,
    fit: &crate::miner::PeriodicLinear,
    from: i64,
    to: i64,
) -> std::result::Result<String, String> {
    let i = column_index(more, index).ok_or_else(|| format!("no column `{index}`"))?;
    let c = column_index(more, column).ok_or_else(|| format!("no column `{column}`"))?;
    let ks = numbers(more, i);
    let vs = numbers(more, c);
    let var = name_math(index);
    let mut checked = 0;
    for (k, v) in ks.iter().zip(&vs) {
        let (Some(k), Some(v)) = (k, v) else { continue };
        let Some(k) = k.to_i64().filter(|k| (from..=to).contains(k)) else {
            continue;
        };
        let predicted = fit.eval(k);
        if &predicted != v {
            return Ok(format!(
                "FAILS beyond the data: at ${var} = {k}$ the form gives ${}$, the table ${}$",
                rational_math(&predicted),
                rational_math(v)
            ));
        }
        checked += 1;
    }
    Ok(format!(
        "re-verified beyond the data on ${from} \\le {var} \\le {to}$ ({checked} new rows): HOLDS there, still OBSERVED"
    ))
}
