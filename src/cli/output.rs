//! The thin I/O layer: where rendered bytes go. `-o FILE` writes a temporary file beside FILE
//! and renames it into place only after everything was written, so a failed or interrupted run
//! never leaves a half-written file.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::export::{Cell, Format, Table};

/// Output options shared by tabular commands.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl OutputArgs {
    /// Emits one record: a `quantity  value` list in text, one row in CSV and JSON.
    pub fn emit_record(&self, columns: &[&str], row: Vec<Cell>) -> anyhow::Result<()> {
        let table = if self.format == Format::Text {
            let mut t = Table::new(&["quantity", "value"]);
            for (c, v) in columns.iter().zip(row) {
                t.push(vec![(*c).into(), v]);
            }
            t
        } else {
            let mut t = Table::new(columns);
            t.push(row);
            t
        };
        self.emit(|w| w.write_all(&table.render(self.format)))
    }

    /// Emits a whole table in the chosen format.
    pub fn emit_table(&self, table: &Table) -> anyhow::Result<()> {
        self.emit(|w| w.write_all(&table.render(self.format)))
    }

    /// Runs `write` against the destination; commits the file only when it succeeds.
    pub fn emit(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
        match &self.output {
            None => {
                let stdout = io::stdout();
                let mut w = BufWriter::new(stdout.lock());
                write(&mut w)?;
                w.flush()?;
            }
            Some(path) => {
                let dir = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                let mut builder = tempfile::Builder::new();
                builder.prefix(".nimlab-").suffix(".tmp");
                // A finished output file is an ordinary readable file, not tempfile's 0600.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    builder.permissions(std::fs::Permissions::from_mode(0o644));
                }
                let tmp = builder.tempfile_in(&dir).with_context(|| {
                    format!("cannot create a temporary file in {}", dir.display())
                })?;
                {
                    let mut w = BufWriter::new(tmp.as_file());
                    write(&mut w).with_context(|| format!("writing {}", path.display()))?;
                    w.flush()
                        .with_context(|| format!("writing {}", path.display()))?;
                }
                tmp.as_file()
                    .sync_all()
                    .with_context(|| format!("writing {}", path.display()))?;
                // PersistError shows its io::Error and also returns it as the source; keep one.
                tmp.persist(path)
                    .map_err(|e| e.error)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
        Ok(())
    }
}
