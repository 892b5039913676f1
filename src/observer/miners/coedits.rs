//! (c) Files edited together: pairs of files changed in the same session, counted over
//! distinct sessions in a ledger; from three sessions on, each becomes a `paths`
//! instinct ("when editing A, also check B"). A file with a new name each time
//! (`migrations/0007_add_index.sql`) stands for its folder.

use std::collections::BTreeSet;

use super::{Finding, Ledger, sid8};
use crate::agent::observation::{Event, Observation, Outcome};
use crate::agent::payload::is_edit_tool;

/// Sessions that edit more files than this are mass changes, not a coupling signal.
const COEDIT_MAX_FILES: usize = 15;
pub const COEDIT_SESSIONS: usize = 3;

/// Files whose co-editing says nothing (lock files, changelogs).
fn is_incidental(file: &str) -> bool {
    const NAMES: &[&str] = &[
        "Cargo.lock",
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "go.sum",
        "poetry.lock",
        "uv.lock",
        "CHANGELOG.md",
    ];
    let base = file.rsplit('/').next().unwrap_or(file);
    NAMES.contains(&base) || file.starts_with('/')
}

/// A numbered or dated file (`0012_add_index.sql`, `20240101_init.sql`, `V3__x.sql`)
/// stands for its folder: the next one will have another name.
fn generalize(file: &str) -> String {
    let (dir, base) = file.rsplit_once('/').unwrap_or(("", file));
    let numbered = base
        .trim_start_matches(['V', 'v'])
        .chars()
        .take_while(char::is_ascii_digit)
        .count()
        >= 3;
    if numbered && !dir.is_empty() {
        format!("{dir}/*")
    } else {
        file.to_string()
    }
}

/// (c) Updates the ledger with this batch's sessions and reports pairs edited together
/// in `COEDIT_SESSIONS` or more sessions (each direction).
pub fn coedits(
    sessions: &[Vec<Observation>],
    roots: &dyn Fn(&Observation) -> Option<String>,
    ledger: &mut Ledger,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for session in sessions {
        let Some(first) = session.first() else {
            continue;
        };
        let mut files: BTreeSet<String> = BTreeSet::new();
        for obs in session {
            let edit = obs.tool.as_deref().is_some_and(is_edit_tool)
                && obs.event == Event::Post
                && obs.outcome != Some(Outcome::ToolError);
            let Some(path) = obs.input.file_path.as_deref().filter(|_| edit) else {
                continue;
            };
            let relative = roots(obs)
                .and_then(|root| path.strip_prefix(&format!("{root}/")).map(str::to_string))
                .unwrap_or_else(|| path.to_string());
            if !is_incidental(&relative) {
                files.insert(generalize(&relative));
            }
        }
        if files.len() < 2 || files.len() > COEDIT_MAX_FILES {
            continue;
        }
        let sid = first.session_id.clone();
        let pairs = ledger.coedits.entry(first.project.clone()).or_default();
        let list: Vec<&String> = files.iter().collect();
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                let seen = pairs.entry(format!("{a}\u{1f}{b}")).or_default();
                if !seen.insert(sid.clone()) || seen.len() < COEDIT_SESSIONS {
                    continue;
                }
                for (from, to) in [(a, b), (b, a)] {
                    let mut f = Finding::seen_in(
                        first,
                        format!("coedit:{}:{from}=>{to}", first.project),
                        "architecture",
                    );
                    f.trigger = format!("when editing {from} in {}", first.project);
                    f.action = format!(
                        "also check {to}: the two changed together in {} sessions",
                        seen.len()
                    );
                    f.title = format!("{from} goes with {to}");
                    f.paths = vec![from.to_string()];
                    f.evidence = format!(
                        "edited together again (session {})",
                        sid8(&first.session_id)
                    );
                    f.known = seen.len() as u32;
                    out.push(f);
                }
            }
        }
    }
    out
}
