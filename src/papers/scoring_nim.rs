//! The Scoring Nim report: Figures 2–6 of the paper redrawn from exact payoffs $f_N(p)$, with
//! their breakpoints, a table of the plotted positions' tails, the closed forms mined along the
//! family (2k+1, 2k, 1) with their status (the family table, its mining and the zigzag form's
//! re-verification live in [`crate::tables`]), and the verdicts.

use std::collections::BTreeMap;

use super::{Draft, command, param};
use crate::claims::eval::Definitions;
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::games::scoring::{HeapSize, Limits, Method, nim_heaps, scoring_nim, solve};
use crate::language::expr_math;
use crate::miner::{FamilyForm, PwlKind};
use crate::num::{IntRange, Pwl, Q};
use crate::progress::Progress;
use crate::report::ReportOptions;
use crate::report::context::{Axis, Figure, Series, SeriesStyle, TableSection, VLine};
use crate::report::data::{FigureSpec, MarkSpec, Shown, TableSpec, figure, table};
use crate::report::files::Files;
use crate::tables::mined::{
    ZIGZAG_BEYOND, family_expr, family_forms, family_forms_table, family_formulas_math,
    verify_closed_form,
};
use crate::tables::scoring::family_table;

/// The family whose closed forms are mined (Theorem 6.3 (i)), and its last member.
const FAMILY: &str = "2k+1,2k,1";
const FAMILY_MAX_K: i64 = 30;

/// The paper's figures: number, position, what the paper calls it (`$…$` mathematics).
const FIGURES: [(u32, [HeapSize; 3], &str); 5] = [
    (2, [5, 4, 2], "$f_N(5,4,2)$"),
    (3, [7, 6, 1], "$F_3(N) = f_N(7,6,1)$"),
    (4, [8, 7, 1], "$f_N(8,7,1)$"),
    (5, [6, 4, 1], "$f_N(6,4,1)$"),
    (6, [5, 4, 3], "$f_N(5,4,3)$"),
];

/// Whether two continuous PWL functions are equal: they are linear between consecutive points
/// of the union of their breakpoints and beyond its ends, so agreeing at those points and at one
/// point beyond each end is equality.
fn same_function(f: &Pwl, g: &Pwl) -> bool {
    let mut xs: Vec<Q> = f
        .breakpoints()
        .iter()
        .chain(g.breakpoints())
        .map(|(x, _)| x.clone())
        .collect();
    xs.sort();
    xs.dedup();
    let (lo, hi) = match (xs.first(), xs.last()) {
        (Some(a), Some(b)) => (a - &Q::int(1), b + &Q::int(1)),
        _ => (Q::int(-1), Q::int(1)),
    };
    xs.push(lo);
    xs.push(hi);
    xs.push(Q::zero());
    xs.iter().all(|x| f.eval(x) == g.eval(x))
}

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

/// The N grid of a figure: every integer of lo..hi and every breakpoint of every function
/// drawn, sorted. Each function is linear between neighbouring grid points, so the line
/// through its grid values is the function itself, not an approximation.
fn grid(fs: &[&Pwl], lo: i64, hi: i64) -> Vec<Q> {
    let mut xs: Vec<Q> = (lo..=hi).map(Q::int).collect();
    let inside = |x: &&Q| **x >= Q::int(lo) && **x <= Q::int(hi);
    xs.extend(
        fs.iter()
            .flat_map(|f| f.breakpoints().iter().map(|(x, _)| x))
            .filter(inside)
            .cloned(),
    );
    xs.sort();
    xs.dedup();
    xs
}

/// The functions a figure compares its payoff with, each with its series (a thin dashed line,
/// drawn under the payoff): for Figure 4, Theorem 6.3 (iii) at k = 3, x = 8 says
/// f_N(8,7,1) = max(F_3(N), |N| − 4), so both are drawn exactly and the payoff is seen to
/// follow the upper one.
fn references(number: u32) -> Vec<(Series, Pwl)> {
    if number != 4 {
        return Vec::new();
    }
    let abs_minus_4 = Pwl::linear(Q::int(1), Q::int(-4)).max(&Pwl::linear(Q::int(-1), Q::int(-4)));
    vec![
        (
            Series {
                column: "big_f3".into(),
                label: "$F_3(N)$".into(),
                color: "orange".into(),
                style: SeriesStyle::Dashed,
            },
            big_f_pwl(3),
        ),
        (
            Series {
                column: "abs_minus_4".into(),
                label: "$\\lvert N\\rvert - 4$".into(),
                color: "teal".into(),
                style: SeriesStyle::Dashed,
            },
            abs_minus_4,
        ),
    ]
}

/// Figures 2–6 redrawn from the exact payoffs, with the figures that show the same function
/// found exactly, and the table of the plotted positions' breakpoints and tails.
pub fn figures(d: &mut Draft, _opts: &ReportOptions, progress: &dyn Progress) -> Result<()> {
    let Draft {
        summary,
        figures,
        tables,
        reproduce,
        parameters,
        files,
        ..
    } = d;
    progress.stage("scoring-nim: figures");
    progress.add_work(FIGURES.len() as u64);
    let mut tails = Table::new(&["figure", "position", "breakpoints", "c_plus", "c_minus"]);
    let payoffs = FIGURES
        .iter()
        .map(|(_, p, _)| {
            let heaps = nim_heaps(p);
            solve(&scoring_nim(), &heaps, Method::Auto, &Limits::default())?.payoff(&heaps)
        })
        .collect::<Result<Vec<Pwl>>>()?;
    // Figures showing the same function, checked exactly (not trusted from the pictures).
    let mut same: Vec<(u32, u32)> = Vec::new();
    for a in 0..FIGURES.len() {
        for b in a + 1..FIGURES.len() {
            if same_function(&payoffs[a], &payoffs[b]) {
                same.push((FIGURES[a].0, FIGURES[b].0));
            }
        }
    }
    for &(a, b) in &same {
        let name = |n: u32| FIGURES.iter().find(|f| f.0 == n).map_or("", |f| f.2);
        let mut text = format!(
            "Figures {a} and {b} show the same function: {} and {} are equal for every real $N$ (same breakpoints, values and tails, checked exactly).",
            name(a),
            name(b)
        );
        if (a, b) == (2, 5) {
            text.push_str(&same_542_641_pattern()?);
        }
        summary.findings.push(text);
    }
    for ((number, p, what), f) in FIGURES.into_iter().zip(payoffs) {
        let (mut lo, mut hi) = bonus_range(&f);
        let mut vlines = Vec::new();
        let references = references(number);
        if number == 6 {
            // A window symmetric about N = 0, so f_N and f_{-N} can be compared by eye
            // (f_N(p) is not symmetric in N); N = 0 and N = −1 marked.
            let r = lo.abs().max(hi.abs());
            (lo, hi) = (-r, r);
            vlines.push(VLine {
                x: 0,
                label: "$N = 0$".into(),
            });
            vlines.push(VLine {
                x: -1,
                label: "$N = -1$".into(),
            });
        }
        let mut columns = vec!["bonus", "payoff"];
        columns.extend(references.iter().map(|(s, _)| s.column.as_str()));
        let mut data = Table::new(&columns);
        let drawn: Vec<&Pwl> = std::iter::once(&f)
            .chain(references.iter().map(|(_, g)| g))
            .collect();
        for n in grid(&drawn, lo, hi) {
            let mut row = vec![n.clone().into(), f.eval(&n).into()];
            row.extend(references.iter().map(|(_, g)| g.eval(&n).into()));
            data.push(row);
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
                    "The exact payoff $N \\mapsto$ {what} of Scoring Nim for ${lo} \\le N \\le {hi}$, with its {} breakpoints marked{}; beyond the outermost breakpoints it is linear with slope $\\pm 1$ ($c^+ = {}$, $c^- = {}$).{}{}",
                    f.breakpoints().len(),
                    if integral { " (all at integers)" } else { "" },
                    f.right_intercept(),
                    f.left_intercept(),
                    match number {
                        4 => " Drawn under it as dashed lines, exactly (every breakpoint of each is a point of the data): $F_3(N)$ (orange) and $\\lvert N\\rvert - 4$ (teal). By Theorem 6.3 (iii) $f_N(8,7,1) = \\max(F_3(N), \\lvert N\\rvert - 4)$ (the claim table checks the equality).",
                        6 => " The window is symmetric about $N = 0$ and the lines $N = 0$, $N = -1$ are marked: $f_N(5,4,3)$ is not symmetric in $N$.",
                        _ => "",
                    },
                    same
                        .iter()
                        .find_map(|&(a, b)| {
                            let other = if a == number { b } else if b == number { a } else { return None };
                            Some(format!(" The same function as Figure {other} (checked exactly)."))
                        })
                        .unwrap_or_default(),
                ),
                command: format!("{payoff_cmd} --bonus={lo}..{hi} --format csv"),
                x: Axis {
                    column: "bonus".into(),
                    label: "bonus $N$".into(),
                },
                y_label: format!("$f_N({})$", show(&p)),
                // The payoff last, so it is drawn over the curves it is compared with.
                series: references
                    .into_iter()
                    .map(|(s, _)| s)
                    .chain(std::iter::once(Series {
                        column: "payoff".into(),
                        label: what.to_string(),
                        color: "blue".into(),
                        style: SeriesStyle::Line,
                    }))
                    .collect(),
                data,
                marks: Some(MarkSpec {
                    label: "breakpoints".into(),
                    csv: format!("{id}-breakpoints.csv"),
                    command: payoff_cmd.clone(),
                    data: marks,
                }),
                vlines,
            },
            files,
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
                "Figure {number}: the pieces and breakpoints of $f_N({})$",
                show(&p)
            ),
            payoff_cmd,
        ));
        if number == 3 {
            // Theorem 6.3 at k = 3: f_N(7,6,1) against Def 6.2's F_3 on the figure's grid.
            // Only a disagreement would be news (the paper says Figure 3 depicts F_3).
            let first_diff = (lo..=hi).find(|&n| f.eval(&Q::int(n)) != Q::int(big_f(3, n)));
            if let Some(n) = first_diff {
                summary.findings.push(format!(
                    "$f_N(7,6,1) \\ne F_3(N)$ at $N = {n}$: $f = {}$, $F_3 = {}$.",
                    f.eval(&Q::int(n)),
                    big_f(3, n)
                ));
            }
        }
        progress.advance(1);
    }
    tables.push(table(
        TableSpec {
            title: "The plotted positions".into(),
            caption: "Number of breakpoints and the tail constants $c^+$, $c^-$ ($f_N = c^+ \\pm N$ for large $N$, $c^- \\pm N$ for very negative $N$) of each figure's position.".into(),
            csv: "figures.csv".into(),
            command: limits_command(),
            show: 10,
            headers: ["figure", "position", "breakpoints", "$c^+$", "$c^-$"]
                .map(String::from)
                .to_vec(),
            display: Vec::new(),
            data: tails,
        },
        files,
    )?);
    parameters.extend([
        param(
            "figures",
            format!(
                "$f_N(p)$ for $p = {}$",
                FIGURES
                    .iter()
                    .map(|(_, p, _)| format!("({})", show(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        param(
            "bonus range of a figure",
            "3 beyond the outermost breakpoints; every integer and every breakpoint",
        ),
        param(
            "solver",
            "exact PWL payoffs (integer grid with parity check, exact fallback)",
        ),
    ]);
    Ok(())
}

/// The figure of the largest breakpoints over all positions up to a size.
pub fn largest_breakpoints(
    d: &mut Draft,
    _opts: &ReportOptions,
    progress: &dyn Progress,
) -> Result<()> {
    progress.stage("scoring-nim: the largest breakpoints");
    d.figures.push(tails_figure(&mut d.files)?);
    Ok(())
}

/// The closed forms mined along the family (2k+1, 2k, 1): the mined zigzag form re-discovers
/// Theorem 6.3 (i), so it is a table, not a new result.
pub fn mined_family_section(
    d: &mut Draft,
    _opts: &ReportOptions,
    progress: &dyn Progress,
) -> Result<()> {
    let (mined, _finding) = mined_family(progress, &mut d.files)?;
    d.tables.extend(mined);
    d.reproduce.push(command(
        &format!(
            "The closed forms mined along ({FAMILY}), the zigzag form re-verified on {ZIGZAG_BEYOND} more members"
        ),
        mine_command(),
    ));
    d.parameters.push(param(
        "mined family",
        format!(
            "$(2k+1, 2k, 1)$, $1 \\le k \\le {FAMILY_MAX_K}$; a zigzag form re-verified on ${ZIGZAG_BEYOND}$ more members"
        ),
    ));
    Ok(())
}

/// The exact payoff of a position.
fn exact_payoff(p: &[HeapSize]) -> Result<Pwl> {
    let heaps = nim_heaps(p);
    solve(&scoring_nim(), &heaps, Method::Auto, &Limits::default())?.payoff(&heaps)
}

/// Def 6.2's $F_k$ as an exact PWL function: the maximum over $j \in J_k$ of
/// $2 - \lvert N - j\rvert = \min\lbrace 2 + (N - j), 2 - (N - j)\rbrace$.
fn big_f_pwl(k: i64) -> Pwl {
    (-(k - 1)..=(k - 1))
        .map(|i| {
            let j = 2 * i;
            Pwl::linear(Q::int(1), Q::int(2 - j)).min(&Pwl::linear(Q::int(-1), Q::int(2 + j)))
        })
        .reduce(|a, b| a.max(&b))
        .expect("k ≥ 1")
}

/// The least $k \ge 1$ from which $f_N(2k+1,2k,1) = F_k(N)$ for every real $N$ holds on every
/// member up to `fit_from` (where the miner's fit starts), checked exactly.
fn def_6_2_from(fit_from: i64) -> Result<i64> {
    let mut from = fit_from;
    for k in (1..fit_from).rev() {
        let h = HeapSize::try_from(k).map_err(|_| Error::invalid("k out of range"))?;
        if !same_function(&exact_payoff(&[2 * h + 1, 2 * h, 1])?, &big_f_pwl(k)) {
            break;
        }
        from = k;
    }
    Ok(from)
}

/// The figure of tails covers every position of at most four piles with at most this many
/// stones in all: every partition of $s \le$ this into at most four parts, so no cap on a pile
/// bends the curve.
const TAILS_MAX_STONES: HeapSize = 20;

/// The figure of $\max_{b \in B(p)} \lvert b\rvert$ against $\lvert p\rvert$ over every position
/// with at most four piles and at most [`TAILS_MAX_STONES`] stones, with the bound
/// $\lvert p\rvert - 1$ of the claim `tails-sharper` and the line $\lvert p\rvert / 2$ that small
/// positions suggest; the caption names where the data first cross that line.
fn tails_figure(files: &mut Files) -> Result<Figure> {
    let most = TAILS_MAX_STONES;
    // For each number of stones: the largest |b| and the first position (in loop order) with it.
    let mut largest: BTreeMap<i64, (Q, [HeapSize; 4])> = BTreeMap::new();
    for a in 0..=most {
        for b in 0..=a.min(most - a) {
            for c in 0..=b.min(most - a - b) {
                for d in 0..=c.min(most - a - b - c) {
                    let f = exact_payoff(&[a, b, c, d])?;
                    let s = i64::from(a + b + c + d);
                    let beta = f
                        .breakpoints()
                        .iter()
                        .map(|(x, _)| x.abs())
                        .max()
                        .unwrap_or_else(Q::zero);
                    let e = largest
                        .entry(s)
                        .or_insert_with(|| (Q::zero(), [a, b, c, d]));
                    if beta > e.0 {
                        *e = (beta, [a, b, c, d]);
                    }
                }
            }
        }
    }
    let crossing = largest
        .iter()
        .find(|(s, (beta, _))| *beta > Q::frac(**s, 2))
        .map(|(s, (beta, p))| {
            let piles: Vec<String> = p
                .iter()
                .filter(|&&h| h > 0)
                .map(|h| h.to_string())
                .collect();
            format!(
                " The line $\\lvert p\\rvert / 2$ (orange) is crossed first at $s = {s}$, e.g. by $({})$ (largest $\\lvert b\\rvert = {}$); the data do not suggest a bound $c \\lvert p\\rvert$ with $c \\le \\tfrac12$.",
                piles.join(","),
                crate::language::rational_math(beta)
            )
        })
        .unwrap_or_else(|| {
            format!(" No position with at most ${most}$ stones crosses the line $\\lvert p\\rvert / 2$ (orange).")
        });
    let mut data = Table::new(&["stones", "largest", "bound", "half"]);
    for (s, (beta, _)) in largest {
        data.push(vec![
            Cell::Int(s),
            beta.into(),
            Cell::Int((s - 1).max(0)),
            Q::frac(s, 2).into(),
        ]);
    }
    figure(
        FigureSpec {
            id: "tails".into(),
            title: "Largest breakpoint against the number of stones".into(),
            caption: format!(
                "For each number of stones $s \\le {most}$, the largest $\\lvert b\\rvert$ over the breakpoints $b$ of $N \\mapsto f_N(p)$ of every position $p$ with $\\lvert p\\rvert = s$ and at most four piles (exact payoffs). Sharper tails for Prop 5.5 (New results) gives $1 - \\lvert p\\rvert \\le b \\le \\lvert p\\rvert - 3$, so $\\lvert b\\rvert \\le \\lvert p\\rvert - 1$ (grey).{crossing}"
            ),
            command: "nimlab check data/claims/scoring-nim.toml --only tails-sharper".into(),
            x: Axis {
                column: "stones".into(),
                label: "number of stones $\\lvert p\\rvert$".into(),
            },
            y_label: "largest $\\lvert b\\rvert$".into(),
            series: vec![
                Series {
                    column: "bound".into(),
                    label: "$\\lvert p\\rvert - 1$".into(),
                    color: "gray".into(),
                    style: SeriesStyle::Line,
                },
                Series {
                    column: "half".into(),
                    label: "$\\lvert p\\rvert / 2$".into(),
                    color: "orange".into(),
                    style: SeriesStyle::Line,
                },
                Series {
                    column: "largest".into(),
                    label: "largest $\\lvert b\\rvert$".into(),
                    color: "blue".into(),
                    style: SeriesStyle::Markers,
                },
            ],
            data,
            marks: None,
            vlines: Vec::new(),
        },
        files,
    )
}

/// Whether $f_N(5,4,2) = f_N(6,4,1)$ is one member of the pattern
/// $f_N(2k+1,2k,2) = f_N(2k+2,2k,1)$: a sentence saying for which $k \le 6$ it fails.
fn same_542_641_pattern() -> Result<String> {
    let mut fails = Vec::new();
    for k in 1..=6 {
        let h: HeapSize = k;
        if !same_function(
            &exact_payoff(&[2 * h + 1, 2 * h, 2])?,
            &exact_payoff(&[2 * h + 2, 2 * h, 1])?,
        ) {
            fails.push(k.to_string());
        }
    }
    Ok(if fails.is_empty() {
        " It is one member of $f_N(2k+1,2k,2) = f_N(2k+2,2k,1)$, which holds for every $1 \\le k \\le 6$ (checked exactly).".into()
    } else {
        format!(
            " It does not generalise: $f_N(2k+1,2k,2) = f_N(2k+2,2k,1)$ fails for $k \\in \\lbrace {} \\rbrace$ among $1 \\le k \\le 6$ (checked exactly), so $(5,4,2)$ and $(6,4,1)$ are not one member of a family of equal payoffs of this shape.",
            fails.join(", ")
        )
    })
}

/// `nimlab scoring limits` for every plotted position, as one pasteable shell loop.
fn limits_command() -> String {
    let positions: Vec<String> = FIGURES
        .iter()
        .map(|(_, p, _)| format!("\"{}\"", args(p)))
        .collect();
    format!(
        "for p in {}; do nimlab scoring limits $p; done",
        positions.join(" ")
    )
}

/// The family's quantities as a reader sees them: symbol (TeX, no `$`) and meaning.
fn family_column(name: &str) -> (String, &'static str) {
    match name {
        "breakpoints" => ("B".into(), "the number of breakpoints"),
        "c_minus" => ("c^-".into(), "the left tail constant"),
        "c_plus" => ("c^+".into(), "the right tail constant"),
        "first_breakpoint" => ("\\beta^-".into(), "the first breakpoint"),
        "last_breakpoint" => ("\\beta^+".into(), "the last breakpoint"),
        "breakpoint_step" => ("\\Delta".into(), "the step of the breakpoints' progression"),
        _ => match name.strip_prefix('h').filter(|i| i.parse::<u32>().is_ok()) {
            Some(i) => (format!("h_{{{i}}}"), "a heap"),
            None => (
                format!("\\mathrm{{{}}}", name.replace('_', " ")),
                "a quantity",
            ),
        },
    }
}

/// Whether a family form is Def 6.2's $F_k$: a zigzag with top $2$ and peaks
/// $-(2k-2), \dots, 2k-2$ in steps of $2$ (Theorem 6.3 (i) says $f_N(2k+1,2k,1) = F_k(N)$).
fn is_def_6_2(form: &FamilyForm) -> bool {
    let expected = [
        ("top", 0, 2),
        ("first_peak", -2, 2),
        ("last_peak", 2, -2),
        ("peak_step", 0, 2),
    ];
    form.kind == PwlKind::Zigzag
        && form.numbers.len() == expected.len()
        && expected.iter().all(|&(name, slope, intercept)| {
            form.numbers.iter().any(|n| {
                n.name == name && n.slope == Q::int(slope) && n.intercept == Q::int(intercept)
            })
        })
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
            title: "Closed forms mined along the family $(2k+1, 2k, 1)$".into(),
            caption: format!(
                "Each numeric column of the family's table and the breakpoints of the payoff $f_N(2k+1,2k,1)$, as periodic-linear closed forms in $k$ found by the miner in the members ${k0} \\le k \\le {k1}$: {}. Every form is OBSERVED on that range only.",
                forms
                    .fits()
                    .map(|(name, _)| {
                        let (symbol, meaning) = family_column(name);
                        format!("${symbol}$ {meaning}")
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            csv: "mined-family.csv".into(),
            command: format!("{} --format csv", mine_command()),
            display: vec![
                (
                    "column".into(),
                    Shown::Cells(
                        forms
                            .fits()
                            .flat_map(|(name, fit)| {
                                vec![format!("${}$", family_column(name).0); fit.lines.len()]
                            })
                            .collect(),
                    ),
                ),
                (
                    "formula".into(),
                    Shown::Cells(family_formulas_math(&forms, |name| family_column(name).0)),
                ),
            ],
            data: family_forms_table(&forms),
            show: 64,
            headers: [
                "quantity",
                "period",
                "preperiod",
                "residue",
                "slope",
                "intercept",
                "from $k$",
                "formula",
                "status",
            ]
            .map(String::from)
            .to_vec(),
        },
        files,
    )?];
    let finding = match &forms.closed {
        Some(z) => {
            let check = verify_closed_form(z, &fam)?;
            let form = format!("f_N({FAMILY}) = {}", z.expr);
            let form_math = format!(
                "$f_N(2k+1,2k,1) = {}$",
                expr_math(&family_expr(&z.form, "N", &z.param), &Definitions::new())
            );
            let status = format!("OBSERVED on k = {}..{}", z.from, z.to);
            let status_math = format!("OBSERVED on ${} \\le k \\le {}$", z.from, z.to);
            let verified_math = format!(
                "${} \\le k \\le {}$ (${ZIGZAG_BEYOND}$ members beyond the data)",
                check.from, check.to
            );
            let theorem = is_def_6_2(&z.form);
            // The miner fits from its first regular member on; Def 6.2's F_k may hold below it.
            let from = if theorem {
                def_6_2_from(z.from)?
            } else {
                z.from
            };
            let mut t = Table::new(&["item", "value"]);
            let mut shown = Vec::new();
            for (item, value, math) in [
                ("closed form", form.clone(), form_math.clone()),
                (
                    "found for",
                    if from < z.from {
                        format!(
                            "k ≥ {from}, every N (k < {} checked exactly as F_k)",
                            z.from
                        )
                    } else {
                        format!("k ≥ {from}, every N")
                    },
                    if from < z.from {
                        format!(
                            "$k \\ge {from}$, every $N$ (the fit starts at $k = {}$; below it the payoff was checked to be $F_k$ exactly)",
                            z.from
                        )
                    } else {
                        format!("$k \\ge {from}$, every $N$")
                    },
                ),
                ("status", status.clone(), status_math.clone()),
                (
                    "re-verified on",
                    format!("k = {}..{}", check.from, check.to),
                    verified_math.clone(),
                ),
                (
                    "at",
                    "every N from 2 below the first peak to 2 beyond the last, step 1/2".into(),
                    "every $N$ from $2$ below the first peak to $2$ beyond the last, step $1/2$"
                        .into(),
                ),
                (
                    "verdict",
                    check.finding.verdict.to_string(),
                    check.finding.verdict.to_string(),
                ),
                (
                    "evidence",
                    check.finding.evidence(),
                    check.finding.evidence(),
                ),
            ] {
                t.push(vec![item.into(), value.into()]);
                shown.push(math);
            }
            tables.push(table(
                TableSpec {
                    title: "The zigzag closed form of $f_N(2k+1,2k,1)$".into(),
                    caption: format!(
                        "The payoff of every member from $k = {}$ on is a zigzag, $f(N) = t - \\min_j \\lvert N - j\\rvert$ over peaks $j$ in an arithmetic progression, with top $t$, peaks and step affine in $k$: one closed form in $(N, k)$, found in the data, then re-verified by the claims checker on those members and on ${ZIGZAG_BEYOND}$ the miner did not see.{} A finite check: the form is not PROVEN here. The reproduce command prints it in the last two lines of its output.",
                        from,
                        if theorem {
                            " It is Def 6.2's $F_k(N)$: the miner re-discovers Theorem 6.3 (i), $f_N(2k+1,2k,1) = F_k(N)$, from the payoffs alone."
                        } else {
                            ""
                        }
                    ),
                    csv: "mined-zigzag.csv".into(),
                    command: mine_command(),
                    data: t,
                    show: 8,
                    headers: Vec::new(),
                    display: vec![("value".into(), Shown::Cells(shown))],
                },
                files,
            )?);
            format!(
                "Mined from the payoffs of $(2k+1, 2k, 1)$, ${k0} \\le k \\le {k1}$: {form_math} for $k \\ge {}$, {status_math}; the claims checker re-verified it on {verified_math}: {} ({}).{}",
                from,
                check.finding.verdict,
                check.finding.evidence(),
                if theorem {
                    " This is Theorem 6.3 (i), $f_N(2k+1,2k,1) = F_k(N)$, re-discovered from the data: a confirmation, not a new result."
                } else {
                    ""
                }
            )
        }
        None => format!(
            "No zigzag closed form of $f_N(2k+1,2k,1)$ was found in the members ${k0} \\le k \\le {k1}$."
        ),
    };
    progress.advance(1);
    Ok((tables, finding))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payoff(p: &[HeapSize]) -> Pwl {
        let heaps = nim_heaps(p);
        solve(&scoring_nim(), &heaps, Method::Exact, &Limits::default())
            .unwrap()
            .payoff(&heaps)
            .unwrap()
    }

    #[test]
    fn same_function_is_equality_on_every_real_n() {
        let (a, b) = (payoff(&[5, 4, 2]), payoff(&[6, 4, 1]));
        let grid = (-40..=40).map(|t| Q::frac(t, 4));
        let equal_on_grid = grid.clone().all(|x| a.eval(&x) == b.eval(&x));
        assert_eq!(same_function(&a, &b), equal_on_grid);
        let c = payoff(&[5, 4, 3]);
        assert!(same_function(&c, &c));
        let differs = grid.clone().any(|x| a.eval(&x) != c.eval(&x));
        assert_eq!(same_function(&a, &c), !differs);
        // A function that differs only far out in a tail is told apart.
        let g = a.max(&Pwl::linear(Q::int(2), Q::int(-200)));
        assert!(a.eval(&Q::int(150)) == g.eval(&Q::int(150)) && !same_function(&a, &g));
    }

    #[test]
    fn the_mined_zigzag_is_recognised_as_def_6_2_exactly_when_it_is() {
        let fam: Family = FAMILY.parse().unwrap();
        let ranges = BTreeMap::from([("k".to_string(), IntRange::new(1, 8).unwrap())]);
        let data = family_table(&fam, &ranges, None, Method::Auto, &Limits::default()).unwrap();
        let mut form = family_forms(&data.typed_columns())
            .unwrap()
            .closed
            .unwrap()
            .form;
        // Independently of the form: the members' payoffs are Def 6.2's F_k at integers.
        for k in 1..=4 {
            let f = payoff(&[2 * k as HeapSize + 1, 2 * k as HeapSize, 1]);
            assert!((-12..=12).all(|n| f.eval(&Q::int(n)) == Q::int(big_f(k, n))));
        }
        assert!(is_def_6_2(&form));
        let top = form.numbers.iter_mut().find(|n| n.name == "top").unwrap();
        top.intercept = Q::int(3);
        assert!(!is_def_6_2(&form));
    }

    #[test]
    fn def_6_2_as_a_pwl_is_f_k_and_the_family_is_f_k_from_k_1() {
        for k in 1..=4 {
            let f = big_f_pwl(k);
            assert!((-12..=12).all(|n| f.eval(&Q::int(n)) == Q::int(big_f(k, n))));
        }
        assert!(same_function(&big_f_pwl(3), &payoff(&[7, 6, 1])));
        assert_eq!(def_6_2_from(3).unwrap(), 1);
    }

    #[test]
    fn figure_4_draws_f3_and_abs_minus_4_exactly_through_their_knots() {
        let refs = references(4);
        let (f3, abs4) = (&refs[0].1, &refs[1].1);
        // Def 6.2's F_3 at integers, at rationals between them, and its knots -4, …, 4.
        assert!((-12..=12).all(|n| f3.eval(&Q::int(n)) == Q::int(big_f(3, n))));
        assert_eq!(f3.eval(&Q::frac(1, 2)), Q::frac(3, 2));
        let knots: Vec<Q> = f3.breakpoints().iter().map(|(x, _)| x.clone()).collect();
        assert_eq!(knots, (-4..=4).map(Q::int).collect::<Vec<_>>());
        assert_eq!(abs4.breakpoints(), [(Q::zero(), Q::int(-4))]);
        // Theorem 6.3 (iii), x = 8: the payoff is their maximum.
        assert!(same_function(&payoff(&[8, 7, 1]), &f3.max(abs4)));
        // Drawn as lines (not dots at grid points), under the payoff, and every knot of each
        // is a grid point, so the drawn polyline is the function.
        assert!(refs.iter().all(|(s, _)| s.style == SeriesStyle::Dashed));
        let xs = grid(&[f3, abs4], -8, 8);
        for g in [f3, abs4] {
            assert!(g.breakpoints().iter().all(|(x, _)| xs.contains(x)));
        }
        assert!(references(2).is_empty());
    }
}
