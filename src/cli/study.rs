//! `nimlab study`: a researcher's own question as one TOML file (format in
//! `data/studies/README.md`). `new` writes a commented starter, `check` validates a file and
//! estimates every computation before anything runs, `tables` computes every table through the
//! cache and writes one CSV per table, `run` renders the whole report (the library's
//! [`crate::study::render`]) and installs it atomically, or compares it with what is on disk.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, Subcommand};

use super::args::parse_size;
use super::output::OutputArgs;
use crate::export::{Cell, Format, Table};
use crate::fsio;
use crate::report::{Renderer, ReportOptions, files, pdf};
use crate::study::{Cache, RunOptions, Source, Study, is_study_name, load, render};

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
  nimlab study tables zigzag.toml                 study-reports/zigzag/<table>.csv for every table
  nimlab study tables zigzag.toml -o out          out/zigzag/<table>.csv
  nimlab study tables zigzag.toml --no-cache      recompute everything
  nimlab study tables zigzag.toml --cache /tmp/c  cache in /tmp/c (default: $NIMLAB_CACHE,
                                                  $XDG_CACHE_HOME/nimlab or ~/.cache/nimlab)";

const RUN_EXAMPLES: &str = "\
Examples:
  nimlab study run zigzag.toml                 study-reports/zigzag/: zigzag.md, zigzag.tex,
                                               zigzag.pdf (with pdflatex), CSV, JSON, SVG
  nimlab study run zigzag.toml -o out          out/zigzag/
  nimlab study run zigzag.toml --check         exit 1 when out/zigzag/ differs from a fresh render
  nimlab study run zigzag.toml --no-cache      recompute every table
  nimlab study run zigzag.toml --print zigzag/zigzag.csv
                                              print one file of the report (nothing written)

Tables come through the cache (see `study tables`), so a prose-only edit re-renders without
recomputing. The report records the commit the nimlab binary was built from; --check renders with the
commit recorded in DIR/<name>/<name>.json and compares every byte. Nothing is written unless the
whole render succeeds: the new directory replaces DIR/<name> in one atomic step.

Exit status: 0 rendered (or up to date), 1 --check found differences, 2 a bad study file
(file:line:col) or any other error.";

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
    /// Render a study's report into DIR/<study name>/: Markdown, LaTeX (and its PDF when
    /// pdflatex is installed), one CSV per table and mining step, the findings as JSON, figures.
    #[command(after_help = RUN_EXAMPLES)]
    Run(RunArgs),
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
    #[command(flatten)]
    output: OutputDir,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Where study outputs go by default: not `reports/`, which `nimlab report` replaces whole.
const DEFAULT_OUTPUT: &str = "study-reports";

/// Where a study's files go.
#[derive(Debug, Clone, Args)]
pub struct OutputDir {
    /// Write into DIR/<study name>/.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "DIR",
        default_value = DEFAULT_OUTPUT
    )]
    dir: PathBuf,
}

/// Where computed tables and claim verdicts are kept (`study`, `report`).
#[derive(Debug, Clone, Args)]
pub struct CacheArgs {
    /// The cache directory (default: $NIMLAB_CACHE, else $XDG_CACHE_HOME/nimlab, else
    /// ~/.cache/nimlab).
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    cache: Option<PathBuf>,
    /// Compute every table and check every claim, reading and writing no cache.
    #[arg(long)]
    no_cache: bool,
}

impl CacheArgs {
    pub(super) fn cache(&self) -> Cache {
        match (&self.cache, self.no_cache) {
            (_, true) => Cache::disabled(),
            (Some(dir), false) => Cache::at(dir),
            (None, false) => Cache::default_dir().map_or_else(Cache::disabled, Cache::at),
        }
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The study file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    #[command(flatten)]
    output: OutputDir,
    /// Do not write: compare a fresh render with DIR/<study name>/ and exit 1 when they differ.
    #[arg(long)]
    check: bool,
    /// Do not write: render, then print the one file REPORT/FILE of the report (a table's CSV,
    /// a b-file, the Markdown), as the report's reproduce lines name it.
    #[arg(long, value_name = "REPORT/FILE", conflicts_with = "check")]
    print: Option<String>,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Runs `nimlab study …`; false when `run --check` found differences.
pub fn run(cmd: StudyCommand) -> anyhow::Result<bool> {
    match cmd {
        StudyCommand::New(a) => new(a).map(|()| true),
        StudyCommand::Check(a) => check(a).map(|()| true),
        StudyCommand::Tables(a) => tables(a).map(|()| true),
        StudyCommand::Run(a) => run_study(a),
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
    if let Some(paper) = &study.paper {
        eprintln!(
            "{}: valid; a paper study of \"{}\": its claims {}, {} tables, {} mining steps, {} figures, {} values, {} sections and the builtins {}; every table fits the memory budget (render it with nimlab study run or nimlab report)",
            a.file.display(),
            paper.identity.title,
            paper.claims.display(),
            study.tables.len(),
            study.mines.len(),
            study.figures.len(),
            study.values.len(),
            study.sections.len(),
            if paper.builtins.is_empty() {
                "(none)".to_string()
            } else {
                paper.builtins.join(", ")
            }
        );
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
    super::progress_silenced()
}

/// Computes every table of `study` through `cache`, in file order, with a progress line per
/// table; nothing is written.
fn compute_tables(study: &Study, cache: &Cache, max_bytes: u64) -> anyhow::Result<Vec<Table>> {
    let quiet = quiet();
    let count = study.tables.len();
    let mut computed = Vec::with_capacity(count);
    for (i, decl) in study.tables.iter().enumerate() {
        let what = format!(
            "[{}/{count}] table `{}` ({})",
            i + 1,
            decl.name,
            decl.spec.kind().name()
        );
        let pb = super::progress_bar(0, &what, "steps");
        let result = cache.table(&decl.spec, max_bytes, &super::Bar(&pb));
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
    Ok(computed)
}

fn tables(a: TablesArgs) -> anyhow::Result<()> {
    let (study, _) = load_checked(&a.file, &a.budget)?;
    // Every table is computed before anything is written: a failure leaves no partial output.
    let computed = compute_tables(&study, &a.cache.cache(), a.budget.memory_limit)?;
    let count = computed.len();
    let dir = a.output.dir.join(&study.meta.name);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    for (decl, table) in study.tables.iter().zip(&computed) {
        let path = dir.join(format!("{}.csv", decl.name));
        fsio::write_output(&path, |w| w.write_all(&table.render(Format::Csv)))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if !quiet() {
        eprintln!("wrote {count} tables into {}", dir.display());
    }
    Ok(())
}

/// The commit this binary was built from (`build.rs`): `None` when built outside a checkout.
pub(super) fn build_commit() -> Option<crate::report::context::Commit> {
    let built = env!("NIMLAB_COMMIT");
    let (hash, dirty) = match built.strip_suffix("-dirty") {
        Some(hash) => (hash, true),
        None => (built, false),
    };
    hash.chars()
        .all(|c| c.is_ascii_hexdigit())
        .then(|| crate::report::context::Commit {
            hash: hash.to_string(),
            modified: dirty,
        })
        .filter(|c| c.hash.len() >= 7)
}

/// The command that renders a study, as its report records it.
fn run_command(file: &Path, output: &Path) -> String {
    let mut c = format!("nimlab study run {}", file.display());
    if output != Path::new(DEFAULT_OUTPUT) {
        c.push_str(&format!(" -o {}", output.display()));
    }
    c
}

/// `nimlab study run`: validate, compute (through the cache), render in memory, then install
/// the report atomically or compare it with the directory.
fn run_study(a: RunArgs) -> anyhow::Result<bool> {
    let (study, _) = load_checked(&a.file, &a.budget)?;
    let name = study.meta.name.clone();
    let dir = a.output.dir.join(&name);
    if let Some(wanted) = &a.print {
        // Refused before any work: a name no render of this study can write.
        let file = wanted
            .strip_prefix(&format!("{name}/"))
            .filter(|f| files::is_plain(f));
        if file.is_none() {
            anyhow::bail!(
                "--print \"{wanted}\" is not {name}/FILE, a file of this study's report (e.g. {name}/{name}.md)"
            );
        }
    } else if !a.check {
        // Refused before any work, not after.
        files::check_target(&dir)?;
    }
    let cache = a.cache.cache();
    // A paper study computes its tables as `nimlab report` does, inside its report.
    let tables = if study.paper.is_some() {
        Vec::new()
    } else {
        compute_tables(&study, &cache, a.budget.memory_limit)?
    };
    // The commit of the nimlab that renders, not of whatever repository the study sits in; a
    // check renders with the commit the report records, so that it compares the content.
    let commit = if a.check {
        super::report::recorded_commit_in(&dir.join(format!("{name}.json")))?
    } else {
        build_commit()
    };
    let command = run_command(&a.file, &a.output.dir);
    let bar = super::progress_bar(0, "rendering", "steps");
    let rendered = if study.paper.is_some() {
        // A paper study renders as `nimlab report` renders it, through the paper templates.
        let opts = ReportOptions {
            command: Some(command),
            commit,
            cache: cache.clone(),
            max_bytes: a.budget.memory_limit,
            ..ReportOptions::default()
        };
        crate::papers::paper_report(&study, &opts, &super::Bar(&bar)).and_then(|paper| {
            crate::report::render_paper(&Renderer::new()?, paper, &super::Bar(&bar))
        })
    } else {
        let opts = RunOptions {
            cache: &cache,
            max_bytes: a.budget.memory_limit,
            command,
            commit,
        };
        render(&study, &tables, &opts, &super::Bar(&bar)).map(|r| r.files)
    };
    bar.finish_and_clear();
    let mut out = rendered?;
    if let Some(wanted) = &a.print {
        let file = &wanted[name.len() + 1..];
        let Some(bytes) = out.get(file) else {
            let names: Vec<&str> = out.iter().map(|(path, _)| path).collect();
            anyhow::bail!(
                "--print \"{wanted}\": the report {name} has no file \"{file}\" (it has: {})",
                names.join(", ")
            );
        };
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(bytes)?;
        stdout.flush()?;
        return Ok(true);
    }
    let tex = format!("{name}.tex");
    if !quiet() && pdf::pdflatex_available() {
        eprintln!("compiling {tex} with pdflatex");
    }
    let pdf_name = format!("{name}.pdf");
    let compiled = pdf::compile(&out, &tex)?;
    let no_pdflatex = compiled.is_none();
    match compiled {
        Some(compiled) => {
            for o in &compiled.overfull {
                eprintln!("warning: {tex}: {o}");
            }
            out.insert(&pdf_name, compiled.bytes)?;
        }
        None if !quiet() => {
            eprintln!("note: pdflatex is not installed, so {name}.pdf is not rendered");
        }
        None => {}
    }
    if a.check {
        let mut diffs = files::compare(&dir, &out)?;
        // Without pdflatex here, the PDF on disk cannot be compared: said, not counted.
        if no_pdflatex {
            let before = diffs.len();
            diffs.retain(|d| *d != files::Difference::Extra(pdf_name.clone()));
            if diffs.len() < before {
                eprintln!("note: {pdf_name} is not compared (pdflatex is not installed)");
            }
        }
        if diffs.is_empty() {
            println!(
                "{}: all {} files match a fresh render",
                dir.display(),
                out.len()
            );
            return Ok(true);
        }
        let mut message = format!(
            "{} differs from a fresh render ({} of {} file(s)); run `{}` to update it:\n",
            dir.display(),
            diffs.len(),
            out.len(),
            run_command(&a.file, &a.output.dir)
        );
        for d in &diffs {
            message.push_str(&format!("  {d}\n"));
        }
        eprint!("{message}");
        return Ok(false);
    }
    for note in files::recover(&dir)? {
        eprintln!("note: {note}");
    }
    files::install(&dir, &out)?;
    if !quiet() {
        eprintln!("wrote {} files into {}", out.len(), dir.display());
    }
    Ok(true)
}
