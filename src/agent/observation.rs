//! Observations: one JSON line per notable event (a tool call, a failure, a prompt),
//! appended to `observations/<session>.jsonl`. Built from a hook payload with secrets
//! redacted and sizes bounded; noisy read-only shell commands are not recorded.

use std::fs;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::agent::payload::Payload;
use crate::agent::project;
use crate::agent::redact::redact;
use crate::fsutil::{self, PathError};
use crate::paths::Paths;
use crate::text::clip_chars;

pub const COMMAND_CHARS: usize = 500;
pub const ERROR_CHARS: usize = 300;
pub const PROMPT_CHARS: usize = 500;
const FIELD_CHARS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    Post,
    Failure,
    Prompt,
}

/// How a tool call ended. Only `Error` is a real failure that a later command can
/// recover from; the others say who stopped the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Success,
    /// The tool ran and failed.
    Error,
    /// The user interrupted the call.
    Blocked,
    /// Claude Code's permissions did not allow it ("requires approval").
    Denied,
    /// The user rejected the call; their feedback, if any, is in `prompt`.
    Rejected,
    /// The tool refused its input: an Edit of a file not yet read, a string to replace
    /// that is not there or not unique. The agent's slip, not the project's.
    ToolError,
}

/// How the Claude Code that wrote a failure spells it. Since 2.0 a failing Bash command
/// always starts `Exit code N` and the file tools wrap their refusals in
/// `<tool_use_error>`, so a bare sentence in their place is the feedback the user typed
/// when rejecting the call. Before 2.0 a failing command's output stood alone, so a bare
/// sentence there is the tool's and never the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 1.x transcripts.
    Early,
    /// 2.0 and later, and every live hook.
    Current,
}

impl Era {
    /// The era of a Claude Code version string (`1.0.24`, `2.1.150`); none is current.
    pub fn of(version: Option<&str>) -> Era {
        match version.and_then(|v| v.split('.').next()?.trim().parse::<u32>().ok()) {
            Some(major) if major < 2 => Era::Early,
            _ => Era::Current,
        }
    }
}

/// Classifies a failed call from Claude Code's error text. Returns the outcome and,
/// for a rejection, the user's words.
pub fn classify_failure(tool: &str, text: &str) -> (Outcome, Option<String>) {
    classify_failure_in(tool, text, Era::Current)
}

/// [`classify_failure`] for a failure written by Claude Code of `era`.
pub fn classify_failure_in(tool: &str, text: &str, era: Era) -> (Outcome, Option<String>) {
    let t = text.trim();
    let t = t.strip_prefix("Error: ").unwrap_or(t);
    const REJECTED: &str = "The user doesn't want to proceed with this tool use.";
    const REJECTED_NOW: &str = "The user doesn't want to take this action right now.";
    // Calls made alongside one the user rejected are cancelled with it, not judged.
    if t.starts_with(REJECTED_NOW) && !t.contains("the user said:") {
        return (Outcome::Blocked, None);
    }
    if t.starts_with(REJECTED) || t.starts_with(REJECTED_NOW) {
        // The user's words follow one of these, depending on Claude Code's version.
        let said = [
            "the user said:",
            "reason for the rejection:",
            "the user provided:",
        ]
        .iter()
        .find_map(|marker| t.split_once(marker))
        .map(|(_, words)| words.trim().to_string())
        .filter(|w| !w.is_empty());
        return (Outcome::Rejected, said);
    }
    if t.starts_with("[Request interrupted by user") {
        return (Outcome::Blocked, None);
    }
    let lower = t.to_ascii_lowercase();
    if lower.contains("requires approval")
        || lower.contains("haven't granted it yet")
        || lower.contains("permission to use")
        || lower.contains("was blocked. for security")
        || lower.starts_with("claude requested permissions")
        || lower.contains("permission denied by")
    {
        return (Outcome::Denied, None);
    }
    if t.starts_with("<tool_use_error>")
        || lower.starts_with("file has not been read yet")
        || lower.starts_with("string to replace not found")
        || lower.starts_with("found ") && lower.contains("matches of the string to replace")
        || lower.starts_with("file has been modified since read")
        || lower.starts_with("no such tool available")
        || lower.starts_with("file does not exist")
        || lower.starts_with("old_string and new_string are exactly the same")
    {
        return (Outcome::ToolError, None);
    }
    if era == Era::Current && is_users_words(tool, t) {
        return (Outcome::Rejected, Some(t.to_string()));
    }
    (Outcome::Error, None)
}

/// Newer Claude Code versions put a rejected call's feedback alone in the error: a short
/// sentence of a person, not the output of a tool.
fn is_users_words(tool: &str, text: &str) -> bool {
    const TOOL_WORDS: &[&str] = &[
        "error",
        "exception",
        "traceback",
        "failed",
        "failure",
        "not found",
        "no such",
        "denied",
        "cannot",
        "can't",
        "could not",
        "unable",
        "exit code",
        "exit status",
        "fatal",
        "warning",
        "panic",
        "invalid",
        "refused",
        "timed out",
        "usage:",
        "errno",
        "undefined",
        "unknown",
        "missing",
        "expected",
        "syntax",
    ];
    let lower = text.to_ascii_lowercase();
    let words = text.split_whitespace().count();
    // Only these tools spell every failure of their own in a fixed shape (`Exit code`,
    // `<tool_use_error>`); WebFetch, Task and the rest print bare errors of their own.
    matches!(
        tool,
        "Bash" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit"
    ) && !text.contains('\n')
        && (3..=80).contains(&words)
        && text.starts_with(|c: char| c.is_alphabetic())
        && !TOOL_WORDS.iter().any(|w| lower.contains(w))
        && !text.contains(['{', '}', '=', '$', '<', '>', '|', '\t'])
}

/// The tool-specific part of an observation.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub file_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pattern: Option<String>,
}

/// One observation line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub ts: String,
    pub event: Event,
    pub session_id: String,
    pub cwd: String,
    pub project: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tool: Option<String>,
    #[serde(skip_serializing_if = "is_empty_input", default)]
    pub input: Input,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub prompt: Option<String>,
    /// A command that succeeded but whose output says it changed nothing ("Everything
    /// up-to-date", "Requirement already satisfied", "running in background"): no fix.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub noop: bool,
    /// A succeeding command's first printed lines, as hashes (`line_hash`): a line that
    /// a failure shares with them is a banner the shell prints every time, never the
    /// error. No output text is kept.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub printed: Vec<u32>,
}

fn is_empty_input(input: &Input) -> bool {
    *input == Input::default()
}

/// `text` redacted and clipped. Only a little more than is kept is read (a pasted
/// megabyte costs nothing); the margin keeps a secret that straddles the cut whole, so
/// redaction still recognises it.
fn bounded(text: &str, max: usize) -> String {
    let head = crate::text::strip_ansi(clip_chars(text, max + 512));
    clip_chars(&redact(&head), max).to_string()
}

/// Read-only shell commands that teach nothing: `cat`, `ls`, `git status`, ...
pub fn is_noisy_command(command: &str) -> bool {
    let segments: Vec<&str> = command
        .split(['&', ';', '|'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    !segments.is_empty()
        && segments.iter().all(|segment| {
            let mut words = segment.split_whitespace();
            matches!(
                (words.next(), words.next()),
                (
                    Some("cat" | "head" | "tail" | "ls" | "pwd" | "tree" | "wc" | "cd" | "echo"),
                    _
                ) | (
                    Some("git"),
                    Some("status" | "diff" | "log" | "show" | "branch")
                )
            )
        })
}

/// The lines of a failure that say what failed: exit codes, `error:` lines, panics,
/// exception names, failed assertions. Real test output puts the cause far from the
/// start, so the first characters are not enough.
pub fn error_excerpt(text: &str, max: usize) -> String {
    const SIGNALS: &[&str] = &[
        // Advice the tool itself gives: often the whole lesson.
        "hint:",
        "help:",
        "did you mean",
        "to fix",
        "try:",
        "try running",
        "use \"",
        "use `",
        "please run",
        "run \"",
        "run `",
        "only-allow",
        "externally-managed",
        "exit code",
        "exit status",
        "error:",
        "error[",
        "panicked",
        "exception",
        "traceback",
        "failed",
        "failure",
        "fatal:",
        "assert",
        "not found",
        "no such file",
        "permission denied",
        "cannot",
        "could not",
        "refused",
        "timed out",
        "timeout",
        "undefined",
        "***",
        "no rule",
        "denied",
        "unknown",
        "invalid",
    ];
    let mut picked: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // A remedy announced on a line of its own ("Run", "To fix this, run:") is spelled
    // out on the indented lines after it: they are the lesson (git's own
    // `git config --global user.email …`).
    let mut remedy_lines = 0u8;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let lower = line.to_ascii_lowercase();
        let announces = matches!(
            lower.trim_end_matches([':', '.']),
            "run" | "try" | "to fix this, run" | "please run" | "you can run" | "run this"
        ) || lower.ends_with(", run:");
        let signal = SIGNALS.iter().any(|s| lower.contains(s)) || remedy_lines > 0;
        if signal && seen.insert(line) {
            picked.push(line);
        }
        remedy_lines = if announces {
            2
        } else {
            remedy_lines.saturating_sub(1)
        };
    }
    // An exit code alone says little: the last lines of the output usually say why.
    if picked
        .iter()
        .all(|l| l.to_ascii_lowercase().starts_with("exit code"))
    {
        let tail: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !picked.contains(l))
            .collect();
        picked.extend(tail.iter().rev().take(2).rev());
    }
    let joined = if picked.is_empty() {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        picked.join(" | ")
    };
    bounded(&joined, max)
}

/// Builds the observation for a tool event, or `None` when it is not worth recording.
pub fn from_tool_event(payload: &Payload, event: Event, now: DateTime<Utc>) -> Option<Observation> {
    let tool = payload.tool_name().to_string();
    if tool.is_empty() {
        return None;
    }
    let command = payload.tool_input.command.as_deref();
    if event == Event::Post && command.is_some_and(is_noisy_command) {
        return None;
    }
    let input = Input {
        file_path: payload.file_path().map(|p| bounded(p, FIELD_CHARS * 2)),
        command: command.map(|c| bounded(c, COMMAND_CHARS)),
        description: payload
            .tool_input
            .description
            .as_deref()
            .map(|d| bounded(d, FIELD_CHARS)),
        pattern: payload
            .tool_input
            .pattern
            .as_deref()
            .map(|p| bounded(p, FIELD_CHARS)),
    };
    let mut feedback = None;
    let (outcome, error) = match event {
        Event::Failure if payload.is_interrupt => (Outcome::Blocked, None),
        Event::Failure => {
            let text = payload.error.as_deref().unwrap_or("");
            let era = Era::of(payload.claude_version.as_deref());
            match classify_failure_in(&tool, text, era) {
                (Outcome::Error, _) => (Outcome::Error, Some(error_excerpt(text, ERROR_CHARS))),
                (Outcome::Rejected, said) => {
                    feedback = said.map(|s| bounded(&s, PROMPT_CHARS));
                    (Outcome::Rejected, None)
                }
                (outcome, _) => (outcome, Some(error_excerpt(text, ERROR_CHARS))),
            }
        }
        _ if payload.tool_response.interrupted => (Outcome::Blocked, None),
        _ => (Outcome::Success, None),
    };
    let printed = [&payload.tool_response.stdout, &payload.tool_response.stderr];
    let noop = outcome == Outcome::Success
        && printed
            .iter()
            .any(|out| out.as_deref().is_some_and(says_nothing_happened));
    let mut obs = base(payload, event, now);
    obs.tool = Some(tool);
    obs.input = input;
    obs.outcome = Some(outcome);
    obs.error = error;
    obs.prompt = feedback;
    obs.noop = noop;
    if outcome == Outcome::Success {
        obs.printed = printed
            .iter()
            .filter_map(|out| out.as_deref())
            .flat_map(|out| {
                crate::text::clip_chars(out, 2_000)
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .take(2)
                    .map(line_hash)
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    Some(obs)
}

/// Builds the observation for a submitted prompt.
pub fn from_prompt(payload: &Payload, now: DateTime<Utc>) -> Option<Observation> {
    let prompt = payload.prompt.as_deref()?.trim();
    if prompt.is_empty() {
        return None;
    }
    let mut obs = base(payload, Event::Prompt, now);
    obs.prompt = Some(bounded(prompt, PROMPT_CHARS));
    Some(obs)
}

fn base(payload: &Payload, event: Event, now: DateTime<Utc>) -> Observation {
    let cwd = payload.cwd.as_deref().unwrap_or("");
    Observation {
        ts: crate::text::stamp_ms(now),
        event,
        session_id: payload.session_id(),
        cwd: bounded(cwd, FIELD_CHARS * 2),
        project: project::of(cwd).map_or_else(|| "unknown".to_string(), |p| p.name),
        tool: None,
        input: Input::default(),
        outcome: None,
        error: None,
        prompt: None,
        noop: false,
        printed: Vec::new(),
    }
}

/// A short hash of one printed line, trimmed: how banners are recognised.
pub fn line_hash(line: &str) -> u32 {
    crate::text::fnv1a(crate::text::strip_ansi(line.trim()).trim().as_bytes()) as u32
}

/// Whether a command's output says it did nothing: the state was already what was asked
/// for, or the work only started in the background.
pub fn says_nothing_happened(output: &str) -> bool {
    const NOTHING: &[&str] = &[
        "everything up-to-date",
        "already up to date",
        "already up-to-date",
        "requirement already satisfied",
        "is already the newest version",
        "0 upgraded, 0 newly installed",
        "is already installed",
        "already installed and up-to-date",
        "nothing to commit",
        "nothing added to commit",
        "no changes added to commit",
        "nothing to do",
        "up to date, audited",
        "running in background",
        "command running in background",
        "no changes detected",
        "no changes to apply",
        "already exists, skipping",
        "is already running",
    ];
    let head: String = crate::text::clip_chars(output, 4_000).to_ascii_lowercase();
    NOTHING.iter().any(|n| head.contains(n))
}

/// The pending observation file of a session.
pub fn file(paths: &Paths, session_id: &str) -> PathBuf {
    paths.observations().join(format!("{session_id}.jsonl"))
}

/// Appends one observation as a single write (concurrent appenders never interleave
/// within a line).
pub fn append(paths: &Paths, obs: &Observation) -> Result<(), PathError> {
    let file = file(paths, &obs.session_id);
    fsutil::create_private_dir(&paths.observations())?;
    let mut line = serde_json::to_string(obs).unwrap_or_default();
    line.push('\n');
    fsutil::append(&file, line.as_bytes())
}

/// Every observation of a session, pending and archived, in order. Lines that do not
/// parse are skipped.
pub fn of_session(paths: &Paths, session_id: &str) -> Vec<Observation> {
    let mut out = Vec::new();
    // A pending file keeps its archived lines until it has been quiet for an hour: a
    // line in both is one observation.
    let mut seen = std::collections::HashSet::new();
    for dir in [paths.observations_archive(), paths.observations()] {
        let text = fs::read_to_string(dir.join(format!("{session_id}.jsonl"))).unwrap_or_default();
        out.extend(
            text.lines()
                .filter(|l| seen.insert(crate::text::fnv1a(l.as_bytes())))
                .filter_map(|l| serde_json::from_str(l).ok()),
        );
    }
    out
}

#[cfg(test)]
mod tests;
