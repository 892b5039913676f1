//! (a) Error recoveries: a shell command fails, and a few steps later (no user prompt
//! and no file edit in between: that would be a code fix, not a lesson) a command
//! that answers the failure succeeds. The lesson is keyed on the failure's signature
//! and on the kind of fix, so the same lesson seen through other commands is one:
//! - the same command with an environment variable set, a flag added, or the argument
//!   the error named changed (`DATABASE_URL=… cargo test`, `python3 -m unittest`);
//! - a sibling tool or a runner (npm → pnpm, pip → uv, `pytest` → `uv run pytest`,
//!   `docker compose` → `docker-compose`), or the program the error names;
//! - a setup step the error asks for, then the same command again (`git config
//!   user.email …`, `terraform init`); or the one step taken between the failure and
//!   the retry that passed, when there was only one (`git add` of new files before
//!   `nix flake check`), never a command on another host or a service restart (an
//!   outage that ended looks just like that).
//!
//! A fix is confirmed by its outcome, not by coming next: the failed command itself, or
//! its modified form (same program, same target), must succeed after it, with no user
//! message in between (unless the step is the one the error itself asked for), within
//! `GAP`, in the same folder, and with output that does not say nothing happened
//! ("Everything up-to-date"). Another host, script or folder is another story.
//!
//! Never a fix: diagnostics (looked past), anything that may never be advice (it
//! deletes, fetches and runs code, or switches a safety off: the recovery is dropped),
//! the failed program run again as its own "step" (`cp` before `cp`), or the same
//! command again (a flaky failure).

use crate::memory::pattern;
use std::collections::BTreeMap;

use super::{Finding, code, domain_of, sid8};
use crate::agent::observation::{Event, Observation, Outcome};
use crate::agent::signature::{Banners, quotable, signature_among, telling_line_among};
use crate::agent::tool::Tool;
use crate::shell::{self, Command};

/// How far after a failure its fix may come.
const LOOKAHEAD: usize = 12;
/// How long after a failure its fix may come: later, the world changed in between.
const GAP_SECONDS: i64 = 15 * 60;

fn seconds_between(a: &str, b: &str) -> Option<i64> {
    let t = crate::time::parse;
    Some((t(b)? - t(a)?).num_seconds())
}

/// A fix and how to say it.
#[derive(Debug, Clone, PartialEq)]
struct Fix {
    /// The fix's part of the pattern key: `env:DATABASE_URL`, `use:pnpm`, ...
    key: String,
    /// The advice: what to do, with the command that worked.
    advice: String,
    /// A short name for the lesson.
    title: String,
    /// The step taken before the same command passed, for "run this first" fixes.
    step: Option<String>,
}

mod candidate;
mod fixes;
mod names;
mod relate;

use candidate::candidate_fix;
use fixes::{answers, is_basic};
use names::name_of;

fn shell_command(obs: &Observation) -> Option<&str> {
    (obs.tool == Some(Tool::Bash))
        .then_some(obs.input.command.as_deref())
        .flatten()
}

/// (a) The recoveries of one session, in order.
pub fn recoveries(session: &[Observation]) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    // What the session's succeeding commands printed first: banners, not errors.
    let banners: Banners = session
        .iter()
        .flat_map(|o| o.printed.iter().copied())
        .collect();
    for (i, failed) in session.iter().enumerate() {
        if failed.outcome != Some(Outcome::Error) {
            continue;
        }
        let Some(line) = shell_command(failed) else {
            continue;
        };
        // A failed look can still teach a set-up step; a destructive command never.
        if shell::line_is_never_advice(line) {
            continue;
        }
        let error = failed.error.as_deref().unwrap_or("");
        // A merge or rebase conflict is resolved by editing files, never by a command;
        // a command cut off by a time limit failed for want of time, not of a fix.
        let lower = error.to_ascii_lowercase();
        if lower.contains("conflict")
            || lower.contains("timed out")
            || lower.contains("exit code 124")
            || lower.contains("exit code 137")
        {
            continue;
        }
        let sig = signature_among(error, &banners);
        let cmds = shell::parse(line);
        let Some(fail) = shell::failing(&cmds, error) else {
            continue;
        };
        // A chain of several commands that do work, and an error that names none of
        // them: which one failed is anyone's guess, unless the whole chain passes again
        // or the fix is the step the error itself asked for.
        let ambiguous = !shell::names_failing(&cmds, error) && shell::workers(&cmds) > 1;
        if sig.is_empty() {
            continue;
        }
        let Some((fix, fixed_line)) = find_fix(failed, &session[i + 1..], fail, line, error) else {
            continue;
        };
        let asked_for = fix
            .step
            .as_deref()
            .and_then(|s| shell::primary(&shell::parse(s)).cloned())
            .is_some_and(|step| answers(error, &step));
        if ambiguous && !asked_for && !runs_all_of(fixed_line, &cmds) {
            continue;
        }
        // Where the fix is general (another tool, absolute paths), the failure's
        // wording does not split the lesson: it is keyed on the project instead.
        // The shell keeping an earlier `cd` is the Bash tool's way everywhere.
        let key = if fix.key == "absolute-path" {
            pattern::recovery_anywhere(&fix.key)
        } else if fix.key.starts_with("use:") {
            pattern::recovery_in(&failed.project, fail.tool(), &fix.key)
        } else {
            pattern::recovery(&sig, &fix.key)
        };
        // One sighting per session: the same failure fixed twice is one lesson seen once.
        if out.iter().any(|f| f.key == key) {
            continue;
        }
        let why = quotable(telling_line_among(error, &banners), 100);
        let mut f = Finding::seen_in(
            failed,
            key,
            domain_of(&format!("{} {}", fail.shape(), fixed_line)),
        );
        f.trigger = format!("when `{}` fails with \"{why}\"", name_of(fail));
        if fix.key == "absolute-path" {
            f.project = None;
            f.trigger =
                "when a command in the shell fails on a relative path after an earlier `cd`".into();
        }
        f.action = fix.advice;
        f.title = fix.title;
        // What happened, dated, in the project: evidence for whoever reads it.
        let then = match &fix.step {
            Some(step) => format!("{} and then {} passed", code(step), code(fixed_line)),
            None => format!("{} then passed", code(fixed_line)),
        };
        f.evidence = format!(
            "{}, {}: {} failed with \"{why}\"; {then} (session {})",
            failed.ts.get(..10).unwrap_or(&failed.ts),
            failed.project,
            code(line),
            sid8(&failed.session_id)
        );
        out.push(f);
    }
    out
}

/// Whether `line` runs every command of `commands` that did work (the chain again).
fn runs_all_of(line: &str, commands: &[Command]) -> bool {
    let again: Vec<String> = shell::parse(line).iter().map(Command::text).collect();
    commands
        .iter()
        .filter(|c| shell::workers(std::slice::from_ref(c)) == 1)
        .all(|c| again.contains(&c.text()))
}

/// Looks past diagnostics for the command that answered the failure, and keeps it only
/// when the outcome confirms it (see the module's rules).
fn find_fix<'a>(
    failed: &Observation,
    later: &'a [Observation],
    fail: &Command,
    fail_line: &str,
    error: &str,
) -> Option<(Fix, &'a str)> {
    let (fix, line, asked) = candidate_fix(failed, later, fail, fail_line, error)?;
    // With the user's words in between, only the step the error itself asked for
    // (`git config user.email …` after "Please tell me who you are") is the fix.
    if asked && !fix.key.starts_with("first:") {
        return None;
    }
    // A step any shell user takes unasked is true but teaches nothing.
    if fix
        .step
        .as_deref()
        .is_some_and(|s| shell::primary(&shell::parse(s)).is_some_and(is_basic))
    {
        return None;
    }
    let absolute = fix.key == "absolute-path";
    (!shell::line_is_never_advice(line) || absolute).then_some((fix, line))
}

/// Successful runs of a command shape per project: evidence against a recovery
/// instinct that says this command fails.
pub fn successes(batch: &[Observation]) -> BTreeMap<(String, String), u32> {
    let mut out = BTreeMap::new();
    for obs in batch {
        if obs.event != Event::Post {
            continue;
        }
        if let Some(cmd) =
            shell_command(obs).and_then(|l| shell::primary(&shell::parse(l)).cloned())
        {
            *out.entry((obs.project.clone(), cmd.shape())).or_insert(0) += 1;
        }
    }
    out
}
