//! The Scoring Nim report: Figures 2–6 of the paper redrawn from exact payoffs f_N(p), with
//! their breakpoints, a table of the plotted positions' tails, the closed forms mined along the
//! family (2k+1, 2k, 1) with their status (the family table, its mining and the zigzag form's
//! re-verification live in [`crate::tables`]), and the verdicts.

use std::collections::BTreeMap;

use super::{command, common_commands, param, provenance, verdicts};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::games::scoring::{HeapSize, Limits, Method, nim_heaps, scoring_nim, solve};
use crate::num::{IntRange, Pwl, Q};
use crate::progress::Progress;
use crate::report::context::{Axis, Report, Series, SeriesStyle, TableSection};
use crate::report::data::{FigureSpec, MarkSpec, TableSpec, figure, table};
use crate::report::files::Files;
use crate::report::{Paper, ReportOptions};
use crate::tables::mined::{ZIGZAG_BEYOND, family_forms, family_forms_table, verify_closed_form};
use crate::tables::scoring::family_table;

/// The family whose closed forms are mined (Theorem 6.3 (i)), and its last member.
const FAMILY: &str = "2k+1,2k,1";
const FAMILY_MAX_K: i64 = 30;

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
    let mut breakpoints_per_figure = Vec::new();
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
                    style: SeriesStyle::Line,
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
        breakpoints_per_figure.push(format!("({}): {}", show(&p), f.breakpoints().len()));
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
        progress.advance(1);
    }
    summary.findings.insert(
        0,
        format!(
            "Figures 2–6 redrawn from exact payoffs: breakpoints per figure {}.",
            breakpoints_per_figure.join(", ")
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
    let forms = family_forms(&data.typed_columns())?;
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
            let check = verify_closed_form(z, &fam)?;
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
    progress.advance(1);
    Ok((tables, finding))
}
