//! The `nimlab` command line: clap structs, validated into library calls. One file per command
//! group; rendering goes through [`crate::export`], I/O through `output`.

mod args;
mod candy;
mod cash;
mod check;
mod completions;
mod discover;
pub mod guard;
mod mine;
mod octal;
mod output;
mod prove;
mod report;
mod scoring;
mod study;
mod sweep;

use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use crate::progress::Progress;

const EXAMPLES: &str = "\
Examples:
  nimlab scoring payoff 5 4 2                 exact payoff f_N(5,4,2) as a PWL function of N
  nimlab scoring moves 5 4 2                  optimal moves on every piece of the N-line
  nimlab scoring line 5 4 2 --bonus 3         an optimal line of play at N = 3
  nimlab scoring limits 5 4 2                 c+, c-, P+/P- membership
  nimlab scoring table --heaps 3 --max-heap 10 --bonus=-40..40 --format csv
  nimlab scoring family \"2k+1,2k,1\" --k 1..12
  nimlab octal values --subtract 4,5 --max-heap 200 --format csv
  nimlab octal value --rules 0.26 7 5         G_s of the sum 7 +ℓ 5 under 0.26
  nimlab octal period --subtract 4,5          least preperiod and period, PROVEN or OBSERVED
  nimlab octal survey --subtract-subsets-of 1..12 --format csv
  nimlab candy value 31 42 53                 V = N_L - N_W with an optimal line
  nimlab candy table --heaps 3 --max-heap 256 --format csv
  nimlab candy family \"31,32m,32m+31\" --m 1..64
  nimlab cash winner --set 1,3,4 14 9 9        winner of (n; d, e) and the theorem that decides it
  nimlab cash thresholds --set 3,5,6,10,11 --max-n 300 --format csv
  nimlab mine sequence --csv f.csv --index n --value f1   periodic-linear closed form of a column
  nimlab check data/claims/candy-nim.toml     a verdict for every claim of the paper
  nimlab study new zigzag                     a starter study (one TOML file) for your own question";

/// The version with the commit it was built from (see build.rs), e.g. `0.1.0 (commit 5a4243d1b2c3)`.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("NIMLAB_COMMIT"),
    ")"
);

/// Exact values, closed forms and verdicts for scoring variants of Nim.
#[derive(Debug, Parser)]
#[command(name = "nimlab", version = VERSION, about, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Scoring Nim (Oginuma–Shinoda): exact payoffs f_N(p) as functions of the bonus N.
    #[command(subcommand)]
    Scoring(scoring::ScoringCommand),
    /// Stewart's scoring octal games: G_s values, sequences, periods, outcomes, surveys.
    #[command(subcommand)]
    Octal(octal::OctalCommand),
    /// Candy Nim: how many candies the loser of a Nim game can take (V = N_L − N_W).
    #[command(subcommand)]
    Candy(candy::CandyCommand),
    /// NIM with Cash: winners, win tables, money thresholds and classifications.
    #[command(subcommand)]
    Cash(cash::CashCommand),
    /// Closed forms in tables: least period, preperiod and per-residue lines (OBSERVED).
    #[command(subcommand)]
    Mine(mine::MineCommand),
    /// Closed forms across a whole space of families, re-verified and ranked by novelty.
    #[command(subcommand)]
    Discover(discover::DiscoverCommand),
    /// Verdicts for the claims of claim files: HOLDS, PROVEN, FAILS, AMBIGUOUS or OPEN.
    Check(check::CheckArgs),
    /// Studies: your own question as one TOML file — tables, mining, claims, figures, prose.
    #[command(subcommand)]
    Study(study::StudyCommand),
    /// Prove closed forms for every parameter (family induction, SMT solver).
    Prove(prove::ProveArgs),
    /// Render the research reports (Markdown, LaTeX, CSV, SVG) into reports/, or check them.
    Report(report::ReportArgs),
    /// Join the shards of a survey (`--shard I/N -o FILE`) in order, checking their manifests.
    #[command(
        after_help = "Examples:\n  nimlab merge part-*.csv -o survey.csv\n  nimlab octal survey --subtract-subsets-of 1..20 --shard 3/8 -o part-3.csv   one shard (0-based)\n\nEvery FILE needs its FILE.manifest.json; the shards must come from one sweep (same nimlab, commit and arguments), each shard 0..N-1 exactly once, with the bytes their manifests record. The survey's summary goes to stderr."
    )]
    Merge(sweep::MergeArgs),
    /// Shell completions (bash, zsh, fish, elvish or powershell) on standard output.
    Completions(completions::CompletionsArgs),
    /// The manual page (roff) on standard output, or one page per command into a directory.
    Man(completions::ManArgs),
}

/// The memory cap of a run that sets no `--memory-limit`: the default of the commands that have
/// the option, well under the 24 GiB of the machines nimlab is tested on.
const DEFAULT_MEMORY_CAP: u64 = 8 << 30;

/// Parses the command line (exiting with clap's message and status 2 on a usage error) and caps
/// the process's memory at the command's `--memory-limit`, or `DEFAULT_MEMORY_CAP`.
pub fn parse() -> Cli {
    let matches = Cli::command().get_matches();
    // `--memory-limit` belongs to the innermost subcommand that declares it; clap has parsed it
    // already (as bytes), so read the typed value rather than the text.
    let mut cap = DEFAULT_MEMORY_CAP;
    let mut level = Some(&matches);
    while let Some(m) = level {
        if let Ok(Some(&bytes)) = m.try_get_one::<u64>("memory_limit") {
            cap = bytes;
        }
        level = m.subcommand().map(|(_, sub)| sub);
    }
    guard::set_memory_cap(cap);
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// How a successful run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything asked for was done (and every claim checked passed).
    Success,
    /// Some claim FAILS, or `report --check` found stale reports (exit code 1).
    ClaimsFail,
}

/// Runs a parsed command line. An error message that would echo a huge input (a list of a
/// million heaps, a long expression) is cut to a readable excerpt.
pub fn run(cli: Cli) -> anyhow::Result<Status> {
    run_command(cli).map_err(|e| {
        let message = format!("{e:#}");
        if message.len() <= MAX_MESSAGE_LINE {
            e
        } else {
            anyhow::anyhow!(shorten_message(&message))
        }
    })
}

/// Longest line of an error message shown whole.
const MAX_MESSAGE_LINE: usize = 2000;

/// Longest word (a run without spaces, e.g. a list `[1,2,3,…]`) shown whole.
const MAX_MESSAGE_WORD: usize = 80;

/// Elements of a long list shown before `… (N more)`.
const LIST_HEAD: usize = 8;

/// A message with every overlong word cut to an excerpt (a list to its first elements and how
/// many more) and every line still too long cut in the middle, keeping its end (which says what
/// to do).
fn shorten_message(message: &str) -> String {
    message
        .lines()
        .map(|line| {
            let words: Vec<String> = line.split(' ').map(shorten_word).collect();
            let line = words.join(" ");
            let chars: Vec<char> = line.chars().collect();
            if chars.len() <= MAX_MESSAGE_LINE {
                return line;
            }
            let (head, tail) = (MAX_MESSAGE_LINE / 2, MAX_MESSAGE_LINE / 4);
            format!(
                "{} … ({} more characters) … {}",
                chars[..head].iter().collect::<String>(),
                chars.len() - head - tail,
                chars[chars.len() - tail..].iter().collect::<String>()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A word of a message, or its excerpt when it is too long.
fn shorten_word(word: &str) -> String {
    let count = word.chars().count();
    if count <= MAX_MESSAGE_WORD {
        return word.to_string();
    }
    // Closing brackets, quotes and punctuation are kept: they end the sentence around the value.
    let close: String = word
        .chars()
        .rev()
        .take_while(|c| matches!(c, ']' | ')' | '}' | '\'' | '`' | '"' | ':' | '.' | ';'))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let sep = [',', ';'].into_iter().find(|&c| word.contains(c));
    match sep {
        Some(sep) => {
            let parts: Vec<&str> = word.split(sep).collect();
            let head: Vec<&str> = parts.iter().take(LIST_HEAD).copied().collect();
            let head = head.join(&sep.to_string());
            // A list of long elements is cut by characters too.
            let head = if head.chars().count() > MAX_MESSAGE_WORD {
                head.chars().take(MAX_MESSAGE_WORD).collect()
            } else {
                head
            };
            format!(
                "{head}{sep}… ({} more){close}",
                parts.len().saturating_sub(LIST_HEAD)
            )
        }
        None => {
            let head: String = word.chars().take(MAX_MESSAGE_WORD / 2).collect();
            format!(
                "{head}… ({} more characters){close}",
                count - MAX_MESSAGE_WORD / 2
            )
        }
    }
}

fn run_command(cli: Cli) -> anyhow::Result<Status> {
    let done = match cli.command {
        Command::Scoring(cmd) => scoring::run(cmd),
        Command::Octal(cmd) => octal::run(cmd),
        Command::Candy(cmd) => candy::run(cmd),
        Command::Cash(cmd) => cash::run(cmd),
        Command::Discover(cmd) => discover::run(cmd),
        Command::Study(cmd) => {
            return Ok(if study::run(cmd)? {
                Status::Success
            } else {
                Status::ClaimsFail
            });
        }
        Command::Mine(cmd) => {
            return Ok(if mine::run(cmd)? {
                Status::Success
            } else {
                Status::ClaimsFail
            });
        }
        Command::Report(args) => {
            return Ok(if report::run(args)? {
                Status::Success
            } else {
                Status::ClaimsFail
            });
        }
        Command::Merge(args) => sweep::run_merge(args),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
        Command::Prove(args) => {
            return Ok(if prove::run(args)? {
                Status::Success
            } else {
                Status::ClaimsFail
            });
        }
        Command::Check(args) => {
            return Ok(if check::run(args)? {
                Status::Success
            } else {
                Status::ClaimsFail
            });
        }
    };
    done.map(|()| Status::Success)
}

/// How long a run goes before progress is reported as lines (when stderr is not a terminal).
const FIRST_PROGRESS_LINE: Duration = Duration::from_secs(3);
/// How often such a line repeats.
const PROGRESS_LINE_EVERY: Duration = Duration::from_secs(10);

/// Whether the environment asks for errors alone on stderr (`NIMLAB_PROGRESS=never`): every
/// progress line and notice of every command follows this one switch.
fn progress_silenced() -> bool {
    std::env::var_os("NIMLAB_PROGRESS").is_some_and(|v| v == "never")
}

/// A progress bar on stderr for long runs, with the elapsed time and an estimate of the time
/// left. On a terminal it redraws in place; otherwise (a log file, a pipe, a batch job) a run
/// that lasts longer than [`FIRST_PROGRESS_LINE`] prints one plain line every
/// [`PROGRESS_LINE_EVERY`], so nothing long ever runs silently. Short runs print nothing, and
/// so does every run when the environment sets `NIMLAB_PROGRESS=never` (scripts and tests that
/// want stderr for errors alone).
fn progress_bar(len: u64, what: &str, unit: &str) -> ProgressBar {
    if progress_silenced() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} {{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, \
             about {{eta}} left"
        ))
        .expect("valid template")
        .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    if pb.is_hidden() {
        report_in_lines(&pb, unit);
    }
    pb
}

/// Prints `pb`'s state as a line on stderr now and then until it is finished or dropped.
fn report_in_lines(pb: &ProgressBar, unit: &str) {
    let bar = pb.downgrade();
    let unit = unit.to_string();
    // Without a thread the line reporter is only missing output; the run itself goes on.
    let _ = std::thread::Builder::new()
        .name("progress".into())
        .spawn(move || {
            std::thread::sleep(FIRST_PROGRESS_LINE);
            while let Some(pb) = bar.upgrade() {
                if pb.is_finished() {
                    break;
                }
                eprintln!("{}", progress_line(&pb, &unit));
                drop(pb);
                std::thread::sleep(PROGRESS_LINE_EVERY);
            }
        });
}

/// One plain progress line, e.g. `solving: 1200/5000 positions (24%), 31s elapsed, about 1m 38s left`.
fn progress_line(pb: &ProgressBar, unit: &str) -> String {
    let pos = pb.position();
    let elapsed = pb.elapsed();
    match pb.length().filter(|&len| len > 0) {
        Some(len) => {
            let left = if pos == 0 {
                "time left unknown".to_string()
            } else {
                let secs = elapsed.as_secs_f64() * (len.saturating_sub(pos)) as f64 / pos as f64;
                format!("about {} left", seconds(secs))
            };
            format!(
                "{}: {pos}/{len} {unit} ({}%), {} elapsed, {left}",
                pb.message(),
                pos.saturating_mul(100) / len,
                seconds(elapsed.as_secs_f64()),
            )
        }
        None => format!(
            "{}: {pos} {unit}, {} elapsed",
            pb.message(),
            seconds(elapsed.as_secs_f64())
        ),
    }
}

/// A duration for people: `42s`, `3m 07s`, `2h 05m`.
fn seconds(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

/// A progress bar as the library's [`Progress`]: the total is its length, finished work its
/// position, and a stage its message.
struct Bar<'a>(&'a ProgressBar);

impl Progress for Bar<'_> {
    fn start(&self, total: u64) {
        self.0.set_length(total);
    }
    fn add_work(&self, n: u64) {
        self.0.inc_length(n);
    }
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }
    fn stage(&self, what: &str) {
        self.0.set_message(what.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_state_the_share_done_and_the_time_left() {
        let pb = ProgressBar::hidden();
        pb.set_length(200);
        pb.set_message("solving");
        assert!(progress_line(&pb, "positions").starts_with("solving: 0/200 positions (0%)"));
        assert!(progress_line(&pb, "positions").ends_with("time left unknown"));
        pb.set_position(50);
        let line = progress_line(&pb, "positions");
        assert!(
            line.starts_with("solving: 50/200 positions (25%), "),
            "{line}"
        );
        assert!(line.contains(" left"), "{line}");
        let open = ProgressBar::hidden();
        open.set_message("surveying");
        open.set_length(0);
        assert!(progress_line(&open, "sets").starts_with("surveying: 0 sets, "));
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(seconds(0.4), "0s");
        assert_eq!(seconds(59.0), "59s");
        assert_eq!(seconds(187.0), "3m 07s");
        assert_eq!(seconds(7500.0), "2h 05m");
    }

    #[test]
    fn huge_values_in_messages_are_cut_to_excerpts() {
        let list: Vec<String> = (1..=200_000).rev().map(|h| h.to_string()).collect();
        let message = format!(
            "the table of all positions below [{}] would need 9 TiB; use smaller heaps",
            list.join(",")
        );
        let short = shorten_message(&message);
        assert_eq!(
            short,
            "the table of all positions below [200000,199999,199998,199997,199996,199995,199994,199993,… (199992 more)] would need 9 TiB; use smaller heaps"
        );
        let word = "3".repeat(100_000);
        let short = shorten_message(&format!("--rules: `0.{word}`: too long"));
        assert!(short.len() < 200, "{short}");
        assert!(
            short.contains("more characters") && short.ends_with(": too long"),
            "{short}"
        );
        // Many short words: the line is cut in the middle, its end kept.
        let many = format!("{} end", "ab ".repeat(10_000));
        let short = shorten_message(&many);
        assert!(
            short.len() < 2 * MAX_MESSAGE_LINE && short.ends_with(" end"),
            "{short}"
        );
    }
}
