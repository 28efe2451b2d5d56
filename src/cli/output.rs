//! The thin I/O layer: where rendered bytes go. `-o FILE` goes through [`fsio::write_output`]:
//! a regular file is replaced atomically (never half-written), a device or FIFO is written
//! through, a symbolic link is followed, `-` is standard output.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use crate::export::{Cell, Format, Table};
use crate::fsio;

/// The command line's spelling of the library's [`Format`]: clap stays out of the library, so
/// the mapping lives here, read from [`Format::name`] and [`Format::description`].
impl clap::ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Format] {
        &Format::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.description()))
    }
}

/// Output options shared by tabular commands.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write to FILE instead of standard output: a regular file is replaced atomically, a
    /// device or FIFO written through, a symbolic link followed to its target; `-` is stdout.
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

    /// Emits a table of one row as [`emit_record`](Self::emit_record) does.
    pub fn emit_row(&self, table: Table) -> anyhow::Result<()> {
        let columns: Vec<&str> = table.columns.iter().map(String::as_str).collect();
        let row = table.rows.into_iter().next().unwrap_or_default();
        self.emit_record(&columns, row)
    }

    /// Emits a whole table in the chosen format.
    pub fn emit_table(&self, table: &Table) -> anyhow::Result<()> {
        self.emit(|w| w.write_all(&table.render(self.format)))
    }

    /// Runs `write` against the destination (standard output, or `-o FILE` as
    /// [`fsio::write_output`] does it: a regular file is committed only when `write` succeeds).
    pub fn emit(&self, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
        let path = self.output.as_deref().unwrap_or(Path::new(fsio::STDIO));
        fsio::write_output(path, write)?;
        Ok(())
    }
}
