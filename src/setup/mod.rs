//! Everything around the memory folder that is set up once and rarely changes: its
//! skeleton and templates, the user's `config.toml`, Claude Code's `settings.json`, and
//! the folder as a git repository.

pub mod codex;
pub mod config;
pub mod git;
pub mod layout;
pub mod mcp;
pub mod plugin;
pub mod settings;
pub mod templates;
pub mod trust;
