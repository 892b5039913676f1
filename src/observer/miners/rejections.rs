//! (e) Commands the user keeps refusing: the same program rejected at the permission
//! prompt in session after session (`nixos-rebuild switch`, `git push`), words or none.
//! The user's own act, so their provenance. Counted per session in the ledger: one
//! refusal says something about that moment, so nothing is reported before a second
//! session (an episode) or a third (an instinct). Looks are left out: refusing a
//! `which` says nothing about `which`. A refusal is often the user stopping the agent to
//! redirect it, not a rule: a program the user has let the agent run in the project is
//! not one they keep to themselves.

use std::collections::BTreeSet;

use super::{Finding, Ledger, code, domain_of, project_of, sessions_of, sid8};
use crate::agent::observation::{Observation, Outcome};
use crate::agent::tool::Tool;
use crate::memory::provenance::Provenance;
use crate::shell;

/// Sessions in which a command must be refused before it is reported.
const REFUSED_SESSIONS: usize = 2;
/// Sightings that make a contradiction (as many as make a memory): one run the user let
/// happen outweighs the refusals it follows.
const CONTRADICTS: usize = 3;

/// (e) The commands refused in `sessions` that the ledger has now seen refused in
/// enough sessions and never let run, one finding per program and session; and, for a
/// refusal already reported, each session that let it run, against it.
pub fn rejections(sessions: &[Vec<Observation>], ledger: &mut Ledger) -> Vec<Finding> {
    let mut out = Vec::new();
    // Every run the user allowed in these sessions counts before any refusal is judged:
    // a program let run is not one the user keeps to themselves, in whatever order.
    for session in sessions {
        for (obs, scope, key) in allowed(session) {
            ledger
                .allowed
                .entry(scope.clone())
                .or_default()
                .insert(key.clone());
            let refused = ledger
                .refused
                .get(&scope)
                .and_then(|keys| keys.get(&key))
                .map_or(0, BTreeSet::len);
            if refused >= REFUSED_SESSIONS {
                out.extend(std::iter::repeat_n(let_run(obs, key), CONTRADICTS));
            }
        }
    }
    for session in sessions {
        for mut f in refused(session) {
            let scope = f.project.clone().unwrap_or_default();
            let let_run = ledger
                .allowed
                .get(&scope)
                .is_some_and(|keys| keys.contains(&f.key));
            let seen = sessions_of(&mut ledger.refused, &scope, &f.key);
            seen.insert(f.session.clone());
            if seen.len() >= REFUSED_SESSIONS && !let_run {
                f.known = seen.len() as u32;
                out.push(f);
            }
        }
    }
    out
}

/// The Bash calls the user let run in one session (it ran, whatever came of it; a call
/// blocked, denied or refused did not), once per program and verb: the call, its scope
/// (a project, or `""`) and its refusal key.
fn allowed(session: &[Observation]) -> Vec<(&Observation, String, String)> {
    let mut out: Vec<(&Observation, String, String)> = Vec::new();
    for o in session {
        if o.tool != Some(Tool::Bash)
            || !matches!(o.outcome, Some(Outcome::Success | Outcome::Error))
        {
            continue;
        }
        let Some(line) = o.input.command.as_deref() else {
            continue;
        };
        let Some(name) = shell::primary(&shell::parse(line)).map(shell::Command::shape) else {
            continue;
        };
        let key = crate::memory::pattern::rejected(&o.project, &name);
        if !out.iter().any(|(_, _, k)| *k == key) {
            let scope = project_of(o).unwrap_or_default().to_string();
            out.push((o, scope, key));
        }
    }
    out
}

/// A run the user let happen, against the refusal `key` reported before.
fn let_run(obs: &Observation, key: String) -> Finding {
    let mut f = Finding::seen_in(obs, key, "tooling");
    f.evidence = format!(
        "the user let {} run (session {})",
        code(obs.input.command.as_deref().unwrap_or_default()),
        sid8(&obs.session_id)
    );
    f.opposite = true;
    f
}

/// The refused commands of one session, one finding per program.
pub fn refused(session: &[Observation]) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for obs in session {
        if obs.outcome != Some(Outcome::Rejected) || obs.tool != Some(Tool::Bash) {
            continue;
        }
        let Some(line) = obs.input.command.as_deref() else {
            continue;
        };
        let cmds = shell::parse(line);
        let Some(cmd) = shell::primary(&cmds) else {
            continue;
        };
        if shell::is_diagnostic(cmd) || shell::line_is_diagnostic(line) || cmd.tool().len() < 2 {
            continue;
        }
        let name = cmd.shape();
        let key = crate::memory::pattern::rejected(&obs.project, &name);
        if out.iter().any(|f| f.key == key) {
            continue;
        }
        let mut f = Finding::seen_in(obs, key, domain_of(&name));
        f.trigger = format!("when about to run `{name}` in {}", obs.project);
        f.action = format!(
            "don't run `{name}` yourself: the user refuses it when asked (ask them, or leave it to them)"
        );
        f.title = format!("the user runs {name}");
        f.evidence = format!(
            "the user rejected {} (session {})",
            code(line),
            sid8(&obs.session_id)
        );
        f.provenance = Provenance::User;
        out.push(f);
    }
    out
}
