//! `homunculus replay <transcript.jsonl|dir>...`: feed recorded Claude Code sessions
//! through the same hook handlers (recording only), then run the observer once. `replay
//! ~/.claude/projects` learns from a user's whole history.

use std::fmt::Write;
use std::io::IsTerminal;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use super::hook;
use super::{Ctx, print};
use crate::capture::transcript;
use crate::cli::ReplayArgs;
use crate::log;
use crate::observer::{self, Options};
use crate::setup::config::Config;
use crate::setup::layout;

/// Transcripts larger than this are skipped (and said so).
const MAX_TRANSCRIPT: u64 = 256 * 1024 * 1024;

fn transcripts(sources: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for source in sources {
        if source.is_file() {
            out.push(source.clone());
            continue;
        }
        for entry in walkdir::WalkDir::new(source)
            .follow_links(false)
            .into_iter()
            .flatten()
        {
            let path = entry.path();
            // Subagent transcripts are side conversations of a session, not sessions.
            let sidechain = path.components().any(|c| c.as_os_str() == "subagents");
            if entry.file_type().is_file()
                && path.extension().is_some_and(|e| e == "jsonl")
                && !sidechain
            {
                out.push(path.to_path_buf());
            }
        }
    }
    out.sort();
    out
}

pub fn run(ctx: &Ctx, args: &ReplayArgs) -> Result<()> {
    layout::ensure(&ctx.paths, ctx.now)?;
    let files = transcripts(&args.sources);
    if files.is_empty() {
        anyhow::bail!("no transcript files (*.jsonl) found in the given paths");
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(files.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} sessions {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let (mut sessions, mut events, mut skipped) = (0, 0, 0);
    for file in &files {
        bar.inc(1);
        if std::fs::metadata(file).is_ok_and(|m| m.len() > MAX_TRANSCRIPT) {
            skipped += 1;
            continue;
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            skipped += 1;
            continue;
        };
        let list = transcript::events(&text, &file.display().to_string(), ctx.now);
        if list.is_empty() {
            continue;
        }
        sessions += 1;
        for event in list {
            events += 1;
            let bytes = serde_json::to_vec(&event.payload)?;
            let result = catch_unwind(AssertUnwindSafe(|| {
                hook::handle(&ctx.paths, event.at, event.hook, Some(bytes), true)
            }));
            if let Ok(Err(e)) = result {
                log::hook_error(
                    &ctx.paths,
                    event.at,
                    event.hook.cli_name(),
                    &format!("replay of {}: {e:#}", file.display()),
                );
            }
        }
    }
    bar.finish_and_clear();
    let config = Config::load(&ctx.paths.config())?;
    let engine = config.observer.engine;
    let report = observer::run(
        &ctx.paths,
        &config,
        Options {
            engine,
            dry_run: false,
            force: true,
        },
        ctx.now,
    )?;
    let mut out = format!(
        "Replayed {sessions} session(s), {events} events, from {} file(s)",
        files.len()
    );
    if skipped > 0 {
        let _ = write!(out, " ({skipped} unreadable or too large, skipped)");
    }
    out.push_str(".\n");
    out.push_str(&super::observe::learned(&report));
    print(&out)
}
