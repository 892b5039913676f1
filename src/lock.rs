//! Advisory file locks over `fs4`: one lock file per resource under `state/locks/`,
//! held only across a read-modify-write. Lock files are never deleted, so a stale one is
//! harmless (the kernel releases a lock when its holder dies) and safe to remove by hand.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fs4::{FileExt, TryLockError};

use crate::fsutil::{IoContext, PathError, create_private_dir};

/// The resources we lock, each with its own file under `state/locks/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LockName {
    /// The item files (instincts, convictions, episodes, sessions).
    Memory,
    /// `identity.json`.
    Identity,
    /// The Tantivy index writer.
    Index,
    /// One running `watch`.
    Watch,
    /// One running observer.
    Observer,
    /// `state/usage.json`: how often items were injected and used.
    Usage,
    /// `projects.json`: which repository each project key stands for.
    Projects,
    /// One session's hook state; the id is already safe as a file name.
    Session(String),
}

impl LockName {
    /// The lock file's stem.
    pub fn file_stem(&self) -> String {
        match self {
            LockName::Memory => "memory".into(),
            LockName::Identity => "identity".into(),
            LockName::Index => "index".into(),
            LockName::Watch => "watch".into(),
            LockName::Observer => "observer".into(),
            LockName::Usage => "usage".into(),
            LockName::Projects => "projects".into(),
            LockName::Session(id) => format!("session-{id}"),
        }
    }
}

/// Changes the JSON state in `file` under the lock at `lock`, waited for at most `wait`
/// (hooks wait a few milliseconds, never longer): reads it (the default when missing or
/// unparsable), applies `change`, and writes it back atomically only when it changed.
pub fn update_json<S, T>(
    lock: &Path,
    file: &Path,
    wait: Duration,
    change: impl FnOnce(&mut S) -> T,
) -> Result<T, LockError>
where
    S: serde::Serialize + serde::de::DeserializeOwned + Default + PartialEq + Clone,
{
    let _lock = FileLock::try_acquire_for(lock, wait)?;
    let mut state: S = crate::fsutil::read_json_or_default(file);
    let before = state.clone();
    let out = change(&mut state);
    if state != before {
        if let Some(dir) = file.parent() {
            create_private_dir(dir)?;
        }
        let bytes = serde_json::to_vec(&state).unwrap_or_default();
        crate::fsutil::atomic_write(file, &bytes)?;
    }
    Ok(out)
}

/// Why a lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{} is held by another process", .0.display())]
    Busy(PathBuf),
    #[error(transparent)]
    Io(#[from] PathError),
}

/// An exclusive lock, released when dropped.
#[derive(Debug)]
pub struct FileLock {
    file: File,
}

impl FileLock {
    /// Blocks until the lock at `path` is ours. For user commands.
    pub fn acquire(path: &Path) -> Result<Self, LockError> {
        let file = open(path)?;
        FileExt::lock(&file).at("lock", path)?;
        Ok(Self { file })
    }

    /// Tries for at most `wait`, then gives up with `LockError::Busy`. For hooks, which
    /// must never stall the agent.
    pub fn try_acquire_for(path: &Path, wait: Duration) -> Result<Self, LockError> {
        let file = open(path)?;
        let started = Instant::now();
        let deadline = started + wait;
        loop {
            match FileExt::try_lock(&file) {
                Ok(()) => return Ok(Self { file }),
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(e)) => return Err(PathError::new("lock", path, e).into()),
            }
            if Instant::now() >= deadline {
                return Err(LockError::Busy(path.to_path_buf()));
            }
            // Hooks wait milliseconds and poll closely; a long wait (a forced observer
            // run behind another) polls a few times a second.
            let pause = if started.elapsed() < Duration::from_millis(100) {
                1
            } else {
                50
            };
            std::thread::sleep(Duration::from_millis(pause));
        }
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = FileExt::unlock(&self.file);
    }
}

fn open(path: &Path) -> Result<File, PathError> {
    if let Some(dir) = path.parent() {
        create_private_dir(dir)?;
    }
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .at("open lock file", path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_is_refused_until_first_drops() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("locks/memory.lock");
        let first = FileLock::acquire(&path).unwrap();
        let err = FileLock::try_acquire_for(&path, Duration::from_millis(5)).unwrap_err();
        assert!(matches!(err, LockError::Busy(_)));
        drop(first);
        FileLock::try_acquire_for(&path, Duration::from_millis(5)).unwrap();
    }
}
