//! PreToolUse (Read, Edit, Write, ...): instincts and convictions whose `paths` globs
//! match the file, each once per session.

use anyhow::Result;
use serde_json::Value;

use super::HookCtx;
use crate::recall::render::{self, Budget};
use crate::{memo, project, recall};

pub fn run(ctx: &HookCtx) -> Result<Option<Value>> {
    let Some(file) = ctx.payload.file_path().filter(|_| !ctx.replay) else {
        return Ok(None);
    };
    let relative = ctx
        .project
        .as_ref()
        .map_or_else(|| file.to_string(), |p| project::relative_to(p, file));
    let Some((index, reader)) = ctx.index() else {
        return Ok(None);
    };
    let seen = memo::read(&ctx.paths, &ctx.sid).injected;
    let items: Vec<_> = recall::for_path(&index, &reader, &relative, file, ctx.now.timestamp())?
        .into_iter()
        .filter(|i| !seen.contains(&i.id))
        .collect();
    if items.is_empty() {
        return Ok(None);
    }
    let cfg = ctx.config();
    let budget = Budget {
        total: cfg.context.prompt_chars,
        item: cfg.context.item_chars,
    };
    let (text, ids) = render::items(
        &format!("## homunculus: memories for {relative}"),
        &items,
        budget,
    );
    ctx.remember_new(ids.clone());
    Ok(Some(ctx.inject("PreToolUse", &text, &ids)))
}
