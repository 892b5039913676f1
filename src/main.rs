//! The `homunculus` binary: parse, dispatch, map the result to an exit code.

use std::process::ExitCode;

use clap::Parser;
use homunculus::cli::Cli;

fn main() -> ExitCode {
    // Everything we create is private to the user: folders 0700, files 0600, including
    // the files Tantivy writes.
    // SAFETY: umask only sets the process's file-creation mask; it cannot fail.
    unsafe { libc::umask(0o077) };
    // Hooks bypass argument parsing: whatever Claude Code passes, a hook exits 0 (an exit
    // code of 2 from a usage error would block the agent).
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|a| a == "hook") {
        let event = args.next().map(|e| e.to_string_lossy().into_owned());
        homunculus::cmd::run_hook(event.as_deref().unwrap_or(""));
        return ExitCode::SUCCESS;
    }
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
