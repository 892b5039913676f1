//! Turns one markdown file into the document the index stores. A file whose
//! frontmatter does not parse is still indexed, by its whole text, so it stays findable.

use std::path::Path;

use chrono::{DateTime, Utc};
use tantivy::TantivyDocument;

use super::schema::Fields;
use crate::memory::kind::{ItemDir, Kind};
use crate::memory::{Conviction, Document, Instinct, Note, NoteKind, Origin, body};

/// Metadata of the file as indexed: the sync manifest entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub mtime: i64,
    pub size: u64,
}

fn secs(t: Option<DateTime<Utc>>) -> i64 {
    t.map_or(0, |t| t.timestamp())
}

/// Builds the document for `relative` (under `root`) from its text, and says why the
/// file does not parse when it does not (it is then indexed by its text alone).
pub fn build(
    fields: &Fields,
    root: &Path,
    relative: &Path,
    item: ItemDir,
    text: &str,
    stamp: Stamp,
) -> (TantivyDocument, Option<crate::memory::Error>) {
    let mut doc = TantivyDocument::default();
    let rel = relative.to_string_lossy();
    doc.add_text(fields.path, &rel);
    doc.add_text(fields.kind, item.kind.name());
    doc.add_i64(fields.mtime, stamp.mtime);
    doc.add_u64(fields.size, stamp.size);
    let name = crate::memory::stem(relative);
    doc.add_text(fields.name, &name);
    let path = root.join(relative);
    let parsed = match Document::parse(text.to_string()) {
        Ok(parsed) => parsed,
        Err(e) => {
            doc.add_text(fields.title, &name);
            doc.add_text(fields.body, text);
            return (doc, Some(crate::memory::Error::invalid(&path, e)));
        }
    };
    if crate::memory::is_retired(&parsed) {
        // Every query names the kinds it wants, so a retired item, indexed under a kind
        // of its own and without text, is found by none: not searched, not injected.
        return (retired(fields, relative, stamp), None);
    }
    doc.add_text(fields.body, parsed.body());
    let title = body::title(parsed.body()).unwrap_or_else(|| name.replace('-', " "));
    doc.add_text(fields.title, &title);
    let unreadable = match item.kind {
        Kind::Instinct => {
            let origin = item.origin.unwrap_or(Origin::Personal);
            Instinct::from_document(&path, origin, &parsed)
                .map(|i| add_instinct(&mut doc, fields, &i))
                .err()
        }
        Kind::Conviction => Conviction::from_document(&path, &parsed)
            .map(|c| add_conviction(&mut doc, fields, &c))
            .err(),
        Kind::Episode | Kind::Session => {
            let note_kind = if item.kind == Kind::Session {
                NoteKind::Session
            } else {
                NoteKind::Episode
            };
            Note::from_document(&path, note_kind, &parsed)
                .map(|n| add_note(&mut doc, fields, &n, parsed.body()))
                .err()
        }
    };
    (doc, unreadable)
}

/// The kind under which retired items are indexed.
pub const RETIRED_KIND: &str = "retired";

fn retired(fields: &Fields, relative: &Path, stamp: Stamp) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_text(fields.path, relative.to_string_lossy());
    doc.add_text(fields.kind, RETIRED_KIND);
    doc.add_i64(fields.mtime, stamp.mtime);
    doc.add_u64(fields.size, stamp.size);
    doc
}

/// The flag of an instinct the user vouched for (`confirmed_by: user`).
pub const CONFIRMED_BY_USER: &str = "user-confirmed";

/// The flag of an episode seen in two sessions or stated by the user.
pub const CONFIRMED: &str = "confirmed";

/// The flag of a session that left tasks open or ended on a failure: an older one still
/// matters to "where did we leave off".
pub const UNFINISHED: &str = "unfinished";

fn add_instinct(doc: &mut TantivyDocument, fields: &Fields, i: &Instinct) {
    doc.add_text(fields.trigger, &i.trigger);
    doc.add_text(fields.action, &i.action);
    doc.add_text(fields.domain, &i.domain);
    add_opt(doc, fields.project, i.project.as_deref());
    add_scope(doc, fields, i.project.as_deref());
    add_globs(doc, fields, &i.paths);
    let confirmed = i.confirmed_by_user();
    for (on, flag) in [
        (i.promoted, "promoted"),
        (i.disputed, "disputed"),
        (confirmed, CONFIRMED_BY_USER),
    ] {
        if on {
            doc.add_text(fields.flags, flag);
        }
    }
    if let Some(p) = i.provenance {
        doc.add_text(fields.flags, format!("provenance-{}", p.name()));
    }
    add_failure(doc, fields, &i.trigger, i.pattern.as_deref());
    add_censor(doc, fields, i.censor.as_deref());
    add_opt(doc, fields.command, i.command.as_deref());
    let state = i.state(DateTime::<Utc>::MIN_UTC);
    let origin = match state.decayed_until {
        Some(d) if d > state.last_seen => d,
        _ => state.last_seen,
    };
    doc.add_f64(fields.confidence, i.confidence);
    doc.add_u64(fields.sessions, u64::from(i.sessions.unwrap_or(0)));
    doc.add_f64(fields.floor, i.floor());
    doc.add_i64(fields.decay_origin, origin.timestamp());
    doc.add_i64(fields.last_seen, secs(i.last_seen));
    doc.add_i64(fields.created, secs(i.created));
}

fn add_conviction(doc: &mut TantivyDocument, fields: &Fields, c: &Conviction) {
    if let Some(trigger) = &c.trigger {
        doc.add_text(fields.trigger, trigger);
    }
    doc.add_text(fields.action, &c.action);
    doc.add_text(fields.domain, &c.domain);
    add_opt(doc, fields.project, c.project.as_deref());
    add_scope(doc, fields, c.project.as_deref());
    add_globs(doc, fields, &c.paths);
    add_censor(doc, fields, c.censor.as_deref());
    add_opt(doc, fields.command, c.command.as_deref());
    doc.add_f64(fields.confidence, 1.0);
    doc.add_i64(fields.created, secs(c.promoted_at));
}

/// Episodes and sessions: their files (frontmatter and `## Files touched`) become
/// file keys, so editing a file recalls the notes that touched it.
fn add_note(doc: &mut TantivyDocument, fields: &Fields, n: &Note, body_text: &str) {
    add_opt(doc, fields.project, n.project.as_deref());
    // An episode of no project (`unknown`, as the observer and the system before it
    // write one: zsh's unmatched globs, the shell's lasting `cd`) holds everywhere. A
    // session of none stays in its own scope: it is not the last session of every project.
    let scope = match n.project.as_deref() {
        Some("unknown") if n.kind == NoteKind::Episode => None,
        project => project,
    };
    add_scope(doc, fields, scope);
    doc.add_text(fields.tags, n.tags.join(" "));
    let mut files = n.files.clone();
    if let Some(range) = body::section(body_text, "Files touched") {
        files.extend(
            body_text[range]
                .lines()
                .filter_map(|l| l.trim().strip_prefix("- "))
                .map(|f| f.trim().trim_matches('`').to_string())
                .filter(|f| !f.is_empty() && !f.starts_with('(')),
        );
    }
    doc.add_text(fields.files, files.join(" "));
    for key in files.iter().flat_map(|f| file_keys(f)) {
        doc.add_text(fields.file_keys, key);
    }
    if let Some(d) = n.tags.first() {
        doc.add_text(fields.domain, d);
    }
    if let Some(p) = n.provenance {
        doc.add_text(fields.flags, format!("provenance-{}", p.name()));
    }
    add_failure(doc, fields, body_text, n.pattern.as_deref());
    let gist = match n.kind {
        NoteKind::Episode => episode_gist(body_text, n.pattern.as_deref()),
        NoteKind::Session => {
            let ending = crate::memory::session::ending(body_text);
            if !ending.open_tasks.is_empty() || ending.unfinished.is_some() {
                doc.add_text(fields.flags, UNFINISHED);
            }
            session_gist(body_text, ending)
        }
    };
    if let Some(gist) = gist {
        doc.add_text(fields.gist, gist);
    }
    // Seen in two sessions or more: SessionStart may push it. One session's episode
    // stays for search, prompts and failure recall. (What the user stated outright is
    // an instinct at once, never an episode.)
    if n.occurrences >= 2 {
        doc.add_text(fields.flags, CONFIRMED);
    }
    doc.add_i64(fields.created, secs(n.date));
    doc.add_i64(fields.last_seen, secs(n.date));
}

/// What a session did: what was asked first, how it ended, what it left open (from the
/// summary the observer writes, or a `## Requests`/`## Outcome` layout written by hand).
fn session_gist(body_text: &str, ending: crate::memory::session::Ending) -> Option<String> {
    let first_bullet = |range: std::ops::Range<usize>| {
        body_text[range]
            .lines()
            .find_map(|l| l.trim().strip_prefix("- "))
            .map(str::to_string)
    };
    let asked = body::section(body_text, "Requests")
        .and_then(first_bullet)
        .or_else(|| {
            let at = body_text.find("Asked:")?;
            first_bullet(at..body_text.len())
        });
    let outcome = ending.outcome.or_else(|| {
        body::section(body_text, "Outcome").and_then(|r| {
            body_text[r]
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(str::to_string)
        })
    });
    let mut parts = Vec::new();
    if let Some(a) = asked {
        parts.push(format!("asked: {a}"));
    }
    if let Some(o) = outcome {
        parts.push(format!("outcome: {o}"));
    }
    if let Some(u) = ending.unfinished {
        parts.push(format!("ended on a failure while: {u}"));
    }
    if !ending.open_tasks.is_empty() {
        parts.push(format!("left open: {}", ending.open_tasks.join(", ")));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// What an episode says. A recovery's newest sighting tells what failed, what was run
/// and whether the retry passed; any other sighting only that it happened ("the user ran
/// `uv run ty check`"), so there the first paragraph under the title, the lesson it would
/// teach, says more.
fn episode_gist(body: &str, pattern: Option<&str>) -> Option<String> {
    let sighting = sightings(body).last().map(str::to_string);
    // The whole first paragraph: a story written by hand or by the model says what
    // happened on its first line and how it was resolved on the next.
    let lesson = || {
        let lines: Vec<&str> = body
            .lines()
            .map(str::trim)
            .skip_while(|l| l.is_empty() || l.starts_with('#'))
            .take_while(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        (!lines.is_empty()).then(|| lines.join(" "))
    };
    let story = pattern.is_none_or(crate::memory::pattern::is_recovery);
    if story {
        sighting.or_else(lesson)
    } else {
        lesson().or(sighting)
    }
}

/// An episode's sightings, oldest first, without the batch mark at their end (which is
/// bookkeeping).
pub(crate) fn sightings(body: &str) -> impl DoubleEndedIterator<Item = &str> {
    let lines = body::section(body, "Sightings").map_or("", |range| &body[range]);
    lines.lines().filter_map(|l| {
        let sighting = l.trim().strip_prefix("- ")?;
        Some(match sighting.rfind(" (batch ") {
            Some(at) => &sighting[..at],
            None => sighting,
        })
    })
}

/// The failures a memory is about, as flags the same failure finds again: the
/// signature its recovery `pattern` holds whole, and every failure it quotes unclipped
/// (a memory names the telling line clipped to a hundred characters, and a clipped
/// quote would be another key).
fn add_failure(doc: &mut TantivyDocument, fields: &Fields, text: &str, pattern: Option<&str>) {
    use crate::agent::signature::{failure_key, quoted_failures, signature_key};
    let from_pattern = pattern
        .and_then(crate::memory::pattern::recovery_parts)
        .filter(|(failure, fix)| *failure != "*" && !fix.starts_with("use:"))
        .and_then(|(failure, _)| signature_key(failure));
    let keys: std::collections::BTreeSet<String> = from_pattern
        .into_iter()
        .chain(quoted_failures(text).filter_map(failure_key))
        .collect();
    for key in keys {
        doc.add_text(fields.flags, key);
    }
}

fn add_scope(doc: &mut TantivyDocument, fields: &Fields, project: Option<&str>) {
    doc.add_text(fields.scope, project.unwrap_or("*"));
}

fn add_censor(doc: &mut TantivyDocument, fields: &Fields, censor: Option<&str>) {
    if let Some(level @ ("warn" | "block")) = censor.map(str::trim) {
        doc.add_text(fields.flags, format!("censor-{level}"));
    }
}

fn add_globs(doc: &mut TantivyDocument, fields: &Fields, globs: &[String]) {
    for g in globs {
        doc.add_text(fields.globs, g);
        for term in glob_terms(g) {
            doc.add_text(fields.glob_terms, term);
        }
    }
}

/// The literal pieces of a glob a matching path must contain: its plain segments, the
/// extension of a `*.ext` segment, or `any` when there is no literal at all.
pub fn glob_terms(glob: &str) -> Vec<String> {
    let mut terms = Vec::new();
    for segment in glob.split('/') {
        let wild = segment.contains(['*', '?', '[', '{']);
        if !wild && !segment.is_empty() {
            terms.push(segment.to_string());
        } else if let Some(ext) = segment
            .strip_prefix("*.")
            .filter(|e| !e.contains(['*', '?', '[', '{']))
        {
            terms.push(format!("ext:{ext}"));
        }
    }
    if terms.is_empty() {
        terms.push("any".to_string());
    }
    terms
}

/// The terms a file path offers to `glob_terms`: each segment, its extension, `any`.
pub fn path_terms(path: &str) -> Vec<String> {
    let mut terms: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if let Some(ext) = Path::new(path).extension() {
        terms.push(format!("ext:{}", ext.to_string_lossy()));
    }
    terms.push("any".to_string());
    terms
}

/// Exact keys a touched file is found by: the path as written and its base name.
pub fn file_keys(file: &str) -> Vec<String> {
    let mut keys = vec![file.to_string()];
    if let Some(base) = Path::new(file).file_name() {
        let base = base.to_string_lossy().into_owned();
        if base != file {
            keys.push(base);
        }
    }
    keys
}

fn add_opt(doc: &mut TantivyDocument, field: tantivy::schema::Field, value: Option<&str>) {
    if let Some(v) = value {
        doc.add_text(field, v);
    }
}

#[cfg(test)]
mod tests {
    use super::episode_gist;

    #[test]
    fn an_episode_gist_is_its_story_for_a_recovery_and_its_lesson_otherwise() {
        let recovery = "# git add before nix flake check\n\nWhen `nix flake check` fails: run `git add` first\n\n## Sightings\n\n- 2025-06-17, conf: `nix flake check` failed with \"path does not exist\"; `git add .` and then `nix flake check` passed (session 764d1f97) (batch ca13cf6b115d)\n";
        assert_eq!(
            episode_gist(recovery, Some("recover:path=>first:git add")).unwrap(),
            "2025-06-17, conf: `nix flake check` failed with \"path does not exist\"; `git add .` and then `nix flake check` passed (session 764d1f97)"
        );
        let check = "# the user checks with cargo deny\n\nWhen checking a change in ledger: run `cargo deny check` (the user checks their work with it)\n\n## Sightings\n\n- 2025-07-17, ledger: the user ran `cargo deny check` (session 937c6e6b)\n";
        assert_eq!(
            episode_gist(check, Some("check:ledger:cargo deny check")).unwrap(),
            "When checking a change in ledger: run `cargo deny check` (the user checks their work with it)"
        );
        // Written by hand: no key, so what happened first.
        assert!(episode_gist(check, None).unwrap().starts_with("2025-07-17"));
    }
}
