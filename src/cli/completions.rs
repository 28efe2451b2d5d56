//! `nimlab completions SHELL` and `nimlab man`: shell completions and the manual page, generated
//! from the clap definition itself so they can never disagree with the options the binary takes.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{Args, CommandFactory};

use super::Cli;

/// Arguments of `nimlab completions`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  nimlab completions bash > ~/.local/share/bash-completion/completions/nimlab\n  nimlab completions zsh > ~/.zfunc/_nimlab\n  nimlab completions fish > ~/.config/fish/completions/nimlab.fish"
)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, value_name = "SHELL")]
    shell: clap_complete::Shell,
}

/// Arguments of `nimlab man`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  nimlab man | man -l -\n  nimlab man -o man/        (nimlab.1, nimlab-scoring.1, nimlab-scoring-payoff.1, …)"
)]
pub struct ManArgs {
    /// Write one page per command (nimlab.1, nimlab-scoring-payoff.1, …) into DIR instead of the
    /// top-level page to standard output.
    #[arg(short = 'o', long = "output-dir", value_name = "DIR")]
    output_dir: Option<PathBuf>,
}

/// Writes the completion script to standard output.
pub fn completions(a: CompletionsArgs) -> anyhow::Result<()> {
    // Generated into memory first: clap_complete panics on a write error such as a closed pipe.
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "nimlab", &mut script);
    write_stdout(&script)
}

/// Writes the manual page(s).
pub fn man(a: ManArgs) -> anyhow::Result<()> {
    let cmd = Cli::command();
    match &a.output_dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut page)?;
            write_stdout(&page)
        }
        Some(dir) => write_pages(cmd, dir),
    }
}

/// One page per command and subcommand, named by its path (`nimlab-scoring-payoff.1`).
fn write_pages(cmd: clap::Command, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut cmd = cmd;
    cmd.build();
    let mut stack = vec![cmd];
    while let Some(cmd) = stack.pop() {
        let name = cmd.get_display_name().unwrap_or(cmd.get_name()).to_string();
        let path = dir.join(format!("{name}.1"));
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd.clone()).render(&mut page)?;
        std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))?;
        stack.extend(
            cmd.get_subcommands()
                .filter(|c| c.get_name() != "help")
                .cloned(),
        );
    }
    Ok(())
}

fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(())
}
