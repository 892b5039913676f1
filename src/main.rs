//! The `homunculus` binary: parse, dispatch, map the result to an exit code.

use std::process::ExitCode;

use clap::Parser;
use homunculus::cli::Cli;

fn main() -> ExitCode {
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
