//! What the user ran in `!` shell mode, recorded at each turn's end. Claude Code sends no
//! hook for it, so the transcript is read from the offset the session's memo keeps, up to
//! the hook's clock. The range read is claimed under the memo's lock before anything is
//! recorded, so two hooks of one session (a Stop and a PreCompact) never record a command
//! twice, and a transcript read again from its start (replaced, cut shorter) records only
//! commands newer than the last one recorded.

use std::path::Path;

use super::HookCtx;
use crate::agent::observation;
use crate::agent::transcript::shell_mode::{self, UserCommand};
use crate::memory::memo;

/// The most of a transcript one turn's end reads.
const READ_MAX: u64 = 4 * 1024 * 1024;

/// Records the shell-mode commands run since the last read; fails open (logged).
pub(super) fn record(ctx: &HookCtx) {
    let Some(path) = ctx.payload.transcript_path.as_deref().map(Path::new) else {
        return;
    };
    let Some(session) = ctx.payload.session_id.as_deref() else {
        return;
    };
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    if !path.is_absolute() || !meta.is_file() {
        return;
    }
    let memo = memo::read(&ctx.paths, &ctx.sid);
    // A file shorter than what was read of it was replaced: read it again from the start.
    let from = if memo.shell_read_to > meta.len() {
        0
    } else {
        memo.shell_read_to
    };
    let Some(chunk) = crate::fsutil::read_range(path, from, READ_MAX) else {
        return;
    };
    let read = shell_mode::read(&chunk, session, ctx.now);
    // One line longer than a whole read (a huge tool result) is passed over, not waited
    // for: no shell-mode line is that long.
    let consumed = if !chunk.contains(&b'\n') && chunk.len() as u64 == READ_MAX {
        chunk.len()
    } else {
        read.consumed
    };
    let to = from + consumed as u64;
    // Older than the session (a resumed session's copy of its parent) or than the last
    // command recorded: not this read's.
    let parse = |s: &Option<String>| s.as_deref().and_then(crate::time::parse);
    let after =
        parse(&memo.shell_last).max(parse(&memo.started).map(|t| t - chrono::Duration::seconds(1)));
    let new: Vec<&UserCommand> = read
        .commands
        .iter()
        .filter(|c| after.is_none_or(|a| c.at > a))
        .collect();
    let newest = new.iter().map(|c| c.at).max();
    let claimed = memo::update(&ctx.paths, &ctx.sid, |m| {
        if m.shell_read_to != memo.shell_read_to {
            return false;
        }
        m.shell_read_to = to;
        if let Some(t) = newest {
            m.shell_last = Some(crate::time::stamp_ms(t));
        }
        true
    });
    match claimed {
        Ok(true) => record_each(ctx, &new),
        Ok(false) => {}
        Err(e) => ctx.log(&format!("shell-mode commands not read: {e}")),
    }
}

/// Records each command but the looks.
fn record_each(ctx: &HookCtx, commands: &[&UserCommand]) {
    let project = ctx.project.as_ref().map(|p| p.name.as_str());
    for cmd in commands {
        // A look (`ls`, `git status`) teaches nothing, as with the agent's own.
        if observation::is_noisy_command(&cmd.command) {
            continue;
        }
        if let Err(e) = ctx.record(&observation::from_user_command(&ctx.payload, cmd, project)) {
            ctx.log(&format!("shell-mode command not recorded: {e}"));
        }
    }
}
