//! (e) Commands the user keeps refusing: the same program rejected at the permission
//! prompt in session after session (`nixos-rebuild switch`, `git push`), words or none.
//! The user's own act, so their provenance. Counted per session in the ledger: one
//! refusal says something about that moment, so nothing is reported before a second
//! session (an episode) or a third (an instinct). Looks are left out: refusing a
//! `which` says nothing about `which`. A program refused in two projects or more, in
//! three sessions in all, is one the user keeps to themselves everywhere: user scope.

use std::collections::BTreeSet;

use super::{Finding, Ledger, code, domain_of, sessions_of, sid8};
use crate::agent::observation::{Observation, Outcome};
use crate::agent::tool::Tool;
use crate::memory::provenance::Provenance;
use crate::shell;

/// Sessions in which a command must be refused before it is reported.
const REFUSED_SESSIONS: usize = 2;
/// Projects, and sessions in all, in which a command must be refused before it is the
/// user's everywhere.
const EVERYWHERE_PROJECTS: usize = 2;
const EVERYWHERE_SESSIONS: usize = 3;

/// (e) The commands refused in `sessions` that the ledger has now seen refused in
/// enough sessions, one finding per program and session.
pub fn rejections(sessions: &[Vec<Observation>], ledger: &mut Ledger) -> Vec<Finding> {
    let mut out = Vec::new();
    for session in sessions {
        for mut f in refused(session) {
            let scope = f.project.clone().unwrap_or_default();
            let seen = sessions_of(&mut ledger.refused, &scope, &f.key);
            seen.insert(f.session.clone());
            let known = seen.len();
            // Refused everywhere, it is said once, for everywhere.
            if let Some(all) = everywhere(&f, ledger) {
                out.push(all);
            } else if known >= REFUSED_SESSIONS {
                f.known = known as u32;
                out.push(f);
            }
        }
    }
    out
}

/// The user-scope finding of a refusal, once its program has been refused in enough
/// projects and sessions (the ledger's per-project records, this one's included).
fn everywhere(f: &Finding, ledger: &Ledger) -> Option<Finding> {
    let name = crate::memory::pattern::rejected_command(&f.key)?;
    let mut projects: Vec<&str> = Vec::new();
    let mut sessions: BTreeSet<&str> = BTreeSet::new();
    for (scope, keys) in ledger.refused.iter().filter(|(scope, _)| !scope.is_empty()) {
        if let Some(seen) = keys.get(&crate::memory::pattern::rejected(scope, name)) {
            projects.push(scope);
            sessions.extend(seen.iter().map(String::as_str));
        }
    }
    if projects.len() < EVERYWHERE_PROJECTS || sessions.len() < EVERYWHERE_SESSIONS {
        return None;
    }
    let mut all = f.clone();
    all.key = crate::memory::pattern::rejected("", name);
    all.project = None;
    all.known = sessions.len() as u32;
    all.trigger = format!("when about to run `{name}`");
    all.title = format!("the user runs {name} themselves");
    all.evidence = format!(
        "{}; refused in {} sessions of {}",
        f.evidence,
        sessions.len(),
        projects.join(", ")
    );
    Some(all)
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
