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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tantivy::{IndexWriter, TantivyDocument, Term};

use super::document::{self, KIND_DIRS, Stamp};
use super::{Index, IndexError};
use crate::changes;
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
    /// Journaled changes; folders they do not explain are rescanned only when small.
    Bounded,
    /// Folder mtimes, the journal, and a sweep when one is due.
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
    let sweep = match mode {
        Mode::Full => true,
        Mode::Bounded => false,
        Mode::Quick => {
            let docs = index.reader()?.searcher().num_docs();
            let stale =
                now_unix - state.swept_at >= SWEEP_INTERVAL_SECS || now_unix < state.swept_at;
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
    if !sweep && changed.is_empty() && !changes::pending(paths) {
        return Ok(SyncReport::default());
    }
    let wait = if mode == Mode::Bounded {
        Duration::from_millis(5)
    } else {
        WRITER_WAIT
    };
    let _lock = match FileLock::try_acquire_for(&paths.lock("index"), wait) {
        Ok(lock) => lock,
        Err(LockError::Busy(_)) => {
            return Ok(SyncReport {
                busy: true,
                ..SyncReport::default()
            });
        }
        Err(e) => return Err(e.into()),
    };
    let (journal, taken) = changes::take(paths);
    let mut rescan = Vec::new();
    let mut recorded = state.dirs.clone();
    for dir in &changed {
        let entries: Vec<&changes::Entry> = journal
            .iter()
            .filter(|e| e.path.parent().and_then(Path::to_str) == Some(dir.as_str()))
            .collect();
        let explained = match (state.dirs.get(dir), current.get(dir)) {
            (Some(&was), Some(&now)) => changes::explains(&entries, was, now),
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
        KIND_DIRS.iter().map(|(d, _)| d.to_string()).collect()
    } else {
        rescan
    };
    let files: Vec<PathBuf> = journal.into_iter().map(|e| e.path).collect();
    let report = scan(index, paths, &dirs, &files, &mut |_, _| {})?;
    write_state(
        paths,
        recorded,
        if sweep { now_unix } else { state.swept_at },
    )?;
    changes::finish(&taken);
    Ok(report)
}

/// A folder hooks may rescan within their time budget.
const HOOK_RESCAN_LIMIT: usize = 2_000;

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
    let (_, taken) = changes::take(paths);
    let dirs: Vec<String> = KIND_DIRS.iter().map(|(d, _)| d.to_string()).collect();
    let report = scan(index, paths, &dirs, &[], progress)?;
    write_state(paths, current, now_unix)?;
    changes::finish(&taken);
    Ok(report)
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

/// The manifest entries the index holds for files in `dirs`. Paths come from streaming
/// the path column's sorted dictionary over each folder's prefix (one sequential read),
/// not from a lookup per document.
fn indexed_stamps(
    index: &Index,
    dirs: &HashSet<&str>,
) -> Result<HashMap<String, Stamp>, IndexError> {
    let searcher = index.reader()?.searcher();
    let mut out = HashMap::new();
    for segment in searcher.segment_readers() {
        let fast = segment.fast_fields();
        let Some(column) = fast.str("path")? else {
            continue;
        };
        let mut by_ord: HashMap<u64, String> = HashMap::new();
        for dir in dirs {
            let prefix = format!("{dir}/");
            let mut stream = column
                .dictionary()
                .prefix_range(prefix.as_bytes())
                .into_stream()
                .map_err(|e| IndexError::Tantivy(e.into()))?;
            while stream.advance() {
                let path = String::from_utf8_lossy(stream.key()).into_owned();
                // Only direct children: item folders are flat.
                if !path[prefix.len()..].contains('/') {
                    by_ord.insert(stream.term_ord(), path);
                }
            }
        }
        if by_ord.is_empty() {
            continue;
        }
        let mtimes = fast.i64("mtime")?.first_or_default_col(0);
        let sizes = fast.u64("size")?.first_or_default_col(0);
        for doc in segment.doc_ids_alive() {
            let Some(path) = column.term_ords(doc).next().and_then(|o| by_ord.get(&o)) else {
                continue;
            };
            let stamp = Stamp {
                mtime: mtimes.get_val(doc),
                size: sizes.get_val(doc),
            };
            out.insert(path.clone(), stamp);
        }
    }
    Ok(out)
}

/// Rescans `dirs` against the index and applies the `listed` files outside them, in
/// one commit.
fn scan(
    index: &Index,
    paths: &Paths,
    dirs: &[String],
    listed: &[PathBuf],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SyncReport, IndexError> {
    let dir_set: HashSet<&str> = dirs.iter().map(String::as_str).collect();
    let mut indexed = indexed_stamps(index, &dir_set)?;
    let mut files = Vec::new();
    for dir in dirs {
        files.extend(list(&paths.root, dir)?);
    }
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
    let mut outside: Vec<PathBuf> = listed
        .iter()
        .filter(|r| !dir_set.contains(r.parent().and_then(Path::to_str).unwrap_or("")))
        .cloned()
        .collect();
    outside.sort();
    outside.dedup();
    apply_listed(index, &mut writer, paths, &outside, &mut report)?;
    if let Some(mut w) = writer {
        w.commit()?;
        w.wait_merging_threads()?;
    }
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
    let (journal, taken) = changes::take(paths);
    let mut all: Vec<PathBuf> = relatives
        .iter()
        .cloned()
        .chain(journal.into_iter().map(|e| e.path))
        .collect();
    all.sort();
    all.dedup();
    let report = scan(index, paths, &[], &all, &mut |_, _| {})?;
    write_state(paths, current, read_state(paths).swept_at)?;
    changes::finish(&taken);
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

/// Applies this process's own journaled writes to the index now (or leaves them for
/// the next writer when the index is busy).
pub fn note_changed(paths: &Paths, now_unix: i64) -> Result<SyncReport, IndexError> {
    let (index, _) = Index::open(paths)?;
    sync(&index, paths, Mode::Quick, now_unix)
}
