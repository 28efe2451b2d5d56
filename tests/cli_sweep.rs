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

/// Whether the first player wins the plain subtraction game A at n (no money), by definition.
fn plain_first_player_wins(set: &[usize], max_n: usize) -> Vec<bool> {
    let mut w = vec![false; max_n + 1];
    for n in 0..=max_n {
        w[n] = set.iter().any(|&a| a <= n && !w[n - a]);
    }
    w
}

#[test]
fn cash_surveys_shard_and_every_set_is_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let survey = "cash survey --set-subsets-of 1..7";
    run_in(d, &format!("{survey} --format csv -o single.csv"));
    let mut joined = Vec::new();
    for i in 0..3 {
        run_in(d, &format!("{survey} --shard {i}/3 -o part-{i}.csv"));
        joined.extend(read(d, &format!("part-{i}.csv")));
    }
    assert_eq!(joined, read(d, "single.csv"));
    let (_, stderr) = run_in(d, "merge part-0.csv part-1.csv part-2.csv -o merged.csv");
    assert!(stderr.contains("127 sets; cash-periodic"), "{stderr}");
    let csv = Csv::parse(&String::from_utf8(read(d, "single.csv")).unwrap());
    assert_eq!(csv.rows.len(), 127);
    for r in csv.records() {
        // The plain period against the game's definition, well past the preperiod.
        let set: Vec<usize> = r["set"]
            .trim_matches(['{', '}'])
            .split(',')
            .map(|a| a.parse().unwrap())
            .collect();
        let w = plain_first_player_wins(&set, 400);
        let (pre, period): (usize, usize) = (
            r["plain_preperiod"].parse().unwrap(),
            r["plain_period"].parse().unwrap(),
        );
        for n in pre..300 {
            assert_eq!(w[n], w[n + period], "{set:?} at n = {n}");
        }
        assert!(
            [
                "PROVEN",
                "NOT_CASH_PERIODIC",
                "UNDECIDED",
                "MEMORY_LIMIT",
                "NOT_SETTLED"
            ]
            .contains(&r["win_condition"]),
            "{r:?}"
        );
    }
    // A set that is not cash-periodic is a row, not an error (`cash condition` exits 2 on it).
    let (stdout, stderr) = run_in(
        d,
        "cash survey --set-subsets-of 3..11 --sizes 5..5 --format csv",
    );
    assert!(stderr.contains("not cash-periodic 1"), "{stderr}");
    let csv = Csv::parse(&stdout);
    let row = csv
        .records()
        .into_iter()
        .find(|r| r["set"] == "{3,5,6,10,11}")
        .expect("the set is surveyed");
    assert_eq!(
        (row["cash"], row["win_condition"]),
        ("not periodic", "NOT_CASH_PERIODIC")
    );
}
