//! The subcommands. `run` resolves the environment once and dispatches; each command
//! gets a `Ctx` with the paths and the clock.

pub mod completions;
mod doctor;
mod evolve;
mod export;
mod feedback;
mod forget;
pub(crate) mod hook;
mod import;
mod init;
mod injections;
mod mcp;
mod observe;
mod reindex;
mod replay;
mod search;
mod status;
mod statusline;
mod style;
mod trust;
mod ui;
mod uninstall;
mod watch;

use anyhow::{Result, bail};
use chrono::{DateTime, Utc};

use crate::cli::{Cli, Command};
use crate::env::Env;
use crate::memory::Error as MemoryError;
use crate::paths::Paths;
use crate::setup::config::Engine;

/// What every command needs: where things are and what time it is.
pub struct Ctx {
    pub paths: Paths,
    pub now: DateTime<Utc>,
    /// The environment as read at start-up, for the few commands that report on it.
    pub env: Env,
}

impl Ctx {
    /// How to style what goes to stdout.
    pub fn style(&self) -> style::Style {
        style::Style::for_stdout(self.env.no_color)
    }

    /// Fails with a hint when the memory folder does not exist yet.
    pub fn require_memory(&self) -> Result<()> {
        if !self.paths.root.is_dir() {
            bail!(
                "no memory folder at {}; run `homunculus init` first",
                self.paths.root.display()
            );
        }
        Ok(())
    }
}

pub fn run(cli: Cli) -> Result<()> {
    let env = Env::from_process();
    let ctx = Ctx {
        paths: env.paths()?,
        now: env.now()?,
        env,
    };
    match cli.command {
        Command::Init(args) => init::run(&ctx, &args),
        Command::Uninstall(args) => uninstall::run(&ctx, &args),
        Command::Trust => trust::run(&ctx),
        Command::Doctor(args) => doctor::run(&ctx, args.json),
        Command::Statusline(args) => statusline::run(&ctx, &args),
        Command::Status(args) => status::run(&ctx, &args),
        Command::Evolve(args) => evolve::run(&ctx, &args),
        Command::Feedback(args) => feedback::run(&ctx, &args),
        Command::Forget(args) => forget::run(&ctx, &args),
        Command::Mcp => mcp::run(&ctx),
        Command::Ui(args) => ui::run(&ctx, &args),
        Command::Export(args) => export::run(&ctx, &args),
        Command::Import(args) => import::run(&ctx, &args),
        Command::Observe(args) => observe::run(&ctx, &args),
        Command::Replay(args) => replay::run(&ctx, &args),
        Command::Search(args) => search::run(&ctx, &args),
        Command::Reindex => reindex::run(&ctx),
        Command::Watch(args) => watch::run(&ctx, &args),
        Command::Injections(args) => injections::run(&ctx, &args),
        Command::Completions(args) => completions::run(&args),
        // `main` routes every `hook` invocation to `run_hook` before parsing (see
        // `cli::hook_event`); clap only sees `hook --help`, which it answers itself.
        Command::Hook(args) => {
            run_hook(&args.event);
            Ok(())
        }
    }
}

/// Runs one hook. Hooks fail open: they handle their own environment problems and
/// never return an error.
pub fn run_hook(event: &str) {
    let _ = hook::run(&Env::from_process(), event);
}

/// Whether the error is a closed stdout (`homunculus status | head`): not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The engine a command asked for, else the configured one.
fn engine(arg: Option<crate::cli::EngineArg>, config: &crate::setup::config::Config) -> Engine {
    match arg {
        Some(crate::cli::EngineArg::Llm) => Engine::Llm,
        Some(crate::cli::EngineArg::Builtin) => Engine::Builtin,
        None => config.observer.engine,
    }
}

/// Reports files that could not be read, one `warning: path:line: reason` line each.
fn warn_all(errors: &[MemoryError]) {
    for e in errors {
        eprintln!("warning: {e}");
    }
}

/// Tells the index about files this command wrote. The index is a cache: a failure
/// here is a warning, never the command's failure.
fn reindex_changed(ctx: &Ctx, changed: &[std::path::PathBuf]) {
    if changed.is_empty() {
        return;
    }
    if let Err(e) = crate::index::sync::note_changed(&ctx.paths, ctx.now.timestamp()) {
        eprintln!("warning: search index not updated ({e}); `homunculus reindex` repairs it");
    }
}

/// Commits the files a command changed when the memory folder is a git repository and
/// `git.commit` is on: the user's other uncommitted edits stay out. Returns the line to
/// tell the user; a failed commit is a warning, the change itself is made.
fn commit_own_change(ctx: &Ctx, message: &str, files: &[std::path::PathBuf]) -> String {
    match crate::ask::commit(&ctx.paths, message, files) {
        Ok(true) => "Committed to the memory folder's git history.\n".into(),
        Ok(false) => String::new(),
        Err(e) => {
            eprintln!("warning: the change is made but not committed: {e}");
            String::new()
        }
    }
}

/// The settings file `init`/`uninstall` work on: the user's, or with `--project` the
/// current project's shared settings.
fn settings_path(ctx: &Ctx, project: bool) -> Result<std::path::PathBuf> {
    if project {
        let cwd = std::env::current_dir()?;
        return Ok(cwd.join(".claude").join("settings.json"));
    }
    Ok(ctx.paths.claude_settings())
}

/// The file that registers the MCP server: Claude Code's `~/.claude.json` (user
/// scope), or with `--project` the project's shared `.mcp.json`.
fn mcp_config_path(ctx: &Ctx, project: bool) -> Result<std::path::PathBuf> {
    if project {
        return Ok(std::env::current_dir()?.join(".mcp.json"));
    }
    ctx.env.claude_state_file()
}

/// The installed binary, as Claude Code should call it.
fn binary_path() -> Result<String> {
    let exe = std::env::current_exe()?;
    Ok(exe.canonicalize().unwrap_or(exe).display().to_string())
}

/// Writes command output to stdout; a closed pipe surfaces as an error `main` ignores.
fn print(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
