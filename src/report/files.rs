//! The only file-system code of the reports: a rendered tree is an in-memory map from relative
//! paths to bytes ([`Files`]); [`install`] writes it to a temporary directory beside the target
//! and swaps it into place, so a failed or interrupted render leaves the previous reports intact;
//! [`compare`] diffs it with a directory byte for byte (for `nimlab report --check`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// A rendered tree: relative paths (with `/`) to contents, in sorted order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Files(BTreeMap<String, Vec<u8>>);

impl Files {
    /// An empty tree.
    pub fn new() -> Files {
        Files::default()
    }

    /// Adds a file; a path given twice, or one that is not a plain relative path, is an error.
    pub fn insert(&mut self, path: &str, bytes: Vec<u8>) -> Result<()> {
        let plain = !path.is_empty()
            && Path::new(path)
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !plain {
            return Err(Error::invalid(format!(
                "report file `{path}` is not a plain relative path"
            )));
        }
        if self.0.insert(path.to_string(), bytes).is_some() {
            return Err(Error::invalid(format!(
                "report file `{path}` is rendered twice"
            )));
        }
        Ok(())
    }

    /// Adds a file that another table or figure may already have added with the same bytes
    /// (e.g. a table showing a figure's data); different bytes under one path are an error.
    pub fn share(&mut self, path: &str, bytes: Vec<u8>) -> Result<()> {
        match self.0.get(path) {
            Some(b) if *b == bytes => Ok(()),
            _ => self.insert(path, bytes),
        }
    }

    /// Adds every file of `other` under the directory `dir`.
    pub fn extend_under(&mut self, dir: &str, other: Files) -> Result<()> {
        for (p, b) in other.0 {
            self.insert(&format!("{dir}/{p}"), b)?;
        }
        Ok(())
    }

    /// The files, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.0.iter().map(|(p, b)| (p.as_str(), b.as_slice()))
    }

    /// The contents of one file.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.0.get(path).map(Vec::as_slice)
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> Error {
    Error::invalid(format!("{what} {}: {e}", path.display()))
}

/// The directory holding `dir` (`.` for a bare name).
fn parent_of(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `files` as the whole contents of `dir`: everything goes to a fresh temporary directory
/// beside `dir` first, then the previous `dir` (if any) is moved aside and the new one renamed
/// into place. On any error before the swap, `dir` is untouched and the temporary directory is
/// removed.
pub fn install(dir: &Path, files: &Files) -> Result<()> {
    let parent = parent_of(dir);
    fs::create_dir_all(&parent).map_err(|e| io_error("cannot create", &parent, e))?;
    let name = dir
        .file_name()
        .ok_or_else(|| Error::invalid(format!("{} is not a directory name", dir.display())))?
        .to_string_lossy()
        .into_owned();
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-"))
        .tempdir_in(&parent)
        .map_err(|e| io_error("cannot create a temporary directory in", &parent, e))?;
    for (rel, bytes) in files.iter() {
        let path = tmp.path().join(rel);
        if let Some(p) = path.parent() {
            fs::create_dir_all(p).map_err(|e| io_error("cannot create", p, e))?;
        }
        fs::write(&path, bytes).map_err(|e| io_error("cannot write", &path, e))?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755))
            .map_err(|e| io_error("cannot set permissions of", tmp.path(), e))?;
    }
    // The swap: move the old tree aside, the new one in, then delete the old one.
    let old = if dir.exists() {
        let aside = tempfile::Builder::new()
            .prefix(&format!(".{name}.old-"))
            .tempdir_in(&parent)
            .map_err(|e| io_error("cannot create a temporary directory in", &parent, e))?;
        let target = aside.path().join(&name);
        fs::rename(dir, &target).map_err(|e| io_error("cannot move aside", dir, e))?;
        Some((aside, target))
    } else {
        None
    };
    let new = tmp.keep();
    if let Err(e) = fs::rename(&new, dir) {
        // Put the previous reports back; the new tree is removed.
        if let Some((_, target)) = &old {
            let _ = fs::rename(target, dir);
        }
        let _ = fs::remove_dir_all(&new);
        return Err(io_error("cannot move the new reports to", dir, e));
    }
    // `old` (a TempDir) deletes the previous tree when dropped.
    drop(old);
    Ok(())
}

/// How a file differs between a fresh render and a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// Rendered but not in the directory.
    Missing(String),
    /// In the directory but not rendered.
    Extra(String),
    /// In both, with different bytes.
    Changed(String),
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Missing(p) => write!(f, "missing: {p}"),
            Difference::Extra(p) => write!(f, "not rendered: {p}"),
            Difference::Changed(p) => write!(f, "differs: {p}"),
        }
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<()> {
    let entries = fs::read_dir(dir).map_err(|e| io_error("cannot read", dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| io_error("cannot read", dir, e))?;
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else {
            let rel = path.strip_prefix(root).expect("walked under root");
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}

/// Every difference between `files` and the contents of `dir`, in path order (a missing `dir`
/// differs in every file).
pub fn compare(dir: &Path, files: &Files) -> Result<Vec<Difference>> {
    let mut present = Vec::new();
    if dir.exists() {
        walk(dir, dir, &mut present)?;
    }
    present.sort();
    let mut out = Vec::new();
    for p in &present {
        match files.get(p) {
            None => out.push(Difference::Extra(p.clone())),
            Some(bytes) => {
                let path = dir.join(p);
                let on_disk = fs::read(&path).map_err(|e| io_error("cannot read", &path, e))?;
                if on_disk != bytes {
                    out.push(Difference::Changed(p.clone()));
                }
            }
        }
    }
    for (p, _) in files.iter() {
        if present.binary_search_by(|x| x.as_str().cmp(p)).is_err() {
            out.push(Difference::Missing(p.to_string()));
        }
    }
    out.sort_by(|a, b| key(a).cmp(key(b)));
    Ok(out)
}

fn key(d: &Difference) -> &str {
    match d {
        Difference::Missing(p) | Difference::Extra(p) | Difference::Changed(p) => p,
    }
}
