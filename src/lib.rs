//! homunculus: a memory for coding agents, kept in plain markdown files.
//!
//! Layers, outermost first:
//! - `cli` (clap types) and `cmd` (one module per subcommand, `cmd::hook` per event): the
//!   only code that reads the environment, the clock or prints.
//! - `recall` (what to hand back, and when) and `observer` (what to learn).
//! - `index` (the Tantivy cache of the markdown) and `capture` (payloads, transcripts,
//!   observations, redaction, per-session hook state).
//! - `memory` (the items, their lossless editing, confidence, promotion, identity,
//!   session files) and `setup` (folder skeleton, config, Claude Code settings, git).
//! - Primitives: `env`, `paths`, `fsutil`, `lock`, `log`, `text`.
//!
//! Core modules take paths and `now` as arguments.

pub mod capture;
pub mod cli;
pub mod cmd;
pub mod env;
pub mod fsutil;
pub mod index;
pub mod lock;
pub mod log;
pub mod memory;
pub mod observer;
pub mod paths;
pub mod recall;
pub mod setup;
pub mod text;

#[cfg(test)]
mod testutil;
