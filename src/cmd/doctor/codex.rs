//! Doctor's check of the Codex wiring, when there is one: our hooks in Codex's
//! `hooks.json` for the events Codex has, and our MCP table in its `config.toml`.

use super::Level;
use crate::cmd::Ctx;
use crate::setup::codex;
use crate::setup::settings::{self, SettingsFile};

pub(super) fn check(ctx: &Ctx, bin: &str, check: &mut impl FnMut(Level, String)) {
    let Ok(dir) = ctx.env.codex_home() else {
        return;
    };
    let hooks_file = dir.join("hooks.json");
    let events = SettingsFile::open(&hooks_file)
        .map(|(_, hooks)| settings::installed_events(&hooks, bin))
        .unwrap_or_default();
    if events.is_empty() {
        return;
    }
    let missing: Vec<&str> = codex::EVENTS
        .iter()
        .map(|e| e.wire_name())
        .filter(|e| !events.iter().any(|x| x == e))
        .collect();
    if missing.is_empty() {
        check(
            Level::Ok,
            format!(
                "Codex: our hooks in {} (trust them once in Codex's /hooks)",
                hooks_file.display()
            ),
        );
    } else {
        check(
            Level::Fail,
            format!(
                "Codex: hooks missing in {}: {}; run `homunculus init --agent codex`",
                hooks_file.display(),
                missing.join(", ")
            ),
        );
    }
    let config = crate::fsutil::read_text(&dir.join("config.toml")).unwrap_or_default();
    if codex::registered_mcp(&config).is_none() {
        check(
            Level::Warn,
            format!(
                "Codex: no MCP server homunculus in {}; `homunculus init --agent codex` adds it",
                dir.join("config.toml").display()
            ),
        );
    }
}
