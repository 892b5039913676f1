//! Harnesses that prove the memory survives real use: many processes at once
//! (`concurrency`) and processes killed at random moments (`crash`). `cargo test` runs
//! them small; the full runs are
//!
//! ```text
//! STRESS_FULL=1 cargo test --release --test stress concurrency -- --nocapture
//! STRESS_FULL=1 cargo test --release --test stress crash -- --nocapture
//! ```

// Test and benchmark code sets up files and reads the clock directly; the house rules
// in clippy.toml are for the program.
#![allow(clippy::disallowed_methods)]

mod concurrency;
mod crash;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const NOW: &str = "2026-02-20T12:00:00Z";

pub fn full() -> bool {
    std::env::var("STRESS_FULL").as_deref() == Ok("1")
}

/// A scratch HOME with an initialised memory.
pub struct Home {
    _dir: tempfile::TempDir,
    pub home: PathBuf,
}

impl Home {
    pub fn initialised() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        fs::create_dir_all(&home).unwrap();
        let h = Self { _dir: dir, home };
        assert!(h.run(&["init"]).status.success());
        // The harnesses start the observer themselves; Stop must not start more.
        fs::write(
            h.memory().join("config.toml"),
            "[observer]\nmin_observations = 1000000\n",
        )
        .unwrap();
        h
    }

    pub fn memory(&self) -> PathBuf {
        self.home.join(".claude/homunculus")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("homunculus"));
        cmd.args(args)
            .env_clear()
            .env("HOME", &self.home)
            .env("HOMUNCULUS_NOW", NOW)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdin(Stdio::null());
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    pub fn hook(&self, event: &str, payload: &str) -> Output {
        use std::io::Write;
        let mut child = self
            .command(&["hook", event])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    }

    pub fn write_instinct(&self, name: &str, confidence: f64) -> PathBuf {
        let path = self.memory().join(format!("instincts/personal/{name}.md"));
        fs::write(
            &path,
            format!("---\ntrigger: \"when {name} applies\"\naction: \"do the {name} thing\"\nconfidence: {confidence:.2}\ndomain: general\ncreated: 2026-01-01T00:00:00Z\nlast_seen: 2026-02-20T12:00:00Z\n---\n\n# {name}\n\n## Evidence\n\n- seeded\n"),
        )
        .unwrap();
        path
    }

    /// Every observation line: those still pending after the observer's cursors, and
    /// those archived.
    pub fn observation_lines(&self) -> Vec<String> {
        let cursors: serde_json::Value =
            fs::read(self.memory().join("state/observer/cursors.json"))
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
                .unwrap_or_default();
        let mut lines = Vec::new();
        for (dir, use_cursor) in [("observations", true), ("observations.archive", false)] {
            for entry in fs::read_dir(self.memory().join(dir))
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = entry.file_name().to_string_lossy().into_owned();
                let bytes = fs::read(entry.path()).unwrap();
                let from = if use_cursor {
                    cursors[&name].as_u64().unwrap_or(0) as usize
                } else {
                    0
                };
                let text = String::from_utf8_lossy(&bytes[from.min(bytes.len())..]).into_owned();
                lines.extend(text.lines().map(str::to_string));
            }
        }
        lines
    }

    /// Every markdown file parses (status reports no errors).
    pub fn assert_all_parse(&self) {
        let out = self.run(&["status", "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["errors"], serde_json::json!([]), "{v}");
    }
}

pub fn payload(session: &str, cwd: &Path, extra: &str) -> String {
    format!(
        "{{\"session_id\":\"{session}\",\"transcript_path\":\"/t.jsonl\",\"cwd\":\"{}\",{extra}}}",
        cwd.display()
    )
}

/// A small deterministic generator for the harnesses' random choices.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
