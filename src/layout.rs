//! The memory folder's skeleton: its folders, `identity.json`, `config.toml` and
//! `.gitignore`. `init` reports on it step by step; hooks that find no folder call
//! `ensure` so the first session works even before `init`.

use chrono::{DateTime, Utc};

use crate::fsutil::{self, PathError};
use crate::paths::{LAYOUT_DIRS, Paths};
use crate::templates;

/// Creates whatever is missing; never touches what exists.
pub fn ensure(paths: &Paths, now: DateTime<Utc>) -> Result<(), PathError> {
    fsutil::create_private_dir(&paths.root)?;
    for dir in LAYOUT_DIRS {
        fsutil::create_private_dir(&paths.root.join(dir))?;
    }
    let mut identity =
        serde_json::to_string_pretty(&crate::identity::fresh(now)).unwrap_or_default();
    identity.push('\n');
    fsutil::write_new(&paths.identity(), identity.as_bytes())?;
    fsutil::write_new(&paths.config(), templates::CONFIG.as_bytes())?;
    fsutil::write_new(&paths.gitignore(), templates::GITIGNORE.as_bytes())?;
    Ok(())
}

/// Whether the folder looks complete (cheap: one stat).
pub fn is_ready(paths: &Paths) -> bool {
    paths.root.join("state/locks").is_dir()
}
