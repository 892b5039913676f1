//! The sessions timeline and the injections log.

use askama::Template;
use chrono::{DateTime, Utc};

use crate::paths::Paths;

use super::{Frame, Sent};
use crate::ask::find::Finder;
use crate::memory::kind::Kind;
use crate::memory::{Document, Note, NoteKind};

#[derive(Template)]
#[template(path = "ui/sessions.html")]
pub struct Sessions {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub project: String,
    pub sessions: Vec<Timeline>,
}

pub struct Timeline {
    pub id: String,
    pub date: String,
    pub project: String,
    pub asked: String,
    pub outcome: Option<String>,
    pub unfinished: Option<String>,
    pub open_tasks: Vec<String>,
    /// The memories injected into it, each with whether the agent has yet to act on it
    /// (it is still watched for a use).
    pub injected: Vec<(String, bool)>,
}

pub fn sessions(
    paths: &Paths,
    finder: &mut Finder,
    frame: Frame,
    project: String,
    now: DateTime<Utc>,
) -> Result<Sessions, crate::index::IndexError> {
    let only = Some(project.trim()).filter(|p| !p.is_empty());
    let hits = finder.with(paths, now.timestamp(), |idx, reader| {
        crate::index::listing::newest(idx, reader, Some(Kind::Session.name()), only, None, 50)
    })?;
    let sessions = hits
        .into_iter()
        .map(|h| {
            let path = paths.root.join(&h.path);
            let text = crate::fsutil::read_text(&path).unwrap_or_default();
            let end = crate::memory::session::ending(&text);
            let note = Document::parse(text)
                .ok()
                .and_then(|doc| Note::from_document(&path, NoteKind::Session, &doc).ok());
            let session_id = note
                .as_ref()
                .and_then(|n| n.session_id.clone())
                .unwrap_or_default();
            let memo = crate::memory::memo::read(
                paths,
                &crate::agent::payload::safe_session_id(&session_id),
            );
            let injected = memo
                .injected
                .iter()
                .map(|i| (i.clone(), memo.watching.iter().any(|w| &w.id == i)))
                .collect();
            Timeline {
                date: note
                    .and_then(|n| n.date)
                    .map(|d| d.format("%Y-%m-%d %H:%M:%SZ").to_string())
                    .unwrap_or_default(),
                project: h.project.unwrap_or_default(),
                asked: crate::text::strip_ansi(&h.title).into_owned(),
                outcome: end.outcome,
                unfinished: end.unfinished,
                open_tasks: end.open_tasks,
                injected,
                id: h.path,
            }
        })
        .collect();
    Ok(Sessions {
        token: frame.token,
        title: "Sessions",
        message: frame.message,
        project,
        sessions,
    })
}

#[derive(Template)]
#[template(path = "ui/injections.html")]
pub struct Injections {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub rows: Vec<Sent>,
}

pub fn injections(paths: &Paths, frame: Frame) -> Injections {
    let rows = crate::log::injections(paths)
        .into_iter()
        .rev()
        .take(300)
        .map(Sent::from)
        .collect();
    Injections {
        token: frame.token,
        title: "Injections",
        message: frame.message,
        rows,
    }
}
