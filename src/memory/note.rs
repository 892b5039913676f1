//! Episodes (notable one-off events) and session summaries: dated notes with a project,
//! tags and the files they touched.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::fields::FieldReader;
use super::{Document, Error, body, stem};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    Episode,
    Session,
}

/// An episode or a session summary.
#[derive(Debug, Clone)]
pub struct Note {
    pub kind: NoteKind,
    pub name: String,
    pub path: PathBuf,
    pub date: Option<DateTime<Utc>>,
    pub project: Option<String>,
    pub tags: Vec<String>,
    pub files: Vec<String>,
    pub session_id: Option<String>,
    pub continues_from: Option<String>,
    /// The observer's pattern key of an episode, and how often it was seen.
    pub pattern: Option<String>,
    pub occurrences: u32,
    pub title: Option<String>,
    /// Whose words it holds (absent in older files).
    pub provenance: Option<super::provenance::Provenance>,
    /// Set by `forget`: never injected, searched or seen again by the observer.
    pub retired: bool,
}

impl Note {
    pub fn from_document(path: &Path, kind: NoteKind, doc: &Document) -> Result<Self, Error> {
        let map = doc.mapping().map_err(|e| Error::invalid(path, e))?;
        let f = FieldReader {
            map: &map,
            doc,
            path,
        };
        Ok(Self {
            kind,
            name: stem(path),
            path: path.to_path_buf(),
            date: f.date("date")?,
            project: f.text("project")?,
            tags: f.list("tags")?,
            files: f.list("files")?,
            session_id: f.text("session_id")?,
            continues_from: f.text("continues_from")?,
            pattern: f.text("pattern")?,
            occurrences: f.number("occurrences")?.map_or(1, |n| n.max(1.0) as u32),
            title: body::title(doc.body()),
            provenance: f
                .text("provenance")?
                .as_deref()
                .and_then(super::provenance::Provenance::from_name),
            retired: f.bool("retired")?,
        })
    }
}
