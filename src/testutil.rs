//! Test fixtures for the core modules' unit tests: a memory folder in a temporary
//! directory, a fixed clock, and item files written the way a user or the bash version
//! would have written them.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::agent::observation::{Event, Input, Observation};
use crate::paths::Paths;

/// An observation of `event` in session `s` of project `p` (folder `/p`), nothing else
/// set: tests fill in the fields they are about.
pub fn observation(event: Event) -> Observation {
    Observation {
        ts: "2026-02-20T12:00:00.000Z".into(),
        event,
        session_id: "s".into(),
        cwd: "/p".into(),
        project: "p".into(),
        tool: None,
        input: Input::default(),
        outcome: None,
        error: None,
        prompt: None,
        request: None,
        noop: false,
        printed: Vec::new(),
    }
}

/// A fresh memory folder (with its skeleton) that disappears when dropped.
pub struct Memory {
    _dir: tempfile::TempDir,
    pub paths: Paths,
    pub now: DateTime<Utc>,
}

pub fn at(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339)
        .expect("a valid test timestamp")
        .to_utc()
}

impl Memory {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let paths = Paths::new(dir.path().join("memory"), dir.path().join("claude"));
        let now = at("2026-03-01T12:00:00Z");
        crate::setup::layout::ensure(&paths, now).expect("the memory skeleton");
        Self {
            _dir: dir,
            paths,
            now,
        }
    }

    /// Writes `text` at `relative` (under the memory folder), as a hand edit would.
    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.paths.root.join(relative);
        crate::fsutil::create_private_dir(path.parent().expect("a parent")).expect("the folder");
        crate::fsutil::atomic_write(&path, text.as_bytes()).expect("the file");
        path
    }

    /// A personal instinct with the usual keys; `extra` lines go into the frontmatter.
    pub fn instinct(
        &self,
        name: &str,
        confidence: f64,
        created: &str,
        last_seen: &str,
        extra: &str,
    ) -> PathBuf {
        self.write(
            &format!("instincts/personal/{name}.md"),
            &format!(
                "---\ntrigger: \"when running the tests of {name}\"\naction: \"use cargo nextest run for {name}\"\nconfidence: {confidence:.2}\ndomain: testing\ncreated: {created}\nlast_seen: {last_seen}\n{extra}---\n\n# {name}\n\n## Evidence\n\n- seen\n"
            ),
        )
    }
}
