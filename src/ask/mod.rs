//! What a person or a model asks of the memory: find, read, list the recent sessions,
//! remember, judge and forget. The CLI and the MCP server both call these, so each has
//! one implementation; nothing here prints or reads the environment.

pub mod feedback;
pub mod find;
pub mod forget;
pub mod item;
pub mod remember;
pub mod review;
pub mod sessions;

use std::path::PathBuf;

use crate::index::IndexError;
use crate::paths::Paths;
use crate::setup::config::Config;

/// Why a question or a change could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum AskError {
    /// No such item; the message names the closest ones where there are some.
    #[error("{0}")]
    NotFound(String),
    /// The request is not acceptable (a path outside the memory, a destructive rule...).
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Memory(#[from] crate::memory::Error),
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// Tells the index about changed files. The index is a cache: a failure here is
/// returned for the caller to mention, never the change's failure.
pub fn reindex(paths: &Paths, now_unix: i64) -> Result<(), IndexError> {
    crate::index::sync::note_changed(paths, now_unix).map(|_| ())
}

/// After a change a server made (MCP, the review screen): the index takes it in and git
/// records it when configured. Both are best effort there: the change itself is made,
/// and the index is a cache.
pub fn after_change(paths: &Paths, now_unix: i64, message: &str, files: &[PathBuf]) {
    let _ = reindex(paths, now_unix);
    let _ = commit(paths, message, files);
}

/// Commits the files a change wrote when the memory folder is a git repository and
/// `git.commit` is on, leaving the user's other edits out. Returns whether it committed.
pub fn commit(paths: &Paths, message: &str, files: &[PathBuf]) -> Result<bool, String> {
    let config = Config::load(&paths.config()).unwrap_or_default();
    if !config.git.commit {
        return Ok(false);
    }
    crate::setup::git::commit_files(&paths.root, message, files).map_err(|e| e.to_string())
}
