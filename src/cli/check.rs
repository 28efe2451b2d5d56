//! `nimlab check`: verdicts for every claim of claim files.

use std::path::{Path, PathBuf};

use clap::Args;

use super::output::OutputArgs;
use crate::claims::finding::EvidenceTable;
use crate::claims::{Registry, VerdictKind, builtins, check_registries_progress, plan};
use crate::export::{Cell, Format, Table};
use crate::fsio;

const EXAMPLES: &str = "\
Examples:
  nimlab check data/claims/candy-nim.toml                      one verdict line per claim
  nimlab check data/claims/*.toml --format csv -o verdicts.csv
  nimlab check data/claims/scoring-nim.toml --only \"Prop 4.1\"   one claim by its label (or id)
  nimlab check data/claims/nim-with-cash.toml --only lem-6.5,note-4.2   two claims by id
  nimlab check data/claims/nim-with-cash.toml --deep           the larger ranges
  nimlab check my-conjectures.toml                             a file of your own (format: data/claims/README.md)

Exit status: 0 when no claim FAILS, 1 when some claim FAILS, 2 on errors in the files.";

/// Check claims and conjectures (TOML claim files) and print one verdict per claim:
/// HOLDS, PROVEN, FAILS (smallest counterexample), AMBIGUOUS or OPEN, with the evidence.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct CheckArgs {
    /// Claim files; `-` reads one from standard input.
    #[arg(value_name = "FILE", required_unless_present = "list_builtins")]
    files: Vec<PathBuf>,
    /// Check each claim on its deep range (slower).
    #[arg(long)]
    deep: bool,
    /// Check only the claims with these ids or labels: comma-separated ids, or one label
    /// (repeatable).
    #[arg(long, value_name = "ID[,ID…]")]
    only: Vec<String>,
    /// List the builtin structural checks and exit.
    #[arg(long)]
    list_builtins: bool,
    #[command(flatten)]
    out: OutputArgs,
}

/// Runs `nimlab check`; returns whether every claim passed (no FAILS).
pub fn run(a: CheckArgs) -> anyhow::Result<bool> {
    if a.list_builtins {
        let mut t = Table::new(&["builtin", "checks"]);
        for (name, what) in builtins::list() {
            t.push(vec![name.into(), what.into()]);
        }
        a.out.emit_table(&t)?;
        return Ok(true);
    }
    // Every file is parsed and checked before anything is evaluated.
    if a.files.iter().filter(|f| fsio::is_stdio(f)).count() > 1 {
        anyhow::bail!("standard input (`-`) can be given only once among the claim files");
    }
    let registries = a
        .files
        .iter()
        .map(|f| load_registry(f))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let only = chosen_claims(&a.only, &registries)?;
    // Every claim is sized before any is evaluated: one too large is refused at once, and the
    // others' estimates (in evaluation steps) are the progress bar's length.
    let only_in = |reg: &Registry| -> Vec<String> {
        only.iter()
            .filter(|o| reg.claims.iter().any(|c| &c.label == *o || &c.id == *o))
            .cloned()
            .collect()
    };
    let mut total = 0u64;
    for reg in &registries {
        let only = only_in(reg);
        if a.only.is_empty() || !only.is_empty() {
            total = total.saturating_add(plan(reg, a.deep, &only)?);
        }
    }
    let pb = super::progress_bar(total, "checking claims", "steps");
    let mut t = Table::new(&["paper", "label", "verdict", "range", "evidence", "tables"]);
    let mut failed = false;
    // --only filters each file; a label no file has is an error.
    let onlies: Vec<Vec<String>> = registries.iter().map(only_in).collect();
    let chosen: Vec<(&Registry, &[String])> = registries
        .iter()
        .zip(&onlies)
        .filter(|(_, only)| a.only.is_empty() || !only.is_empty())
        .map(|(reg, only)| (reg, only.as_slice()))
        .collect();
    for verdicts in check_registries_progress(&chosen, a.deep, &super::Bar(&pb))? {
        for v in verdicts {
            failed |= v.verdict == VerdictKind::Fails;
            t.push(vec![
                Cell::Text(v.claim.paper.clone()),
                Cell::Text(v.claim.label.clone()),
                Cell::Text(v.verdict.to_string()),
                Cell::Text(v.range_text()),
                Cell::Text(v.evidence()),
                evidence_tables(&v.tables),
            ]);
        }
    }
    pb.finish_and_clear();
    if a.out.format == Format::Text {
        let text = text_entries(&t);
        a.out.emit(|w| w.write_all(text.as_bytes()))?;
    } else {
        a.out.emit_table(&t)?;
    }
    Ok(!failed)
}

/// The text format: one entry per claim (label, verdict and paper on its first line, then the
/// range, the evidence and its tables indented), the `$…$` mathematics of the claim files
/// written in Unicode for a terminal. A table would make each evidence one line of thousands
/// of characters.
fn text_entries(t: &Table) -> String {
    use crate::report::label::plain_math;
    let mut out = String::new();
    for (i, row) in t.rows.iter().enumerate() {
        let cell = |k: usize| plain_math(&row[k].text());
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{} — {} ({})\n", cell(1), cell(2), cell(0)));
        for (name, k) in [("range", 3), ("evidence", 4), ("tables", 5)] {
            let value = cell(k);
            if !value.is_empty() {
                out.push_str(&format!("  {name}: {value}\n"));
            }
        }
    }
    out
}

/// A finding's evidence tables: real arrays in JSON (caption, columns, rows), one compact line
/// each (`caption (12 rows)`) in the other formats.
fn evidence_tables(tables: &[EvidenceTable]) -> Cell {
    Cell::list(
        "",
        "; ",
        "",
        tables.iter().map(|t| {
            let texts = |v: &[String]| Cell::list("", ", ", "", v.iter().cloned().map(Cell::Text));
            Cell::record(
                vec![
                    ("caption", Cell::Text(t.caption.clone())),
                    ("columns", texts(&t.columns)),
                    (
                        "rows",
                        Cell::list("", "; ", "", t.rows.iter().map(|r| texts(r))),
                    ),
                ],
                t.compact(),
            )
        }),
    )
}

/// The labels and ids `--only` names. A value naming a claim as a whole (labels may contain
/// commas: "§2, before Def 2.1") is kept whole; any other value is a comma-separated list of
/// ids or labels (`--only lem-6.5,note-4.2`, the reproduce command the reports print). Each must
/// name a claim of some file: the error names the first that does not.
fn chosen_claims(only: &[String], registries: &[Registry]) -> anyhow::Result<Vec<String>> {
    let names = |o: &str| {
        registries
            .iter()
            .any(|r| r.claims.iter().any(|c| c.label == o || c.id == o))
    };
    let mut chosen = Vec::new();
    for value in only {
        if names(value) {
            chosen.push(value.clone());
            continue;
        }
        for part in value.split(',').map(str::trim) {
            if !names(part) {
                anyhow::bail!("no claim in the files given has the label or id \"{part}\"");
            }
            chosen.push(part.to_string());
        }
    }
    Ok(chosen)
}

/// Reads and parses a claim file; `-` is standard input, named `<stdin>` in messages.
fn load_registry(path: &Path) -> anyhow::Result<Registry> {
    if fsio::is_stdio(path) {
        let src = fsio::read_input_to_string(path)?;
        Ok(Registry::parse(Path::new(&fsio::input_label(path)), &src)?)
    } else {
        Ok(Registry::load(path)?)
    }
}
