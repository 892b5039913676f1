//! homunculus: a memory for coding agents, kept in plain markdown files.
//!
//! Layers, outermost first: `cli` (clap types) and `cmd` (one module per subcommand,
//! the only code that reads the environment or prints) sit on the core: `memory` (the
//! items and their lossless editing), `confidence` (pure arithmetic), `promotion`,
//! `identity`, `config`, and the primitives `fsutil`, `lock`, `paths`. Core modules take
//! paths and `now` as arguments.

pub mod changes;
pub mod cli;
pub mod cmd;
pub mod confidence;
pub mod config;
pub mod env;
pub mod fsutil;
pub mod git;
pub mod identity;
pub mod index;
pub mod layout;
pub mod lock;
pub mod log;
pub mod memo;
pub mod memory;
pub mod migrate;
pub mod observation;
pub mod observer;
pub mod paths;
pub mod payload;
pub mod project;
pub mod promotion;
pub mod recall;
pub mod redact;
pub mod session;
pub mod settings;
pub mod templates;
pub mod transcript;
