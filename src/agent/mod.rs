//! The coding agent's side of the boundary: what Claude Code sends (hook payloads, the
//! hook events), what it writes (transcripts), the project a folder belongs to, and the
//! observations we record from them (secrets redacted). A second agent plugs in here.

pub mod answer;
pub mod codex;
pub mod hook_event;
pub mod observation;
pub mod payload;
pub mod project;
pub mod redact;
pub mod signature;
pub mod tool;
pub mod transcript;
pub mod typed;
