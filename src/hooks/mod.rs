//! The hooks: one function per Claude Code event that takes the event's payload and the
//! memory folder and returns what to answer. Live hooks (`cmd::hook`) and transcript
//! replay (`cmd::replay`) both come through [`handle`]; only the former prints.
//!
//! What a hook may do (it runs inside the agent's loop, on every tool call):
//! - wait for a lock only briefly: `FileLock::try_acquire_for` with a few milliseconds,
//!   never `FileLock::acquire`; when busy, log and move on;
//! - build a missing index only up to `HOOK_INDEX_BUILD_LIMIT` items and
//!   `HOOK_INDEX_BUILD_BYTES` bytes, never waiting for another process's build, and sync
//!   only the journaled changes (`sync::Mode::Bounded`);
//! - never read every pending observation file: `observer::is_due` stops counting at the
//!   threshold;
//! - never start the observer or anything slow itself: `Stop` asks its caller to start
//!   it detached ([`Outcome::observe`]).

pub mod detect;
mod post_tool_use;
mod pre_tool_use;
mod session_start;
mod stop;
mod used;
mod user_prompt_submit;
mod user_shell;

#[cfg(test)]
mod tests;

use chrono::{DateTime, Utc};
use tantivy::IndexReader;

pub use crate::agent::answer::Answer;
use crate::agent::hook_event::HookEvent;
use crate::agent::observation;
use crate::agent::payload::Payload;
use crate::agent::project::{self, Project};
use crate::index::{Index, sync};
use crate::log;
use crate::paths::Paths;
use crate::setup::config::Config;
use crate::setup::layout;

pub type Result<T> = anyhow::Result<T>;

/// Up to this many item files, a hook may build a missing index itself.
const HOOK_INDEX_BUILD_LIMIT: usize = 2_000;
/// And at most this many bytes of markdown (2,000 files of 2 KB, as memories are).
const HOOK_INDEX_BUILD_BYTES: u64 = 4 * 1024 * 1024;

/// What one hook decided: the answer to print, and whether the observer should run.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub answer: Option<Answer>,
    /// Start `homunculus observe` detached; `Some(true)`: the builtin engine only (the
    /// context is nearly full, so no room for an llm run).
    pub observe: Option<bool>,
    /// Start a background `homunculus watch` (none runs for this folder).
    pub watch: bool,
}

impl From<Option<Answer>> for Outcome {
    fn from(answer: Option<Answer>) -> Self {
        Outcome {
            answer,
            observe: None,
            watch: false,
        }
    }
}

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
    /// `config.toml`, read at most once per event however many steps ask for it.
    config: std::cell::OnceCell<Config>,
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
    pub fn record(&self, obs: &observation::Observation) -> Result<()> {
        if self.replay == Some(Replay::Observed) {
            return Ok(());
        }
        Ok(observation::append(&self.paths, obs)?)
    }

    pub fn config(&self) -> &Config {
        self.config
            .get_or_init(|| Config::load(&self.paths.config()).unwrap_or_default())
    }

    pub fn project_name(&self) -> &str {
        self.project.as_ref().map_or("unknown", |p| p.name.as_str())
    }

    /// The index after a bounded sync (journaled changes only), or `None` when there is
    /// none a hook may build in its time budget.
    pub fn index(&self) -> Option<(Index, IndexReader)> {
        let index = match Index::open_current(&self.paths) {
            Some(index) => index,
            None if small_enough_to_build(&self.paths) => {
                let built = crate::index::open_synced_waiting(
                    &self.paths,
                    self.now.timestamp(),
                    Some(std::time::Duration::from_millis(50)),
                );
                match built {
                    Ok((index, _)) => index,
                    Err(e) => {
                        self.log(&format!("no search index yet ({e}); it is being built"));
                        return None;
                    }
                }
            }
            None => {
                self.log(
                    "no search index yet; the background watcher or `homunculus reindex` builds it",
                );
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

    /// The answer carrying `text` as context, fenced, logged to `injections.jsonl`.
    pub fn inject(&self, event: &'static str, text: String, ids: &[String]) -> Option<Answer> {
        self.log_injection(ids, text.chars().count(), "live");
        Some(self.fenced(event, &text))
    }

    /// `text` as context inside one fence whose nonce only this moment knows.
    pub fn fenced(&self, event: &'static str, text: &str) -> Answer {
        let seed = format!(
            "{}\u{1f}{}\u{1f}{text}",
            self.sid,
            self.now.timestamp_nanos_opt().unwrap_or_default()
        );
        let nonce = crate::recall::render::nonce(&seed);
        Answer::Context {
            event,
            text: crate::recall::render::fence(text, &nonce),
        }
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
        let why = why
            .iter()
            .filter(|(id, words)| ids.contains(id) && !words.is_empty())
            .map(|(id, words)| (id.clone(), words.clone()))
            .collect();
        let entry = log::Injection {
            ts: crate::time::stamp_ms(self.now),
            session: self.sid.clone(),
            event: self.event.cli_name().to_string(),
            items: ids.to_vec(),
            why,
            chars,
            mode: mode.to_string(),
        };
        log::injection(&self.paths, &entry);
    }
}

/// Whether a missing index is small enough for a hook to build it inline: at most
/// `HOOK_INDEX_BUILD_LIMIT` files and `HOOK_INDEX_BUILD_BYTES` bytes (a few large
/// files can take longer than many small ones). Stops counting at the first limit.
fn small_enough_to_build(paths: &Paths) -> bool {
    let (mut files, mut bytes) = (0usize, 0u64);
    for d in crate::memory::kind::ITEM_DIRS {
        for entry in std::fs::read_dir(paths.root.join(d.dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            files += 1;
            bytes += entry.metadata().map_or(0, |m| m.len());
            if files > HOOK_INDEX_BUILD_LIMIT || bytes > HOOK_INDEX_BUILD_BYTES {
                return false;
            }
        }
    }
    true
}

/// Handles one raw payload as a live hook reads it: `None` when it was too large to read.
/// Bad input of any kind is logged and skipped.
pub fn handle_bytes(
    paths: &Paths,
    now: DateTime<Utc>,
    event: HookEvent,
    input: Option<Vec<u8>>,
    started_in: Option<String>,
) -> Result<Outcome> {
    let event_name = event.cli_name();
    let Some(input) = input else {
        ensure_layout(paths, now)?;
        log::hook_error(paths, now, event_name, "payload larger than 8 MiB; skipped");
        return Ok(Outcome::default());
    };
    let Some(mut payload) = Payload::parse(&input) else {
        ensure_layout(paths, now)?;
        let reason = format!(
            "payload is not a JSON object ({} bytes); skipped",
            input.len()
        );
        log::hook_error(paths, now, event_name, &reason);
        return Ok(Outcome::default());
    };
    drop(input);
    payload.started_in = started_in;
    handle(paths, now, event, payload, None)
}

fn ensure_layout(paths: &Paths, now: DateTime<Utc>) -> Result<()> {
    if !layout::is_ready(paths) {
        layout::ensure(paths, now)?;
    }
    Ok(())
}

/// Handles one event; `replay` records without injecting or starting the observer.
/// A Codex command's exit status, from the tail of the session file its payload names.
fn codex_exit(payload: &Payload) -> Option<i64> {
    let path = std::path::Path::new(payload.transcript_path.as_deref()?);
    let tail = crate::fsutil::read_tail(path, 256 * 1024)?;
    let call = payload.tool_use_id.as_deref()?;
    crate::agent::codex::exit_in_session(&String::from_utf8_lossy(&tail), call)
}

pub fn handle(
    paths: &Paths,
    now: DateTime<Utc>,
    event: HookEvent,
    payload: Payload,
    replay: Option<Replay>,
) -> Result<Outcome> {
    ensure_layout(paths, now)?;
    // Codex's tools and failures in Claude Code's shapes; Claude Code's pass unchanged.
    let sent = event;
    let (event, payload) = crate::agent::codex::normalize(event, payload, codex_exit);
    if payload.session_id.as_deref().is_none_or(str::is_empty) {
        log::hook_error(
            paths,
            now,
            event.cli_name(),
            "payload has no session_id; skipped",
        );
        return Ok(Outcome::default());
    }
    let ctx = HookCtx {
        sid: payload.session_id(),
        project: payload
            .cwd
            .as_deref()
            .and_then(|cwd| project::of_session(cwd, payload.started_in.as_deref()))
            .map(|p| crate::memory::projects::keyed(paths, p)),
        paths: paths.clone(),
        now,
        payload,
        event,
        replay,
        config: std::cell::OnceCell::new(),
    };
    let mut outcome = match event {
        HookEvent::SessionStart => session_start::run(&ctx).map(|answer| Outcome {
            answer,
            observe: None,
            watch: session_start::wants_watcher(&ctx),
        }),
        HookEvent::UserPromptSubmit => user_prompt_submit::run(&ctx).map(Outcome::from),
        HookEvent::PreToolUse => pre_tool_use::run(&ctx).map(Outcome::from),
        HookEvent::PostToolUse => {
            post_tool_use::run(&ctx, observation::Event::Post).map(Outcome::from)
        }
        HookEvent::PostToolUseFailure => {
            post_tool_use::run(&ctx, observation::Event::Failure).map(Outcome::from)
        }
        HookEvent::Stop | HookEvent::SessionEnd | HookEvent::PreCompact => stop::run(&ctx),
    }?;
    // The answer names the event the agent sent (a Codex failure came as PostToolUse).
    if let Some(Answer::Context { event, .. }) = &mut outcome.answer {
        *event = sent.wire_name();
    }
    Ok(outcome)
}
