//! Which commands named in the memory folder the user approved to run. A `config.toml`
//! can arrive by `git pull` from someone else; the `observer.llm_command` it names runs
//! only when it is the built-in default or the user approved that exact command with
//! `homunculus trust`. Approvals live outside the memory folder (in Claude Code's folder,
//! never in the memory's git), as the exact command text, so no pull can approve anything.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::fsutil::{self, PathError};
use crate::paths::Paths;

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
struct Approvals {
    /// Exact command texts the user approved.
    llm_commands: Vec<String>,
}

fn file(paths: &Paths) -> PathBuf {
    paths.claude_dir.join("homunculus-trusted.json")
}

/// Whether `command` may run as the observer's llm command.
pub fn is_approved(paths: &Paths, command: &str) -> bool {
    command == crate::setup::config::DEFAULT_LLM_COMMAND
        || fsutil::read_json_or_default::<Approvals>(&file(paths))
            .llm_commands
            .iter()
            .any(|c| c == command)
}

/// Approves `command`; returns whether it was new.
pub fn approve(paths: &Paths, command: &str) -> Result<bool, PathError> {
    let mut approvals: Approvals = fsutil::read_json_or_default(&file(paths));
    if approvals.llm_commands.iter().any(|c| c == command) {
        return Ok(false);
    }
    approvals.llm_commands.push(command.to_string());
    fsutil::create_private_dir(&paths.claude_dir)?;
    let text = serde_json::to_vec_pretty(&approvals).unwrap_or_default();
    fsutil::atomic_write(&file(paths), &text)?;
    Ok(true)
}
