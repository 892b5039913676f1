//! The test environment: a temporary HOME, a fixed clock, the built binary, and
//! fixtures copied in. Output is rendered as one block with temp paths normalised.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub const NOW: &str = "2026-02-20T12:00:00Z";

pub struct TestEnv {
    _dir: tempfile::TempDir,
    pub home: PathBuf,
    pub now: String,
}

impl TestEnv {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        fs::create_dir_all(&home).unwrap();
        Self {
            _dir: dir,
            home,
            now: NOW.to_string(),
        }
    }

    /// A home whose memory folder is a copy of `fixtures/<name>`.
    pub fn with_memory(name: &str) -> Self {
        let env = Self::new();
        copy_dir(&fixture(name), &env.memory());
        env
    }

    pub fn memory(&self) -> PathBuf {
        self.home.join(".claude/homunculus")
    }

    pub fn claude(&self) -> PathBuf {
        self.home.join(".claude")
    }

    pub fn instinct(&self, name: &str) -> PathBuf {
        self.memory().join(format!("instincts/personal/{name}.md"))
    }

    pub fn read(&self, relative: &str) -> String {
        fs::read_to_string(self.memory().join(relative)).unwrap()
    }

    /// What `git <args>` prints in the memory folder.
    pub fn git(&self, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(self.memory())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn cmd(&self) -> Command {
        Command::from_std(self.spawnable())
    }

    /// The same command as a plain `std::process::Command`, for processes run in the
    /// background.
    pub fn spawnable(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("homunculus"));
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("HOMUNCULUS_NOW", &self.now)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .current_dir(&self.home);
        cmd
    }

    /// `path` relative to the memory folder.
    pub fn paths_relative(&self, path: &Path) -> PathBuf {
        path.strip_prefix(self.memory())
            .unwrap_or(path)
            .to_path_buf()
    }

    /// A scratch git project the hook payloads point at (`$PROJECT`).
    pub fn project(&self) -> PathBuf {
        let dir = self.home.join("src/ledger-svc");
        fs::create_dir_all(dir.join(".git")).unwrap();
        fs::create_dir_all(dir.join("src/storage")).unwrap();
        fs::write(dir.join("Cargo.toml"), "[package]\nname = \"ledger\"\n").unwrap();
        dir
    }

    /// A hook fixture with `$PROJECT` and `$HOME` filled in.
    pub fn payload(&self, fixture_name: &str) -> String {
        let text = fs::read_to_string(fixture(&format!("hooks/{fixture_name}.json"))).unwrap();
        text.replace("$PROJECT", &self.project().display().to_string())
            .replace("$HOME", &self.home.display().to_string())
    }

    /// Runs `homunculus hook <event>` with raw bytes on stdin.
    pub fn hook_raw(&self, event: &str, stdin: impl Into<Vec<u8>>) -> Output {
        let out = self
            .cmd()
            .args(["hook", event])
            .write_stdin(stdin)
            .output()
            .unwrap();
        Output {
            stdout: self.normalise(&String::from_utf8_lossy(&out.stdout)),
            stderr: self.normalise(&String::from_utf8_lossy(&out.stderr)),
            code: out.status.code().unwrap_or(-1),
        }
    }

    /// Runs a hook with one of the fixtures in `fixtures/hooks/`.
    pub fn hook(&self, event: &str, fixture_name: &str) -> Output {
        self.hook_raw(event, self.payload(fixture_name))
    }

    /// Runs the binary and renders stdout, stderr and the exit status as one block.
    pub fn run(&self, args: &[&str]) -> Output {
        let out = self.cmd().args(args).output().unwrap();
        Output {
            stdout: self.normalise(&String::from_utf8_lossy(&out.stdout)),
            stderr: self.normalise(&String::from_utf8_lossy(&out.stderr)),
            code: out.status.code().unwrap_or(-1),
        }
    }

    fn normalise(&self, text: &str) -> String {
        let home = self.home.display().to_string();
        let exe = assert_cmd::cargo::cargo_bin("homunculus");
        let exe = exe.canonicalize().unwrap_or(exe).display().to_string();
        text.replace(&exe, "$BIN").replace(&home, "$HOME")
    }
}

#[derive(Debug)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Output {
    pub fn success(&self) -> &Self {
        assert_eq!(self.code, 0, "{self}");
        self
    }

    pub fn failure(&self) -> &Self {
        assert_eq!(self.code, 1, "{self}");
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {self}"))
    }
}

impl std::fmt::Display for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.stdout)?;
        if !self.stderr.is_empty() {
            write!(f, "------- stderr -------\n{}", self.stderr)?;
        }
        write!(f, "[exit status: {}]", self.code)
    }
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Takes the lock file at `path` as another process of ours would (an exclusive
/// `flock`), held until the returned file is dropped.
pub fn hold_lock(path: &Path) -> fs::File {
    use std::os::fd::AsRawFd;
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .unwrap();
    // SAFETY: a valid descriptor of a file we opened.
    assert_eq!(unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) }, 0);
    file
}

/// The lines that differ between two texts, as (removed, added).
pub fn changed_lines(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let diff = similar::TextDiff::from_lines(before, after);
    let mut removed = Vec::new();
    let mut added = Vec::new();
    for change in diff.iter_all_changes() {
        let line = change.value().trim_end().to_string();
        match change.tag() {
            similar::ChangeTag::Delete => removed.push(line),
            similar::ChangeTag::Insert => added.push(line),
            similar::ChangeTag::Equal => {}
        }
    }
    (removed, added)
}

/// Every file under `dir` with its text, for before/after comparisons. Lock files are
/// left out: taking a lock is not a change.
pub fn snapshot_tree(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().is_file() && path.extension().is_none_or(|e| e != "lock") {
            let text = String::from_utf8_lossy(&fs::read(path).unwrap()).into_owned();
            out.push((path.to_path_buf(), text));
        }
    }
    out
}
