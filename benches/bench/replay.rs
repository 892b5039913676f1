//! Replay speed: the real development set (`../shared/transcripts-real`, when present),
//! and 1,000 sessions made from it and the synthetic set by renaming every id, so none
//! is taken for a copy of another.

use std::path::{Path, PathBuf};
use std::time::Instant;

use regex::Regex;

use super::{BIN, NOW};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn transcripts(dir: &Path) -> Vec<PathBuf> {
    super::walkdir(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter(|p| !p.components().any(|c| c.as_os_str() == "subagents"))
        .collect()
}

/// Seconds to replay `source` into a fresh memory.
fn replay_once(source: &Path) -> f64 {
    let home = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let status = std::process::Command::new(BIN)
        .args(["replay", source.to_str().unwrap()])
        .env_clear()
        .env("HOME", home.path())
        .env("HOMUNCULUS_NOW", NOW)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    started.elapsed().as_secs_f64()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// `sessions` transcripts with fresh ids, written under a temporary folder.
fn thousand(sources: &[PathBuf], sessions: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let uuid = Regex::new(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").unwrap();
    let tool = Regex::new(r"toolu_[A-Za-z0-9]+").unwrap();
    let texts: Vec<String> = sources
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|t| t.len() > 1_000)
        .collect();
    for n in 0..sessions {
        let text = &texts[n % texts.len()];
        let renamed =
            uuid.replace_all(text, |c: &regex::Captures| format!("{n:08x}{}", &c[0][8..]));
        let renamed = tool.replace_all(&renamed, |c: &regex::Captures| format!("{}x{n}", &c[0]));
        let project = dir.path().join(format!("-home-u-src-p{}", n % 40));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            project.join(format!("{n:08x}-0000-4000-8000-000000000000.jsonl")),
            renamed.as_bytes(),
        )
        .unwrap();
    }
    dir
}

pub fn run() {
    let real = root().join("../shared/transcripts-real");
    let synthetic = root().join("fixtures/transcripts-synthetic");
    println!("| replay of | sessions | median of 5 |");
    println!("| --- | ---: | ---: |");
    if real.is_dir() {
        let secs = median((0..5).map(|_| replay_once(&real)).collect());
        println!("| the real development set | 27 | {secs:.2} s |");
    }
    let secs = median((0..5).map(|_| replay_once(&synthetic)).collect());
    println!("| the synthetic set | 29 | {secs:.2} s |");
    let mut sources = transcripts(&synthetic);
    if real.is_dir() {
        sources.extend(transcripts(&real));
    }
    let corpus = thousand(&sources, 1_000);
    let secs = median((0..3).map(|_| replay_once(corpus.path())).collect());
    println!("| 1,000 sessions (renamed copies of both) | 1000 | {secs:.2} s (median of 3) |");
}
