//! Which observations a run reads, and the bookkeeping that makes a run exactly-once:
//! a byte cursor per pending file (`state/observer/cursors.json`), and an in-flight
//! record (`state/observer/inflight.json`) of the batch being applied. Observations are
//! archived and cursors advanced only after the batch's operations are applied; a run
//! that dies midway is finished by the next one, whose operations are no-ops where
//! already applied.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::ops::Op;
use crate::agent::observation::Observation;
use crate::fsutil::{self, IoContext, PathError};
use crate::paths::Paths;
use crate::text::fnv1a;

fn dir(paths: &Paths) -> PathBuf {
    paths.state().join("observer")
}

fn cursors_file(paths: &Paths) -> PathBuf {
    dir(paths).join("cursors.json")
}

fn inflight_file(paths: &Paths) -> PathBuf {
    dir(paths).join("inflight.json")
}

/// Byte offsets already processed, per pending file name.
pub type Cursors = BTreeMap<String, u64>;

pub fn read_cursors(paths: &Paths) -> Cursors {
    crate::fsutil::read_json_or_default(&cursors_file(paths))
}

/// A hash of each pending file's first line when its cursor was last moved: a file
/// deleted and written anew starts with another line, so its cursor (the old file's
/// length) does not apply to it.
fn heads_file(paths: &Paths) -> PathBuf {
    dir(paths).join("heads.json")
}

fn read_heads(paths: &Paths) -> BTreeMap<String, u64> {
    crate::fsutil::read_json_or_default(&heads_file(paths))
}

/// The hash of a file's first line (at most its first 4 KiB).
fn first_line_hash(path: &std::path::Path) -> Option<u64> {
    use std::io::Read;
    let mut head = vec![0u8; 4096];
    let n = fs::File::open(path).ok()?.read(&mut head).ok()?;
    let line = head[..n].split(|&b| b == b'\n').next()?;
    Some(crate::text::fnv1a(line))
}

/// Whether the file behind `name` is not the one its cursor was moved over.
fn replaced(heads: &BTreeMap<String, u64>, name: &str, path: &std::path::Path) -> bool {
    heads
        .get(name)
        .is_some_and(|&h| first_line_hash(path).is_some_and(|now| now != h))
}

fn write_json<T: Serialize>(path: &std::path::Path, value: &T) -> Result<(), PathError> {
    if let Some(d) = path.parent() {
        fsutil::create_private_dir(d)?;
    }
    fsutil::atomic_write(path, &serde_json::to_vec_pretty(value).unwrap_or_default())
}

/// A range of one pending file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    pub file: String,
    pub start: u64,
    pub end: u64,
}

/// A batch taken for processing.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Batch {
    pub id: String,
    pub ranges: Vec<Range>,
    #[serde(skip)]
    pub observations: Vec<Observation>,
}

/// The batch being applied, with its operations; present only while a run works.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Inflight {
    pub batch: Batch,
    pub ops: Vec<Op>,
    pub engine: crate::setup::config::Engine,
    pub archived: bool,
    /// The archive files' sizes before this batch was appended: a resumed run cuts them
    /// back first, so a crash mid-append never archives a line twice.
    #[serde(default)]
    pub archive_sizes: Option<BTreeMap<String, u64>>,
    /// How far the llm lenses read each transcript; stored when the batch is done.
    #[serde(default)]
    pub transcript_cursors: BTreeMap<String, u64>,
}

/// Lines pending after the cursors (what `status` calls pending observations).
pub fn pending(paths: &Paths) -> usize {
    pending_up_to(paths, usize::MAX)
}

/// Counts pending lines, but stops once `cap` are found: hooks only ask whether enough
/// are waiting, and must not read every pending file to learn it. Only the bytes past
/// each cursor are read.
pub fn pending_up_to(paths: &Paths, cap: usize) -> usize {
    use std::io::{BufRead, BufReader, Seek, SeekFrom};
    let cursors = read_cursors(paths);
    let heads = read_heads(paths);
    let Ok(entries) = fs::read_dir(paths.observations()) else {
        return 0;
    };
    let mut count = 0;
    for entry in entries.flatten() {
        if count >= cap {
            break;
        }
        if entry.path().extension().is_none_or(|x| x != "jsonl") {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(mut file) = fs::File::open(entry.path()) else {
            continue;
        };
        // A file shorter than its cursor, or another file under the same name, is all
        // pending.
        let len = file.metadata().map_or(0, |m| m.len());
        let from = match cursors.get(&name).copied() {
            Some(c) if c <= len && !replaced(&heads, &name, &entry.path()) => c,
            _ => 0,
        };
        if file.seek(SeekFrom::Start(from)).is_err() {
            continue;
        }
        let mut reader = BufReader::new(file);
        while count < cap {
            let Ok(buf) = reader.fill_buf() else { break };
            if buf.is_empty() {
                break;
            }
            let (len, lines) = (buf.len(), buf.iter().filter(|&&c| c == b'\n').count());
            count = count.saturating_add(lines);
            reader.consume(len);
        }
    }
    count.min(cap)
}

/// Takes up to `max` complete lines after the cursors, oldest files first.
pub fn take(paths: &Paths, max: usize) -> Result<Batch, PathError> {
    let cursors = read_cursors(paths);
    let heads = read_heads(paths);
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = fs::read_dir(paths.observations())
        .map(|e| {
            e.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
                .map(|p| {
                    (
                        fs::metadata(&p)
                            .and_then(|m| m.modified())
                            .unwrap_or(std::time::UNIX_EPOCH),
                        p,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut batch = Batch::default();
    for (_, path) in files {
        if batch.observations.len() >= max {
            break;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let bytes = fs::read(&path).at("read", &path)?;
        // A file shorter than its cursor was replaced (a secret purged by hand): what
        // it holds now was never read.
        let start = match cursors.get(&name) {
            Some(&c) if c <= bytes.len() as u64 && !replaced(&heads, &name, &path) => c,
            Some(_) => 0,
            // No cursor (state/ deleted or lost): what the archive already holds of this
            // file was read before and must not be learned or archived twice.
            None => archived_prefix(paths, &name, &bytes),
        };
        let Some(rest) = bytes.get(start as usize..) else {
            continue;
        };
        let mut end = start;
        for line in rest.split_inclusive(|&b| b == b'\n') {
            // Only complete lines: a hook may be writing the last one right now.
            if !line.ends_with(b"\n") || batch.observations.len() >= max {
                break;
            }
            end += line.len() as u64;
            if let Ok(obs) = serde_json::from_slice::<Observation>(line) {
                batch.observations.push(obs);
            }
        }
        if end > start {
            batch.ranges.push(Range {
                file: name,
                start,
                end,
            });
        }
    }
    let key: String = batch
        .ranges
        .iter()
        .map(|r| format!("{}:{}-{};", r.file, r.start, r.end))
        .collect();
    batch.id = format!("{:012x}", fnv1a(key.as_bytes()) & 0xffff_ffff_ffff);
    Ok(batch)
}

/// How much of a pending file's start its archive already holds. The archive of a file
/// is its processed lines in order, so it is either the file's beginning, or (when the
/// pending file was dropped and a resumed session began a new one under the same name)
/// ends with it.
fn archived_prefix(paths: &Paths, name: &str, pending: &[u8]) -> u64 {
    let Ok(archive) = fs::read(paths.observations_archive().join(name)) else {
        return 0;
    };
    if pending.starts_with(&archive) {
        return archive.len() as u64;
    }
    let Some(first_line) = pending.split_inclusive(|&b| b == b'\n').next() else {
        return 0;
    };
    if !first_line.ends_with(b"\n") {
        return 0;
    }
    // Where the pending file's lines begin in the archive: from there to its end must
    // be the pending file's own beginning.
    archive
        .windows(first_line.len())
        .enumerate()
        .filter(|(at, window)| *window == first_line && (*at == 0 || archive[at - 1] == b'\n'))
        .map(|(at, _)| &archive[at..])
        .find(|tail| pending.starts_with(tail))
        .map_or(0, |tail| tail.len() as u64)
}

pub fn write_inflight(paths: &Paths, inflight: &Inflight) -> Result<(), PathError> {
    write_json(&inflight_file(paths), inflight)
}

pub fn read_inflight(paths: &Paths) -> Option<Inflight> {
    let bytes = fs::read(inflight_file(paths)).ok()?;
    let mut inflight: Inflight = serde_json::from_slice(&bytes).ok()?;
    inflight.batch.observations = Vec::new();
    Some(inflight)
}

/// The current sizes of the archive files a batch appends to.
pub fn archive_sizes(paths: &Paths, batch: &Batch) -> BTreeMap<String, u64> {
    batch
        .ranges
        .iter()
        .map(|r| {
            let size =
                fs::metadata(paths.observations_archive().join(&r.file)).map_or(0, |m| m.len());
            (r.file.clone(), size)
        })
        .collect()
}

/// Copies the batch's lines to `observations.archive/<file>` (appending), after cutting
/// each archive file back to `sizes` (what it held before this batch).
pub fn archive(
    paths: &Paths,
    batch: &Batch,
    sizes: &BTreeMap<String, u64>,
) -> Result<(), PathError> {
    fsutil::create_private_dir(&paths.observations_archive())?;
    for (file, size) in sizes {
        let target = paths.observations_archive().join(file);
        if fs::metadata(&target).is_ok_and(|m| m.len() > *size) {
            let f = fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .at("open", &target)?;
            f.set_len(*size).at("truncate", &target)?;
        }
    }
    for r in &batch.ranges {
        let source = paths.observations().join(&r.file);
        let bytes = fs::read(&source).at("read", &source)?;
        let Some(slice) = bytes.get(r.start as usize..r.end as usize) else {
            continue;
        };
        let target = paths.observations_archive().join(&r.file);
        fsutil::append(&target, slice)?;
    }
    Ok(())
}

/// Moves the cursors past the batch, then drops pending files that were fully read
/// and have been quiet for an hour (their lines are all in the archive).
pub fn advance(paths: &Paths, batch: &Batch) -> Result<(), PathError> {
    let mut cursors = read_cursors(paths);
    let mut heads = read_heads(paths);
    for r in &batch.ranges {
        let path = paths.observations().join(&r.file);
        let anew = replaced(&heads, &r.file, &path);
        let c = cursors.entry(r.file.clone()).or_insert(0);
        // A file written anew was read from its start: its cursor is where that ended.
        *c = if anew { r.end } else { (*c).max(r.end) };
        if let Some(h) = first_line_hash(&path) {
            heads.insert(r.file.clone(), h);
        }
    }
    // Compared with file modification times, which are wall-clock, not `now`.
    #[allow(clippy::disallowed_methods)]
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    cursors.retain(|file, offset| {
        let path = paths.observations().join(file);
        match fs::metadata(&path) {
            Ok(m) if m.len() == *offset && m.modified().is_ok_and(|t| t < hour_ago) => {
                let _ = fs::remove_file(&path);
                false
            }
            Ok(_) => true,
            Err(_) => false,
        }
    });
    heads.retain(|file, _| cursors.contains_key(file));
    write_json(&cursors_file(paths), &cursors)?;
    write_json(&heads_file(paths), &heads)?;
    let _ = fs::remove_file(inflight_file(paths));
    Ok(())
}

fn transcript_cursors_file(paths: &Paths) -> PathBuf {
    dir(paths).join("transcripts.json")
}

/// How far the llm lenses have read each transcript (by path).
pub fn read_transcript_cursors(paths: &Paths) -> BTreeMap<String, u64> {
    crate::fsutil::read_json_or_default(&transcript_cursors_file(paths))
}

/// Moves transcript cursors forward (never back).
pub fn advance_transcripts(paths: &Paths, read: &BTreeMap<String, u64>) -> Result<(), PathError> {
    if read.is_empty() {
        return Ok(());
    }
    let mut cursors = read_transcript_cursors(paths);
    for (path, end) in read {
        let c = cursors.entry(path.clone()).or_insert(0);
        *c = (*c).max(*end);
    }
    write_json(&transcript_cursors_file(paths), &cursors)
}

/// When the observer last ran (unix seconds), and the llm engine's spending.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct RunState {
    pub last_run: i64,
    pub llm_day: String,
    pub llm_chars_today: usize,
}

pub fn read_state(paths: &Paths) -> RunState {
    crate::fsutil::read_json_or_default(&dir(paths).join("state.json"))
}

pub fn write_state(paths: &Paths, state: &RunState) -> Result<(), PathError> {
    write_json(&dir(paths).join("state.json"), state)
}

/// The co-edit and tool-choice ledger of the builtin miners.
pub fn read_ledger(paths: &Paths) -> super::miners::Ledger {
    crate::fsutil::read_json_or_default(&dir(paths).join("ledger.json"))
}

pub fn write_ledger(paths: &Paths, ledger: &super::miners::Ledger) -> Result<(), PathError> {
    write_json(&dir(paths).join("ledger.json"), ledger)
}

#[cfg(test)]
mod tests;
