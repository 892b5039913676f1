//! `homunculus statusline`: Claude Code's status line input is logged (context use per
//! session) to `logs/activity.jsonl`, rotated at 1000 lines down to the last 500. Prints
//! nothing, or with `--then CMD` runs CMD on the same input and passes its output on.
//! Never fails: a status line must not break.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use anyhow::Result;
use serde_json::json;

use super::Ctx;
use crate::agent::payload::StatusInput;

const KEEP_AT_MOST: usize = 1000;
const KEEP_AFTER_ROTATION: usize = 500;

pub fn run(ctx: &Ctx, args: &crate::cli::StatuslineArgs) -> Result<()> {
    let mut input = Vec::new();
    let _ = std::io::stdin()
        .lock()
        .take(4 * 1024 * 1024)
        .read_to_end(&mut input);
    if let Some(payload) = StatusInput::parse(&input) {
        record(ctx, &payload);
    }
    if let Some(then) = &args.then {
        let child = Command::new("sh")
            .arg("-c")
            .arg(then)
            .stdin(Stdio::piped())
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit())
            .spawn();
        if let Ok(mut child) = child {
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(&input);
            }
            let _ = child.wait();
        }
    }
    Ok(())
}

fn record(ctx: &Ctx, payload: &StatusInput) {
    if !ctx.paths.logs().is_dir() {
        return;
    }
    let used = payload.context_window.used_percentage;
    let line = json!({
        "ts": crate::time::stamp_ms(ctx.now),
        "session_id": crate::agent::payload::safe_session_id(payload.session_id.as_deref().unwrap_or("")),
        "used_percentage": used,
        "transcript_path": payload.transcript_path,
    });
    let file = ctx.paths.logs().join("activity.jsonl");
    let _ = crate::fsutil::append(
        &file,
        format!(
            "{line}
"
        )
        .as_bytes(),
    );
    // Rotation: cheap check by size first (1000 short lines are well under 400 KB).
    if std::fs::metadata(&file).is_ok_and(|m| m.len() > 150 * 1024) {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > KEEP_AT_MOST {
            let kept = lines[lines.len() - KEEP_AFTER_ROTATION..].join("\n") + "\n";
            let _ = crate::fsutil::atomic_write(&file, kept.as_bytes());
        }
    }
}
