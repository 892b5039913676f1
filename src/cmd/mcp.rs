//! `homunculus mcp`: starts the Model Context Protocol server on stdin/stdout, on the
//! memory folder and clock the environment names, in the project of the working folder.

use std::sync::Arc;

use anyhow::{Context, Result};

use super::Ctx;

pub fn run(ctx: &Ctx) -> Result<()> {
    ctx.require_memory()?;
    let env = ctx.env.clone();
    // A fixed HOMUNCULUS_NOW stays fixed; otherwise each call reads the clock afresh.
    env.now()?;
    let clock: crate::mcp::Clock = Arc::new(move || env.now().unwrap_or_default());
    let project = std::env::current_dir()
        .ok()
        .and_then(|d| crate::agent::project::of(&d.to_string_lossy()))
        .map(|p| crate::memory::projects::keyed(&ctx.paths, p).name);
    crate::mcp::serve(ctx.paths.clone(), clock, project).context("the MCP server stopped")
}
