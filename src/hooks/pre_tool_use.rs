//! PreToolUse: censors first (a `censor: block` conviction denies the call with itself
//! as the reason; `censor: warn` items are injected as warnings), then, for file tools,
//! instincts and convictions whose `paths` globs match the file, each once per session.

use super::used::Sent;
use super::{Answer, HookCtx, Result};
use crate::agent::project;
use crate::memory::memo;
use crate::recall;
use crate::recall::render::{self, Budget};
use crate::recall::{Item, Verdict};

pub fn run(ctx: &HookCtx) -> Result<Option<Answer>> {
    if ctx.replaying() {
        return Ok(None);
    }
    let file = ctx.payload.file_path();
    let command = ctx.payload.tool_input.command.as_deref();
    if file.is_none() && command.is_none() {
        return Ok(None);
    }
    let relative = file.map(|f| {
        ctx.project
            .as_ref()
            .map_or_else(|| f.to_string(), |p| project::relative_to(p, f))
    });
    let Some((index, reader)) = ctx.index() else {
        return Ok(None);
    };
    let now = ctx.now.timestamp();
    let paths = relative.as_deref().zip(file);
    let fired = recall::censors(&index, &reader, command, paths, now)?;
    if let Some((item, _)) = fired.iter().find(|(_, v)| *v == Verdict::Block) {
        ctx.log_injection(std::slice::from_ref(&item.id), item.action.len(), "block");
        return Ok(Some(Answer::Deny {
            reason: format!("homunculus conviction {}: {}", item.name, item.action),
        }));
    }
    let cfg = ctx.config();
    let budget = Budget {
        total: cfg.context.prompt_chars,
        item: cfg.context.item_chars,
    };
    let seen = memo::read(&ctx.paths, &ctx.sid).path_fired;
    let warnings: Vec<Item> = fired.into_iter().map(|(item, _)| item).collect();
    let mut items: Vec<Item> = match (&relative, file) {
        (Some(rel), Some(abs)) => recall::for_path(&index, &reader, rel, abs, now)?,
        _ => Vec::new(),
    };
    items.retain(|i| !seen.contains(&i.id) && !warnings.iter().any(|w| w.id == i.id));
    let mut text = String::new();
    let mut ids = Vec::new();
    if !warnings.is_empty() {
        // Warnings repeat: they guard every matching call, not just the first.
        let (t, w) = render::items(
            "## homunculus warning (a censor matched this call)",
            &warnings,
            budget,
        );
        text.push_str(&t);
        ids.extend(w);
    }
    if !items.is_empty() {
        let target = relative.as_deref().unwrap_or("this call");
        let header = format!("## homunculus: memories for {target}");
        if let Some((t, new)) = ctx.render_unsent(&header, items, budget, Sent::ForPath) {
            text.push_str(&t);
            ids.extend(new);
        }
    }
    if ids.is_empty() {
        return Ok(None);
    }
    Ok(ctx.inject("PreToolUse", text, &ids))
}
