//! The `homunculus` binary: parse, dispatch, map the result to an exit code.

use std::process::ExitCode;

use clap::Parser;
use homunculus::cli::Cli;

fn main() -> ExitCode {
    // Everything we create is private to the user: folders 0700, files 0600, including
    // the files Tantivy writes.
    // SAFETY: umask only sets the process's file-creation mask; it cannot fail.
    unsafe { libc::umask(0o077) };
    if let Some(event) = homunculus::cli::hook_event(std::env::args_os()) {
        homunculus::cmd::run_hook(&event);
        return ExitCode::SUCCESS;
    }
    homunculus::cmd::completions::answer_if_asked();
    let cli = Cli::parse();
    match homunculus::cmd::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if homunculus::cmd::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
