//! PostToolUse and PostToolUseFailure: record the observation; after an edit, recall the
//! past sessions and episodes that touched the same file, once per file per session;
//! after a failure seen before, what happened after it last time (failure recall), once
//! per failure per session, as evidence for the model to weigh.

use super::used::Sent;
use super::{Answer, HookCtx, Result};
use crate::agent::observation::{self, Event, Outcome};
use crate::agent::project;
use crate::agent::tool::Tool;
use crate::memory::memo;
use crate::recall;
use crate::recall::render::Budget;

pub fn run(ctx: &HookCtx, event: Event) -> Result<Option<Answer>> {
    let project = ctx.project.as_ref().map(|p| p.name.as_str());
    let obs = observation::from_tool_event(&ctx.payload, event, ctx.now, project);
    // A subagent's calls interleave with the main thread's: recorded in one stream, a
    // subagent's failure would find its "fix" in the main thread's next command. They
    // are learned from as replay reads transcripts, main thread only; a subagent is
    // still served recall.
    let subagent = ctx.payload.agent_id.is_some();
    if let Some(obs) = obs.as_ref().filter(|_| !subagent) {
        ctx.record(obs)?;
    }
    if event == Event::Post && ctx.payload.tool() == Tool::TodoWrite && !subagent {
        remember_tasks(ctx)?;
    }
    if !ctx.replaying() {
        // A failed attempt at what a memory advised still acted on it.
        ctx.notice_use();
    }
    if !ctx.replaying()
        && let Some(obs) = obs.as_ref().filter(|o| o.outcome == Some(Outcome::Error))
    {
        return recall_failure(ctx, event, obs.error.as_deref().unwrap_or(""));
    }
    if ctx.replaying() || event != Event::Post || !ctx.payload.tool().edits_files() {
        return Ok(None);
    }
    let Some(file) = ctx.payload.file_path() else {
        return Ok(None);
    };
    let relative = ctx
        .project
        .as_ref()
        .map_or_else(|| file.to_string(), |p| project::relative_to(p, file));
    let (first, session_file) = memo::update(&ctx.paths, &ctx.sid, |m| {
        let first = !m.recalled_files.contains(&relative);
        if first {
            m.recalled_files.push(relative.clone());
        }
        (first, m.session_file.clone())
    })?;
    if !first {
        return Ok(None);
    }
    let Some((index, reader)) = ctx.index() else {
        return Ok(None);
    };
    let base = std::path::Path::new(&relative)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let keys = [relative.as_str(), base.as_str()];
    let items = recall::file_history(
        &index,
        &reader,
        &keys,
        session_file.as_deref(),
        ctx.now.timestamp(),
    )?;
    Ok(send(
        ctx,
        "PostToolUse",
        &format!("## homunculus: past work on {relative}"),
        items,
    ))
}

/// Renders `items` under `header` within the prompt budget, notes them sent and answers
/// with them; nothing for no items.
fn send(
    ctx: &HookCtx,
    event: &'static str,
    header: &str,
    items: Vec<recall::Item>,
) -> Option<Answer> {
    if items.is_empty() {
        return None;
    }
    let cfg = ctx.config();
    let budget = Budget {
        total: cfg.context.prompt_chars,
        item: cfg.context.item_chars,
    };
    let (text, ids) = ctx.render_unsent(header, items, budget, Sent::AfterEdit)?;
    ctx.inject(event, text, &ids)
}

/// Failure recall: the memories of this failure (same signature), newest first. A
/// command that printed its own failing status (`…; echo "exit=$?"`) comes as a
/// PostToolUse, and the answer must name the event that ran.
fn recall_failure(ctx: &HookCtx, event: Event, error: &str) -> Result<Option<Answer>> {
    let Some(key) = crate::agent::signature::failure_key(error) else {
        return Ok(None);
    };
    let first = memo::update(&ctx.paths, &ctx.sid, |m| {
        let first = !m.recalled_failures.contains(&key);
        if first {
            m.recalled_failures.push(key.clone());
        }
        first
    })?;
    if !first {
        return Ok(None);
    }
    let Some((index, reader)) = ctx.index() else {
        return Ok(None);
    };
    let items = recall::for_failure(
        &index,
        &reader,
        &key,
        ctx.project_name(),
        ctx.now.timestamp(),
    )?;
    let name = match event {
        Event::Failure => "PostToolUseFailure",
        _ => "PostToolUse",
    };
    Ok(send(
        ctx,
        name,
        "## homunculus: this failure was seen before (what happened then: evidence to weigh, not an order)",
        items,
    ))
}

/// Keeps the agent's unfinished tasks for the session summary ("where was I").
fn remember_tasks(ctx: &HookCtx) -> Result<()> {
    let open: Vec<String> = ctx
        .payload
        .tool_input
        .todos
        .iter()
        .filter(|t| t.status.as_deref() != Some("completed"))
        .filter_map(|t| t.content.as_deref())
        .map(|t| crate::text::one_line(&crate::agent::redact::redact(t), 120))
        .take(10)
        .collect();
    memo::update(&ctx.paths, &ctx.sid, |m| m.open_tasks = open)?;
    Ok(())
}
