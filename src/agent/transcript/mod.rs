//! Claude Code transcripts (`~/.claude/projects/<key>/<session>.jsonl`) read back as the
//! hook events they imply: session start, prompts, tool calls with their results and
//! errors, turn ends, session end. Our own injected context (attachment lines) and
//! meta messages are never turned into events, so replay never learns from itself.

use serde_json::Value;

pub mod codex;
pub mod files;
mod prompt;
mod replay;
pub mod shell_mode;

pub use replay::{ReplayEvent, Transcript, read, tool_key};

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

/// The dialogue of transcript lines as plain text for a reader (the llm lenses): what
/// the user typed, what the assistant said, which tools it called and which failed, each
/// line labelled by whose words it holds (the user's, the assistant's, a tool's output),
/// so that a tool's text is never presented as the user's. Attachments (our injected
/// context among them) and meta lines are left out.
pub fn dialogue(text: &str) -> String {
    let mut out = String::new();
    let mut tools: std::collections::HashMap<String, String> = Default::default();
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
                Value::String(_) => {
                    if let prompt::Line::Prompt(p) = prompt::classify(&content) {
                        out.push_str(&format!("User: {p}\n"));
                    }
                }
                Value::Array(blocks) => {
                    if let prompt::Line::Prompt(p) = prompt::classify(&content) {
                        out.push_str(&format!("User: {p}\n"));
                    }
                    let era = crate::agent::observation::Era::of(
                        v.get("version").and_then(Value::as_str),
                    );
                    for b in blocks {
                        if b.get("is_error").and_then(Value::as_bool) == Some(true) {
                            let text = text_of(b.get("content").unwrap_or(&Value::Null));
                            let id = b.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
                            let tool = tools.get(id).map_or("", String::as_str);
                            out.push_str(&failure_line(tool, &text, era));
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
                        Some("tool_use") => {
                            let name = b["name"].as_str().unwrap_or("?");
                            if let Some(id) = b["id"].as_str() {
                                tools.insert(id.to_string(), name.to_string());
                            }
                            out.push_str(&format!("Assistant ran {name}: {}\n", b["input"]));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A failed tool call as the lenses read it: who stopped it, and why, with the words
/// labelled by their source.
fn failure_line(tool: &str, text: &str, era: crate::agent::observation::Era) -> String {
    use crate::agent::observation::{Outcome, classify_failure_in};
    let clipped = |t: &str| crate::text::one_line(t, 300);
    match classify_failure_in(tool, text, era) {
        (Outcome::Rejected, Some(said)) => {
            format!(
                "User rejected the call and typed (the user's own words): {}\n",
                clipped(&said)
            )
        }
        (Outcome::Rejected, None) => "User rejected the call.\n".into(),
        (Outcome::Blocked, _) => "User interrupted the call.\n".into(),
        (Outcome::Denied, _) => "The call was not permitted.\n".into(),
        (Outcome::ToolError, _) => format!(
            "The tool refused its input (tool output, not the user's words): {}\n",
            clipped(text)
        ),
        _ => format!(
            "Tool failed (tool output, not the user's words): {}\n",
            clipped(text)
        ),
    }
}

/// The first sentence of the agent's last answer in a transcript's tail (main thread,
/// text, not a tool call), redacted and bounded: how the session ended.
pub fn last_answer(tail: &str) -> Option<String> {
    // Set once the newest turn proved cut short: its earlier texts were said mid-work
    // too, so the search goes on from the prompt that opened it.
    let mut cut_short = false;
    for line in tail.lines().rev() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if cut_short {
            cut_short = !is_a_prompt(&v);
            continue;
        }
        if v.get("type").and_then(Value::as_str) != Some("assistant")
            || v.get("isSidechain").and_then(Value::as_bool) == Some(true)
        {
            continue;
        }
        let text = v
            .pointer("/message/content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        // The first sentence that says something ("Perfect!" does not).
        let mut rest = text;
        let mut first = None;
        let mut last = "";
        let mut announced = false;
        let mut in_code = false;
        while !rest.is_empty() {
            let end = rest
                .char_indices()
                .find(|&(i, c)| {
                    c == '\n'
                        || (matches!(c, '.' | '!' | '?') && rest[i + 1..].starts_with([' ', '\n']))
                })
                .map_or(rest.len(), |(i, c)| i + c.len_utf8());
            let sentence = rest[..end].trim();
            // A table's row, a code fence or the code inside one is never how a turn
            // ended (`videoDrivers = [ "nvidia" ];` has words enough to pass for one).
            let fence = sentence.starts_with("```");
            let markup = sentence.starts_with('|') || fence || in_code;
            in_code ^= fence;
            if !markup {
                last = sentence;
            }
            let step = announces_a_step(sentence);
            announced |= step;
            // A heading, an announcement of a list or of the next step says nothing by
            // itself.
            let said = sentence.split_whitespace().count() >= 4
                && !markup
                && !sentence.starts_with('#')
                && !sentence.ends_with([':', '：'])
                && !step;
            if said {
                first = Some(sentence);
                break;
            }
            rest = rest[end..].trim_start();
        }
        // An answer that only announces its next step ("let me find where `codes` is
        // imported:") or ends on a colon went on in a tool call: a turn cut short, not
        // how the session ended; the outcome of the turn before stands (the Stop hook
        // already has it live; a replay reading the tail once finds it here). A short
        // answer ("Done.", "Fixed, tests pass.") is its last sentence.
        let first = match first {
            Some(said) => said,
            None if announced || last.is_empty() || last.ends_with([':', '：']) => {
                cut_short = true;
                continue;
            }
            None => last,
        };
        let first = crate::agent::redact::redact(first);
        return Some(crate::text::one_line_words(&first, 200));
    }
    None
}

/// Whether a transcript line is a prompt the user sent: main thread, not a meta line, and
/// what `prompt::classify` takes for a person typing a request (as replay does).
fn is_a_prompt(v: &Value) -> bool {
    let flag = |k: &str| v.get(k).and_then(Value::as_bool) == Some(true);
    v.get("type").and_then(Value::as_str) == Some("user")
        && !flag("isSidechain")
        && !flag("isMeta")
        && v.pointer("/message/content")
            .is_some_and(|c| matches!(prompt::classify(c), prompt::Line::Prompt(_)))
}

/// Whether a sentence announces what the agent is about to do ("Let me try a different
/// approach", "Now I'll update the tests", "Now I have everything I need").
fn announces_a_step(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    let lower = lower.trim_start_matches(|c: char| !c.is_alphanumeric());
    let lower = [
        "now, ",
        "now ",
        "ok, ",
        "okay, ",
        "good, ",
        "great, ",
        "perfect, ",
    ]
    .iter()
    .find_map(|p| lower.strip_prefix(p))
    .unwrap_or(lower);
    // "Let me know if …" closes an answer; "I need to stop here: …" is an outcome.
    !lower.starts_with("let me know")
        && [
            "let me ",
            "let's ",
            "i'll ",
            "i will ",
            "i'm going to ",
            "i have everything i need",
            "i have enough information",
            "i have enough context",
            "next, i",
        ]
        .iter()
        .any(|p| lower.starts_with(p))
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
    fn how_a_session_ended_is_its_last_answer_that_says_something() {
        let line = |text: &str| {
            serde_json::json!({"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}})
                .to_string()
        };
        let answer = |text: &str| last_answer(&line(text));
        assert_eq!(
            answer("Perfect! The export now writes UTF-8 with a BOM.").as_deref(),
            Some("The export now writes UTF-8 with a BOM.")
        );
        assert_eq!(
            answer("Let me check the tests. All 214 tests pass now.").as_deref(),
            Some("All 214 tests pass now.")
        );
        assert_eq!(answer("Done.").as_deref(), Some("Done."));
        // Code shown in a fence is not what the agent said.
        assert_eq!(
            answer("You're absolutely right! Since you refactored:\n```nix\n(import ../../lib/hosts { hostname = \"jaro\"; })\n```\nYou no longer need `hostname` in `specialArgs`.").as_deref(),
            Some("You no longer need `hostname` in `specialArgs`.")
        );
        // A table or a code block says nothing by itself; the sentence after it may.
        assert_eq!(
            answer("Here is the comparison:\n| Metric | Legacy | Modern |\n|---|---|---|\nThe modern page loads twice as fast.").as_deref(),
            Some("The modern page loads twice as fast.")
        );
        assert_eq!(
            answer("Let me know if you'd like the tests split too.").as_deref(),
            Some("Let me know if you'd like the tests split too.")
        );
        assert_eq!(
            answer("Here is the comparison:\n| Metric | Legacy | Modern |\n|---|---|---|"),
            None
        );
        // Only the next step announced: the turn was cut short.
        for step in [
            "I also need to put `grpc` back — let me find where `codes` and `status` are in the imports:",
            "Let me try a different approach:",
            "Now I have everything I need.",
            "Now I'll update the resolver tests too.",
            "我先前只說 `/tmp` 可寫，沒點出它其實是 RAM。三個影響：",
        ] {
            assert_eq!(answer(step), None, "{step}");
        }
        // Not an earlier text of the same turn either: that was said mid-work too (the
        // Stop hook keeps the outcome of the turn before).
        let tail = format!(
            "{}\n{}",
            line("The build fails because the proto is stale."),
            line("Let me try a different approach:")
        );
        assert_eq!(last_answer(&tail), None);
        // The turn before the one cut short: its answer is how the session stands.
        let prompt = serde_json::json!({"type": "user", "message": {"content": "CI still fails:\nrun golangci-lint"}}).to_string();
        let result = serde_json::json!({"type": "user", "message": {"content": [{"type": "tool_result", "content": "ok"}]}}).to_string();
        let tail = format!(
            "{}\n{prompt}\n{}\n{result}\n{}",
            line("The mock is correct locally but the file isn't committed to the branch."),
            line("Import block needs gofmt ordering."),
            line("I also need to put `grpc` back — let me find where `codes` is in the imports:")
        );
        assert_eq!(
            last_answer(&tail).as_deref(),
            Some("The mock is correct locally but the file isn't committed to the branch.")
        );
    }

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
    fn a_session_title_goes_through_the_redaction_gate() {
        let text = concat!(
            r#"{"type":"summary","summary":"Rotate GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 in CI"}"#,
            "\n",
            r#"{"type":"user","sessionId":"s1","cwd":"/src/ledger","timestamp":"2026-02-20T12:00:00Z","uuid":"u1","message":{"role":"user","content":"rotate the token please"}}"#,
            "\n",
        );
        let mut seen = std::collections::HashSet::new();
        let t = read(
            text,
            "s1",
            "/x/s1.jsonl",
            &mut seen,
            chrono::DateTime::UNIX_EPOCH,
        );
        let title = t.title.unwrap();
        assert!(!title.contains("ghp_abcdef"), "{title}");
        assert!(title.contains("[REDACTED]"), "{title}");
    }
}
