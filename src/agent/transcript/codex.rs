//! Codex session files (`~/.codex/sessions/**/rollout-*.jsonl`) read back as the hook
//! events they imply, like Claude Code transcripts: a session start in the session's
//! folder, the user's prompts, every tool call with its output, a turn end before each
//! new prompt, and the session end. Tool names stay Codex's (`shell`, `apply_patch`);
//! `agent::codex` maps them as it does for live hooks.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::replay::{ReplayEvent, Transcript, timestamp, tool_key};
use crate::agent::hook_event::HookEvent;

/// Whether `text` is a Codex rollout: its first record is the session's metadata.
pub fn is_rollout(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .is_some_and(|v| v["type"] == "session_meta")
}

/// Reads one rollout. `seen` holds the call ids of files read before; this file's are
/// added (a resumed session repeats its parent's records).
pub fn read(
    text: &str,
    path: &str,
    seen: &mut HashSet<u64>,
    fallback: DateTime<Utc>,
) -> Transcript {
    let mut r = Reader {
        t: Transcript::default(),
        path,
        calls: HashMap::new(),
        replied: false,
        answer: None,
    };
    let mut last = fallback;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(line) else {
            r.t.unreadable += 1;
            continue;
        };
        let at = timestamp(&v).unwrap_or(last);
        last = at;
        let item = &v["payload"];
        if v["type"] == "session_meta" {
            r.t.session_id = item["id"].as_str().unwrap_or("").to_string();
            r.t.cwd = item["cwd"].as_str().unwrap_or("").to_string();
        } else if v["type"] == "response_item" && !r.t.session_id.is_empty() && !r.t.cwd.is_empty()
        {
            r.item(item, at, seen);
        }
    }
    r.finish(last)
}

/// One rollout being read: the events so far, and the calls waiting for their output.
struct Reader<'a> {
    t: Transcript,
    path: &'a str,
    calls: HashMap<String, (String, Value)>,
    /// The agent answered or acted since the last prompt (a turn to end).
    replied: bool,
    answer: Option<String>,
}

impl Reader<'_> {
    fn push(&mut self, hook: HookEvent, payload: Value, at: DateTime<Utc>) {
        self.t.events.push(ReplayEvent { hook, payload, at });
    }

    /// One `response_item`.
    fn item(&mut self, item: &Value, at: DateTime<Utc>, seen: &mut HashSet<u64>) {
        if self.t.events.is_empty() {
            self.t.started = Some(at);
            let mut p = base(&self.t, self.path, HookEvent::SessionStart);
            p["source"] = json!("startup");
            self.push(HookEvent::SessionStart, p, at);
        }
        match item["type"].as_str().unwrap_or("") {
            "message" if item["role"] == "user" => {
                let Some(prompt) = typed_prompt(item) else {
                    return;
                };
                if self.replied {
                    let end = turn_end(&self.t, self.path, at, self.answer.take());
                    self.t.events.push(end);
                    self.replied = false;
                }
                let mut p = base(&self.t, self.path, HookEvent::UserPromptSubmit);
                p["prompt"] = json!(prompt);
                self.push(HookEvent::UserPromptSubmit, p, at);
            }
            "message" if item["role"] == "assistant" => {
                self.replied = true;
                self.answer = Some(text_of(&item["content"]));
            }
            "function_call" | "custom_tool_call" | "local_shell_call" => {
                let id = item["call_id"].as_str().unwrap_or("").to_string();
                if !id.is_empty() && !seen.insert(tool_key(&id)) {
                    self.t.copied += 1;
                    return;
                }
                self.replied = true;
                self.calls.insert(id, call(item));
            }
            "function_call_output" | "custom_tool_call_output" => {
                let id = item["call_id"].as_str().unwrap_or("");
                let Some((name, input)) = self.calls.remove(id) else {
                    return;
                };
                let mut p = base(&self.t, self.path, HookEvent::PostToolUse);
                p["tool_name"] = json!(name);
                p["tool_input"] = input;
                p["tool_use_id"] = json!(id);
                p["tool_response"] = response(&item["output"]);
                self.push(HookEvent::PostToolUse, p, at);
            }
            _ => {}
        }
    }

    /// The last turn's end and the session's end.
    fn finish(mut self, last: DateTime<Utc>) -> Transcript {
        if !self.t.events.is_empty() {
            if self.replied {
                let end = turn_end(&self.t, self.path, last, self.answer.take());
                self.t.events.push(end);
            }
            let mut p = base(&self.t, self.path, HookEvent::SessionEnd);
            p["reason"] = json!("other");
            self.push(HookEvent::SessionEnd, p, last);
        }
        self.t
    }
}

fn base(t: &Transcript, path: &str, event: HookEvent) -> Value {
    json!({
        "session_id": t.session_id,
        "transcript_path": path,
        "cwd": t.cwd,
        "hook_event_name": event.wire_name(),
    })
}

fn turn_end(t: &Transcript, path: &str, at: DateTime<Utc>, answer: Option<String>) -> ReplayEvent {
    let mut p = base(t, path, HookEvent::Stop);
    p["stop_hook_active"] = json!(false);
    if let Some(answer) = answer {
        p["last_assistant_message"] = json!(answer);
    }
    ReplayEvent {
        hook: HookEvent::Stop,
        payload: p,
        at,
    }
}

fn text_of(content: &Value) -> String {
    content
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the user typed: Codex also sends its own wrappers (environment context, the
/// AGENTS.md instructions) as user messages, each one tag from start to end.
fn typed_prompt(item: &Value) -> Option<String> {
    let text = text_of(&item["content"]);
    let trimmed = text.trim();
    let wrapper = trimmed.starts_with('<') && trimmed.ends_with('>');
    (!trimmed.is_empty() && !wrapper && !trimmed.starts_with("# AGENTS.md"))
        .then(|| trimmed.to_string())
}

/// A call's tool name and input as the hooks would get them.
fn call(item: &Value) -> (String, Value) {
    let name = item["name"].as_str().unwrap_or("shell").to_string();
    let args: Value = match &item["arguments"] {
        Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
        other => other.clone(),
    };
    if item["type"] == "custom_tool_call" || name == "apply_patch" {
        let patch = item["input"]
            .as_str()
            .or(args["input"].as_str())
            .unwrap_or("");
        return ("apply_patch".into(), json!({ "command": patch }));
    }
    let command = match args
        .get("command")
        .or(args.get("cmd"))
        .or(item["action"].get("command"))
    {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(words)) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [shell, flag, script]
                    if flag.starts_with('-') && flag.ends_with('c') && shell.ends_with("sh") =>
                {
                    (*script).to_string()
                }
                _ => words.join(" "),
            }
        }
        _ => String::new(),
    };
    (name, json!({ "command": command }))
}

/// A call's output: the text the model saw, or (older files) `{output, metadata}`.
fn response(output: &Value) -> Value {
    let text = match output {
        Value::String(s) => s.clone(),
        other => other["content"].as_str().unwrap_or("").to_string(),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(v) if v.get("output").is_some() => json!({
            "stdout": v["output"],
            "exit_code": v["metadata"]["exit_code"],
        }),
        _ => json!(text),
    }
}
