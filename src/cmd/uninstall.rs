//! `homunculus uninstall`: remove exactly our hooks, status line and slash commands from
//! Claude Code. The memory folder is the user's and stays.

use std::fmt::Write;

use anyhow::Result;

use super::{Ctx, binary_path, mcp_config_path, print, settings_path};
use crate::setup::settings::{self, Removal, SettingsFile};
use crate::setup::templates;

pub fn run(ctx: &Ctx, args: &crate::cli::UninstallArgs) -> Result<()> {
    if args.agent == crate::cli::AgentArg::Codex {
        let mut out = super::init::unregister_codex(ctx, args.project, args.dry_run)?;
        if out.is_empty() {
            out.push_str("Nothing of homunculus is installed in Codex.\n");
        }
        return print(&out);
    }
    let file = settings_path(ctx, args.project)?;
    let (on_disk, mut s) = SettingsFile::open(&file)?;
    let bin = binary_path()?;
    let mut out = String::new();
    let verb = if args.dry_run {
        "would remove"
    } else {
        "removed"
    };
    let removed = settings::uninstall(&mut s, &bin);
    for event in &removed {
        let _ = writeln!(out, "{verb:<13} hook {event} from {}", file.display());
    }
    let statusline = settings::uninstall_statusline(&mut s);
    if statusline {
        let _ = writeln!(out, "{verb:<13} status line logger from {}", file.display());
    }
    if (!removed.is_empty() || statusline) && !args.dry_run {
        match on_disk.save_after_removal(&s)? {
            Removal::Restored => {
                let _ = writeln!(
                    out,
                    "restored      {} as it was before init (backup removed)",
                    file.display()
                );
            }
            Removal::Deleted => {
                let _ = writeln!(out, "removed       {} (init created it)", file.display());
            }
            Removal::Written => {}
        }
    }
    let mcp_file = mcp_config_path(ctx, args.project)?;
    let (mcp_on_disk, mut mcp_config) = SettingsFile::open(&mcp_file)?;
    if crate::setup::mcp::uninstall(&mut mcp_config) {
        if !args.dry_run {
            mcp_on_disk.save_after_removal(&mcp_config)?;
        }
        let _ = writeln!(
            out,
            "{verb:<13} MCP server {} from {}",
            crate::setup::mcp::NAME,
            mcp_file.display()
        );
    }
    // The slash commands are the user's, shared by every project: `--project` removes only
    // the project's hooks and leaves them with the user-level install.
    if !args.project {
        for path in templates::remove_commands(&ctx.paths.claude_commands(), args.dry_run)? {
            let _ = writeln!(out, "{verb:<13} {}", path.display());
        }
        let plugin = ctx.paths.claude_skills_plugin();
        if crate::setup::plugin::remove(&plugin, args.dry_run)? {
            let _ = writeln!(out, "{verb:<13} {} (the plugin)", plugin.display());
        }
        if !args.dry_run {
            let _ = std::fs::remove_file(ctx.paths.settings_hooks_marker());
        }
    }
    if out.is_empty() {
        out.push_str("Nothing of homunculus is installed in Claude Code.\n");
    } else {
        let _ = writeln!(
            out,
            "The memory folder {} is yours and was left in place.",
            ctx.paths.root.display()
        );
    }
    print(&out)
}
