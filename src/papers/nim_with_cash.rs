//! The NIM with Cash report: the thresholds f^I and f^II of Def 2.1/2.3 against n for the
//! Appendix's set A = {3,5,6,10,11}, their closed forms with the certificate that proves them
//! (replayed here), the proven win conditions on A-critical states for {1,4} and {3,4,8}, and
//! the verdicts.

use super::{command, common_commands, param, provenance, verdicts};
use crate::error::Result;
use crate::export::Table;
use crate::games::cash::{
    Amount, CashSet, WinCondition, Winner, replay_threshold_certificate, threshold_forms,
    thresholds,
};
use crate::num::Q;
use crate::progress::Progress;
use crate::report::context::{Axis, Report, Series};
use crate::report::data::{FigureSpec, TableSpec, figure, table};
use crate::report::files::Files;
use crate::report::{Paper, ReportOptions};
use crate::tables::cash::{
    THRESHOLD_COLUMNS, certified_forms_table, threshold_row, win_condition_table,
};

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
    let mut data = Table::new(&THRESHOLD_COLUMNS);
    for n in 0..=max_n {
        data.push(threshold_row(&set, &th, n));
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
    let lemma_5_6: &[Amount] = &[1, 4];
    for (elements, label) in [
        (
            lemma_5_6,
            "the paper's Lemma 5.6 for L = 4, in Def 4.3's coordinates",
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
