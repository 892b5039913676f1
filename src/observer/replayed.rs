//! What `replay` has already read: the ids of transcript lines and tool calls, kept as
//! 64-bit hashes in `state/replayed.bin`. A resumed session's copy of its parent, or
//! the same files replayed again, are recognised line by line and read once.

use std::collections::HashSet;
use std::path::PathBuf;

use crate::fsutil::{self, PathError};
use crate::paths::Paths;

fn file(paths: &Paths) -> PathBuf {
    paths.root.join("state").join("replayed.bin")
}

/// The ids replayed so far; an unreadable file reads as none (replay then reads again,
/// and the observer's batch markers keep what it learns from doubling).
pub fn load(paths: &Paths) -> HashSet<u64> {
    std::fs::read(file(paths))
        .map(|bytes| {
            bytes
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                .collect()
        })
        .unwrap_or_default()
}

pub fn save(paths: &Paths, seen: &HashSet<u64>) -> Result<(), PathError> {
    let mut ids: Vec<u64> = seen.iter().copied().collect();
    ids.sort_unstable();
    let bytes: Vec<u8> = ids.iter().flat_map(|id| id.to_le_bytes()).collect();
    fsutil::atomic_write(&file(paths), &bytes)
}
