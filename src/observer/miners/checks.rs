//! (g) How the user checks their work: a test, build or lint command they run
//! themselves in `!` shell mode (`nix flake check`, `uv run pytest -m "not slow"`),
//! session after session in a project. Their own act, so their provenance; counted per
//! session in the ledger, reported from the second session on (an instinct from the
//! third), so one run says nothing.

use super::{Finding, Ledger, code, project_of, sessions_of, sid8};
use crate::agent::observation::{Event, Observation};
use crate::memory::provenance::Provenance;
use crate::shell::{self, Command};

/// Sessions in which the user must run a check before it is reported.
const CHECK_SESSIONS: usize = 2;
/// The most sessions the ledger keeps per check.
const MAX_SESSIONS: usize = 16;

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

/// Verbs that change something rather than check it: a branch named `test`, a package
/// named `jest` or a script named `deploy:test` make no check.
const ACTS: &[&str] = &[
    "install",
    "add",
    "remove",
    "rm",
    "push",
    "pull",
    "checkout",
    "switch",
    "merge",
    "rebase",
    "commit",
    "publish",
    "deploy",
    "release",
    "reset",
    "clean",
    "update",
    "upgrade",
    "init",
    "uninstall",
    "apply",
    "destroy",
];

/// Words that run another command, whose word then says what is run (`uv run pytest`,
/// `npm run test:unit`, `nix flake check`).
const RUNS: &[&str] = &["run", "exec", "x", "dlx", "flake"];

/// What a check is known by: the program as typed and the plain words that lead its
/// arguments, up to the first option, path or value (`uv run pytest`, `nix flake
/// check`, `./gradlew test`). A check's word must be the program, its verb, or what a
/// runner runs; a script's name counts by its first part (`test:unit`).
fn identity(cmd: &Command) -> Option<String> {
    let mut words = vec![cmd.program.as_str()];
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
    let head = |w: &str| w.split(':').next().unwrap_or(w).to_string();
    if words
        .iter()
        .skip(1)
        .any(|w| ACTS.contains(&head(w).as_str()))
    {
        return None;
    }
    let mut said = vec![cmd.tool().to_string()];
    said.extend(words.get(1).map(|w| head(w)));
    if words.get(1).is_some_and(|w| RUNS.contains(w)) {
        said.extend(words.get(2).map(|w| head(w)));
    }
    let is_check = said.iter().any(|w| CHECK_WORDS.contains(&w.as_str()));
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
            if project_of(obs).is_none() || reported.contains(&check) {
                continue;
            }
            reported.push(check.clone());
            let seen = sessions_of(&mut ledger.checks, &obs.project, &check);
            // Three sessions make an instinct; more only grow the ledger.
            if seen.len() < MAX_SESSIONS {
                seen.insert(obs.session_id.clone());
            }
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
                "run {} to check changes: the user checks their work here with it, typed by hand{example}",
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
        for (line, check) in [
            ("nix flake check ./systems/nixos/", "nix flake check"),
            (
                "uv run pytest -m \"not (tui or browser)\" -v",
                "uv run pytest",
            ),
            ("uv run ty check", "uv run ty check"),
            ("pnpm run test:unit", "pnpm run test:unit"),
            ("./gradlew test --info", "./gradlew test"),
            ("go test ./...", "go test"),
            ("make test", "make test"),
        ] {
            assert_eq!(id(line).as_deref(), Some(check), "{line}");
        }
        // Not checks: a flake update, a submodule added, a branch or a package named
        // like a check, a script whose first part acts.
        for line in [
            "nix flake update",
            "git submodule add git@github.com:x/y.git .config/nvim",
            "nix run ./tests#run .",
            "git checkout test",
            "git push origin build",
            "git log test",
            "npm install jest",
            "uv add pytest",
            "brew install ruff",
            "npm run deploy:test",
        ] {
            assert_eq!(id(line), None, "{line}");
        }
    }
}
