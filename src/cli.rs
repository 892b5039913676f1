//! The command line: clap types, and the candidates they offer for completion. Doc
//! comments are the help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const ENV_HELP: &str = "\
Environment variables:
  HOMUNCULUS_DIR     the memory folder (absolute; default ~/.claude/homunculus)
  CLAUDE_CONFIG_DIR  Claude Code's folder (default ~/.claude)
  HOMUNCULUS_NOW     a fixed clock for every command (RFC 3339), for tests and reproductions";

/// A memory for coding agents, in plain markdown files.
#[derive(Debug, Parser)]
#[command(name = "homunculus", version, after_help = ENV_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create the memory folder, register the hooks, install the slash commands
    Init(InitArgs),
    /// Remove exactly what init added to Claude Code (the memory folder stays)
    Uninstall(UninstallArgs),
    /// Check that everything is wired and healthy (exit 1 if not)
    Doctor(DoctorArgs),
    /// Approve the observer.llm_command that config.toml names (it runs only once approved)
    Trust,
    /// Status-line activity logger: records context use, prints nothing (or CMD's output)
    Statusline(StatuslineArgs),
    /// Show instincts by domain with their confidence (the /instinct-status view)
    Status(StatusArgs),
    /// Show promotion candidates and stale convictions; promote with --promote
    Evolve(EvolveArgs),
    /// Tell homunculus an instinct was wrong, weak or strong, or mute it
    Feedback(FeedbackArgs),
    /// Retire an item for good: never injected, searched or learned again (the file stays)
    Forget(ForgetArgs),
    /// Write instincts to a file others can import
    Export(ExportArgs),
    /// Import instincts from an export file into instincts/inherited/
    Import(ImportArgs),
    /// Learn from pending observations now (when due, or with --force)
    Observe(ObserveArgs),
    /// Learn from recorded Claude Code sessions (transcript files or folders of them)
    Replay(ReplayArgs),
    /// Search every memory (instincts, convictions, episodes, sessions)
    Search(SearchArgs),
    /// Rebuild the search index from the markdown files
    Reindex,
    /// Keep the search index in step with hand edits until stopped (Ctrl-C)
    Watch(WatchArgs),
    /// Handle a Claude Code hook event (payload on stdin); always exits 0. Registered by
    /// `init` in Claude Code's settings.json; not for running by hand
    Hook(HookArgs),
    /// What was injected into the model's context, when, where and why
    Injections(InjectionsArgs),
    /// Print a shell completion script
    Completions(CompletionsArgs),
    /// The review screen: a local web page on 127.0.0.1 (the URL with its token is printed)
    Ui(UiArgs),
    /// Model Context Protocol server over stdio (search, get, recent_sessions, remember,
    /// feedback, forget). Registered by `init`; not for running by hand
    Mcp,
}

/// The event of a `homunculus hook <event> ...` invocation, found before clap parses
/// anything: whatever Claude Code passes, a hook exits 0 (a usage error's exit code 2
/// would block the agent). `hook --help` (or `-h`) is left to clap.
pub fn hook_event(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<String> {
    let mut args = args.into_iter().skip(1);
    if args.next()? != "hook" {
        return None;
    }
    let event = args.next().map(|e| e.to_string_lossy().into_owned());
    match event.as_deref() {
        Some("--help" | "-h") => None,
        _ => Some(event.unwrap_or_default()),
    }
}

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Started by a session's first hook: quiet, and it stops itself after an hour
    /// without agent activity or when the memory folder goes
    #[arg(long, hide = true)]
    pub background: bool,
}

#[derive(Debug, Args)]
pub struct UiArgs {
    /// The port (default: a free one)
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Open the page in the browser
    #[arg(long)]
    pub open: bool,
}

#[derive(Debug, Args)]
pub struct ForgetArgs {
    /// The item's name (as `status` or `search` shows it) or its path in the memory folder
    pub name: String,
    /// Why, in a few words (kept in the item's evidence, or as `retired_reason:` in an
    /// episode or a session)
    #[arg(long)]
    pub reason: Option<String>,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    /// session-start, user-prompt-submit, pre-tool-use, post-tool-use,
    /// post-tool-use-failure, stop, session-end or pre-compact
    /// (`homunculus hook ...` is handled before argument parsing, so no argument can make
    /// a hook fail; this entry documents it.)
    #[arg(default_value = "")]
    pub event: String,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum EngineArg {
    /// Miners for error recoveries, corrections, co-edits and tool choices; no network
    Builtin,
    /// observer.llm_command (default `claude -p --model haiku`); answers are validated
    Llm,
}

#[derive(Debug, Args)]
pub struct ObserveArgs {
    /// Which engine learns (default: observer.engine from config.toml)
    #[arg(long, value_enum)]
    pub engine: Option<EngineArg>,
    /// Show the operations without applying them
    #[arg(long)]
    pub dry_run: bool,
    /// Run even when not due (too few observations, too soon after the last run); after
    /// a run already in progress, if any
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Transcript files (*.jsonl) or folders holding them (e.g. ~/.claude/projects)
    #[arg(required = true, num_args = 1..)]
    pub sources: Vec<std::path::PathBuf>,
    /// Which engine learns (default: observer.engine from config.toml)
    #[arg(long, value_enum)]
    pub engine: Option<EngineArg>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum KindArg {
    Instinct,
    Conviction,
    Episode,
    Session,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Words to look for (no query syntax: every character is plain text)
    #[arg(required = true, num_args = 1..)]
    pub query: Vec<String>,
    /// Only this kind of memory
    #[arg(long, value_enum)]
    pub kind: Option<KindArg>,
    /// Only memories of this project
    #[arg(long)]
    pub project: Option<String>,
    /// The most hits to show (1 to 1000)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub limit: u16,
    /// One JSON object for scripts
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Make the memory folder a git repository
    #[arg(long)]
    pub git: bool,
    /// Show what would be done without writing anything
    #[arg(long)]
    pub dry_run: bool,
    /// Register the hooks in this project's .claude/settings.json instead of the user's
    #[arg(long)]
    pub project: bool,
    /// Also log context use from Claude Code's status line (wraps an existing one)
    #[arg(long)]
    pub statusline: bool,
    /// Install as a skills-directory plugin (~/.claude/skills/homunculus) instead of
    /// editing settings.json; the settings.json hooks, if any, are removed
    #[arg(long, conflicts_with_all = ["project", "statusline"])]
    pub plugin: bool,
    /// Which agent to wire: Claude Code (settings.json, ~/.claude.json) or Codex
    /// (~/.codex/hooks.json and config.toml; .codex/ with --project)
    #[arg(long, value_enum, default_value_t = AgentArg::Claude, conflicts_with_all = ["plugin", "statusline"])]
    pub agent: AgentArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentArg {
    Claude,
    Codex,
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    /// Show what would be removed without writing anything
    #[arg(long)]
    pub dry_run: bool,
    /// Uninstall from this project's .claude/settings.json instead of the user's
    #[arg(long)]
    pub project: bool,
    /// Which agent to unwire (see `init --agent`)
    #[arg(long, value_enum, default_value_t = AgentArg::Claude)]
    pub agent: AgentArg,
}

#[derive(Debug, Args)]
pub struct StatuslineArgs {
    /// A status-line command to run with the same input; its output is shown
    #[arg(long)]
    pub then: Option<String>,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Only this domain (testing, git, tooling, ...)
    #[arg(long)]
    pub domain: Option<String>,
    /// One JSON object for scripts
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct EvolveArgs {
    /// Write conviction files for the candidates and revoke those below 0.40
    #[arg(long)]
    pub promote: bool,
    /// One JSON object for scripts
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum VerdictArg {
    /// Set confidence to the floor (0.20)
    Wrong,
    /// Lower confidence by 0.15
    Weak,
    /// Raise confidence by 0.10 and count as seen now
    Strong,
    /// Not now: inject it no more in this session; its confidence is untouched
    Mute,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// One JSON object: `ok`, `failed`, and every check's level and message
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct FeedbackArgs {
    /// The instinct's name: its file name without .md
    #[arg(add = clap_complete::ArgValueCandidates::new(instinct_names))]
    pub name: String,
    pub verdict: VerdictArg,
    /// With `mute`: the session (default: the one most recently active)
    #[arg(long)]
    pub session: Option<String>,
}

#[derive(Debug, Args)]
pub struct InjectionsArgs {
    /// Only this session (its id, or the first characters of it)
    #[arg(long)]
    pub session: Option<String>,
    /// The most recent N injections (at least 1)
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    pub last: u32,
    /// One JSON object: {"injections": [...]}
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Only instincts whose weight (confidence after decay, never below its floor) is at
    /// least this
    #[arg(long, default_value_t = 0.5, value_parser = weight)]
    pub min_confidence: f64,
    /// The file to write
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Show what would be imported without writing anything
    #[arg(long)]
    pub dry_run: bool,
    /// An export file written by `homunculus export`, or a Nous store (`engram.jsonl`,
    /// `cortex.jsonl`)
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    pub shell: clap_complete::Shell,
}

/// The instinct names `feedback` takes, each with its advice as the description.
fn instinct_names() -> Vec<clap_complete::CompletionCandidate> {
    let Ok(paths) = crate::env::Env::from_process().paths() else {
        return Vec::new();
    };
    let mut names: Vec<clap_complete::CompletionCandidate> = crate::memory::Store::new(&paths)
        .instincts()
        .items
        .into_iter()
        .map(|i| {
            let help = crate::text::clip_chars(&i.action, 60).to_string();
            clap_complete::CompletionCandidate::new(i.name).help(Some(help.into()))
        })
        .collect();
    names.sort_by(|a, b| a.get_value().cmp(b.get_value()));
    names
}

/// A weight between 0 and 1: out of range is a usage error, as clap's own are.
fn weight(text: &str) -> Result<f64, String> {
    let value: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("must be between 0 and 1, got {value}"))
    }
}
