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

/// Moves a full log to `<name>.1` (replacing the previous one).
fn rotate(file: &Path, max: u64) {
    if fs::metadata(file).is_ok_and(|m| m.len() >= max) {
        let mut rotated = file.as_os_str().to_owned();
        rotated.push(".1");
        let _ = fs::rename(file, rotated);
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up files directly
mod tests {
    use super::*;

    #[test]
    fn full_logs_rotate_to_dot_one() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::new(dir.path(), dir.path().join("claude"));
        for name in ["hooks.log", "injections.jsonl"] {
            fs::create_dir_all(paths.logs()).unwrap();
            fs::write(paths.logs().join(name), vec![b'x'; MAX_BYTES as usize]).unwrap();
            append(&paths, name, "fresh");
            assert_eq!(
                fs::read_to_string(paths.logs().join(name)).unwrap(),
                "fresh\n"
            );
            assert!(paths.logs().join(format!("{name}.1")).exists(), "{name}");
        }
    }
}
