//! The NIM with Cash report: the thresholds f^I and f^II of Def 2.1/2.3 against n for the
//! Appendix's set A = {3,5,6,10,11}, their closed forms with the certificate that proves them
//! (replayed here), and the verdicts.

use super::{command, common_commands, param, provenance, verdicts};
use crate::error::Result;
use crate::export::{Cell, Table};
use crate::games::cash::{
    Amount, CashSet, ThresholdForms, Winner, g_thresholds, replay_threshold_certificate,
    threshold_forms, thresholds,
};
use crate::num::Q;
use crate::report::context::{Axis, Report, Series};
use crate::report::data::{FigureSpec, TableSpec, figure, table};
use crate::report::files::Files;
use crate::report::{Paper, Progress, ReportOptions};

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
    progress.done(1);
    let certified = certified_forms_table(&forms);
    summary.findings.push(format!(
        "A = {{3,5,6,10,11}}: f^I and f^II are periodic-linear with period {} and per-period slopes {slopes} on different residues, PROVEN for every n ≥ {from} by a certificate that this report replays (table below); compare the verdict of the Appendix.",
        forms.f1.period
    ));
    let tables = vec![table(
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
    let mut reproduce = common_commands(opts, &verdict_table);
    reproduce.push(command(
        "The certified closed forms, with the certificate written to a file and replayed",
        "nimlab mine cash --set 3,5,6,10,11 --max-n 2000 --certificate cert.json && nimlab mine replay cert.json",
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
