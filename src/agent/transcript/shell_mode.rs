//! What the user ran themselves in `!` shell mode. Claude Code sends no hook for it (it
//! only writes `<bash-input>…</bash-input>` into the transcript), so the turn's end reads
//! it from the transcript, from where the last read stopped. A command the user types
//! by hand, session after session, is how they check their work.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::replay::timestamp;

const OPEN: &str = "<bash-input>";
const CLOSE: &str = "</bash-input>";

/// One command the user typed in shell mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserCommand {
    pub at: DateTime<Utc>,
    pub cwd: String,
    pub command: String,
}

/// What one read of a transcript's new bytes found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Read {
    pub commands: Vec<UserCommand>,
    /// How many bytes of the chunk were read through (complete lines only).
    pub consumed: usize,
}

/// The shell-mode commands of session `session_id` in `chunk` (the transcript's bytes
/// since the last read), up to `until`: a line still being written, or one stamped
/// after `until` (a replay reads a finished file turn by turn), waits for the next read.
/// Lines of other sessions (a resumed session's copy of its parent) are passed over.
pub fn read(chunk: &[u8], session_id: &str, until: DateTime<Utc>) -> Read {
    let mut out = Read::default();
    let mut at = 0;
    while let Some(end) = chunk[at..].iter().position(|&b| b == b'\n') {
        let line = std::str::from_utf8(&chunk[at..at + end]).unwrap_or("");
        if line.contains(OPEN) {
            match command_of(line, session_id) {
                Some(c) if c.at > until => break,
                Some(c) => out.commands.push(c),
                None => {}
            }
        }
        at += end + 1;
        out.consumed = at;
    }
    out
}

fn command_of(line: &str, session_id: &str) -> Option<UserCommand> {
    let v: Value = serde_json::from_str(line).ok()?;
    if v.get("type").and_then(Value::as_str) != Some("user")
        || v.get("sessionId").and_then(Value::as_str) != Some(session_id)
        || v.get("isSidechain").and_then(Value::as_bool) == Some(true)
    {
        return None;
    }
    let text = super::text_of(v.pointer("/message/content")?);
    let text = text.trim();
    let command = text.strip_prefix(OPEN)?.strip_suffix(CLOSE)?.trim();
    if command.is_empty() || command.contains(OPEN) {
        return None;
    }
    Some(UserCommand {
        at: timestamp(&v)?,
        cwd: v
            .get("cwd")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        command: command.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(session: &str, ts: &str, text: &str) -> String {
        serde_json::json!({
            "type": "user",
            "sessionId": session,
            "cwd": "/home/b/conf",
            "timestamp": ts,
            "message": {"role": "user", "content": [{"type": "text", "text": text}]},
        })
        .to_string()
    }

    #[test]
    fn shell_mode_commands_are_read_up_to_the_clock() {
        let until = crate::time::parse("2025-06-23T03:10:00Z").unwrap();
        let chunk = [
            line(
                "s1",
                "2025-06-23T03:01:46Z",
                "<bash-input>nix flake check</bash-input>",
            ),
            line(
                "s1",
                "2025-06-23T03:01:47Z",
                "<bash-stdout></bash-stdout><bash-stderr>error: x</bash-stderr>",
            ),
            line(
                "s0",
                "2025-06-22T03:01:46Z",
                "<bash-input>copied from the parent</bash-input>",
            ),
            line(
                "s1",
                "2025-06-23T03:05:00Z",
                "please fix <bash-input>x</bash-input> in the docs",
            ),
            line(
                "s1",
                "2025-06-23T03:20:00Z",
                "<bash-input>uv run pytest</bash-input>",
            ),
            line(
                "s1",
                "2025-06-23T03:21:00Z",
                "<bash-input>later</bash-input>",
            ),
        ]
        .join("\n")
            + "\n";
        let read = read(chunk.as_bytes(), "s1", until);
        let commands: Vec<&str> = read.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(commands, ["nix flake check"]);
        assert_eq!(read.commands[0].cwd, "/home/b/conf");
        // The read stops before the line stamped after the clock, and takes it next time.
        let rest = &chunk[read.consumed..];
        assert!(
            rest.starts_with("{") && rest.contains("uv run pytest"),
            "{rest}"
        );
        let later = super::read(
            rest.as_bytes(),
            "s1",
            crate::time::parse("2026-01-01T00:00:00Z").unwrap(),
        );
        assert_eq!(later.commands.len(), 2);
        assert_eq!(later.consumed, rest.len());
    }

    #[test]
    fn a_line_still_being_written_waits() {
        let until = crate::time::parse("2026-01-01T00:00:00Z").unwrap();
        let whole = line(
            "s1",
            "2025-06-23T03:01:46Z",
            "<bash-input>make test</bash-input>",
        );
        let half = &whole[..whole.len() / 2];
        assert_eq!(read(half.as_bytes(), "s1", until), Read::default());
        assert_eq!(
            read(format!("{whole}\n").as_bytes(), "s1", until)
                .commands
                .len(),
            1
        );
    }
}
