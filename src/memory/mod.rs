//! The memory items (instincts, convictions, episodes, sessions) as markdown files with
//! YAML frontmatter: their model, lossless editing, and the store that reads and writes
//! them atomically under a lock; plus the state kept beside them (identity, the
//! per-session memo, usage counts).

pub mod body;
pub mod confidence;
pub mod draft;
pub mod editor;
pub mod fields;
pub mod frontmatter;
pub mod identity;
pub mod instinct;
pub mod journal;
pub mod kind;
pub mod memo;
pub mod migrate;
pub mod note;
pub mod pattern;
pub mod projects;
pub mod promotion;
pub mod provenance;
pub mod session;
pub mod store;
pub mod tally;
pub mod usage;

use std::path::{Path, PathBuf};

pub use frontmatter::{Document, Scalar, SyntaxError};
pub use instinct::{Conviction, Instinct, Origin};
pub use note::{Note, NoteKind};
pub use store::{Loaded, Store};

use crate::fsutil::{InvalidFile, PathError};
use crate::lock::LockError;

/// The domains an instinct can belong to.
pub const DOMAINS: &[&str] = &[
    "code-style",
    "testing",
    "debugging",
    "git",
    "tooling",
    "architecture",
    "performance",
    "security",
    "documentation",
    "general",
];

/// Errors of the memory layer. `Invalid` is a file we refuse to touch.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Invalid(#[from] InvalidFile),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{}: {reason}", path.display())]
    Refused { path: PathBuf, reason: String },
}

impl Error {
    pub fn invalid(path: &Path, err: SyntaxError) -> Self {
        Self::Invalid(InvalidFile::new(path, err.line, err.reason))
    }
}

/// The frontmatter key `forget` sets: the item is kept on disk (and in git) but never
/// injected, searched or learned again.
pub const RETIRED: &str = "retired";

/// Whether a file of any kind is retired (`retired: true`).
pub fn is_retired(doc: &Document) -> bool {
    doc.mapping().is_ok_and(|m| {
        matches!(m.get(RETIRED), Some(serde_yaml_ng::Value::Bool(true)))
            || m.get(RETIRED).and_then(|v| v.as_str()) == Some("true")
    })
}

/// The stem of a file name: `testing-use-nextest` for `.../testing-use-nextest.md`.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Turns free text into a file-name slug: lowercase ASCII words joined by `-`, at most
/// `max` bytes. Never empty, never contains a path separator.
pub fn slugify(text: &str, max: usize) -> String {
    let mut slug = String::new();
    for word in text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if slug.len() + word.len() + 1 > max && !slug.is_empty() {
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word.to_ascii_lowercase());
    }
    slug.truncate(max);
    let slug = slug.trim_end_matches('-').to_string();
    if slug.is_empty() {
        "item".to_string()
    } else {
        slug
    }
}

/// Whether `name` is safe as a file stem we create: `[a-z0-9][a-z0-9_-]*`, ≤ 120 bytes.
pub fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.len() <= 120
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slugify("Use cargo nextest!", 40), "use-cargo-nextest");
        assert_eq!(slugify("../../etc/passwd", 40), "etc-passwd");
        assert_eq!(slugify("???", 40), "item");
        assert_eq!(slugify("alpha beta gamma", 10), "alpha-beta");
    }

    #[test]
    fn names() {
        assert!(is_valid_name("testing-use-nextest"));
        for bad in ["", "../x", "A", "-x", "a/b", "a.md", "a b"] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }
}
