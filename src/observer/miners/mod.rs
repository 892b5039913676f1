//! The builtin engine's miners: pure functions from observations to findings, one
//! file each. (a) error recoveries, (b) the user's corrections and rules, (c) files
//! edited together across sessions, (d) consistent tool choices per project, (e)
//! commands the user keeps refusing, (f) the agent's own tools' rules where it keeps
//! tripping over them, (g) the checks the user runs themselves. What they
//! never report: tool frequencies, standard sequences (Read→Edit, status→diff→commit),
//! generic validation, the default choice, diagnostics or destructive commands as a fix.

mod checks;
mod choices;
mod coedits;
mod corrections;
mod protocol;
mod recoveries;
mod rejections;

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

use crate::agent::observation::Observation;
use crate::memory::provenance::Provenance;

pub use checks::checks;
pub use choices::choices;
pub use coedits::coedits;
pub use corrections::corrections;
pub use protocol::protocol;
pub use recoveries::{recoveries, successes};
pub use rejections::{refused, rejections};

/// One sighting of a pattern (or, with `opposite`, of its contradiction).
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub key: String,
    pub domain: String,
    pub trigger: String,
    pub action: String,
    pub title: String,
    pub project: Option<String>,
    pub paths: Vec<String>,
    pub evidence: String,
    /// Occurrences already counted outside this batch (ledgers), plus this one.
    pub known: u32,
    pub opposite: bool,
    /// When it was seen (the observation's RFC 3339 time) and in which session.
    pub at: String,
    pub session: String,
    /// A rule the user stated outright: an instinct at once, not after three sightings.
    pub explicit: bool,
    /// Whose words the lesson holds: the user's for their rules, else the model's own
    /// commands and edits as their outcome confirmed them.
    pub provenance: Provenance,
}

/// The project an observation was made in; `None` for a home folder or an unknown
/// folder (user scope: what is learned there applies everywhere).
fn project_of(obs: &Observation) -> Option<&str> {
    (obs.project != "unknown").then_some(obs.project.as_str())
}

impl Finding {
    /// A finding seen in `obs`, with the fields every miner fills the same way.
    fn seen_in(obs: &Observation, key: String, domain: &str) -> Self {
        Finding {
            key,
            domain: domain.to_string(),
            trigger: String::new(),
            action: String::new(),
            title: String::new(),
            project: project_of(obs).map(str::to_string),
            paths: Vec::new(),
            evidence: String::new(),
            known: 1,
            opposite: false,
            at: obs.ts.clone(),
            session: obs.session_id.clone(),
            explicit: false,
            provenance: Provenance::Model,
        }
    }
}

/// Persistent counts for the ledger-based miners.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Ledger {
    /// project → "a\u{1f}b" → sessions that edited both.
    pub coedits: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// project → file → sessions that edited it (for how specific a pair is).
    pub edited: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// project → tool alternative → sessions that used it successfully.
    pub tools: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// project → refused command's key → sessions in which the user refused it (and,
    /// under the empty project, the tool slips of any project).
    pub refused: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    /// project → the refusal keys of the commands the user has let run there (a program
    /// let run is not one they keep to themselves).
    pub allowed: BTreeMap<String, BTreeSet<String>>,
    /// pattern key → the sessions that showed it, across batches (how many independent
    /// sessions stand behind a memory; a long session spans several batches).
    pub shown_in: BTreeMap<String, BTreeSet<String>>,
    /// project → check the user ran in `!` shell mode → sessions in which they did.
    pub checks: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
}

/// The sessions a ledger map holds for `key` in `scope` (a project, or `""` for any),
/// made empty when there are none yet.
fn sessions_of<'l>(
    map: &'l mut BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
    scope: &str,
    key: &str,
) -> &'l mut BTreeSet<String> {
    map.entry(scope.to_string())
        .or_default()
        .entry(key.to_string())
        .or_default()
}

fn sid8(session: &str) -> String {
    crate::agent::payload::short_id(session)
}

/// The short id a ledger keeps for a session.
pub fn sid8_of(session: &str) -> String {
    sid8(session)
}

/// A command for a memory's text: one line, bounded, in backticks.
fn code(text: &str) -> String {
    format!("`{}`", crate::text::one_line(text, 120).replace('`', "'"))
}

/// The domain a piece of text most likely belongs to.
pub fn domain_of(text: &str) -> &'static str {
    let t = text.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    if has(&["test", "pytest", "jest", "nextest", "spec", "vitest"]) {
        "testing"
    } else if has(&["git ", "commit", "rebase", "branch", "merge", "push"]) {
        "git"
    } else if has(&["secret", "password", "token", "credential"]) {
        "security"
    } else if has(&[
        "format", "style", "naming", "indent", "lint", "clippy", "export",
    ]) {
        "code-style"
    } else if has(&["readme", "docs", "comment", "documentation"]) {
        "documentation"
    } else if has(&["slow", "perf", "cache", "faster", "benchmark"]) {
        "performance"
    } else {
        "tooling"
    }
}

#[cfg(test)]
mod tests;
