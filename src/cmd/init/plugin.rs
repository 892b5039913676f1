//! `init --plugin` and plain `init` as opposites: Claude Code is wired either by a
//! skills-directory plugin or by settings.json (plus `~/.claude.json` for the MCP
//! server and the commands folder), never both, so no event runs twice.

use std::fmt::Write;

use anyhow::Result;
use serde_json::{Map, Value};

use super::Report;
use crate::cmd::Ctx;
use crate::setup::plugin::{self, Written};
use crate::setup::settings::{self, SettingsFile};
use crate::setup::templates;

/// The user's registrations as read (files, and their contents to change).
pub(super) struct Registered<'a> {
    pub settings: (&'a SettingsFile, &'a mut Map<String, Value>),
    pub mcp: (&'a SettingsFile, &'a mut Map<String, Value>),
}

/// Writes the plugin, then takes out what it replaces.
pub(super) fn switch_to_plugin(
    report: &mut Report,
    ctx: &Ctx,
    bin: &str,
    registered: Registered,
    dry_run: bool,
) -> Result<()> {
    let dir = ctx.paths.claude_skills_plugin();
    let verb = match plugin::install(&dir, bin, dry_run)? {
        Written::Installed => "installed",
        Written::Updated => "updated",
        Written::Unchanged => "exists",
    };
    report.line(verb, &dir);
    let gone = if dry_run { "would remove" } else { "removed" };
    let (settings_file, hooks) = registered.settings;
    let removed = settings::uninstall(hooks, bin);
    if !removed.is_empty() {
        if !dry_run {
            settings_file.save_after_removal(hooks)?;
        }
        let _ = writeln!(
            report.out,
            "{gone:<13} {} hooks from {} (the plugin runs them now)",
            removed.len(),
            settings_file.path.display()
        );
    }
    let (mcp_file, servers) = registered.mcp;
    if crate::setup::mcp::uninstall(servers) {
        if !dry_run {
            mcp_file.save_after_removal(servers)?;
        }
        let _ = writeln!(
            report.out,
            "{gone:<13} MCP server from {} (the plugin starts it now)",
            mcp_file.path.display()
        );
    }
    for path in templates::remove_commands(&ctx.paths.claude_commands(), dry_run)? {
        let _ = writeln!(
            report.out,
            "{gone:<13} {} (the plugin's /homunculus:… commands replace it)",
            path.display()
        );
    }
    if !dry_run {
        let _ = std::fs::remove_file(ctx.paths.settings_hooks_marker());
    }
    Ok(())
}

/// Plain `init` at user scope: a plugin of ours from an earlier `init --plugin` goes,
/// and the marker tells a marketplace copy of the plugin to stand down.
pub(super) fn switch_to_settings(report: &mut Report, ctx: &Ctx, dry_run: bool) -> Result<()> {
    let dir = ctx.paths.claude_skills_plugin();
    if plugin::remove(&dir, dry_run)? {
        let gone = if dry_run { "would remove" } else { "removed" };
        let _ = writeln!(
            report.out,
            "{gone:<13} {} (settings.json runs the hooks now)",
            dir.display()
        );
    }
    if !dry_run {
        crate::fsutil::atomic_write(
            &ctx.paths.settings_hooks_marker(),
            ctx.paths.claude_settings().display().to_string().as_bytes(),
        )?;
    }
    Ok(())
}
