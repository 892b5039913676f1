//! "Where did we leave off": a project's sessions, newest first, each with what was
//! asked, how it ended and the tasks it left open, read back from its summary file.

use chrono::DateTime;
use tantivy::IndexReader;

use crate::index::{Index, IndexError};
use crate::memory::session::ending;
use crate::paths::Paths;
use crate::recall::past::{Span, sessions};

/// One past session.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Recent {
    pub id: String,
    /// When it started (RFC 3339).
    pub date: String,
    /// What the user asked for (Claude Code's title for it, else the first request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
    /// The first sentence of its last answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// The request it was working on when it ended on a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub open_tasks: Vec<String>,
}

/// The `limit` newest sessions of `project`.
pub fn recent(
    index: &Index,
    reader: &IndexReader,
    paths: &Paths,
    project: &str,
    now_unix: i64,
    limit: usize,
) -> Result<Vec<Recent>, IndexError> {
    let items = sessions(index, reader, project, Span::Every, None, now_unix, limit)?;
    Ok(items
        .into_iter()
        .map(|item| {
            let text = crate::fsutil::read_text(&paths.root.join(&item.id)).unwrap_or_default();
            let end = ending(&text);
            let asked = (!item.title.starts_with("Session: ") && !item.title.is_empty())
                .then(|| crate::text::strip_ansi(&item.title).into_owned());
            Recent {
                date: DateTime::from_timestamp(item.date, 0)
                    .map(crate::time::stamp)
                    .unwrap_or_default(),
                id: item.id,
                asked,
                outcome: end.outcome,
                unfinished: end.unfinished,
                open_tasks: end.open_tasks,
            }
        })
        .collect())
}
