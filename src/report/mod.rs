//! Reproducible research reports: one per paper plus an index, rendered from Tera templates
//! (`templates/`) as Markdown and LaTeX, with CSV data and SVG figures, into `reports/`.
//!
//! Data flows one way: the engines and the claims checker fill serializable context structs
//! (the contract with the templates); renderers are pure functions from contexts to bytes; only
//! [`write_reports`] touches the file system, writing everything to a temporary directory and
//! swapping it into place so an interrupted render leaves the previous reports intact.

use std::path::Path;

use crate::error::{Error, Result};

/// Options of a render.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Use the claims' deep ranges and larger tables.
    pub deep: bool,
    /// Render only these reports (by name); all when empty.
    pub only: Vec<String>,
}

/// Renders every report into `dir`, replacing its previous contents atomically.
pub fn write_reports(_dir: &Path, _opts: &ReportOptions) -> Result<()> {
    Err(Error::invalid("reports are not implemented yet"))
}
