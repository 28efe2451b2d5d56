//! The PDF of a rendered report, when `pdflatex` is installed: the report's files are written to
//! a temporary directory (pgfplots reads the figures' CSV files beside the LaTeX) and compiled
//! there, so nothing half-made ever reaches the report's directory.
//!
//! A PDF normally records when it was made and a random-looking trailer id, which would break
//! byte-identical re-renders: the run sets `SOURCE_DATE_EPOCH=0` with `FORCE_SOURCE_DATE=1`, omits
//! the info dates and sets an empty trailer id, so the same LaTeX on the same TeX installation
//! gives the same bytes. The log's overfull boxes are returned, for the caller to report: a line
//! more than [`OVERFULL_LIMIT_PT`] too wide runs visibly into the margin.

use std::path::Path;
use std::process::{Command, Stdio};

use super::files::Files;
use crate::error::{Error, Result};

/// How far (in TeX points) a line may stick out before it counts as overfull.
pub const OVERFULL_LIMIT_PT: f64 = 1.0;

/// A compiled PDF.
#[derive(Clone, Debug)]
pub struct Pdf {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The log's overfull boxes wider than [`OVERFULL_LIMIT_PT`], each as the log says it.
    pub overfull: Vec<String>,
}

/// Whether `pdflatex` can be run.
pub fn pdflatex_available() -> bool {
    Command::new("pdflatex")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Compiles `tex` (a file of `files`, e.g. `name.tex`) with pdflatex; `Ok(None)` when pdflatex
/// is not installed. A LaTeX error is an error quoting the log's first error line.
pub fn compile(files: &Files, tex: &str) -> Result<Option<Pdf>> {
    if !pdflatex_available() {
        return Ok(None);
    }
    let io = |what: &str, e: std::io::Error| Error::invalid(format!("pdflatex: {what}: {e}"));
    let dir = tempfile::tempdir().map_err(|e| io("a temporary directory", e))?;
    for (rel, bytes) in files.iter() {
        let path = dir.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io("writing the sources", e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| io("writing the sources", e))?;
    }
    let job = Path::new(tex)
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| Error::invalid(format!("pdflatex: `{tex}` is not a file name")))?;
    let out = Command::new("pdflatex")
        .current_dir(dir.path())
        .env("SOURCE_DATE_EPOCH", "0")
        .env("FORCE_SOURCE_DATE", "1")
        .args([
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-no-shell-escape",
            &format!("-jobname={job}"),
            &format!("\\pdfinfoomitdate=1\\pdftrailerid{{}}\\input{{{tex}}}"),
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| io("running", e))?;
    let log = std::fs::read_to_string(dir.path().join(format!("{job}.log"))).unwrap_or_default();
    if !out.status.success() {
        let first = log
            .lines()
            .find(|l| l.starts_with('!'))
            .unwrap_or("no error line in the log");
        return Err(Error::invalid(format!(
            "pdflatex could not compile {tex}: {first}"
        )));
    }
    let bytes = std::fs::read(dir.path().join(format!("{job}.pdf")))
        .map_err(|e| io("reading the PDF", e))?;
    Ok(Some(Pdf {
        bytes,
        overfull: overfull_boxes(&log),
    }))
}

/// The log's lines about overfull boxes more than [`OVERFULL_LIMIT_PT`] too wide or high.
pub fn overfull_boxes(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.starts_with("Overfull \\"))
        .filter(|l| {
            let amount = l
                .split_once('(')
                .and_then(|(_, rest)| rest.split_once("pt too"))
                .and_then(|(n, _)| n.parse::<f64>().ok());
            amount.is_some_and(|pt| pt > OVERFULL_LIMIT_PT)
        })
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_boxes_over_the_limit_are_overfull() {
        let log = "\
Overfull \\hbox (0.5pt too wide) in paragraph at lines 3--4
Overfull \\hbox (12.04pt too wide) in paragraph at lines 9--9
Underfull \\hbox (badness 10000) in paragraph at lines 1--2
Overfull \\vbox (3.0pt too high) has occurred while \\output is active";
        assert_eq!(
            overfull_boxes(log),
            [
                "Overfull \\hbox (12.04pt too wide) in paragraph at lines 9--9",
                "Overfull \\vbox (3.0pt too high) has occurred while \\output is active"
            ]
        );
    }
}
