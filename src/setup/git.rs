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
    run(dir, &["add", "--all"])?;
    commit_staged(dir, message, &[])
}

/// Commits exactly `files` (added, changed or removed), whatever else the user has
/// changed or staged in the folder. Returns whether there was anything to commit.
pub fn commit_paths(dir: &Path, message: &str, files: &[String]) -> Result<bool, GitError> {
    if files.is_empty() {
        return Ok(false);
    }
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

    #[test]
    fn a_folders_own_hooks_never_run_when_we_commit() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("memory");
        std::fs::create_dir_all(&repo).unwrap();
        if init(&repo).is_err() {
            eprintln!("skipped: no git");
            return;
        }
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
}
