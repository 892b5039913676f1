//! The change journal: every memory file this program replaces or removes, with its
//! folder's mtime just before and just after, appended to `.index/journal`. The index
//! applies exactly those files when they account for a folder's new mtime, instead of
//! rescanning the folder. A lost or partial journal only costs a rescan.

use std::fs;
use std::path::{Path, PathBuf};

use crate::fsutil::{self, PathError};
use crate::paths::Paths;

/// One recorded change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Relative to the memory folder.
    pub path: PathBuf,
    /// The folder's mtime (ns) before and after the change.
    pub before: i64,
    pub after: i64,
}

pub fn journal_file(paths: &Paths) -> PathBuf {
    paths.index().join("journal")
}

/// A folder's modification time in nanoseconds.
pub fn dir_mtime(dir: &Path) -> Option<i64> {
    fs::metadata(dir).ok().map(|m| fsutil::mtime_ns(&m))
}

/// Replaces `path` atomically and records the change.
pub fn write(paths: &Paths, path: &Path, contents: &[u8]) -> Result<(), PathError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let before = dir_mtime(dir).unwrap_or(0);
    fsutil::atomic_write(path, contents)?;
    record(paths, path, before, dir_mtime(dir).unwrap_or(0));
    Ok(())
}

/// Removes `path` (already gone is fine) and records the change.
pub fn remove(paths: &Paths, path: &Path) -> Result<(), PathError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let before = dir_mtime(dir).unwrap_or(0);
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(PathError::new("remove", path, e));
        }
        _ => {}
    }
    record(paths, path, before, dir_mtime(dir).unwrap_or(0));
    Ok(())
}

/// Appends one entry. Best effort: the journal is an optimisation, never a requirement.
pub fn record(paths: &Paths, path: &Path, before: i64, after: i64) {
    let line = format!("{}\t{before}\t{after}\n", paths.relative(path).display());
    let _ = append(&journal_file(paths), &line);
}

fn append(file: &Path, line: &str) -> Result<(), PathError> {
    if let Some(dir) = file.parent() {
        fsutil::create_private_dir(dir)?;
    }
    fsutil::append(file, line.as_bytes())
}

/// Whether any change is waiting.
pub fn pending(paths: &Paths) -> bool {
    taken_files(paths).next().is_some()
        || fs::metadata(journal_file(paths)).is_ok_and(|m| m.len() > 0)
}

fn taken_files(paths: &Paths) -> impl Iterator<Item = PathBuf> {
    fs::read_dir(paths.index())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("journal."))
        })
}

/// Takes the journal for processing: new appends start a fresh file. Returns the
/// entries and the files to `finish` once they are applied. Leftovers of a crashed
/// run are taken too.
pub fn take(paths: &Paths) -> (Vec<Entry>, Vec<PathBuf>) {
    let live = journal_file(paths);
    let taken = live.with_file_name(format!("journal.{}", fsutil::unique_suffix()));
    let _ = fs::rename(&live, &taken);
    let files: Vec<PathBuf> = taken_files(paths).collect();
    let mut entries = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_default();
        entries.extend(text.lines().filter_map(parse_line));
    }
    (entries, files)
}

/// Deletes journal files whose entries were applied.
pub fn finish(files: &[PathBuf]) {
    for f in files {
        let _ = fs::remove_file(f);
    }
}

fn parse_line(line: &str) -> Option<Entry> {
    let mut parts = line.split('\t');
    let path = PathBuf::from(parts.next()?);
    if path.is_absolute() || path.components().any(|c| c.as_os_str() == "..") {
        return None;
    }
    Some(Entry {
        path,
        before: parts.next()?.parse().ok()?,
        after: parts.next()?.parse().ok()?,
    })
}

/// Whether `entries` (for one folder) carry its mtime from `recorded` to `current`:
/// then those files are all that changed in it.
pub fn explains(entries: &[&Entry], recorded: i64, current: i64) -> bool {
    let mut known = recorded;
    let mut used = vec![false; entries.len()];
    while known != current {
        let next = entries
            .iter()
            .enumerate()
            .find(|(i, e)| !used[*i] && e.before == known && e.after != known);
        match next {
            Some((i, e)) => {
                used[i] = true;
                known = e.after;
            }
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(before: i64, after: i64) -> Entry {
        Entry {
            path: "sessions/a.md".into(),
            before,
            after,
        }
    }

    #[test]
    fn chains_explain_in_any_order() {
        let (a, b) = (e(1, 2), e(2, 3));
        assert!(explains(&[&b, &a], 1, 3));
        assert!(explains(&[], 5, 5));
        assert!(!explains(&[&a], 1, 3), "a gap means a foreign change");
        assert!(!explains(&[&b], 1, 3));
    }

    #[test]
    fn hostile_lines_are_dropped() {
        assert!(parse_line("../../etc/passwd\t1\t2").is_none());
        assert!(parse_line("/etc/passwd\t1\t2").is_none());
        assert!(parse_line("sessions/a.md\tx\t2").is_none());
        assert_eq!(parse_line("sessions/a.md\t1\t2"), Some(e(1, 2)));
    }
}
