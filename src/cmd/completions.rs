//! `homunculus completions <shell>`: print a completion script generated from the CLI.

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};

pub fn run(args: &CompletionsArgs) -> Result<()> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "homunculus", &mut buf);
    super::print(&String::from_utf8_lossy(&buf))
}
