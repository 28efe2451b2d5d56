//! The process guards of the `nimlab` binary (`nimlab::app`): a run that passes its memory
//! cap, or that the system refuses memory, ends with one clear line and status 2 — never with
//! Rust's abort (status 134). Each case runs in a child process: this test binary re-executes
//! itself with one `#[ignore]`d test selected and an environment variable set.

use std::process::Command;

use nimlab::app::{GuardedAlloc, set_memory_cap};

#[global_allocator]
static ALLOCATOR: GuardedAlloc = GuardedAlloc;

const CHILD: &str = "NIMLAB_GUARD_CHILD";

/// Runs the ignored test `name` of this binary in a child process; returns (status, stderr).
fn run_child(name: &str) -> (Option<i32>, String) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &format!("process_guards::{name}"),
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Touches every page so that the memory is really used.
fn fill(bytes: usize) -> Vec<u8> {
    let mut v = vec![0u8; bytes];
    for i in (0..bytes).step_by(4096) {
        v[i] = 1;
    }
    v
}

#[test]
#[ignore = "run as a child by passing_the_cap_exits_with_status_2"]
fn child_allocates_past_its_cap() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    set_memory_cap(64 << 20);
    // Many small allocations, each below the per-thread slack, must be caught too.
    let mut kept = Vec::new();
    for _ in 0..100_000 {
        kept.push(fill(4096));
    }
    println!("not reached: {}", kept.len());
}

#[test]
fn passing_the_cap_exits_with_status_2() {
    let (status, stderr) = run_child("child_allocates_past_its_cap");
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("error: out of memory") && stderr.contains("memory limit of 64.0 MiB"),
        "{stderr}"
    );
    assert!(!stderr.contains("not reached"));
}

#[test]
#[ignore = "run as a child by running_out_of_memory_removes_temporary_files"]
fn child_runs_out_with_a_temporary_file() {
    let Some(path) = std::env::var_os("NIMLAB_GUARD_TEMP") else {
        return;
    };
    nimlab::app::on_out_of_memory(nimlab::io::remove_in_flight);
    let path = std::path::PathBuf::from(path);
    let (_file, _tracked) =
        nimlab::io::track(|| std::fs::File::create(&path), |_| path.clone()).unwrap();
    set_memory_cap(64 << 20);
    let v = fill(128 << 20);
    println!("not reached: {}", v.len());
}

#[test]
fn running_out_of_memory_removes_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let temp = dir.path().join(".nimlab-test.tmp");
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "process_guards::child_runs_out_with_a_temporary_file",
            "--ignored",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .env("NIMLAB_GUARD_TEMP", &temp)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("error: out of memory"), "{stderr}");
    assert!(!temp.exists(), "the temporary file was left behind");
}

#[test]
#[ignore = "run as a child by a_refusal_by_the_system_exits_with_status_2"]
fn child_is_refused_by_the_system() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let limit = libc::rlimit {
        rlim_cur: 1 << 30,
        rlim_max: 1 << 30,
    };
    // SAFETY: setting this process's own address-space limit.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
    let v = fill(2 << 30);
    println!("not reached: {}", v.len());
}

#[test]
fn a_refusal_by_the_system_exits_with_status_2() {
    let (status, stderr) = run_child("child_is_refused_by_the_system");
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("error: out of memory: the system refused 2.0 GiB more"),
        "{stderr}"
    );
}

#[test]
fn the_automatic_memory_limit_follows_ulimit() {
    // 3 heaps up to 30 000 need about 3.4 GiB: within the default 8 GiB, but not under a
    // 2 GB address-space limit, where `auto` lowers the limit and the table is refused up front.
    let bin = assert_cmd::cargo::cargo_bin("nimlab");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2000000 && exec '{}' candy table --heaps 3 --max-heap 30000",
            bin.display()
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("more than the limit of 1."), "{stderr}");
}
