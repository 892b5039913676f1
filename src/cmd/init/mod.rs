//! `homunculus init`: create the memory folder (layout, identity, config, .gitignore),
//! migrate a bash-era `convictions.md`, install the slash commands, and with `--git`
//! make the folder a repository. Idempotent: a second run reports what already exists.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{Ctx, binary_path, mcp_config_path, print, reindex_changed, settings_path};
use crate::cli::{AgentArg, InitArgs};
use crate::fsutil::{self, create_private_dir};
use crate::memory::Store;
use crate::memory::migrate;
use crate::paths::LAYOUT_DIRS;
use crate::setup::settings::{self, Change, SettingsError, SettingsFile};
use crate::setup::templates::{self, COMMAND_MARKER};
use crate::setup::{git, layout};

mod codex;
mod plugin;

pub(crate) use codex::unregister as unregister_codex;

/// Collects one line per step: `created`, `exists`, `installed`, ...
struct Report {
    out: String,
    dry_run: bool,
}

impl Report {
    fn line(&mut self, verb: &str, path: &Path) {
        let verb = match (self.dry_run, verb) {
            (true, "created") => "would create",
            (true, "installed") => "would install",
            (true, "updated") => "would update",
            (true, "migrated") => "would migrate",
            _ => verb,
        };
        let _ = writeln!(self.out, "{verb:<13} {}", path.display());
    }
}

pub fn run(ctx: &Ctx, args: &InitArgs) -> Result<()> {
    let mut report = Report {
        out: String::new(),
        dry_run: args.dry_run,
    };
    if args.agent == AgentArg::Codex {
        codex::register(&mut report, ctx, args)?;
        memory_folder(&mut report, ctx, args.dry_run)?;
        return finish(
            report,
            ctx,
            args,
            "Restart Codex, then trust the homunculus hooks once in its `/hooks` (Codex runs a user's hooks only once trusted).",
        );
    }
    // Read Claude Code's settings first: a malformed file stops init before any write.
    let settings_file = settings_path(ctx, args.project)?;
    let (settings_on_disk, mut claude_settings) = SettingsFile::open(&settings_file)?;
    // A project's settings are checked in and shared: every clone calls the binary by the
    // name on its own PATH, never this machine's path to it.
    let bin = if args.project {
        "homunculus".to_string()
    } else {
        binary_path()?
    };
    let shape_error = |e: settings::ShapeError| SettingsError::Shape {
        path: settings_file.display().to_string(),
        what: e.0,
    };
    // A shape we would overwrite or a read-only file stops init before any write too.
    settings::check_shape(&claude_settings).map_err(shape_error)?;
    if !args.dry_run {
        settings_on_disk.refuse_read_only()?;
    }
    // The MCP server's registration is checked before any write as well.
    let mcp_file = mcp_config_path(ctx, args.project)?;
    let (mcp_on_disk, mut mcp_config) = SettingsFile::open(&mcp_file)?;
    let mcp_change = if args.plugin {
        Change::Unchanged
    } else {
        crate::setup::mcp::install(&mut mcp_config, &bin).map_err(|what| SettingsError::Shape {
            path: mcp_file.display().to_string(),
            what,
        })?
    };
    if !args.dry_run && mcp_change != Change::Unchanged {
        mcp_on_disk.refuse_read_only()?;
    }
    memory_folder(&mut report, ctx, args.dry_run)?;
    if args.plugin {
        let registered = plugin::Registered {
            settings: (&settings_on_disk, &mut claude_settings),
            mcp: (&mcp_on_disk, &mut mcp_config),
        };
        plugin::switch_to_plugin(&mut report, ctx, &bin, registered, args.dry_run)?;
    } else {
        commands(&mut report, ctx, args.dry_run)?;
        register(
            &mut report,
            args,
            &bin,
            &settings_on_disk,
            &mut claude_settings,
        )?;
        save_mcp(
            &mut report,
            mcp_change,
            &mcp_on_disk,
            &mcp_config,
            args.dry_run,
        )?;
        if !args.project {
            plugin::switch_to_settings(&mut report, ctx, args.dry_run)?;
        }
    }
    finish(
        report,
        ctx,
        args,
        "Restart Claude Code to load the hooks; `homunculus doctor` checks the wiring.",
    )
}

/// Writes the MCP server's registration `install` prepared, and says what it did.
fn save_mcp(
    report: &mut Report,
    change: Change,
    on_disk: &SettingsFile,
    config: &serde_json::Map<String, serde_json::Value>,
    dry_run: bool,
) -> Result<()> {
    let verb = verb(&change, dry_run);
    if !dry_run && verb != "exists" {
        on_disk.save(config)?;
    }
    let _ = writeln!(
        report.out,
        "{verb:<13} MCP server {} in {}",
        crate::setup::mcp::NAME,
        on_disk.path.display()
    );
    Ok(())
}

/// How a registration's change reads in the report (`would …` in a dry run).
fn verb(change: &Change, dry_run: bool) -> &'static str {
    match (change, dry_run) {
        (Change::Installed, false) => "installed",
        (Change::Installed, true) => "would install",
        (Change::Updated, false) => "updated",
        (Change::Updated, true) => "would update",
        _ => "exists",
    }
}

/// The optional git step and the closing line.
fn finish(mut report: Report, ctx: &Ctx, args: &InitArgs, restart: &str) -> Result<()> {
    if args.git {
        git_repo(&mut report, ctx.paths.root.as_path(), args.dry_run)?;
    }
    if args.dry_run {
        let _ = writeln!(report.out, "Dry run: nothing was written.");
    } else {
        let _ = writeln!(
            report.out,
            "Memory folder ready at {}. {restart}",
            ctx.paths.root.display()
        );
    }
    print(&report.out)
}

/// The memory folder: its skeleton, its files, a bash-era `convictions.md` migrated.
fn memory_folder(report: &mut Report, ctx: &Ctx, dry_run: bool) -> Result<()> {
    folders(report, ctx.paths.root.as_path(), dry_run)?;
    for (path, text) in layout::files(&ctx.paths, ctx.now) {
        let exists = path.exists();
        if !exists && !dry_run {
            fsutil::write_new(&path, text.as_bytes())?;
        }
        report.line(if exists { "exists" } else { "created" }, &path);
    }
    migrate_convictions(report, ctx, dry_run)
}

/// Moves a bash-era `convictions.md` into one file per conviction.
fn migrate_convictions(report: &mut Report, ctx: &Ctx, dry_run: bool) -> Result<()> {
    let paths = &ctx.paths;
    let store = Store::new(paths);
    if let Some(moved) = migrate::legacy_convictions(&store, ctx.now, dry_run)? {
        for m in &moved {
            report.line(if m.created { "migrated" } else { "exists" }, &m.file);
        }
        if !dry_run {
            let legacy = paths.legacy_convictions().with_extension("md.migrated");
            report.line("kept", &legacy);
            let files: Vec<PathBuf> = moved.iter().map(|m| m.file.clone()).collect();
            reindex_changed(ctx, &files);
        }
    }
    Ok(())
}

/// Registers the hooks (and with `--statusline` the status-line logger) in settings.json.
fn register(
    report: &mut Report,
    args: &InitArgs,
    bin: &str,
    on_disk: &SettingsFile,
    claude_settings: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<()> {
    let settings_file = &on_disk.path;
    let before = claude_settings.clone();
    let installed = settings::install(claude_settings, bin).map_err(|e| SettingsError::Shape {
        path: settings_file.display().to_string(),
        what: e.0,
    })?;
    for (event, change) in installed {
        let verb = verb(&change, args.dry_run);
        let _ = writeln!(
            report.out,
            "{verb:<13} hook {event} in {}",
            settings_file.display()
        );
    }
    if args.statusline {
        let verb = match settings::install_statusline(claude_settings, bin) {
            true if args.dry_run => "would wrap",
            true => "installed",
            false => "exists",
        };
        let _ = writeln!(
            report.out,
            "{verb:<13} status line logger in {}",
            settings_file.display()
        );
    }
    if *claude_settings != before && !args.dry_run {
        on_disk.save(claude_settings)?;
    }
    for program in settings::other_copies(claude_settings, bin) {
        let _ = writeln!(
            report.out,
            "warning       hooks of another copy, {program}, are registered too: every event runs twice; `{program} uninstall` removes them"
        );
    }
    Ok(())
}

fn folders(report: &mut Report, root: &Path, dry_run: bool) -> Result<()> {
    for dir in std::iter::once(root.to_path_buf()).chain(LAYOUT_DIRS.iter().map(|d| root.join(d))) {
        let created = if dry_run {
            !dir.is_dir()
        } else {
            create_private_dir(&dir)?
        };
        // The layout's sub-folders are reported only when new, to keep reruns short.
        if created || dir == root {
            report.line(if created { "created" } else { "exists" }, &dir);
        }
    }
    Ok(())
}

/// Installs the slash commands, never replacing a file a person wrote.
fn commands(report: &mut Report, ctx: &Ctx, dry_run: bool) -> Result<()> {
    let dir = ctx.paths.claude_commands();
    let bin = settings::shell_quote(&binary_path()?);
    for (name, template) in templates::COMMANDS {
        let path = dir.join(name);
        let text = templates::render(template, &[("bin", &bin)]);
        let verb = match fsutil::read_text(&path) {
            Ok(existing) if existing == text => "exists",
            Ok(existing) if existing.contains(COMMAND_MARKER) => "updated",
            Ok(_) => "skipped (not ours)",
            Err(e) if e.is_not_found() => "installed",
            Err(e) => return Err(e.into()),
        };
        if !dry_run && matches!(verb, "installed" | "updated") {
            create_private_dir(&dir)?;
            fsutil::atomic_write(&path, text.as_bytes())?;
        }
        report.line(verb, &path);
    }
    Ok(())
}

fn git_repo(report: &mut Report, root: &Path, dry_run: bool) -> Result<()> {
    if dry_run {
        let verb = if git::is_repo(root) {
            "exists"
        } else {
            "created"
        };
        report.line(verb, &root.join(".git"));
        return Ok(());
    }
    let created = git::init(root)?;
    report.line(
        if created { "created" } else { "exists" },
        &root.join(".git"),
    );
    if git::commit_all(root, "homunculus: initial memory")? {
        let _ = writeln!(
            report.out,
            "committed     the memory folder's current state"
        );
    }
    Ok(())
}
