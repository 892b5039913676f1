//! UserPromptSubmit: record the prompt (for correction mining), then answer a question
//! about past work with the project's newest sessions, or, when the gate lets the prompt
//! through, inject up to three memories it has not seen in this session.

use super::used::Sent;
use super::{Answer, HookCtx, Result};
use crate::agent::observation;
use crate::memory::{memo, usage};
use crate::recall::render::{self, Budget};
use crate::recall::{self, PromptContext, gate};
use crate::setup::config::RecallMode;

pub fn run(ctx: &HookCtx) -> Result<Option<Answer>> {
    let project = ctx.project.as_ref().map(|p| p.name.as_str());
    if let Some(obs) = observation::from_prompt(&ctx.payload, ctx.now, project) {
        ctx.record(&obs)?;
    }
    let cfg = ctx.config();
    let prompt = ctx.payload.prompt.as_deref().unwrap_or("");
    if ctx.replaying() || cfg.recall.mode == RecallMode::Off {
        return Ok(None);
    }
    // Whether a word names a topic takes the index; read leniently first, so that
    // the commonest prompts ("ok", "yes") never open it.
    let past = |topical: &dyn Fn(&str) -> bool| {
        recall::past::question(prompt, ctx.project_name(), ctx.now, topical)
    };
    let may_ask = past(&|_| false).is_some();
    // Judged once: on a pasted megabyte the gate is most of the hook's time.
    let admitted = gate::admit(prompt).is_ok();
    if !may_ask && !admitted {
        return Ok(None);
    }
    let Some((index, reader)) = ctx.index() else {
        return Ok(None);
    };
    if may_ask {
        let searcher = reader.searcher();
        if let Some(span) = past(&recall::past::topical(&index, &searcher)) {
            return past_work(ctx, &index, &reader, span);
        }
    }
    if !admitted {
        return Ok(None);
    }
    let memo = memo::read(&ctx.paths, &ctx.sid);
    let touched: Vec<String> = memo
        .recalled_files
        .iter()
        .filter_map(|f| std::path::Path::new(f).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    // Pasted output is read apart from the prose: its failure finds its memories whole.
    let reading = recall::paste::read(prompt);
    let pctx = PromptContext {
        project: ctx.project_name(),
        touched: &touched,
        exclude: &memo.injected,
        max_items: cfg.recall.max_items,
        now: ctx.now.timestamp(),
        usage: &usage::read(&ctx.paths),
        prose: reading.prose.as_deref(),
    };
    let mut items = match &reading.failure {
        Some(key) => recall::for_failure(&index, &reader, key, ctx.project_name(), pctx.now)?
            .into_iter()
            .filter(|i| !memo.injected.contains(&i.id))
            .collect(),
        None => Vec::new(),
    };
    for item in recall::prompt(&index, &reader, &reading.query, &pctx)? {
        if items.len() < cfg.recall.max_items && !items.iter().any(|i| i.id == item.id) {
            items.push(item);
        }
    }
    if items.is_empty() {
        return Ok(None);
    }
    let budget = Budget {
        total: cfg.context.prompt_chars,
        item: cfg.context.item_chars,
    };
    let header = "## homunculus: memories related to this prompt";
    let why: Vec<(String, Vec<String>)> = items
        .iter()
        .map(|i| (i.id.clone(), i.why.clone()))
        .collect();
    if cfg.recall.mode == RecallMode::Shadow {
        let (text, ids) = render::items(header, &items, budget);
        ctx.log_injection_why(&ids, text.chars().count(), "shadow", &why);
        return Ok(None);
    }
    let Some((text, ids)) = ctx.render_unsent(header, items, budget, Sent::Prompted) else {
        return Ok(None);
    };
    ctx.log_injection_why(&ids, text.chars().count(), "live", &why);
    Ok(Some(ctx.fenced("UserPromptSubmit", &text)))
}

/// "Where did we leave off": the project's newest sessions the question covers, with
/// what was asked, how each ended and what it left open.
fn past_work(
    ctx: &HookCtx,
    index: &crate::index::Index,
    reader: &tantivy::IndexReader,
    span: recall::past::Span,
) -> Result<Option<Answer>> {
    let memo = memo::read(&ctx.paths, &ctx.sid);
    let sessions = recall::past::sessions(
        index,
        reader,
        ctx.project_name(),
        span,
        memo.session_file.as_deref(),
        ctx.now.timestamp(),
        2,
    )?;
    if sessions.is_empty() {
        return Ok(None);
    }
    let cfg = ctx.config();
    let budget = Budget {
        total: cfg.context.prompt_chars,
        item: cfg.context.item_chars.max(600),
    };
    let header = format!(
        "## homunculus: where {} left off (newest session first)",
        ctx.project_name()
    );
    let (text, ids) = render::items(&header, &sessions, budget);
    if cfg.recall.mode == RecallMode::Shadow {
        ctx.log_injection(&ids, text.chars().count(), "shadow");
        return Ok(None);
    }
    let sent: Vec<&recall::Item> = sessions.iter().collect();
    if ctx.note_sent(&sent, &ids, Sent::Prompted).is_empty() {
        return Ok(None);
    }
    ctx.log_injection(&ids, text.chars().count(), "live");
    Ok(Some(ctx.fenced("UserPromptSubmit", &text)))
}
