//! The only file-system code of the reports: a rendered tree is an in-memory map from relative
//! paths to bytes ([`Files`]); [`install`] writes it to a temporary directory beside the target
//! and swaps it into place in one atomic step, so a failed or interrupted render leaves the
//! previous reports intact and the target is never missing; [`recover`] repairs what a killed
//! run left behind; [`compare`] diffs a tree with a directory byte for byte (for
//! `nimlab report --check`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};
use crate::fsio;

/// Whether `path` can name a rendered file: a plain relative path, not empty, with no `.`, `..`
/// or root component (a trailing `/` names the directory, not a file).
pub fn is_plain(path: &str) -> bool {
    !path.is_empty()
        && !path.ends_with('/')
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

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
        if !is_plain(path) {
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

/// The parent directory and the file name of a reports directory.
fn split(dir: &Path) -> Result<(PathBuf, String)> {
    let name = dir
        .file_name()
        .ok_or_else(|| Error::invalid(format!("{} is not a directory name", dir.display())))?
        .to_string_lossy()
        .into_owned();
    Ok((fsio::parent_dir(dir), name))
}

/// The prefix of the new tree while it is written (`.reports.new-` for `reports`).
fn new_prefix(name: &str) -> String {
    format!(".{name}.new-")
}

/// The prefix of the previous tree while it is moved aside (`.reports.old-`).
fn old_prefix(name: &str) -> String {
    format!(".{name}.old-")
}

/// Refuses a reports directory that is a symbolic link or not a directory: the installer
/// replaces `dir` itself, so it would replace the link (not its target) or destroy a file.
pub fn check_target(dir: &Path) -> Result<()> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::invalid(format!(
            "{} is a symbolic link; the reports are installed by replacing the directory itself, so give its target ({}) instead",
            dir.display(),
            fs::canonicalize(dir)
                .map(|t| t.display().to_string())
                .unwrap_or_else(|_| "DIR".to_string())
        ))),
        Ok(m) if !m.is_dir() => Err(Error::invalid(format!(
            "{} exists and is not a directory; the reports need a directory there (move it away or choose another directory)",
            dir.display()
        ))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error("cannot examine", dir, e)),
    }
}

/// An exclusive advisory lock on the directory holding the reports, held while leftovers are
/// recovered and while a tree is installed, so that one run never takes another run's
/// temporary tree for a leftover.
struct ParentLock {
    #[cfg(unix)]
    _dir: fs::File,
}

impl ParentLock {
    fn acquire(parent: &Path) -> Result<ParentLock> {
        #[cfg(unix)]
        {
            let dir = fs::File::open(parent).map_err(|e| io_error("cannot open", parent, e))?;
            rustix::fs::flock(&dir, rustix::fs::FlockOperation::LockExclusive)
                .map_err(|e| io_error("cannot lock", parent, e.into()))?;
            Ok(ParentLock { _dir: dir })
        }
        #[cfg(not(unix))]
        {
            let _ = parent;
            Ok(ParentLock {})
        }
    }
}

/// The leftovers of interrupted runs beside `dir`: `.NAME.new-*` and `.NAME.old-*` entries.
pub fn leftovers(dir: &Path) -> Result<Vec<PathBuf>> {
    let (parent, name) = split(dir)?;
    let (new, old) = (new_prefix(&name), old_prefix(&name));
    let entries = match fs::read_dir(&parent) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error("cannot read", &parent, e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| io_error("cannot read", &parent, e))?;
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if file_name.starts_with(&new) || file_name.starts_with(&old) {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

/// Recovers from an interrupted install into `dir`: when `dir` is missing and a previous tree
/// was left aside (`.NAME.old-*`), it is put back (the newest, if several); every other
/// leftover is removed. Returns one sentence per action, for the user.
pub fn recover(dir: &Path) -> Result<Vec<String>> {
    let (parent, name) = split(dir)?;
    if !parent.is_dir() {
        return Ok(Vec::new());
    }
    let _lock = ParentLock::acquire(&parent)?;
    let mut found = leftovers(dir)?;
    let mut notes = Vec::new();
    let missing =
        matches!(fs::symlink_metadata(dir), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
    if missing {
        let old = old_prefix(&name);
        let newest = found
            .iter()
            // An empty one is only the name reserved before the move aside.
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(&old))
                    && fs::read_dir(p).is_ok_and(|mut d| d.next().is_some())
            })
            .max_by_key(|p| fs::metadata(p).and_then(|m| m.modified()).ok())
            .cloned();
        if let Some(aside) = newest {
            // Versions before the one-step swap moved the tree to `.NAME.old-*/NAME`.
            let nested = aside.join(&name);
            let tree =
                if nested.is_dir() && fs::read_dir(&aside).map(Iterator::count).ok() == Some(1) {
                    nested
                } else {
                    aside.clone()
                };
            fs::rename(&tree, dir).map_err(|e| io_error("cannot restore", &tree, e))?;
            notes.push(format!(
                "restored {} from {}, left aside by an interrupted run",
                dir.display(),
                tree.display()
            ));
            found.retain(|p| *p != aside);
            if tree != aside {
                fs::remove_dir(&aside).map_err(|e| io_error("cannot remove", &aside, e))?;
            }
        }
    }
    for path in found {
        fsio::remove_path(&path).map_err(|e| io_error("cannot remove", &path, e))?;
        notes.push(format!(
            "removed {}, left by an interrupted run",
            path.display()
        ));
    }
    Ok(notes)
}

/// Writes `files` as the whole contents of `dir`: everything goes to a fresh temporary directory
/// beside `dir` first (`.NAME.new-*`), which then takes the place of `dir` in one atomic step
/// (Linux `renameat2(RENAME_EXCHANGE)`, so `dir` is never missing), and the previous tree is
/// deleted. Where the exchange is not supported, the previous tree is renamed aside and the new
/// one renamed in, and [`recover`] puts it back if the run is killed in between. On any error
/// before the swap `dir` is untouched and the temporary directory removed; a signal removes it
/// too (see [`io`](crate::io)). A `dir` that is a symbolic link or not a directory is refused.
pub fn install(dir: &Path, files: &Files) -> Result<()> {
    check_target(dir)?;
    let (parent, name) = split(dir)?;
    fs::create_dir_all(&parent).map_err(|e| io_error("cannot create", &parent, e))?;
    let _lock = ParentLock::acquire(&parent)?;
    // `tracked` owns the temporary tree: it deletes it unless it is committed.
    let (tmp, tracked) = fsio::track(
        || {
            tempfile::Builder::new()
                .prefix(&new_prefix(&name))
                .tempdir_in(&parent)
                .map(tempfile::TempDir::keep)
        },
        PathBuf::clone,
    )
    .map_err(|e| io_error("cannot create a temporary directory in", &parent, e))?;
    // Each file is written with the signal cleanup held off, so the cleanup never races this
    // thread adding entries to the tree it is deleting.
    for (rel, bytes) in files.iter() {
        let path = tmp.join(rel);
        tracked.hold(|| {
            if let Some(p) = path.parent() {
                fs::create_dir_all(p).map_err(|e| io_error("cannot create", p, e))?;
            }
            fs::write(&path, bytes).map_err(|e| io_error("cannot write", &path, e))
        })?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755))
            .map_err(|e| io_error("cannot set permissions of", &tmp, e))?;
    }
    // Checked again under the lock: the target may have changed while the files were written.
    check_target(dir)?;
    if !dir.exists() {
        // Nothing to replace: one rename, and nothing is left to clean up.
        return tracked
            .commit(|| fs::rename(&tmp, dir))
            .map_err(|e| io_error("cannot move the new reports to", dir, e));
    }
    match tracked.hold(|| exchange(&tmp, dir)) {
        // The temporary path now holds the previous tree: dropping `tracked` deletes it (a
        // signal before that deletes it as well).
        Ok(true) => {
            drop(tracked);
            Ok(())
        }
        Ok(false) => swap_by_two_renames(tmp, tracked, dir, &parent, &name),
        Err(e) => Err(io_error("cannot swap the new reports into", dir, e)),
    }
}

/// Exchanges two paths atomically; `Ok(false)` when the system cannot (not Linux, or a file
/// system without `RENAME_EXCHANGE`).
fn exchange(a: &Path, b: &Path) -> std::io::Result<bool> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
            Ok(()) => Ok(true),
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (a, b);
        Ok(false)
    }
}

/// The fallback swap: the previous tree to `.NAME.old-*`, the new one into place, both with the
/// signal cleanup held off; then the previous tree is deleted. Killed in between (SIGKILL, a crash), the
/// previous tree is where [`recover`] looks for it.
fn swap_by_two_renames(
    new: PathBuf,
    tracked: fsio::Tracked,
    dir: &Path,
    parent: &Path,
    name: &str,
) -> Result<()> {
    // `aside` starts as an empty directory (a unique name), then holds the previous tree;
    // dropping `aside_tracked` deletes it either way.
    let (aside, aside_tracked) = fsio::track(
        || {
            tempfile::Builder::new()
                .prefix(&old_prefix(name))
                .tempdir_in(parent)
                .map(tempfile::TempDir::keep)
        },
        PathBuf::clone,
    )
    .map_err(|e| io_error("cannot create a temporary directory in", parent, e))?;
    // One lock holds off the signal cleanup for both renames; on failure `tracked` deletes the
    // new tree.
    let swapped = tracked.commit(|| {
        // A directory renamed over an empty directory replaces it.
        fs::rename(dir, &aside).map_err(|e| io_error("cannot move aside", dir, e))?;
        if let Err(e) = fs::rename(&new, dir) {
            let _ = fs::rename(&aside, dir);
            return Err(io_error("cannot move the new reports to", dir, e));
        }
        Ok(())
    });
    drop(aside_tracked);
    swapped
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

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn exchange_swaps_two_directories_in_one_step() {
        let parent = tempfile::tempdir().unwrap();
        let (a, b) = (parent.path().join("a"), parent.path().join("b"));
        fs::create_dir(&a).unwrap();
        fs::create_dir(&b).unwrap();
        fs::write(a.join("in-a"), "").unwrap();
        fs::write(b.join("in-b"), "").unwrap();
        if !exchange(&a, &b).unwrap() {
            eprintln!("note: this file system has no RENAME_EXCHANGE; the fallback is used");
            return;
        }
        assert!(a.join("in-b").exists() && b.join("in-a").exists());
    }

    /// The swap used where `RENAME_EXCHANGE` is not supported.
    #[test]
    fn the_two_rename_fallback_replaces_the_tree_and_leaves_nothing() {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("reports");
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("old.md"), "old").unwrap();
        let (new, tracked) = fsio::track(
            || {
                tempfile::Builder::new()
                    .prefix(&new_prefix("reports"))
                    .tempdir_in(parent.path())
                    .map(tempfile::TempDir::keep)
            },
            PathBuf::clone,
        )
        .unwrap();
        fs::write(new.join("new.md"), "new").unwrap();
        swap_by_two_renames(new, tracked, &dir, parent.path(), "reports").unwrap();
        assert_eq!(fs::read_to_string(dir.join("new.md")).unwrap(), "new");
        assert!(!dir.join("old.md").exists());
        let left: Vec<_> = fs::read_dir(parent.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only reports/ is left");
    }
}
