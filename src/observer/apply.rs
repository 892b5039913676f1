//! The one deterministic writer of the observer: applies validated operations through
//! the store with lossless edits. Every change carries its batch id in an evidence line,
//! so applying the same batch again (after a crash) changes nothing.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::ops::Op;
use crate::memory::confidence::State;
use crate::memory::frontmatter::quote_double;
use crate::memory::{
    Document, Error, Instinct, Note, NoteKind, Origin, Scalar, Store, body, slugify,
};
use crate::setup::templates;
use crate::text::stamp;

/// What a run changed, as lines for the log and the git commit message.
#[derive(Debug, Default)]
pub struct Applied {
    pub changes: Vec<String>,
    pub errors: Vec<String>,
    pub files: Vec<PathBuf>,
    pub created: usize,
    pub reinforced: usize,
    pub contradicted: usize,
    pub episodes: usize,
}

fn marker(batch: &str) -> String {
    format!("(batch {batch})")
}

/// Applies `ops` of batch `batch`. One failing operation is reported and skipped.
pub fn apply(store: &Store, ops: &[Op], batch: &str, source: &str, now: DateTime<Utc>) -> Applied {
    let mut applied = Applied::default();
    for op in ops {
        if let Err(e) = apply_one(store, op, batch, source, now, &mut applied) {
            applied.errors.push(e.to_string());
        }
    }
    applied
}

fn instinct_path(store: &Store, name: &str) -> PathBuf {
    store
        .paths()
        .personal_instincts()
        .join(format!("{name}.md"))
}

fn apply_one(
    store: &Store,
    op: &Op,
    batch: &str,
    source: &str,
    now: DateTime<Utc>,
    out: &mut Applied,
) -> Result<(), Error> {
    let mark = marker(batch);
    let day = now.format("%Y-%m-%d").to_string();
    match op {
        Op::Create {
            name,
            domain,
            trigger,
            action,
            confidence,
            project,
            paths,
            evidence,
            pattern,
        } => {
            let path = instinct_path(store, name);
            if path.exists() {
                return Ok(());
            }
            let text = render_instinct(
                &InstinctDraft {
                    domain,
                    trigger,
                    action,
                    confidence: *confidence,
                    project: project.as_deref(),
                    paths,
                    pattern: pattern.as_deref(),
                    source,
                    created: now,
                    title: &title_of(action),
                    evidence: &format!("{day}: {evidence} {mark}"),
                },
                now,
            );
            store.create(&path, &text)?;
            out.changes.push(format!("+ {name} {confidence:.2}"));
            out.files.push(path);
            out.created += 1;
        }
        Op::Reinforce { name, evidence } => {
            let line = edit_instinct(
                store,
                name,
                &mark,
                |doc, path, state| {
                    let u = state.reinforce(now);
                    set_state(doc, path, u.confidence, u.last_seen, None)?;
                    body::append_bullet(doc, "Evidence", &format!("{day}: {evidence} {mark}"));
                    Ok(format!(
                        "~ {name} {:.2}→{:.2}",
                        state.effective(now),
                        u.confidence
                    ))
                },
                now,
                out,
            )?;
            out.reinforced += usize::from(line);
        }
        Op::Contradict { name, evidence } => {
            let line = edit_instinct(
                store,
                name,
                &mark,
                |doc, path, state| {
                    let (u, disputed) = state.contradict(now);
                    set_state(doc, path, u.confidence, u.last_seen, u.decayed_until)?;
                    if disputed {
                        doc.set("disputed", &Scalar::Bool(true), &["last_seen"])
                            .map_err(|e| Error::invalid(path, e))?;
                    }
                    body::append_bullet(
                        doc,
                        "Evidence",
                        &format!("Contradicted by observations on {day}: {evidence} {mark}"),
                    );
                    Ok(format!(
                        "- {name} {:.2}→{:.2}{}",
                        state.effective(now),
                        u.confidence,
                        if disputed { " disputed" } else { "" }
                    ))
                },
                now,
                out,
            )?;
            out.contradicted += usize::from(line);
        }
        Op::Episode {
            key,
            title,
            narrative,
            project,
            tags,
            files,
            occurrences,
        } => {
            let existing = find_episode(store, key);
            match existing {
                Some(path) => {
                    store.edit(&path, |doc| {
                        if doc.text().contains(&mark) {
                            return Ok(());
                        }
                        doc.set(
                            "occurrences",
                            &Scalar::Int(i64::from(*occurrences)),
                            &["pattern"],
                        )
                        .map_err(|e| Error::invalid(&path, e))?;
                        for line in narrative.lines() {
                            body::append_bullet(doc, "Sightings", &format!("{line} {mark}"));
                        }
                        Ok(())
                    })?;
                    out.changes.push(format!(
                        "~ episode {} ({occurrences} sightings)",
                        crate::memory::stem(&path)
                    ));
                    out.files.push(path);
                }
                None => {
                    let path = store
                        .paths()
                        .episodes()
                        .join(format!("{day}-{}.md", slugify(title, 50)));
                    if path.exists() {
                        return Ok(());
                    }
                    let tags: Vec<String> = tags.iter().map(|t| quote_double(t)).collect();
                    let mut extra = format!(
                        "pattern: {}\noccurrences: {occurrences}\n",
                        quote_double(key)
                    );
                    if !files.is_empty() {
                        let files: Vec<String> = files.iter().map(|f| quote_double(f)).collect();
                        extra.push_str(&format!("files: [{}]\n", files.join(", ")));
                    }
                    let sightings: String = narrative
                        .lines()
                        .map(|l| format!("- {l} {mark}\n"))
                        .collect();
                    let text = templates::render(
                        templates::EPISODE,
                        &[
                            ("date", &day),
                            (
                                "project",
                                &quote_double(project.as_deref().unwrap_or("unknown")),
                            ),
                            ("tags", &format!("[{}]", tags.join(", "))),
                            ("extra", &extra),
                            ("title", title),
                            ("narrative", &format!("## Sightings\n\n{sightings}")),
                        ],
                    );
                    store.create(&path, &text)?;
                    out.changes
                        .push(format!("+ episode {}", crate::memory::stem(&path)));
                    out.files.push(path);
                }
            }
            out.episodes += 1;
        }
        Op::PromoteEpisode {
            episode,
            name,
            domain,
            trigger,
            action,
            evidence,
        } => {
            let episode_path = store.paths().episodes().join(format!("{episode}.md"));
            let path = instinct_path(store, name);
            if path.exists() || !episode_path.exists() {
                return Ok(());
            }
            let doc = store.read(&episode_path)?;
            let note = Note::from_document(&episode_path, NoteKind::Episode, &doc)?;
            let text = render_instinct(
                &InstinctDraft {
                    domain,
                    trigger,
                    action,
                    confidence: 0.5,
                    project: note.project.as_deref().filter(|p| *p != "unknown"),
                    paths: &note.files,
                    pattern: note.pattern.as_deref(),
                    source,
                    created: note.date.unwrap_or(now),
                    title: &title_of(action),
                    evidence: &format!("{day}: promoted from episode {episode}; {evidence} {mark}"),
                },
                now,
            );
            store.create(&path, &text)?;
            store.remove(&episode_path)?;
            out.changes
                .push(format!("+ {name} 0.50 (from episode {episode})"));
            out.files.push(path);
            out.files.push(episode_path);
            out.created += 1;
        }
        Op::SummarizeSession { session, summary } => {
            let path = store.paths().sessions().join(format!("{session}.md"));
            if !path.exists() {
                return Ok(());
            }
            store.edit(&path, |doc| {
                body::replace_section(doc, "Summary", &format!("{}\n", summary.trim()));
                Ok(())
            })?;
            out.files.push(path);
        }
    }
    Ok(())
}

/// Edits an existing instinct unless this batch already did (its marker is in the
/// file). `change` gets the document, its path and the decay state, and returns the
/// change line. Returns whether anything changed.
fn edit_instinct(
    store: &Store,
    name: &str,
    mark: &str,
    change: impl FnOnce(&mut Document, &Path, State) -> Result<String, Error>,
    now: DateTime<Utc>,
    out: &mut Applied,
) -> Result<bool, Error> {
    let path = existing_instinct(store, name)?;
    let line = store.edit(&path, |doc| {
        if doc.text().contains(mark) {
            return Ok(None);
        }
        let state = Instinct::from_document(&path, Origin::Personal, doc)?.state(now);
        change(doc, &path, state).map(Some)
    })?;
    match line {
        Some(line) => {
            out.changes.push(line);
            out.files.push(path);
            Ok(true)
        }
        None => Ok(false),
    }
}

fn existing_instinct(store: &Store, name: &str) -> Result<PathBuf, Error> {
    let path = instinct_path(store, name);
    if path.exists() {
        Ok(path)
    } else {
        Err(Error::Refused {
            path,
            reason: "no such instinct".into(),
        })
    }
}

fn find_episode(store: &Store, key: &str) -> Option<PathBuf> {
    store
        .notes(NoteKind::Episode)
        .items
        .into_iter()
        .find(|n| n.pattern.as_deref() == Some(key))
        .map(|n| n.path)
}

fn set_state(
    doc: &mut Document,
    path: &Path,
    confidence: f64,
    last_seen: DateTime<Utc>,
    decayed_until: Option<DateTime<Utc>>,
) -> Result<(), Error> {
    let bad = |e| Error::invalid(path, e);
    doc.set("confidence", &Scalar::Number(confidence), &[])
        .map_err(bad)?;
    doc.set("last_seen", &Scalar::Text(stamp(last_seen)), &["created"])
        .map_err(bad)?;
    match decayed_until {
        Some(t) => doc
            .set("decayed_until", &Scalar::Text(stamp(t)), &["last_seen"])
            .map_err(bad)?,
        None => {
            doc.remove("decayed_until").map_err(bad)?;
        }
    }
    Ok(())
}

fn title_of(action: &str) -> String {
    let words: Vec<&str> = action
        .split([';', ':'])
        .next()
        .unwrap_or(action)
        .split_whitespace()
        .take(8)
        .collect();
    let title = words.join(" ").replace('`', "");
    let mut chars = title.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

struct InstinctDraft<'a> {
    domain: &'a str,
    trigger: &'a str,
    action: &'a str,
    confidence: f64,
    project: Option<&'a str>,
    paths: &'a [String],
    pattern: Option<&'a str>,
    source: &'a str,
    created: DateTime<Utc>,
    title: &'a str,
    evidence: &'a str,
}

fn render_instinct(d: &InstinctDraft, now: DateTime<Utc>) -> String {
    let mut extra = String::new();
    if let Some(p) = d.project {
        extra.push_str(&format!("project: {}\n", quote_double(p)));
    }
    if !d.paths.is_empty() {
        let quoted: Vec<String> = d.paths.iter().map(|p| quote_double(p)).collect();
        extra.push_str(&format!("paths: [{}]\n", quoted.join(", ")));
    }
    extra.push_str(&format!("source: {}\n", d.source));
    if let Some(p) = d.pattern {
        extra.push_str(&format!("pattern: {}\n", quote_double(p)));
    }
    templates::render(
        templates::INSTINCT,
        &[
            ("trigger", &quote_double(d.trigger)),
            ("action", &quote_double(d.action)),
            ("confidence", &format!("{:.2}", d.confidence)),
            ("domain", d.domain),
            ("created", &stamp(d.created)),
            ("last_seen", &stamp(now)),
            ("extra", &extra),
            ("title", d.title),
            ("evidence", &format!("- {}", d.evidence)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles() {
        assert_eq!(
            title_of("run `cargo nextest run` instead; x"),
            "Run cargo nextest run instead"
        );
    }
}
