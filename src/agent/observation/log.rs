//! The observation log of a session: `observations/<session>.jsonl` (pending) and its
//! archived copy, appended one line per observation and read back whole or from where a
//! reader last stopped.

use std::fs;
use std::io::{BufRead, Read, Seek, SeekFrom};
use std::path::PathBuf;

use super::Observation;
use crate::fsutil::{self, PathError};
use crate::paths::Paths;

/// The pending observation file of a session.
pub fn file(paths: &Paths, session_id: &str) -> PathBuf {
    paths.observations().join(format!("{session_id}.jsonl"))
}

/// Appends one observation as a single write (concurrent appenders never interleave
/// within a line).
pub fn append(paths: &Paths, obs: &Observation) -> Result<(), PathError> {
    let file = file(paths, &obs.session_id);
    fsutil::create_private_dir(&paths.observations())?;
    let mut line = serde_json::to_string(obs).unwrap_or_default();
    line.push('\n');
    fsutil::append(&file, line.as_bytes())
}

/// Every observation of a session, pending and archived, in order. Lines that do not
/// parse are skipped.
pub fn of_session(paths: &Paths, session_id: &str) -> Vec<Observation> {
    whole(paths, session_id).observations
}

/// What a read of a session's log found, and where a later read goes on from.
#[derive(Debug, Default)]
pub struct Since {
    pub observations: Vec<Observation>,
    /// The pending file's length up to its last complete line.
    pub read_to: u64,
    /// A hash of the pending file's first line: a file replaced since (archived, then
    /// started again) has another, and is read from its start.
    pub head: u64,
    /// Whether this read is the whole log (archive included), not only what was added.
    pub whole: bool,
}

/// The observations added to a session's pending file since `read_to`, when the file
/// is still the one that was read (`head`); else everything, archive included. A line
/// still being written is left for the next read.
pub fn since(paths: &Paths, session_id: &str, read_to: u64, head: u64) -> Since {
    if read_to > 0
        && let Some(newer) = pending_from(&file(paths, session_id), read_to, head)
    {
        return newer;
    }
    whole(paths, session_id)
}

fn whole(paths: &Paths, session_id: &str) -> Since {
    let mut out = Since {
        whole: true,
        ..Since::default()
    };
    // A pending file keeps its archived lines until it has been quiet for an hour: a
    // line in both is one observation. Two identical lines in one file (parallel calls
    // in the same millisecond) are two.
    let mut archived: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for dir in [paths.observations_archive(), paths.observations()] {
        let pending = dir == paths.observations();
        let bytes = fs::read(dir.join(format!("{session_id}.jsonl"))).unwrap_or_default();
        let (text, end) = complete_text(&bytes);
        let complete: &str = &text;
        if pending {
            out.read_to = end as u64;
            out.head = head_of(complete);
        }
        for line in complete.lines() {
            let hash = crate::text::fnv1a(line.as_bytes());
            if pending {
                if let Some(n) = archived.get_mut(&hash).filter(|n| **n > 0) {
                    *n -= 1;
                    continue;
                }
            } else {
                *archived.entry(hash).or_default() += 1;
            }
            out.observations.extend(serde_json::from_str(line).ok());
        }
    }
    out
}

/// The lines of the pending file after `read_to`, or `None` when the file is no longer
/// the one read before (shorter, or another first line).
fn pending_from(file: &std::path::Path, read_to: u64, head: u64) -> Option<Since> {
    let mut f = std::io::BufReader::new(fs::File::open(file).ok()?);
    let mut first = String::new();
    f.read_line(&mut first).ok()?;
    if head_of(&first) != head || f.get_ref().metadata().ok()?.len() < read_to {
        return None;
    }
    f.seek(SeekFrom::Start(read_to)).ok()?;
    let mut rest = Vec::new();
    f.read_to_end(&mut rest).ok()?;
    let (text, end) = complete_text(&rest);
    let complete: &str = &text;
    Some(Since {
        observations: complete
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect(),
        read_to: read_to + end as u64,
        head,
        whole: false,
    })
}

/// The complete lines of `bytes` (up to and including the last newline) as text, and
/// their length in bytes: a line still being written, even cut inside a character,
/// waits for the next read.
fn complete_text(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, usize) {
    let end = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    (String::from_utf8_lossy(&bytes[..end]), end)
}

fn head_of(text: &str) -> u64 {
    crate::text::fnv1a(text.lines().next().unwrap_or("").as_bytes())
}
