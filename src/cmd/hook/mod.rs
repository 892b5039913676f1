//! `homunculus hook <event>`: the entry point Claude Code runs for every hook. It fails
//! open: any error or panic is logged to `logs/hooks.log`, nothing but protocol JSON is
//! ever printed, and the exit code is always 0. With `HOMUNCULUS_OBSERVER=1` (our own
//! observer's `claude` child) it does nothing at all.
//!
//! What a hook may do (it runs inside the agent's loop, on every tool call):
//! - wait for a lock only briefly: `FileLock::try_acquire_for` with a few milliseconds,
//!   never `FileLock::acquire`; when busy, log and move on;
//! - build a missing index only up to `HOOK_INDEX_BUILD_LIMIT` items, and sync only the
//!   journaled changes (`sync::Mode::Bounded`);
//! - never read every pending observation file: `observer::is_due` stops counting at the
//!   threshold;
//! - never start the observer or anything slow in the foreground: `Stop` spawns it
//!   detached, in its own process group;
//! - print only through `run`, once, as one JSON object.

mod post_tool_use;
mod pre_tool_use;
mod session_start;
mod stop;
mod used;
mod user_prompt_submit;

use std::io::{Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use tantivy::IndexReader;

use crate::capture::hook_event::HookEvent;
use crate::capture::observation;
use crate::capture::payload::Payload;
use crate::capture::project::{self, Project};
use crate::env::Env;
use crate::index::{Index, sync};
use crate::log;
use crate::paths::Paths;
use crate::setup::config::Config;
use crate::setup::layout;

/// The most payload a hook reads into memory; the rest is drained and the event skipped.
const MAX_PAYLOAD: usize = 64 * 1024 * 1024;
/// Up to this many item files, a hook may build a missing index itself.
const HOOK_INDEX_BUILD_LIMIT: usize = 2_000;

/// Everything one hook invocation knows.
pub struct HookCtx {
    pub paths: Paths,
    pub now: DateTime<Utc>,
    pub payload: Payload,
    /// The session id, safe as a file name.
    pub sid: String,
    pub project: Option<Project>,
    pub event: HookEvent,
    /// Replaying a recorded session: record only; inject nothing, start nothing.
    pub replay: Option<Replay>,
}

/// How a replayed event is recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    /// Its observation line is new.
    New,
    /// The observations already hold it (replayed before `state/` was lost): everything
    /// but the observation line.
    Observed,
}

impl HookCtx {
    pub fn replaying(&self) -> bool {
        self.replay.is_some()
    }

    /// Appends an observation line, unless a replay found it already recorded.
    pub fn record(&self, obs: &observation::Observation) -> Result<(), crate::fsutil::PathError> {
        if self.replay == Some(Replay::Observed) {
            return Ok(());
        }
        observation::append(&self.paths, obs)
    }

    pub fn config(&self) -> Config {
        Config::load(&self.paths.config()).unwrap_or_default()
    }

    pub fn project_name(&self) -> &str {
        self.project.as_ref().map_or("unknown", |p| p.name.as_str())
    }

    /// The index after a bounded sync (journaled changes only), or `None` when there is
    /// none a hook may build in its time budget.
    pub fn index(&self) -> Option<(Index, IndexReader)> {
        let index = match Index::open_current(&self.paths) {
            Some(index) => index,
            None if item_count(&self.paths) <= HOOK_INDEX_BUILD_LIMIT => {
                let (index, _) =
                    crate::index::open_synced(&self.paths, self.now.timestamp()).ok()?;
                index
            }
            None => {
                self.log("no search index yet; run `homunculus reindex`");
                return None;
            }
        };
        if let Err(e) = sync::sync(
            &index,
            &self.paths,
            sync::Mode::Bounded,
            self.now.timestamp(),
        ) {
            self.log(&format!("index sync: {e}"));
        }
        let reader = index.reader().ok()?;
        Some((index, reader))
    }

    pub fn log(&self, message: &str) {
        log::hook_error(&self.paths, self.now, self.event.cli_name(), message);
    }

    /// The protocol answer carrying `text` as context, logged to `injections.jsonl`.
    pub fn inject(&self, hook_event_name: &str, text: &str, ids: &[String]) -> Value {
        self.log_injection(ids, text.chars().count(), "live");
        answer(hook_event_name, text)
    }

    pub fn log_injection(&self, ids: &[String], chars: usize, mode: &str) {
        self.log_injection_why(ids, chars, mode, &[]);
    }

    /// Logs an injection with, for each item that has one, why it was chosen.
    pub fn log_injection_why(
        &self,
        ids: &[String],
        chars: usize,
        mode: &str,
        why: &[(String, Vec<String>)],
    ) {
        let reasons: serde_json::Map<String, Value> = why
            .iter()
            .filter(|(id, words)| ids.contains(id) && !words.is_empty())
            .map(|(id, words)| (id.clone(), json!(words)))
            .collect();
        let line = json!({
            "ts": crate::text::stamp_ms(self.now),
            "session": self.sid,
            "event": self.event.cli_name(),
            "items": ids,
            "why": reasons,
            "chars": chars,
            "mode": mode,
        });
        log::append(&self.paths, "injections.jsonl", &line.to_string());
    }
}

fn item_count(paths: &Paths) -> usize {
    crate::memory::kind::ITEM_DIRS
        .iter()
        .map(|d| std::fs::read_dir(paths.root.join(d.dir)).map_or(0, Iterator::count))
        .sum()
}

/// The protocol answer carrying `text` as context.
pub fn answer(hook_event_name: &str, text: &str) -> Value {
    json!({
        "hookSpecificOutput": {
            "hookEventName": hook_event_name,
            "additionalContext": text,
        }
    })
}

/// Reads the whole payload (Claude Code writes it and closes the pipe); `None` when it
/// is larger than we are willing to hold.
fn read_stdin() -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut stdin = std::io::stdin().lock();
    let read = (&mut stdin)
        .take(MAX_PAYLOAD as u64 + 1)
        .read_to_end(&mut buf);
    if read.is_err() || buf.len() > MAX_PAYLOAD {
        // Drain the rest so the writer never sees a broken pipe.
        let _ = std::io::copy(&mut stdin, &mut std::io::sink());
        return None;
    }
    Some(buf)
}

/// Runs one hook. Never fails, never panics outward, prints at most one JSON object.
pub fn run(env: &Env, event: &str) -> Result<()> {
    // Panics are caught and logged below; the default hook would print them.
    std::panic::set_hook(Box::new(|_| {}));
    let input = read_stdin();
    if env.is_observer_child() {
        return Ok(());
    }
    let Ok(paths) = env.paths() else {
        return Ok(());
    };
    // A malformed HOMUNCULUS_NOW must not switch the hooks off: fall back to the clock.
    #[allow(clippy::disallowed_methods)]
    let now = env.now().unwrap_or_else(|_| Utc::now());
    let Some(hook) = HookEvent::from_cli(event) else {
        log::hook_error(&paths, now, event, "unknown hook event; skipped");
        return Ok(());
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| handle(&paths, now, hook, input, None)));
    let answer = match outcome {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => {
            log::hook_error(&paths, now, event, &format!("{e:#}"));
            None
        }
        Err(_) => {
            log::hook_error(&paths, now, event, "internal error (panic); skipped");
            None
        }
    };
    if let Some(answer) = answer {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{answer}");
        let _ = out.flush();
    }
    Ok(())
}

/// Handles one event; `replay` records without injecting or starting the observer.
pub fn handle(
    paths: &Paths,
    now: DateTime<Utc>,
    event: HookEvent,
    input: Option<Vec<u8>>,
    replay: Option<Replay>,
) -> Result<Option<Value>> {
    let event_name = event.cli_name();
    if !layout::is_ready(paths) {
        layout::ensure(paths, now)?;
    }
    let Some(input) = input else {
        log::hook_error(
            paths,
            now,
            event_name,
            "payload larger than 64 MiB; skipped",
        );
        return Ok(None);
    };
    let Some(payload) = Payload::parse(&input) else {
        log::hook_error(
            paths,
            now,
            event_name,
            &format!(
                "payload is not a JSON object ({} bytes); skipped",
                input.len()
            ),
        );
        return Ok(None);
    };
    drop(input);
    if payload.session_id.as_deref().is_none_or(str::is_empty) {
        log::hook_error(paths, now, event_name, "payload has no session_id; skipped");
        return Ok(None);
    }
    let ctx = HookCtx {
        sid: payload.session_id(),
        project: payload.cwd.as_deref().and_then(project::of),
        paths: paths.clone(),
        now,
        payload,
        event,
        replay,
    };
    match event {
        HookEvent::SessionStart => session_start::run(&ctx),
        HookEvent::UserPromptSubmit => user_prompt_submit::run(&ctx),
        HookEvent::PreToolUse => pre_tool_use::run(&ctx),
        HookEvent::PostToolUse => post_tool_use::run(&ctx, observation::Event::Post),
        HookEvent::PostToolUseFailure => post_tool_use::run(&ctx, observation::Event::Failure),
        HookEvent::Stop | HookEvent::SessionEnd | HookEvent::PreCompact => stop::run(&ctx),
    }
}
