//! The memory folder as a git repository: init, and one commit per change set. Runs the
//! `git` binary; never prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("git is not installed (or not on PATH); install it, or run without --git")]
    Missing,
    #[error("git {args} failed in {dir}: {stderr}")]
    Failed {
        args: String,
        dir: String,
        stderr: String,
    },
    #[error("cannot run git: {0}")]
    Io(std::io::Error),
}

/// Settings that keep a folder's own configuration from running anything as the user:
/// its hooks (a shared folder's `pre-commit` would run as whoever commits), an fsmonitor
/// command, a pager or an editor.
const NOTHING_RUNS: &[&str] = &[
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.pager=cat",
    "-c",
    "core.editor=true",
];

fn run(dir: &Path, args: &[&str]) -> Result<Output, GitError> {
    let output = Command::new("git")
        .args(NOTHING_RUNS)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => GitError::Missing,
            _ => GitError::Io(e),
        })?;
    if !output.status.success() {
        return Err(GitError::Failed {
            args: args.join(" "),
            dir: dir.display().to_string(),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    Ok(output)
}

/// Whether `dir` is itself the top of a git work tree.
/// The memory's changes of the last `days` days, newest first, as `git log` prints them
/// (`<short hash>\t<day>\t<subject>`), at most `max`; empty when it is no repository.
pub fn recent_log(dir: &Path, days: u32, max: usize) -> Vec<String> {
    if !is_repo(dir) {
        return Vec::new();
    }
    let since = format!("--since={days}.days");
    let count = format!("-n{max}");
    run(
        dir,
        &[
            "log",
            &since,
            &count,
            "--date=short",
            "--format=%h%x09%ad%x09%s",
        ],
    )
    .map(|o| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

/// The values a frontmatter `key` of `file` took over the folder's git history, oldest
/// first, each with the day of its commit (`confidence` over time).
pub fn value_history(dir: &Path, file: &Path, key: &str) -> Vec<(String, String)> {
    if !is_repo(dir) {
        return Vec::new();
    }
    let relative = file.strip_prefix(dir).unwrap_or(file).display().to_string();
    let Ok(out) = run(
        dir,
        &[
            "log",
            "--reverse",
            "--date=short",
            "--format=day %ad",
            "-p",
            "--",
            &relative,
        ],
    ) else {
        return Vec::new();
    };
    let prefix = format!("+{key}: ");
    let mut day = String::new();
    let mut values = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(d) = line.strip_prefix("day ") {
            day = d.to_string();
        } else if let Some(v) = line.strip_prefix(&prefix) {
            values.push((day.clone(), v.trim().to_string()));
        }
    }
    values
}

pub fn is_repo(dir: &Path) -> bool {
    dir.join(".git").exists()
}

/// Makes `dir` a git repository. Returns whether it created one.
pub fn init(dir: &Path) -> Result<bool, GitError> {
    if is_repo(dir) {
        return Ok(false);
    }
    run(dir, &["init", "--quiet"])?;
    Ok(true)
}

/// Stages everything and commits with `message`. Returns whether a commit was made
/// (nothing to commit is not an error). Works without a configured git identity.
pub fn commit_all(dir: &Path, message: &str) -> Result<bool, GitError> {
    let _serial = serialised(dir)?;
    run(dir, &["add", "--all"])?;
    commit_staged(dir, message, &[])
}

/// How old an `index.lock` must be before it is taken for one a killed git left: a live
/// git holds it for a moment, never minutes.
const STALE_INDEX_LOCK: std::time::Duration = std::time::Duration::from_secs(600);

/// Our commits one at a time (the observer, `feedback` and `evolve` may commit at once),
/// and an `index.lock` a killed git left behind cleared first: otherwise every later
/// commit fails, quietly, for good.
fn serialised(dir: &Path) -> Result<crate::lock::FileLock, GitError> {
    let git = dir.join(".git");
    let lock = crate::lock::FileLock::try_acquire_for(
        &git.join("homunculus-commit.lock"),
        std::time::Duration::from_secs(30),
    )
    .map_err(|e| GitError::Io(std::io::Error::other(e.to_string())))?;
    if stale_index_lock(dir).is_some() {
        let _ = std::fs::remove_file(git.join("index.lock"));
    }
    Ok(lock)
}

/// The repository's `index.lock` when it is older than any live git would hold it.
pub fn stale_index_lock(dir: &Path) -> Option<PathBuf> {
    let path = dir.join(".git").join("index.lock");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    // Compared with a file time, which is wall-clock.
    #[allow(clippy::disallowed_methods)]
    let age = std::time::SystemTime::now().duration_since(modified).ok()?;
    (age >= STALE_INDEX_LOCK).then_some(path)
}

/// Commits exactly `files` (added, changed or removed), whatever else the user has
/// changed or staged in the folder. Returns whether there was anything to commit.
pub fn commit_paths(dir: &Path, message: &str, files: &[String]) -> Result<bool, GitError> {
    if files.is_empty() {
        return Ok(false);
    }
    let _serial = serialised(dir)?;
    let mut add: Vec<&str> = vec!["add", "--all", "--"];
    add.extend(files.iter().map(String::as_str));
    run(dir, &add)?;
    commit_staged(dir, message, files)
}

/// Commits exactly `files` (paths inside `root`) when `root` is a repository; see
/// `commit_paths`.
pub fn commit_files(root: &Path, message: &str, files: &[PathBuf]) -> Result<bool, GitError> {
    if !is_repo(root) {
        return Ok(false);
    }
    let mut relative: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
        .collect();
    relative.sort();
    relative.dedup();
    commit_paths(root, message, &relative)
}

fn commit_staged(dir: &Path, message: &str, only: &[String]) -> Result<bool, GitError> {
    let mut diff: Vec<&str> = vec!["diff", "--cached", "--quiet"];
    if !only.is_empty() {
        diff.push("--");
        diff.extend(only.iter().map(String::as_str));
    }
    if run(dir, &diff).is_ok() {
        return Ok(false);
    }
    let has_identity = run(dir, &["config", "user.email"]).is_ok();
    let mut args = Vec::new();
    if !has_identity {
        args.extend([
            "-c",
            "user.name=homunculus",
            "-c",
            "user.email=homunculus@localhost",
        ]);
    }
    args.extend(["commit", "--quiet", "--no-verify", "-m", message]);
    if !only.is_empty() {
        args.push("--");
        args.extend(only.iter().map(String::as_str));
    }
    run(dir, &args)?;
    Ok(true)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up files directly
mod tests {
    use super::*;

    /// A fresh repository in a temporary folder (and the folder), or `None` without git.
    fn repository() -> Option<(tempfile::TempDir, PathBuf)> {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("memory");
        std::fs::create_dir_all(&repo).unwrap();
        if init(&repo).is_err() {
            eprintln!("skipped: no git");
            return None;
        }
        Some((dir, repo))
    }

    #[test]
    fn a_folders_own_hooks_never_run_when_we_commit() {
        let Some((dir, repo)) = repository() else {
            return;
        };
        let marker = dir.path().join("hook-ran");
        // `--no-verify` skips pre-commit; post-commit runs all the same without the fix.
        let hook = repo.join(".git/hooks/post-commit");
        std::fs::write(&hook, format!("#!/bin/sh\ntouch {}\n", marker.display())).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(repo.join("a.md"), "x\n").unwrap();
        assert!(commit_all(&repo, "test").unwrap());
        assert!(!marker.exists(), "the folder's post-commit hook ran");
    }

    #[test]
    fn a_stale_index_lock_is_cleared_and_a_fresh_one_respected() {
        let Some((_dir, repo)) = repository() else {
            return;
        };
        let lock = repo.join(".git/index.lock");
        let file = std::fs::File::create(&lock).unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        file.set_modified(old).unwrap();
        drop(file);
        assert!(stale_index_lock(&repo).is_some());
        std::fs::write(repo.join("a.md"), "x\n").unwrap();
        assert!(commit_all(&repo, "after a killed git").unwrap());
        assert!(!lock.exists());
        // One a live git holds (fresh) stays, and the commit reports the failure.
        std::fs::File::create(&lock).unwrap();
        assert!(stale_index_lock(&repo).is_none());
        std::fs::write(repo.join("b.md"), "y\n").unwrap();
        assert!(commit_all(&repo, "while git runs").is_err());
        assert!(lock.exists());
    }
}
