//! File-system I/O that never clobbers what isn't ours: where `-o FILE` (and every other file
//! the tool writes) goes, where `--csv FILE` comes from, and what a signal leaves behind.
//!
//! A path given for output is resolved before anything is written:
//!
//! - `-` is standard output;
//! - a symbolic link is followed to its final target (a dangling one to the path it names), and
//!   that target is written, so the link itself stays a link;
//! - a regular file, or a path that does not exist yet, is replaced atomically: the bytes go to a
//!   temporary `.nimlab-*.tmp` beside it, which is renamed over it only once everything was
//!   written and synced, so a failed or interrupted run never leaves a half-written file; an
//!   existing file keeps its permission bits, a new one gets 0644 (less the umask). The sync is
//!   what makes the replacement survive a power cut, not only a failed run; so that it does not
//!   cost a second pass over a large file, the kernel is asked to start writing each full
//!   window of the file to disk as soon as it is written ([`Writeback`]), and the final sync
//!   waits for the last window only;
//! - a character or block device, a FIFO or a socket is written through, as a shell redirection
//!   would: renaming a regular file over `/dev/null` or a named pipe would destroy it;
//! - a directory is refused.
//!
//! Temporary files and directories that exist only while a run is in flight are registered
//! here ([`track`]); the first registration installs a SIGINT/SIGTERM/SIGHUP handler (a
//! dedicated thread, so the cleanup is ordinary code, not a signal handler) that removes them
//! and exits with the conventional status 128 + the signal number. Renames that must not be
//! cut in half run under [`Tracked::commit`], which the cleanup waits for.
//!
//! Errors are `io::Error`s that keep their kind (a closed standard output stays `BrokenPipe`,
//! which the binary treats as a normal end) and name the path in their message.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once};

/// The name that means standard input (for an input) or standard output (for an output).
pub const STDIO: &str = "-";

/// The prefix of the temporary files `-o` writes before renaming them into place.
pub const TEMP_PREFIX: &str = ".nimlab-";
/// The suffix of those temporary files.
pub const TEMP_SUFFIX: &str = ".tmp";

/// How many symbolic links are followed before giving up (Linux's own limit).
const MAX_SYMLINKS: usize = 40;

/// Where an output path leads, once resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputTarget {
    /// Standard output (`-`).
    Stdout,
    /// A regular file (or a new one) replaced atomically; `mode` holds the permission bits of
    /// the file it replaces, if any.
    Replace {
        /// The file that is replaced: the given path with every symbolic link followed.
        path: PathBuf,
        /// Permission bits to keep (`None` for a new file).
        mode: Option<u32>,
    },
    /// A device, FIFO or socket, opened and written in place.
    WriteThrough(PathBuf),
}

/// Whether `path` is `-`, i.e. standard input or output.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == STDIO
}

/// An error of kind `kind` whose message names `path`.
fn path_error(kind: io::ErrorKind, path: &Path, what: impl std::fmt::Display) -> io::Error {
    io::Error::new(kind, format!("{} {what}", path.display()))
}

/// `e` with `what path` in front of its message, keeping its kind.
fn context(e: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

/// Resolves an output path: `-`, symbolic links, and what kind of file is at the end.
pub fn resolve_output(path: &Path) -> io::Result<OutputTarget> {
    if is_stdio(path) {
        return Ok(OutputTarget::Stdout);
    }
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_SYMLINKS {
        let meta = match fs::symlink_metadata(&current) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(OutputTarget::Replace {
                    path: current,
                    mode: None,
                });
            }
            Err(e) => return Err(context(e, "cannot examine", &current)),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = fs::read_link(&current).map_err(|e| context(e, "cannot read", &current))?;
            // A relative link is relative to the directory holding the link.
            current = match current.parent() {
                Some(dir) if link.is_relative() => dir.join(link),
                _ => link,
            };
        } else if kind.is_dir() {
            return Err(path_error(
                io::ErrorKind::IsADirectory,
                &current,
                "is a directory; give a file name to write to",
            ));
        } else if kind.is_file() {
            return Ok(OutputTarget::Replace {
                path: current,
                mode: Some(permission_bits(&meta)),
            });
        } else {
            return Ok(OutputTarget::WriteThrough(current));
        }
    }
    Err(path_error(
        io::ErrorKind::InvalidInput,
        path,
        format!("goes through more than {MAX_SYMLINKS} symbolic links (a loop?)"),
    ))
}

#[cfg(unix)]
fn permission_bits(meta: &fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o777
}

#[cfg(not(unix))]
fn permission_bits(_meta: &fs::Metadata) -> u32 {
    0o644
}

/// Writes an output: `write` gets a buffered writer to wherever `path` leads (see the module
/// docs); for a replaced file nothing is visible at `path` unless `write` and the flush
/// succeeded.
pub fn write_output(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match resolve_output(path)? {
        OutputTarget::Stdout => {
            let stdout = io::stdout();
            let mut w = BufWriter::new(stdout.lock());
            write(&mut w)?;
            w.flush()
        }
        OutputTarget::WriteThrough(target) => {
            // No `create`: if the special file vanished meanwhile, fail rather than leave a
            // regular file in its place. Truncation is a no-op on devices and FIFOs.
            let file = OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(&target)
                .map_err(|e| context(e, "cannot open", &target))?;
            let mut w = BufWriter::new(file);
            write(&mut w).map_err(|e| context(e, "cannot write", &target))?;
            w.flush().map_err(|e| context(e, "cannot write", &target))
        }
        OutputTarget::Replace { path: target, mode } => replace_file(&target, mode, write),
    }
}

/// Bytes of an output file written before the kernel is asked to start writing them to disk.
const WRITEBACK_WINDOW: u64 = 16 << 20;

/// A file written through, whose every full [`WRITEBACK_WINDOW`] is handed to the kernel's
/// writeback as soon as it is written (Linux `sync_file_range(…, SYNC_FILE_RANGE_WRITE)`, which
/// starts the writes and does not wait for them): the disk works while the rest is computed, and
/// the final `sync_all` finds one window left instead of the whole file. Elsewhere, a plain
/// writer. The hint changes no byte and no guarantee: `sync_all` still decides durability.
struct Writeback<'a> {
    file: &'a File,
    window: u64,
    written: u64,
    handed: u64,
}

impl<'a> Writeback<'a> {
    fn new(file: &'a File) -> Writeback<'a> {
        Writeback::with_window(file, WRITEBACK_WINDOW)
    }

    fn with_window(file: &'a File, window: u64) -> Writeback<'a> {
        Writeback {
            file,
            window,
            written: 0,
            handed: 0,
        }
    }

    #[cfg(target_os = "linux")]
    fn start_writeback(&self, offset: u64, len: u64) {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
            return;
        };
        // SAFETY: a plain system call on a descriptor this value borrows for its lifetime; it
        // reads no memory of ours. Its result is ignored: it is a hint, `sync_all` checks.
        unsafe {
            libc::sync_file_range(
                self.file.as_raw_fd(),
                offset,
                len,
                libc::SYNC_FILE_RANGE_WRITE,
            );
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn start_writeback(&self, _offset: u64, _len: u64) {}
}

impl Write for Writeback<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.written - self.handed >= self.window {
            self.start_writeback(self.handed, self.written - self.handed);
            self.handed = self.written;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// The directory holding `path` (`.` for a bare name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes a temporary file beside `target` and renames it over `target`.
fn replace_file(
    target: &Path,
    mode: Option<u32>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = parent_dir(target);
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX);
    // A finished output file is an ordinary readable file, not tempfile's 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o644));
    }
    let (tmp, tracked) = track(
        || {
            builder
                .tempfile_in(&dir)
                .map_err(|e| context(e, "cannot create a temporary file in", &dir))
        },
        |t| t.path().to_path_buf(),
    )?;
    let written = (|| {
        let mut w = BufWriter::new(Writeback::new(tmp.as_file()));
        write(&mut w)?;
        w.flush()?;
        drop(w);
        #[cfg(unix)]
        if let Some(mode) = mode {
            // Exactly the old bits: fchmod is not subject to the umask.
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
        tmp.as_file().sync_all()
    })();
    if let Err(e) = written {
        // `tracked` deletes the temporary file.
        drop(tracked);
        return Err(context(e, "cannot write", target));
    }
    // The rename and the end of tracking happen together, so a signal either removes the
    // temporary file (and the target is untouched) or comes after the target was replaced.
    tracked
        .commit(|| tmp.persist(target).map(drop))
        .map_err(|e| context(e.error, "cannot write", target))
}

/// Opens an input: `-` is standard input, anything else a file.
pub fn open_input(path: &Path) -> io::Result<Box<dyn Read>> {
    if is_stdio(path) {
        Ok(Box::new(io::stdin()))
    } else {
        let file = File::open(path).map_err(|e| context(e, "cannot read", path))?;
        Ok(Box::new(file))
    }
}

/// Reads a whole input as UTF-8 text: `-` is standard input, anything else a file.
pub fn read_input_to_string(path: &Path) -> io::Result<String> {
    let mut text = String::new();
    open_input(path)?
        .read_to_string(&mut text)
        .map_err(|e| context(e, "cannot read", &input_label_path(path)))?;
    Ok(text)
}

/// How an input is named in messages: `<stdin>` for `-`, else the path.
pub fn input_label(path: &Path) -> String {
    input_label_path(path).display().to_string()
}

fn input_label_path(path: &Path) -> PathBuf {
    if is_stdio(path) {
        PathBuf::from("<stdin>")
    } else {
        path.to_path_buf()
    }
}

/// Paths (files or directories) that exist only while this run is in flight: what a signal
/// removes before the process exits.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_flight() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere while holding the lock leaves the list itself intact.
    IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner())
}

/// A registered in-flight path. Dropped without [`Tracked::commit`], it deletes the path (with
/// the signal cleanup held off) and ends the registration: whatever way a run fails, its
/// temporary is gone.
#[derive(Debug)]
#[must_use = "the path is deleted when this is dropped"]
pub struct Tracked {
    path: PathBuf,
}

/// Creates something temporary with `create` and registers its path (given by `path_of`) for
/// removal on a signal. Creation and registration happen under the registry's lock, so there is
/// no moment at which a signal would find the path created but unregistered.
pub fn track<T>(
    create: impl FnOnce() -> io::Result<T>,
    path_of: impl FnOnce(&T) -> PathBuf,
) -> io::Result<(T, Tracked)> {
    install_signal_cleanup();
    let mut list = in_flight();
    let made = create()?;
    let path = path_of(&made);
    list.push(path.clone());
    Ok((made, Tracked { path }))
}

impl Tracked {
    /// The registered path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` (the rename that commits the result) with the signal cleanup held off: a
    /// signal is handled before or after `f`, never in the middle. When `f` succeeds the path
    /// is no longer temporary (it was renamed away) and the registration ends; when it fails
    /// the path is deleted. The registry's lock is held during `f`, so `f` must not track, hold
    /// or drop a [`Tracked`] itself.
    pub fn commit<T, E>(self, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let mut list = in_flight();
        let out = f();
        if out.is_err() {
            let _ = remove_path(&self.path);
        }
        remove_entry(&mut list, &self.path);
        std::mem::forget(self);
        out
    }

    /// Runs `f` with the signal cleanup held off (the same lock as [`Tracked::commit`]); the
    /// path stays registered. Work that adds to or deletes a registered tree runs here, so the
    /// cleanup never races it.
    pub fn hold<R>(&self, f: impl FnOnce() -> R) -> R {
        let _list = in_flight();
        f()
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut list = in_flight();
        let _ = remove_path(&self.path);
        remove_entry(&mut list, &self.path);
    }
}

fn remove_entry(list: &mut Vec<PathBuf>, path: &Path) {
    if let Some(i) = list.iter().rposition(|p| p == path) {
        list.remove(i);
    }
}

/// Removes every in-flight path now, for a process that is about to end abruptly (out of
/// memory). Skipped when the registry is locked, i.e. a commit or cleanup is under way on the
/// thread that ran out: waiting for it would never end.
pub fn remove_in_flight() {
    if let Ok(list) = IN_FLIGHT.try_lock() {
        for path in list.iter() {
            let _ = remove_path(path);
        }
    }
}

/// Removes a file or a whole directory tree, without following a symbolic link.
pub fn remove_path(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Installs, once, the thread that waits for SIGINT, SIGTERM or SIGHUP, removes every in-flight
/// path and exits with status 128 + the signal number (130 for SIGINT, 143 for SIGTERM). Until
/// the first temporary path exists the default dispositions stay in force.
fn install_signal_cleanup() {
    static ONCE: Once = Once::new();
    #[cfg(unix)]
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        use signal_hook::iterator::Signals;
        // Without the handler a signal still ends the run; only the cleanup is lost, so a
        // failure to install it is not worth failing the run for.
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("nimlab-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    // Holding the lock until exit: no commit can start after the cleanup.
                    let list = in_flight();
                    for path in list.iter() {
                        let _ = remove_path(path);
                    }
                    std::process::exit(128 + signal);
                }
            });
    });
    #[cfg(not(unix))]
    ONCE.call_once(|| {});
}

/// `path` without `.` components and with each `dir/..` removed, without asking the file
/// system: `data/studies/../claims/x.toml` is `data/claims/x.toml` (how reports name files a
/// study or claim file refers to).
pub fn lexically_normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut parts: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writeback_windows_change_no_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let file = File::create(&path).unwrap();
        // Windows of 7 bytes, writes of 1 to 12 bytes: hints start in the middle of writes.
        let mut w = Writeback::with_window(&file, 7);
        let mut expected = Vec::new();
        for i in 0..200u32 {
            let chunk: Vec<u8> = (0..(i % 12 + 1)).map(|j| (i * 31 + j) as u8).collect();
            w.write_all(&chunk).unwrap();
            expected.extend_from_slice(&chunk);
        }
        w.flush().unwrap();
        assert!(w.handed > 0 && w.written - w.handed < 7 + 12);
        file.sync_all().unwrap();
        assert_eq!(fs::read(&path).unwrap(), expected);
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn dash_is_stdout() {
        assert_eq!(
            resolve_output(Path::new("-")).unwrap(),
            OutputTarget::Stdout
        );
        // `./-` is a file called `-`.
        assert!(matches!(
            resolve_output(Path::new("./-")).unwrap(),
            OutputTarget::Replace { .. }
        ));
    }

    #[test]
    fn a_new_file_is_written_atomically_with_mode_0644() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        write_output(&path, |w| w.write_all(b"a,b\n")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"a,b\n");
        assert_eq!(names_in(dir.path()), vec!["out.csv"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode & !0o644, 0, "at most 0644 (less the umask): {mode:o}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        write_output(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old").unwrap();
        let err = write_output(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("the render failed"))
        })
        .unwrap_err();
        assert!(err.to_string().contains("out.txt"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(names_in(dir.path()), vec!["out.txt"]);
        assert!(
            !in_flight().iter().any(|p| p.starts_with(dir.path())),
            "the temporary file is unregistered"
        );
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_output(dir.path(), |w| w.write_all(b"x")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::IsADirectory);
        assert!(err.to_string().contains("is a directory"), "{err}");
        assert!(names_in(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_followed_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        fs::write(sub.join("target.txt"), "old").unwrap();
        // Relative links, two levels: link2 -> link1 -> sub/target.txt.
        std::os::unix::fs::symlink("sub/target.txt", dir.path().join("link1")).unwrap();
        std::os::unix::fs::symlink("link1", dir.path().join("link2")).unwrap();
        let link = dir.path().join("link2");
        assert_eq!(
            resolve_output(&link).unwrap(),
            OutputTarget::Replace {
                path: sub.join("target.txt"),
                mode: Some(permission_bits(
                    &fs::metadata(sub.join("target.txt")).unwrap()
                )),
            }
        );
        write_output(&link, |w| w.write_all(b"new")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(sub.join("target.txt")).unwrap(), b"new");
        assert_eq!(names_in(&sub), vec!["target.txt"]);
        assert_eq!(names_in(dir.path()), vec!["link1", "link2", "sub"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_symlink_writes_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("made.txt", &link).unwrap();
        write_output(&link, |w| w.write_all(b"made")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(dir.path().join("made.txt")).unwrap(), b"made");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        let err = resolve_output(&dir.path().join("a")).unwrap_err();
        assert!(err.to_string().contains("symbolic links"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if !made {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        assert_eq!(
            resolve_output(&fifo).unwrap(),
            OutputTarget::WriteThrough(fifo.clone())
        );
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        write_output(&fifo, |w| w.write_all(b"through the pipe")).unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(names_in(dir.path()), vec!["pipe"]);
    }

    #[test]
    fn tracking_registers_and_unregisters() {
        let dir = tempfile::tempdir().unwrap();
        let (tmp, tracked) =
            track(|| tempfile::tempdir_in(dir.path()), |t| t.path().into()).unwrap();
        assert!(in_flight().iter().any(|p| p == tmp.path()));
        let renamed: io::Result<i32> = tracked.commit(|| Ok(7));
        assert_eq!(renamed.unwrap(), 7);
        assert!(!in_flight().iter().any(|p| p == tmp.path()));
        assert!(tmp.path().exists(), "a committed path is not deleted");
        // Dropped uncommitted: deleted and unregistered.
        let (tmp, tracked) =
            track(|| tempfile::tempdir_in(dir.path()), |t| t.path().into()).unwrap();
        let path = tmp.keep();
        drop(tracked);
        assert!(!path.exists());
        assert!(!in_flight().contains(&path));
    }
}
