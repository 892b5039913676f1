//! Every file and folder homunculus touches, derived in one place from two roots:
//! the memory folder and Claude Code's config folder.

use std::path::{Path, PathBuf};

/// The resolved locations of the memory folder and of Claude Code's config folder.
#[derive(Debug, Clone)]
pub struct Paths {
    /// The memory folder (`~/.claude/homunculus` unless `HOMUNCULUS_DIR` says otherwise).
    pub root: PathBuf,
    /// Claude Code's own folder (`~/.claude` unless `CLAUDE_CONFIG_DIR` says otherwise).
    pub claude_dir: PathBuf,
}

/// The folders `init` creates, relative to the memory folder, in creation order.
pub const LAYOUT_DIRS: &[&str] = &[
    "instincts/personal",
    "instincts/inherited",
    "convictions",
    "episodes",
    "sessions",
    "observations",
    "observations.archive",
    "state",
    "state/locks",
    "logs",
];

impl Paths {
    pub fn new(root: impl Into<PathBuf>, claude_dir: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            claude_dir: claude_dir.into(),
        }
    }

    pub fn personal_instincts(&self) -> PathBuf {
        self.root.join("instincts/personal")
    }

    pub fn inherited_instincts(&self) -> PathBuf {
        self.root.join("instincts/inherited")
    }

    pub fn convictions(&self) -> PathBuf {
        self.root.join("convictions")
    }

    /// The bash-era single conviction file that `init` migrates.
    pub fn legacy_convictions(&self) -> PathBuf {
        self.root.join("convictions.md")
    }

    pub fn episodes(&self) -> PathBuf {
        self.root.join("episodes")
    }

    pub fn sessions(&self) -> PathBuf {
        self.root.join("sessions")
    }

    pub fn observations(&self) -> PathBuf {
        self.root.join("observations")
    }

    pub fn observations_archive(&self) -> PathBuf {
        self.root.join("observations.archive")
    }

    pub fn state(&self) -> PathBuf {
        self.root.join("state")
    }

    pub fn logs(&self) -> PathBuf {
        self.root.join("logs")
    }

    pub fn index(&self) -> PathBuf {
        self.root.join(".index")
    }

    pub fn identity(&self) -> PathBuf {
        self.root.join("identity.json")
    }

    /// Which repository each project key stands for on this machine
    /// (`memory::projects`).
    pub fn projects(&self) -> PathBuf {
        self.state().join("projects.json")
    }

    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }

    pub fn gitignore(&self) -> PathBuf {
        self.root.join(".gitignore")
    }

    /// The lock file guarding one named resource. Lock files are never deleted.
    pub fn lock(&self, name: &crate::lock::LockName) -> PathBuf {
        self.root
            .join("state/locks")
            .join(format!("{}.lock", name.file_stem()))
    }

    /// Claude Code's user-level slash command folder.
    pub fn claude_commands(&self) -> PathBuf {
        self.claude_dir.join("commands")
    }

    /// The skills-directory plugin `init --plugin` writes (Claude Code loads every
    /// `skills/<name>/.claude-plugin/plugin.json` as a plugin).
    pub fn claude_skills_plugin(&self) -> PathBuf {
        self.claude_dir.join("skills").join("homunculus")
    }

    /// Present while our hooks are registered in the user's settings.json: a plugin
    /// copy of the hooks that finds it stands down, so no event runs twice.
    pub fn settings_hooks_marker(&self) -> PathBuf {
        self.state().join("settings-hooks")
    }

    /// Claude Code's user-level settings file.
    pub fn claude_settings(&self) -> PathBuf {
        self.claude_dir.join("settings.json")
    }

    /// Returns `path` relative to the memory folder, or `path` itself when outside it.
    pub fn relative<'a>(&self, path: &'a Path) -> &'a Path {
        path.strip_prefix(&self.root).unwrap_or(path)
    }
}
