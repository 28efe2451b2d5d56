//! The computation cache: a table whose inputs did not change is read back instead of
//! recomputed, so editing a study's prose re-renders in seconds.
//!
//! Content-addressed: the key is the SHA-256 of the canonical JSON of (nimlab version and
//! commit, the typed spec — [`TableSpec::canonical`]); the entry `<dir>/<hex>.json` holds that
//! same key material and the table with its typed cells (serde JSON of [`Table`]). An entry is
//! written atomically (a temporary file renamed into place), so a reader never sees half of
//! one. An entry that cannot be read, does not parse, or was written for other inputs is
//! recomputed and replaced — never trusted, never fatal. Deleting the directory is always safe.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::compute::TableSpec;
use crate::error::Result;
use crate::export::Table;
use crate::progress::Progress;

/// The version of nimlab whose results a key stands for: the crate version and the commit it
/// was built from (results may change with the code, so a new build never reads old entries).
pub const CACHE_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("NIMLAB_COMMIT"));

/// One cache entry on disk.
#[derive(Serialize, Deserialize)]
struct Entry {
    /// What the key hashes.
    inputs: Value,
    /// The computed table.
    table: Table,
}

/// Where a table came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read back from the cache.
    Hit,
    /// Computed now (and stored, when a cache is in use).
    Computed,
    /// Computed now, replacing an entry that could not be used.
    Replaced,
}

/// A cache directory, or none (`--no-cache`: everything is computed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: Option<PathBuf>,
}

impl Cache {
    /// A cache in `dir` (created when first written).
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: Some(dir.into()),
        }
    }

    /// No cache: every table is computed.
    pub fn disabled() -> Cache {
        Cache { dir: None }
    }

    /// The default directory: `$NIMLAB_CACHE`, else `$XDG_CACHE_HOME/nimlab`, else
    /// `~/.cache/nimlab`; `None` when none of them is set.
    pub fn default_dir() -> Option<PathBuf> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        var("NIMLAB_CACHE")
            .map(PathBuf::from)
            .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("nimlab")))
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache").join("nimlab")))
    }

    /// The directory in use, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The key material of `spec`.
    fn inputs(spec: &TableSpec) -> Value {
        json!({ "nimlab": CACHE_VERSION, "spec": spec.canonical() })
    }

    /// The hex SHA-256 key of `spec`.
    pub fn key(spec: &TableSpec) -> String {
        let bytes = serde_json::to_vec(&Cache::inputs(spec)).expect("JSON values serialize");
        Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The file of `spec`'s entry.
    pub fn entry_path(&self, spec: &TableSpec) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        Some(dir.join(format!("{}.json", Cache::key(spec))))
    }

    /// The table of `spec`: read back when a usable entry exists, else computed with
    /// `max_bytes` and stored. A failure to store is not an error (the table is still right).
    pub fn table(
        &self,
        spec: &TableSpec,
        max_bytes: u64,
        progress: &dyn Progress,
    ) -> Result<(Table, Source)> {
        let inputs = Cache::inputs(spec);
        let Some(path) = self.entry_path(spec) else {
            return Ok((spec.compute(max_bytes, progress)?, Source::Computed));
        };
        let existing = fs::read(&path).ok();
        if let Some(bytes) = &existing
            && let Ok(entry) = serde_json::from_slice::<Entry>(bytes)
            && entry.inputs == inputs
            && entry
                .table
                .rows
                .iter()
                .all(|r| r.len() == entry.table.columns.len())
            && entry.table.columns == spec.columns()
        {
            return Ok((entry.table, Source::Hit));
        }
        let table = spec.compute(max_bytes, progress)?;
        let entry = Entry { inputs, table };
        // A cache that cannot be written only costs time on the next run.
        let _ = store(&path, &entry);
        let source = match existing {
            Some(_) => Source::Replaced,
            None => Source::Computed,
        };
        Ok((entry.table, source))
    }
}

/// Writes `entry` to `path` atomically: a temporary file in the same directory, renamed.
fn store(path: &Path, entry: &Entry) -> std::io::Result<()> {
    let dir = path
        .parent()
        .expect("an entry lives in the cache directory");
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    serde_json::to_writer(&mut tmp, entry)?;
    tmp.flush()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cash::CashSet;
    use crate::progress::Silent;

    fn spec() -> TableSpec {
        TableSpec::CashThresholds {
            set: "1,4".parse::<CashSet>().unwrap(),
            max_n: 30,
            defined_only: false,
        }
    }

    #[test]
    fn a_hit_gives_the_identical_typed_table() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path());
        let (cold, source) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
        assert_eq!(source, Source::Computed);
        let (warm, source) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
        assert_eq!(source, Source::Hit);
        assert_eq!(warm, cold);
        assert_eq!(warm, spec().compute(1 << 30, &Silent).unwrap());
    }

    #[test]
    fn a_corrupt_entry_is_recomputed_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path());
        let path = cache.entry_path(&spec()).unwrap();
        let fresh = spec().compute(1 << 30, &Silent).unwrap();
        for junk in [
            &b"{ not json"[..],
            b"",
            br#"{"inputs": 1, "table": {"columns": [], "rows": []}}"#,
        ] {
            fs::write(&path, junk).unwrap();
            let (t, source) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
            assert_eq!(source, Source::Replaced);
            assert_eq!(t, fresh);
            let (_, again) = cache.table(&spec(), 1 << 30, &Silent).unwrap();
            assert_eq!(again, Source::Hit, "the entry was replaced");
        }
    }

    #[test]
    fn keys_differ_with_the_parameters_and_no_cache_computes() {
        let other = TableSpec::CashThresholds {
            set: "1,4".parse::<CashSet>().unwrap(),
            max_n: 31,
            defined_only: false,
        };
        assert_ne!(Cache::key(&spec()), Cache::key(&other));
        assert_eq!(Cache::key(&spec()), Cache::key(&spec()));
        assert_eq!(Cache::key(&spec()).len(), 64);
        let (t, source) = Cache::disabled().table(&spec(), 1 << 30, &Silent).unwrap();
        assert_eq!(source, Source::Computed);
        assert_eq!(t.rows.len(), 31);
    }
}
