//! Codex's configuration: our hooks in `hooks.json` (Claude Code's format, for the
//! events Codex has) and our MCP server as one `[mcp_servers.homunculus]` table in
//! `config.toml`, added and removed as a block of lines so the rest of the user's file
//! (comments, order, formatting) stays byte for byte.

use crate::agent::hook_event::HookEvent;

/// The hook events Codex sends (it has no SessionEnd, and reports a failed command as
/// a PostToolUse: `agent::codex` turns it into a failure).
pub const EVENTS: [HookEvent; 6] = [
    HookEvent::SessionStart,
    HookEvent::UserPromptSubmit,
    HookEvent::PreToolUse,
    HookEvent::PostToolUse,
    HookEvent::PreCompact,
    HookEvent::Stop,
];

/// The line above our table: it marks the block as ours.
const MARKER: &str =
    "# managed by homunculus: `homunculus uninstall --agent codex` removes this table";
const TABLE: &str = "[mcp_servers.homunculus]";

/// What installing the MCP server did to `config.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpChange {
    Installed(String),
    Updated(String),
    Unchanged,
    /// A table of that name that is not ours: left alone.
    NotOurs,
}

fn block(bin: &str) -> String {
    let quoted = toml::Value::String(bin.to_string()).to_string();
    // Its tools read and write the memory folder only, never the project: Codex need not
    // ask before each call (it refuses an unapproved call outright in `codex exec`).
    format!(
        "{MARKER}\n{TABLE}\ncommand = {quoted}\nargs = [\"mcp\"]\ndefault_tools_approval_mode = \"approve\"\n"
    )
}

/// `text` with our table added (or refreshed to run `bin`).
pub fn install_mcp(text: &str, bin: &str) -> McpChange {
    let wanted = block(bin);
    if text.contains(&wanted) {
        return McpChange::Unchanged;
    }
    if let Some(rest) = remove_mcp(text) {
        return McpChange::Updated(append(&rest, &wanted));
    }
    if text.lines().any(|l| l.trim() == TABLE) {
        return McpChange::NotOurs;
    }
    McpChange::Installed(append(text, &wanted))
}

fn append(text: &str, block: &str) -> String {
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(block);
    out
}

/// `text` without our block (the marker, the table, its keys up to the next table),
/// or `None` when there is none.
pub fn remove_mcp(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let start = lines.iter().position(|l| l.trim_end() == MARKER)?;
    if lines.get(start + 1).map(|l| l.trim_end()) != Some(TABLE) {
        return None;
    }
    let end = lines
        .iter()
        .enumerate()
        .skip(start + 2)
        .find(|(_, l)| l.trim_start().starts_with('['))
        .map_or(lines.len(), |(n, _)| n);
    // The blank line `install_mcp` put before the block goes with it.
    let from = if start > 0 && lines[start - 1].trim().is_empty() {
        start - 1
    } else {
        start
    };
    let mut out: String = lines[..from].concat();
    out.push_str(&lines[end..].concat());
    Some(out)
}

/// The binary our table runs, if it is there.
pub fn registered_mcp(text: &str) -> Option<String> {
    let value: toml::Table = text.parse().ok()?;
    let entry = value.get("mcp_servers")?.get("homunculus")?;
    entry.get("command")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_comes_and_goes_leaving_the_users_file_as_it_was() {
        let mine = "# my settings\nmodel = \"o4\"   # keep\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n";
        let McpChange::Installed(with) = install_mcp(mine, "/opt/bin/homunculus") else {
            panic!()
        };
        assert_eq!(
            registered_mcp(&with).as_deref(),
            Some("/opt/bin/homunculus")
        );
        assert_eq!(
            install_mcp(&with, "/opt/bin/homunculus"),
            McpChange::Unchanged
        );
        let McpChange::Updated(moved) = install_mcp(&with, "/usr/bin/homunculus") else {
            panic!()
        };
        assert_eq!(
            registered_mcp(&moved).as_deref(),
            Some("/usr/bin/homunculus")
        );
        assert_eq!(remove_mcp(&moved).as_deref(), Some(mine));
        assert_eq!(remove_mcp(mine), None);
        // A table the user wrote is theirs.
        let theirs = "[mcp_servers.homunculus]\ncommand = \"x\"\n";
        assert_eq!(install_mcp(theirs, "/b/homunculus"), McpChange::NotOurs);
        // A block followed by more tables keeps them.
        let later = format!("{with}\n[profiles.fast]\nmodel = \"mini\"\n");
        let removed = remove_mcp(&later).unwrap();
        assert!(
            removed.starts_with(mine) && removed.contains("[profiles.fast]"),
            "{removed}"
        );
    }
}
