//! The NIM with Cash report: the thresholds f^I and f^II of Def 2.1/2.3 against n for the
//! Appendix's set A = {3,5,6,10,11}, drawn by residue class so the period-16 structure shows;
//! their closed forms with the sharp start of every line and the certificate that proves them
//! (replayed here); the paper's Appendix beside them; the true least thresholds beside Def
//! 2.3's; Conjecture 8.1 (2)'s least offsets against its bound; the proven win conditions on
//! A-critical states for {1,4} and {3,4,8}; b-files; and the verdicts.

use super::{Draft, command, param};
use crate::claims::Registry;
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::games::cash::{
    Amount, Boundary, CashSet, CashTable, ThresholdForms, WinCondition, Winner,
    replay_threshold_certificate, threshold_forms, thresholds,
};
use crate::language::Check;
use crate::num::Q;
use crate::progress::Progress;
use crate::report::ReportOptions;
use crate::report::context::{Axis, Figure, Series, SeriesStyle, VLine};
use crate::report::data::{BFile, FigureSpec, Shown, TableSpec, bfiles, figure, table};
use crate::report::files::Files;
use crate::tables::cash::{
    PrintedTable, THRESHOLD_COLUMNS, THRESHOLD_MATH as SEQ_MATH, appendix_display, appendix_table,
    certified_forms_display, certified_forms_table, least_threshold_table, offsets_table,
    threshold_row, win_condition_formulas_math, win_condition_sketch, win_condition_table,
};
use crate::tables::mined::{affine_math, line_math};

/// The Appendix's set.
const SET: [Amount; 5] = [3, 5, 6, 10, 11];

/// The paper's Appendix as its claim file states it (the `cash.appendix` claim's arguments),
/// or `None` when the file or the claim is absent.
fn printed_appendix(path: &std::path::Path) -> Result<Option<PrintedTable>> {
    if !path.exists() {
        return Ok(None);
    }
    let reg = Registry::load(path)?;
    let Some(args) = reg.claims.iter().find_map(|c| match &c.check {
        Check::Builtin(b) if b.name == "cash.appendix" => Some(b.args.clone()),
        _ => None,
    }) else {
        return Ok(None);
    };
    let bad = |what: &str| {
        Error::invalid(format!(
            "the Appendix claim's `args.{what}` is not as `cash.appendix` reads it"
        ))
    };
    let int = |key: &str| {
        args.get(key)
            .and_then(toml::Value::as_integer)
            .ok_or_else(|| bad(key))
    };
    let period = usize::try_from(int("period")?).map_err(|_| bad("period"))?;
    let from_k = int("from_k")?;
    let lines = |key: &str| -> Result<Vec<(Q, Q)>> {
        let rows = args
            .get(key)
            .and_then(toml::Value::as_array)
            .ok_or_else(|| bad(key))?;
        rows.iter()
            .map(|r| match r.as_array().map(|v| v.as_slice()) {
                Some([b, c]) => match (b.as_integer(), c.as_integer()) {
                    (Some(b), Some(c)) => Ok((Q::int(b), Q::int(c))),
                    _ => Err(bad(key)),
                },
                _ => Err(bad(key)),
            })
            .collect()
    };
    Ok(Some(PrintedTable {
        period,
        from_k,
        lines: [lines("f1")?, lines("f2")?],
    }))
}

/// How many periods past the last sharp start a residual figure shows: enough to see every
/// class sit at zero.
const RESIDUAL_TAIL_PERIODS: i64 = 3;

/// The residual of each threshold against its residue class's certified line,
/// r(n) = f(Pk + i) − (B_i k + c_i), for `0 ≤ n` up to a few periods past the last sharp start
/// (and at most `max_n`), in two point sets: before its line's sharp start (where f leaves the
/// line, the irregular start) and from it on (exactly zero, proven). Residuals show what
/// f − B_min⌊n/P⌋ hid under two rising bands: how far, and until when, each class is off its
/// line. A vertical line marks the period from which every line holds.
fn residue_figure(
    forms: &ThresholdForms,
    values: [&[Amount]; 2],
    max_n: Amount,
    seq: usize,
    files: &mut Files,
) -> Result<Figure> {
    let fit = if seq == 0 { &forms.f1 } else { &forms.f2 };
    let p = fit.period as i64;
    let last_start = fit.lines.iter().map(|l| l.from_k).max().unwrap_or(0);
    let shown_n = (p * (last_start + RESIDUAL_TAIL_PERIODS + 1) - 1).min(max_n as i64);
    let name = ["f1", "f2"][seq];
    let mut data = Table::new(&[
        "n",
        "residue",
        "value",
        "line",
        "before_start",
        "from_start",
    ]);
    let mut off_line = 0usize;
    for n in 0..=shown_n {
        let (k, i) = (n / p, (n % p) as usize);
        let line = &fit.lines[i];
        let on_line = &(&line.slope * &Q::int(k)) + &line.intercept;
        let value = Q::int(values[seq][n as usize] as i64);
        let residual = &value - &on_line;
        let blank = || Cell::Text(String::new());
        let (before, from) = if k < line.from_k {
            off_line += usize::from(residual != Q::zero());
            (Cell::from(residual), blank())
        } else {
            (blank(), Cell::from(residual))
        };
        data.push(vec![
            Cell::Int(n),
            Cell::Int(i as i64),
            value.into(),
            on_line.into(),
            before,
            from,
        ]);
    }
    let f = SEQ_MATH[seq];
    let series = vec![
        Series {
            column: "before_start".into(),
            label: "before the line's sharp start".into(),
            color: "orange".into(),
            style: SeriesStyle::Dots,
        },
        Series {
            column: "from_start".into(),
            label: "from the sharp start on (proven $0$)".into(),
            color: "blue".into(),
            style: SeriesStyle::Dots,
        },
    ];
    let all_from = p * last_start;
    figure(
        FigureSpec {
            id: format!("{name}-by-residue-3-5-6-10-11"),
            title: format!(
                "${f}$ against its certified lines for $A = \\lbrace 3,5,6,10,11 \\rbrace$"
            ),
            caption: format!(
                "The residual $r(n) = {f}(n) - (B_i k + c_i)$ for $n = {p}k + i$, $0 \\le n \\le {shown_n}$, where $B_i k + c_i$ is the certified closed form of residue class $i$ (table of certified closed forms above). Blue: $k$ at or past the line's sharp start, where $r(n) = 0$ is proven; orange: $k$ before it, where ${f}$ has not yet joined its line ({off_line} of these points are off it, the rest already on it). Every line holds from $n = {all_from}$ (dashed line, $k = {last_start}$) on."
            ),
            command: format!(
                "nimlab cash thresholds --set 3,5,6,10,11 --max-n {shown_n} --defined-only --format csv"
            ),
            x: Axis {
                column: "n".into(),
                label: "stones $n$".into(),
            },
            y_label: format!("$r(n) = {f}(n) - (B_i k + c_i)$"),
            series,
            data,
            marks: None,
            vlines: vec![VLine {
                x: all_from,
                label: format!("every line holds ($k \\ge {last_start}$)"),
            }],
        },
        files,
    )
}

/// A boundary `h(b) = p⌊b/p⌋ + c` for every `b ≥ 0` (no head, one intercept, slope `p` per
/// period `p` of `b`) as `(p, c)`, else `None`.
fn floor_boundary(bd: &Boundary) -> Option<(usize, Q)> {
    let form = &bd.form;
    let p = form.period;
    let c = form.lines.first()?.intercept.clone();
    let plain = bd.head.is_empty()
        && form.preperiod <= 0
        && form
            .lines
            .iter()
            .all(|l| l.intercept == c && l.slope == Q::int(p as i64) && l.from_k <= 0);
    plain.then_some((p, c))
}

/// The win condition as mathematics when every boundary is `p⌊b/p⌋ + c` with one `p` and
/// `c ∈ {0, p}`: one row per value of `c`, the residues `i` that take it, the boundary and the
/// condition on `⌊b/p⌋`, `⌊b^†/p⌋` it amounts to. `None` when some boundary is of another shape.
fn win_condition_compact(wc: &WinCondition) -> Option<(Table, Vec<String>)> {
    let mut groups: Vec<(Q, Vec<usize>)> = Vec::new();
    let mut period = None;
    for bd in &wc.boundaries {
        let (p, c) = floor_boundary(bd)?;
        if *period.get_or_insert(p) != p || !(c == Q::zero() || c == Q::int(p as i64)) {
            return None;
        }
        match groups.iter_mut().find(|(g, _)| *g == c) {
            Some((_, is)) => is.push(bd.residue),
            None => groups.push((c, vec![bd.residue])),
        }
    }
    let p = period?;
    groups.sort();
    let mut t = Table::new(&["residues_i", "boundary", "player_I_wins_iff"]);
    let mut sentences = Vec::new();
    let floor = |v: &str| {
        if p == 1 {
            v.to_string()
        } else {
            format!("\\lfloor {v}/{p}\\rfloor")
        }
    };
    for (c, is) in &groups {
        let set = is
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let (h, cond) = if *c == Q::zero() {
            (
                format!("{p}\\lfloor b/{p}\\rfloor"),
                format!("{} \\le {}", floor("b"), floor("b^{\\dagger}")),
            )
        } else {
            (
                format!("{p}\\lfloor b/{p}\\rfloor + {p}"),
                format!("{} < {}", floor("b"), floor("b^{\\dagger}")),
            )
        };
        t.push(vec![
            Cell::Text(format!("$i \\in \\lbrace {set}\\rbrace$")),
            Cell::Text(format!("$h_i(b) = {h}$")),
            Cell::Text(format!("${cond}$")),
        ]);
        sentences.push(format!("${cond}$ when $i \\in \\lbrace {set}\\rbrace$"));
    }
    Some((t, sentences))
}

/// Def 2.3's other-role value (the threshold of the player who loses the plain game) minus the
/// true least threshold, at every `3 ≤ n ≤ max_n`, in two point sets by the plain-game winner:
/// with `W(n) = I` the gap is on `f^II`, with `W(n) = II` on `f^I`. Returns the figure, the
/// largest gap and an `n` attaining it.
/// The gaps are computed for every `n ≤ max_n`; the figure draws `n ≤ drawn`, where one unit of
/// gap is still taller than a marker, so the two roles' points, a unit or two apart, stay apart.
fn least_gap_figure(
    least: &Table,
    winner: &[Winner],
    max_n: Amount,
    drawn: Amount,
    files: &mut Files,
) -> Result<(Figure, i64, i64)> {
    let mut gap = vec![0i64; max_n as usize + 1];
    let int = |c: &Cell| match c {
        Cell::Int(v) => Some(*v),
        _ => None,
    };
    for r in &least.rows {
        let (Some(n), Some(f1), Some(f2), Some(l2)) =
            (int(&r[0]), int(&r[2]), int(&r[4]), int(&r[5]))
        else {
            continue;
        };
        let g = match winner[n as usize] {
            Winner::I => f2 - l2,
            Winner::II => int(&r[3]).map_or(0, |l1| f1 - l1),
        };
        gap[n as usize] = g;
    }
    let mut data = Table::new(&["n", "winner", "gap", "gap_on_f2", "gap_on_f1"]);
    let (mut top, mut top_n) = (0, 0);
    for n in 3..=max_n as usize {
        let g = gap[n];
        if g > top {
            (top, top_n) = (g, n as i64);
        }
        if n as Amount > drawn {
            continue;
        }
        let (a, b) = match winner[n] {
            Winner::I => (Cell::Int(g), Cell::Text(String::new())),
            Winner::II => (Cell::Text(String::new()), Cell::Int(g)),
        };
        data.push(vec![
            Cell::Int(n as i64),
            Cell::Text(winner[n].to_string()),
            Cell::Int(g),
            a,
            b,
        ]);
    }
    let fig = figure(
        FigureSpec {
            id: "least-gap-3-5-6-10-11".into(),
            title: "Def 2.3's other-role value above the true least threshold, $A = \\lbrace 3,5,6,10,11 \\rbrace$".into(),
            caption: format!(
                "For $3 \\le n \\le {drawn}$: the value Definition 2.3 gives the player who loses the plain game minus the least money with which that player actually wins when the opponent has just too little — $f^{{\\mathrm{{II}}}}(n)$ minus the true least threshold where $W(n) = \\mathrm{{I}}$ (blue), $f^{{\\mathrm{{I}}}}(n)$ minus it where $W(n) = \\mathrm{{II}}$ (orange). A point on the axis is a heap size where the two agree; the plain-game winner's value (Definition 2.1) equals the true least threshold at every $n$ of the range. The largest gap for $n \\le {max_n}$ (the table of least thresholds above) is ${top}$, at $n = {top_n}$: the gaps grow along residue classes, so Definition 2.3's other-role values are not least thresholds."
            ),
            command: format!("nimlab cash thresholds --set 3,5,6,10,11 --max-n {drawn} --format csv"),
            x: Axis {
                column: "n".into(),
                label: "stones $n$".into(),
            },
            y_label: "Def 2.3's value minus the least threshold".into(),
            series: vec![
                Series {
                    column: "gap_on_f2".into(),
                    label: "$f^{\\mathrm{II}}(n)$ minus the least, where $W(n) = \\mathrm{I}$".into(),
                    color: "blue".into(),
                    style: SeriesStyle::Dots,
                },
                Series {
                    column: "gap_on_f1".into(),
                    label: "$f^{\\mathrm{I}}(n)$ minus the least, where $W(n) = \\mathrm{II}$".into(),
                    color: "orange".into(),
                    style: SeriesStyle::Dots,
                },
            ],
            data,
            marks: None,
            vlines: Vec::new(),
        },
        files,
    )?;
    Ok((fig, top, top_n))
}

/// The builtin `nim-with-cash.set-3-5-6-10-11`: the Appendix's set — thresholds, certified forms,
/// the printed Appendix against them, residual figures, least thresholds, win conditions and
/// Conjecture 8.1's offsets — with the findings computed from them.
pub fn build(d: &mut Draft, opts: &ReportOptions, progress: &dyn Progress) -> Result<()> {
    let Draft {
        summary,
        files,
        reproduce,
        parameters,
        claims,
        ..
    } = d;
    progress.stage("nim-with-cash: thresholds");
    progress.add_work(1);
    let max_n: Amount = if opts.deep { 4000 } else { 2000 };
    let set = CashSet::new(SET.to_vec())?;
    let th = thresholds(&set, max_n)?;
    let mut data = Table::new(&THRESHOLD_COLUMNS);
    for n in 0..=max_n {
        data.push(threshold_row(&set, &th, n));
    }
    let cmd = format!(
        "nimlab cash thresholds --set 3,5,6,10,11 --max-n {max_n} --defined-only --format csv"
    );
    // The Appendix's forms as the miner finds and proves them: the certificate is replayed
    // here, so the render fails rather than print an unproven form.
    progress.stage("nim-with-cash: certified forms");
    let forms = threshold_forms(&set, max_n)?;
    replay_threshold_certificate(&set, &forms.certificate)?;
    let from = forms.certificate.from;
    let p = forms.f1.period;
    let mut figures = Vec::new();
    for seq in 0..2 {
        figures.push(residue_figure(&forms, [&th.f1, &th.f2], max_n, seq, files)?);
    }
    progress.advance(1);
    let certified = certified_forms_table(&forms);
    let sharp_max = forms
        .f1
        .lines
        .iter()
        .chain(&forms.f2.lines)
        .map(|l| l.from_k)
        .max()
        .unwrap_or(0);
    let slope_counts = |fit: &crate::miner::PeriodicLinear| {
        let mut by: Vec<(Q, usize)> = Vec::new();
        for l in &fit.lines {
            match by.iter_mut().find(|(s, _)| *s == l.slope) {
                Some((_, c)) => *c += 1,
                None => by.push((l.slope.clone(), 1)),
            }
        }
        by.sort();
        by.iter()
            .map(|(s, c)| format!("{c} with slope ${s}$"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    summary.findings.push(format!(
        "$A = \\lbrace 3,5,6,10,11 \\rbrace$: $f^{{\\mathrm{{I}}}}$ and $f^{{\\mathrm{{II}}}}$ are periodic-linear with period ${p}$, $f(16k+i) = B_i k + c_i$ ($f^{{\\mathrm{{I}}}}$: {}; $f^{{\\mathrm{{II}}}}$: {}), PROVEN for every $n \\ge {from}$ by a certificate this report replays, and each line from its sharp start on (every line holds for all $k \\ge {sharp_max}$; table of certified closed forms).",
        slope_counts(&forms.f1),
        slope_counts(&forms.f2),
    ));
    let mut tables = vec![table(
        TableSpec {
            title: "Certified closed forms of $f^{\\mathrm{I}}$ and $f^{\\mathrm{II}}$ for $A = \\lbrace 3,5,6,10,11 \\rbrace$".into(),
            caption: format!(
                "One line per residue $i$ of the period ${p}$ as $f^{{\\mathrm{{I}}}}({p}k + i) = B_i k + c_i$ (the CSV names the sequences f1 and f2). The sharp start is the least $k$ from which the line holds (Def 2.3's value differs at $k - 1$); the certified start is the least $k$ with ${p}k + i \\ge {from}$, where the min/max-plus certificate of Def 2.3 (replayed when this report was rendered) begins its induction. Between the two the line is checked on the data, so every line is PROVEN from its sharp start."
            ),
            csv: "certified-forms-3-5-6-10-11.csv".into(),
            command: format!("nimlab mine cash --set 3,5,6,10,11 --max-n {max_n} --format csv"),
            data: certified,
            show: 64,
            headers: [
                "sequence",
                "period",
                "$i$",
                "$B_i$",
                "$c_i$",
                "formula",
                "sharp start",
                "certified from",
                "status",
            ]
            .map(String::from)
            .to_vec(),
            display: certified_forms_display(&forms),
        },
        files,
    )?];
    // The paper's Appendix beside the certified lines.
    if let Some(printed) = printed_appendix(claims)? {
        let t = appendix_table(&forms, &th, &printed)?;
        // The printed lines that are not Def 2.3's (the table's `never` rows).
        let mut wrong = Vec::new();
        for (seq, fit) in [&forms.f1, &forms.f2].into_iter().enumerate() {
            for (line, (b, c)) in fit.lines.iter().zip(&printed.lines[seq]) {
                if (b, c) != (&line.slope, &line.intercept) {
                    wrong.push(format!(
                        "{} (is ${}$ from $k = {}$)",
                        line_math(SEQ_MATH[seq], (fit.period, line.residue), (b, c), "k", None),
                        affine_math(&line.slope, &line.intercept, "k"),
                        line.from_k
                    ));
                }
            }
        }
        let other = t
            .rows
            .iter()
            .filter(|r| r[2] == Cell::from("other"))
            .count();
        let wrong_other = t
            .rows
            .iter()
            .filter(|r| r[6] == Cell::from("never") && r[2] == Cell::from("other"))
            .count();
        summary.findings.push(format!(
            "The Appendix's table of $f^{{\\mathrm{{I}}}}({p}k+i)$, $f^{{\\mathrm{{II}}}}({p}k+i)$ for $k \\ge {}$: {} of {} printed lines are not Def 2.3's ({} of them among the {other} other-role values, the threshold of the player who loses the plain game): {}. Every correct line holds from its sharp start, which the side-by-side table gives.",
            printed.from_k,
            wrong.len(),
            t.rows.len(),
            wrong_other,
            wrong.join("; ")
        ));
        tables.push(table(
            TableSpec {
                title: "The Appendix beside Def 2.3".into(),
                caption: format!(
                    "Each printed line of the paper's Appendix (for $k \\ge {}$) beside Def 2.3's certified line; role: whether the value is the threshold of the plain-game winner (main) or of the other player. The printed line agrees with Def 2.3 for every $k$ from the given one on only when it is the certified line (two different lines meet at one $k$ at most: never); otherwise the first wrong $k \\ge {}$ is given with both values.",
                    printed.from_k, printed.from_k
                ),
                csv: "appendix-3-5-6-10-11.csv".into(),
                command: "nimlab check data/claims/nim-with-cash.toml --only appendix".into(),
                display: appendix_display(&forms, &printed),
                data: t,
                show: 64,
                headers: [
                    "line",
                    "residue $i$",
                    "role",
                    "paper",
                    "Def 2.3",
                    "sharp start $k$",
                    "paper agrees from $k$",
                    "first wrong $k$",
                    "paper's value",
                    "Def 2.3's value",
                ]
                .map(String::from)
                .to_vec(),
            },
            files,
        )?);
    }
    // The true least thresholds beside Def 2.3's.
    progress.stage("nim-with-cash: least thresholds");
    let least_n: Amount = if opts.deep { 2000 } else { 1000 };
    let cash_table = CashTable::solve(&set, least_n, 1 << 31)?;
    let (least, counts) = least_threshold_table(&th, &cash_table);
    let upto_300 = least
        .rows
        .iter()
        .filter(|r| matches!(r[0], Cell::Int(n) if n <= 300) && r[6] != Cell::from("main"))
        .count();
    // Below min A = 3 player I has no threshold (II wins with no money at all).
    let defined = least_n as usize + 1 - 3;
    let (gap_figure, top_gap, top_gap_n) =
        least_gap_figure(&least, &th.winner, least_n, 300, files)?;
    figures.push(gap_figure);
    summary.findings.push(format!(
        "Def 2.3's values are not the least money needed: for $A = \\lbrace 3,5,6,10,11 \\rbrace$ and $3 \\le n \\le {least_n}$ (the {defined} heap sizes where both thresholds are defined), the other-role value (the threshold of the player who loses the plain game) differs from the true least threshold at {} heap sizes ({upto_300} of the $301$ with $n \\le 300$), the main-role value at {}. The excess grows with $n$, up to ${top_gap}$ at $n = {top_gap_n}$ (figure: Def 2.3's other-role value above the true least threshold).",
        counts[1], counts[0]
    ));
    tables.push(table(
        TableSpec {
            title: "Least thresholds beside Def 2.3".into(),
            caption: format!(
                "Every $n \\le {least_n}$ where Def 2.3's $f^{{\\mathrm{{I}}}}(n)$ or $f^{{\\mathrm{{II}}}}(n)$ differs from the true least threshold found by search in the win table (least for I: with $W(n) = \\mathrm{{I}}$ the least $d$ with which I wins $(n; d, \\infty)$, else the least $d$ beating II's least threshold minus one; least for II likewise); differs: the main (plain-game winner's) value, the other player's, or both. The figure after the tables draws the difference at every $n$."
            ),
            csv: "least-thresholds-3-5-6-10-11.csv".into(),
            command: format!("nimlab cash thresholds --set 3,5,6,10,11 --max-n {least_n} --format csv"),
            data: least,
            show: 12,
            headers: [
                "$n$",
                "$W(n)$",
                "$f^{\\mathrm{I}}(n)$",
                "least for I",
                "$f^{\\mathrm{II}}(n)$",
                "least for II",
                "differs",
            ]
            .map(String::from)
            .to_vec(),
            display: Vec::new(),
        },
        files,
    )?);
    // Conjecture 8.1 (2) pair by pair.
    progress.stage("nim-with-cash: Conjecture 8.1 offsets");
    let (max_l, extra_m) = if opts.deep { (8, 14) } else { (6, 9) };
    let pairs: Vec<(Amount, Amount)> = (1..=max_l)
        .flat_map(|l| (l..=l + extra_m).map(move |m| (l, m)))
        .collect();
    let offsets = offsets_table(&pairs, 2000)?;
    let over: Vec<String> = offsets
        .rows
        .iter()
        .filter(|r| r[4] == Cell::Bool(false))
        .map(|r| {
            format!(
                "$(L, M) = ({}, {})$: $\\Theta = {} > {}$",
                r[0].text(),
                r[1].text(),
                r[2].text(),
                r[3].text()
            )
        })
        .collect();
    summary.findings.push(format!(
        "Conjecture 8.1 (2), $\\Theta \\le 5(M-L)^2 + 2$ for $A = \\lbrace L, \\dots, M \\rbrace$: the least offset $\\Theta$, PROVEN exactly for each of the {} pairs $1 \\le L \\le {max_l}$, $L \\le M \\le L + {extra_m}$, exceeds the bound for {} of them: {}.",
        pairs.len(),
        over.len(),
        if over.is_empty() { "none".to_string() } else { over.join("; ") }
    ));
    tables.push(table(
        TableSpec {
            title: "Least offsets $\\Theta(L, M)$ against Conjecture 8.1 (2)".into(),
            caption: "For $A = \\lbrace L, \\dots, M \\rbrace$: the least $\\Theta$ with $f^{\\mathrm{I}}(n + L + M) = f^{\\mathrm{I}}(n) + M$ and $f^{\\mathrm{II}}(n + L + M) = f^{\\mathrm{II}}(n) + M$ for every $n \\ge \\Theta$ (exact: the certified periodic-linear forms make the difference periodic from their start $n_0$, so one period past $n_0$ decides every larger $n$), beside the conjectured bound $5(M-L)^2 + 2$."
                .into(),
            csv: "offsets-conjecture-8-1.csv".into(),
            command: "nimlab check data/claims/nim-with-cash.toml --only conj-8.1-2".into(),
            display: vec![(
                "within_bound".into(),
                Shown::Cells(
                    offsets
                        .rows
                        .iter()
                        .map(|r| if r[4] == Cell::Bool(true) { "yes" } else { "NO" }.into())
                        .collect(),
                ),
            )],
            data: offsets,
            show: 200,
            headers: [
                "$L$",
                "$M$",
                "least $\\Theta$",
                "bound $5(M-L)^2 + 2$",
                "within the bound",
            ]
            .map(String::from)
            .to_vec(),
        },
        files,
    )?);
    // The win condition on A-critical states, found and proven for all n (the proof runs as the
    // report renders): for {1,4} it is Lemma 5.6; {3,4,8} needs more than Def 4.3's state.
    progress.stage("nim-with-cash: win conditions");
    let lemma_5_6: &[Amount] = &[1, 4];
    for (elements, label) in [
        (
            lemma_5_6,
            "the paper's Lemma 5.6 for $L = 4$ (quotients by $L - 1 = 3$), in Def 4.3's coordinates",
        ),
        (&[3, 4, 8], "beyond Def 4.3"),
    ] {
        let set = CashSet::new(elements.to_vec())?;
        let joined = |sep: &str| {
            elements
                .iter()
                .map(Amount::to_string)
                .collect::<Vec<_>>()
                .join(sep)
        };
        let (set_text, slug) = (joined(","), joined("-"));
        let wc = WinCondition::find(&set, 100, 1 << 30)?;
        let set_math = format!("A = \\lbrace {set_text} \\rbrace");
        let what = if wc.modulus == wc.cash_period && wc.edge.depth == 0 {
            format!(
                "{label}: the boundaries depend on $n$ only through $i = n \\bmod {}$, the cash period",
                wc.modulus
            )
        } else {
            let mut why = Vec::new();
            if wc.modulus != wc.cash_period {
                why.push(format!(
                    "boundaries by $n \\bmod {}$, not by $n$ modulo the cash period ${}$",
                    wc.modulus, wc.cash_period
                ));
            }
            if wc.edge.depth > 0 {
                why.push(format!(
                    "an edge layer where $d - g^{{\\mathrm{{I}}}}(n) < {}$",
                    wc.edge.depth
                ));
            }
            format!(
                "{label}: the corresponding state of Def 4.3 alone does not decide the winner; it takes {}",
                why.join(" and ")
            )
        };
        let coords = format!(
            "$i = n \\bmod {}$, $b = f^{{\\mathrm{{I}}}}(n) - 1 - d$, $b^\\dagger = f^{{\\mathrm{{II}}}}(n) - 1 - e$",
            wc.modulus
        );
        // What the proof rests on, and what decides the smaller n: the induction uses the
        // paper's Theorems 2.4 and 3.7 for rich and poor players, which are checked, not proven.
        let rests_on = format!(
            "given the paper's Theorems 2.4 and 3.7 (checked here, not proven){}",
            if wc.proof.from > 0 {
                format!(
                    "; below $n = {}$ the win table itself decides",
                    wc.proof.from
                )
            } else {
                String::new()
            }
        );
        // How the condition is proven, shared by both ways of stating it.
        let proven = format!(
            "PROVEN for every $n \\ge {}$, {rests_on}, by induction (the step checked on ${} \\le n < {}$, to which every larger $n$ reduces; proof sketched under its table below",
            wc.proof.from,
            wc.proof.step_from,
            wc.proof.step_from + wc.proof.window,
        );
        if wc.edge.depth == 0
            && let Some((compact, sentences)) = win_condition_compact(&wc)
        {
            summary.findings.push(format!(
                "${set_math}$: Player I wins the $A$-critical state $(n; d, e)$ iff {}, where {coords}; {proven}) — {what}.",
                sentences.join(", and "),
            ));
            tables.push(table(
                TableSpec {
                    title: format!("The win condition on $A$-critical states for ${set_math}$"),
                    caption: format!(
                        "Player I wins an $A$-critical state $(n; d, e)$ iff $b^\\dagger \\ge h_i(b)$, where {coords}; every boundary is a step function of $b$, so the condition compares quotients. Found on the win table and PROVEN for every $n \\ge {}$, {rests_on} (proven when this report was rendered): {what}. {}",
                        wc.proof.from,
                        win_condition_sketch(&wc)
                    ),
                    csv: format!("win-condition-{slug}.csv"),
                    command: format!("nimlab cash condition --set {set_text}"),
                    data: compact,
                    show: 64,
                    headers: ["residues $i$", "boundary $h_i(b)$", "Player I wins iff"]
                        .map(String::from)
                        .to_vec(),
                    display: Vec::new(),
                },
                files,
            )?);
            continue;
        }
        summary.findings.push(format!(
            "${set_math}$: the winner of every $A$-critical state (both players middle class) is given by boundaries $h_i(b)$ on the corresponding state{}, {proven}; the boundaries are tabulated below) — {what}.",
            if wc.edge.depth > 0 { " and an edge layer" } else { "" },
        ));
        tables.push(table(
            TableSpec {
                title: format!("The win condition on $A$-critical states for ${set_math}$"),
                caption: format!(
                    "Player I wins an $A$-critical state $(n; d, e)$ iff $b^\\dagger \\ge h_i(b)$, where {coords}; one row per line of each boundary (its values below the periodic part first){}. Found on the win table and PROVEN for every $n \\ge {}$, {rests_on} (proven when this report was rendered): {what}. {}",
                    if wc.edge.depth > 0 {
                        format!(
                            ", then the edge layer: where $\\delta = d - g^{{\\mathrm{{I}}}}(n) < {}$, I wins iff $b^\\dagger \\ge b + o_j(\\delta)$ with $j = n \\bmod {}$",
                            wc.edge.depth, wc.edge.modulus
                        )
                    } else {
                        String::new()
                    },
                    wc.proof.from,
                    win_condition_sketch(&wc)
                ),
                csv: format!("win-condition-{slug}.csv"),
                command: format!("nimlab cash condition --set {set_text} --format csv"),
                data: win_condition_table(&wc),
                show: 64,
                headers: [
                    "part",
                    "$i$",
                    "period in $b$",
                    "residue of $b$",
                    "$\\delta$",
                    "slope",
                    "intercept",
                    "formula",
                    "status",
                ]
                .map(String::from)
                .to_vec(),
                display: {
                    let formulas = win_condition_formulas_math(&wc);
                    let status =
                        vec![format!("PROVEN for $n \\ge {}$", wc.proof.from); formulas.len()];
                    vec![
                        ("formula".into(), Shown::Cells(formulas)),
                        ("status".into(), Shown::Cells(status)),
                    ]
                },
            },
            files,
        )?);
    }
    let bfile = |seq: usize| BFile {
        file: format!("b-{}-3-5-6-10-11.txt", ["f1", "f2"][seq]),
        sequence: format!(
            "${}(n)$ of Def 2.3, $A = \\lbrace 3,5,6,10,11 \\rbrace$",
            SEQ_MATH[seq]
        ),
        command: cmd.clone(),
        terms: (0..=max_n)
            .map(|n| {
                let v = if seq == 0 {
                    th.f1[n as usize]
                } else {
                    th.f2[n as usize]
                };
                (n as i64, Cell::from(v))
            })
            .collect(),
    };
    tables.push(bfiles(vec![bfile(0), bfile(1)], files)?);
    files.share(
        "thresholds-3-5-6-10-11.csv",
        data.render(crate::export::Format::Csv),
    )?;
    reproduce.push(command(
        "The certified closed forms, with the certificate written to a file and replayed",
        format!("nimlab mine cash --set 3,5,6,10,11 --max-n {max_n} --certificate cert.json && nimlab mine replay cert.json"),
    ));
    reproduce.push(command(
        "The win condition on A-critical states, with its proof (any cash-periodic A)",
        "nimlab cash condition --set 1,4",
    ));
    reproduce.push(command(
        "The thresholds with the true least thresholds beside them",
        format!("nimlab cash thresholds --set 3,5,6,10,11 --max-n {max_n} --format csv"),
    ));
    parameters.extend([
                param("set", "$A = \\lbrace 3,5,6,10,11 \\rbrace$"),
                param(
                    "thresholds",
                    format!("Def 2.1/2.3, $0 \\le n \\le {max_n}$"),
                ),
                param("least thresholds", format!("win table, $n \\le {least_n}$")),
                param(
                    "Conjecture 8.1 offsets",
                    format!(
                        "$1 \\le L \\le {max_l}$, $L \\le M \\le L + {extra_m}$, forms fitted on $n \\le 2000$"
                    ),
                ),
            ]);
    d.tables.extend(tables);
    d.figures.extend(figures);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_residue_figures_plot_the_residual_against_the_certified_lines() {
        let set = CashSet::new(SET.to_vec()).unwrap();
        let max_n = 600;
        let (th, forms) = (
            thresholds(&set, max_n).unwrap(),
            threshold_forms(&set, max_n).unwrap(),
        );
        for seq in 0..2 {
            let mut files = Files::new();
            let fig = residue_figure(&forms, [&th.f1, &th.f2], max_n, seq, &mut files).unwrap();
            let fit = [&forms.f1, &forms.f2][seq];
            let csv = std::str::from_utf8(files.get(&fig.csv).unwrap()).unwrap();
            let mut lines = csv.lines();
            assert_eq!(
                lines.next(),
                Some("n,residue,value,line,before_start,from_start")
            );
            let (mut off, mut rows) = (0, 0);
            for row in lines {
                let c: Vec<&str> = row.split(',').collect();
                let (n, i): (i64, usize) = (c[0].parse().unwrap(), c[1].parse().unwrap());
                let k = n / fit.period as i64;
                let line = &fit.lines[i];
                let r: i64 = c[2].parse::<i64>().unwrap() - c[3].parse::<i64>().unwrap();
                if k >= line.from_k {
                    // From the sharp start on, exactly on the line.
                    assert_eq!((c[4], c[5]), ("", "0"), "n = {n}");
                } else {
                    assert_eq!((c[4], c[5]), (r.to_string().as_str(), ""), "n = {n}");
                    off += usize::from(r != 0);
                }
                rows += 1;
            }
            // The irregular start shows, and the window runs past the last sharp start.
            assert!(off > 0);
            let last = fit.lines.iter().map(|l| l.from_k).max().unwrap();
            assert!(rows as i64 > fit.period as i64 * (last + 1));
            assert_eq!(fig.vlines[0].x, fit.period as i64 * last);
            assert!(fig.y_label.contains("(B_i k + c_i)"));
        }
    }
}
