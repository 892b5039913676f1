//! Keeping the index true to hand edits while `homunculus watch` runs: notify events on
//! the item folders, debounced into batches, each applied with one commit.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};

use super::SyncReport;
use super::sync::{self, Mode};
use super::{Index, IndexError};
use crate::fsutil;
use crate::lock::{FileLock, LockError, LockName};
use crate::memory::kind::{ITEM_DIRS, item_dir_of};
use crate::paths::Paths;

/// A batch is applied once events pause this long...
const QUIET: Duration = Duration::from_millis(100);
/// ...or this long after its first event, whichever comes first.
const MAX_DELAY: Duration = Duration::from_millis(400);
/// How often the loop looks at the stop flag.
const TICK: Duration = Duration::from_millis(200);

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("another `homunculus watch` is already running for {0}")]
    AlreadyRunning(String),
    #[error("file watcher: {0}")]
    Notify(#[from] notify::Error),
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// What one batch did.
#[derive(Debug)]
pub struct WatchRound {
    pub files: usize,
    pub report: SyncReport,
    pub elapsed: Duration,
    /// The first sync at start-up, or a full rescan after lost events.
    pub full: bool,
}

/// Watches until `stop` is set. `clock` gives the current unix time; `on_batch` is told
/// about every applied batch. One loop on purpose: debounce, lost-event recovery and
/// the idle sweep share its state.
pub fn run(
    paths: &Paths,
    stop: &AtomicBool,
    clock: &dyn Fn() -> i64,
    on_batch: &mut dyn FnMut(&WatchRound),
) -> Result<(), WatchError> {
    let _running = match FileLock::try_acquire_for(&paths.lock(&LockName::Watch), Duration::ZERO) {
        Ok(lock) => lock,
        Err(LockError::Busy(_)) => {
            return Err(WatchError::AlreadyRunning(paths.root.display().to_string()));
        }
        Err(e) => return Err(IndexError::from(e).into()),
    };
    let (tx, rx) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(tx)?;
    for item in ITEM_DIRS {
        let dir = paths.root.join(item.dir);
        fsutil::create_private_dir(&dir).map_err(IndexError::from)?;
        watcher.watch(&dir, RecursiveMode::NonRecursive)?;
    }
    let full = |on_batch: &mut dyn FnMut(&WatchRound)| -> Result<(), WatchError> {
        let started = Instant::now();
        let (index, _) = Index::open(paths)?;
        let report = sync::sync(&index, paths, Mode::Full, clock())?;
        on_batch(&WatchRound {
            files: report.changed(),
            report,
            elapsed: started.elapsed(),
            full: true,
        });
        Ok(())
    };
    full(on_batch)?;
    let mut pending: BTreeSet<PathBuf> = BTreeSet::new();
    let mut rescan = false;
    let mut first: Option<Instant> = None;
    let mut last = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        let wait = match first {
            Some(_) => QUIET
                .saturating_sub(last.elapsed())
                .max(Duration::from_millis(1)),
            None => TICK,
        };
        match rx.recv_timeout(wait) {
            // Opening or reading a file changes nothing, and our own sync reads every
            // file it is told about: reacting to reads would loop forever.
            Ok(Ok(event)) if event.kind.is_access() => {}
            Ok(Ok(event)) => {
                rescan |= event.need_rescan();
                for path in &event.paths {
                    let Ok(relative) = path.strip_prefix(&paths.root) else {
                        continue;
                    };
                    if item_dir_of(relative).is_some() {
                        pending.insert(relative.to_path_buf());
                    }
                }
                if (!pending.is_empty() || rescan) && first.is_none() {
                    first = Some(Instant::now());
                }
                last = Instant::now();
            }
            // A watcher error (e.g. the queue overflowed): fall back to a full rescan.
            Ok(Err(_)) => {
                rescan = true;
                first.get_or_insert_with(Instant::now);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let due = first.is_some_and(|f| last.elapsed() >= QUIET || f.elapsed() >= MAX_DELAY);
        if !due {
            continue;
        }
        if rescan {
            full(on_batch)?;
        } else {
            let started = Instant::now();
            let files: Vec<PathBuf> = pending.iter().cloned().collect();
            let (index, _) = Index::open(paths)?;
            let report = sync::apply_batch(&index, paths, &files)?;
            on_batch(&WatchRound {
                files: files.len(),
                report,
                elapsed: started.elapsed(),
                full: false,
            });
        }
        pending.clear();
        rescan = false;
        first = None;
    }
    Ok(())
}
