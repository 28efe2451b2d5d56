//! The Candy Nim report: V along Remark 4.5's family [31, 32m, 32m+31], its table (built by
//! [`crate::tables::candy`], as `nimlab candy family` prints it), the closed forms mined along it
//! with their status, and the verdicts.

use std::collections::BTreeMap;

use super::{command, common_commands, param, provenance, verdicts};
use crate::error::{Error, Result};
use crate::export::{Cell, Table};
use crate::family::Family;
use crate::num::{IntRange, Q};
use crate::progress::Progress;
use crate::report::context::{Axis, Report, Series, SeriesStyle};
use crate::report::data::{BFile, FigureSpec, TableSpec, bfiles, figure, table};
use crate::report::files::Files;
use crate::report::{Paper, ReportOptions};
use crate::tables::candy::family_table;
use crate::tables::mined::{family_forms, family_forms_table};

/// Remark 4.5's family.
const FAMILY: &str = "31,32m,32m+31";

/// Memory cap of the value tables (the CLI's default).
const MEMORY: u64 = 4 << 30;

/// The family's table with Remark 4.5's value 62(m − 1) + 98 beside each member.
fn with_remark(t: &Table) -> Result<Table> {
    let m = t
        .columns
        .iter()
        .position(|c| c == "m")
        .ok_or_else(|| Error::invalid("the family table has no column `m`"))?;
    let mut columns: Vec<&str> = t.columns.iter().map(String::as_str).collect();
    columns.push("remark_4_5");
    let mut out = Table::new(&columns);
    for row in &t.rows {
        let Cell::Int(k) = row[m] else {
            return Err(Error::invalid(
                "the family table's `m` is not a whole number",
            ));
        };
        let mut r = row.clone();
        r.push(Cell::Int(62 * (k - 1) + 98));
        out.push(r);
    }
    Ok(out)
}

pub fn build(opts: &ReportOptions, progress: &dyn Progress) -> Result<Paper> {
    let name = "candy-nim";
    let mut files = Files::new();
    let (verdict_table, mut summary) = verdicts(name, opts, progress, &mut files)?;
    progress.stage("candy-nim: the family [31, 32m, 32m+31]");
    progress.add_work(1);
    let max_m: i64 = if opts.deep { 256 } else { 128 };
    let fam: Family = FAMILY
        .parse()
        .map_err(|e| Error::invalid(format!("family {FAMILY}: {e}")))?;
    let ranges = BTreeMap::from([("m".to_string(), IntRange::new(1, max_m)?)]);
    let data = family_table(&fam, &ranges, MEMORY, &crate::progress::Silent)?;
    let first_off = data.members.iter().find_map(|m| {
        let (k, v) = (m.params[0], m.value.v);
        (v != 62 * (k - 1) + 98).then_some((k, v))
    });
    summary.findings.push(match first_off {
        None => format!(
            "Remark 4.5: $V([31, 32m, 32m+31]) = 62(m-1) + 98$ for every $m \\le {max_m}$ (the paper checked $m < 12$)."
        ),
        Some((m, v)) => format!(
            "Remark 4.5 fails at $m = {m}$: $V = {v}$, the formula gives ${}$.",
            62 * (m - 1) + 98
        ),
    });
    let family_cmd = format!("nimlab candy family \"{FAMILY}\" --m 1..{max_m} --format csv");
    let family_cmd_plain = family_cmd.clone();
    // Two panels: V is small beside N_L and N_W (which grow like 32m each), so on one scale
    // the three curves would crowd together.
    let figures = vec![
        figure(
            FigureSpec {
                id: "v-31-32m".into(),
                title: "$V$ along the family $[31, 32m, 32m+31]$".into(),
                caption: format!(
                    "$V = N_L - N_W$ (the loser Luca's margin under optimal play) of the P-positions $[31, 32m, 32m+31]$ for $1 \\le m \\le {max_m}$, one marker per member; Remark 4.5 states $V = 62(m-1) + 98$, drawn as a line."
                ),
                command: family_cmd.clone(),
                x: Axis {
                    column: "m".into(),
                    label: "$m$".into(),
                },
                y_label: "$V$".into(),
                series: vec![
                    Series {
                        column: "v".into(),
                        label: "$V = N_L - N_W$".into(),
                        color: "blue".into(),
                        style: SeriesStyle::Dots,
                    },
                    Series {
                        column: "remark_4_5".into(),
                        label: "$62(m-1) + 98$ (Remark 4.5)".into(),
                        color: "gray".into(),
                        style: SeriesStyle::Line,
                    },
                ],
                data: with_remark(&data.table())?,
                marks: None,
                vlines: Vec::new(),
            },
            &mut files,
        )?,
        figure(
            FigureSpec {
                id: "family-31-32m-candies".into(),
                title: "$N_L$ and $N_W$ along $[31, 32m, 32m+31]$".into(),
                caption: format!(
                    "The candies each player collects under optimal play, $N_L$ (Luca, the loser) and $N_W$ (Windsor), for $1 \\le m \\le {max_m}$; their difference is the $V$ of the figure before."
                ),
                command: family_cmd.clone(),
                x: Axis {
                    column: "m".into(),
                    label: "$m$".into(),
                },
                y_label: "candies".into(),
                series: vec![
                    Series {
                        column: "n_l".into(),
                        label: "$N_L$ (Luca)".into(),
                        color: "orange".into(),
                        style: SeriesStyle::Markers,
                    },
                    Series {
                        column: "n_w".into(),
                        label: "$N_W$ (Windsor)".into(),
                        color: "red".into(),
                        style: SeriesStyle::Markers,
                    },
                ],
                data: data.table(),
                marks: None,
                vlines: Vec::new(),
            },
            &mut files,
        )?,
    ];
    // The closed forms `nimlab mine family candy` finds in the same table.
    let forms = family_forms(&data.typed_columns())?;
    let (m0, m1) = forms.range;
    let values: Vec<String> = forms
        .fits()
        .filter(|(name, _)| ["v", "n_l", "n_w"].contains(name))
        .flat_map(|(name, fit)| fit.formulas_in(name, "m"))
        .collect();
    let remark = forms.fits().any(|(name, fit)| {
        name == "v"
            && fit.period == 1
            && fit.lines[0].slope == Q::int(62)
            && fit.lines[0].intercept == Q::int(36)
    });
    summary.findings.push(format!(
        "Mined from the family's table, OBSERVED on m = {m0}..{m1} only: {}{}.",
        if values.is_empty() {
            "no closed form of V, N_L or N_W".to_string()
        } else {
            values.join("; ")
        },
        if remark {
            "; v(m) = 62m+36 is Remark 4.5's 62(m−1) + 98"
        } else {
            ""
        }
    ));
    let mined = family_forms_table(&forms);
    let tables = vec![
        table(
            TableSpec {
                title: "Remark 4.5's family".into(),
                caption: "$V$, $N_L$ and $N_W$ of $[31, 32m, 32m+31]$ (first rows; the CSV has every $m$)."
                    .into(),
                csv: "family-31-32m.csv".into(),
                command: family_cmd,
                show: 12,
                data: data.table(),
            },
            &mut files,
        )?,
        table(
            TableSpec {
                title: "Closed forms mined along [31, 32m, 32m+31]".into(),
                caption: format!(
                    "Each column of the family's table (heaps, V, N_L, N_W) as a periodic-linear closed form in m found by the miner in the members m = {m0}..{m1}; every form is OBSERVED on m = {m0}..{m1} only."
                ),
                csv: "mined-family.csv".into(),
                command: format!(
                    "nimlab mine family candy \"{FAMILY}\" --m {m0}..{m1} --format csv"
                ),
                show: 64,
                data: mined,
            },
            &mut files,
        )?,
    ];
    let v_terms = data
        .members
        .iter()
        .map(|m| (m.params[0], Cell::Int(m.value.v)))
        .collect();
    let mut tables = tables;
    tables.push(bfiles(
        vec![BFile {
            file: "b-v-31-32m.txt".into(),
            sequence: "V([31, 32m, 32m+31]) = N_L - N_W, indexed by m".into(),
            command: family_cmd_plain.clone(),
            terms: v_terms,
        }],
        &mut files,
    )?);
    progress.advance(1);
    let mut reproduce = common_commands(opts, &verdict_table);
    reproduce.push(command(
        "The closed forms mined along the family",
        format!("nimlab mine family candy \"{FAMILY}\" --m {m0}..{m1}"),
    ));
    reproduce.push(command(
        "V of Remark 7.3's position with an optimal line",
        "nimlab candy value 31 42 53",
    ));
    let report = Report {
        name: name.into(),
        title: "Candy Nim".into(),
        source: "Mani et al., Candy Nim".into(),
        provenance: provenance(
            opts,
            vec![
                param("family", format!("[{FAMILY}], 1 ≤ m ≤ {max_m}")),
                param("value tables", "3-heap P-position values, memory cap 4 GiB"),
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
