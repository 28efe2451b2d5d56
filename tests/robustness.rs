//! Robustness of the whole CLI on bad and extreme input: the built binary is run on many
//! generated invocations, under a memory cap (`ulimit -v`, 4 GB) and a time limit, and every
//! run must end the way the tool promises: exit 0, 1 or 2 (never a panic's 101, an abort's 134
//! or a signal), and an exit 2 must say why on stderr in a few lines, not megabytes.
//!
//! The invocations are generated from the CLI's own definition (`Cli::command()`), so a new
//! subcommand or option is covered without touching this file:
//! - the examples of every command's help, with one number replaced by an extreme value
//!   (around 2^31, 2^32, 2^63, 2^64, zero, negative, huge ranges, malformed text);
//! - the same examples with one of the command's options added with such a value;
//! - the claim files of `data/claims/`, with one number of a claim's `for`, `deep` or `args`
//!   replaced, checked one claim at a time.
//!
//! The sample is fixed (a seeded generator), so a failure reproduces; `NIMLAB_ROBUSTNESS_CASES`
//! sets its size (default 160) and `NIMLAB_ROBUSTNESS_SEED` its seed. Runs are spread over two
//! threads. A run still going at the time limit is killed; that is a failure only when it has
//! printed nothing on stderr (no progress and no estimate), since a long run must say so.

use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::CommandFactory;
use nimlab::app::Cli;

/// Values around machine-integer boundaries, degenerate and malformed ones.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "99999999999999999999999999999",
    "1..4294967296",
    "0..18446744073709551615",
    "-1000000..1000000",
    "1..2000000",
    "10^51",
    "-10^51",
    "1/0",
    "0.5",
    "1e9",
    "abc",
    "",
    "1,18446744073709551615",
    "9223372036854775808,0",
    "--",
    "-",
];

/// Memory a run may map (KiB, for `ulimit -v`).
const MEMORY_KIB: u64 = 4_000_000;
/// Time a run may take.
const TIME_LIMIT: Duration = Duration::from_secs(20);
/// The most stderr an error may print.
const MAX_ERROR_BYTES: usize = 4096;

/// A small deterministic generator (xorshift64*), so the sample is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Splits an example command line as a shell would (double and single quotes, no escapes).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        words.push(word);
    }
    words
}

/// A leaf subcommand: its path and its long options (with whether each takes a value).
struct Leaf {
    path: Vec<String>,
    options: Vec<(String, bool)>,
}

/// Every leaf subcommand, and the example lines of every command's help.
fn walk(
    cmd: &clap::Command,
    path: &mut Vec<String>,
    leaves: &mut Vec<Leaf>,
    examples: &mut BTreeSet<String>,
) {
    for text in [cmd.get_after_help(), cmd.get_after_long_help()]
        .into_iter()
        .flatten()
    {
        for line in text.to_string().lines() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("nimlab ") {
                // The comment after an example is separated by two or more spaces.
                let command = rest.split("  ").next().unwrap_or(rest).trim();
                examples.insert(command.to_string());
            }
        }
    }
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .collect();
    if subs.is_empty() && !path.is_empty() {
        let options = cmd
            .get_arguments()
            .filter_map(|a| {
                let long = a.get_long()?;
                if ["help", "version"].contains(&long) {
                    return None;
                }
                Some((long.to_string(), a.get_action().takes_values()))
            })
            .collect();
        leaves.push(Leaf {
            path: path.clone(),
            options,
        });
    }
    for s in subs {
        path.push(s.get_name().to_string());
        walk(s, path, leaves, examples);
        path.pop();
    }
}

/// Example arguments with repository paths made absolute (runs happen in a scratch directory).
fn example_args(example: &str) -> Vec<String> {
    shell_words(example)
        .into_iter()
        .map(|w| {
            let w = w.replace("data/claims/*.toml", "data/claims/candy-nim.toml");
            if w.starts_with("data/") {
                repo().join(&w).display().to_string()
            } else {
                w
            }
        })
        .collect()
}

/// Whether a word is a value that can be replaced (a number, range, list or pattern).
fn is_numeric(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit())
        && !word.starts_with('/')
        && ![".toml", ".csv", ".json"].iter().any(|x| word.contains(x))
}

/// The generated invocations: the examples with one number replaced, and with one option added.
fn invocations(rng: &mut Rng, count: usize) -> Vec<Vec<String>> {
    let mut leaves = Vec::new();
    let mut examples = BTreeSet::new();
    walk(&Cli::command(), &mut Vec::new(), &mut leaves, &mut examples);
    let examples: Vec<Vec<String>> = examples.iter().map(|e| example_args(e)).collect();
    assert!(
        examples.len() >= 20,
        "too few examples found in the help: {}",
        examples.len()
    );
    assert!(leaves.len() >= 20, "too few subcommands: {}", leaves.len());
    let mut out = Vec::new();
    // Every leaf at least once with every one of its options set to an extreme value, in
    // turn, on top of an example of that leaf (or alone when it has none).
    for leaf in &leaves {
        let base = examples
            .iter()
            .find(|e| e.starts_with(&leaf.path))
            .cloned()
            .unwrap_or_else(|| leaf.path.clone());
        for (long, takes_value) in &leaf.options {
            let mut args = base.clone();
            if *takes_value {
                args.push(format!("--{long}={}", rng.pick(EXTREMES)));
            } else {
                args.push(format!("--{long}"));
            }
            out.push(args);
        }
    }
    // Examples with one number replaced.
    while out.len() < count + leaves.len() {
        let mut args = rng.pick(&examples).clone();
        let numeric: Vec<usize> = (0..args.len())
            .filter(|&i| {
                let value = args[i].split_once('=').map_or(args[i].as_str(), |(_, v)| v);
                is_numeric(value)
            })
            .collect();
        if numeric.is_empty() {
            continue;
        }
        let i = *rng.pick(&numeric);
        let value = rng.pick(EXTREMES);
        args[i] = match args[i].split_once('=') {
            Some((opt, _)) if opt.starts_with("--") => format!("{opt}={value}"),
            _ if value.starts_with('-') && !value.starts_with("--") && i > 0 => {
                // A negative value as the next argument of an option needs `--opt=-1`.
                if args[i - 1].starts_with("--") && !args[i - 1].contains('=') {
                    let opt = args.remove(i - 1);
                    args[i - 1] = format!("{opt}={value}");
                    out.push(args);
                    continue;
                }
                value.to_string()
            }
            _ => value.to_string(),
        };
        out.push(args);
    }
    // The full sample is large; keep every leaf's option runs only up to the count asked for,
    // chosen evenly.
    let mut chosen = Vec::new();
    let stride = (out.len() as f64 / count as f64).max(1.0);
    let mut at = 0.0;
    while (at as usize) < out.len() && chosen.len() < count {
        chosen.push(out[at as usize].clone());
        at += stride;
    }
    chosen
}

/// Claim files of `data/claims/` with one number of a claim's `for`, `deep` or `args` line
/// replaced; each is checked on that claim only (and with `--deep` when the line is `deep`).
fn claim_mutations(rng: &mut Rng, count: usize, scratch: &Path) -> Vec<Vec<String>> {
    let replacements = [
        "20000",
        "4294967296",
        "18446744073709551616",
        "10^12",
        "2^64",
        "-1",
        "0",
        "1000000",
        "2000000",
    ];
    let mut files: Vec<(String, String)> = std::fs::read_dir(repo().join("data/claims"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "toml").then(|| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 20 {
        tries += 1;
        let (name, text) = rng.pick(&files);
        let lines: Vec<&str> = text.lines().collect();
        let candidates: Vec<usize> = (0..lines.len())
            .filter(|&i| {
                let l = lines[i];
                (l.starts_with("for = ") || l.starts_with("deep = ") || l.starts_with("args = "))
                    && l.chars().any(|c| c.is_ascii_digit())
            })
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let i = *rng.pick(&candidates);
        let line = lines[i];
        // The digit runs of the line; one is replaced.
        let mut runs = Vec::new();
        let mut start = None;
        for (j, c) in line
            .char_indices()
            .chain(std::iter::once((line.len(), ' ')))
        {
            match (start, c.is_ascii_digit()) {
                (None, true) => start = Some(j),
                (Some(s), false) => {
                    runs.push((s, j));
                    start = None;
                }
                _ => {}
            }
        }
        let (s, e) = *rng.pick(&runs);
        let mutated_line = format!("{}{}{}", &line[..s], rng.pick(&replacements), &line[e..]);
        let Some(id) = lines[..i]
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("id = \"").and_then(|r| r.strip_suffix('"')))
        else {
            continue;
        };
        let mut mutated: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        mutated[i] = mutated_line;
        let path = scratch.join(format!(
            "{}-{}-{i}.toml",
            name.trim_end_matches(".toml"),
            out.len()
        ));
        std::fs::write(&path, mutated.join("\n") + "\n").unwrap();
        let mut args = vec![
            "check".to_string(),
            path.display().to_string(),
            "--only".to_string(),
            id.to_string(),
        ];
        if line.starts_with("deep = ") {
            args.push("--deep".to_string());
        }
        out.push(args);
    }
    out
}

/// Claim files written to be extreme: products of ranges, huge numbers, deep definitions.
fn extreme_claim_files(scratch: &Path) -> Vec<Vec<String>> {
    let claim = |body: &str| {
        format!("paper = \"x\"\n[[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\n{body}\n")
    };
    let mut defines = vec!["\"F0(x) = x + 1\"".to_string()];
    for k in 1..=40 {
        defines.push(format!(
            "\"F{k}(x) = F{}(x) * F{}(x) - F{}(x)\"",
            k - 1,
            k - 1,
            k - 1
        ));
    }
    let files = [
        claim("for = \"a in 1..1000000, b in 1..1000000\"\nholds = \"a + b > 0\""),
        claim("for = \"a in 1..1000000\"\nholds = \"all(b in 1..1000000: a != b or a == b)\""),
        claim("holds = \"(3^160)^65536 * 2 > 0\""),
        claim("holds = \"len(list(j in 1..2000000: list(i in 1..2000000: i))) > 0\""),
        claim("holds = \"sum(j in 1..2000000: 1/j) > 0\""),
        claim("holds = \"gs(\\\"0.77\\\", 4294967295) == 0\""),
        claim("holds = \"payoff(1, [4294967295, 4294967295]) == 0\""),
        claim("holds = \"candy_v([4294967295, 4294967295]) == 0\""),
        claim("holds = \"f1([1, 18446744073709551615], 100000) == 0\""),
        claim("holds = \"alloc_min_nw(1000000) == 0\""),
        claim("holds = \"frak(4294967295, 4294967295, 0) == []\""),
        claim(
            "builtin = \"octal.theorem_12\"\nargs = { n = \"20000\", m = \"20000\", rules = \"0.07\", plus = \"0.07\" }",
        ),
        claim("builtin = \"octal.lemma_13\"\nargs = { k = \"4294967296\", i = \"4294967296\" }"),
        claim("builtin = \"octal.conjecture_16\"\nargs = { L = \"64\", m = \"1000000\" }"),
        format!(
            "paper = \"x\"\ndefine = [{}]\n[[claim]]\nid = \"c\"\nlabel = \"C\"\nstatement = \"s\"\nholds = \"F40(1) > 0\"\n",
            defines.join(", ")
        ),
        claim(&format!(
            "holds = \"{}1{} > 0\"",
            "(".repeat(60),
            ")".repeat(60)
        )),
        claim(&format!("holds = \"{} 1 > 0\"", "- ".repeat(1900))),
    ];
    files
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = scratch.join(format!("extreme-{i}.toml"));
            std::fs::write(&path, text).unwrap();
            vec!["check".to_string(), path.display().to_string()]
        })
        .collect()
}

/// The invocations issue 14 reports as aborting, panicking or running on without an estimate
/// (all but the ones that write over `/dev/null` or need a prepared CSV file).
const REPORTED: &[&str] = &[
    "candy frak --a 1..100000000 --m 1",
    "candy frak --a 1 --m 1..4294967296",
    "mine family scoring 2k+1,2k,1 --k 2..1000000",
    "mine family candy 31,32m,32m+31 --m 2..1000000",
    "mine octal --rules NIM",
    "mine octal --rules nim",
    "mine octal --rules 0.4",
    "mine octal --subtract 4,5 --bonus=-10^51",
    "mine family scoring 2k+1,2k,1 --k 1..12 --bonus=-1000000..1000000",
    "mine across cash --set 1,L --L 2..1000000",
    "cash condition --set 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23",
    "octal values --rules 0.77 --plus 3@2 --max-heap 83",
    "octal period --subtract 1,3 --also 0.7 --plus 2@2",
    "octal period --rules 0.23 --also 0.26 --plus 5@2",
    "mine octal --subtract 1,3 --also 0.7 --plus 4@2",
    "octal period --rules 0.054 --points 2,2,2",
    "octal period --rules 0.36",
    "cash table --set 1,2 --max-n 10000000000000",
    "cash winner --set 9223372036854775808 0 0 0",
    "cash winner --set 1,18446744073709551615 100000 5 5",
    "scoring table --max-heap 6 --heaps 9223372036854775807",
    "candy table --heaps 9223372036854775807",
    "candy value 4294967295 4294967295",
    "scoring table --heaps 2 --max-heap 100000",
    "candy allocate --candies 100",
    "scoring payoff 10000 4 2 --memory-limit 512M",
    "octal values --subtract 4,5 --max-heap 100000 --memory-limit 1",
    "mine octal --subtract 4,5 --memory-limit 1",
    "report",
];

/// How one run ended.
struct Outcome {
    args: Vec<String>,
    code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
    stderr: Vec<u8>,
    stderr_len: usize,
    elapsed: Duration,
}

fn run(bin: &Path, scratch: &Path, args: &[String]) -> Outcome {
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB}; exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .current_dir(scratch)
        // A long run must show progress within the silence limit: the default progress, not
        // whatever the caller's environment chose (`NIMLAB_PROGRESS=never` silences it).
        .env_remove("NIMLAB_PROGRESS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    let mut pipe = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        // Keep the start of stderr and count the rest.
        let mut kept = Vec::new();
        let mut total = 0usize;
        let mut buf = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            total += n;
            if kept.len() < 64 * 1024 {
                kept.extend_from_slice(&buf[..n]);
            }
        }
        (kept, total)
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if started.elapsed() > TIME_LIMIT {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stderr, stderr_len) = reader.join().expect("reader");
    Outcome {
        args: args.to_vec(),
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stderr,
        stderr_len,
        elapsed: started.elapsed(),
    }
}

/// What is wrong with an outcome, if anything.
fn fault(o: &Outcome) -> Option<String> {
    if o.timed_out {
        return (o.stderr_len == 0).then(|| {
            format!(
                "ran past {}s without a word on stderr",
                TIME_LIMIT.as_secs()
            )
        });
    }
    match (o.code, o.signal) {
        (Some(0 | 1), _) => None,
        (Some(2), _) if o.stderr_len == 0 => Some("exit 2 with nothing on stderr".into()),
        (Some(2), _) if o.stderr_len > MAX_ERROR_BYTES => {
            Some(format!("exit 2 with {} bytes on stderr", o.stderr_len))
        }
        (Some(2), _) => None,
        (Some(c), _) => Some(format!("exit {c}")),
        (None, Some(s)) => Some(format!("killed by signal {s}")),
        (None, None) => Some("no exit status".into()),
    }
}

fn show(o: &Outcome) -> String {
    let quoted: Vec<String> = o
        .args
        .iter()
        .map(|a| {
            if a.is_empty() || a.contains([' ', '"', '*', '(', ')', ',', '{']) {
                format!("'{a}'")
            } else {
                a.clone()
            }
        })
        .collect();
    let err = String::from_utf8_lossy(&o.stderr);
    let first = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let first: String = first.chars().take(200).collect();
    format!(
        "nimlab {}  [{:.1}s] {}",
        quoted.join(" "),
        o.elapsed.as_secs_f64(),
        first
    )
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// Every command of the tool, under `ulimit -v` and a time limit (issue 14). More cases:
// `NIMLAB_ROBUSTNESS_CASES=2000 cargo test --release --test tests robustness::`.
#[test]
fn extreme_invocations_end_with_exit_0_1_or_2_and_short_errors() {
    let bin = assert_cmd::cargo::cargo_bin("nimlab");
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let cases = env_number("NIMLAB_ROBUSTNESS_CASES", 160) as usize;
    let mut rng = Rng(env_number("NIMLAB_ROBUSTNESS_SEED", 0x5EED_1234_ABCD_0014) | 1);
    let mut all = invocations(&mut rng, cases);
    all.extend(claim_mutations(&mut rng, cases / 4, scratch.path()));
    all.extend(extreme_claim_files(scratch.path()));
    all.extend(REPORTED.iter().map(|line| shell_words(line)));
    let queue = Mutex::new(all.clone());
    let outcomes = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let Some(args) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let o = run(&bin, scratch.path(), &args);
                    outcomes.lock().unwrap().push(o);
                }
            });
        }
    });
    let outcomes = outcomes.into_inner().unwrap();
    assert_eq!(outcomes.len(), all.len());
    let faults: Vec<String> = outcomes
        .iter()
        .filter_map(|o| fault(o).map(|f| format!("{f}: {}", show(o))))
        .collect();
    let slow: Vec<String> = outcomes
        .iter()
        .filter(|o| o.timed_out && fault(o).is_none())
        .map(show)
        .collect();
    if !slow.is_empty() {
        eprintln!(
            "{} runs were still going at {}s (with output on stderr):\n{}",
            slow.len(),
            TIME_LIMIT.as_secs(),
            slow.join("\n")
        );
    }
    assert!(
        faults.is_empty(),
        "{} of {} runs failed:\n{}",
        faults.len(),
        outcomes.len(),
        faults.join("\n")
    );
}
