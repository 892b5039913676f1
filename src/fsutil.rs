//! File-system primitives: the only places that create folders or replace files.
//! Writes are atomic (temp file in the same folder, fsync, rename); folders are 0700,
//! new files 0600. Every error names the path it concerns.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// An I/O failure together with the operation and the path it concerns. The I/O error
/// is part of the message and deliberately not a `source`: an error chain printed
/// whole (`{:#}`) would say "No such file or directory (os error 2)" twice.
#[derive(Debug, thiserror::Error)]
#[error("cannot {op} {}: {io}", path.display())]
pub struct PathError {
    pub op: &'static str,
    pub path: PathBuf,
    pub io: io::Error,
}

impl PathError {
    pub fn new(op: &'static str, path: &Path, io: io::Error) -> Self {
        Self {
            op,
            path: path.to_path_buf(),
            io,
        }
    }

    pub fn is_not_found(&self) -> bool {
        self.io.kind() == io::ErrorKind::NotFound
    }
}

/// Extension to attach a path to any `io::Result`.
pub trait IoContext<T> {
    fn at(self, op: &'static str, path: &Path) -> Result<T, PathError>;
}

impl<T> IoContext<T> for io::Result<T> {
    fn at(self, op: &'static str, path: &Path) -> Result<T, PathError> {
        self.map_err(|e| PathError::new(op, path, e))
    }
}

/// Creates `dir` and its missing parents with mode 0700. Returns whether it was created.
pub fn create_private_dir(dir: &Path) -> Result<bool, PathError> {
    if dir.is_dir() {
        return Ok(false);
    }
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .at("create folder", dir)?;
    Ok(true)
}

/// Replaces `path` with `contents` atomically: readers see the old file or the new one,
/// never a mix, and a crash leaves the old file in place. An existing file keeps its
/// permissions; a new one gets 0600. A symlink at `path` is replaced, never written through.
pub fn atomic_write(path: &Path, contents: &[u8]) -> Result<(), PathError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // The temp file must live in the target's folder: rename is atomic only within one
    // file system.
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(|e| PathError::new("create a temporary file in", dir, bare(e)))?;
    let mode = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => meta.permissions().mode() & 0o7777,
        _ => 0o600,
    };
    tmp.as_file()
        .set_permissions(fs::Permissions::from_mode(mode))
        .at("set permissions on", tmp.path())?;
    tmp.write_all(contents).at("write", tmp.path())?;
    // Errors of the last write may only surface on sync; Drop would swallow them.
    tmp.as_file().sync_all().at("sync", tmp.path())?;
    tmp.persist(path)
        .map_err(|e| PathError::new("replace", path, e.error))?;
    Ok(())
}

/// An I/O error without the path tempfile adds to its message (ours names the path).
fn bare(e: io::Error) -> io::Error {
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((reason, _)) => io::Error::new(e.kind(), reason.to_string()),
        None => e,
    }
}

/// Appends `bytes` to `path` in one write (concurrent appenders never interleave within
/// it), creating the file 0600. Never follows a symlink, neither at `path` nor at its
/// folder, so a link planted in the memory folder cannot redirect a write outside it.
pub fn append(path: &Path, bytes: &[u8]) -> Result<(), PathError> {
    use std::os::unix::fs::OpenOptionsExt;
    if let Some(dir) = path.parent()
        && fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(PathError::new(
            "append to",
            path,
            io::Error::new(io::ErrorKind::InvalidInput, "its folder is a symlink"),
        ));
    }
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .at("open", path)?;
    // Whole lines or nothing: a write cut short (a full disk) is cut back, so the next
    // line does not start inside a fragment.
    let before = f.metadata().at("stat", path)?.len();
    if let Err(e) = f.write_all(bytes) {
        cut_back(path, before, bytes);
        return Err(PathError::new("append to", path, e));
    }
    Ok(())
}

/// After a failed append: removes what of `bytes` reached the file, if nothing else was
/// appended since (another process's whole line is never cut).
fn cut_back(path: &Path, before: u64, bytes: &[u8]) {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut f) = fs::OpenOptions::new().read(true).write(true).open(path) else {
        return;
    };
    let Ok(len) = f.metadata().map(|m| m.len()) else {
        return;
    };
    let written = len.saturating_sub(before) as usize;
    if written == 0 || written > bytes.len() || f.seek(SeekFrom::Start(before)).is_err() {
        return;
    }
    let mut tail = Vec::with_capacity(written);
    if f.take(written as u64).read_to_end(&mut tail).is_ok() && tail == bytes[..written] {
        let _ = fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(before));
    }
}

/// Writes `contents` to `path` only if no file exists there yet. Returns whether it wrote.
pub fn write_new(path: &Path, contents: &[u8]) -> Result<bool, PathError> {
    if fs::symlink_metadata(path).is_ok() {
        return Ok(false);
    }
    atomic_write(path, contents)?;
    Ok(true)
}

/// Reads a whole file as UTF-8, naming the file in the error.
pub fn read_text(path: &Path) -> Result<String, PathError> {
    let bytes = read_regular(path).at("read", path)?;
    String::from_utf8(bytes).map_err(|_| {
        PathError::new(
            "read",
            path,
            io::Error::new(io::ErrorKind::InvalidData, "not valid UTF-8"),
        )
    })
}

/// Lists the markdown files directly inside `dir`, sorted, skipping hidden and temporary
/// files. A missing folder lists nothing.
pub fn markdown_files(dir: &Path) -> Result<Vec<PathBuf>, PathError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(PathError::new("list", dir, e)),
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.at("list", dir)?;
        let path = entry.path();
        if is_markdown_name(&path) && entry.file_type().is_ok_and(|t| t.is_file()) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Whether a file name looks like a memory file: `*.md`, not hidden, not an editor temp.
/// A file we refuse to read or change, located by line: `path:line: reason`. Every layer
/// reports unparseable files in this one shape.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}:{line}: {reason}", path.display())]
pub struct InvalidFile {
    pub path: PathBuf,
    pub line: usize,
    pub reason: String,
}

impl InvalidFile {
    pub fn new(path: &Path, line: usize, reason: impl Into<String>) -> Self {
        Self {
            path: path.to_path_buf(),
            line,
            reason: reason.into(),
        }
    }
}

/// The last `max` bytes of a regular file, or `None` for anything else. Opened
/// non-blocking and checked after opening, so a FIFO, a device or a link to
/// `/dev/zero` named by a payload can neither hang nor flood a hook.
pub fn read_tail(path: &Path, max: u64) -> Option<Vec<u8>> {
    // A stat never blocks, whatever the path is.
    let len = fs::metadata(path).ok()?.len();
    read_range(path, len.saturating_sub(max), max)
}

/// The whole of a regular file. Opened without blocking and refused unless it is a
/// regular file: a FIFO or a device put where one of our files should be (a hostile
/// `identity.json`) can neither hang nor flood the caller.
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut out = Vec::new();
    file.read_to_end(&mut out)?;
    Ok(out)
}

/// At most `max` bytes of a regular file from offset `from` (see `read_tail`).
pub fn read_range(path: &Path, from: u64, max: u64) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    file.seek(SeekFrom::Start(from)).ok()?;
    let mut out = Vec::new();
    file.take(max).read_to_end(&mut out).ok()?;
    Some(out)
}

/// A JSON state file of ours, or the default when it is missing or does not parse
/// (state is rebuildable; a torn or hand-broken file must not stop anything).
pub fn read_json_or_default<T: serde::de::DeserializeOwned + Default>(path: &Path) -> T {
    read_regular(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Removes our temporary files (`.tmp-*`) older than an hour from `dir`: what a process
/// killed between writing and renaming leaves behind. Younger ones may be in use.
pub fn remove_stale_temps(dir: &Path) -> usize {
    #[allow(clippy::disallowed_methods)] // compared with file times, which are wall-clock
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
        .filter(|e| {
            e.metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < hour_ago)
        })
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

/// A suffix no other process or call uses at the same time: process id, wall-clock
/// nanoseconds (not `now`: uniqueness, not meaning) and a counter.
pub fn unique_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    #[allow(clippy::disallowed_methods)]
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{}.{nanos}.{n}", std::process::id())
}

/// A file's modification time in nanoseconds since the epoch: the stamp the index and
/// the change journal compare.
pub fn mtime_ns(meta: &fs::Metadata) -> i64 {
    use std::os::unix::fs::MetadataExt;
    meta.mtime() * 1_000_000_000 + meta.mtime_nsec()
}

pub fn is_markdown_name(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name.ends_with(".md") && !name.starts_with('.') && !name.starts_with('~') && name.len() > 3
}

#[cfg(test)]
mod tests;
