//! Append-only diagnostic logs under `logs/` (a hook's stdout is protocol, so its errors
//! go here). Each log is rotated to `<name>.1` when it passes its size limit. Best
//! effort: logging never fails the caller.

use std::fs;
use std::path::Path;

use chrono::{DateTime, Utc};

use crate::paths::Paths;

/// Logs are rotated past this size.
pub const MAX_BYTES: u64 = 1024 * 1024;

/// Appends one line to `logs/<name>`, rotating first when the file is full.
pub fn append(paths: &Paths, name: &str, line: &str) {
    let file = paths.logs().join(name);
    let _ = crate::fsutil::create_private_dir(&paths.logs());
    rotate(&file, MAX_BYTES);
    let mut text = line.replace('\n', " ");
    text.push('\n');
    let _ = crate::fsutil::append(&file, text.as_bytes());
}

/// `logs/hooks.log`: `<ts> <event> <message>`.
pub fn hook_error(paths: &Paths, now: DateTime<Utc>, event: &str, message: &str) {
    append(
        paths,
        "hooks.log",
        &format!("{} {event} {message}", now.format("%Y-%m-%dT%H:%M:%SZ")),
    );
}

fn rotate(file: &Path, max: u64) {
    if fs::metadata(file).is_ok_and(|m| m.len() >= max) {
        let _ = fs::rename(file, file.with_extension("log.1"));
    }
}
