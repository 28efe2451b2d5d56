//! `nimlab report`: render (or check) the reports in `reports/`.
//!
//! The reports are the four paper studies `data/studies/<report>.toml` of the repository, and
//! their verdicts come from the claim registries those studies name, so a render refuses to run
//! without them: rendered from the wrong directory, every report would say "not checked yet"
//! and replace the real ones. The repository root is
//! the current directory or `--root`; the reports go to `ROOT/reports` unless `--dir` says
//! otherwise (a relative `--dir` is relative to the current directory, like every other path
//! option).

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;

use crate::papers::{PAPERS, paper_reports};
use crate::report::context::Commit;
use crate::report::{Builder, ReportOptions, check_reports, files, render_reports, write_reports};
use crate::study::Cache;

const EXAMPLES: &str = "\
Examples:
  nimlab report                       render reports/ from scratch (Markdown, LaTeX, CSV, SVG)
  nimlab report --check               exit 1 when the committed reports/ differ from a fresh render
  nimlab report --deep                larger ranges
  nimlab report --root ~/nimlab       render that repository's reports (into ~/nimlab/reports)
  nimlab report --print nim-with-cash/appendix-3-5-6-10-11.csv
                                      compute one report's data file and print it (nothing written)
  nimlab report --no-cache            check every claim afresh
  nimlab report --cache /tmp/c        keep the verdicts in /tmp/c

Every report records the nimlab commit it was rendered from (HEAD, marked when the work tree has
uncommitted changes outside DIR). A committed report cannot contain the hash of the commit that
contains it, so --check renders with the commit recorded in DIR/index.json and compares every
byte: everything except that one value must match.

The reports are the paper studies ROOT/data/studies/<report>.toml (each also renders alone with
`nimlab study run`), ROOT being the current directory or --root; their claims are read from the
claim files the studies name (data/claims/<report>.toml). Without them nothing is rendered
(exit 2). The new tree replaces DIR in one atomic step;
a DIR that is a symbolic link or not a directory is refused, and what an interrupted run left
beside DIR (.NAME.new-*, .NAME.old-*) is cleaned up or restored by the next run.

The verdicts of each registry are kept in the cache (the one `nimlab study` uses: --cache DIR,
default $NIMLAB_CACHE, else $XDG_CACHE_HOME/nimlab, else ~/.cache/nimlab) and read back while
nothing they depend on changed: nimlab's version and commit, --deep, the registry's claims, and
the forms files their proofs read. Editing a claim or a forms file, or building another commit
(or a modified work tree), checks the registry again; an unusable entry is checked again and replaced; deleting the cache
is always safe. `nimlab check` never reads the cache.";

/// Render the research reports (one per paper and an index) into a directory.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ReportArgs {
    /// Where the reports go [default: ROOT/reports]; a relative DIR is relative to the
    /// current directory.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The repository root, holding data/studies/<report>.toml [default: the current
    /// directory].
    #[arg(long, value_name = "ROOT")]
    root: Option<PathBuf>,
    /// Do not write: compare a fresh render with DIR and fail when they differ.
    #[arg(long)]
    check: bool,
    /// Use the deep ranges (slower).
    #[arg(long)]
    deep: bool,
    /// Compute only the report REPORT and print its file FILE (a table's CSV, a b-file, a
    /// figure) on stdout, byte for byte as the render writes it; nothing is written.
    #[arg(long, value_name = "REPORT/FILE", conflicts_with_all = ["check", "dir"])]
    print: Option<String>,
    #[command(flatten)]
    cache: super::study::CacheArgs,
}

/// Where the paper studies live, relative to the repository root.
const STUDIES: &str = "data/studies";

/// Whether `root` holds the paper studies.
fn has_studies(root: &Path) -> bool {
    PAPERS
        .iter()
        .all(|name| root.join(STUDIES).join(format!("{name}.toml")).is_file())
}

/// Refuses a root without the paper studies, naming the directory it needs (and, from a
/// subdirectory of a repository, the repository's root).
fn require_studies(root: &Path) -> anyhow::Result<()> {
    if has_studies(root) {
        return Ok(());
    }
    let here = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
    let hint = match here.ancestors().skip(1).find(|a| has_studies(a)) {
        Some(repo) => format!(
            "the repository's root seems to be {0}: run nimlab report there or pass --root {0}",
            repo.display()
        ),
        None => "run nimlab report from the repository root or pass --root DIR".to_string(),
    };
    anyhow::bail!(
        "no {STUDIES}/{{{}}}.toml under {}; the reports are rendered from those paper studies, so nothing was rendered: {hint}",
        PAPERS.join(","),
        here.display()
    )
}

/// The paper studies' report builders. A study whose claim registry is missing is refused
/// when it is read: rendered without it, a report would say "not checked yet" and replace the
/// real one.
fn paper_builders() -> anyhow::Result<Vec<(String, Builder)>> {
    Ok(paper_reports(Path::new(STUDIES))?)
}

/// The commit checked out in the repository at the current directory, and whether its work tree
/// has uncommitted changes outside `reports` (whose contents are what is being rendered);
/// `None` without git or outside a checkout.
fn current_commit(reports: &Path) -> Option<Commit> {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let hash = git(&["rev-parse", "--verify", "HEAD"])?;
    let exclude = format!(":(exclude){}", reports.display());
    let status = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        &exclude,
    ])?;
    Some(Commit {
        hash,
        modified: !status.is_empty(),
    })
}

/// The commit recorded in the committed reports (`DIR/index.json`), which `--check` renders
/// with: a committed report cannot contain the hash of the commit that contains it, so the check
/// compares everything except that one value. A recorded value that is not a commit hash is
/// refused.
fn recorded_commit(dir: &Path) -> anyhow::Result<Option<Commit>> {
    recorded_commit_in(&dir.join("index.json"))
}

/// The commit recorded in `path`, a rendered context's JSON (`provenance.commit`); `None` when
/// the file is missing or records none. A recorded value that is not a commit hash is refused.
pub(super) fn recorded_commit_in(path: &Path) -> anyhow::Result<Option<Commit>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let json: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let commit = json
        .pointer("/provenance/commit")
        .cloned()
        .unwrap_or_default();
    if commit.is_null() {
        return Ok(None);
    }
    let commit: Commit = serde_json::from_value(commit)
        .with_context(|| format!("{}: provenance.commit is malformed", path.display()))?;
    let hex = commit.hash.len() >= 7 && commit.hash.chars().all(|c| c.is_ascii_hexdigit());
    if !hex {
        anyhow::bail!(
            "{}: provenance.commit.hash \"{}\" is not a commit hash",
            path.display(),
            commit.hash
        );
    }
    Ok(Some(commit))
}

/// Runs `nimlab report`; returns false when `--check` found differences.
pub fn run(a: ReportArgs) -> anyhow::Result<bool> {
    let root = a.root.clone().unwrap_or_else(|| PathBuf::from("."));
    require_studies(&root)?;
    // As the user named it, for messages.
    let shown = match (&a.dir, &a.root) {
        (Some(dir), _) => dir.clone(),
        (None, Some(root)) => root.join("reports"),
        (None, None) => PathBuf::from("reports"),
    };
    // The render reads data/claims relative to the current directory and prints those paths in
    // the reports, so it runs from the root; DIR is fixed before moving there. `absolute` does
    // not resolve symbolic links, so a linked DIR is still seen (and refused) as one.
    let dir = std::path::absolute(&shown)
        .with_context(|| format!("cannot resolve --dir {}", shown.display()))?;
    // The cache directory too, as the user named it.
    let cache = match a.cache.cache().dir() {
        Some(d) => Cache::at(
            std::path::absolute(d)
                .with_context(|| format!("cannot resolve the cache directory {}", d.display()))?,
        ),
        None => Cache::disabled(),
    };
    std::env::set_current_dir(&root)
        .with_context(|| format!("cannot change to --root {}", root.display()))?;
    let mut opts = ReportOptions {
        deep: a.deep,
        cache,
        ..ReportOptions::default()
    };
    if let Some(wanted) = &a.print {
        opts.commit = current_commit(Path::new("reports"));
        return print_file(wanted, opts).map(|()| true);
    }
    let papers = paper_builders()?;
    if a.check {
        opts.commit = recorded_commit(&dir)?;
        for left in files::leftovers(&dir)? {
            eprintln!(
                "note: {} was left by an interrupted run; the next `nimlab report` removes it",
                left.display()
            );
        }
        let bar = super::progress_bar(0, "rendering", "steps");
        let checked = check_reports(&dir, &papers, &opts, &super::Bar(&bar));
        bar.finish_and_clear();
        let checked = checked.with_context(|| format!("checking {}", shown.display()))?;
        let diffs = checked.differences;
        if diffs.is_empty() {
            let from = opts.commit.as_ref().map_or(String::new(), |c| {
                format!(", rendered from commit {}", &c.hash[..c.hash.len().min(12)])
            });
            println!(
                "{}: all {} files of {} reports match a fresh render{from}",
                shown.display(),
                checked.files,
                PAPERS.len()
            );
            return Ok(true);
        }
        let mut message = format!(
            "{} differs from a fresh render ({} of {} file(s)); run `nimlab report{}` and commit the result:\n",
            shown.display(),
            diffs.len(),
            checked.files,
            if a.deep { " --deep" } else { "" }
        );
        for d in &diffs {
            message.push_str(&format!("  {d}\n"));
        }
        eprint!("{message}");
        return Ok(false);
    }
    // Recorded relative to the root, where git runs.
    let relative = dir
        .strip_prefix(std::path::absolute(".").unwrap_or_default())
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| PathBuf::from("reports"));
    opts.commit = current_commit(&relative);
    // Refused before minutes of rendering, not after.
    files::check_target(&dir).with_context(|| format!("--dir {}", shown.display()))?;
    for note in files::recover(&dir)? {
        eprintln!("note: {note}");
    }
    let bar = super::progress_bar(0, "rendering", "steps");
    let done = write_reports(&dir, &papers, &opts, &super::Bar(&bar));
    bar.finish_and_clear();
    done.with_context(|| format!("rendering {}", shown.display()))?;
    Ok(true)
}

/// `--print REPORT/FILE`: renders the one report and writes that file to stdout. A name that
/// is no report, or a file the report does not have, is refused with the names there are.
fn print_file(wanted: &str, mut opts: ReportOptions) -> anyhow::Result<()> {
    use std::io::Write;
    let Some((report, file)) = wanted.split_once('/') else {
        anyhow::bail!("--print \"{wanted}\" is not REPORT/FILE (e.g. nim-with-cash/verdicts.csv)");
    };
    if !PAPERS.contains(&report) {
        anyhow::bail!(
            "--print \"{wanted}\": no report is called \"{report}\" (reports: {})",
            PAPERS.join(", ")
        );
    }
    // Refused before the report is computed: a name no render can write. Which plain names
    // the report does write is known only once it is built.
    if !files::is_plain(file) {
        anyhow::bail!(
            "--print \"{wanted}\": \"{file}\" is not the name of a file in a report (REPORT/FILE, e.g. {report}/verdicts.csv)"
        );
    }
    opts.only = vec![report.to_string()];
    let papers = paper_builders()?;
    let bar = super::progress_bar(0, "rendering", "steps");
    let files = render_reports(&papers, &opts, &super::Bar(&bar));
    bar.finish_and_clear();
    let files = files.with_context(|| format!("rendering {report}"))?;
    let Some(bytes) = files.get(wanted) else {
        let prefix = format!("{report}/");
        let names: Vec<&str> = files
            .iter()
            .filter_map(|(path, _)| path.strip_prefix(&prefix))
            .collect();
        anyhow::bail!(
            "--print \"{wanted}\": the report {report} has no file \"{file}\" (it has: {})",
            names.join(", ")
        );
    };
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_commit_is_read_back_and_a_bad_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            recorded_commit(dir.path()).unwrap().is_none(),
            "no index yet"
        );
        let index = dir.path().join("index.json");
        std::fs::write(&index, r#"{"provenance": {"commit": null}}"#).unwrap();
        assert!(recorded_commit(dir.path()).unwrap().is_none());
        std::fs::write(
            &index,
            r#"{"provenance": {"commit": {"hash": "0123abcd", "modified": true}}}"#,
        )
        .unwrap();
        let c = recorded_commit(dir.path()).unwrap().unwrap();
        assert_eq!((c.hash.as_str(), c.modified), ("0123abcd", true));
        std::fs::write(
            &index,
            r#"{"provenance": {"commit": {"hash": "not a hash", "modified": false}}}"#,
        )
        .unwrap();
        let err = recorded_commit(dir.path()).unwrap_err().to_string();
        assert!(err.contains("\"not a hash\" is not a commit hash"), "{err}");
    }
}
