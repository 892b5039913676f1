//! Per-session memory of what the hooks already did: the session's summary file, whether
//! it was counted, the turns, and every item and file already injected (never twice).
//! Kept in `state/sessions/<session>.json`, changed under a per-session lock that hooks
//! wait for only a few milliseconds.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::lock::{LockError, LockName};
use crate::memory::tally::Tally;
use crate::paths::Paths;

/// How long a hook waits for another hook of the same session.
pub const WAIT: Duration = Duration::from_millis(20);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Memo {
    /// The summary file, relative to the memory folder.
    pub session_file: Option<String>,
    pub started: Option<String>,
    pub project: Option<String>,
    pub counted: bool,
    /// Counting it in identity.json failed (the lock was busy): the next Stop tries again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub count_pending: bool,
    pub turns: u32,
    /// Index ids (relative paths) of items injected in this session.
    pub injected: Vec<String>,
    /// Files whose past work was already recalled after an edit.
    pub recalled_files: Vec<String>,
    /// Failures (their `failure_key`) whose past was already recalled.
    pub recalled_failures: Vec<String>,
    pub clear_advised: bool,
    /// Claude Code's transcript of the session (for the llm engine's lenses).
    pub transcript_path: Option<String>,
    /// Claude Code's own title for the session, when known (replay reads it).
    #[serde(default)]
    pub title: Option<String>,
    /// The first sentence of the agent's last answer.
    #[serde(default)]
    pub last_answer: Option<String>,
    /// The summary this session continues, when the caller knows it (replay does).
    #[serde(default)]
    pub continues_from: Option<String>,
    /// Items a path trigger already sent in this session (apart from `injected`: an item
    /// SessionStart listed still fires when its file is touched, once).
    #[serde(default)]
    pub path_fired: Vec<String>,
    /// The agent's task list as it last wrote it (TodoWrite): what is not done yet.
    #[serde(default)]
    pub open_tasks: Vec<String>,
    /// Injected items not yet seen used in this session, with what would show it.
    #[serde(default)]
    pub watching: Vec<Watch>,
    /// What the session did so far, for its summary (read from the log at each Stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<Tally>,
    /// How far the transcript was read for what the user ran in `!` shell mode.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shell_read_to: u64,
    /// When the newest shell-mode command recorded was run: a transcript read again from
    /// its start (replaced, or cut shorter) records nothing twice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shell_last: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn file(paths: &Paths, session_id: &str) -> PathBuf {
    paths
        .state()
        .join("sessions")
        .join(format!("{session_id}.json"))
}

/// The memo of a session (empty when there is none or it does not parse).
pub fn read(paths: &Paths, session_id: &str) -> Memo {
    crate::fsutil::read_json_or_default(&file(paths, session_id))
}

/// Changes a session's memo under its lock; writes only when something changed.
pub fn update<T>(
    paths: &Paths,
    session_id: &str,
    change: impl FnOnce(&mut Memo) -> T,
) -> Result<T, LockError> {
    let lock = paths.lock(&LockName::Session(session_id.to_string()));
    crate::lock::update_json(&lock, &file(paths, session_id), WAIT, change)
}

/// A sign that the agent acted on an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cue {
    /// A file whose path ends with this (read, edited or named in a command).
    File(String),
    /// A command (or the program) the advice names, run in the shell.
    Command(String),
    /// A folder the advice names (`migrations/`, `docs/adr/NNNN-<title>.md`), as a glob
    /// over the touched file relative to the project.
    Glob(String),
}

/// An injected item a session watches for use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watch {
    pub id: String,
    pub cues: Vec<Cue>,
}
