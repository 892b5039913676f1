//! `identity.json`: the memory's counters (sessions, creation, last session and
//! promotion, domains ready for promotion), read and changed only through [`Identity`],
//! the one place its keys are spelled. Unknown keys and their order are kept. The
//! counters are bookkeeping, never a reason to stop: a file that does not parse (a git
//! merge left conflict markers in it) is copied aside and rebuilt from the memory's
//! own files by the next change.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value, json};

use crate::fsutil::{self, InvalidFile, PathError};
use crate::lock::{FileLock, LockError, LockName};
use crate::paths::Paths;
use crate::time::stamp;

#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Invalid(#[from] InvalidFile),
}

/// The identity's counters over the file's JSON object (unknown keys kept as they are).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Identity(Map<String, Value>);

impl Identity {
    /// Sessions counted so far.
    pub fn session_count(&self) -> u64 {
        self.0
            .get("session_count")
            .and_then(Value::as_u64)
            .unwrap_or(0)
    }

    /// Counts one more session, started at `now`.
    pub fn count_session(&mut self, now: DateTime<Utc>) {
        let count = self.session_count() + 1;
        self.0.insert("session_count".into(), json!(count));
        self.note_session(now);
    }

    /// Notes that a session was active at `now`.
    pub fn note_session(&mut self, now: DateTime<Utc>) {
        self.0.insert("last_session".into(), json!(stamp(now)));
    }

    /// Notes a promotion at `now`.
    pub fn note_promotion(&mut self, now: DateTime<Utc>) {
        self.0.insert("last_promotion".into(), json!(stamp(now)));
    }

    /// The domains listed under `promotion.ready` (or the bash-era `evolution.ready`).
    pub fn promotion_ready(&self) -> Vec<String> {
        ["promotion", "evolution"]
            .iter()
            .filter_map(|k| self.0.get(*k)?.get("ready")?.as_array())
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    }

    /// Sets `promotion.ready`, keeping the rest of `promotion`.
    pub fn set_promotion_ready(&mut self, domains: &[String]) {
        let promotion = self.0.entry("promotion").or_insert_with(|| json!({}));
        if !promotion.is_object() {
            *promotion = json!({});
        }
        promotion["ready"] = json!(domains);
    }
}

/// The identity file of a fresh memory, as written to disk.
pub fn fresh_text(now: DateTime<Utc>) -> String {
    let mut text = serde_json::to_string_pretty(&fresh(now)).unwrap_or_default();
    text.push('\n');
    text
}

/// The identity file of a fresh memory.
pub fn fresh(now: DateTime<Utc>) -> Value {
    json!({
        "session_count": 0,
        "created": stamp(now),
        "last_session": null,
        "last_promotion": null,
        "promotion": { "ready": [] },
    })
}

/// Reads the identity; a missing file reads as an empty object.
pub fn read(paths: &Paths) -> Result<Identity, IdentityError> {
    read_map(paths).map(Identity)
}

fn read_map(paths: &Paths) -> Result<Map<String, Value>, IdentityError> {
    let path = paths.identity();
    let text = match fsutil::read_text(&path) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return Ok(Map::new()),
        Err(e) => return Err(e.into()),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(InvalidFile::new(&path, 1, "invalid JSON: not a JSON object").into()),
        Err(e) => Err(InvalidFile::new(&path, e.line(), format!("invalid JSON: {e}")).into()),
    }
}

/// Changes the identity under its lock; writes only when something changed.
pub fn update<T>(
    paths: &Paths,
    change: impl FnOnce(&mut Identity) -> T,
) -> Result<T, IdentityError> {
    let _lock = FileLock::acquire(&paths.lock(&LockName::Identity))?;
    change_locked(paths, change)
}

/// `update` for hooks: gives up (with `LockError::Busy`) after `wait`.
pub fn update_within<T>(
    paths: &Paths,
    wait: std::time::Duration,
    change: impl FnOnce(&mut Identity) -> T,
) -> Result<T, IdentityError> {
    let _lock = FileLock::try_acquire_for(&paths.lock(&LockName::Identity), wait)?;
    change_locked(paths, change)
}

fn change_locked<T>(
    paths: &Paths,
    change: impl FnOnce(&mut Identity) -> T,
) -> Result<T, IdentityError> {
    let mut identity = match read(paths) {
        Ok(identity) => identity,
        Err(IdentityError::Invalid(_)) => Identity(rebuild(paths)?),
        Err(e) => return Err(e),
    };
    let before = identity.clone();
    let out = change(&mut identity);
    if identity != before {
        write(paths, &identity.0)?;
    }
    Ok(out)
}

/// The copies of broken identity files kept by rebuilds (`identity.json.broken`,
/// `identity.json.broken-2`, …), oldest first.
pub fn broken_copies(paths: &Paths) -> Vec<std::path::PathBuf> {
    (1..)
        .map(|n| broken_copy(paths, n))
        .take_while(|p| p.exists())
        .collect()
}

fn broken_copy(paths: &Paths, n: usize) -> std::path::PathBuf {
    match n {
        1 => paths.root.join("identity.json.broken"),
        n => paths.root.join(format!("identity.json.broken-{n}")),
    }
}

/// Rebuilds the counters from the files (called under the lock, for a file that does
/// not parse): sessions are counted from the session summaries, or from a conflicted
/// file's sides when one of them says more; the file is first copied aside, so a hand
/// edit in it is not lost. Domains ready for promotion are recomputed by the next
/// observer run or `evolve`.
fn rebuild(paths: &Paths) -> Result<Map<String, Value>, IdentityError> {
    let broken = std::fs::read(paths.identity()).unwrap_or_default();
    let copy = broken_copy(paths, broken_copies(paths).len() + 1);
    fsutil::write_new(&copy, &broken)?;
    let mut starts: Vec<String> = fsutil::markdown_files(&paths.sessions())
        .unwrap_or_default()
        .iter()
        .filter_map(|p| crate::memory::session::started_from_stem(&crate::memory::stem(p)))
        .map(stamp)
        .collect();
    starts.sort();
    let sides: Vec<Map<String, Value>> = conflict_sides(&String::from_utf8_lossy(&broken))
        .iter()
        .filter_map(|side| match serde_json::from_str::<Value>(side).ok()? {
            Value::Object(map) => Some(map),
            _ => None,
        })
        .collect();
    let salvaged = sides
        .iter()
        .filter_map(|side| side.get("session_count")?.as_u64())
        .max()
        .unwrap_or(0);
    let mut map = Map::new();
    // What both sides of a conflict agree on stands (unknown keys included).
    if let [ours, theirs] = sides.as_slice() {
        for (key, value) in ours {
            if theirs.get(key) == Some(value) {
                map.insert(key.clone(), value.clone());
            }
        }
    }
    let texts = |key: &str| -> Vec<String> {
        sides
            .iter()
            .filter_map(|side| side.get(key)?.as_str().map(str::to_string))
            .chain(match key {
                "created" => starts.first().cloned(),
                _ => starts.last().cloned(),
            })
            .collect()
    };
    map.insert(
        "session_count".into(),
        json!((starts.len() as u64).max(salvaged)),
    );
    // RFC 3339 stamps in UTC sort as text: the earliest creation, the latest session.
    map.insert("created".into(), json!(texts("created").into_iter().min()));
    map.insert(
        "last_session".into(),
        json!(texts("last_session").into_iter().max()),
    );
    map.entry("last_promotion").or_insert(Value::Null);
    map.entry("promotion").or_insert(json!({ "ready": [] }));
    Ok(map)
}

/// The two texts a git conflict stands for (lines outside the markers in both).
fn conflict_sides(text: &str) -> [String; 2] {
    let (mut ours, mut theirs) = (String::new(), String::new());
    let mut side = 0;
    for line in text.lines() {
        match line {
            l if l.starts_with("<<<<<<<") => side = 1,
            l if l.starts_with("=======") && (side == 1 || side == 3) => side = 2,
            l if l.starts_with(">>>>>>>") => side = 0,
            l if l.starts_with("|||||||") => side = 3,
            l => {
                if side != 2 && side != 3 {
                    ours.push_str(l);
                    ours.push('\n');
                }
                if side != 1 && side != 3 {
                    theirs.push_str(l);
                    theirs.push('\n');
                }
            }
        }
    }
    [ours, theirs]
}

fn write(paths: &Paths, map: &Map<String, Value>) -> Result<(), IdentityError> {
    let mut text = serde_json::to_string_pretty(map).unwrap_or_else(|_| "{}".into());
    text.push('\n');
    fsutil::atomic_write(&paths.identity(), text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conflict_keeps_what_both_sides_agree_on() {
        let m = crate::testutil::Memory::new();
        let ours = r#"{"session_count": 3, "created": "2026-01-02T00:00:00Z", "last_session": "2026-02-01T00:00:00Z", "last_promotion": "2026-01-20T00:00:00Z", "team": "ledger", "promotion": {"ready": ["git"]}}"#;
        let theirs = r#"{"session_count": 4, "created": "2026-01-02T00:00:00Z", "last_session": "2026-02-03T00:00:00Z", "last_promotion": "2026-01-20T00:00:00Z", "team": "ledger", "promotion": {"ready": []}}"#;
        m.write(
            "identity.json",
            &format!("<<<<<<< HEAD\n{ours}\n=======\n{theirs}\n>>>>>>> other\n"),
        );
        let _lock = FileLock::acquire(&m.paths.lock(&LockName::Identity)).unwrap();
        let map = rebuild(&m.paths).unwrap();
        assert_eq!(map["session_count"], 4);
        assert_eq!(map["created"], "2026-01-02T00:00:00Z");
        assert_eq!(map["last_session"], "2026-02-03T00:00:00Z");
        assert_eq!(
            map["last_promotion"], "2026-01-20T00:00:00Z",
            "both sides agree"
        );
        assert_eq!(
            map["team"], "ledger",
            "an unknown key both sides agree on stays"
        );
        assert_eq!(
            map["promotion"],
            json!({ "ready": [] }),
            "the sides differ: recomputed later"
        );
    }
}
