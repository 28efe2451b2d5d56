//! The `nimlab` command line: clap structs, validated into library calls. One file per command
//! group; rendering goes through [`crate::export`], I/O through [`output`].

mod args;
mod output;
mod scoring;

use clap::{Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  nimlab scoring payoff 5 4 2                 exact payoff f_N(5,4,2) as a PWL function of N
  nimlab scoring moves 5 4 2                  optimal moves on every piece of the N-line
  nimlab scoring line 5 4 2 --bonus 3         an optimal line of play at N = 3
  nimlab scoring limits 5 4 2                 c+, c-, P+/P- membership
  nimlab scoring table --heaps 3 --max-heap 10 --bonus=-40..40 --format csv
  nimlab scoring family \"2k+1,2k,1\" --k 1..12";

/// Exact values, closed forms and verdicts for scoring variants of Nim.
#[derive(Debug, Parser)]
#[command(name = "nimlab", version, about, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Scoring Nim (Oginuma–Shinoda): exact payoffs f_N(p) as functions of the bonus N.
    #[command(subcommand)]
    Scoring(scoring::ScoringCommand),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Scoring(cmd) => scoring::run(cmd),
    }
}
