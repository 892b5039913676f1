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
        &format!("{} {event} {message}", crate::time::stamp(now)),
    );
}

/// The log of what reached the model.
const INJECTIONS: &str = "injections.jsonl";

/// One line of `logs/injections.jsonl`: what one hook sent the model, and why.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Injection {
    /// When, RFC 3339 with milliseconds.
    pub ts: String,
    pub session: String,
    /// The hook event (`user-prompt-submit`, …).
    pub event: String,
    /// The memories sent, by path relative to the memory folder.
    pub items: Vec<String>,
    /// For prompt recall: the words of the prompt each memory shared.
    pub why: std::collections::BTreeMap<String, Vec<String>>,
    pub chars: usize,
    /// `live`, `shadow` (logged, not sent) or `block` (a censor denied the call).
    pub mode: String,
}

/// Appends one injection to `logs/injections.jsonl`.
pub fn injection(paths: &Paths, entry: &Injection) {
    if let Ok(line) = serde_json::to_string(entry) {
        append(paths, INJECTIONS, &line);
    }
}

/// Every injection logged (the rotated file's first), in order; lines that do not
/// parse are skipped.
pub fn injections(paths: &Paths) -> Vec<Injection> {
    [format!("{INJECTIONS}.1"), INJECTIONS.to_string()]
        .iter()
        .flat_map(|name| {
            fs::read_to_string(paths.logs().join(name))
                .unwrap_or_default()
                .lines()
                .filter_map(|l| serde_json::from_str::<Injection>(l).ok())
                .collect::<Vec<_>>()
        })
        .collect()
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
