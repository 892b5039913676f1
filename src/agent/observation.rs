//! Observations: one JSON line per notable event (a tool call, a failure, a prompt),
//! appended to `observations/<session>.jsonl`. Built from a hook payload with secrets
//! redacted and sizes bounded; noisy read-only shell commands are not recorded.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

mod failure;
mod log;
mod masked;
mod reported;

pub use failure::{
    Era, classify_failure, classify_failure_in, error_excerpt, says_nothing_happened,
};
pub use log::{Since, append, file, of_session, since};
pub use masked::{hidden_failure, masks_status};
pub use reported::{answered_no, reports_failure};

use crate::agent::payload::Payload;
use crate::agent::redact::redact;
use crate::agent::tool::Tool;
use crate::text::clip_chars;

pub const COMMAND_CHARS: usize = 500;
pub const ERROR_CHARS: usize = 300;
pub const PROMPT_CHARS: usize = 500;
const FIELD_CHARS: usize = 200;
/// How much of the end of a command's output is read for a status it printed of itself.
const REPORT_BYTES: usize = 8_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Event {
    Post,
    Failure,
    Prompt,
    /// A command the user ran themselves (`!` shell mode), read from the transcript.
    Shell,
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
    pub tool: Option<Tool>,
    #[serde(skip_serializing_if = "is_empty_input", default)]
    pub input: Input,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub prompt: Option<String>,
    /// What a prompt asks, when its first `PROMPT_CHARS` do not say it: a long paste
    /// whose failing line comes further down names the request by that line.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub request: Option<String>,
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

/// Builds the observation for a tool event, or `None` when it is not worth recording.
/// `project` is the project the hook resolved from the payload's folder (resolved once
/// per event), `None` for user scope.
pub fn from_tool_event(
    payload: &Payload,
    event: Event,
    now: DateTime<Utc>,
    project: Option<&str>,
) -> Option<Observation> {
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
        Event::Failure
            if tool == "Bash"
                && answered_no(
                    command.unwrap_or(""),
                    payload.error.as_deref().unwrap_or(""),
                ) =>
        {
            (Outcome::Success, None)
        }
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
    // `…; echo "exit=$?"` and `ffmpeg … | tail -3` pass as far as the shell is
    // concerned; their output says whether the work failed.
    let (outcome, error) = match (outcome, command) {
        // Only such a command's output is gathered: most calls pass with no `$?` and
        // nothing masking their status.
        (Outcome::Success, Some(command))
            if tool == "Bash" && (command.contains("$?") || masks_status(command)) =>
        {
            let output: String = printed
                .iter()
                .filter_map(|out| out.as_deref())
                .map(|out| crate::text::tail(out, REPORT_BYTES))
                .collect::<Vec<_>>()
                .join("\n");
            if reports_failure(command, &output) {
                (Outcome::Error, Some(error_excerpt(&output, ERROR_CHARS)))
            } else if let Some(failure) = hidden_failure(command, &output) {
                (Outcome::Error, Some(error_excerpt(failure, ERROR_CHARS)))
            } else {
                (outcome, error)
            }
        }
        _ => (outcome, error),
    };
    let noop = outcome == Outcome::Success
        && printed
            .iter()
            .any(|out| out.as_deref().is_some_and(says_nothing_happened));
    let mut obs = base(payload, event, now, project);
    obs.tool = Some(Tool::of(&tool));
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
pub fn from_prompt(
    payload: &Payload,
    now: DateTime<Utc>,
    project: Option<&str>,
) -> Option<Observation> {
    let prompt = payload.prompt.as_deref()?.trim();
    if prompt.is_empty() {
        return None;
    }
    let mut obs = base(payload, Event::Prompt, now, project);
    let kept = bounded(prompt, PROMPT_CHARS);
    if prompt.len() > kept.len() {
        let asked = crate::agent::typed::request_line(prompt)
            .map(|l| bounded(&l, PROMPT_CHARS))
            .filter(|asked| crate::agent::typed::request_line(&kept).as_ref() != Some(asked));
        obs.request = asked;
    }
    obs.prompt = Some(kept);
    Some(obs)
}

/// A command the user ran themselves in `!` shell mode, stamped when they ran it.
pub fn from_user_command(
    payload: &Payload,
    cmd: &crate::agent::transcript::shell_mode::UserCommand,
    project: Option<&str>,
) -> Observation {
    let mut obs = base(payload, Event::Shell, cmd.at, project);
    obs.input.command = Some(bounded(&cmd.command, COMMAND_CHARS));
    if !cmd.cwd.is_empty() {
        obs.cwd = bounded(&cmd.cwd, FIELD_CHARS * 2);
    }
    obs
}

fn base(payload: &Payload, event: Event, now: DateTime<Utc>, project: Option<&str>) -> Observation {
    let cwd = payload.cwd.as_deref().unwrap_or("");
    Observation {
        ts: crate::time::stamp_ms(now),
        event,
        session_id: payload.session_id(),
        cwd: bounded(cwd, FIELD_CHARS * 2),
        project: project.unwrap_or("unknown").to_string(),
        tool: None,
        input: Input::default(),
        outcome: None,
        error: None,
        prompt: None,
        request: None,
        noop: false,
        printed: Vec::new(),
    }
}

impl Observation {
    /// The line a person reads as what a prompt asked (see `typed::request_line`).
    pub fn request_line(&self) -> Option<String> {
        self.request.clone().or_else(|| {
            self.prompt
                .as_deref()
                .and_then(crate::agent::typed::request_line)
        })
    }
}

/// A short hash of one printed line, trimmed: how banners are recognised.
pub fn line_hash(line: &str) -> u32 {
    crate::text::fnv1a(crate::text::strip_ansi(line.trim()).trim().as_bytes()) as u32
}

#[cfg(test)]
mod tests;
