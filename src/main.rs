//! The `nimlab` binary: parse, run, print the error chain, pick the exit code
//! (0 ok, 1 when `check` finds a failing claim, 2 usage or input error; clap reports its own
//! usage errors with 2). No input ends the process any other way: memory is capped and counted
//! (see [`nimlab::app::GuardedAlloc`]), the work runs on a thread with a large stack, and a panic — a
//! bug of ours — is reported as an internal error with status 2, not Rust's 101.

use std::io;
use std::process::ExitCode;

use nimlab::app::GuardedAlloc;

#[global_allocator]
static ALLOCATOR: GuardedAlloc = GuardedAlloc;

/// Stack of the thread that runs the command. Recursive solvers grow their own stacks
/// (`stacker`); this covers the rest (parsers, drops of deep values) with room to spare.
const STACK_BYTES: usize = 256 << 20;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "error: internal error, a bug in nimlab (please report it with the command line): {info}"
        );
    }));
    nimlab::app::on_out_of_memory(nimlab::io::remove_in_flight);
    let cli = nimlab::app::parse();
    let worker = std::thread::Builder::new()
        .name("nimlab".into())
        .stack_size(STACK_BYTES)
        .spawn(move || nimlab::app::run(cli));
    let outcome = match worker {
        Ok(handle) => handle.join(),
        Err(err) => {
            eprintln!("error: cannot start the worker thread: {err}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(Ok(nimlab::app::Status::Success)) => ExitCode::SUCCESS,
        Ok(Ok(nimlab::app::Status::ClaimsFail)) => ExitCode::from(1),
        Ok(Err(err)) => {
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
        // The panic hook has printed the message.
        Err(_) => ExitCode::from(2),
    }
}
