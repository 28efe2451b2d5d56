//! Safe I/O end to end (issue 14, items 1 and 8): where `-o` writes (a regular file atomically; a
//! device or FIFO written through; a symbolic link followed; `-` is standard output), `-` as
//! standard input, errors that leave nothing behind (read-only directory, full file system,
//! a signal in the middle of a write), and `nimlab report`'s refusals (no claim registries, a
//! symbolic link or a file as the reports directory), its `--check` messages and the recovery of
//! an interrupted install.
//!
//! Some cases need privileges: a device node (`mknod`) and a small or read-only tmpfs (`mount`)
//! need root; a read-only directory made with `chmod` stops only a normal user. Each test uses
//! whatever the machine allows and prints a note when it has to skip a case.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;

use common::{dir_entries as names_in, nimlab};
use nimlab::reports::{Files, install, recover};

/// A small table, as text.
const SMALL: &[&str] = &["candy", "value", "3", "5", "6"];

fn run(args: &[&str], cwd: &Path) -> Output {
    nimlab()
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("nimlab runs")
}

fn stdout_of(args: &[&str]) -> Vec<u8> {
    let out = nimlab().args(args).output().expect("nimlab runs");
    assert!(out.status.success(), "{args:?}: {out:?}");
    out.stdout
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The temporary files `-o` may leave in `dir` (none, if it works).
fn temporaries(dir: &Path) -> Vec<String> {
    names_in(dir)
        .into_iter()
        .filter(|n| n.starts_with(".nimlab-") && n.ends_with(".tmp"))
        .collect()
}

/// `args` with `-o path` appended.
fn with_output<'a>(args: &[&'a str], path: &'a str) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.extend(["-o", path]);
    v
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}

/// A tmpfs mounted for the duration of a test (root only); unmounted on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` at `at`, or `None` where mounting is not allowed.
    fn mount(at: &Path, size: &str) -> Option<Tmpfs> {
        fs::create_dir_all(at).unwrap();
        let ok = StdCommand::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Tmpfs(at.to_path_buf()))
    }

    fn remount_read_only(&self) -> bool {
        StdCommand::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = StdCommand::new("umount").arg(&self.0).status();
    }
}

// ---------------------------------------------------------------------------------------------
// -o

#[test]
fn o_to_a_new_file_and_over_a_regular_file_writes_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let expected = stdout_of(SMALL);
    let out = run(&with_output(SMALL, "t.txt"), dir.path());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(fs::read(dir.path().join("t.txt")).unwrap(), expected);
    // Over an existing file with its own mode: the contents change, the mode stays.
    let file = dir.path().join("t.txt");
    fs::write(&file, "old\n").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    let out = run(&with_output(SMALL, "t.txt"), dir.path());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(fs::read(&file).unwrap(), expected);
    assert_eq!(
        fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(names_in(dir.path()), vec!["t.txt"]);
}

#[test]
fn o_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let expected = stdout_of(SMALL);
    let out = run(&with_output(SMALL, "-"), dir.path());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(out.stdout, expected);
    assert!(names_in(dir.path()).is_empty(), "no file called `-`");
}

/// Issue 14: as root, `-o /dev/null` replaced the device node with a regular file. The test
/// makes its own null device in a temporary directory; the real /dev/null is never touched.
#[test]
fn o_to_a_character_device_writes_through_and_keeps_the_device() {
    let dir = tempfile::tempdir().unwrap();
    let node = dir.path().join("null");
    let made = StdCommand::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("note: skipped, mknod needs root here");
        return;
    }
    let out = run(&with_output(SMALL, path_str(&node)), dir.path());
    assert!(out.status.success(), "{out:?}");
    let kind = fs::symlink_metadata(&node).unwrap().file_type();
    assert!(kind.is_char_device(), "still a character device");
    assert_eq!(names_in(dir.path()), vec!["null"], "nothing left beside it");
}

#[test]
fn o_to_a_fifo_writes_through_to_its_reader() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = StdCommand::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo works");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    let out = run(&with_output(SMALL, path_str(&fifo)), dir.path());
    assert!(out.status.success(), "{out:?}");
    assert_eq!(reader.join().unwrap(), stdout_of(SMALL));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names_in(dir.path()), vec!["pipe"]);
}

#[test]
fn o_to_a_symlink_replaces_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    fs::create_dir(&data).unwrap();
    fs::write(data.join("table.txt"), "old\n").unwrap();
    std::os::unix::fs::symlink("data/table.txt", dir.path().join("link")).unwrap();
    let out = run(&with_output(SMALL, "link"), dir.path());
    assert!(out.status.success(), "{out:?}");
    let link = dir.path().join("link");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("data/table.txt"));
    assert_eq!(fs::read(data.join("table.txt")).unwrap(), stdout_of(SMALL));
    // The temporary file was made beside the target (and renamed): nothing is left anywhere.
    assert_eq!(names_in(&data), vec!["table.txt"]);
    assert_eq!(names_in(dir.path()), vec!["data", "link"]);

    // A dangling link: its target is created.
    std::os::unix::fs::symlink("data/new.txt", dir.path().join("dangling")).unwrap();
    let out = run(&with_output(SMALL, "dangling"), dir.path());
    assert!(out.status.success(), "{out:?}");
    assert!(
        fs::symlink_metadata(dir.path().join("dangling"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read(data.join("new.txt")).unwrap(), stdout_of(SMALL));
}

#[test]
fn o_to_a_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    let out = run(&with_output(SMALL, "sub"), dir.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr(&out).contains("sub is a directory"),
        "{}",
        stderr(&out)
    );
    assert!(names_in(&dir.path().join("sub")).is_empty());
}

#[test]
fn o_into_a_missing_directory_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&with_output(SMALL, "no/such/dir/t.txt"), dir.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("no/such/dir"), "{err}");
    assert!(names_in(dir.path()).is_empty());
}

/// A directory nobody may write to: a chmod'ed one for a normal user, a read-only tmpfs for root
/// (who ignores permissions).
#[test]
fn o_into_a_read_only_directory_fails_cleanly_and_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    fs::create_dir(&ro).unwrap();
    let mut _mount = None;
    fs::write(ro.join("t.txt"), "old\n").unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
    let enforced = fs::write(ro.join("probe"), "x").is_err();
    if !enforced {
        // Privileged: permissions are not enforced; use a read-only file system instead.
        fs::remove_file(ro.join("probe")).unwrap();
        fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
        fs::remove_file(ro.join("t.txt")).unwrap();
        let Some(m) = Tmpfs::mount(&ro, "64k") else {
            eprintln!("note: skipped, running privileged and cannot mount a read-only tmpfs");
            return;
        };
        fs::write(ro.join("t.txt"), "old\n").unwrap();
        if !m.remount_read_only() {
            eprintln!("note: skipped, cannot remount the tmpfs read-only");
            return;
        }
        _mount = Some(m);
    }
    let out = run(&with_output(SMALL, "ro/t.txt"), dir.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(
        err.contains("cannot create a temporary file in ro"),
        "names the directory: {err}"
    );
    assert_eq!(fs::read_to_string(ro.join("t.txt")).unwrap(), "old\n");
    assert_eq!(names_in(&ro), vec!["t.txt"]);
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).ok();
}

/// A file system that fills up in the middle of the write: a clear error, the old file intact,
/// no temporary file left. Needs root to mount a 64 KiB tmpfs.
#[test]
fn o_on_a_full_file_system_fails_cleanly_and_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small");
    let Some(_mount) = Tmpfs::mount(&small, "64k") else {
        eprintln!("note: skipped, cannot mount a small tmpfs (needs root)");
        return;
    };
    fs::write(small.join("t.csv"), "old\n").unwrap();
    // About 170 KB of CSV.
    let big = [
        "octal",
        "values",
        "--subtract",
        "4,5",
        "--max-heap",
        "20000",
        "--format",
        "csv",
    ];
    let out = run(&with_output(&big, "small/t.csv"), dir.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("small/t.csv"), "names the file: {err}");
    assert!(err.contains("No space left on device"), "{err}");
    assert_eq!(fs::read_to_string(small.join("t.csv")).unwrap(), "old\n");
    assert_eq!(names_in(&small), vec!["t.csv"], "no temporary file left");
}

/// Issue 14: a signal in the middle of `-o` left `.nimlab-*.tmp` behind. The run is signalled as
/// soon as its temporary file appears; it must remove it and exit with 128 + the signal.
#[test]
fn a_signal_during_o_removes_the_temporary_file() {
    let args = [
        "octal",
        "values",
        "--subtract",
        "4,5",
        "--max-heap",
        "600000",
        "--format",
        "csv",
        "-o",
        "t.csv",
    ];
    let binary = assert_cmd::cargo::cargo_bin("nimlab");
    for (signal, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let mut caught = false;
        for _attempt in 0..5 {
            let dir = tempfile::tempdir().unwrap();
            fs::write(dir.path().join("t.csv"), "old\n").unwrap();
            let mut child = StdCommand::new(&binary)
                .args(args)
                .current_dir(dir.path())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let start = Instant::now();
            let mut signalled = false;
            while start.elapsed() < Duration::from_secs(60) {
                if !temporaries(dir.path()).is_empty() {
                    StdCommand::new("kill")
                        .args([&format!("-{signal}"), &child.id().to_string()])
                        .status()
                        .unwrap();
                    signalled = true;
                    break;
                }
                if child.try_wait().unwrap().is_some() {
                    break;
                }
            }
            let exit = child.wait().unwrap();
            assert!(temporaries(dir.path()).is_empty(), "SIG{signal}: litter");
            let after = fs::read_to_string(dir.path().join("t.csv")).unwrap();
            if signalled && exit.code() == Some(status) {
                // Either the signal came first (old file kept) or just after the rename.
                assert!(
                    after == "old\n" || after.lines().count() == 600_002,
                    "SIG{signal}: a half-written file"
                );
                caught = true;
                break;
            }
        }
        assert!(
            caught,
            "SIG{signal} never arrived while the temporary file existed"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// - as standard input

fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    nimlab()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .expect("nimlab runs")
}

#[test]
fn csv_dash_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let csv = stdout_of(&[
        "cash",
        "thresholds",
        "--set",
        "3,5,6,10,11",
        "--max-n",
        "300",
        "--defined-only",
        "--format",
        "csv",
    ]);
    let file = dir.path().join("f.csv");
    fs::write(&file, &csv).unwrap();
    let file = path_str(&file);
    for args in [
        vec!["mine", "sequence", "--index", "n", "--value", "f1", "--csv"],
        vec![
            "mine",
            "check",
            "--index",
            "n",
            "--value",
            "g1",
            "--formula",
            "floor(n/6)*3 + min(n%6 + 1, 3)",
            "--csv",
        ],
    ] {
        let from_file = stdout_of(&[args.as_slice(), &[file]].concat());
        let out = run_with_stdin(&[args.as_slice(), &["-"]].concat(), &csv);
        assert!(out.status.success(), "{args:?}: {out:?}");
        assert_eq!(out.stdout, from_file, "{args:?}");
    }
}

#[test]
fn a_claim_file_and_a_certificate_can_come_from_standard_input() {
    let claims = "paper = \"stdin\"\n\n[[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\nfor = \"n in 0..9\"\nholds = \"n + 1 > n\"\n";
    let out = run_with_stdin(&["check", "-"], claims.as_bytes());
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("HOLDS"));
    // A parse error names `<stdin>` with its line.
    let out = run_with_stdin(&["check", "-"], b"paper = \"x\"\n[[claim]]\nid = 3\n");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("<stdin>:"), "{}", stderr(&out));
    let out = run_with_stdin(&["check", "-", "-"], claims.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("only once"), "{}", stderr(&out));

    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("gs.json");
    let out = run(
        &[
            "mine",
            "octal",
            "--subtract",
            "4,5",
            "--certificate",
            "gs.json",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{out:?}");
    let out = run_with_stdin(&["mine", "replay", "-"], &fs::read(&cert).unwrap());
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("<stdin>: VALID"));
}

// ---------------------------------------------------------------------------------------------
// nimlab report

/// The report names, one claim registry each.
const REPORTS: [&str; 4] = ["scoring-nim", "scoring-octal", "candy-nim", "nim-with-cash"];

/// A repository with one trivial claim per registry (`only` of them), a `reports/` holding one
/// marker file, and a `src/` subdirectory.
fn fake_repository(only: &[&str]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let claims = root.path().join("data/claims");
    fs::create_dir_all(&claims).unwrap();
    let studies = root.path().join("data/studies");
    fs::create_dir_all(&studies).unwrap();
    for name in REPORTS {
        let study = format!("{name}.toml");
        let real = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/studies")
            .join(&study);
        fs::copy(real, studies.join(&study)).unwrap();
    }
    for name in only {
        fs::write(
            claims.join(format!("{name}.toml")),
            format!(
                "paper = \"{name}\"\n\n[[claim]]\nid = \"one\"\nlabel = \"One\"\nstatement = \"1 = 1\"\nholds = \"1 == 1\"\n"
            ),
        )
        .unwrap();
    }
    fs::create_dir_all(root.path().join("reports")).unwrap();
    fs::write(root.path().join("reports/README.md"), "the real reports\n").unwrap();
    fs::create_dir_all(root.path().join("src")).unwrap();
    root
}

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if fs::symlink_metadata(&p).unwrap().is_dir() {
                stack.push(p);
            } else {
                let bytes = fs::read(&p).unwrap_or_default();
                out.push((p.strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    out.sort();
    out
}

/// Issue 14: from `src/` with `--dir ../reports`, `nimlab report` rendered every report as "not
/// checked yet" over the real ones and exited 0.
#[test]
fn report_from_a_subdirectory_changes_nothing_and_exits_2() {
    let root = fake_repository(&REPORTS);
    let before = snapshot(root.path());
    let src = root.path().join("src");
    for args in [vec!["report", "--dir", "../reports"], vec!["report"]] {
        let started = Instant::now();
        let out = run(&args, &src);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "refused at once"
        );
        let err = stderr(&out);
        assert!(err.contains("no data/studies/{"), "{err}");
        assert!(err.contains(path_str(&src)), "names the directory: {err}");
        let repo = fs::canonicalize(root.path()).unwrap();
        let named = err.contains(path_str(root.path())) || err.contains(path_str(&repo));
        assert!(named, "names the repository's root: {err}");
        assert!(err.contains("--root"), "{err}");
        assert_eq!(snapshot(root.path()), before, "{args:?} changed something");
    }
    // Outside any repository it says what it needs.
    let elsewhere = tempfile::tempdir().unwrap();
    let out = run(&["report"], elsewhere.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("run nimlab report from the repository root or pass --root DIR"));
    assert!(names_in(elsewhere.path()).is_empty());
}

#[test]
fn report_with_some_registries_missing_names_them_and_changes_nothing() {
    let root = fake_repository(&["scoring-nim", "candy-nim"]);
    let before = snapshot(root.path());
    let out = run(&["report", "--check"], root.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(
        err.contains("claim file data/claims/scoring-octal.toml not found"),
        "{err}"
    );
    let out = run(&["report"], root.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(snapshot(root.path()), before);
}

#[test]
fn report_refuses_a_symlink_or_a_file_as_its_directory() {
    let root = fake_repository(&REPORTS);
    let real = root.path().join("real-reports");
    fs::rename(root.path().join("reports"), &real).unwrap();
    std::os::unix::fs::symlink("real-reports", root.path().join("reports")).unwrap();
    let before = snapshot(root.path());
    let started = Instant::now();
    let out = run(&["report"], root.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "refused before rendering"
    );
    let err = stderr(&out);
    assert!(err.contains("reports is a symbolic link"), "{err}");
    assert!(
        fs::symlink_metadata(root.path().join("reports"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(snapshot(root.path()), before);

    // A regular file where the directory should be.
    fs::write(root.path().join("src/file"), "mine\n").unwrap();
    let out = run(&["report", "--dir", "src/file"], root.path());
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(root.path().join("src/file")).unwrap(),
        "mine\n"
    );
}

/// A whole render of a small repository (a few seconds): `--check` says how many files are up
/// to date, its failure message ends with a newline, and a run after an interrupted install
/// restores and cleans up.
#[test]
fn report_renders_checks_and_recovers_an_interrupted_install() {
    let root = fake_repository(&REPORTS);
    let dir = root.path().join("reports");
    let out = run(&["report"], root.path());
    assert!(out.status.success(), "{out:?}");
    assert!(dir.join("scoring-nim/scoring-nim.md").is_file());
    let rendered = snapshot(&dir);

    let out = run(&["report", "--check"], root.path());
    assert!(out.status.success(), "{out:?}");
    // One line on standard output (outside a git checkout no commit is recorded).
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let expected = format!(
        "reports: all {} files of 4 reports match a fresh render\n",
        rendered.len()
    );
    assert_eq!(said, expected);

    fs::write(dir.join("extra.csv"), "1\n").unwrap();
    let out = run(&["report", "--check"], root.path());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("not rendered: extra.csv"), "{err}");
    assert!(err.ends_with('\n'), "ends with a newline: {err:?}");
    fs::remove_file(dir.join("extra.csv")).unwrap();

    // Killed between the two renames of the fallback swap: the old tree is aside, a new one is
    // half written, reports/ is missing. --check points at them; the next run restores, then
    // renders.
    fs::rename(&dir, root.path().join(".reports.old-killed")).unwrap();
    fs::create_dir_all(root.path().join(".reports.new-killed/half")).unwrap();
    let out = run(&["report", "--check"], root.path());
    assert!(stderr(&out).contains(".reports.old-killed was left by an interrupted run"));
    let out = run(&["report"], root.path());
    assert!(out.status.success(), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("restored"), "{err}");
    assert!(err.contains(".reports.new-killed"), "{err}");
    assert_eq!(snapshot(&dir), rendered);
    assert_eq!(names_in(root.path()), vec!["data", "reports", "src"]);
}

// ---------------------------------------------------------------------------------------------
// The installer, directly

fn tree(files: &[(&str, &str)]) -> Files {
    let mut t = Files::new();
    for (p, b) in files {
        t.insert(p, b.as_bytes().to_vec()).unwrap();
    }
    t
}

#[test]
fn recover_restores_a_tree_left_aside_when_the_directory_is_missing() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("reports");
    let aside = parent.path().join(".reports.old-abc123");
    fs::create_dir_all(aside.join("x")).unwrap();
    fs::write(aside.join("x/x.md"), "previous\n").unwrap();
    fs::create_dir_all(parent.path().join(".reports.new-def456/y")).unwrap();
    let notes = recover(&dir).unwrap();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("restored"), "{notes:?}");
    assert_eq!(
        fs::read_to_string(dir.join("x/x.md")).unwrap(),
        "previous\n"
    );
    assert_eq!(names_in(parent.path()), vec!["reports"]);
    // Nothing left: nothing to say.
    assert!(recover(&dir).unwrap().is_empty());
}

#[test]
fn recover_restores_the_nested_layout_of_older_versions() {
    // Before the one-step swap, the previous tree went to `.reports.old-*/reports`.
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("reports");
    let aside = parent.path().join(".reports.old-xyz/reports");
    fs::create_dir_all(&aside).unwrap();
    fs::write(aside.join("README.md"), "index\n").unwrap();
    recover(&dir).unwrap();
    assert_eq!(
        fs::read_to_string(dir.join("README.md")).unwrap(),
        "index\n"
    );
    assert_eq!(names_in(parent.path()), vec!["reports"]);
}

#[test]
fn recover_removes_leftovers_and_keeps_an_existing_directory() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("reports");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("README.md"), "current\n").unwrap();
    fs::create_dir_all(parent.path().join(".reports.old-1/a")).unwrap();
    fs::create_dir_all(parent.path().join(".reports.new-2")).unwrap();
    // Another directory's leftovers and our own temporaries are not touched.
    fs::create_dir_all(parent.path().join(".other.old-3")).unwrap();
    fs::write(parent.path().join(".nimlab-4.tmp"), "").unwrap();
    let notes = recover(&dir).unwrap();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(
        fs::read_to_string(dir.join("README.md")).unwrap(),
        "current\n"
    );
    assert_eq!(
        names_in(parent.path()),
        vec![".nimlab-4.tmp", ".other.old-3", "reports"]
    );
}

#[test]
fn install_swaps_in_one_step_and_refuses_links_and_files() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("reports");
    // A new directory, then a replacement.
    install(&dir, &tree(&[("a.md", "one\n")])).unwrap();
    install(&dir, &tree(&[("b/b.md", "two\n")])).unwrap();
    assert_eq!(
        snapshot(&dir),
        vec![(PathBuf::from("b/b.md"), b"two\n".to_vec())]
    );
    assert_eq!(names_in(parent.path()), vec!["reports"]);

    let link = parent.path().join("linked");
    std::os::unix::fs::symlink("reports", &link).unwrap();
    let err = install(&link, &tree(&[("c.md", "x")])).unwrap_err();
    assert!(err.to_string().contains("is a symbolic link"), "{err}");
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        snapshot(&dir),
        vec![(PathBuf::from("b/b.md"), b"two\n".to_vec())]
    );

    let file = parent.path().join("plain");
    let mut f = fs::File::create(&file).unwrap();
    f.write_all(b"keep\n").unwrap();
    let err = install(&file, &tree(&[("c.md", "x")])).unwrap_err();
    assert!(err.to_string().contains("not a directory"), "{err}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "keep\n");
    assert_eq!(names_in(parent.path()), vec!["linked", "plain", "reports"]);
}
