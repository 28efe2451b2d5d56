//! The `nimlab` binary: parse, run, print the error chain, pick the exit code
//! (0 ok, 1 when `check` finds a failing claim, 2 usage or input error; clap reports its own
//! usage errors with 2).

use std::io;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = nimlab::cli::Cli::parse();
    match nimlab::cli::run(cli) {
        Ok(nimlab::cli::Status::Success) => ExitCode::SUCCESS,
        Ok(nimlab::cli::Status::ClaimsFail) => ExitCode::from(1),
        Err(err) => {
            // A closed pipe (e.g. `| head`) is not an error of ours.
            if err.chain().any(|e| {
                e.downcast_ref::<io::Error>()
                    .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
