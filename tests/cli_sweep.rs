//! Surveys in shards end to end: `--shard I/N` parts concatenate (and merge) to the single run
//! byte for byte, a killed shard leaves nothing and a rerun redoes only it, `merge` refuses
//! parts of different sweeps or a missing shard, and the README's GNU parallel recipe runs for
//! real.

use crate::common;

use std::path::Path;
use std::process::Command as Process;
use std::time::Duration;

use common::*;

/// The survey of the tests: 4095 sets, well under a second.
const SURVEY: &str = "octal survey --subtract-subsets-of 1..12";

fn run_in(dir: &Path, line: &str) -> (String, String) {
    let out = nimlab()
        .current_dir(dir)
        .args(words(line))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{line}: {stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn eight_shards_concatenate_and_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(d, &format!("{SURVEY} --format csv -o single.csv"));
    let mut joined = Vec::new();
    for i in 0..8 {
        let (_, stderr) = run_in(d, &format!("{SURVEY} --shard {i}/8 -o part-{i}.csv"));
        assert!(stderr.starts_with(&format!("shard {i}/8: ")), "{stderr}");
        joined.extend(read(d, &format!("part-{i}.csv")));
        let manifest: serde_json::Value =
            serde_json::from_slice(&read(d, &format!("part-{i}.csv.manifest.json"))).unwrap();
        assert_eq!(manifest["shard"]["index"], i);
        assert_eq!(manifest["command"], "octal survey");
    }
    assert_eq!(joined, read(d, "single.csv"));
    // Any order of the parts; the summary of the whole survey on stderr.
    let (_, stderr) = run_in(
        d,
        "merge part-7.csv part-0.csv part-1.csv part-2.csv part-3.csv part-4.csv part-5.csv part-6.csv -o merged.csv",
    );
    assert_eq!(read(d, "merged.csv"), read(d, "single.csv"));
    assert!(stderr.contains("merged 8 shards"), "{stderr}");
    assert!(
        stderr.contains("4095 sets; period PROVEN for 4095"),
        "{stderr}"
    );
}

#[test]
fn a_rerun_skips_complete_shards_and_redoes_a_killed_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A long shard killed part way leaves neither output nor manifest.
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("nimlab"))
        .current_dir(d)
        .env("NIMLAB_PROGRESS", "never")
        .args(words(
            "octal survey --subtract-subsets-of 1..22 --shard 0/2 -o big.csv",
        ))
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!d.join("big.csv").exists());
    assert!(!d.join("big.csv.manifest.json").exists());

    for i in 0..4 {
        run_in(d, &format!("{SURVEY} --shard {i}/4 -o part-{i}.csv"));
    }
    let manifests: Vec<Vec<u8>> = (0..4)
        .map(|i| read(d, &format!("part-{i}.csv.manifest.json")))
        .collect();
    // Shard 2 was killed: its output never appeared.
    std::fs::remove_file(d.join("part-2.csv")).unwrap();
    for i in 0..4 {
        let (_, stderr) = run_in(d, &format!("{SURVEY} --shard {i}/4 -o part-{i}.csv"));
        assert_eq!(stderr.contains("skipped"), i != 2, "shard {i}: {stderr}");
    }
    // Skipped shards keep their manifests (their CPU time included) byte for byte.
    for i in [0, 1, 3] {
        assert_eq!(
            read(d, &format!("part-{i}.csv.manifest.json")),
            manifests[i]
        );
    }
    // A changed output is not complete: the shard runs again.
    std::fs::write(d.join("part-1.csv"), "tampered\n").unwrap();
    let (_, stderr) = run_in(d, &format!("{SURVEY} --shard 1/4 -o part-1.csv"));
    assert!(!stderr.contains("skipped"), "{stderr}");
    // Other arguments are another sweep: nothing is skipped.
    let (_, stderr) = run_in(
        d,
        &format!("{SURVEY} --max-heap 5000 --shard 0/4 -o part-0.csv"),
    );
    assert!(!stderr.contains("skipped"), "{stderr}");
}

#[test]
fn merge_refuses_what_is_not_one_whole_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for i in 0..3 {
        run_in(d, &format!("{SURVEY} --shard {i}/3 -o a-{i}.csv"));
    }
    run_in(
        d,
        "octal survey --subtract-subsets-of 1..11 --shard 1/3 -o other-1.csv",
    );
    let refused = |line: &str, needles: &[&str]| {
        let out = nimlab().current_dir(d).args(words(line)).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{line}: {stderr}");
        for n in needles {
            assert!(stderr.contains(n), "{line}: {n:?} not in {stderr}");
        }
        assert!(!d.join("merged.csv").exists(), "{line} left an output");
    };
    refused(
        "merge a-0.csv a-2.csv -o merged.csv",
        &["shard 1/3 is missing"],
    );
    refused(
        "merge a-0.csv a-1.csv a-1.csv a-2.csv -o merged.csv",
        &["1/3", "twice"],
    );
    refused(
        "merge a-0.csv other-1.csv a-2.csv -o merged.csv",
        &["not shards of one sweep", "1..11"],
    );
    refused(
        "merge single.csv -o merged.csv",
        &["single.csv", "manifest"],
    );
    std::fs::write(d.join("a-1.csv"), "changed\n").unwrap();
    refused(
        "merge a-0.csv a-1.csv a-2.csv -o merged.csv",
        &["a-1.csv", "no longer holds"],
    );
    // Shards are CSV: a format that cannot be split is refused, as is a shard out of range.
    run_input_error(
        &words(&format!("{SURVEY} --shard 0/2 --format json")),
        &["--shard 0/2", "json"],
    );
    run_input_error(
        &words(&format!("{SURVEY} --shard 2/2")),
        &["2/2", "0 ≤ I < N"],
    );
    run_input_error(
        &words(&format!("{SURVEY} --threads 0")),
        &["--threads", "0"],
    );
}

#[test]
fn the_gnu_parallel_recipe_of_the_readme_runs() {
    // .ci/run installs GNU parallel; without it this test cannot check the recipe.
    let available = Process::new("parallel").arg("--version").output();
    assert!(
        available.is_ok_and(|o| o.status.success()),
        "GNU parallel is not installed (.ci/run installs it: apt-get install parallel)"
    );
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let recipe: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("# GNU parallel:"))
        .take_while(|l| !l.starts_with("```"))
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    assert!(!recipe.is_empty(), "the README has no GNU parallel recipe");
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("nimlab");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // The recipe's survey, made small: the same commands on sets ⊆ {1..14}.
    let script = recipe.join("\n").replace("1..20", "1..14");
    let out = Process::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .current_dir(dir.path())
        .env("PATH", path)
        .env("NIMLAB_PROGRESS", "never")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    run_in(
        dir.path(),
        "octal survey --subtract-subsets-of 1..14 --format csv -o single.csv",
    );
    assert_eq!(
        read(dir.path(), "survey.csv"),
        read(dir.path(), "single.csv")
    );
}
