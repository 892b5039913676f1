//! Applying file changes to the index: rescanning folders against the manifest the index
//! itself stores (each document's file mtime and size), and upserting or deleting
//! exactly the files named, all in one commit. Callers hold the `index` lock.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use tantivy::{IndexWriter, TantivyDocument, Term};

use super::document::{self, Stamp};
use super::{Index, IndexError, SyncReport};
use crate::fsutil::{self, IoContext, PathError, mtime_ns};
use crate::memory::kind::item_dir_of;
use crate::paths::Paths;

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
pub(super) fn scan(
    index: &Index,
    paths: &Paths,
    dirs: &[String],
    listed: &[PathBuf],
    purge: Purge,
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
                let unreadable = &mut report.unreadable;
                if upsert(
                    index,
                    &mut writer,
                    paths,
                    &relative,
                    stamp,
                    total,
                    unreadable,
                )? {
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
    let pending = purge_pending(paths);
    if report.removed > 0 || pending {
        self::writer(index, &mut writer, total)?;
    }
    if let Some(mut w) = writer {
        w.commit()?;
        if report.removed > 0 || pending {
            let left = purge_deleted(index, &mut w, purge)?;
            mark_purge_pending(paths, left)?;
        }
        w.wait_merging_threads()?;
    }
    Ok(report)
}

/// How much rewriting a scan may do to purge deleted documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purge {
    /// Every segment holding a deleted document.
    All,
    /// Segments of at most this many documents (a hook's budget); larger ones are
    /// left to the next scan that may take its time.
    UpTo(u32),
}

/// Rewrites the segments that still hold deleted documents. Tantivy only marks a
/// deleted document; its stored text and terms stay in the segment files until a merge,
/// which its policy may never do. A file deleted to purge a secret must leave the
/// index now. Returns whether segments were left for later.
fn purge_deleted(
    index: &Index,
    w: &mut IndexWriter<TantivyDocument>,
    purge: Purge,
) -> Result<bool, IndexError> {
    let (mut now, mut later) = (Vec::new(), false);
    for meta in index.inner.searchable_segment_metas()? {
        if !meta.has_deletes() {
            continue;
        }
        match purge {
            Purge::UpTo(limit) if meta.max_doc() > limit => later = true,
            _ => now.push(meta.id()),
        }
    }
    // Segment metas alive in this process keep their files from garbage collection:
    // only ids are kept past this point.
    if !now.is_empty() {
        // A merge of segments whose every document is deleted yields nothing: fine.
        w.merge(&now).wait()?;
        // The merged-away segment files go now, not at some later commit.
        w.garbage_collect_files().wait()?;
    }
    Ok(later)
}

fn purge_marker(paths: &Paths) -> PathBuf {
    paths.state().join("index-purge-pending")
}

/// Whether a hook left segments holding deleted documents for a later scan.
pub(super) fn purge_pending(paths: &Paths) -> bool {
    purge_marker(paths).exists()
}

fn mark_purge_pending(paths: &Paths, pending: bool) -> Result<(), PathError> {
    let marker = purge_marker(paths);
    match (pending, marker.exists()) {
        (true, false) => fsutil::atomic_write(&marker, b""),
        (false, true) => fs::remove_file(&marker).at("remove", &marker),
        _ => Ok(()),
    }
}

/// Indexes exactly the files named (relative paths): present ones are upserted, missing
/// ones removed.
pub(super) fn apply_listed(
    index: &Index,
    writer: &mut Option<IndexWriter<TantivyDocument>>,
    paths: &Paths,
    relatives: &[PathBuf],
    report: &mut SyncReport,
) -> Result<(), IndexError> {
    for relative in relatives {
        if item_dir_of(relative).is_none() {
            continue;
        }
        match fs::metadata(paths.root.join(relative)) {
            Ok(meta) if meta.is_file() => {
                let stamp = Stamp {
                    mtime: mtime_ns(&meta),
                    size: meta.len(),
                };
                let batch = relatives.len();
                if upsert(
                    index,
                    writer,
                    paths,
                    relative,
                    stamp,
                    batch,
                    &mut report.unreadable,
                )? {
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
    unreadable: &mut Vec<String>,
) -> Result<bool, IndexError> {
    let Some(item) = item_dir_of(relative) else {
        return Ok(false);
    };
    let abs = paths.root.join(relative);
    // Unreadable (vanished, not UTF-8): leave it out of the index. A huge file (a
    // pasted log) is indexed by its first MiB: memory stays bounded for any hook.
    let whole = stamp.size <= MAX_ITEM_BYTES;
    let text = if whole {
        fsutil::read_text(&abs).map_err(|e| (!e.is_not_found()).then_some(e))
    } else {
        read_head(&abs).ok_or(None)
    };
    let text = match text {
        Ok(text) => text,
        Err(why) => {
            unreadable.extend(why.map(|e| crate::memory::Error::from(e).to_string()));
            delete(index, slot, &relative.to_string_lossy(), batch)?;
            return Ok(false);
        }
    };
    let (doc, why) = document::build(&index.fields, &paths.root, relative, item, &text, stamp);
    // A file read only in part may fail to parse where its whole would not.
    if whole {
        unreadable.extend(why.map(|e| e.to_string()));
    }
    let w = writer(index, slot, batch)?;
    w.delete_term(Term::from_field_text(
        index.fields.path,
        &relative.to_string_lossy(),
    ));
    w.add_document(doc)?;
    Ok(true)
}

/// The most of one item file the index reads.
const MAX_ITEM_BYTES: u64 = 1024 * 1024;

fn read_head(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    fs::File::open(path)
        .ok()?
        .take(MAX_ITEM_BYTES)
        .read_to_end(&mut head)
        .ok()?;
    Some(String::from_utf8_lossy(&head).into_owned())
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
