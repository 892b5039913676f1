//! `identity.json`: the memory's counters (sessions, creation, last session and
//! promotion, domains ready for promotion). Unknown keys and their order are kept.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value, json};

use crate::fsutil::{self, InvalidFile, PathError};
use crate::lock::{FileLock, LockError, LockName};
use crate::paths::Paths;
use crate::text::stamp;

#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Invalid(#[from] InvalidFile),
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
pub fn read(paths: &Paths) -> Result<Map<String, Value>, IdentityError> {
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
    change: impl FnOnce(&mut Map<String, Value>) -> T,
) -> Result<T, IdentityError> {
    let _lock = FileLock::acquire(&paths.lock(&LockName::Identity))?;
    change_locked(paths, change)
}

/// `update` for hooks: gives up (with `LockError::Busy`) after `wait`.
pub fn update_within<T>(
    paths: &Paths,
    wait: std::time::Duration,
    change: impl FnOnce(&mut Map<String, Value>) -> T,
) -> Result<T, IdentityError> {
    let _lock = FileLock::try_acquire_for(&paths.lock(&LockName::Identity), wait)?;
    change_locked(paths, change)
}

fn change_locked<T>(
    paths: &Paths,
    change: impl FnOnce(&mut Map<String, Value>) -> T,
) -> Result<T, IdentityError> {
    let mut map = read(paths)?;
    let before = map.clone();
    let out = change(&mut map);
    if map != before {
        write(paths, &map)?;
    }
    Ok(out)
}

fn write(paths: &Paths, map: &Map<String, Value>) -> Result<(), IdentityError> {
    let mut text = serde_json::to_string_pretty(map).unwrap_or_else(|_| "{}".into());
    text.push('\n');
    fsutil::atomic_write(&paths.identity(), text.as_bytes())?;
    Ok(())
}

/// The domains listed under `promotion.ready` (or the bash-era `evolution.ready`).
pub fn promotion_ready(map: &Map<String, Value>) -> Vec<String> {
    ["promotion", "evolution"]
        .iter()
        .filter_map(|k| map.get(*k)?.get("ready")?.as_array())
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Sets `promotion.ready`, keeping the rest of `promotion`.
pub fn set_promotion_ready(map: &mut Map<String, Value>, domains: &[String]) {
    let promotion = map.entry("promotion").or_insert_with(|| json!({}));
    if !promotion.is_object() {
        *promotion = json!({});
    }
    promotion["ready"] = json!(domains);
}
