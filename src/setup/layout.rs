//! The memory folder's skeleton: its folders, `identity.json`, `config.toml` and
//! `.gitignore`. `init` reports on it step by step; hooks that find no folder call
//! `ensure` so the first session works even before `init`.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::fsutil::{self, PathError};
use crate::paths::{LAYOUT_DIRS, Paths};
use crate::setup::templates;

/// The files of a fresh memory folder and what they start with.
pub fn files(paths: &Paths, now: DateTime<Utc>) -> [(PathBuf, String); 3] {
    [
        (paths.identity(), crate::memory::identity::fresh_text(now)),
        (paths.config(), templates::CONFIG.to_string()),
        (paths.gitignore(), templates::GITIGNORE.to_string()),
    ]
}

/// Creates whatever is missing; never touches what exists.
pub fn ensure(paths: &Paths, now: DateTime<Utc>) -> Result<(), PathError> {
    fsutil::create_private_dir(&paths.root)?;
    for dir in LAYOUT_DIRS {
        fsutil::create_private_dir(&paths.root.join(dir))?;
    }
    for (path, text) in files(paths, now) {
        fsutil::write_new(&path, text.as_bytes())?;
    }
    Ok(())
}

/// Whether the folder looks complete (cheap: one stat).
pub fn is_ready(paths: &Paths) -> bool {
    paths.root.join("state/locks").is_dir()
}
