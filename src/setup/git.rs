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

fn run(dir: &Path, args: &[&str]) -> Result<Output, GitError> {
    let output = Command::new("git")
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
