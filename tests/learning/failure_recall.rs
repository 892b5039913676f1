//! Failure recall on real histories, in the order they happened: each person's sessions
//! are replayed one at a time, oldest first, and before a session is learned from, every
//! failure in it is sent to the PostToolUseFailure hook against the memory the earlier
//! sessions left (a copy, so the probe records nothing). What the hook injects is what
//! the agent would have been told; `tests/data/learning/failure_recall.toml` holds a
//! reviewer's verdict on each.

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Stdio};

use homunculus::agent::hook_event::HookEvent;
use homunculus::agent::transcript;

/// One failure the hook answered with memory.
pub struct Recalled {
    /// `<person>/<session file stem>#<n>`, the session's n-th failure: stable across runs.
    pub id: String,
    pub command: String,
    pub error: String,
    pub injected: String,
}

/// What one person's history gave.
#[derive(Default)]
pub struct Probe {
    pub failures: usize,
    /// Failures whose signature an earlier session of the same folder had failed with.
    pub repeats: Vec<String>,
    pub recalled: Vec<Recalled>,
}

/// A shell command that failed by itself: not a call the user refused or interrupted.
fn is_shell_failure(event: &transcript::ReplayEvent) -> bool {
    let p = &event.payload;
    let error = p.pointer("/error").and_then(|v| v.as_str()).unwrap_or("");
    p.pointer("/tool_name").and_then(|v| v.as_str()) == Some("Bash")
        && p.pointer("/is_interrupt").is_none()
        && !error.starts_with("The user doesn't want")
        && !error.contains("was denied")
}

fn homunculus(home: &Path, now: &str) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("homunculus"));
    cmd.env_clear()
        .env("HOME", home)
        .env("HOMUNCULUS_NOW", now)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    cmd
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).into_iter().flatten() {
        let rel = entry.path().strip_prefix(from).unwrap();
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn ask_hook(home: &Path, event: &transcript::ReplayEvent) -> Option<String> {
    let now = event.at.to_rfc3339();
    let mut child = homunculus(home, &now)
        .args(["hook", HookEvent::PostToolUseFailure.cli_name()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let payload = serde_json::to_vec(&event.payload).unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &payload).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    answer
        .pointer("/hookSpecificOutput/additionalContext")
        .and_then(|c| c.as_str())
        .map(str::to_string)
}

/// The shell failures of one session whose signature an earlier session in the same
/// folder failed with (once per signature), as `<file> <time> | <signature> | <command>`;
/// `earlier` gains this session's signatures.
fn seen_before(
    file: &Path,
    t: &transcript::Transcript,
    failures: &[&transcript::ReplayEvent],
    earlier: &mut HashSet<(String, String)>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut this: HashSet<(String, String)> = HashSet::new();
    for e in failures.iter().filter(|e| is_shell_failure(e)) {
        let field = |ptr: &str| {
            e.payload
                .pointer(ptr)
                .and_then(|v| v.as_str())
                .unwrap_or("")
        };
        let error = field("/error");
        let Some(key) = homunculus::agent::signature::failure_key(error) else {
            continue;
        };
        let k = (t.cwd.clone(), key);
        if earlier.contains(&k) && this.insert(k.clone()) {
            out.push(format!(
                "{} {} | {} | {}",
                file.display(),
                e.at.to_rfc3339(),
                homunculus::agent::signature::signature(error),
                field("/tool_input/command")
            ));
        }
        this.insert(k);
    }
    earlier.extend(this);
    out
}

/// Replays `person`'s history session by session, probing every failure first.
pub fn probe(person: &str, sources: &Path) -> Probe {
    let home = tempfile::tempdir().unwrap();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut probe = Probe::default();
    let fallback = chrono::Utc::now();
    let mut earlier: HashSet<(String, String)> = HashSet::new();
    for file in transcript::files::in_time_order(&[sources.to_path_buf()]) {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let path = file.display().to_string();
        let t = transcript::read(&text, &stem, &path, &mut seen, fallback);
        let failures: Vec<_> = t
            .events
            .iter()
            .filter(|e| e.hook == HookEvent::PostToolUseFailure)
            .collect();
        probe.failures += failures.len();
        probe
            .repeats
            .extend(seen_before(&file, &t, &failures, &mut earlier));
        let memory = home.path().join(".claude/homunculus");
        if !failures.is_empty() && memory.is_dir() {
            let scratch = tempfile::tempdir().unwrap();
            copy_tree(&memory, &scratch.path().join(".claude/homunculus"));
            for (n, event) in failures.into_iter().enumerate() {
                if let Some(injected) = ask_hook(scratch.path(), event) {
                    let p = &event.payload;
                    let field = |ptr: &str| p.pointer(ptr).and_then(|v| v.as_str()).unwrap_or("");
                    probe.recalled.push(Recalled {
                        id: format!("{person}/{stem}#{n}"),
                        command: field("/tool_input/command").to_string(),
                        error: field("/error").chars().take(600).collect(),
                        injected,
                    });
                }
            }
        }
        let end = t
            .events
            .last()
            .map_or_else(|| "2026-11-23T12:00:00Z".to_string(), |e| e.at.to_rfc3339());
        crate::replay_at(home.path(), &file, &end);
    }
    probe
}
