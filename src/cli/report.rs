//! `nimlab report`: render (or check) the reports in `reports/`.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use indicatif::ProgressBar;

use crate::papers::PAPERS;
use crate::report::{Progress, ReportOptions, check_reports, write_reports};

const EXAMPLES: &str = "\
Examples:
  nimlab report                       render reports/ from scratch (Markdown, LaTeX, CSV, SVG)
  nimlab report --check               exit 1 when the committed reports/ differ from a fresh render
  nimlab report --deep                larger ranges

Run it from the repository's root: claims are read from data/claims/<report>.toml.";

/// Render the research reports (one per paper and an index) into a directory.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ReportArgs {
    /// Where the reports go.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    dir: PathBuf,
    /// Do not write: compare a fresh render with DIR and fail when they differ.
    #[arg(long)]
    check: bool,
    /// Use the deep ranges (slower).
    #[arg(long)]
    deep: bool,
}

/// The progress bar as the report layer's [`Progress`].
struct Bar(ProgressBar);

impl Progress for Bar {
    fn stage(&self, what: &str) {
        self.0.set_message(what.to_string());
    }
    fn add_work(&self, n: u64) {
        self.0.inc_length(n);
    }
    fn done(&self, n: u64) {
        self.0.inc(n);
    }
}

/// Runs `nimlab report`; returns false when `--check` found differences.
pub fn run(a: ReportArgs) -> anyhow::Result<bool> {
    let opts = ReportOptions {
        deep: a.deep,
        ..ReportOptions::default()
    };
    let bar = Bar(super::progress_bar(0, "rendering", "steps"));
    if a.check {
        let diffs = check_reports(&a.dir, PAPERS, &opts, &bar);
        bar.0.finish_and_clear();
        let diffs = diffs.with_context(|| format!("checking {}", a.dir.display()))?;
        if diffs.is_empty() {
            return Ok(true);
        }
        eprintln!(
            "{} differs from a fresh render ({} file(s)); run `nimlab report{}` and commit the result:",
            a.dir.display(),
            diffs.len(),
            if a.deep { " --deep" } else { "" }
        );
        for d in &diffs {
            eprintln!("  {d}");
        }
        return Ok(false);
    }
    let done = write_reports(&a.dir, PAPERS, &opts, &bar);
    bar.0.finish_and_clear();
    done.with_context(|| format!("rendering {}", a.dir.display()))?;
    Ok(true)
}
