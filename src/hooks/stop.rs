//! Stop, SessionEnd and PreCompact: refresh this session's summary (one file per session,
//! updated in place), link it to the previous session of the project, and note the
//! time. They never inject and never block.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::{Answer, HookCtx, Outcome, Result};
use crate::agent::hook_event::HookEvent;
use crate::agent::observation;
use crate::memory::identity;
use crate::memory::memo;
use crate::memory::session;
use crate::memory::tally::Tally;
use crate::memory::{Store, stem};
use crate::observer;
use crate::time::stamp;

/// Stop, SessionEnd and PreCompact (`ctx.event`).
pub fn run(ctx: &HookCtx) -> Result<Outcome> {
    let stop = ctx.event == HookEvent::Stop;
    // A Stop hook that blocked keeps the turn going; doing the work again would loop.
    if stop && ctx.payload.stop_hook_active {
        return Ok(Outcome::default());
    }
    // The transcript's tail says how the session ended (and how full the context is).
    // Replay reads it once, at the end.
    let tail = (!ctx.replaying() || ctx.event == HookEvent::SessionEnd)
        .then(|| transcript_tail(ctx))
        .flatten();
    let answer = tail
        .as_deref()
        .and_then(crate::agent::transcript::last_answer);
    // Claude Code sends no hook for `!` shell mode: what the user ran is in the transcript.
    super::user_shell::record(ctx);
    let m = memo::update(&ctx.paths, &ctx.sid, |m| {
        if stop {
            m.turns += 1;
        }
        if answer.is_some() {
            m.last_answer = answer.clone();
        }
        let started = m.started.get_or_insert_with(|| stamp(ctx.now));
        let started = crate::time::parse(started).unwrap_or(ctx.now);
        super::session_start::remember_transcript(ctx, m);
        // Only what was logged since the last Stop is read.
        let tally = m.tally.get_or_insert_with(Tally::default);
        let read = observation::since(&ctx.paths, &ctx.sid, tally.read_to, tally.head);
        tally.extend(read);
        m.session_file.get_or_insert_with(|| {
            let name = session::free_file_name(&ctx.paths.sessions(), started, &ctx.sid);
            format!("sessions/{name}")
        });
        m.clone()
    })?;
    if m.count_pending && !ctx.replaying() {
        super::session_start::count(ctx, true);
    }
    // Replay writes the summary once, at the session's end, not at every turn.
    if ctx.replaying() && stop {
        return Ok(Outcome::default());
    }
    let relative = m.session_file.clone().unwrap_or_default();
    let path = ctx.paths.root.join(&relative);
    let started = m
        .started
        .as_deref()
        .and_then(crate::time::parse)
        .unwrap_or(ctx.now);
    // Replay knows the previous session of the project; a live session asks the index.
    let continues_from = if path.exists() {
        None
    } else if ctx.replaying() {
        m.continues_from.clone()
    } else {
        previous_session(ctx, &relative, started)
    };
    let tally = m.tally.clone().unwrap_or_default();
    let facts = tally.facts(ctx.project.as_ref());
    let title = m
        .title
        .as_deref()
        .or(tally.first_request.as_deref())
        .map(|t| crate::agent::redact::mask_emails(t).into_owned());
    let who = session::Identity {
        session_id: ctx.payload.session_id.as_deref().unwrap_or(&ctx.sid),
        project: ctx.project_name(),
        directory: ctx.payload.cwd.as_deref().unwrap_or(""),
        started,
        continues_from: continues_from.as_deref(),
        title: title.as_deref(),
        open_tasks: &m.open_tasks,
    };
    let store = Store::impatient(&ctx.paths, Duration::from_millis(50));
    session::write(&store, path, &who, &facts, m.turns, ctx.now)?;
    if let Err(e) = identity::update_within(&ctx.paths, crate::memory::memo::WAIT, |identity| {
        identity.note_session(ctx.now)
    }) {
        ctx.log(&format!("last_session not recorded: {e}"));
    }
    if ctx.replaying() {
        return Ok(Outcome::default());
    }
    let mut outcome = start_observer(ctx, m.clear_advised);
    // At the end, the user (not the model) hears what the agent left unfinished.
    if ctx.event == HookEvent::SessionEnd && !m.open_tasks.is_empty() {
        let list: Vec<String> = m.open_tasks.iter().map(|t| format!("  - {t}")).collect();
        outcome.answer = Some(Answer::SystemMessage(format!(
            "homunculus: this session left {} task(s) open:\n{}",
            list.len(),
            list.join("\n")
        )));
    }
    Ok(outcome)
}

/// Context use thresholds (from Nous): below 10% a session has taught nothing yet;
/// from 70% there is no room for an LLM run (the builtin engine only); from 85% the
/// user hears, once, that a /clear is wise.
const QUIET_BELOW: f64 = 10.0;
const FLUSH_ONLY_FROM: f64 = 70.0;
const ADVISE_CLEAR_FROM: f64 = 85.0;

/// Whether the observer is due (it is started detached by the caller), and the one-time
/// advice to clear, if it is time for it.
fn start_observer(ctx: &HookCtx, advised: bool) -> Outcome {
    let mut outcome = Outcome::default();
    let config = ctx.config();
    let used = context_used(ctx);
    let stop = ctx.event == HookEvent::Stop;
    if stop && used.is_some_and(|u| u < QUIET_BELOW) {
        return outcome;
    }
    if observer::is_due(&ctx.paths, config, ctx.now) {
        outcome.observe = Some(used.is_some_and(|u| u >= FLUSH_ONLY_FROM));
    }
    if stop && !advised && used.is_some_and(|u| u >= ADVISE_CLEAR_FROM) {
        let _ = memo::update(&ctx.paths, &ctx.sid, |m| m.clear_advised = true);
        outcome.answer = Some(Answer::SystemMessage(
            "homunculus: the context is over 85% full and what this session taught is saved; a /clear now is wise.".into(),
        ));
    }
    outcome
}

/// The session's latest context use: from the status-line log when it logs, else from
/// the tail of the transcript (the last 256 KiB: the latest response is near the end).
fn context_used(ctx: &HookCtx) -> Option<f64> {
    let logged = std::fs::read_to_string(ctx.paths.logs().join("activity.jsonl"))
        .ok()
        .and_then(|text| {
            text.lines().rev().find_map(|line| {
                let v: Value = serde_json::from_str(line).ok()?;
                (v.get("session_id")?.as_str()? == ctx.sid)
                    .then(|| v.get("used_percentage")?.as_f64())?
            })
        });
    logged.or_else(|| crate::agent::transcript::context_used(&transcript_tail(ctx)?))
}

/// The last 256 KiB of the session's transcript (the latest response is near the end);
/// nothing for a path that is not an absolute regular file.
fn transcript_tail(ctx: &HookCtx) -> Option<String> {
    let path = ctx
        .payload
        .transcript_path
        .as_deref()
        .filter(|p| p.starts_with('/'))?;
    let tail = crate::fsutil::read_tail(std::path::Path::new(path), 256 * 1024)?;
    Some(String::from_utf8_lossy(&tail).into_owned())
}

/// The newest summary of the same project that started before this session did.
fn previous_session(ctx: &HookCtx, own: &str, started: DateTime<Utc>) -> Option<String> {
    let (index, reader) = ctx.index()?;
    let last = crate::recall::last_session(
        &index,
        &reader,
        ctx.project_name(),
        Some(own),
        Some(started.timestamp()),
        ctx.now.timestamp(),
    );
    last.ok()?.map(|s| stem(std::path::Path::new(&s.id)))
}
