//! (g) How the user checks their work: a test, build or lint command they run
//! themselves in `!` shell mode (`nix flake check`, `uv run pytest -m "not slow"`),
//! session after session in a project. Their own act, so their provenance; counted per
//! session in the ledger, reported from the second session on (an instinct from the
//! third), so one run says nothing.

use super::{Finding, Ledger, code, sid8};
use crate::agent::observation::{Event, Observation};
use crate::memory::provenance::Provenance;
use crate::shell::{self, Command};

/// Sessions in which the user must run a check before it is reported.
const CHECK_SESSIONS: usize = 2;

/// Words that make a command a check of the work: tests, builds, linters, type checkers.
const CHECK_WORDS: &[&str] = &[
    "test",
    "tests",
    "check",
    "lint",
    "build",
    "typecheck",
    "verify",
    "vet",
    "pytest",
    "vitest",
    "jest",
    "tsc",
    "mypy",
    "pyright",
    "ruff",
    "eslint",
    "clippy",
    "ty",
    "flake8",
    "nextest",
    "phpunit",
    "rspec",
    "ctest",
];

/// What a check is known by: the program and the plain words that lead its arguments,
/// up to the first option, path or value (`uv run pytest`, `nix flake check`).
fn identity(cmd: &Command) -> Option<String> {
    let mut words = vec![cmd.tool()];
    for arg in &cmd.args {
        let plain = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == ':')
            && !arg.starts_with('-');
        if !plain || words.len() == 4 {
            break;
        }
        words.push(arg);
    }
    let is_check = words
        .iter()
        .any(|w| CHECK_WORDS.contains(w) || w.split(':').any(|p| CHECK_WORDS.contains(&p)));
    is_check.then(|| words.join(" "))
}

/// The check a shell-mode line runs, with the command as typed.
fn check_of(obs: &Observation) -> Option<(String, String)> {
    if obs.event != Event::Shell {
        return None;
    }
    let line = obs.input.command.as_deref()?;
    if shell::line_is_never_advice(line) {
        return None;
    }
    let cmds = shell::parse(line);
    let cmd = shell::primary(&cmds)?;
    if shell::is_diagnostic(cmd) {
        return None;
    }
    Some((identity(cmd)?, cmd.text()))
}

/// (g) The checks the user ran in `sessions` that the ledger has now seen in enough
/// sessions of their project, one finding per check and session.
pub fn checks(sessions: &[Vec<Observation>], ledger: &mut Ledger) -> Vec<Finding> {
    let mut out = Vec::new();
    for session in sessions {
        let mut reported: Vec<String> = Vec::new();
        for obs in session {
            let Some((check, typed)) = check_of(obs) else {
                continue;
            };
            if obs.project == "unknown" || reported.contains(&check) {
                continue;
            }
            reported.push(check.clone());
            let seen = ledger
                .checks
                .entry(obs.project.clone())
                .or_default()
                .entry(check.clone())
                .or_default();
            seen.insert(obs.session_id.clone());
            if seen.len() < CHECK_SESSIONS {
                continue;
            }
            let key = crate::memory::pattern::check(&obs.project, &check);
            let mut f = Finding::seen_in(obs, key, "testing");
            f.trigger = format!("when checking a change in {}", obs.project);
            let example = if typed == check {
                String::new()
            } else {
                format!(", e.g. {}", code(&typed))
            };
            f.action = format!(
                "check changes with {}: the user runs it themselves (in `!` shell mode){example}",
                code(&check)
            );
            f.title = format!("the user checks with {check}");
            f.evidence = format!(
                "{}, {}: the user ran {} (session {})",
                obs.ts.get(..10).unwrap_or(&obs.ts),
                obs.project,
                code(&typed),
                sid8(&obs.session_id)
            );
            f.provenance = Provenance::User;
            f.known = seen.len() as u32;
            out.push(f);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_is_known_by_its_leading_words() {
        let id = |line: &str| identity(&shell::parse(line)[0]);
        assert_eq!(
            id("nix flake check ./systems/nixos/").as_deref(),
            Some("nix flake check")
        );
        assert_eq!(
            id("uv run pytest -m \"not (tui or browser)\" -v").as_deref(),
            Some("uv run pytest")
        );
        assert_eq!(id("uv run ty check").as_deref(), Some("uv run ty check"));
        assert_eq!(
            id("pnpm run test:unit").as_deref(),
            Some("pnpm run test:unit")
        );
        // Not checks: a flake update, a submodule added, a look.
        assert_eq!(id("nix flake update"), None);
        assert_eq!(
            id("git submodule add git@github.com:x/y.git .config/nvim"),
            None
        );
        assert_eq!(id("nix run ./tests#run ."), None);
    }
}
