//! `homunculus replay <transcript.jsonl|dir>...`: feed recorded Claude Code sessions
//! through the same hook handlers (recording only), oldest session first, then learn
//! from everything that was read. `replay ~/.claude/projects` learns from a user's whole
//! history; replaying the same files again reads nothing new and changes no file.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::io::IsTerminal;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use super::{Ctx, engine, print};
use crate::agent::hook_event::HookEvent;
use crate::agent::payload::Payload;
use crate::agent::transcript;
use crate::cli::ReplayArgs;
use crate::hooks::{self, Replay};
use crate::log;
use crate::memory::memo;
use crate::observer::{self, Options};
use crate::setup::config::Config;
use crate::setup::layout;

/// Transcripts larger than this are skipped (and counted): a session this size is
/// mostly pasted data, and reading it would cost more memory than a replay should.
const MAX_TRANSCRIPT: u64 = 64 * 1024 * 1024;

/// What the replay read, for the closing line.
#[derive(Default)]
struct Tally {
    sessions: usize,
    events: usize,
    skipped: usize,
    unreadable_lines: usize,
    copied: usize,
}

pub fn run(ctx: &Ctx, args: &ReplayArgs) -> Result<()> {
    layout::ensure(&ctx.paths, ctx.now)?;
    // Oldest first: a resumed session's parent is read before it, and memories carry
    // their dates in the order they were made.
    let files = transcript::files::in_time_order(&args.sources);
    if files.is_empty() {
        anyhow::bail!("no transcript files (*.jsonl) found in the given paths");
    }
    let config = Config::load(&ctx.paths.config())?;
    let bar = progress(files.len());
    let mut seen = crate::observer::replayed::load(&ctx.paths);
    let before = seen.len();
    let mut tally = Tally::default();
    // The last session replayed per project: what the next one continues from.
    let mut last: HashMap<String, String> = HashMap::new();
    for file in &files {
        bar.inc(1);
        replay_file(ctx, file, &mut seen, &mut last, &mut tally);
    }
    bar.finish_and_clear();
    if seen.len() != before {
        crate::observer::replayed::save(&ctx.paths, &seen)?;
    }
    let report = observer::run(
        &ctx.paths,
        &config,
        Options {
            engine: engine(args.engine, &config),
            dry_run: false,
            force: true,
            drain: true,
            wait: super::observe::WAIT_FOR_RUNNING,
        },
        ctx.now,
    )?;
    let mut out = format!(
        "Replayed {} session(s), {} events, from {} file(s)",
        tally.sessions,
        tally.events,
        files.len()
    );
    if tally.skipped > 0 {
        let _ = write!(out, "; {} unreadable or too large, skipped", tally.skipped);
    }
    if tally.unreadable_lines > 0 {
        let _ = write!(out, "; {} lines not understood", tally.unreadable_lines);
    }
    if tally.copied > 0 {
        // Not an error: a resumed session's file repeats its parent's lines, and a second
        // replay of the same files meets every line again.
        let _ = write!(
            out,
            "; {} lines seen before (a resumed session's copy of its parent, or an earlier replay) were skipped",
            tally.copied
        );
    }
    out.push_str(".\n");
    out.push_str(&super::observe::learned(&report));
    print(&out)
}

fn progress(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} sessions {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Whether a hook event leaves an observation line.
fn observes(hook: HookEvent) -> bool {
    matches!(
        hook,
        HookEvent::UserPromptSubmit | HookEvent::PostToolUse | HookEvent::PostToolUseFailure
    )
}

fn replay_file(
    ctx: &Ctx,
    file: &Path,
    seen: &mut HashSet<u64>,
    last: &mut HashMap<String, String>,
    tally: &mut Tally,
) {
    let size = std::fs::metadata(file).map_or(u64::MAX, |m| m.len());
    let Some(bytes) = (size <= MAX_TRANSCRIPT)
        .then(|| std::fs::read(file).ok())
        .flatten()
    else {
        tally.skipped += 1;
        return;
    };
    let text = String::from_utf8_lossy(&bytes);
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Hooks read the transcript's tail by its absolute path, as Claude Code gives it.
    let path = std::path::absolute(file)
        .unwrap_or_else(|_| file.to_path_buf())
        .display()
        .to_string();
    let t = if transcript::codex::is_rollout(&text) {
        transcript::codex::read(&text, &path, seen, ctx.now)
    } else {
        transcript::read(&text, &stem, &path, seen, ctx.now)
    };
    tally.unreadable_lines += t.unreadable;
    tally.copied += t.copied;
    if t.events.is_empty() {
        return;
    }
    tally.sessions += 1;
    // Claude Code's own title names the session's summary; the project's previous
    // session is the one it continues.
    let sid = crate::agent::payload::safe_session_id(&t.session_id);
    let project = crate::agent::project::of(&t.cwd)
        .map(|p| crate::memory::projects::keyed(&ctx.paths, p).name);
    let previous = project.as_ref().and_then(|p| last.get(p)).cloned();
    let _ = memo::update(&ctx.paths, &sid, |m| {
        if t.title.is_some() {
            m.title = t.title.clone();
        }
        m.continues_from = previous;
    });
    // What this session already left in the observations (a replay before `state/` and
    // its record of replayed lines were lost): those events are not observed twice.
    let observed: HashSet<String> = crate::agent::observation::of_session(&ctx.paths, &sid)
        .into_iter()
        .map(|o| o.ts)
        .collect();
    for event in &t.events {
        let recorded = match event.hook {
            HookEvent::SessionStart => {
                !observed.is_empty()
                    || std::fs::exists(
                        ctx.paths
                            .sessions()
                            .join(crate::memory::session::file_name(event.at, &sid)),
                    )
                    .unwrap_or(false)
            }
            hook => observes(hook) && observed.contains(&crate::time::stamp_ms(event.at)),
        };
        let replay = if recorded {
            tally.copied += 1;
            Replay::Observed
        } else {
            tally.events += 1;
            Replay::New
        };
        let payload = Payload::from_value(event.payload.clone());
        let result = catch_unwind(AssertUnwindSafe(|| {
            hooks::handle(&ctx.paths, event.at, event.hook, payload, Some(replay))
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
    if let (Some(project), Some(summary)) = (project, memo::read(&ctx.paths, &sid).session_file) {
        last.insert(project, crate::memory::stem(Path::new(&summary)));
    }
}
