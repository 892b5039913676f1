//! One recorded session read back as the hook events it implies, the way Claude Code
//! would have sent them: a session start in the starting folder, the user's real
//! prompts, every tool call with its result, a turn end before each new prompt, and the
//! session end. A session is its file: the id comes from the file name, and tool calls a
//! resumed session copied from its parent (their ids were seen already) are left out.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::prompt::{self, Line};
use super::text_of;
use crate::agent::hook_event::HookEvent;
use crate::text::fnv1a;

/// One synthesised hook event.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayEvent {
    pub hook: HookEvent,
    pub payload: Value,
    pub at: DateTime<Utc>,
}

/// What one transcript file holds.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    pub session_id: String,
    /// The folder the session started in: its project, whatever `cd` did later.
    pub cwd: String,
    pub started: Option<DateTime<Utc>>,
    /// Claude Code's own title for the session (`summary` / `ai-title` lines).
    pub title: Option<String>,
    pub events: Vec<ReplayEvent>,
    /// Lines that are not JSON objects (truncated, binary, another tool's format).
    pub unreadable: usize,
    /// Lines and tool calls left out because another file (its parent) had them.
    pub copied: usize,
}

/// The hash under which a tool call id is remembered across files.
pub fn tool_key(id: &str) -> u64 {
    fnv1a(id.as_bytes())
}

/// The session id a file name gives: the stem when it looks like an id.
fn id_from_name(stem: &str) -> Option<String> {
    let ok = !stem.is_empty()
        && stem.len() <= 128
        && stem
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then(|| stem.to_string())
}

/// A record's `timestamp` (Claude Code's lines and Codex's rollout records alike).
pub(super) fn timestamp(v: &Value) -> Option<DateTime<Utc>> {
    v.get("timestamp")
        .and_then(Value::as_str)
        .and_then(crate::time::parse)
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool) == Some(true)
}

/// Reads one transcript. `seen` holds the tool call ids of files read before (in time
/// order); this file's are added. `fallback` dates lines without a timestamp.
pub fn read(
    text: &str,
    file_stem: &str,
    path: &str,
    seen: &mut HashSet<u64>,
    fallback: DateTime<Utc>,
) -> Transcript {
    let mut t = Transcript {
        session_id: id_from_name(file_stem).unwrap_or_default(),
        ..Transcript::default()
    };
    let mut calls: HashMap<String, (String, Value)> = HashMap::new();
    // Old files carry `summary` lines of other sessions too: a title counts only when
    // the message it summarises (its leaf) is in this file.
    let mut titles: Vec<(Option<String>, String)> = Vec::new();
    let mut uuids: HashSet<String> = HashSet::new();
    let mut last = fallback;
    let mut replied = false;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(line) else {
            t.unreadable += 1;
            continue;
        };
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        if matches!(kind, "summary" | "ai-title") {
            let title = v.get("summary").or(v.get("title")).and_then(Value::as_str);
            if let Some(title) = title.map(str::trim).filter(|s| !s.is_empty()) {
                let leaf = v
                    .get("leafUuid")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                titles.push((leaf, title.to_string()));
            }
            continue;
        }
        if let Some(uuid) = v.get("uuid").and_then(Value::as_str) {
            uuids.insert(uuid.to_string());
        }
        if flag(&v, "isSidechain") {
            continue;
        }
        // A resumed or continued session starts with a copy of its parent's lines:
        // known by their uuid (or, in files without one, by their time and message).
        let id = match v.get("uuid").and_then(Value::as_str) {
            Some(uuid) => format!("line:{uuid}"),
            None => format!(
                "line:{}:{}",
                v.get("timestamp").and_then(Value::as_str).unwrap_or(""),
                v.get("message").map(Value::to_string).unwrap_or_default()
            ),
        };
        if !seen.insert(tool_key(&id)) {
            t.copied += 1;
            continue;
        }
        let at = timestamp(&v).unwrap_or(last);
        last = at;
        if t.session_id.is_empty()
            && let Some(s) = v.get("sessionId").and_then(Value::as_str)
        {
            t.session_id = s.to_string();
        }
        if t.cwd.is_empty()
            && let Some(c) = v.get("cwd").and_then(Value::as_str)
        {
            t.cwd = c.to_string();
        }
        if t.session_id.is_empty() || t.cwd.is_empty() || !matches!(kind, "user" | "assistant") {
            continue;
        }
        if t.events.is_empty() {
            t.started = Some(at);
            let mut p = base(&t, path, HookEvent::SessionStart);
            p["source"] = json!("startup");
            t.events.push(ReplayEvent {
                hook: HookEvent::SessionStart,
                payload: p,
                at,
            });
        }
        let content = v.pointer("/message/content").unwrap_or(&Value::Null);
        if kind == "assistant" {
            for block in content.as_array().into_iter().flatten() {
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        let id = block.get("id").and_then(Value::as_str).unwrap_or("");
                        // A resumed session repeats its parent's calls: count them once.
                        if !id.is_empty() && !seen.insert(tool_key(id)) {
                            t.copied += 1;
                            continue;
                        }
                        let name = block.get("name").and_then(Value::as_str).unwrap_or("");
                        let input = block.get("input").cloned().unwrap_or(json!({}));
                        calls.insert(id.to_string(), (name.to_string(), input));
                        replied = true;
                    }
                    Some("text") => replied = true,
                    _ => {}
                }
            }
            continue;
        }
        if flag(&v, "isMeta") || flag(&v, "isCompactSummary") {
            continue;
        }
        for block in content.as_array().into_iter().flatten() {
            if block.get("type").and_then(Value::as_str) != Some("tool_result") {
                continue;
            }
            let id = block
                .get("tool_use_id")
                .and_then(Value::as_str)
                .unwrap_or("");
            let Some((name, input)) = calls.remove(id) else {
                continue;
            };
            t.events
                .push(tool_event(&t, path, &v, block, name, input, at));
        }
        if let Line::Prompt(prompt) = prompt::classify(content) {
            if replied {
                t.events.push(turn_end(&t, path, at));
                replied = false;
            }
            let mut p = base(&t, path, HookEvent::UserPromptSubmit);
            p["prompt"] = json!(prompt);
            t.events.push(ReplayEvent {
                hook: HookEvent::UserPromptSubmit,
                payload: p,
                at,
            });
        }
    }
    t.title = titles
        .into_iter()
        .rev()
        .find(|(leaf, _)| leaf.as_ref().is_none_or(|l| uuids.contains(l)))
        // Claude Code's title is text like any other: through the redaction gate.
        .map(|(_, title)| crate::agent::redact::redact(&title).into_owned());
    if !t.events.is_empty() {
        if replied {
            t.events.push(turn_end(&t, path, last));
        }
        let mut p = base(&t, path, HookEvent::SessionEnd);
        p["reason"] = json!("other");
        t.events.push(ReplayEvent {
            hook: HookEvent::SessionEnd,
            payload: p,
            at: last,
        });
    }
    t
}

fn base(t: &Transcript, path: &str, event: HookEvent) -> Value {
    json!({
        "session_id": t.session_id,
        "transcript_path": path,
        "cwd": t.cwd,
        "hook_event_name": event.wire_name(),
    })
}

fn turn_end(t: &Transcript, path: &str, at: DateTime<Utc>) -> ReplayEvent {
    let mut p = base(t, path, HookEvent::Stop);
    p["stop_hook_active"] = json!(false);
    ReplayEvent {
        hook: HookEvent::Stop,
        payload: p,
        at,
    }
}

/// A tool call's result as PostToolUse or PostToolUseFailure.
fn tool_event(
    t: &Transcript,
    path: &str,
    line: &Value,
    block: &Value,
    name: String,
    input: Value,
    at: DateTime<Utc>,
) -> ReplayEvent {
    let failed = flag(block, "is_error");
    let hook = if failed {
        HookEvent::PostToolUseFailure
    } else {
        HookEvent::PostToolUse
    };
    let mut p = base(t, path, hook);
    p["tool_name"] = json!(name);
    p["tool_input"] = input;
    if let Some(version) = line.get("version").and_then(Value::as_str) {
        p["claude_version"] = json!(version);
    }
    let text = text_of(block.get("content").unwrap_or(&Value::Null));
    if failed {
        if text
            .trim_start()
            .starts_with("[Request interrupted by user")
        {
            p["is_interrupt"] = json!(true);
        }
        p["error"] = json!(text);
    } else if let Some(r) = line.get("toolUseResult").filter(|r| r.is_object()) {
        p["tool_response"] = r.clone();
    }
    ReplayEvent {
        hook,
        payload: p,
        at,
    }
}
