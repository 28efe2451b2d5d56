//! `nimlab study`: a researcher's own question as one TOML file (format in
//! `data/studies/README.md`). `new` writes a commented starter, `check` validates a file and
//! estimates every computation before anything runs, `tables` computes every table through the
//! cache and writes one CSV per table.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};

use super::args::parse_size;
use super::output::OutputArgs;
use crate::export::{Cell, Format, Table};
use crate::fsio;
use crate::study::{Cache, Source, Study, is_study_name, load};

/// The starter study `nimlab study new` writes, `{name}` standing for its name.
const STARTER: &str = include_str!("starter.toml");

const NEW_EXAMPLES: &str = "\
Examples:
  nimlab study new zigzag             writes zigzag.toml (refuses to overwrite a file)
  nimlab study check zigzag.toml      then validate it and estimate its cost";

const CHECK_EXAMPLES: &str = "\
Examples:
  nimlab study check zigzag.toml                    one line per table: rows, bytes, work
  nimlab study check zigzag.toml --format json
  nimlab study check big.toml --memory-limit 512M   refuse tables that would need more

Exit status: 0 when the file is valid and every table fits the memory budget, 2 otherwise
(the error names the file, line and column).";

const TABLES_EXAMPLES: &str = "\
Examples:
  nimlab study tables zigzag.toml                 reports/zigzag/<table>.csv for every table
  nimlab study tables zigzag.toml -o out          out/zigzag/<table>.csv
  nimlab study tables zigzag.toml --no-cache      recompute everything
  nimlab study tables zigzag.toml --cache /tmp/c  cache in /tmp/c (default: $NIMLAB_CACHE,
                                                  $XDG_CACHE_HOME/nimlab or ~/.cache/nimlab)";

/// Studies: one TOML file declaring tables, mining, claims, figures and prose.
#[derive(Debug, Subcommand)]
pub enum StudyCommand {
    /// Write NAME.toml, a commented starter study that `study check` accepts.
    #[command(after_help = NEW_EXAMPLES)]
    New(NewArgs),
    /// Validate a study file and estimate the memory and work of every table, before any work.
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Compute every table of a study (read back from the cache when unchanged) and write one
    /// CSV per table into DIR/<study name>/.
    #[command(after_help = TABLES_EXAMPLES)]
    Tables(TablesArgs),
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The study's name (lowercase letters, digits and -); NAME.toml is written, never over an
    /// existing file. A path (dir/NAME) writes into that directory.
    #[arg(value_name = "NAME")]
    name: PathBuf,
}

/// The memory budget of a study's computations.
#[derive(Debug, Clone, Args)]
pub struct BudgetArgs {
    /// Refuse any table estimated to need more memory than this (e.g. 512M, 8G); `auto` is 8G,
    /// or less when `ulimit -v` or the free memory allow less.
    #[arg(long, value_name = "SIZE", default_value = "auto", value_parser = parse_size)]
    memory_limit: u64,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The study file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    out: OutputArgs,
}

#[derive(Debug, Args)]
pub struct TablesArgs {
    /// The study file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Write the CSV files into DIR/<study name>/.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "DIR",
        default_value = "reports"
    )]
    output: PathBuf,
    /// The cache directory (default: $NIMLAB_CACHE, else $XDG_CACHE_HOME/nimlab, else
    /// ~/.cache/nimlab).
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    cache: Option<PathBuf>,
    /// Compute every table, reading and writing no cache.
    #[arg(long)]
    no_cache: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

pub fn run(cmd: StudyCommand) -> anyhow::Result<()> {
    match cmd {
        StudyCommand::New(a) => new(a),
        StudyCommand::Check(a) => check(a),
        StudyCommand::Tables(a) => tables(a),
    }
}

fn new(a: NewArgs) -> anyhow::Result<()> {
    let name = a
        .name
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .trim_end_matches(".toml")
        .to_string();
    if !is_study_name(&name) {
        anyhow::bail!(
            "study name `{}`: use lowercase letters, digits and - (it names the output files)",
            a.name.display()
        );
    }
    let path = a.name.with_file_name(format!("{name}.toml"));
    let text = STARTER.replace("{name}", &name);
    // `create_new` refuses an existing file (or link) instead of replacing it.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .with_context(|| {
            format!(
                "cannot create {} (an existing file is never overwritten)",
                path.display()
            )
        })?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .with_context(|| format!("writing {}", path.display()))?;
    eprintln!(
        "wrote {}; next: nimlab study check {}",
        path.display(),
        path.display()
    );
    Ok(())
}

/// Loads a study and checks every table against the budget.
fn load_checked(
    file: &Path,
    budget: &BudgetArgs,
) -> anyhow::Result<(Study, Vec<crate::study::Cost>)> {
    let study = load(file)?;
    let costs = study.check_budget(budget.memory_limit)?;
    Ok((study, costs))
}

fn check(a: CheckArgs) -> anyhow::Result<()> {
    let (study, costs) = load_checked(&a.file, &a.budget)?;
    let mut t = Table::new(&["table", "kind", "columns", "rows", "bytes", "work"]);
    for (decl, cost) in study.tables.iter().zip(&costs) {
        let columns = decl.spec.columns();
        t.push(vec![
            decl.name.as_str().into(),
            decl.spec.kind().name().into(),
            if a.out.format == Format::Json {
                Cell::list("", " ", "", columns)
            } else {
                columns.join(" ").into()
            },
            cost.rows.into(),
            cost.bytes.into(),
            cost.work.into(),
        ]);
    }
    a.out.emit_table(&t)?;
    if quiet() {
        return Ok(());
    }
    eprintln!(
        "{}: valid; {} tables, {} mining steps, {} inline claims, {} claim files, {} figures, {} values, {} sections; every table fits the memory budget",
        a.file.display(),
        study.tables.len(),
        study.mines.len(),
        study.claims.as_ref().map_or(0, |r| r.claims.len()),
        study.claim_files.len(),
        study.figures.len(),
        study.values.len(),
        study.sections.len(),
    );
    Ok(())
}

/// Whether the environment asks for errors alone on stderr (`NIMLAB_PROGRESS=never`).
fn quiet() -> bool {
    std::env::var_os("NIMLAB_PROGRESS").is_some_and(|v| v == "never")
}

fn tables(a: TablesArgs) -> anyhow::Result<()> {
    let (study, _) = load_checked(&a.file, &a.budget)?;
    let cache = match (&a.cache, a.no_cache) {
        (_, true) => Cache::disabled(),
        (Some(dir), false) => Cache::at(dir),
        (None, false) => Cache::default_dir().map_or_else(Cache::disabled, Cache::at),
    };
    let quiet = quiet();
    let count = study.tables.len();
    // Every table is computed before anything is written: a failure leaves no partial output.
    let mut computed = Vec::with_capacity(count);
    for (i, decl) in study.tables.iter().enumerate() {
        let what = format!(
            "[{}/{count}] table `{}` ({})",
            i + 1,
            decl.name,
            decl.spec.kind().name()
        );
        let pb = super::progress_bar(0, &what, "steps");
        let result = cache.table(&decl.spec, a.budget.memory_limit, &super::Bar(&pb));
        pb.finish_and_clear();
        let (table, source) = result.map_err(|e| {
            study.error_at(
                decl.at,
                &format!("table `{}` ({}): {e}", decl.name, decl.spec.kind().name()),
            )
        })?;
        if !quiet {
            let how = match source {
                Source::Hit => "read from the cache",
                Source::Computed => "computed",
                Source::Replaced => "computed (an unusable cache entry was replaced)",
            };
            eprintln!("{what}: {} rows, {how}", table.rows.len());
        }
        computed.push(table);
    }
    let dir = a.output.join(&study.meta.name);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    for (decl, table) in study.tables.iter().zip(&computed) {
        let path = dir.join(format!("{}.csv", decl.name));
        fsio::write_output(&path, |w| w.write_all(&table.render(Format::Csv)))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if !quiet {
        eprintln!("wrote {count} tables into {}", dir.display());
    }
    Ok(())
}
