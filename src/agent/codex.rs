//! Codex as a second agent. Codex speaks Claude Code's hook format (same events, same
//! fields, same answers) with its own tools: shell commands arrive as `Bash` (or, in its
//! session files, `shell`/`exec_command`), file edits as `apply_patch` whose body names
//! the files, and a failed command as a `PostToolUse` whose response carries the exit
//! status. `normalize` maps those onto Claude Code's shapes, so recording, learning,
//! path triggers and injection work the same, and a memory learned in one agent is
//! recalled in the other.

use super::hook_event::HookEvent;
use super::payload::Payload;
use super::tool::Tool;

/// Codex's names for a shell command.
const SHELL_TOOLS: &[&str] = &[
    "shell",
    "exec_command",
    "local_shell",
    "container.exec",
    "unified_exec",
];

/// The tool that edits files by patch.
pub const APPLY_PATCH: &str = "apply_patch";

/// The event and payload as Claude Code would have sent them. Claude Code's own
/// payloads come back unchanged. `recorded_exit` finds a command's exit status where the
/// payload has none: Codex's PostToolUse carries only the command's output, and its
/// session file records the status (`exit_in_session`) before the hook runs.
pub fn normalize(
    event: HookEvent,
    mut payload: Payload,
    recorded_exit: impl FnOnce(&Payload) -> Option<i64>,
) -> (HookEvent, Payload) {
    let tool = payload.tool_name().to_string();
    if SHELL_TOOLS.contains(&tool.as_str()) {
        payload.tool_name = Some("Bash".into());
    } else if tool == APPLY_PATCH {
        let patch = payload.tool_input.command.take().unwrap_or_default();
        let files = patch_files(&patch);
        let edited = files
            .first()
            .map(|(verb, file)| (*verb, absolute(&payload, file)));
        payload.tool_name = Some(match edited {
            Some((Verb::Add, _)) => "Write".into(),
            _ => "Edit".into(),
        });
        payload.tool_input.file_path = edited.map(|(_, file)| file);
    }
    if event == HookEvent::PostToolUse
        && payload.tool() == Tool::Bash
        && payload.tool_response.text.is_some()
        && exit_code(&payload).is_none()
    {
        payload.tool_response.exit_code = recorded_exit(&payload);
    }
    if event == HookEvent::PostToolUse
        && payload.tool() == Tool::Bash
        && let Some(error) = failure(&payload)
    {
        payload.error = Some(error);
        return (HookEvent::PostToolUseFailure, payload);
    }
    (event, payload)
}

/// The exit status a response reports: a field, or the line Codex writes above a
/// command's output ("Exit code: 1", "Process exited with code 1").
fn exit_code(payload: &Payload) -> Option<i64> {
    let response = &payload.tool_response;
    if response.exit_code.is_some() {
        return response.exit_code;
    }
    let text = response.text.as_deref()?;
    text.lines().take(5).find_map(|line| {
        let line = line.trim();
        line.strip_prefix("Exit code:")
            .or_else(|| line.strip_prefix("Process exited with code"))
            .and_then(|n| n.trim().parse().ok())
    })
}

/// The exit status Codex's session file (its tail, `tail`) records for call `call_id`:
/// the `CommandExecution` item it completes before running the PostToolUse hooks.
pub fn exit_in_session(tail: &str, call_id: &str) -> Option<i64> {
    if call_id.is_empty() {
        return None;
    }
    let quoted = format!("\"{call_id}\"");
    tail.lines()
        .rev()
        .filter(|l| l.contains("\"CommandExecution\"") && l.contains(&quoted))
        .find_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let item = &v["payload"]["item"];
            (item["id"] == call_id).then(|| item["exit_code"].as_i64())?
        })
}

/// The error text of a failed command, as Claude Code's PostToolUseFailure gives it.
fn failure(payload: &Payload) -> Option<String> {
    let code = exit_code(payload).filter(|c| *c != 0)?;
    let response = &payload.tool_response;
    let output = response
        .text
        .clone()
        .or_else(|| response.stderr.clone().filter(|s| !s.is_empty()))
        .or_else(|| response.stdout.clone())
        .unwrap_or_default();
    Some(format!("Exit code {code}\n{output}"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Add,
    Update,
    Delete,
}

/// The files a patch names, in order, with what it does to each.
pub fn patch_files(patch: &str) -> Vec<(Verb, String)> {
    patch
        .lines()
        .filter_map(|line| {
            let line = line.trim_end();
            let (verb, file) = if let Some(f) = line.strip_prefix("*** Add File: ") {
                (Verb::Add, f)
            } else if let Some(f) = line.strip_prefix("*** Update File: ") {
                (Verb::Update, f)
            } else if let Some(f) = line.strip_prefix("*** Delete File: ") {
                (Verb::Delete, f)
            } else {
                (Verb::Update, line.strip_prefix("*** Move to: ")?)
            };
            let file = file.trim();
            (!file.is_empty()).then(|| (verb, file.to_string()))
        })
        .collect()
}

/// A patch path as an absolute one (Codex's are relative to the working folder).
fn absolute(payload: &Payload, file: &str) -> String {
    match payload.cwd.as_deref() {
        Some(cwd) if !file.starts_with('/') => {
            format!("{}/{}", cwd.trim_end_matches('/'), file)
        }
        _ => file.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(json: &str) -> Payload {
        Payload::parse(json.as_bytes()).unwrap()
    }

    #[test]
    fn an_apply_patch_is_an_edit_of_the_file_it_names() {
        let patch = "*** Begin Patch\n*** Update File: src/storage/ledger.rs\n@@\n-old\n+new\n*** Add File: docs/notes.md\n+hi\n*** End Patch\n";
        let p = payload(
            &serde_json::json!({
                "session_id": "s", "cwd": "/work/ledger", "hook_event_name": "PreToolUse",
                "tool_name": "apply_patch", "tool_input": {"command": patch},
            })
            .to_string(),
        );
        let (event, p) = normalize(HookEvent::PreToolUse, p, |_| None);
        assert_eq!(event, HookEvent::PreToolUse);
        assert_eq!(p.tool_name(), "Edit");
        assert_eq!(p.file_path(), Some("/work/ledger/src/storage/ledger.rs"));
        assert_eq!(p.tool_input.command, None, "a patch is not a shell command");
        assert_eq!(
            patch_files(patch),
            [
                (Verb::Update, "src/storage/ledger.rs".to_string()),
                (Verb::Add, "docs/notes.md".to_string())
            ]
        );
    }

    #[test]
    fn a_failed_command_becomes_a_failure_event() {
        for response in [
            serde_json::json!(
                "Exit code: 2\nWall time: 0.1 seconds\nOutput:\nmake: *** No rule to make target 'test'.  Stop.\n"
            ),
            serde_json::json!({"exit_code": 2, "stdout": "", "stderr": "make: *** No rule to make target 'test'.  Stop."}),
        ] {
            let p = payload(&serde_json::json!({
                "session_id": "s", "cwd": "/w", "hook_event_name": "PostToolUse",
                "tool_name": "Bash", "tool_input": {"command": "make test"}, "tool_response": response,
            }).to_string());
            let (event, p) = normalize(HookEvent::PostToolUse, p, |_| None);
            assert_eq!(event, HookEvent::PostToolUseFailure);
            assert!(p.error.unwrap().contains("No rule to make target"));
        }
        let ok = payload(
            r#"{"session_id":"s","tool_name":"shell","tool_input":{"command":"make check"},"tool_response":"Exit code: 0\nOutput:\nok\n"}"#,
        );
        let (event, p) = normalize(HookEvent::PostToolUse, ok, |_| None);
        assert_eq!((event, p.tool_name()), (HookEvent::PostToolUse, "Bash"));
    }

    #[test]
    fn a_bare_output_takes_its_exit_status_from_the_session_file() {
        // Codex 0.169: the hook gets the output alone; the rollout has the status.
        let tail = concat!(
            r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"call_0","command":["/bin/bash","-lc","make test"],"status":"failed","exit_code":2}}}"#,
            "\n",
            r#"{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"call_1","status":"completed","exit_code":0}}}"#,
        );
        assert_eq!(exit_in_session(tail, "call_0"), Some(2));
        assert_eq!(exit_in_session(tail, "call_1"), Some(0));
        assert_eq!(exit_in_session(tail, "call_9"), None);
        let p = payload(
            r#"{"session_id":"s","tool_name":"Bash","tool_use_id":"call_0","tool_input":{"command":"make test"},"tool_response":"make: *** No rule to make target 'test'.  Stop.\n"}"#,
        );
        let (event, p) = normalize(HookEvent::PostToolUse, p, |p| {
            exit_in_session(tail, p.tool_use_id.as_deref().unwrap_or(""))
        });
        assert_eq!(event, HookEvent::PostToolUseFailure);
        assert!(p.error.unwrap().starts_with("Exit code 2\nmake: ***"));
    }

    #[test]
    fn claude_code_payloads_pass_unchanged() {
        let p = payload(
            r#"{"session_id":"s","tool_name":"Edit","tool_input":{"file_path":"/a/b.rs"},"tool_response":{"stdout":""}}"#,
        );
        let (event, out) = normalize(HookEvent::PostToolUse, p.clone(), |_| None);
        assert_eq!(event, HookEvent::PostToolUse);
        assert_eq!(
            (out.tool_name(), out.file_path()),
            ("Edit", Some("/a/b.rs"))
        );
    }
}
