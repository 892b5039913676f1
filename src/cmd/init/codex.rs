//! `init --agent codex` and `uninstall --agent codex`: our hooks in Codex's
//! `hooks.json` and our MCP server in its `config.toml` (the user's, or with `--project`
//! the project's `.codex/`), added and removed alone.

use std::fmt::Write;
use std::path::PathBuf;

use anyhow::{Result, bail};

use super::{Report, verb};
use crate::cmd::{Ctx, binary_path};
use crate::setup::codex::{self, McpChange};
use crate::setup::settings::{self, Change, SettingsError, SettingsFile};

/// Codex's folder for this install: the user's, or the project's `.codex/`.
pub(crate) fn folder(ctx: &Ctx, project: bool) -> Result<PathBuf> {
    if project {
        return Ok(std::env::current_dir()?.join(".codex"));
    }
    ctx.env.codex_home()
}

/// The binary as Codex should call it (by name in a shared project config).
fn bin(project: bool) -> Result<String> {
    if project {
        Ok("homunculus".into())
    } else {
        binary_path()
    }
}

pub(super) fn register(report: &mut Report, ctx: &Ctx, args: &crate::cli::InitArgs) -> Result<()> {
    let dir = folder(ctx, args.project)?;
    let bin = bin(args.project)?;
    let hooks_file = dir.join("hooks.json");
    let (on_disk, mut hooks) = SettingsFile::open(&hooks_file)?;
    let changes = settings::install_events(&mut hooks, &bin, &codex::EVENTS).map_err(|e| {
        SettingsError::Shape {
            path: hooks_file.display().to_string(),
            what: e.0,
        }
    })?;
    let config_file = dir.join("config.toml");
    let config = crate::fsutil::read_text(&config_file).or_else(|e| {
        if e.is_not_found() {
            Ok(String::new())
        } else {
            Err(e)
        }
    })?;
    let mcp = codex::install_mcp(&config, &bin);
    if mcp == McpChange::NotOurs {
        bail!(
            "{} has an [mcp_servers.homunculus] table that is not ours; remove it first",
            config_file.display()
        );
    }
    let mut changed = false;
    for (event, change) in changes {
        changed |= change != Change::Unchanged;
        let verb = verb(&change, args.dry_run);
        let _ = writeln!(
            report.out,
            "{verb:<13} hook {event} in {}",
            hooks_file.display()
        );
    }
    if changed && !args.dry_run {
        on_disk.save(&hooks)?;
    }
    let (verb, text) = match mcp {
        McpChange::Installed(t) => (verb(&Change::Installed, args.dry_run), Some(t)),
        McpChange::Updated(t) => (verb(&Change::Updated, args.dry_run), Some(t)),
        _ => ("exists", None),
    };
    if let (Some(text), false) = (text, args.dry_run) {
        crate::fsutil::create_private_dir(&dir)?;
        crate::fsutil::atomic_write(&config_file, text.as_bytes())?;
    }
    let _ = writeln!(
        report.out,
        "{verb:<13} MCP server homunculus in {}",
        config_file.display()
    );
    Ok(())
}

/// Removes exactly what `register` added. Returns the lines to report.
pub(crate) fn unregister(ctx: &Ctx, project: bool, dry_run: bool) -> Result<String> {
    let dir = folder(ctx, project)?;
    let bin = bin(project)?;
    let gone = if dry_run { "would remove" } else { "removed" };
    let mut out = String::new();
    let hooks_file = dir.join("hooks.json");
    let (on_disk, mut hooks) = SettingsFile::open(&hooks_file)?;
    let removed = settings::uninstall(&mut hooks, &bin);
    for event in &removed {
        let _ = writeln!(out, "{gone:<13} hook {event} from {}", hooks_file.display());
    }
    if !removed.is_empty() && !dry_run {
        on_disk.save_after_removal(&hooks)?;
    }
    let config_file = dir.join("config.toml");
    let config = crate::fsutil::read_text(&config_file).unwrap_or_default();
    if let Some(rest) = codex::remove_mcp(&config) {
        if !dry_run {
            if rest.trim().is_empty() {
                std::fs::remove_file(&config_file)?;
            } else {
                crate::fsutil::atomic_write(&config_file, rest.as_bytes())?;
            }
        }
        let _ = writeln!(
            out,
            "{gone:<13} MCP server homunculus from {}",
            config_file.display()
        );
    }
    Ok(out)
}
