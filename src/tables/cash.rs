//! NIM with Cash's tables: the thresholds f and g of Def 2.1/2.3 by heap size (`nimlab cash
//! thresholds`, the report's figure), the certified closed forms of f^I and f^II (`nimlab mine
//! cash`), and the proven win condition on A-critical states (`nimlab cash condition`), in
//! words and as a table.

use crate::export::{Cell, Table};
use crate::games::cash::{Amount, CashSet, ThresholdForms, Thresholds, WinCondition, g_thresholds};

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
    fn the_certified_forms_table_has_a_line_per_residue_of_each_sequence() {
        let set = CashSet::new(vec![1, 4]).unwrap();
        let forms = crate::games::cash::threshold_forms(&set, 400).unwrap();
        let t = certified_forms_table(&forms);
        assert_eq!(t.rows.len(), forms.f1.lines.len() + forms.f2.lines.len());
        assert!(t.rows.iter().all(|r| r[7] == Cell::from("PROVEN")));
        assert!(
            t.rows
                .iter()
                .all(|r| r[6] == Cell::Int(forms.certificate.from))
        );
    }
}
