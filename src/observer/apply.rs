//! The one deterministic writer of the observer: applies validated operations through
//! the store with lossless edits. Every change carries its batch id in an evidence line,
//! so applying the same batch again (after a crash) changes nothing.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::ops::Op;
use crate::memory::confidence::Update;
use crate::memory::draft::{EpisodeDraft, InstinctDraft};
use crate::memory::editor::Editor;
use crate::memory::{Error, Instinct, Origin, Scalar, Store};
use crate::time::day;
use episodes::{Promotion, episode, promote_episode};

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
    /// Sessions whose summary was written: files changed, but not memories, so not
    /// `changes`. A session a drain read in several batches is one.
    pub summarised: std::collections::BTreeSet<String>,
}

fn marker(batch: &str) -> String {
    format!("(batch {batch})")
}

/// Applies `ops` of batch `batch`. One failing operation is reported and skipped.
pub fn apply(store: &Store, ops: &[Op], batch: &str, source: &str, now: DateTime<Utc>) -> Applied {
    let run = Run {
        store,
        mark: marker(batch),
        day: day(now),
        source,
        now,
    };
    let mut applied = Applied::default();
    for op in ops {
        if let Err(e) = apply_one(&run, op, &mut applied) {
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

/// What every operation of one batch shares.
struct Run<'a> {
    store: &'a Store<'a>,
    mark: String,
    day: String,
    source: &'a str,
    now: DateTime<Utc>,
}

impl Run<'_> {
    /// An evidence bullet: dated when seen, unless the miner's words already begin
    /// with their own date (a recovery's "2026-01-10, ledger: …"), and marked with the batch.
    fn evidence_line(&self, seen: DateTime<Utc>, evidence: &str) -> String {
        if crate::time::leading_day(evidence).is_some() {
            format!("{evidence} {}", self.mark)
        } else {
            format!("{}: {evidence} {}", day(seen), self.mark)
        }
    }

    /// The date of evidence: when it was seen, never later than now.
    fn when(&self, seen: Option<DateTime<Utc>>) -> DateTime<Utc> {
        seen.map_or(self.now, |t| t.min(self.now))
    }
}

fn apply_one(run: &Run, op: &Op, out: &mut Applied) -> Result<(), Error> {
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
            first_seen,
            last_seen,
            provenance,
            sessions,
        } => {
            let last = run.when(*last_seen);
            let draft = InstinctDraft {
                domain,
                trigger,
                action,
                confidence: *confidence,
                project: project.as_deref(),
                paths,
                pattern: pattern.as_deref(),
                source: run.source,
                provenance: *provenance,
                created: run.when(*first_seen).min(last),
                last_seen: last,
                title: &title_of(action),
                evidence: &run.evidence_line(last, evidence),
                sessions: *sessions,
            };
            create(run, name, &draft, out)
        }
        Op::Reinforce {
            name,
            evidence,
            last_seen,
            sessions,
        } => reinforce(run, name, evidence, run.when(*last_seen), *sessions, out),
        Op::Contradict { name, evidence } => contradict(run, name, evidence, out),
        Op::Episode {
            key,
            title,
            narrative,
            project,
            tags,
            files,
            occurrences,
            lesson,
            seen,
            provenance,
        } => {
            let day = day(run.when(*seen));
            let draft = EpisodeDraft {
                day: &day,
                project: project.as_deref().unwrap_or("unknown"),
                tags,
                pattern: key,
                occurrences: *occurrences,
                files,
                title,
                narrative: lesson.as_deref().unwrap_or(""),
                provenance: *provenance,
            };
            episode(run, &draft, narrative, out)
        }
        Op::PromoteEpisode {
            episode,
            name,
            domain,
            trigger,
            action,
            evidence,
            last_seen,
            provenance,
            sessions,
        } => {
            let promotion = Promotion {
                episode,
                name,
                domain,
                trigger,
                action,
                evidence,
                seen: run.when(*last_seen),
                provenance: *provenance,
                sessions: *sessions,
            };
            promote_episode(run, &promotion, out)
        }
        Op::SummarizeSession { session, summary } => summarize(run, session, summary, out),
    }
}

fn create(run: &Run, name: &str, draft: &InstinctDraft, out: &mut Applied) -> Result<(), Error> {
    let path = instinct_path(run.store, name);
    if path.exists() {
        return Ok(());
    }
    run.store.create(&path, &draft.render())?;
    out.changes
        .push(format!("+ {name} {:.2}", draft.confidence));
    out.files.push(path);
    out.created += 1;
    Ok(())
}

/// One more sighting at `seen` (a replayed lesson keeps its own date; an older
/// sighting never moves `last_seen` back).
fn reinforce(
    run: &Run,
    name: &str,
    evidence: &str,
    seen: DateTime<Utc>,
    sessions: u32,
    out: &mut Applied,
) -> Result<(), Error> {
    let now = run.now;
    let changed = edit_instinct(run, name, out, |file, instinct| {
        let state = instinct.state(now);
        let at = seen.max(state.last_seen).min(now);
        let update = Update {
            decayed_until: None,
            ..state.reinforce(at)
        };
        file.set_state(instinct.last_seen, &update)?;
        // The count of sessions so far (never lowered: a lost ledger counts afresh).
        if sessions > instinct.sessions.unwrap_or(0) {
            file.set(
                "sessions",
                &Scalar::Int(i64::from(sessions)),
                &["provenance"],
            )?;
        }
        file.append_bullet("Evidence", &run.evidence_line(seen, evidence));
        Ok(format!(
            "~ {name} {:.2}→{:.2}",
            state.effective(now),
            update.confidence
        ))
    })?;
    out.reinforced += usize::from(changed);
    Ok(())
}

fn contradict(run: &Run, name: &str, evidence: &str, out: &mut Applied) -> Result<(), Error> {
    let now = run.now;
    let changed = edit_instinct(run, name, out, |file, instinct| {
        let state = instinct.state(now);
        let (update, disputed) = state.contradict(now);
        file.set_state(instinct.last_seen, &update)?;
        if disputed {
            file.set("disputed", &Scalar::Bool(true), &["last_seen"])?;
        }
        file.append_bullet(
            "Evidence",
            &format!(
                "Contradicted by observations on {}: {evidence} {}",
                run.day, run.mark
            ),
        );
        Ok(format!(
            "- {name} {:.2}→{:.2}{}",
            state.effective(now),
            update.confidence,
            if disputed { " disputed" } else { "" }
        ))
    })?;
    out.contradicted += usize::from(changed);
    Ok(())
}

fn summarize(run: &Run, session: &str, summary: &str, out: &mut Applied) -> Result<(), Error> {
    let path = run.store.paths().sessions().join(format!("{session}.md"));
    if !path.exists() {
        return Ok(());
    }
    run.store.edit(&path, |file| {
        file.replace_section("Summary", &format!("{}\n", summary.trim()));
        Ok(())
    })?;
    out.files.push(path);
    out.summarised.insert(session.to_string());
    Ok(())
}

/// Edits an existing instinct unless this batch already did (its marker is in the
/// file). `change` gets the file and the instinct as it stands, and returns the change
/// line. Returns whether anything changed.
fn edit_instinct(
    run: &Run,
    name: &str,
    out: &mut Applied,
    change: impl FnOnce(&mut Editor, &Instinct) -> Result<String, Error>,
) -> Result<bool, Error> {
    let path = existing_instinct(run.store, name)?;
    let line = run.store.edit(&path, |file| {
        if file.text().contains(&run.mark) {
            return Ok(None);
        }
        let instinct = Instinct::from_document(&path, Origin::Personal, file.doc())?;
        if instinct.retired {
            // Forgotten: the pattern is known, so nothing recreates it, and nothing
            // brings it back either.
            return Ok(None);
        }
        change(file, &instinct).map(Some)
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

/// The most words of an action a title takes.
const TITLE_WORDS: usize = 8;
/// Words a clipped title must not end on.
const DANGLING: &[&str] = &[
    "a", "an", "the", "and", "or", "to", "of", "in", "on", "for", "with", "by", "at", "from",
    "before", "after", "when", "if", "than", "then", "not", "no",
];

fn title_of(action: &str) -> String {
    let all: Vec<&str> = action
        .split([';', ':'])
        .next()
        .unwrap_or(action)
        .split_whitespace()
        .collect();
    let mut title = all[..all.len().min(TITLE_WORDS)].join(" ").replace('`', "");
    // Eight words can end inside an aside ("… files (the") or on a word that leads
    // nowhere ("… files in the"): a clipped title ends where its sense does. A title
    // that was not clipped is the action's own words ("Answer yes or no").
    if all.len() > TITLE_WORDS {
        if let Some(open) = title.rfind('(')
            && open > 0
            && !title[open..].contains(')')
        {
            title.truncate(open);
        }
        loop {
            let trimmed = title
                .trim_end()
                .trim_end_matches([',', '-', '—'])
                .trim_end();
            match trimmed.rsplit_once(' ') {
                Some((head, last)) if DANGLING.contains(&last.to_lowercase().as_str()) => {
                    title = head.to_string();
                }
                _ => {
                    title = trimmed.to_string();
                    break;
                }
            }
        }
    }
    let mut chars = title.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

mod episodes;

#[cfg(test)]
mod tests;
