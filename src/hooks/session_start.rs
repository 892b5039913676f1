//! SessionStart: count the session once, then inject convictions, this project's
//! instincts, the last session here and the pending count.

use super::used::Sent;
use super::{Answer, HookCtx, Result};
use crate::agent::project;
use crate::memory::identity;
use crate::memory::memo;
use crate::memory::session;
use crate::recall::render::{self, Budget};
use crate::recall::{self, StartLimits};
use crate::time::stamp;

/// Notes the session's transcript (an absolute `.jsonl` path) for the llm lenses.
pub fn remember_transcript(ctx: &HookCtx, memo: &mut memo::Memo) {
    if let Some(path) = ctx.payload.transcript_path.as_deref()
        && path.starts_with('/')
        && path.ends_with(".jsonl")
    {
        memo.transcript_path = Some(path.to_string());
    }
}

pub fn run(ctx: &HookCtx) -> Result<Option<Answer>> {
    let (first, session_file) = memo::update(&ctx.paths, &ctx.sid, |m| {
        let first = !m.counted;
        m.counted = true;
        m.started.get_or_insert_with(|| stamp(ctx.now));
        m.project = Some(ctx.project_name().to_string());
        remember_transcript(ctx, m);
        let file = m.session_file.get_or_insert_with(|| {
            let name = session::free_file_name(&ctx.paths.sessions(), ctx.now, &ctx.sid);
            format!("sessions/{name}")
        });
        (first, file.clone())
    })?;
    // A session replayed again was counted before.
    if first && ctx.replay != Some(super::Replay::Observed) {
        count(ctx, false);
    }
    if ctx.replaying() {
        return Ok(None);
    }
    let Some((index, reader)) = ctx.index() else {
        return Ok(None);
    };
    let cfg = ctx.config();
    let name = ctx.project_name();
    let mut words: Vec<&str> = name.split(['-', '_', '.']).collect();
    if let Some(p) = &ctx.project {
        words.extend(project::marker_words(&p.root));
    }
    let limits = StartLimits {
        all_up_to: cfg.context.all_instincts_up_to,
        top: cfg.context.top_instincts,
        convictions: 30,
    };
    let usage = crate::memory::usage::read(&ctx.paths);
    let start = recall::session_start(
        &index,
        &reader,
        &recall::StartContext {
            project: name,
            words: &words,
            exclude_session: Some(&session_file),
            limits,
            now: ctx.now.timestamp(),
            usage: &usage,
        },
    )?;
    // Nothing to say: say nothing.
    if start.convictions.is_empty()
        && start.instincts.is_empty()
        && start.episodes.is_empty()
        && start.last_session.is_none()
    {
        return Ok(None);
    }
    let last = start
        .last_session
        .as_ref()
        .map(|s| last_session(&ctx.paths.root.join(&s.id)))
        .unwrap_or_default();
    let budget = Budget {
        total: cfg.context.session_start_chars,
        item: cfg.context.item_chars,
    };
    let root = ctx.paths.root.display().to_string();
    let (text, ids) = render::session_start(&start, name, &root, &last, budget);
    // A resumed or compacted session is listed again; counted once.
    let sent: Vec<&recall::Item> = start
        .convictions
        .iter()
        .chain(&start.instincts)
        .chain(&start.episodes)
        .chain(&start.last_session)
        .collect();
    ctx.note_sent(&sent, &ids, Sent::Listed);
    Ok(ctx.inject("SessionStart", text, &ids))
}

/// How the last session ended and what it left open, read from its summary file.
fn last_session(file: &std::path::Path) -> session::Ending {
    let Some(bytes) = crate::fsutil::read_tail(file, 64 * 1024) else {
        return session::Ending::default();
    };
    session::ending(&String::from_utf8_lossy(&bytes))
}

/// Whether this session start should start a watcher: configured (the default), not a
/// replay, and none holds the folder's watch lock (one try of a file lock).
pub fn wants_watcher(ctx: &HookCtx) -> bool {
    !ctx.replaying() && ctx.config().index.watch && !crate::index::sync::watch_running(&ctx.paths)
}

/// Counts the session in identity.json. The count is bookkeeping: a busy or broken
/// identity.json is logged, the memory is injected all the same, and the session's
/// next Stop tries again (the memo says it is not counted yet).
pub(super) fn count(ctx: &HookCtx, retry: bool) {
    let counted = identity::update_within(&ctx.paths, crate::memory::memo::WAIT, |identity| {
        identity.count_session(ctx.now)
    });
    let pending = counted.is_err();
    if let Err(e) = counted {
        ctx.log(&format!("session not counted yet: {e}"));
    }
    if pending || retry {
        let _ = memo::update(&ctx.paths, &ctx.sid, |m| m.count_pending = pending);
    }
}
