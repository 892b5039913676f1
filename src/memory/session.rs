//! Session summaries: one file per Claude Code session, `sessions/<start>-<sid8>.md`,
//! rewritten in place on every Stop from the session's running tally (`memory::tally`:
//! tools by frequency, files touched relative to the project, errors) and its turns. Only our keys and
//! the `## Files touched` section change; a `## Summary` the observer wrote stays.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::memory::draft::new_file;
use crate::memory::{Document, Error, Note, NoteKind, Scalar, Store};

/// The most files a summary lists.
pub const MAX_FILES: usize = 50;

/// What a summary is made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    pub tools: Vec<String>,
    /// Edited files inside the project, relative to it.
    pub files: Vec<String>,
    /// Edited files outside the project, as given.
    pub outside: Vec<String>,
    pub errors: usize,
}

/// The summary's file name for a session that started at `started`.
pub fn file_name(started: DateTime<Utc>, session_id: &str) -> String {
    let sid8 = crate::agent::payload::short_id(session_id);
    format!("{}-{sid8}.md", started.format(crate::time::FILE_STAMP))
}

/// The summary's file name for a session, unless another session already holds that
/// name (same second, same first characters of the id): then one that also carries a
/// hash of the whole id, so no two sessions ever share a summary.
pub fn free_file_name(dir: &std::path::Path, started: DateTime<Utc>, session_id: &str) -> String {
    let name = file_name(started, session_id);
    let file = dir.join(&name);
    let taken_by_another = crate::fsutil::read_text(&file)
        .ok()
        .and_then(|text| Document::parse(text).ok())
        .and_then(|doc| Note::from_document(&file, NoteKind::Session, &doc).ok())
        .is_some_and(|note| note.session_id.as_deref() != Some(session_id));
    if !taken_by_another {
        return name;
    }
    let hash = crate::text::fnv1a(session_id.as_bytes()) as u32;
    format!(
        "{}-{}-{hash:08x}.md",
        started.format(crate::time::FILE_STAMP),
        crate::agent::payload::short_id(session_id)
    )
}

/// When a session started, read back from its summary's file stem
/// (`2026-02-19T174512Z-7c1e5a2b`); `None` for a name `file_name` did not make.
pub fn started_from_stem(stem: &str) -> Option<DateTime<Utc>> {
    let head = stem.get(..18)?;
    chrono::NaiveDateTime::parse_from_str(head, crate::time::FILE_STAMP)
        .ok()
        .map(|t| t.and_utc())
}

fn tasks_section(tasks: &[String]) -> String {
    if tasks.is_empty() {
        return "- (all done)\n".to_string();
    }
    tasks.iter().map(|t| format!("- [ ] {t}\n")).collect()
}

fn files_section(facts: &Facts) -> String {
    let mut out: String = if facts.files.is_empty() {
        "- (none recorded)\n".to_string()
    } else {
        facts.files.iter().map(|f| format!("- {f}\n")).collect()
    };
    if !facts.outside.is_empty() {
        out.push_str("\nOutside the project:\n\n");
        out.extend(facts.outside.iter().map(|f| format!("- {f}\n")));
    }
    out
}

/// Who the session is.
pub struct Identity<'a> {
    pub session_id: &'a str,
    pub project: &'a str,
    pub directory: &'a str,
    pub started: DateTime<Utc>,
    pub continues_from: Option<&'a str>,
    /// Claude Code's title for the session, else its first request.
    pub title: Option<&'a str>,
    /// The agent's unfinished tasks.
    pub open_tasks: &'a [String],
}

/// Writes or refreshes the summary at `path`. Returns the path.
pub fn write(
    store: &Store,
    path: PathBuf,
    who: &Identity,
    facts: &Facts,
    turns: u32,
    now: DateTime<Utc>,
) -> Result<PathBuf, Error> {
    let stamp = crate::time::stamp(now);
    if path.exists() {
        store.edit(&path, |file| {
            file.set("updated", &Scalar::Text(stamp.clone()), &["date"])?;
            file.set(
                "tools_used",
                &Scalar::List(facts.tools.clone()),
                &["session_id"],
            )?;
            file.set("turns", &Scalar::Int(i64::from(turns)), &["tools_used"])?;
            file.set("errors", &Scalar::Int(facts.errors as i64), &["turns"])?;
            file.replace_section("Files touched", &files_section(facts));
            if let Some(title) = who.title {
                file.set_title(title);
            }
            if !who.open_tasks.is_empty() || file.text().contains(&format!("\n{OPEN_TASKS}")) {
                file.replace_section("Open tasks", &tasks_section(who.open_tasks));
            }
            Ok(())
        })?;
        return Ok(path);
    }
    let text = |t: &str| Scalar::Text(t.to_string());
    let mut fields = vec![
        ("type", Scalar::Plain("session".into())),
        ("date", Scalar::Plain(crate::time::stamp(who.started))),
        ("updated", Scalar::Plain(stamp)),
        ("project", text(who.project)),
        ("directory", text(who.directory)),
        ("session_id", text(who.session_id)),
        ("tools_used", Scalar::List(facts.tools.clone())),
        ("turns", Scalar::Int(i64::from(turns))),
        ("errors", Scalar::Int(facts.errors as i64)),
    ];
    if let Some(c) = who.continues_from {
        fields.push(("continues_from", text(c)));
    }
    let title = who
        .title
        .map_or_else(|| format!("Session: {}", who.project), str::to_string);
    let mut body = format!("# {title}\n\n## Files touched\n\n{}", files_section(facts));
    if !who.open_tasks.is_empty() {
        body.push_str(&format!(
            "\n{OPEN_TASKS}\n\n{}",
            tasks_section(who.open_tasks)
        ));
    }
    store.create(&path, &new_file(&fields, &body))?;
    Ok(path)
}

/// The line of a summary's `## Summary` that says how the session ended.
pub const OUTCOME: &str = "Outcome: ";
/// The line that names the request a session was working on when it ended on a failure.
pub const UNFINISHED: &str = "Unfinished: ";
/// The section that lists the tasks a session left open (`- [ ] …`).
pub const OPEN_TASKS: &str = "## Open tasks";

/// How a session ended, read back from its summary file's text: the same keys the
/// writers here and in `observer::summary` spell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ending {
    /// The first sentence of its last answer.
    pub outcome: Option<String>,
    /// Tasks it left open.
    pub open_tasks: Vec<String>,
    /// The request it was working on when it ended on a failure.
    pub unfinished: Option<String>,
}

/// Reads how a session ended from its summary's text.
pub fn ending(text: &str) -> Ending {
    let line = |prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .map(|o| crate::text::one_line_words(o, 160))
    };
    let open_tasks = text
        .split(OPEN_TASKS)
        .nth(1)
        .map(|section| {
            section
                .lines()
                .take_while(|l| !l.starts_with("## "))
                .filter_map(|l| l.trim().strip_prefix("- [ ] "))
                .map(|t| crate::text::one_line_words(t, 120))
                .collect()
        })
        .unwrap_or_default();
    Ending {
        outcome: line(OUTCOME),
        open_tasks,
        unfinished: line(UNFINISHED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_by_time() {
        let t = DateTime::parse_from_rfc3339("2026-02-19T17:45:12Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            file_name(t, "7c1e5a2b-3f4d"),
            "2026-02-19T174512Z-7c1e5a2b.md"
        );
        assert_eq!(started_from_stem("2026-02-19T174512Z-7c1e5a2b"), Some(t));
        assert_eq!(started_from_stem("notes"), None);
    }

    #[test]
    fn the_ending_reads_back_what_the_writers_spell() {
        let text = format!(
            "# Session: ledger\n\n## Summary\n\n{}add a CSV export\n{}The export is in src/export.rs.\n\n{}\n\n- [ ] write the docs\n- [x] done already\n",
            super::UNFINISHED,
            super::OUTCOME,
            super::OPEN_TASKS
        );
        let e = super::ending(&text);
        assert_eq!(e.unfinished.as_deref(), Some("add a CSV export"));
        assert_eq!(
            e.outcome.as_deref(),
            Some("The export is in src/export.rs.")
        );
        assert_eq!(e.open_tasks, ["write the docs"]);
    }
}
