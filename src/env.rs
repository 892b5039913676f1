//! The process environment, read once at start-up and turned into plain values.
//! Only `cmd` uses this module; core modules receive `Paths` and `now` as arguments.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::{Result, bail};
use chrono::{DateTime, Utc};

use crate::paths::Paths;

/// The environment variables homunculus understands, as read from the process.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub home: Option<OsString>,
    pub homunculus_dir: Option<OsString>,
    pub claude_config_dir: Option<OsString>,
    pub homunculus_now: Option<OsString>,
    pub homunculus_observer: Option<OsString>,
    /// Set by Claude Code for a plugin's hooks and servers: where the plugin lives.
    pub claude_plugin_root: Option<OsString>,
    /// Set by Claude Code for hooks: the folder the session started in.
    pub claude_project_dir: Option<OsString>,
    /// Codex's folder (default ~/.codex).
    pub codex_home: Option<OsString>,
    /// Claude Code's own switch for its auto memory (`doctor` reports on it).
    pub claude_auto_memory_disabled: Option<OsString>,
    /// `NO_COLOR` set to anything: plain output even at a terminal.
    pub no_color: bool,
}

impl Env {
    /// Reads the variables from the running process; empty values count as unset.
    #[allow(clippy::disallowed_methods)] // the one place that reads the environment
    pub fn from_process() -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Self {
            home: var("HOME"),
            homunculus_dir: var("HOMUNCULUS_DIR"),
            claude_config_dir: var("CLAUDE_CONFIG_DIR"),
            homunculus_now: var("HOMUNCULUS_NOW"),
            homunculus_observer: var("HOMUNCULUS_OBSERVER"),
            claude_plugin_root: var("CLAUDE_PLUGIN_ROOT"),
            claude_project_dir: var("CLAUDE_PROJECT_DIR"),
            codex_home: var("CODEX_HOME"),
            claude_auto_memory_disabled: var("CLAUDE_CODE_DISABLE_AUTO_MEMORY"),
            no_color: var("NO_COLOR").is_some(),
        }
    }

    /// Resolves the memory folder and Claude Code's folder.
    pub fn paths(&self) -> Result<Paths> {
        let claude_dir = match &self.claude_config_dir {
            Some(dir) => absolute("CLAUDE_CONFIG_DIR", dir)?,
            None => self.home_dir()?.join(".claude"),
        };
        let root = match &self.homunculus_dir {
            Some(dir) => memory_folder(absolute("HOMUNCULUS_DIR", dir)?)?,
            None => self.home_dir()?.join(".claude").join("homunculus"),
        };
        Ok(Paths::new(root, claude_dir))
    }

    /// Claude Code's own state file, where user-scope MCP servers are registered:
    /// `~/.claude.json`, or `.claude.json` inside `CLAUDE_CONFIG_DIR` when that is set.
    pub fn claude_state_file(&self) -> Result<PathBuf> {
        Ok(match &self.claude_config_dir {
            Some(dir) => absolute("CLAUDE_CONFIG_DIR", dir)?.join(".claude.json"),
            None => self.home_dir()?.join(".claude.json"),
        })
    }

    /// Codex's folder: `CODEX_HOME`, else `~/.codex`.
    pub fn codex_home(&self) -> Result<PathBuf> {
        Ok(match &self.codex_home {
            Some(dir) => absolute("CODEX_HOME", dir)?,
            None => self.home_dir()?.join(".codex"),
        })
    }

    /// The current instant, or the fixed one `HOMUNCULUS_NOW` names.
    pub fn now(&self) -> Result<DateTime<Utc>> {
        match &self.homunculus_now {
            #[allow(clippy::disallowed_methods)] // the one place that reads the clock
            None => Ok(Utc::now()),
            Some(raw) => {
                let text = raw.to_string_lossy();
                let Ok(parsed) = DateTime::parse_from_rfc3339(text.trim()) else {
                    bail!("HOMUNCULUS_NOW: '{text}' is not an RFC 3339 timestamp");
                };
                Ok(parsed.with_timezone(&Utc))
            }
        }
    }

    /// Whether this process runs inside the observer's own `claude` child.
    pub fn is_observer_child(&self) -> bool {
        self.homunculus_observer.as_deref() == Some("1".as_ref())
    }

    fn home_dir(&self) -> Result<PathBuf> {
        match &self.home {
            Some(home) => absolute("HOME", home),
            None => bail!("HOME is not set; set HOME or HOMUNCULUS_DIR"),
        }
    }
}

/// A folder `HOMUNCULUS_DIR` may name: one that does not exist yet, an empty one, or a
/// memory folder already (it has `identity.json`). Anything else (`/`, `/etc`, a
/// project) is refused before anything is created in it.
fn memory_folder(path: PathBuf) -> Result<PathBuf> {
    match std::fs::read_dir(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(path),
        Err(e) => bail!("HOMUNCULUS_DIR: cannot read '{}': {e}", path.display()),
        Ok(mut entries) => {
            if entries.next().is_none() || path.join("identity.json").is_file() {
                Ok(path)
            } else {
                bail!(
                    "HOMUNCULUS_DIR: '{}' is neither empty nor a homunculus memory folder (no identity.json); point it at a new or empty folder",
                    path.display()
                )
            }
        }
    }
}

fn absolute(name: &str, value: &OsString) -> Result<PathBuf> {
    let path = PathBuf::from(value);
    if !path.is_absolute() {
        bail!("{name} must be an absolute path, got '{}'", path.display());
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(home: &str) -> Env {
        Env {
            home: Some(home.into()),
            ..Env::default()
        }
    }

    #[test]
    fn defaults_live_under_home() {
        let paths = env("/home/a").paths().unwrap();
        assert_eq!(paths.root, PathBuf::from("/home/a/.claude/homunculus"));
        assert_eq!(paths.claude_dir, PathBuf::from("/home/a/.claude"));
    }

    #[test]
    fn overrides_must_be_absolute() {
        let mut e = env("/home/a");
        e.homunculus_dir = Some("relative/dir".into());
        assert!(e.paths().is_err());
        e.homunculus_dir = Some("/m".into());
        e.claude_config_dir = Some("/c".into());
        let paths = e.paths().unwrap();
        assert_eq!(paths.root, PathBuf::from("/m"));
        assert_eq!(paths.claude_dir, PathBuf::from("/c"));
    }

    #[test]
    fn now_is_fixed_by_variable() {
        let mut e = env("/h");
        e.homunculus_now = Some("2026-02-07T10:15:00Z".into());
        assert_eq!(e.now().unwrap().to_rfc3339(), "2026-02-07T10:15:00+00:00");
        e.homunculus_now = Some("yesterday".into());
        assert!(e.now().is_err());
    }
}
