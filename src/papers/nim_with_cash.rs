//! The NIM with Cash report: the thresholds f^I and f^II of Def 2.1/2.3 against n for the
//! Appendix's set A = {3,5,6,10,11}, their closed forms with the certificate that proves them
//! (replayed here), the proven win conditions on A-critical states for {1,4} and {3,4,8}, and
//! the verdicts.

use super::{command, common_commands, param, provenance, verdicts};
use crate::error::Result;
use crate::export::{Cell, Table};
use crate::games::cash::{
    Amount, CashSet, ThresholdForms, WinCondition, Winner, g_thresholds,
    replay_threshold_certificate, threshold_forms, thresholds,
};
use crate::num::Q;
use crate::progress::Progress;
use crate::report::context::{Axis, Report, Series};
use crate::report::data::{FigureSpec, TableSpec, figure, table};
use crate::report::files::Files;
use crate::report::{Paper, ReportOptions};

/// The Appendix's set.
const SET: [Amount; 5] = [3, 5, 6, 10, 11];

pub fn build(opts: &ReportOptions, progress: &dyn Progress) -> Result<Paper> {
    let name = "nim-with-cash";
    let mut files = Files::new();
    let (verdict_table, mut summary) = verdicts(name, opts, progress, &mut files)?;
    progress.stage("nim-with-cash: thresholds");
    progress.add_work(1);
    let max_n: Amount = if opts.deep { 2000 } else { 300 };
    let set = CashSet::new(SET.to_vec())?;
    let th = thresholds(&set, max_n)?;
    let mut data = Table::new(&["n", "winner", "f1", "f2", "g1", "g2"]);
    for n in 0..=max_n {
        let m = n as usize;
        let (g1, g2) = g_thresholds(&set, n);
        data.push(vec![
            n.into(),
            Cell::Text(th.winner[m].to_string()),
            th.f1[m].into(),
            th.f2[m].into(),
            g1.into(),
            g2.into(),
        ]);
    }
    let first_wins = th.winner.iter().filter(|&&w| w == Winner::I).count();
    summary.findings.push(format!(
        "A = {{3,5,6,10,11}}, 0 ≤ n ≤ {max_n}: the player to move wins the plain game at {first_wins} of {} heap sizes; the money the plain-game winner needs (f^I where I wins, f^II where II wins) reaches {} at n = {max_n}.",
        max_n + 1,
        match th.winner[max_n as usize] {
            Winner::I => th.f1[max_n as usize],
            Winner::II => th.f2[max_n as usize],
        }
    ));
    let cmd = format!(
        "nimlab cash thresholds --set 3,5,6,10,11 --max-n {max_n} --defined-only --format csv"
    );
    // The Appendix's forms as the miner finds and proves them: the certificate is replayed
    // here, so the render fails rather than print an unproven form.
    progress.stage("nim-with-cash: certified forms");
    let forms = threshold_forms(&set, 2000)?;
    replay_threshold_certificate(&set, &forms.certificate)?;
    let from = forms.certificate.from;
    let slopes = {
        let mut v: Vec<&Q> = forms
            .f1
            .lines
            .iter()
            .chain(&forms.f2.lines)
            .map(|l| &l.slope)
            .collect();
        v.sort();
        v.dedup();
        v.iter()
            .map(|q| q.to_string())
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let figures = vec![figure(
        FigureSpec {
            id: "thresholds-3-5-6-10-11".into(),
            title: "Thresholds f^I and f^II for A = {3,5,6,10,11}".into(),
            caption: format!(
                "The thresholds f^I(n) and f^II(n) of Def 2.1/2.3 (the money each player needs) against the number of stones n ≤ {max_n}, for the Appendix's set A = {{3,5,6,10,11}}; both grow linearly, by {slopes} dollars every {} stones depending on the residue (the certified forms below).",
                forms.f1.period
            ),
            command: cmd.clone(),
            x: Axis {
                column: "n".into(),
                label: "stones n".into(),
            },
            y_label: "dollars".into(),
            series: vec![
                Series {
                    column: "f1".into(),
                    label: "f^I(n) (player to move)".into(),
                    color: "blue".into(),
                },
                Series {
                    column: "f2".into(),
                    label: "f^II(n) (the other player)".into(),
                    color: "red".into(),
                },
            ],
            data,
            marks: None,
            vlines: Vec::new(),
        },
        &mut files,
    )?];
    progress.advance(1);
    let certified = certified_forms_table(&forms);
    summary.findings.push(format!(
        "A = {{3,5,6,10,11}}: f^I and f^II are periodic-linear with period {} and per-period slopes {slopes} on different residues, PROVEN for every n ≥ {from} by a certificate that this report replays (table below); compare the verdict of the Appendix.",
        forms.f1.period
    ));
    let mut tables = vec![table(
        TableSpec {
            title: "Certified closed forms of f^I and f^II for A = {3,5,6,10,11}".into(),
            caption: format!(
                "One line per residue (f1 = f^I, f2 = f^II), as the Appendix prints them; each holds from the k given, and every line is PROVEN for all n ≥ {from} by the min/max-plus certificate of Def 2.3, replayed when this report was rendered."
            ),
            csv: "certified-forms-3-5-6-10-11.csv".into(),
            command: "nimlab mine cash --set 3,5,6,10,11 --max-n 2000 --format csv".into(),
            data: certified,
            show: 64,
        },
        &mut files,
    )?];
    // The win condition on A-critical states, found and proven for all n (the proof runs as the
    // report renders): for {1,4} it is Lemma 5.6; {3,4,8} needs more than Def 4.3's state.
    progress.stage("nim-with-cash: win conditions");
    for (set_text, label) in [
        (
            "1,4",
            "the paper's Lemma 5.6 for L = 4, in Def 4.3's coordinates",
        ),
        ("3,4,8", "beyond Def 4.3"),
    ] {
        let set: CashSet = set_text.parse()?;
        let wc = WinCondition::find(&set, 100, 1 << 30)?;
        let what = if wc.modulus == wc.cash_period && wc.edge.depth == 0 {
            let forms: Vec<String> = wc.boundaries.iter().map(|b| b.compact()).collect();
            format!("{label}: {}", forms.join("; "))
        } else {
            let mut why = Vec::new();
            if wc.modulus != wc.cash_period {
                why.push(format!(
                    "boundaries by n mod {}, not by n mod the cash period {}",
                    wc.modulus, wc.cash_period
                ));
            }
            if wc.edge.depth > 0 {
                why.push(format!(
                    "an edge layer where d − g^I(n) < {}",
                    wc.edge.depth
                ));
            }
            format!(
                "{label}: the corresponding state of Def 4.3 alone does not decide the winner; it takes {}",
                why.join(" and ")
            )
        };
        summary.findings.push(format!(
            "A = {set}: the winner of every A-critical state (both players middle class) is given by boundaries h_i(b) on the corresponding state{}, PROVEN for every n ≥ {} by induction (the step checked on {} ≤ n < {}, to which every larger n reduces) — {what}.",
            if wc.edge.depth > 0 { " and an edge layer" } else { "" },
            wc.proof.from,
            wc.proof.step_from,
            wc.proof.step_from + wc.proof.window,
        ));
        let slug = set_text.replace(',', "-");
        tables.push(table(
            TableSpec {
                title: format!("The win condition on A-critical states for A = {set}"),
                caption: format!(
                    "Player I wins an A-critical state (n; d, e) iff b† ≥ h_i(b), where i = n mod {}, b = f^I(n) − 1 − d, b† = f^II(n) − 1 − e; one row per line of each boundary (its values below the periodic part first){}. Found on the win table and PROVEN for every n ≥ {} (proven when this report was rendered): {what}.",
                    wc.modulus,
                    if wc.edge.depth > 0 {
                        format!(
                            ", then the edge layer: where δ = d − g^I(n) < {}, I wins iff b† ≥ b + o_j(δ) with j = n mod {}",
                            wc.edge.depth, wc.edge.modulus
                        )
                    } else {
                        String::new()
                    },
                    wc.proof.from
                ),
                csv: format!("win-condition-{slug}.csv"),
                command: format!("nimlab cash condition --set {set_text} --format csv"),
                data: win_condition_table(&wc),
                show: 64,
            },
            &mut files,
        )?);
    }
    let mut reproduce = common_commands(opts, &verdict_table);
    reproduce.push(command(
        "The certified closed forms, with the certificate written to a file and replayed",
        "nimlab mine cash --set 3,5,6,10,11 --max-n 2000 --certificate cert.json && nimlab mine replay cert.json",
    ));
    reproduce.push(command(
        "The win condition on A-critical states, with its proof (any cash-periodic A)",
        "nimlab cash condition --set 1,4",
    ));
    reproduce.push(command(
        "The thresholds with the true least thresholds beside them",
        format!("nimlab cash thresholds --set 3,5,6,10,11 --max-n {max_n} --format csv"),
    ));
    let report = Report {
        name: name.into(),
        title: "NIM with Cash".into(),
        source: "Gasarch et al., NIM with Cash".into(),
        provenance: provenance(
            opts,
            vec![
                param("set", "A = {3,5,6,10,11}"),
                param("thresholds", format!("Def 2.1/2.3, 0 ≤ n ≤ {max_n}")),
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

/// The certified forms as the table `nimlab mine cash --format csv` prints: one row per
/// sequence and residue, each PROVEN from the certificate's first n.
pub fn certified_forms_table(forms: &ThresholdForms) -> Table {
    let from = forms.certificate.from;
    let mut t = Table::new(&[
        "sequence",
        "period",
        "residue",
        "slope",
        "intercept",
        "formula",
        "proven_from",
        "status",
    ]);
    for (name, fit) in [("f1", &forms.f1), ("f2", &forms.f2)] {
        for (line, formula) in fit.lines.iter().zip(fit.formulas(name)) {
            t.push(vec![
                name.into(),
                Cell::Int(fit.period as i64),
                Cell::Int(line.residue as i64),
                line.slope.clone().into(),
                line.intercept.clone().into(),
                formula.into(),
                Cell::Int(from),
                "PROVEN".into(),
            ]);
        }
    }
    t
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
