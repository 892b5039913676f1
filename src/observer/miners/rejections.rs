//! (e) Commands the user keeps refusing: the same program rejected at the permission
//! prompt in session after session (`nixos-rebuild switch`, `git push`), words or none.
//! The user's own act, so their provenance. Counted per session in the ledger: one
//! refusal says something about that moment, so nothing is reported before a second
//! session (an episode) or a third (an instinct). Looks are left out: refusing a
//! `which` says nothing about `which`. A refusal is often the user stopping the agent to
//! redirect it, not a rule: a program the user has let the agent run in the project is
//! not one they keep to themselves.

use std::collections::BTreeSet;

use super::{Finding, Ledger, code, domain_of, sessions_of, sid8};
use crate::agent::observation::{Observation, Outcome};
use crate::agent::tool::Tool;
use crate::memory::provenance::Provenance;
use crate::shell;

/// Sessions in which a command must be refused before it is reported.
const REFUSED_SESSIONS: usize = 2;
/// The most sessions a program's allowed runs are counted in (one is enough to say it).
const ALLOWED_COUNTED: usize = 4;

/// (e) The commands refused in `sessions` that the ledger has now seen refused in
/// enough sessions, one finding per program and session.
pub fn rejections(sessions: &[Vec<Observation>], ledger: &mut Ledger) -> Vec<Finding> {
    let mut out = Vec::new();
    for session in sessions {
        for (project, key, sid) in allowed(session) {
            let seen = sessions_of(&mut ledger.allowed, &project, &key);
            if seen.len() < ALLOWED_COUNTED {
                seen.insert(sid);
            }
        }
        for mut f in refused(session) {
            let scope = f.project.clone().unwrap_or_default();
            let allowed = sessions_of(&mut ledger.allowed, &scope, &f.key).len();
            let seen = sessions_of(&mut ledger.refused, &scope, &f.key);
            seen.insert(f.session.clone());
            if seen.len() >= REFUSED_SESSIONS && allowed == 0 {
                f.known = seen.len() as u32;
                out.push(f);
            }
        }
    }
    out
}

/// The programs the user let the agent run in one session: (project, refusal key,
/// session), once each.
fn allowed(session: &[Observation]) -> BTreeSet<(String, String, String)> {
    session
        .iter()
        // It ran, whatever came of it; a call blocked, denied or refused did not.
        .filter(|o| o.tool == Some(Tool::Bash))
        .filter(|o| matches!(o.outcome, Some(Outcome::Success | Outcome::Error)))
        .filter_map(|o| {
            let cmds = shell::parse(o.input.command.as_deref()?);
            let name = shell::primary(&cmds)?.shape();
            let scope = (o.project != "unknown").then_some(o.project.as_str());
            Some((
                scope.unwrap_or_default().to_string(),
                crate::memory::pattern::rejected(&o.project, &name),
                o.session_id.clone(),
            ))
        })
        .collect()
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
