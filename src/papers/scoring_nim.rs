//! The Scoring Nim report: Figures 2–6 of the paper redrawn from exact payoffs f_N(p), with
//! their breakpoints, a table of the plotted positions' tails, the closed forms mined along the
//! family (2k+1, 2k, 1) with their status, and the verdicts. Also the family tables and the
//! re-verification of a mined zigzag form that `nimlab scoring family` and `nimlab mine family
//! scoring` share with this report.

use std::collections::BTreeMap;

use super::mined::{family_forms, family_forms_table};
use super::{command, common_commands, param, provenance, verdicts};
use crate::claims::{Finding, Registry, check_registry};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::games::scoring::{
    HeapSize, Limits, Method, NoProgress, Progress as SolveProgress, nim_heaps, scoring_nim, solve,
    solve_cost, solve_many_reporting,
};
use crate::miner::{ClosedForm, GridForm};
use crate::num::{IntRange, Pwl, Q, QRange, last_fitting};
use crate::report::context::{Axis, Report, Series, TableSection};
use crate::report::data::{FigureSpec, MarkSpec, TableSpec, figure, table};
use crate::report::files::Files;
use crate::report::{Paper, Progress, ReportOptions};

/// The family whose closed forms are mined (Theorem 6.3 (i)), and its last member.
const FAMILY: &str = "2k+1,2k,1";
const FAMILY_MAX_K: i64 = 30;

/// Members beyond the data on which a mined zigzag form is re-verified.
pub const ZIGZAG_BEYOND: i64 = 4;

/// The columns of a payoff without a bonus grid (`nimlab scoring table` and `family`).
pub const PWL_COLUMNS: [&str; 4] = ["breakpoints", "c_minus", "c_plus", "payoff"];

/// A payoff's cells under [`PWL_COLUMNS`].
fn pwl_cells(f: &Pwl) -> Vec<Cell> {
    vec![
        Cell::Int(f.breakpoints().len() as i64),
        f.left_intercept().into(),
        f.right_intercept().into(),
        Cell::from(f),
    ]
}

/// The rows of a family of Scoring Nim positions (`nimlab scoring family`): parameters, heaps,
/// and the payoff under [`PWL_COLUMNS`] or, with a grid, one row per bonus N with its value.
pub fn family_table(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
    limits: &Limits,
) -> Result<Table> {
    family_table_reporting(fam, ranges, grid, method, limits, &NoProgress)
}

/// The most rows a family table may have: it is held whole, and more rows than this are days of
/// output, never what was meant.
pub const MAX_FAMILY_ROWS: u64 = 100_000_000;

/// Bytes of one member while listed (its parameter map and heaps), besides `4·heaps`.
const MEMBER_BYTES: u64 = 160;
/// Bytes one held table cell costs: the cell (a rational is two big integers on the heap)
/// and its rendered text.
const CELL_BYTES: u64 = 192;

/// Estimated peak bytes of [`family_table`] and its row count, from the ranges alone (no
/// member listed, no move generated): the solve of the members' hull (bounded by the heaps'
/// maxima, which [`Family::heap_maxima`] also checks for range), the members, and the rows.
pub fn family_cost(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
) -> Result<(u64, u64)> {
    let count = fam.member_count(ranges)?;
    let mut hull = fam.heap_maxima(ranges)?;
    hull.sort_unstable_by(|x, y| y.cmp(x));
    let solve = solve_cost(&scoring_nim(), &[nim_heaps(&hull)], method)
        .expect("Nim never splits and bounds its moves");
    let k = fam.heaps().len() as u64;
    let rows = count.saturating_mul(grid.map_or(1, QRange::len));
    let columns = fam.params().len() as u64 + k + if grid.is_some() { 2 } else { 4 };
    let bytes = solve
        .bytes
        .saturating_add(count.saturating_mul(MEMBER_BYTES + 4 * k))
        .saturating_add(rows.saturating_mul(columns * CELL_BYTES));
    Ok((bytes, rows))
}

/// Refuses a family table over the memory limit or [`MAX_FAMILY_ROWS`], before any work,
/// naming the estimate; for one parameter it suggests the longest range from the same start
/// that fits.
fn check_family_cost(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
    limits: &Limits,
) -> Result<()> {
    let fits = |r: &BTreeMap<String, IntRange>| {
        family_cost(fam, r, grid, method)
            .is_ok_and(|(b, rows)| b <= limits.max_bytes && rows <= MAX_FAMILY_ROWS)
    };
    let (bytes, rows) = family_cost(fam, ranges, grid, method)?;
    if bytes <= limits.max_bytes && rows <= MAX_FAMILY_ROWS {
        return Ok(());
    }
    // With one parameter the cost grows with the range's end: bisect for the longest range.
    let mut suggestion = String::new();
    if let [(name, range)] = ranges.iter().collect::<Vec<_>>()[..] {
        let with_end = |end: i64| {
            let mut r = ranges.clone();
            r.insert(
                name.clone(),
                IntRange::new(range.start(), end).expect("start ≤ end"),
            );
            r
        };
        // Ends below the refused one only.
        if range.end() > range.start()
            && let Some(lo) =
                last_fitting(range.start(), range.end() - 1, |end| fits(&with_end(end)))
        {
            suggestion = format!(
                "use {name} = {}..{lo} (the longest range from {} that fits), ",
                range.start(),
                range.start()
            );
        }
    }
    let what = format!(
        "the family '{fam}' over {} ({} rows)",
        ranges
            .iter()
            .map(|(p, r)| format!("{p} = {r}"))
            .collect::<Vec<_>>()
            .join(", "),
        rows
    );
    if rows > MAX_FAMILY_ROWS {
        return Err(Error::invalid(format!(
            "{what} is more than the limit of {MAX_FAMILY_ROWS} rows; {suggestion}narrow the ranges{}",
            if grid.is_some() {
                " or use fewer bonus values"
            } else {
                ""
            }
        )));
    }
    Err(Error::TooLarge {
        what,
        needed_bytes: bytes,
        limit_bytes: limits.max_bytes,
        suggestion: format!(
            "{suggestion}narrow the ranges{}, or raise --memory-limit",
            if grid.is_some() {
                ", use fewer bonus values"
            } else {
                ""
            }
        ),
    })
}

/// [`family_table`], refusing oversized requests before any work and reporting the solve's
/// progress.
pub fn family_table_reporting(
    fam: &Family,
    ranges: &BTreeMap<String, IntRange>,
    grid: Option<&QRange>,
    method: Method,
    limits: &Limits,
    progress: &dyn SolveProgress,
) -> Result<Table> {
    check_family_cost(fam, ranges, grid, method, limits)?;
    let members = fam.members(ranges)?;
    // Nim never splits heaps, so every member is reachable from the componentwise maximum of the
    // sorted members: one solve serves the whole family.
    let k = fam.heaps().len();
    let mut hull = vec![0 as HeapSize; k];
    for m in &members {
        let mut s = m.heaps.clone();
        s.sort_unstable_by(|x, y| y.cmp(x));
        for (h, v) in hull.iter_mut().zip(s) {
            *h = (*h).max(v);
        }
    }
    let sol = solve_many_reporting(
        &scoring_nim(),
        &[nim_heaps(&hull)],
        method,
        limits,
        progress,
    )?;
    let params = fam.params();
    let mut columns: Vec<String> = params.clone();
    columns.extend((1..=k).map(|i| format!("h{i}")));
    match grid {
        Some(_) => columns.extend(["bonus".to_string(), "payoff".to_string()]),
        None => columns.extend(PWL_COLUMNS.iter().map(|c| c.to_string())),
    }
    let mut t = Table {
        columns,
        rows: Vec::new(),
    };
    for m in &members {
        let f = sol.payoff(&nim_heaps(&m.heaps))?;
        let mut lead: Vec<Cell> = params.iter().map(|p| Cell::Int(m.params[p])).collect();
        lead.extend(m.heaps.iter().map(|&h| Cell::from(h)));
        match grid {
            Some(g) => {
                for n in g.iter() {
                    let mut row = lead.clone();
                    let v = f.eval(&n);
                    row.extend([Cell::from(n), v.into()]);
                    t.rows.push(row);
                }
            }
            None => {
                lead.extend(pwl_cells(&f));
                t.rows.push(lead);
            }
        }
    }
    Ok(t)
}

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
            self.param,
            self.from,
            self.to,
            self.finding.verdict,
            self.finding.evidence()
        )
    }
}

/// Re-verifies a zigzag form of the payoffs of `family` with the claims checker, on the data's
/// members from the form's first and on [`ZIGZAG_BEYOND`] new ones, at every half-integer N from
/// two below the first peak to two beyond the last. A finite check: the form stays OBSERVED.
pub fn verify_closed_form(form: &ClosedForm, family: &str) -> Result<ClosedFormCheck> {
    let to = form.to + ZIGZAG_BEYOND;
    let over = format!(
        "{} in {}..{to}, N in {}..{} step 1/2",
        form.param, form.from, form.n_from, form.n_to
    );
    Ok(ClosedFormCheck {
        param: form.param.clone(),
        from: form.from,
        to,
        finding: check_payoff_form(&over, family, &form.expr)?,
    })
}

/// The claims checker's verdict on `payoff(N, [family]) = expr` over the ranges `over`.
fn check_payoff_form(over: &str, family: &str, expr: &str) -> Result<Finding> {
    let toml = format!(
        "paper = \"mine\"\n[[claim]]\nid = \"form\"\nlabel = \"closed form\"\nstatement = \"\"\n\
         for = \"{over}\"\nactual = \"payoff(N, [{family}])\"\nexpected = \"{expr}\"\n"
    );
    let reg = Registry::parse(std::path::Path::new("(closed form)"), &toml)?;
    let mut v = check_registry(&reg, false, &[], &|| {})?;
    Ok(v.remove(0))
}

/// Re-verifies a grid form of the payoffs of `family` with the claims checker: the shaped
/// parameter from the form's first member to [`ZIGZAG_BEYOND`] past the data, every linear one
/// two past it, at every half-integer N of the form's window. A finite check: still OBSERVED.
pub fn verify_grid_form(
    form: &GridForm,
    family: &str,
    ranges: &[(String, i64, i64)],
) -> Result<(String, Finding)> {
    let (n_from, n_to) = form.window();
    let mut over: Vec<String> = ranges
        .iter()
        .map(|(p, lo, hi)| match &form.shaped {
            Some((s, f)) if s == p => format!("{p} in {}..{}", f.from, hi + ZIGZAG_BEYOND),
            _ => format!("{p} in {lo}..{}", hi + 2),
        })
        .collect();
    over.push(format!("N in {n_from}..{n_to} step 1/2"));
    let over = over.join(", ");
    let finding = check_payoff_form(&over, family, &form.expr("N"))?;
    Ok((over, finding))
}

/// The paper's figures: number, position, what the paper calls it.
const FIGURES: [(u32, [HeapSize; 3], &str); 5] = [
    (2, [5, 4, 2], "f_N(5,4,2)"),
    (3, [7, 6, 1], "F_3(N) = f_N(7,6,1)"),
    (4, [8, 7, 1], "f_N(8,7,1)"),
    (5, [6, 4, 1], "f_N(6,4,1)"),
    (6, [5, 4, 3], "f_N(5,4,3)"),
];

fn show(p: &[HeapSize]) -> String {
    p.iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn args(p: &[HeapSize]) -> String {
    p.iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Def 6.2: F_k(N) = 2 − min over j ∈ {−(2k−2), …, 2k−2} step 2 of |N − j|.
fn big_f(k: i64, n: i64) -> i64 {
    2 - (-(k - 1)..=(k - 1))
        .map(|i| (n - 2 * i).abs())
        .min()
        .expect("k ≥ 1")
}

/// The N range of a figure: three units beyond the outermost breakpoints (beyond them f is
/// linear), rounded out to integers.
fn bonus_range(f: &Pwl) -> (i64, i64) {
    let bps = f.breakpoints();
    let to_i64 = |q: num_bigint::BigInt| i64::try_from(q).unwrap_or(0);
    match (bps.first(), bps.last()) {
        (Some((lo, _)), Some((hi, _))) => (to_i64(lo.floor()) - 3, to_i64(hi.ceil()) + 3),
        _ => (-5, 5),
    }
}

/// The N grid of a figure: every integer of lo..hi and every breakpoint, sorted.
fn grid(f: &Pwl, lo: i64, hi: i64) -> Vec<Q> {
    let mut xs: Vec<Q> = (lo..=hi).map(Q::int).collect();
    xs.extend(f.breakpoints().iter().map(|(x, _)| x.clone()));
    xs.sort();
    xs.dedup();
    xs
}

pub fn build(opts: &ReportOptions, progress: &dyn Progress) -> Result<Paper> {
    let name = "scoring-nim";
    let mut files = Files::new();
    let (verdict_table, mut summary) = verdicts(name, opts, progress, &mut files)?;
    progress.stage("scoring-nim: figures");
    progress.add_work(FIGURES.len() as u64);
    let mut figures = Vec::new();
    let mut tails = Table::new(&["figure", "position", "breakpoints", "c_plus", "c_minus"]);
    let mut reproduce = common_commands(opts, &verdict_table);
    for (number, p, what) in FIGURES {
        let heaps = nim_heaps(&p);
        let f = solve(&scoring_nim(), &heaps, Method::Auto, &Limits::default())?.payoff(&heaps)?;
        let (lo, hi) = bonus_range(&f);
        let mut data = Table::new(&["bonus", "payoff"]);
        for n in grid(&f, lo, hi) {
            let v = f.eval(&n);
            data.push(vec![n.into(), v.into()]);
        }
        let mut marks = Table::new(&["bonus", "payoff"]);
        for (x, y) in f.breakpoints() {
            marks.push(vec![x.clone().into(), y.clone().into()]);
        }
        let integral = f.breakpoints().iter().all(|(x, _)| x.is_integer());
        let id = format!("figure{number}");
        let payoff_cmd = format!("nimlab scoring payoff {}", args(&p));
        figures.push(figure(
            FigureSpec {
                id: id.clone(),
                title: format!("Figure {number}: {what}"),
                caption: format!(
                    "The exact payoff N ↦ {what} of Scoring Nim for {} ≤ N ≤ {}, with its {} breakpoints marked{}; beyond the outermost breakpoints f is linear with slope ±1 (c⁺ = {}, c⁻ = {}).",
                    lo.to_string().replace('-', "−"),
                    hi,
                    f.breakpoints().len(),
                    if integral { " (all at integers)" } else { "" },
                    f.right_intercept(),
                    f.left_intercept(),
                ),
                command: format!("{payoff_cmd} --bonus={lo}..{hi} --format csv"),
                x: Axis {
                    column: "bonus".into(),
                    label: "bonus N".into(),
                },
                y_label: format!("f_N({})", show(&p)),
                series: vec![Series {
                    column: "payoff".into(),
                    label: what.to_string(),
                    color: "blue".into(),
                }],
                data,
                marks: Some(MarkSpec {
                    label: "breakpoints".into(),
                    csv: format!("{id}-breakpoints.csv"),
                    command: payoff_cmd.clone(),
                    data: marks,
                }),
                vlines: Vec::new(),
            },
            &mut files,
        )?);
        tails.push(vec![
            Cell::Int(i64::from(number)),
            Cell::Text(format!("({})", show(&p))),
            Cell::Int(f.breakpoints().len() as i64),
            f.right_intercept().into(),
            f.left_intercept().into(),
        ]);
        reproduce.push(command(
            &format!(
                "Figure {number}: the pieces and breakpoints of f_N({})",
                show(&p)
            ),
            payoff_cmd,
        ));
        if number == 3 {
            // Theorem 6.3 at k = 3: f_N(7,6,1) against Def 6.2's F_3 on the figure's grid.
            let first_diff = (lo..=hi).find(|&n| f.eval(&Q::int(n)) != Q::int(big_f(3, n)));
            summary.findings.push(match first_diff {
                None => format!(
                    "f_N(7,6,1) = F_3(N) = 2 − min_(j ∈ J_3) |N − j| at every integer N in {lo}..{hi}, so Figure 3 is F_3."
                ),
                Some(n) => format!(
                    "f_N(7,6,1) ≠ F_3(N) at N = {n}: f = {}, F_3 = {}.",
                    f.eval(&Q::int(n)),
                    big_f(3, n)
                ),
            });
        }
        progress.done(1);
    }
    summary.findings.insert(
        0,
        format!(
            "Figures 2–6 redrawn from exact payoffs: breakpoints per figure {}.",
            tails
                .rows
                .iter()
                .map(|r| match (&r[1], &r[2]) {
                    (Cell::Text(p), Cell::Int(b)) => format!("{p}: {b}"),
                    _ => String::new(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let mut tables = vec![table(
        TableSpec {
            title: "The plotted positions".into(),
            caption: "Number of breakpoints and the tail constants c⁺, c⁻ (f_N = c⁺ ± N for large N, c⁻ ± N for very negative N) of each figure's position.".into(),
            csv: "figures.csv".into(),
            command: "nimlab scoring limits 5 4 2   (and likewise for 7 6 1, 8 7 1, 6 4 1, 5 4 3)".into(),
            show: 10,
            data: tails,
        },
        &mut files,
    )?];
    let (mined, finding) = mined_family(progress, &mut files)?;
    tables.extend(mined);
    summary.findings.push(finding);
    reproduce.push(command(
        &format!(
            "The closed forms mined along ({FAMILY}), the zigzag form re-verified on {ZIGZAG_BEYOND} more members"
        ),
        mine_command(),
    ));
    let report = Report {
        name: name.into(),
        title: "Scoring Nim".into(),
        source: "Oginuma and Shinoda, Scoring Nim".into(),
        provenance: provenance(
            opts,
            vec![
                param(
                    "figures",
                    "f_N(p) for p = (5,4,2), (7,6,1), (8,7,1), (6,4,1), (5,4,3)",
                ),
                param(
                    "bonus range of a figure",
                    "3 beyond the outermost breakpoints; every integer and every breakpoint",
                ),
                param(
                    "solver",
                    "exact PWL payoffs (integer grid with parity check, exact fallback)",
                ),
                param(
                    "mined family",
                    format!(
                        "({FAMILY}), 1 ≤ k ≤ {FAMILY_MAX_K}; a zigzag form re-verified on {ZIGZAG_BEYOND} more members"
                    ),
                ),
            ],
        ),
        summary,
        verdicts: verdict_table,
        tables,
        figures,
        reproduce,
    };
    Ok(Paper { report, files })
}

/// `nimlab mine family scoring` on the report's family.
fn mine_command() -> String {
    format!("nimlab mine family scoring \"{FAMILY}\" --k 1..{FAMILY_MAX_K}")
}

/// The closed forms mined along (2k+1, 2k, 1) as `nimlab mine family scoring` finds them: the
/// table of every form (OBSERVED on the data), the zigzag form of the payoff with its
/// re-verification, and a finding.
fn mined_family(progress: &dyn Progress, files: &mut Files) -> Result<(Vec<TableSection>, String)> {
    progress.stage(&format!("scoring-nim: mining the family ({FAMILY})"));
    progress.add_work(1);
    let fam: Family = FAMILY
        .parse()
        .map_err(|e| Error::invalid(format!("family {FAMILY}: {e}")))?;
    let ranges = BTreeMap::from([("k".to_string(), IntRange::new(1, FAMILY_MAX_K)?)]);
    let data = family_table(&fam, &ranges, None, Method::Auto, &Limits::default())?;
    let forms = family_forms(&data)?;
    let (k0, k1) = forms.range;
    let mut tables = vec![table(
        TableSpec {
            title: format!("Closed forms mined along the family ({FAMILY})"),
            caption: format!(
                "Each numeric column of the family's table (heaps, number of breakpoints, c⁻ and c⁺ of f_N) and the first breakpoint, last breakpoint and breakpoint step of the payoff, as periodic-linear closed forms in k found by the miner in the members k = {k0}..{k1}; every form is OBSERVED on k = {k0}..{k1} only."
            ),
            csv: "mined-family.csv".into(),
            command: format!("{} --format csv", mine_command()),
            data: family_forms_table(&forms),
            show: 64,
        },
        files,
    )?];
    let finding = match &forms.closed {
        Some(z) => {
            let check = verify_closed_form(z, FAMILY)?;
            let form = format!("f_N({FAMILY}) = {}", z.expr);
            let status = format!("OBSERVED on k = {}..{}", z.from, z.to);
            let verified = format!(
                "k = {}..{} ({ZIGZAG_BEYOND} members beyond the data)",
                check.from, check.to
            );
            let mut t = Table::new(&["item", "value"]);
            for (item, value) in [
                ("closed form", form.clone()),
                ("found for", format!("k ≥ {}, every N", z.from)),
                ("status", status.clone()),
                ("re-verified on", verified.clone()),
                (
                    "at",
                    "every N from 2 below the first peak to 2 beyond the last, step 1/2".into(),
                ),
                ("verdict", check.finding.verdict.to_string()),
                ("evidence", check.finding.evidence()),
            ] {
                t.push(vec![item.into(), value.into()]);
            }
            tables.push(table(
                TableSpec {
                    title: format!("The zigzag closed form of f_N({FAMILY})"),
                    caption: format!(
                        "The payoff of every member from k = {} on is a zigzag, f(N) = top − min_j |N − j| over peaks j in an arithmetic progression, with top, peaks and step affine in k: one closed form in (N, k), found in the data, then re-verified by the claims checker on those members and on {ZIGZAG_BEYOND} the miner did not see. A finite check: the form is not PROVEN here.",
                        z.from
                    ),
                    csv: "mined-zigzag.csv".into(),
                    command: format!("{}   (its last two lines)", mine_command()),
                    data: t,
                    show: 8,
                },
                files,
            )?);
            format!(
                "Mined from the payoffs of ({FAMILY}), k = {k0}..{k1}: {form} for k ≥ {}, {status}; the claims checker re-verified it on {verified}: {} ({}).",
                z.from,
                check.finding.verdict,
                check.finding.evidence()
            )
        }
        None => format!(
            "No zigzag closed form of f_N({FAMILY}) was found in the members k = {k0}..{k1}."
        ),
    };
    progress.done(1);
    Ok((tables, finding))
}
