//! `homunculus trust`: approve the `observer.llm_command` that `config.toml` names, so the
//! llm engine may run it. The approval is of that exact text and is kept outside the
//! memory folder: a config that changes it (a `git pull`) needs approving again.

use anyhow::Result;

use super::{Ctx, print};
use crate::setup::config::Config;
use crate::setup::trust;

pub fn run(ctx: &Ctx) -> Result<()> {
    ctx.require_memory()?;
    let command = Config::load(&ctx.paths.config())?.observer.llm_command;
    let text = if command == crate::setup::config::DEFAULT_LLM_COMMAND {
        format!("the default observer.llm_command needs no approval: {command}\n")
    } else if trust::approve(&ctx.paths, &command)? {
        format!("approved observer.llm_command: {command}\n")
    } else {
        format!("already approved: {command}\n")
    };
    print(&text)
}
