//! Which transcript files a set of paths holds, and in what order a replay reads them:
//! every `*.jsonl` under them but subagents' side conversations, oldest session first.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

/// The transcripts under `sources` (files, or folders walked without following links),
/// oldest first by their first timestamp; a file without one comes first.
pub fn in_time_order(sources: &[PathBuf]) -> Vec<PathBuf> {
    let mut dated: Vec<(Option<DateTime<Utc>>, PathBuf)> = transcripts(sources)
        .into_iter()
        .map(|f| (first_timestamp(&f), f))
        .collect();
    dated.sort();
    dated.into_iter().map(|(_, f)| f).collect()
}

/// Every `*.jsonl` under `sources` but subagents', once each, sorted by path.
fn transcripts(sources: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for source in sources {
        if source.is_file() {
            out.push(source.clone());
            continue;
        }
        for entry in walkdir::WalkDir::new(source)
            .follow_links(false)
            .into_iter()
            .flatten()
        {
            let path = entry.path();
            // Subagent transcripts are side conversations of a session, not sessions.
            let sidechain = path.components().any(|c| c.as_os_str() == "subagents");
            if entry.file_type().is_file()
                && path.extension().is_some_and(|e| e == "jsonl")
                && !sidechain
            {
                out.push(path.to_path_buf());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The first timestamp of a transcript (read from its first lines only), for ordering.
fn first_timestamp(path: &Path) -> Option<DateTime<Utc>> {
    let file = std::fs::File::open(path).ok()?;
    std::io::BufReader::new(file)
        .split(b'\n')
        .take(200)
        .map_while(Result::ok)
        .find_map(|line| {
            let v: serde_json::Value = serde_json::from_slice(&line).ok()?;
            let t = v.get("timestamp")?.as_str()?;
            crate::time::parse(t)
        })
}
