//! (c) Files edited together: which files change in the same sessions, counted over
//! distinct sessions in a ledger. A pair means something only when it is specific: seen
//! together in three sessions or more, and in most of the sessions where the busier of
//! the two changed at all (a file that changes with everything, a `CLAUDE.md` or a
//! backlog, is no signal). Files linked by such pairs form a cluster, and a cluster is
//! one memory ("when editing any of these, update the others"), not one per ordered
//! pair. A file with a new name each time (`migrations/0007_add_index.sql`) stands for
//! its folder; a file and its own test are one change, not a coupling.

use std::collections::{BTreeMap, BTreeSet};

use super::{Finding, Ledger, sid8};
use crate::agent::observation::{Event, Observation, Outcome};
use crate::agent::tool::Tool;

/// Sessions that edit more files than this are mass changes, not a coupling signal.
const COEDIT_MAX_FILES: usize = 15;
pub const COEDIT_SESSIONS: usize = 3;
/// How much of the busier file's sessions the pair must share to be specific.
const SPECIFIC: f64 = 0.6;
/// The most files one cluster memory names.
const CLUSTER_MAX: usize = 6;

/// Files whose co-editing says nothing: lock files, changelogs, backlogs and to-do
/// lists, the agent's own instruction files.
fn is_incidental(file: &str) -> bool {
    const NAMES: &[&str] = &[
        "Cargo.lock",
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "bun.lockb",
        "go.sum",
        "poetry.lock",
        "uv.lock",
        "Gemfile.lock",
        "composer.lock",
        "flake.lock",
        ".gitignore",
    ];
    const STEMS: &[&str] = &[
        "claude",
        "agents",
        "gemini",
        "changelog",
        "changes",
        "history",
        "news",
        "todo",
        "todolist",
        "backlog",
        "notes",
        "progress",
        "plan",
        "tasks",
    ];
    let base = file.rsplit('/').next().unwrap_or(file);
    let stem = base.split('.').next().unwrap_or(base).to_ascii_lowercase();
    let stem = stem.trim_start_matches(['_', '-']);
    NAMES.contains(&base)
        || STEMS.contains(&stem)
        || file.starts_with('/')
        || file.starts_with(".claude/")
}

/// The name a file and its tests share: `storage` for `storage.go`, `storage_test.go`,
/// `test_storage.py`, `storage.spec.ts`, `__tests__/storage.test.ts`.
fn subject(file: &str) -> String {
    let base = file.rsplit('/').next().unwrap_or(file).to_ascii_lowercase();
    let stem = base.split('.').next().unwrap_or(&base);
    stem.trim_start_matches("test_")
        .trim_end_matches("_test")
        .trim_end_matches("_spec")
        .to_string()
}

fn is_test(file: &str) -> bool {
    let lower = file.to_ascii_lowercase();
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    base.starts_with("test_")
        || base.contains("_test.")
        || base.contains(".test.")
        || base.contains(".spec.")
        || base.contains("_spec.")
        || lower.contains("/tests/")
        || lower.contains("__tests__/")
}

/// A file and its own test change together as a matter of course.
fn own_test(a: &str, b: &str) -> bool {
    (is_test(a) != is_test(b)) && subject(a) == subject(b)
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

/// (c) Updates the ledger with this batch's sessions and reports, for each session, the
/// clusters of specifically coupled files it edited two or more of.
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
        let files = edited(session, roots);
        if files.is_empty() || files.len() > COEDIT_MAX_FILES {
            continue;
        }
        let sid = first.session_id.clone();
        let project = first.project.clone();
        let counts = ledger.edited.entry(project.clone()).or_default();
        let mut new = false;
        for f in &files {
            new |= counts.entry(f.clone()).or_default().insert(sid.clone());
        }
        let pairs = ledger.coedits.entry(project.clone()).or_default();
        let list: Vec<&String> = files.iter().collect();
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                pairs
                    .entry(format!("{a}\u{1f}{b}"))
                    .or_default()
                    .insert(sid.clone());
            }
        }
        // A resumed copy of a session counted before says nothing new.
        if !new {
            continue;
        }
        for cluster in clusters(&ledger.coedits[&project], &ledger.edited[&project]) {
            let touched: Vec<&String> = cluster
                .files
                .iter()
                .filter(|f| files.contains(*f))
                .collect();
            if touched.len() < 2 {
                continue;
            }
            out.push(finding(first, &cluster));
        }
    }
    out
}

/// The files a session edited, relative to its project, generalised.
fn edited(
    session: &[Observation],
    roots: &dyn Fn(&Observation) -> Option<String>,
) -> BTreeSet<String> {
    let mut files = BTreeSet::new();
    for obs in session {
        let edit = obs.tool.as_ref().is_some_and(Tool::edits_files)
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
    files
}

/// Files coupled by specific pairs, and how many sessions their pairs share at most.
#[derive(Debug)]
struct Cluster {
    files: BTreeSet<String>,
    sessions: usize,
}

/// The connected groups of specific pairs (`COEDIT_SESSIONS` together, and in at least
/// `SPECIFIC` of the busier file's sessions), largest coupling first.
fn clusters(
    pairs: &BTreeMap<String, BTreeSet<String>>,
    edited: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<Cluster> {
    let alone = |f: &str| edited.get(f).map_or(0, BTreeSet::len);
    let mut links: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut strength: BTreeMap<&str, usize> = BTreeMap::new();
    for (key, seen) in pairs {
        let Some((a, b)) = key.split_once('\u{1f}') else {
            continue;
        };
        let together = seen.len();
        let busier = alone(a).max(alone(b)).max(together);
        if together < COEDIT_SESSIONS
            || (together as f64) < SPECIFIC * busier as f64
            || own_test(a, b)
        {
            continue;
        }
        links.entry(a).or_default().insert(b);
        links.entry(b).or_default().insert(a);
        for f in [a, b] {
            let s = strength.entry(f).or_default();
            *s = (*s).max(together);
        }
    }
    let mut out = Vec::new();
    let mut placed: BTreeSet<&str> = BTreeSet::new();
    for start in links.keys() {
        if placed.contains(start) {
            continue;
        }
        let mut files = BTreeSet::new();
        let mut todo = vec![*start];
        while let Some(f) = todo.pop() {
            if !placed.insert(f) {
                continue;
            }
            files.insert(f.to_string());
            todo.extend(links.get(f).into_iter().flatten().copied());
        }
        let sessions = files
            .iter()
            .filter_map(|f| strength.get(f.as_str()))
            .copied()
            .max()
            .unwrap_or(0);
        if files.len() <= CLUSTER_MAX {
            out.push(Cluster { files, sessions });
        }
    }
    out
}

fn finding(first: &Observation, cluster: &Cluster) -> Finding {
    let files: Vec<&str> = cluster.files.iter().map(String::as_str).collect();
    let anchor = files[0];
    let mut f = Finding::seen_in(
        first,
        crate::memory::pattern::coedit(&first.project, anchor),
        "architecture",
    );
    let list = match files.as_slice() {
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    f.trigger = format!("when editing {list} in {}", first.project);
    f.action = format!(
        "change them together: {list} were edited together in {} sessions, so a change to one usually needs the others",
        cluster.sessions
    );
    f.title = format!("{list} change together");
    f.paths = files.iter().map(|s| s.to_string()).collect();
    f.evidence = format!(
        "edited together again (session {})",
        sid8(&first.session_id)
    );
    f.known = cluster.sessions as u32;
    f
}
