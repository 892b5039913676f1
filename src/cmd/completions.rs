//! `homunculus completions <shell>`: print the script that registers completion with a
//! shell. Completion is dynamic: the shell asks the binary (with
//! `HOMUNCULUS_COMPLETE=<shell>` set), so `feedback` completes the instinct names in
//! the memory as it is now.

use anyhow::{Result, anyhow};
use clap::CommandFactory;
use clap_complete::env::Shells;

use crate::cli::{Cli, CompletionsArgs};

/// The variable that makes the binary answer a completion request.
pub const COMPLETE_VAR: &str = "HOMUNCULUS_COMPLETE";

/// Answers a completion request and exits, when the shell made one: the variable set
/// *and* the words to complete after `--`. The variable alone (left exported in a
/// shell by mistake) would otherwise make every command print the registration script.
pub fn answer_if_asked() {
    if std::env::args_os().nth(1).is_some_and(|a| a == "--") {
        clap_complete::CompleteEnv::with_factory(Cli::command)
            .var(COMPLETE_VAR)
            .complete();
    }
}

pub fn run(args: &CompletionsArgs) -> Result<()> {
    let name = args.shell.to_string();
    let shells = Shells::builtins();
    let shell = shells
        .completer(&name)
        .ok_or_else(|| anyhow!("no dynamic completion for {name}"))?;
    let bin = super::binary_path()?;
    let mut buf = Vec::new();
    shell.write_registration(COMPLETE_VAR, "homunculus", "homunculus", &bin, &mut buf)?;
    super::print(&String::from_utf8_lossy(&buf))
}
