//! Forgetting an item: `retired: true` in its frontmatter (one line; the text stays on
//! disk and in git history). A retired item is never injected or searched, and the
//! observer, which still knows its pattern, never recreates or reinforces it.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::AskError;
use crate::memory::{RETIRED, Scalar, Store};
use crate::paths::Paths;
use crate::time::day;

/// What `forget` did.
#[derive(Debug, Clone)]
pub struct Forgotten {
    pub id: String,
    pub path: PathBuf,
    /// False when it was already retired.
    pub changed: bool,
}

/// Retires the item `id` (a name or a path inside the memory folder).
pub fn forget(
    paths: &Paths,
    id: &str,
    why: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Forgotten, AskError> {
    let (path, _) = super::item::resolve(paths, id)?;
    let store = Store::new(paths);
    let changed = store.edit(&path, |file| {
        if crate::memory::is_retired(file.doc()) {
            return Ok(false);
        }
        file.set(RETIRED, &Scalar::Bool(true), &["last_seen", "date"])?;
        let why = why.map(|w| crate::text::one_line_words(&crate::agent::redact::redact(w), 160));
        if file.text().contains("\n## Evidence") {
            let why = why.map(|w| format!(": {w}")).unwrap_or_default();
            file.append_bullet("Evidence", &format!("{}: forgotten{why}", day(now)));
        } else if let Some(why) = why {
            // Episodes and sessions keep no evidence list: the reason sits by the mark.
            file.set("retired_reason", &Scalar::Text(why), &[RETIRED])?;
        }
        Ok(true)
    })?;
    Ok(Forgotten {
        id: paths.relative(&path).display().to_string(),
        path,
        changed,
    })
}
