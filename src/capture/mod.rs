//! What the hooks take in: Claude Code's payloads and transcripts, the observations
//! built from them (secrets redacted), the project a directory belongs to, and the
//! per-session state that keeps hooks from repeating themselves, and whether what was
//! injected was then used.

pub mod hook_event;
pub mod hook_state;
pub mod observation;
pub mod payload;
pub mod project;
pub mod redact;
pub mod shell;
pub mod transcript;
pub mod usage;
