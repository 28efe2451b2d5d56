//! NIM with Cash's tables: the thresholds f and g of Def 2.1/2.3 by heap size (`nimlab cash
//! thresholds`, the report's figure), the certified closed forms of f^I and f^II (`nimlab mine
//! cash`) with the sharp start of every line, the paper's Appendix beside them, the true least
//! thresholds beside Def 2.3's, Conjecture 8.1's least offsets against its bound, and the proven
//! win condition on A-critical states (`nimlab cash condition`), in words and as a table.
//!
//! Every line is shown with two starts: the *sharp* one, the least k from which the line holds
//! (below it Def 2.3's value differs; found on the data and, past the certificate's n₀, proven),
//! and the *certified* one, the least k with Pk + i ≥ n₀ where the certificate's induction
//! starts. The sharp start is the one to quote; the certified one is where the proof begins.

use num_bigint::BigUint;

use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::games::cash::{
    Amount, CashSet, CashTable, Decision, Offset, Reason, ThresholdForms, ThresholdSource,
    Thresholds, WinCondition, Winner, g_thresholds, least_offset, least_thresholds,
    threshold_forms,
};
use crate::miner::{PeriodicLinear, affine_text};
use crate::num::Q;
use crate::report::data::Shown;
use crate::tables::mined::{affine_math, formulas_math, line_math};

/// $f^{\mathrm{I}}$ and $f^{\mathrm{II}}$ as TeX (no `$`), the tables' `f1` and `f2`.
pub const THRESHOLD_MATH: [&str; 2] = ["f^{\\mathrm{I}}", "f^{\\mathrm{II}}"];

/// The columns of [`threshold_row`].
pub const THRESHOLD_COLUMNS: [&str; 6] = ["n", "winner", "f1", "f2", "g1", "g2"];

/// The thresholds at heap size `n` (at most the last n of `th`) under [`THRESHOLD_COLUMNS`]:
/// n, the winner of the plain game, f^I(n), f^II(n), g^I(n), g^II(n).
///
/// # Panics
/// When `th` does not reach `n`.
pub fn threshold_row(set: &CashSet, th: &Thresholds, n: Amount) -> Vec<Cell> {
    let m = usize::try_from(n).expect("n is within the thresholds computed");
    let (g1, g2) = g_thresholds(set, n);
    vec![
        n.into(),
        Cell::Text(th.winner[m].to_string()),
        th.f1[m].into(),
        th.f2[m].into(),
        g1.into(),
        g2.into(),
    ]
}

/// The least k with P·k + i ≥ `from` (the certified start of residue i), at least 0.
pub fn certified_start_k(period: usize, residue: usize, from: i64) -> i64 {
    let p = period as i64;
    (from - residue as i64 + p - 1).div_euclid(p).max(0)
}

/// `f1(16k+3)`: a line's left side as the tables write it.
fn line_lhs(name: &str, fit: &PeriodicLinear, residue: usize) -> String {
    let arg = affine_text(&Q::int(fit.period as i64), &Q::int(residue as i64), "k");
    format!("{name}({arg})")
}

/// The certified forms: one row per sequence and residue, with the line, its sharp start (the
/// least k from which it holds) and its certified start (where the certificate's n₀ falls).
/// Every line is PROVEN from its sharp start: from the certified start by the certificate, and
/// between the two on the data.
pub fn certified_forms_table(forms: &ThresholdForms) -> Table {
    let from = forms.certificate.from;
    let mut t = Table::new(&[
        "sequence",
        "period",
        "residue",
        "slope",
        "intercept",
        "formula",
        "sharp_start_k",
        "certified_from_k",
        "status",
    ]);
    for (name, fit) in [("f1", &forms.f1), ("f2", &forms.f2)] {
        for line in &fit.lines {
            t.push(vec![
                name.into(),
                Cell::Int(fit.period as i64),
                Cell::Int(line.residue as i64),
                line.slope.clone().into(),
                line.intercept.clone().into(),
                format!(
                    "{} = {}",
                    line_lhs(name, fit, line.residue),
                    affine_text(&line.slope, &line.intercept, "k")
                )
                .into(),
                Cell::Int(line.from_k),
                Cell::Int(certified_start_k(fit.period, line.residue, from)),
                "PROVEN".into(),
            ]);
        }
    }
    t
}

/// [`certified_forms_table`] as a reader sees it: the sequence and the formula as `$…$`
/// mathematics, the period (the same on every row, said in the caption) left out.
pub fn certified_forms_display(forms: &ThresholdForms) -> Vec<(String, Shown)> {
    let mut names = Vec::new();
    let mut formulas = Vec::new();
    for (seq, fit) in [&forms.f1, &forms.f2].into_iter().enumerate() {
        for line in &fit.lines {
            names.push(format!("${}$", THRESHOLD_MATH[seq]));
            formulas.push(line_math(
                THRESHOLD_MATH[seq],
                (fit.period, line.residue),
                (&line.slope, &line.intercept),
                "k",
                None,
            ));
        }
    }
    vec![
        ("sequence".into(), Shown::Cells(names)),
        ("period".into(), Shown::Hidden),
        ("formula".into(), Shown::Cells(formulas)),
    ]
}

/// [`appendix_table`] as a reader sees it: each line's left side, the printed and the true
/// right side as `$…$` mathematics (same rows, same order).
pub fn appendix_display(forms: &ThresholdForms, printed: &PrintedTable) -> Vec<(String, Shown)> {
    let (mut lhs, mut paper, mut truth) = (Vec::new(), Vec::new(), Vec::new());
    for (seq, fit) in [&forms.f1, &forms.f2].into_iter().enumerate() {
        for (line, (b, c)) in fit.lines.iter().zip(&printed.lines[seq]) {
            let arg = affine_math(
                &Q::int(fit.period as i64),
                &Q::int(line.residue as i64),
                "k",
            );
            lhs.push(format!("${}({arg})$", THRESHOLD_MATH[seq]));
            paper.push(format!("${}$", affine_math(b, c, "k")));
            truth.push(format!(
                "${}$",
                affine_math(&line.slope, &line.intercept, "k")
            ));
        }
    }
    vec![
        ("sequence".into(), Shown::Cells(lhs)),
        ("paper".into(), Shown::Cells(paper)),
        ("def_2_3".into(), Shown::Cells(truth)),
    ]
}

/// A printed table of f^I(pk + i) = B_i k + c_i, f^II likewise (k ≥ `from_k`), as a paper gives
/// it: `lines[0]` for f^I, `lines[1]` for f^II, one (B_i, c_i) per residue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintedTable {
    /// The period p.
    pub period: usize,
    /// The printed lines hold "for k ≥ from_k".
    pub from_k: i64,
    /// (slope, intercept) per residue, for f^I and f^II.
    pub lines: [Vec<(Q, Q)>; 2],
}

/// Whose threshold a sequence is along a residue class: the plain-game winner's (`main`) or the
/// other player's, or `mixed`, over the terms `th` holds from k = `from_k` on.
fn role(th: &Thresholds, seq: usize, p: usize, i: usize, from_k: i64) -> &'static str {
    let own = if seq == 0 { Winner::I } else { Winner::II };
    let mut seen = (false, false);
    let mut n = p * from_k.max(0) as usize + i;
    while n < th.winner.len() {
        if th.winner[n] == own {
            seen.0 = true;
        } else {
            seen.1 = true;
        }
        n += p;
    }
    match seen {
        (true, false) => "main",
        (false, true) => "other",
        _ => "mixed",
    }
}

/// The paper's table beside Def 2.3's certified lines, one row per sequence and residue:
/// the printed line, the true line, whose threshold it is, the sharp start of the true line,
/// from which k the printed line agrees with Def 2.3 for good (only when it is the true line;
/// two different lines agree at one k at most), and the first k ≥ the printed start where it is
/// wrong, with both values. `th` must reach well past the certificate's start (the report uses
/// the fitting range); the forms' period must be the printed one.
pub fn appendix_table(
    forms: &ThresholdForms,
    th: &Thresholds,
    printed: &PrintedTable,
) -> Result<Table> {
    let p = printed.period;
    if forms.f1.period != p || forms.f2.period != p {
        return Err(Error::invalid(format!(
            "the printed table has period {p}, the certified forms {} and {}",
            forms.f1.period, forms.f2.period
        )));
    }
    let mut t = Table::new(&[
        "sequence",
        "residue",
        "role",
        "paper",
        "def_2_3",
        "sharp_start_k",
        "paper_agrees_from_k",
        "first_wrong_k",
        "paper_value",
        "def_2_3_value",
    ]);
    for (seq, (name, fit)) in [("f1", &forms.f1), ("f2", &forms.f2)]
        .into_iter()
        .enumerate()
    {
        let values = if seq == 0 { &th.f1 } else { &th.f2 };
        for (line, (b, c)) in fit.lines.iter().zip(&printed.lines[seq]) {
            let i = line.residue;
            let at = |k: i64| &(b * &Q::int(k)) + c;
            let same = *b == line.slope && *c == line.intercept;
            let first_wrong = (printed.from_k.max(0)..)
                .map(|k| (k, p * k as usize + i))
                .take_while(|&(_, n)| n < values.len())
                .find(|&(k, n)| at(k) != Q::int(values[n] as i64));
            let (wrong_k, paper_value, true_value) = match first_wrong {
                Some((k, n)) => (Cell::Int(k), at(k).into(), Cell::from(values[n])),
                None => (
                    Cell::Text(String::new()),
                    Cell::Text(String::new()),
                    Cell::Text(String::new()),
                ),
            };
            t.push(vec![
                line_lhs(name, fit, i).into(),
                Cell::Int(i as i64),
                role(th, seq, p, i, printed.from_k).into(),
                affine_text(b, c, "k").into(),
                affine_text(&line.slope, &line.intercept, "k").into(),
                Cell::Int(line.from_k),
                if same {
                    Cell::Int(line.from_k)
                } else {
                    Cell::Text("never".into())
                },
                wrong_k,
                paper_value,
                true_value,
            ]);
        }
    }
    Ok(t)
}

/// Def 2.3's thresholds beside the true least thresholds (`least_thresholds`, by search in the
/// win table) at every n ≤ the table's range where they differ: n, W(n), both pairs, and which
/// role differs (the plain-game winner's `main` value, or the `other` player's). Also returns
/// how many n differ in each role.
pub fn least_threshold_table(th: &Thresholds, table: &CashTable) -> (Table, [usize; 2]) {
    let mut t = Table::new(&["n", "winner", "f1", "least_f1", "f2", "least_f2", "differs"]);
    let mut counts = [0; 2];
    for n in 0..=table.max_n() {
        let m = n as usize;
        let w = th.winner[m];
        let Some((l1, l2)) = least_thresholds(table, n, w) else {
            continue;
        };
        let f1_differs = l1.is_some_and(|l| l != th.f1[m]);
        let f2_differs = l2 != th.f2[m];
        let (main, other) = match w {
            Winner::I => (f1_differs, f2_differs),
            Winner::II => (f2_differs, f1_differs),
        };
        if !(main || other) {
            continue;
        }
        counts[0] += usize::from(main);
        counts[1] += usize::from(other);
        let differs = match (main, other) {
            (true, true) => "both",
            (true, false) => "main",
            _ => "other",
        };
        t.push(vec![
            Cell::from(n),
            Cell::Text(w.to_string()),
            th.f1[m].into(),
            l1.map_or(Cell::Text(String::new()), Cell::from),
            th.f2[m].into(),
            l2.into(),
            differs.into(),
        ]);
    }
    (t, counts)
}

/// Conjecture 8.1 (2) pair by pair: for A = {L, …, M}, the least offset Θ from which
/// f^I(n + L + M) = f^I(n) + M and f^II likewise (proven through the certified forms fitted on
/// n ≤ `max_n`), beside the conjectured bound 5(M − L)² + 2.
pub fn offsets_table(pairs: &[(Amount, Amount)], max_n: Amount) -> Result<Table> {
    let mut t = Table::new(&["L", "M", "least_theta", "bound", "within_bound"]);
    for &(l, m) in pairs {
        let set = CashSet::new((l..=m).collect())?;
        let forms = threshold_forms(&set, max_n)?;
        let bound = 5 * (m - l) * (m - l) + 2;
        let (theta, within) = match least_offset(&set, &forms, l + m, m)? {
            Offset::Least(theta) => (Cell::from(theta), Cell::Bool(theta <= bound)),
            Offset::None(_) => (Cell::Text("none".into()), Cell::Bool(false)),
        };
        t.push(vec![
            Cell::from(l),
            Cell::from(m),
            theta,
            Cell::from(bound),
            within,
        ]);
    }
    Ok(t)
}

/// The win condition as `nimlab cash condition --format csv` prints it: one row per line of each
/// boundary (its head values first) and one per offset of the edge layer, all with the proof's
/// status.
pub fn win_condition_table(wc: &WinCondition) -> Table {
    let status = format!("PROVEN for n ≥ {}", wc.proof.from);
    let mut t = Table::new(&[
        "part",
        "i",
        "b_period",
        "b_residue",
        "delta",
        "slope",
        "intercept",
        "formula",
        "status",
    ]);
    let none = || Cell::Text(String::new());
    for bd in &wc.boundaries {
        let head = bd.head.len();
        for (f, line) in bd.formulas().into_iter().enumerate() {
            let (period, residue, slope, intercept) = match f.checked_sub(head) {
                None => (
                    none(),
                    Cell::Int(f as i64),
                    Cell::Int(0),
                    Cell::Int(bd.head[f]),
                ),
                Some(j) => {
                    let l = &bd.form.lines[j];
                    (
                        Cell::Int(bd.form.period as i64),
                        Cell::Int(l.residue as i64),
                        l.slope.clone().into(),
                        l.intercept.clone().into(),
                    )
                }
            };
            t.push(vec![
                "boundary".into(),
                Cell::Int(bd.residue as i64),
                period,
                residue,
                none(),
                slope,
                intercept,
                line.into(),
                status.clone().into(),
            ]);
        }
    }
    for (j, row) in wc.edge.offsets.iter().enumerate() {
        for (delta, o) in row.iter().enumerate() {
            let Some(o) = o else { continue };
            t.push(vec![
                "edge".into(),
                Cell::Int(j as i64),
                none(),
                none(),
                Cell::Int(delta as i64),
                Cell::Int(1),
                Cell::Int(*o),
                format!("o_{j}({delta}) = {o}").into(),
                status.clone().into(),
            ]);
        }
    }
    t
}

/// The `formula` column of [`win_condition_table`] as a reader sees it, row for row:
/// `$h_{1}(3k + 1) = 3k$ ($k \ge 0$)`, `$h_{0}(2) = 2$`, `$o_{1}(0) = 2$`.
pub fn win_condition_formulas_math(wc: &WinCondition) -> Vec<String> {
    let mut out = Vec::new();
    for bd in &wc.boundaries {
        let name = format!("h_{{{}}}", bd.residue);
        out.extend(
            bd.head
                .iter()
                .enumerate()
                .map(|(b, v)| format!("${name}({b}) = {v}$")),
        );
        out.extend(formulas_math(&bd.form, &name, "k"));
    }
    for (j, row) in wc.edge.offsets.iter().enumerate() {
        for (delta, o) in row.iter().enumerate() {
            if let Some(o) = o {
                out.push(format!("$o_{{{j}}}({delta}) = {o}$"));
            }
        }
    }
    out
}

/// The induction that proves a win condition, as a paragraph a referee can follow (prose with
/// `$…$` mathematics): the base on the win table, why the step needs only the cut and one
/// below it, and why the window checked covers every larger n — the argument of
/// [`crate::games::cash::WinCondition`]'s module, with this condition's numbers.
pub fn win_condition_sketch(wc: &WinCondition) -> String {
    let pr = &wc.proof;
    let base = if pr.base_rows == 0 {
        format!(
            "no state is $A$-critical for ${} \\le n < {}$",
            pr.from, pr.step_from
        )
    } else {
        format!(
            "the win table, computed from the rules, agrees with the condition on every $A$-critical state with ${} \\le n < {}$ ({} rows $(n, d)$)",
            pr.from, pr.step_from, pr.base_rows
        )
    };
    format!(
        "Proof sketch: by induction on $n$. Base: {base}, at least $\\max A$ consecutive heap sizes, all that a step looks back on. \
         Step: at $n \\ge {step}$ Player I wins iff some move to $n - a$, $a \\in A$, reaches a state its mover loses, and the condition (or Theorems 2.4 and 3.7, for a rich or a poor player) gives the winner there; \
         since more money never hurts its owner, it suffices to check $b^\\dagger$ at the cut and one below it. \
         With $G(n) = f^{{\\mathrm{{I}}}}(n) - 1 - g^{{\\mathrm{{I}}}}(n)$ the width of the critical band, the step at $(n, b)$ depends on $(n, b)$ only through quantities that repeat: \
         for $b < B = {small}$ with period $M = {m}$ in $n$; for $B \\le b \\le G(n) - W$, $W = {w}$, also with period $p = {p}$ in $b$; \
         and for $b \\ge B$ it is unchanged by $(n, b) \\mapsto (n + MK, b + {sigma}K)$, since the band widens by $\\sigma = {sigma}$ per $M$ stones. \
         The margins $B$ and $W$ keep every state one move away inside its region, so the step checked at all {points} points $(n, b)$ with ${step} \\le n < {end}$ holds for every larger $n$. \
         The argument rests on Theorems 2.4 and 3.7 (tested against the win table on every small state), on monotonicity in money, and on the certified forms of $f^{{\\mathrm{{I}}}}$ and $f^{{\\mathrm{{II}}}}$.",
        step = pr.step_from,
        small = pr.small_below,
        m = pr.n_period,
        w = pr.edge_margin,
        p = pr.b_period,
        sigma = pr.band_growth,
        points = pr.step_points,
        end = pr.step_from + pr.window,
    )
}

/// The win condition in words, one boundary a line, then the edge layer and the proof (what
/// `nimlab cash condition` prints).
pub fn win_condition_text(wc: &WinCondition) -> String {
    let pr = &wc.proof;
    let status = format!("PROVEN for n ≥ {}", pr.from);
    let mut text = format!("A = {}: cash period {}. ", wc.set, wc.cash_period);
    if wc.boundaries.is_empty() {
        text.push_str("No state is A-critical (g^I(n) ≤ d < f^I(n) and g^II(n) ≤ e < f^II(n)): Theorems 2.4 and 3.7 decide every state.\n");
    } else {
        text.push_str(&format!(
            "An A-critical state (n; d, e) — g^I(n) ≤ d < f^I(n) and g^II(n) ≤ e < f^II(n) — is won by Player I iff b† ≥ h_i(b), where i = n mod {}, b = f^I(n) − 1 − d and b† = f^II(n) − 1 − e:\n",
            wc.modulus
        ));
        for bd in &wc.boundaries {
            text.push_str(&format!("  {}\n", bd.compact()));
        }
        let edge = &wc.edge;
        if edge.depth > 0 {
            text.push_str(&format!(
                "except close to the poor edge: where δ = d − g^I(n) < {}, Player I wins iff b† ≥ b + o_j(δ), with j = n mod {} and (o_j(0), o_j(1), …) (– where no A-critical state occurs):\n",
                edge.depth, edge.modulus
            ));
            let show = |o: &Option<i64>| o.map_or("–".to_string(), |v| v.to_string());
            for (js, row) in edge.groups() {
                let js: Vec<String> = js.iter().map(usize::to_string).collect();
                let row: Vec<String> = row.iter().map(show).collect();
                text.push_str(&format!(
                    "  j ∈ {{{}}}: ({})\n",
                    js.join(", "),
                    row.join(", ")
                ));
            }
        }
    }
    let base = if pr.base_rows == 0 {
        format!(
            "no state is A-critical for {} ≤ n < {}",
            pr.from, pr.step_from
        )
    } else {
        format!(
            "the win table agrees on every A-critical state with {} ≤ n < {} ({} rows (n, d))",
            pr.from, pr.step_from, pr.base_rows
        )
    };
    text.push_str(&format!(
        "{status} (induction on n): {base}; the induction step holds at all {} points (n, b) with {} ≤ n < {}, and every larger n reduces to them (M = {}, band growth σ = {} per M stones, boundary period p = {}, margins B = {}, W = {}). Rich and poor players are decided by Theorems 2.4 and 3.7.\n",
        pr.step_points,
        pr.step_from,
        pr.step_from + pr.window,
        pr.n_period,
        pr.band_growth,
        pr.b_period,
        pr.small_below,
        pr.edge_margin
    ));
    text
}

/// The columns of a state's winner; [`CLASSIFY_COLUMNS`] follow them in a classification.
pub const WINNER_COLUMNS: [&str; 7] = ["set", "n", "d", "e", "winner", "plain_winner", "why"];

/// The thresholds and standings that classify a state.
pub const CLASSIFY_COLUMNS: [&str; 6] = ["f1", "f2", "g1", "g2", "player_i", "player_ii"];

/// A move set as a cell: `{1,3,4}` in text and CSV, an array in JSON.
pub fn set_cell(set: &CashSet) -> Cell {
    Cell::list("{", ",", "}", set.elements().iter().copied())
}

/// The decision for the state (n; d, e) as one row under [`WINNER_COLUMNS`], and
/// [`CLASSIFY_COLUMNS`] too when `classify`: n, d and e of any size as text, thresholds as
/// exact numbers (one JSON type per column whatever n).
pub fn decision_table(
    set: &CashSet,
    (n, d, e): (&BigUint, &BigUint, &BigUint),
    decision: &Decision,
    classify: bool,
) -> Table {
    let mut columns = WINNER_COLUMNS.to_vec();
    let mut row: Vec<Cell> = vec![
        set_cell(set),
        n.to_string().into(),
        d.to_string().into(),
        e.to_string().into(),
        decision.winner.to_string().into(),
        decision.plain_winner.to_string().into(),
        decision_reason(set, decision).into(),
    ];
    if classify {
        columns.extend(CLASSIFY_COLUMNS);
        row.extend([
            decision.f1.clone().into(),
            decision.f2.clone().into(),
            decision.g1.clone().into(),
            decision.g2.clone().into(),
            decision.player_i.to_string().into(),
            decision.player_ii.to_string().into(),
        ]);
    }
    Table::record(&columns, row)
}

/// Why the winner wins, in words: the reason, and where the thresholds behind it come from.
pub fn decision_reason(set: &CashSet, decision: &Decision) -> String {
    let (f1, f2) = (&decision.f1, &decision.f2);
    let standing = |reason: &Reason| match reason {
        Reason::Theorem24(_) => "a player is rich",
        _ => "a player is poor",
    };
    match (&decision.reason, decision.thresholds) {
        (Reason::Table, _) => {
            "A-critical (both middle class): decided by the win table".to_string()
        }
        (Reason::WinCondition(proof), _) => format!(
            "A-critical (both middle class, f^I(n) = {f1}, f^II(n) = {f2}): the win condition PROVEN for n ≥ {} (see nimlab cash condition --set {})",
            proof.from,
            set.elements()
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ),
        (theorem, ThresholdSource::Table) => format!("{}: {theorem}", standing(theorem)),
        (theorem, ThresholdSource::Forms { proven_from }) => format!(
            "{}: {theorem} of the paper (its proof; nimlab's tests check it on every small state), with f^I(n) = {f1}, f^II(n) = {f2} from closed forms PROVEN for n ≥ {proven_from} (see nimlab mine cash)",
            standing(theorem)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cash::thresholds;

    #[test]
    fn a_threshold_row_shows_the_thresholds_at_its_n() {
        let set = CashSet::new(vec![3, 5, 6, 10, 11]).unwrap();
        let th = thresholds(&set, 40).unwrap();
        for n in [0, 7, 40] {
            let row = threshold_row(&set, &th, n);
            assert_eq!(row.len(), THRESHOLD_COLUMNS.len());
            let m = n as usize;
            let (g1, g2) = g_thresholds(&set, n);
            assert_eq!(
                row,
                [
                    Cell::from(n),
                    Cell::Text(th.winner[m].to_string()),
                    Cell::from(th.f1[m]),
                    Cell::from(th.f2[m]),
                    Cell::from(g1),
                    Cell::from(g2),
                ]
            );
        }
    }

    #[test]
    fn the_certified_forms_table_gives_each_line_its_sharp_start() {
        let set = CashSet::new(vec![3, 5, 6, 10, 11]).unwrap();
        let forms = threshold_forms(&set, 1200).unwrap();
        let th = thresholds(&set, 1200).unwrap();
        let t = certified_forms_table(&forms);
        assert_eq!(t.rows.len(), forms.f1.lines.len() + forms.f2.lines.len());
        assert!(t.rows.iter().all(|r| r[8] == Cell::from("PROVEN")));
        for r in &t.rows {
            let (Cell::Int(p), Cell::Int(i), Cell::Int(sharp), Cell::Int(cert)) =
                (&r[1], &r[2], &r[6], &r[7])
            else {
                panic!("{r:?}")
            };
            let (Cell::Rational(b), Cell::Rational(c)) = (&r[3], &r[4]) else {
                panic!("{r:?}")
            };
            let values = if r[0] == Cell::from("f1") {
                &th.f1
            } else {
                &th.f2
            };
            let on = |k: i64| Q::int(values[(p * k + i) as usize] as i64) == &(b * &Q::int(k)) + c;
            // Every k from the sharp start on is on the line, the one before is not.
            assert!((*sharp..(1200 - i) / p).all(on), "{r:?}");
            assert!(*sharp == 0 || !on(sharp - 1), "{r:?}");
            assert!(
                sharp <= cert && p * cert + i >= forms.certificate.from,
                "{r:?}"
            );
        }
    }

    /// A displayed formula compared as plain text: TeX spacing, `$`, braces and `\mathrm`
    /// dropped, `\ge` made `≥`, as the CSV writes it.
    fn plain(math: &str) -> String {
        math.replace("\\mathrm", "")
            .replace("\\ge", "≥")
            .chars()
            .filter(|c| !" ${}".contains(*c))
            .collect()
    }

    #[test]
    fn displayed_cells_follow_the_csv_rows_one_for_one() {
        let set = CashSet::new(vec![3, 5, 6, 10, 11]).unwrap();
        let forms = threshold_forms(&set, 1200).unwrap();
        let t = certified_forms_table(&forms);
        let display = certified_forms_display(&forms);
        let Shown::Cells(formulas) = &display[2].1 else {
            panic!("cells")
        };
        for (row, shown) in t.rows.iter().zip(formulas) {
            // `f1(16k+3) = 10k+5` against `$f^{\mathrm{I}}(16k + 3) = 10k + 5$`.
            let csv = row[5].text().replace("f2", "f^II").replace("f1", "f^I");
            assert_eq!(plain(shown), plain(&csv));
        }
        assert_eq!(formulas.len(), t.rows.len());
        for elements in [vec![1, 4], vec![3, 4, 8]] {
            let wc = WinCondition::find(&CashSet::new(elements).unwrap(), 100, 1 << 30).unwrap();
            let t = win_condition_table(&wc);
            let shown = win_condition_formulas_math(&wc);
            assert_eq!(shown.len(), t.rows.len());
            for (row, math) in t.rows.iter().zip(&shown) {
                assert_eq!(plain(math), plain(&row[7].text()), "{math}");
            }
        }
    }

    #[test]
    fn the_appendix_table_flags_exactly_the_printed_lines_off_def_2_3() {
        let set = CashSet::new(vec![3, 5, 6, 10, 11]).unwrap();
        let forms = threshold_forms(&set, 1200).unwrap();
        let th = thresholds(&set, 1200).unwrap();
        // The certified table itself, one entry shifted by one: that entry alone is wrong,
        // from the first printed k on; the others agree from their sharp starts.
        let mut lines = [forms.f1.clone(), forms.f2.clone()].map(|f| {
            f.lines
                .iter()
                .map(|l| (l.slope.clone(), l.intercept.clone()))
                .collect::<Vec<_>>()
        });
        lines[1][5].1 = &lines[1][5].1 + &Q::int(1);
        let printed = PrintedTable {
            period: 16,
            from_k: 4,
            lines,
        };
        let t = appendix_table(&forms, &th, &printed).unwrap();
        assert_eq!(t.rows.len(), 32);
        for (j, r) in t.rows.iter().enumerate() {
            if j == 16 + 5 {
                assert_eq!(r[6], Cell::from("never"));
                assert_eq!(r[7], Cell::Int(4));
                let n = 16 * 4 + 5;
                assert_eq!(r[9], Cell::from(th.f2[n]));
                assert_eq!(r[8], Cell::from(Q::int(th.f2[n] as i64 + 1)));
            } else {
                assert_eq!(r[6], r[5], "{r:?}");
                // Wrong from k = 4 on only where the sharp start is later.
                let Cell::Int(sharp) = r[5] else { panic!() };
                assert_eq!(r[7] == Cell::Text(String::new()), sharp <= 4, "{r:?}");
            }
        }
        let short = PrintedTable {
            period: 8,
            from_k: 4,
            lines: [Vec::new(), Vec::new()],
        };
        assert!(appendix_table(&forms, &th, &short).is_err());
    }

    #[test]
    fn least_thresholds_differ_from_def_2_3_where_the_win_table_says() {
        let set = CashSet::new(vec![3, 5, 6, 10, 11]).unwrap();
        let th = thresholds(&set, 120).unwrap();
        let table = CashTable::solve(&set, 120, 1 << 28).unwrap();
        let (t, counts) = least_threshold_table(&th, &table);
        assert!(t.rows.len() <= counts[0] + counts[1] && counts[1] > 0);
        // Independently: the least d with which I wins (n; d, ∞) where I wins the plain game.
        for n in 0..=120 {
            if th.winner[n as usize] != Winner::I {
                continue;
            }
            let least = (0..=n)
                .find(|&d| table.winner(n, d, n) == Some(Winner::I))
                .unwrap();
            let row = t.rows.iter().find(|r| r[0] == Cell::from(n));
            let shown = row.map_or(Cell::from(th.f1[n as usize]), |r| r[3].clone());
            assert_eq!(shown, Cell::from(least), "n = {n}");
        }
    }

    #[test]
    fn the_offsets_table_sets_each_least_offset_against_the_bound() {
        let t = offsets_table(&[(2, 3), (1, 4)], 1000).unwrap();
        for r in &t.rows {
            let (Cell::Int(l), Cell::Int(m), Cell::Int(theta), Cell::Int(bound)) =
                (&r[0], &r[1], &r[2], &r[3])
            else {
                panic!("{r:?}")
            };
            assert_eq!(*bound, 5 * (m - l) * (m - l) + 2);
            assert_eq!(r[4], Cell::Bool(theta <= bound));
            // Θ − 1 fails: f grows by other than M somewhere at n = Θ − 1.
            let set = CashSet::new((*l as u64..=*m as u64).collect()).unwrap();
            let th = thresholds(&set, 200).unwrap();
            let ok = |n: usize| {
                let s = (l + m) as usize;
                let grew = |f: &[u64]| f[n + s] as i64 - f[n] as i64;
                grew(&th.f1) == *m && grew(&th.f2) == *m
            };
            assert!(*theta == 0 || !ok(*theta as usize - 1));
            assert!((*theta as usize..150).all(ok));
        }
    }
}
