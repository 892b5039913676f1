//! Keeping the index in step with the files. The manifest is the index itself (each
//! document stores its file's mtime and size) plus `.index/dirs.json`, the modification
//! times of the item folders at the last sync.
//!
//! A quick sync stats only the five item folders: a create, delete or rename (which is
//! how our writes and most editors save) changes its folder's mtime, and only that folder
//! is rescanned. An in-place edit does not touch the folder, so every file is re-stat'ed
//! in a sweep: on every sync up to `SWEEP_ALWAYS_UP_TO` documents, else at most once per
//! `SWEEP_INTERVAL_SECS` (with `homunculus watch` running, the watcher sees those edits).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tantivy::{IndexWriter, TantivyDocument, Term};

use super::document::{self, KIND_DIRS, Stamp};
use super::{Index, IndexError};
use crate::fsutil::{self, IoContext, PathError};
use crate::lock::{FileLock, LockError};
use crate::paths::Paths;

/// Up to this many documents, every sync re-stats every file (a few milliseconds).
pub const SWEEP_ALWAYS_UP_TO: u64 = 20_000;
/// Above it, in-place edits are looked for at most this often without `watch`.
pub const SWEEP_INTERVAL_SECS: i64 = 60;
/// How long a reader waits for a busy writer before searching what is there.
const WRITER_WAIT: Duration = Duration::from_millis(50);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Folder mtimes, the queue, and a sweep when one is due.
    Quick,
    /// Every file.
    Full,
}

/// What a sync did.
#[derive(Debug, Default, Clone)]
pub struct SyncReport {
    pub added: usize,
    pub updated: usize,
    pub removed: usize,
    /// The writer was busy; the index was searched as it was.
    pub busy: bool,
    pub rebuilt: bool,
}

impl SyncReport {
    pub fn changed(&self) -> usize {
        self.added + self.updated + self.removed
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct DirsState {
    dirs: BTreeMap<String, i64>,
    swept_at: i64,
}

pub fn dirs_file(paths: &Paths) -> PathBuf {
    paths.index().join("dirs.json")
}

/// Paths (relative to the memory folder) whose change a busy writer could not apply.
pub fn queue_file(paths: &Paths) -> PathBuf {
    paths.index().join("queue")
}

fn read_state(paths: &Paths) -> DirsState {
    fs::read(dirs_file(paths))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn mtime_ns(meta: &fs::Metadata) -> i64 {
    meta.mtime() * 1_000_000_000 + meta.mtime_nsec()
}

/// The current mtime of each item folder (absent folders are left out).
fn dir_mtimes(paths: &Paths) -> BTreeMap<String, i64> {
    KIND_DIRS
        .iter()
        .filter_map(|(dir, _)| {
            let meta = fs::metadata(paths.root.join(dir)).ok()?;
            Some((dir.to_string(), mtime_ns(&meta)))
        })
        .collect()
}

/// Whether `homunculus watch` holds its lock (and so keeps the index fresh).
pub fn watch_running(paths: &Paths) -> bool {
    matches!(
        FileLock::try_acquire_for(&paths.lock("watch"), Duration::ZERO),
        Err(LockError::Busy(_))
    )
}

/// Brings the index up to date. Quick mode does almost nothing when nothing changed.
pub fn sync(
    index: &Index,
    paths: &Paths,
    mode: Mode,
    now_unix: i64,
) -> Result<SyncReport, IndexError> {
    let state = read_state(paths);
    let current = dir_mtimes(paths);
    let queued = fs::metadata(queue_file(paths)).is_ok_and(|m| m.len() > 0);
    let sweep = mode == Mode::Full || {
        let docs = index.reader()?.searcher().num_docs();
        let stale = now_unix - state.swept_at >= SWEEP_INTERVAL_SECS || now_unix < state.swept_at;
        (docs <= SWEEP_ALWAYS_UP_TO || stale) && !watch_running(paths)
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
    if !sweep && changed.is_empty() && !queued {
        return Ok(SyncReport::default());
    }
    let _lock = match FileLock::try_acquire_for(&paths.lock("index"), WRITER_WAIT) {
        Ok(lock) => lock,
        Err(LockError::Busy(_)) => {
            return Ok(SyncReport {
                busy: true,
                ..SyncReport::default()
            });
        }
        Err(e) => return Err(e.into()),
    };
    let dirs: Vec<String> = if sweep {
        KIND_DIRS.iter().map(|(d, _)| d.to_string()).collect()
    } else {
        changed
    };
    scan(
        index,
        paths,
        &dirs,
        current,
        sweep,
        now_unix,
        &mut |_, _| {},
    )
}

/// A full sync for a caller that already holds the index lock (rebuild).
pub fn full_locked(
    index: &Index,
    paths: &Paths,
    now_unix: i64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SyncReport, IndexError> {
    let current = dir_mtimes(paths);
    let dirs: Vec<String> = KIND_DIRS.iter().map(|(d, _)| d.to_string()).collect();
    scan(index, paths, &dirs, current, true, now_unix, progress)
}

/// The files of one folder with their stamps.
fn list(root: &Path, dir: &str) -> Result<Vec<(PathBuf, Stamp)>, PathError> {
    let abs = root.join(dir);
    let entries = match fs::read_dir(&abs) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(PathError::new("list", &abs, e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.at("list", &abs)?;
        let name = PathBuf::from(entry.file_name());
        if !fsutil::is_markdown_name(&name) {
            continue;
        }
        // A file removed between listing and stat is simply not there.
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_file() {
            let stamp = Stamp {
                mtime: mtime_ns(&meta),
                size: meta.len(),
            };
            out.push((Path::new(dir).join(name), stamp));
        }
    }
    Ok(out)
}

/// The manifest entries the index holds for files in `dirs`.
fn indexed_stamps(
    index: &Index,
    dirs: &HashSet<&str>,
) -> Result<HashMap<String, Stamp>, IndexError> {
    let searcher = index.reader()?.searcher();
    let mut out = HashMap::new();
    let mut path = String::new();
    for segment in searcher.segment_readers() {
        let fast = segment.fast_fields();
        let Some(paths) = fast.str("path")? else {
            continue;
        };
        let mtimes = fast.i64("mtime")?.first_or_default_col(0);
        let sizes = fast.u64("size")?.first_or_default_col(0);
        for doc in segment.doc_ids_alive() {
            let Some(ord) = paths.term_ords(doc).next() else {
                continue;
            };
            if !paths.ord_to_str(ord, &mut path).unwrap_or(false) {
                continue;
            }
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            if dirs.contains(dir) {
                let stamp = Stamp {
                    mtime: mtimes.get_val(doc),
                    size: sizes.get_val(doc),
                };
                out.insert(path.clone(), stamp);
            }
        }
    }
    Ok(out)
}

fn scan(
    index: &Index,
    paths: &Paths,
    dirs: &[String],
    current: BTreeMap<String, i64>,
    sweep: bool,
    now_unix: i64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SyncReport, IndexError> {
    let dir_set: HashSet<&str> = dirs.iter().map(String::as_str).collect();
    let mut indexed = indexed_stamps(index, &dir_set)?;
    let mut files = Vec::new();
    for dir in dirs {
        files.extend(list(&paths.root, dir)?);
    }
    let queue = read_queue(paths);
    let mut report = SyncReport::default();
    let mut writer: Option<IndexWriter<TantivyDocument>> = None;
    let total = files.len();
    for (n, (relative, stamp)) in files.into_iter().enumerate() {
        let key = relative.to_string_lossy().into_owned();
        match indexed.remove(&key) {
            Some(old) if old == stamp => {}
            old => {
                if upsert(index, &mut writer, paths, &relative, stamp, total)? {
                    if old.is_some() {
                        report.updated += 1;
                    } else {
                        report.added += 1;
                    }
                }
            }
        }
        if n % 256 == 0 {
            progress(n, total);
        }
    }
    progress(total, total);
    for gone in indexed.keys() {
        delete(index, &mut writer, gone, total)?;
        report.removed += 1;
    }
    // Queued paths outside the scanned folders.
    let queue: Vec<PathBuf> = queue
        .into_iter()
        .filter(|r| !dir_set.contains(r.parent().and_then(Path::to_str).unwrap_or("")))
        .collect();
    apply_listed(index, &mut writer, paths, &queue, &mut report)?;
    if let Some(mut w) = writer {
        w.commit()?;
        w.wait_merging_threads()?;
    }
    let state = DirsState {
        dirs: current,
        swept_at: if sweep {
            now_unix
        } else {
            read_state(paths).swept_at
        },
    };
    let text = serde_json::to_vec(&state).unwrap_or_default();
    fsutil::atomic_write(&dirs_file(paths), &text)?;
    let _ = fs::remove_file(queue_file(paths));
    Ok(report)
}

/// Indexes exactly the files named (relative paths): present ones are upserted, missing
/// ones removed.
fn apply_listed(
    index: &Index,
    writer: &mut Option<IndexWriter<TantivyDocument>>,
    paths: &Paths,
    relatives: &[PathBuf],
    report: &mut SyncReport,
) -> Result<(), IndexError> {
    for relative in relatives {
        if document::kind_of(relative).is_none() {
            continue;
        }
        match fs::metadata(paths.root.join(relative)) {
            Ok(meta) if meta.is_file() => {
                let stamp = Stamp {
                    mtime: mtime_ns(&meta),
                    size: meta.len(),
                };
                if upsert(index, writer, paths, relative, stamp, relatives.len())? {
                    report.updated += 1;
                }
            }
            _ => {
                delete(index, writer, &relative.to_string_lossy(), relatives.len())?;
                report.removed += 1;
            }
        }
    }
    Ok(())
}

/// Applies a watcher's batch: the named files, then the folder mtimes as they are now
/// (the watcher sees every later change, so recording them loses nothing).
pub fn apply_batch(
    index: &Index,
    paths: &Paths,
    relatives: &[PathBuf],
) -> Result<SyncReport, IndexError> {
    let _lock = FileLock::acquire(&paths.lock("index"))?;
    let current = dir_mtimes(paths);
    let mut report = SyncReport::default();
    let mut writer = None;
    let queue = read_queue(paths);
    let all: Vec<PathBuf> = relatives.iter().cloned().chain(queue).collect();
    apply_listed(index, &mut writer, paths, &all, &mut report)?;
    if let Some(mut w) = writer {
        w.commit()?;
    }
    let state = DirsState {
        dirs: current,
        swept_at: read_state(paths).swept_at,
    };
    fsutil::atomic_write(
        &dirs_file(paths),
        &serde_json::to_vec(&state).unwrap_or_default(),
    )?;
    let _ = fs::remove_file(queue_file(paths));
    Ok(report)
}

/// A writer sized for the job: large batches get two threads and more memory.
fn writer<'w>(
    index: &Index,
    slot: &'w mut Option<IndexWriter<TantivyDocument>>,
    batch: usize,
) -> Result<&'w mut IndexWriter<TantivyDocument>, IndexError> {
    if slot.is_none() {
        let (threads, budget) = if batch > 5_000 {
            (2, 200_000_000)
        } else {
            (1, 20_000_000)
        };
        *slot = Some(index.inner.writer_with_num_threads(threads, budget)?);
    }
    Ok(slot.as_mut().expect("writer was just created"))
}

fn upsert(
    index: &Index,
    slot: &mut Option<IndexWriter<TantivyDocument>>,
    paths: &Paths,
    relative: &Path,
    stamp: Stamp,
    batch: usize,
) -> Result<bool, IndexError> {
    let Some(kind) = document::kind_of(relative) else {
        return Ok(false);
    };
    let abs = paths.root.join(relative);
    // Unreadable (vanished, not UTF-8): leave it out of the index.
    let Ok(text) = fsutil::read_text(&abs) else {
        delete(index, slot, &relative.to_string_lossy(), batch)?;
        return Ok(false);
    };
    let doc = document::build(&index.fields, &paths.root, relative, kind, &text, stamp);
    let w = writer(index, slot, batch)?;
    w.delete_term(Term::from_field_text(
        index.fields.path,
        &relative.to_string_lossy(),
    ));
    w.add_document(doc)?;
    Ok(true)
}

fn delete(
    index: &Index,
    slot: &mut Option<IndexWriter<TantivyDocument>>,
    relative: &str,
    batch: usize,
) -> Result<(), IndexError> {
    let w = writer(index, slot, batch)?;
    w.delete_term(Term::from_field_text(index.fields.path, relative));
    Ok(())
}

fn read_queue(paths: &Paths) -> Vec<PathBuf> {
    fs::read_to_string(queue_file(paths))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.is_empty() && !l.contains(".."))
        .map(PathBuf::from)
        .collect()
}

/// Records that files changed (by us) so the next writer indexes them. Appends are
/// small single writes, so concurrent writers do not interleave within a line.
pub fn enqueue(paths: &Paths, changed: &[PathBuf]) -> Result<(), PathError> {
    let file = queue_file(paths);
    if let Some(dir) = file.parent() {
        fsutil::create_private_dir(dir)?;
    }
    let mut text = String::new();
    for path in changed {
        text.push_str(&paths.relative(path).to_string_lossy());
        text.push('\n');
    }
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&file)
        .at("open", &file)?;
    f.write_all(text.as_bytes()).at("append to", &file)
}

/// Applies our own writes to the index now: queue them, then sync if the writer is free
/// (else the next writer picks the queue up).
pub fn note_changed(
    paths: &Paths,
    changed: &[PathBuf],
    now_unix: i64,
) -> Result<SyncReport, IndexError> {
    if changed.is_empty() {
        return Ok(SyncReport::default());
    }
    enqueue(paths, changed)?;
    let (index, _) = Index::open(paths)?;
    sync(&index, paths, Mode::Quick, now_unix)
}
