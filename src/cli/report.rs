//! `nimlab report`: render (or check) the reports in `reports/`.

use std::path::PathBuf;

use clap::Args;

use crate::report::{ReportOptions, write_reports};

const EXAMPLES: &str = "\
Examples:
  nimlab report                       render reports/ from scratch (Markdown, LaTeX, CSV, SVG)
  nimlab report --check               exit 1 when the committed reports/ differ from a fresh render
  nimlab report --deep                larger ranges";

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

/// Runs `nimlab report`; returns false when `--check` found differences.
pub fn run(a: ReportArgs) -> anyhow::Result<bool> {
    let opts = ReportOptions {
        deep: a.deep,
        only: Vec::new(),
    };
    if a.check {
        anyhow::bail!("--check is not implemented yet");
    }
    write_reports(&a.dir, &opts)?;
    Ok(true)
}
