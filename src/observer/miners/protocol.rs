//! (f) How the agent's own tools want to be used, learned where it keeps tripping over
//! them: Edit or Write refused because the file was not read first, the text to replace
//! not found or not unique, the file changed since it was read. The remedy is the
//! tool's own rule, so it is the same everywhere: a user-scope memory, counted over
//! sessions of any project, reported from the third session on.

use super::{Finding, Ledger, sessions_of, sid8};
use crate::agent::observation::{Observation, Outcome};
use crate::agent::tool::Tool;

/// Sessions (of any project) a slip must recur in before it is reported: the tool says
/// what to do each time, so only a habit of tripping earns a memory (an instinct, at
/// once).
const SLIP_SESSIONS: usize = 3;

/// The slips we know: (key, what the tool says, the lesson's name, the remedy). The
/// memory is named and worded after the remedy, never after the tool's complaint.
const SLIPS: &[(&str, &str, &str, &str)] = &[
    (
        "not-read",
        "file has not been read yet",
        "open a file with the Read tool first",
        "open the file with the Read tool in this session first: Edit and Write accept only files it has shown",
    ),
    (
        "not-found",
        "string to replace not found",
        "copy old_string exactly from the file",
        "copy old_string exactly from the file's current text, whitespace and indentation included: Edit replaces only an exact match",
    ),
    (
        "not-unique",
        "matches of the string to replace",
        "a unique old_string for Edit",
        "give Edit an old_string with enough surrounding lines to be unique, or set replace_all when every occurrence should change",
    ),
    (
        "modified",
        "file has been modified since read",
        "look at a file again after it changed",
        "open the file again before editing when something else (a formatter, a hook, the user) may have changed it",
    ),
];

/// The slip a refused tool call made, if it is one we know.
fn slip_of(
    obs: &Observation,
) -> Option<&'static (&'static str, &'static str, &'static str, &'static str)> {
    if obs.outcome != Some(Outcome::ToolError) {
        return None;
    }
    let error = obs.error.as_deref()?.to_ascii_lowercase();
    SLIPS.iter().find(|(_, said, _, _)| error.contains(said))
}

/// (f) Updates the ledger with the sessions' slips and reports those seen in enough
/// sessions, once per session.
pub fn protocol(sessions: &[Vec<Observation>], ledger: &mut Ledger) -> Vec<Finding> {
    let mut out = Vec::new();
    for session in sessions {
        let mut reported: Vec<&str> = Vec::new();
        for obs in session {
            let Some((kind, said, name, remedy)) = slip_of(obs) else {
                continue;
            };
            if reported.contains(kind) {
                continue;
            }
            reported.push(kind);
            let key = crate::memory::pattern::protocol(kind);
            let seen = sessions_of(&mut ledger.refused, "", &key);
            seen.insert(obs.session_id.clone());
            if seen.len() < SLIP_SESSIONS {
                continue;
            }
            let tool = obs.tool.as_ref().map_or("Edit", Tool::name);
            let mut f = Finding::seen_in(obs, key, "tooling");
            f.project = None;
            f.trigger = format!(
                "when about to {} a file with {tool}",
                if tool == "Write" { "write" } else { "edit" }
            );
            f.action = remedy.to_string();
            f.title = (*name).to_string();
            f.evidence = format!(
                "{}, {}: {tool} refused: \"{said}\" (session {})",
                obs.ts.get(..10).unwrap_or(&obs.ts),
                obs.project,
                sid8(&obs.session_id)
            );
            f.known = seen.len() as u32;
            out.push(f);
        }
    }
    out
}
