//! homunculus: a memory for coding agents, kept in plain markdown files.
//!
//! Layers, outermost first; a module imports only from layers below its own (checked by
//! `tests/cli/layers.rs`). ARCHITECTURE.md walks through them.
//! 1. `main`, `cli` (clap types) and `cmd` (one module per subcommand): the only code that
//!    reads the environment, the clock or prints.
//! 2. `hooks`: one function per Claude Code event, payload and memory in, answer out;
//!    `mcp`: the same memory as Model Context Protocol tools; `ui`: the review screen.
//! 3. `ask`: what a person or a model asks of the memory (find, read, remember, judge,
//!    forget), shared by the CLI and the MCP server.
//! 4. `recall` (what to hand back, and when) and `observer` (what to learn).
//! 5. `index`: the Tantivy cache of the markdown.
//! 6. `memory` (the items, their lossless editing, confidence, promotion, identity,
//!    session files, per-session memo, usage counts) and `setup` (folder skeleton,
//!    config, Claude Code settings and MCP registration, git).
//! 7. `agent`: what the coding agent sends and writes (hook payloads and answers,
//!    transcripts, projects) and the observations recorded from them, redacted.
//! 8. Primitives: `shell` (command lines as the shell reads them), `env`, `paths`,
//!    `fsutil`, `lock`, `log`, `text`, `time`.
//!
//! Core modules take paths and `now` as arguments.

pub mod agent;
pub mod ask;
pub mod cli;
pub mod cmd;
pub mod env;
pub mod fsutil;
pub mod hooks;
pub mod index;
pub mod lock;
pub mod log;
pub mod mcp;
pub mod memory;
pub mod observer;
pub mod paths;
pub mod recall;
pub mod setup;
pub mod shell;
pub mod text;
pub mod time;
pub mod ui;

#[cfg(test)]
mod testutil;
