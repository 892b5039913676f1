//! The observer's episodes: one file per lesson that gains a sighting per batch (found
//! by its pattern key, or by its name in the same project when another error taught the
//! same lesson), and its promotion to an instinct once seen often enough.

use crate::memory::provenance::Provenance;
use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::{Applied, Run, instinct_path, title_of};
use crate::memory::draft::{EpisodeDraft, InstinctDraft};
use crate::memory::{Error, Note, NoteKind, Scalar, Store, slugify};

/// A new episode, or one more sighting of the episode with the same pattern key or the
/// same lesson.
pub(super) fn episode(
    run: &Run,
    draft: &EpisodeDraft,
    narrative: &str,
    out: &mut Applied,
) -> Result<(), Error> {
    let mark = &run.mark;
    match find_episode(run.store, draft) {
        Some((path, same_key)) => {
            let mut occurrences = draft.occurrences;
            let mut added = false;
            run.store.edit(&path, |file| {
                let retired = crate::memory::is_retired(file.doc());
                // Applied again after a crash: the key's sighting carries the batch's
                // mark; another key's, its own words (two in one batch are two lessons'
                // sightings, both kept).
                let new: Vec<String> = narrative
                    .lines()
                    .map(|line| format!("{line} {mark}"))
                    .filter(|line| !file.text().contains(line.as_str()))
                    .collect();
                if retired || new.is_empty() || same_key && file.text().contains(mark.as_str()) {
                    return Ok(());
                }
                // The ledger counts sessions per key; another key's sighting is one more.
                if !same_key {
                    let note = Note::from_document(&path, NoteKind::Episode, file.doc());
                    occurrences = note.map_or(1, |n| n.occurrences) + 1;
                }
                file.set(
                    "occurrences",
                    &Scalar::Int(i64::from(occurrences)),
                    &["pattern"],
                )?;
                for line in &new {
                    file.append_bullet("Sightings", line);
                }
                added = true;
                Ok(())
            })?;
            if !added {
                return Ok(());
            }
            out.changes.push(format!(
                "~ episode {} ({occurrences} sightings)",
                crate::memory::stem(&path),
            ));
            out.files.push(path);
        }
        None => {
            let path = run.store.paths().episodes().join(format!(
                "{}-{}.md",
                draft.day,
                slugify(draft.title, 50)
            ));
            if path.exists() {
                return Ok(());
            }
            let sightings: String = narrative
                .lines()
                .map(|l| format!("- {l} {mark}\n"))
                .collect();
            // The lesson it would teach, if any, then what was seen.
            let narrative = match draft.narrative {
                "" => format!("## Sightings\n\n{sightings}"),
                lesson => format!("{lesson}\n\n## Sightings\n\n{sightings}"),
            };
            let text = EpisodeDraft {
                narrative: &narrative,
                ..draft.clone()
            }
            .render();
            run.store.create(&path, &text)?;
            out.changes
                .push(format!("+ episode {}", crate::memory::stem(&path)));
            out.files.push(path);
        }
    }
    out.episodes += 1;
    Ok(())
}

/// An episode seen often enough to become an instinct.
pub(super) struct Promotion<'a> {
    pub episode: &'a str,
    pub name: &'a str,
    pub domain: &'a str,
    pub trigger: &'a str,
    pub action: &'a str,
    pub evidence: &'a str,
    pub seen: DateTime<Utc>,
    pub provenance: Provenance,
    pub sessions: u32,
}

pub(super) fn promote_episode(
    run: &Run,
    promotion: &Promotion,
    out: &mut Applied,
) -> Result<(), Error> {
    let Promotion {
        episode,
        name,
        domain,
        trigger,
        action,
        evidence,
        seen,
        provenance,
        sessions,
    } = *promotion;
    let store = run.store;
    let episode_path = store.paths().episodes().join(format!("{episode}.md"));
    let path = instinct_path(store, name);
    if path.exists() || !episode_path.exists() {
        return Ok(());
    }
    let doc = store.read(&episode_path)?;
    let note = Note::from_document(&episode_path, NoteKind::Episode, &doc)?;
    if note.retired {
        return Ok(());
    }
    let draft = InstinctDraft {
        domain,
        trigger,
        action,
        confidence: 0.5,
        project: note.project.as_deref().filter(|p| *p != "unknown"),
        paths: &note.files,
        pattern: note.pattern.as_deref(),
        source: run.source,
        provenance,
        created: note.date.unwrap_or(seen).min(seen),
        last_seen: seen,
        title: &title_of(action),
        evidence: &format!(
            "{}: promoted from episode {episode}; {evidence} {}",
            crate::time::day(seen),
            run.mark
        ),
        sessions,
    };
    store.create(&path, &draft.render())?;
    store.remove(&episode_path)?;
    out.changes
        .push(format!("+ {name} 0.50 (from episode {episode})"));
    out.files.push(path);
    out.files.push(episode_path);
    out.created += 1;
    Ok(())
}

/// The episode a draft is one more sighting of, and whether it has the draft's pattern
/// key. Else one of the same project under the same name: `nix flake check` failing on
/// a path that "does not exist" and on one "not tracked by Git" are two errors, both
/// fixed by `git add`, and one lesson ("git add before nix flake check").
fn find_episode(store: &Store, draft: &EpisodeDraft) -> Option<(PathBuf, bool)> {
    let notes = store.notes(NoteKind::Episode).items;
    if let Some(n) = notes
        .iter()
        .find(|n| n.pattern.as_deref() == Some(draft.pattern))
    {
        return Some((n.path.clone(), true));
    }
    notes
        .into_iter()
        .find(|n| {
            n.project.as_deref() == Some(draft.project) && n.title.as_deref() == Some(draft.title)
        })
        .map(|n| (n.path, false))
}
