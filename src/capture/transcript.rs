//! Claude Code transcripts (`~/.claude/projects/<key>/<session>.jsonl`) read back as the
//! hook events they imply: session start, prompts, tool calls with their results and
//! errors, turn ends, session end. Our own injected context (attachment lines) and
//! meta messages are never turned into events, so replay never learns from itself.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::capture::hook_event::HookEvent;

/// One synthesised hook event.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayEvent {
    pub hook: HookEvent,
    pub payload: Value,
    pub at: DateTime<Utc>,
}

fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// Whether a user line's text is a person typing (not a command echo or interruption).
fn is_typed_prompt(text: &str) -> bool {
    let t = text.trim_start();
    !t.is_empty()
        && !t.starts_with("<command-")
        && !t.starts_with("<local-command")
        && !t.starts_with("[Request interrupted")
        && !t.starts_with("<system-reminder>")
}

/// The events of one transcript. `fallback` dates lines without a timestamp.
pub fn events(text: &str, path: &str, fallback: DateTime<Utc>) -> Vec<ReplayEvent> {
    let mut out = Vec::new();
    let mut tools: HashMap<String, (String, Value)> = HashMap::new();
    let mut session = String::new();
    let mut cwd = String::new();
    let mut last = fallback;
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        let at = v
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map_or(last, |t| t.with_timezone(&Utc));
        last = at;
        if let Some(s) = v.get("sessionId").and_then(Value::as_str)
            && session.is_empty()
        {
            session = s.to_string();
        }
        if let Some(c) = v.get("cwd").and_then(Value::as_str) {
            cwd = c.to_string();
        }
        if session.is_empty() || cwd.is_empty() {
            continue;
        }
        let base = |event: &str| json!({ "session_id": session, "transcript_path": path, "cwd": cwd, "hook_event_name": event });
        if out.is_empty() {
            let mut p = base("SessionStart");
            p["source"] = json!("startup");
            out.push(ReplayEvent {
                hook: HookEvent::SessionStart,
                payload: p,
                at,
            });
        }
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        let message = v.get("message").cloned().unwrap_or(Value::Null);
        match kind {
            "user" if v.get("isMeta").and_then(Value::as_bool) != Some(true) => {
                let content = message.get("content").cloned().unwrap_or(Value::Null);
                if let Value::Array(blocks) = &content {
                    for block in blocks
                        .iter()
                        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
                    {
                        let id = block
                            .get("tool_use_id")
                            .and_then(Value::as_str)
                            .unwrap_or("");
                        let Some((name, input)) = tools.remove(id) else {
                            continue;
                        };
                        let failed = block.get("is_error").and_then(Value::as_bool) == Some(true);
                        let mut p = base(
                            if failed {
                                HookEvent::PostToolUseFailure
                            } else {
                                HookEvent::PostToolUse
                            }
                            .wire_name(),
                        );
                        p["tool_name"] = json!(name);
                        p["tool_input"] = input;
                        p["tool_use_id"] = json!(id);
                        if failed {
                            p["error"] =
                                json!(text_of(block.get("content").unwrap_or(&Value::Null)));
                        } else if let Some(r) = v.get("toolUseResult").filter(|r| r.is_object()) {
                            p["tool_response"] = r.clone();
                        }
                        let hook = if failed {
                            HookEvent::PostToolUseFailure
                        } else {
                            HookEvent::PostToolUse
                        };
                        out.push(ReplayEvent {
                            hook,
                            payload: p,
                            at,
                        });
                    }
                }
                let typed = match &content {
                    Value::String(s) => Some(s.clone()),
                    Value::Array(blocks)
                        if blocks
                            .iter()
                            .all(|b| b.get("type").and_then(Value::as_str) == Some("text")) =>
                    {
                        Some(text_of(&content))
                    }
                    _ => None,
                };
                if let Some(prompt) = typed.filter(|t| is_typed_prompt(t)) {
                    let mut p = base("UserPromptSubmit");
                    p["prompt"] = json!(prompt);
                    out.push(ReplayEvent {
                        hook: HookEvent::UserPromptSubmit,
                        payload: p,
                        at,
                    });
                }
            }
            "assistant" => {
                for block in message
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if block.get("type").and_then(Value::as_str) == Some("tool_use") {
                        let id = block
                            .get("id")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string();
                        let name = block
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string();
                        let input = block.get("input").cloned().unwrap_or(json!({}));
                        tools.insert(id, (name, input));
                    }
                }
                if message.get("stop_reason").and_then(Value::as_str) == Some("end_turn") {
                    let mut p = base("Stop");
                    p["stop_hook_active"] = json!(false);
                    out.push(ReplayEvent {
                        hook: HookEvent::Stop,
                        payload: p,
                        at,
                    });
                }
            }
            // Attachments carry hook output, ours included: never learned from.
            _ => {}
        }
    }
    if let Some(first) = out.first() {
        let mut p = first.payload.clone();
        p["hook_event_name"] = json!("SessionEnd");
        p["reason"] = json!("other");
        out.push(ReplayEvent {
            hook: HookEvent::SessionEnd,
            payload: p,
            at: last,
        });
    }
    out
}

/// The dialogue of transcript lines as plain text for a reader (the llm lenses): what
/// the user typed, what the assistant said, which tools it called and which failed.
/// Attachments (our injected context among them) and meta lines are left out.
pub fn dialogue(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v.get("isMeta").and_then(Value::as_bool) == Some(true)
            || v.get("isSidechain").and_then(Value::as_bool) == Some(true)
        {
            continue;
        }
        let content = v
            .pointer("/message/content")
            .cloned()
            .unwrap_or(Value::Null);
        match v.get("type").and_then(Value::as_str) {
            Some("user") => match &content {
                Value::String(s) if is_typed_prompt(s) => out.push_str(&format!("User: {s}\n")),
                Value::Array(blocks) => {
                    for b in blocks {
                        if b.get("is_error").and_then(Value::as_bool) == Some(true) {
                            let t: String = text_of(b.get("content").unwrap_or(&Value::Null))
                                .chars()
                                .take(300)
                                .collect();
                            out.push_str(&format!("Tool failed: {t}\n"));
                        }
                    }
                }
                _ => {}
            },
            Some("assistant") => {
                for b in content.as_array().into_iter().flatten() {
                    match b.get("type").and_then(Value::as_str) {
                        Some("text") => out.push_str(&format!(
                            "Assistant: {}\n",
                            b["text"].as_str().unwrap_or("")
                        )),
                        Some("tool_use") => out.push_str(&format!(
                            "Assistant ran {}: {}\n",
                            b["name"].as_str().unwrap_or("?"),
                            b["input"]
                        )),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The context use (percent) of a session from the tail of its transcript: the last
/// main-thread assistant response's input, cache-creation and cache-read tokens over the
/// window (1M for `[1m]` models, else 200k), as the status line computes it. `None` when
/// no response is there yet, or a compaction came after it.
pub fn context_used(tail: &str) -> Option<f64> {
    for line in tail.lines().rev() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v.get("subtype").and_then(Value::as_str) == Some("compact_boundary") {
            return None;
        }
        if v.get("type").and_then(Value::as_str) != Some("assistant")
            || v.get("isSidechain").and_then(Value::as_bool) == Some(true)
        {
            continue;
        }
        let model = v
            .pointer("/message/model")
            .and_then(Value::as_str)
            .unwrap_or("");
        let Some(usage) = v
            .pointer("/message/usage")
            .filter(|_| model != "<synthetic>")
        else {
            continue;
        };
        let n = |k: &str| usage.get(k).and_then(Value::as_f64).unwrap_or(0.0);
        let used =
            n("input_tokens") + n("cache_creation_input_tokens") + n("cache_read_input_tokens");
        let window = if model.ends_with("[1m]") {
            1_000_000.0
        } else {
            200_000.0
        };
        return Some((used / window * 100.0).round().clamp(0.0, 100.0));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_use_from_the_last_response() {
        let tail = r#"{"type":"assistant","message":{"model":"claude-sonnet-5-5","usage":{"input_tokens":4,"cache_creation_input_tokens":18432,"cache_read_input_tokens":21564,"output_tokens":96}}}
{"type":"assistant","isSidechain":true,"message":{"model":"x","usage":{"input_tokens":190000}}}
{"type":"assistant","message":{"model":"<synthetic>","usage":{"input_tokens":0}}}
"#;
        assert_eq!(context_used(tail), Some(20.0));
        let compacted = format!("{tail}{{\"type\":\"system\",\"subtype\":\"compact_boundary\"}}\n");
        assert_eq!(context_used(&compacted), None);
        assert_eq!(context_used("garbage"), None);
    }

    #[test]
    fn a_failure_and_its_fix_become_events() {
        let text = r##"{"type":"attachment","attachment":{"type":"hook_additional_context","content":["# homunculus memory: use nextest"]},"sessionId":"s1","cwd":"/p","timestamp":"2026-02-01T10:00:00.000Z"}
{"type":"user","message":{"role":"user","content":"run the tests"},"sessionId":"s1","cwd":"/p","timestamp":"2026-02-01T10:00:01.000Z"}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test"}}],"stop_reason":"tool_use"},"sessionId":"s1","cwd":"/p","timestamp":"2026-02-01T10:00:02.000Z"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Exit code 101\nerror: boom","is_error":true}]},"toolUseResult":"Error: Exit code 101","sessionId":"s1","cwd":"/p","timestamp":"2026-02-01T10:00:03.000Z"}
{"type":"user","isMeta":true,"message":{"role":"user","content":"<system-reminder>caveat</system-reminder>"},"sessionId":"s1","cwd":"/p"}
{"type":"assistant","message":{"content":[{"type":"text","text":"done"}],"stop_reason":"end_turn"},"sessionId":"s1","cwd":"/p","timestamp":"2026-02-01T10:00:04.000Z"}
not json at all
"##;
        let fallback = DateTime::parse_from_rfc3339("2026-02-01T00:00:00Z")
            .unwrap()
            .to_utc();
        let events = events(text, "/t.jsonl", fallback);
        let hooks: Vec<&str> = events.iter().map(|e| e.hook.cli_name()).collect();
        assert_eq!(
            hooks,
            [
                "session-start",
                "user-prompt-submit",
                "post-tool-use-failure",
                "stop",
                "session-end"
            ]
        );
        assert_eq!(events[2].payload["error"], "Exit code 101\nerror: boom");
        assert_eq!(events[2].payload["tool_input"]["command"], "cargo test");
        assert!(!format!("{events:?}").contains("use nextest"));
    }
}
