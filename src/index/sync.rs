//! Keeping the index in step with the files. The manifest is the index itself (each
//! document stores its file's mtime and size) plus `.index/dirs.json`, the modification
//! times of the item folders at the last sync.
//!
//! A quick sync stats only the five item folders: a create, delete or rename (which is
//! how our writes and most editors save) changes its folder's mtime. When the change
//! journal (`changes`) accounts for the new mtime, exactly the journaled files are
//! applied; otherwise the folder is rescanned. An in-place edit does not touch the
//! folder, so every file is re-stat'ed in a sweep: on every sync up to
//! `SWEEP_ALWAYS_UP_TO` documents, else at most once per `SWEEP_INTERVAL_SECS` (with
//! `homunculus watch` running, the watcher sees those edits). Hooks sync in bounded mode:
//! journaled changes, and rescans of small folders only; never a sweep.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::update::{Purge, purge_pending, scan};
use super::{Index, IndexError, SyncReport};
use crate::fsutil;
use crate::fsutil::mtime_ns;
use crate::lock::{FileLock, LockError, LockName};
use crate::memory::journal;
use crate::memory::kind::ITEM_DIRS;
use crate::paths::Paths;

/// Up to this many documents, every sync re-stats every file (a few milliseconds).
pub const SWEEP_ALWAYS_UP_TO: u64 = 1_000;
/// Above it, in-place edits are looked for at most this often without `watch`.
pub const SWEEP_INTERVAL_SECS: i64 = 60;
/// How long a reader waits for a busy writer before searching what is there.
const WRITER_WAIT: Duration = Duration::from_millis(50);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Journaled changes; folders they do not explain are rescanned only when small.
    Bounded,
    /// Folder mtimes, the journal, and a sweep when one is due.
    Quick,
    /// Every file.
    Full,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct DirsState {
    dirs: BTreeMap<String, i64>,
    swept_at: i64,
}

pub fn dirs_file(paths: &Paths) -> PathBuf {
    paths.index().join("dirs.json")
}

fn read_state(paths: &Paths) -> DirsState {
    crate::fsutil::read_json_or_default(&dirs_file(paths))
}

/// The current mtime of each item folder (absent folders are left out).
fn dir_mtimes(paths: &Paths) -> BTreeMap<String, i64> {
    ITEM_DIRS
        .iter()
        .filter_map(|d| {
            let meta = fs::metadata(paths.root.join(d.dir)).ok()?;
            Some((d.dir.to_string(), mtime_ns(&meta)))
        })
        .collect()
}

/// Whether `homunculus watch` holds its lock (and so keeps the index fresh).
pub fn watch_running(paths: &Paths) -> bool {
    matches!(
        FileLock::try_acquire_for(&paths.lock(&LockName::Watch), Duration::ZERO),
        Err(LockError::Busy(_))
    )
}

/// Brings the index up to date. Quick mode does almost nothing when nothing changed.
/// One function on purpose: the order of its steps (decide, lock, take the journal,
/// rescan, commit, record the state, finish the journal) is what keeps it crash-safe.
pub fn sync(
    index: &Index,
    paths: &Paths,
    mode: Mode,
    now_unix: i64,
) -> Result<SyncReport, IndexError> {
    let state = read_state(paths);
    let current = dir_mtimes(paths);
    let stale = now_unix - state.swept_at >= SWEEP_INTERVAL_SECS || now_unix < state.swept_at;
    let sweep = match mode {
        Mode::Full => true,
        Mode::Bounded => false,
        Mode::Quick => {
            let docs = index.reader()?.searcher().num_docs();
            (docs <= SWEEP_ALWAYS_UP_TO || stale) && !watch_running(paths)
        }
    };
    let changed: Vec<String> = current
        .iter()
        .filter(|(dir, mtime)| state.dirs.get(*dir) != Some(mtime))
        .map(|(dir, _)| dir.clone())
        .chain(
            state
                .dirs
                .keys()
                .filter(|d| !current.contains_key(*d))
                .cloned(),
        )
        .collect();
    let purge = match mode {
        Mode::Bounded => Purge::UpTo(HOOK_PURGE_LIMIT),
        Mode::Quick | Mode::Full => Purge::All,
    };
    let purge_due = purge == Purge::All && purge_pending(paths);
    if !sweep && changed.is_empty() && !journal::pending(paths) && !purge_due {
        return Ok(SyncReport::default());
    }
    let wait = if mode == Mode::Bounded {
        Duration::from_millis(5)
    } else {
        WRITER_WAIT
    };
    let _lock = match FileLock::try_acquire_for(&paths.lock(&LockName::Index), wait) {
        Ok(lock) => lock,
        Err(LockError::Busy(_)) => {
            return Ok(SyncReport {
                busy: true,
                ..SyncReport::default()
            });
        }
        Err(e) => return Err(e.into()),
    };
    let (journal, taken) = journal::take(paths);
    let mut rescan = Vec::new();
    let mut recorded = state.dirs.clone();
    for dir in &changed {
        let entries: Vec<&journal::Entry> = journal
            .iter()
            .filter(|e| e.path.parent().and_then(Path::to_str) == Some(dir.as_str()))
            .collect();
        let explained = match (state.dirs.get(dir), current.get(dir)) {
            (Some(&was), Some(&now)) => journal::explains(&entries, was, now),
            _ => false,
        };
        // Hooks rescan only small folders (convictions, instincts); a large one (the
        // sessions of years) waits for the next command or `watch`.
        let may_rescan = mode == Mode::Quick || small(&paths.root.join(dir));
        if (explained || sweep || may_rescan)
            && let Some(&now) = current.get(dir)
        {
            recorded.insert(dir.clone(), now);
        }
        if !explained && may_rescan {
            rescan.push(dir.clone());
        }
    }
    let dirs: Vec<String> = if sweep {
        ITEM_DIRS.iter().map(|d| d.dir.to_string()).collect()
    } else {
        rescan
    };
    let files: Vec<PathBuf> = journal.into_iter().map(|e| e.path).collect();
    let report = scan(index, paths, &dirs, &files, purge, &mut |_, _| {})?;
    // A small memory is swept on every sync: recording each sweep's time would cost a
    // file replace (and its sync to disk, milliseconds) per search for nothing.
    let record_sweep = sweep && (stale || mode == Mode::Full);
    if recorded != state.dirs || record_sweep {
        write_state(
            paths,
            recorded,
            if record_sweep {
                now_unix
            } else {
                state.swept_at
            },
        )?;
    }
    journal::finish(&taken);
    Ok(report)
}

/// A folder hooks may rescan within their time budget.
const HOOK_RESCAN_LIMIT: usize = 2_000;

/// The largest segment a hook rewrites to purge a deleted file's text.
const HOOK_PURGE_LIMIT: u32 = 5_000;

fn small(dir: &Path) -> bool {
    fs::read_dir(dir).map_or(true, |entries| {
        entries.take(HOOK_RESCAN_LIMIT + 1).count() <= HOOK_RESCAN_LIMIT
    })
}

fn write_state(
    paths: &Paths,
    dirs: BTreeMap<String, i64>,
    swept_at: i64,
) -> Result<(), IndexError> {
    let text = serde_json::to_vec(&DirsState { dirs, swept_at }).unwrap_or_default();
    fsutil::atomic_write(&dirs_file(paths), &text)?;
    Ok(())
}

/// A full sync for a caller that already holds the index lock (rebuild).
pub fn full_locked(
    index: &Index,
    paths: &Paths,
    now_unix: i64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SyncReport, IndexError> {
    let current = dir_mtimes(paths);
    let (_, taken) = journal::take(paths);
    let dirs: Vec<String> = ITEM_DIRS.iter().map(|d| d.dir.to_string()).collect();
    let report = scan(index, paths, &dirs, &[], Purge::All, progress)?;
    write_state(paths, current, now_unix)?;
    journal::finish(&taken);
    Ok(report)
}

/// Applies a watcher's batch: the named files, then the folder mtimes as they are now
/// (the watcher sees every later change, so recording them loses nothing).
pub fn apply_batch(
    index: &Index,
    paths: &Paths,
    relatives: &[PathBuf],
) -> Result<SyncReport, IndexError> {
    let _lock = FileLock::acquire(&paths.lock(&LockName::Index))?;
    let current = dir_mtimes(paths);
    let (journal, taken) = journal::take(paths);
    let mut all: Vec<PathBuf> = relatives
        .iter()
        .cloned()
        .chain(journal.into_iter().map(|e| e.path))
        .collect();
    all.sort();
    all.dedup();
    let report = scan(index, paths, &[], &all, Purge::All, &mut |_, _| {})?;
    write_state(paths, current, read_state(paths).swept_at)?;
    journal::finish(&taken);
    Ok(report)
}

/// Applies this process's own journaled writes to the index now (or leaves them for
/// the next writer when the index is busy).
pub fn note_changed(paths: &Paths, now_unix: i64) -> Result<SyncReport, IndexError> {
    let (index, _) = Index::open(paths)?;
    sync(&index, paths, Mode::Quick, now_unix)
}

#[cfg(test)]
mod tests;
