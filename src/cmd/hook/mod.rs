//! `homunculus hook <event>`: the entry point Claude Code runs for every hook. It reads
//! the payload, hands it to [`crate::hooks`], prints the answer and starts the observer
//! when a hook asks for it. It fails open: any error or panic is logged to
//! `logs/hooks.log`, nothing but protocol JSON is ever printed, and the exit code is
//! always 0. With `HOMUNCULUS_OBSERVER=1` (our own observer's `claude` child) it does
//! nothing at all.

use std::io::{Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};

use anyhow::Result;
use chrono::Utc;

use crate::agent::hook_event::HookEvent;
use crate::env::Env;
use crate::hooks::{self, Outcome};
use crate::log;
use crate::observer::Engine;

/// The most payload a hook reads into memory; the rest is drained and the event skipped.
/// The largest payload a hook reads (8 MiB): with the parse keeping only excerpts of
/// long fields, a hook stays under 32 MB of memory on any input. Claude Code's own tool
/// outputs are capped far below this; a larger payload (a Write of a huge file) is
/// skipped and logged.
const MAX_PAYLOAD: usize = 8 * 1024 * 1024;

/// Reads the whole payload (Claude Code writes it and closes the pipe); `None` when it
/// is larger than we are willing to hold.
fn read_stdin() -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut stdin = std::io::stdin().lock();
    let read = (&mut stdin)
        .take(MAX_PAYLOAD as u64 + 1)
        .read_to_end(&mut buf);
    if read.is_err() || buf.len() > MAX_PAYLOAD {
        // Drain the rest so the writer never sees a broken pipe.
        let _ = std::io::copy(&mut stdin, &mut std::io::sink());
        return None;
    }
    Some(buf)
}

/// Runs one hook. Never fails, never panics outward, prints at most one JSON object.
pub fn run(env: &Env, event: &str) -> Result<()> {
    // Panics are caught and logged below; the default hook would print them.
    std::panic::set_hook(Box::new(|_| {}));
    let input = read_stdin();
    if env.is_observer_child() {
        return Ok(());
    }
    let Ok(paths) = env.paths() else {
        return Ok(());
    };
    // Run by a plugin while settings.json registers the same hooks: the settings.json
    // copy answers, this one stands down (one stat; no event runs twice).
    if env.claude_plugin_root.is_some() && paths.settings_hooks_marker().exists() {
        return Ok(());
    }
    // A malformed HOMUNCULUS_NOW must not switch the hooks off: fall back to the clock.
    #[allow(clippy::disallowed_methods)]
    let now = env.now().unwrap_or_else(|_| Utc::now());
    let Some(hook) = HookEvent::from_cli(event) else {
        log::hook_error(&paths, now, event, "unknown hook event; skipped");
        return Ok(());
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let started_in = env
            .claude_project_dir
            .as_ref()
            .and_then(|d| d.to_str())
            .map(str::to_string);
        hooks::handle_bytes(&paths, now, hook, input, started_in)
    }));
    let outcome = match outcome {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(e)) => {
            log::hook_error(&paths, now, event, &format!("{e:#}"));
            Outcome::default()
        }
        Err(_) => {
            log::hook_error(&paths, now, event, "internal error (panic); skipped");
            Outcome::default()
        }
    };
    if let Some(flush_only) = outcome.observe
        && let Err(e) = spawn_observe(&paths.root, flush_only)
    {
        log::hook_error(
            &paths,
            now,
            event,
            &format!("cannot start the observer: {e}"),
        );
    }
    // A fixed clock is a test or a reproduction: nothing is left running behind it.
    if outcome.watch
        && env.homunculus_now.is_none()
        && let Err(e) = spawn_detached(&paths.root, &["watch", "--background"])
    {
        log::hook_error(
            &paths,
            now,
            event,
            &format!("cannot start the watcher: {e}"),
        );
    }
    if let Some(answer) = outcome.answer {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", answer.to_json());
        let _ = out.flush();
    }
    Ok(())
}

/// Runs `homunculus observe` detached (see `spawn_detached`).
fn spawn_observe(root: &std::path::Path, flush_only: bool) -> std::io::Result<()> {
    if flush_only {
        spawn_detached(root, &["observe", "--engine", Engine::Builtin.name()])
    } else {
        spawn_detached(root, &["observe"])
    }
}

/// Runs `homunculus <args>` in its own process group with no inherited pipes, so the
/// hook (and Claude Code waiting on its pipes) can finish at once.
fn spawn_detached(root: &std::path::Path, args: &[&str]) -> std::io::Result<()> {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    // In the memory folder, not the project: nothing there can shadow a program.
    cmd.args(args).current_dir(root);
    cmd.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()?;
    Ok(())
}
