//! The anatomy of a shell command line as an agent writes it: the commands it chains
//! (`&&`, `;`, `||`, `|`, new lines), each with its environment assignments, program and
//! arguments, seen through wrappers (`sudo`, `timeout 60`, `env X=1`, `nice`, `time`,
//! subshell parentheses, comment lines) and the shell's own keywords (`for … in …; do …;
//! done`, `if …; then …; fi`, `while`): a loop's body is its commands, the keywords are
//! none. A pipeline's later stages (`| tail -40`, `| tee log`, `| grep x`) only filter
//! what the first stage prints, so the first is the one doing the work. And the two
//! judgements every learner needs: which commands only look (diagnostics) and which
//! destroy (never advice).

/// One simple command of a line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Command {
    /// `NAME=value` assignments before the program (wrapper `env` ones included).
    pub env: Vec<String>,
    /// The program as written (`pnpm`, `.venv/bin/pytest`, `./gradlew`).
    pub program: String,
    pub args: Vec<String>,
    /// It reads a pipe: a later stage of a pipeline (`tail` in `make | tail -40`).
    pub filters: bool,
}

impl Command {
    /// The program's file name: `.venv/bin/pytest` → `pytest`.
    pub fn tool(&self) -> &str {
        self.program.rsplit('/').next().unwrap_or(&self.program)
    }

    /// Arguments that are not options.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.args
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-'))
    }

    /// Options (`-x`, `--flag`, `--flag=value`), values cut off.
    pub fn flags(&self) -> impl Iterator<Item = &str> {
        self.args
            .iter()
            .filter(|a| a.starts_with('-') && a.len() > 1)
            .map(|a| a.split('=').next().unwrap_or(a))
    }

    /// The first argument that is not an option: `install` of `npm install x`.
    /// Options before the verb that take the next word as their value
    /// (`kubectl --context prod apply`) are passed over.
    pub fn verb(&self) -> Option<&str> {
        const TAKES_VALUE: &[&str] = &[
            "--context",
            "--namespace",
            "-n",
            "--kubeconfig",
            "-C",
            "--chdir",
            "--project",
            "--profile",
            "--region",
            "--cluster",
            "--env",
            "-e",
            "--host",
            "-H",
            "--file",
        ];
        let mut args = self.args.iter().map(String::as_str);
        while let Some(arg) = args.next() {
            if !arg.starts_with('-') {
                return Some(arg);
            }
            if TAKES_VALUE.contains(&arg) {
                args.next();
            }
        }
        None
    }

    /// `program verb` as a short name for the command: `cargo test`, `git commit`.
    pub fn shape(&self) -> String {
        let verb = self
            .verb()
            .filter(|v| takes_verb(self.tool()) && is_word(v));
        match verb {
            Some(v) => format!("{} {v}", self.tool()),
            None => self.tool().to_string(),
        }
    }

    /// The command as one line again.
    pub fn text(&self) -> String {
        let mut parts: Vec<&str> = self.env.iter().map(String::as_str).collect();
        parts.push(&self.program);
        parts.extend(self.args.iter().map(String::as_str));
        parts.join(" ")
    }

    /// The environment variable names it sets.
    pub fn env_names(&self) -> impl Iterator<Item = &str> {
        self.env.iter().map(|e| e.split('=').next().unwrap_or(e))
    }
}

/// Programs whose first word names what they do (`git commit`, `cargo test`).
pub fn takes_verb(tool: &str) -> bool {
    matches!(
        tool,
        "git"
            | "cargo"
            | "npm"
            | "pnpm"
            | "yarn"
            | "bun"
            | "uv"
            | "pip"
            | "pip3"
            | "poetry"
            | "docker"
            | "docker-compose"
            | "kubectl"
            | "helm"
            | "terraform"
            | "go"
            | "gh"
            | "systemctl"
            | "apt"
            | "apt-get"
            | "brew"
            | "make"
            | "just"
            | "dotnet"
            | "mvn"
            | "gradle"
            | "bundle"
            | "rails"
            | "npx"
            | "deno"
            | "op"
            | "aws"
            | "gcloud"
            | "az"
            | "sqlx"
            | "alembic"
            | "flyctl"
            | "vercel"
            | "nix"
            | "conda"
            | "rustup"
            | "mise"
            | "nixos-rebuild"
            | "darwin-rebuild"
            | "home-manager"
            | "dnf"
            | "yum"
            | "zypper"
            | "snap"
            | "flatpak"
            | "podman"
            | "pulumi"
            | "composer"
            | "flutter"
            | "dart"
            | "pod"
            | "mix"
            | "cabal"
            | "stack"
            | "zig"
            | "bazel"
            | "wrangler"
            | "supabase"
            | "firebase"
            | "heroku"
    )
}

fn is_word(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':' || c == '_')
}

/// Splits a line into its simple commands, wrappers and comments removed. `cd` and
/// `source` stay (they matter to what follows); empty pieces go.
pub fn parse(line: &str) -> Vec<Command> {
    let mut out = Vec::new();
    let mut piped = false;
    let line = without_heredoc_bodies(line);
    for (segment, sep) in segments(&line) {
        if let Some(mut cmd) = keywords_off(&segment).and_then(simple) {
            cmd.filters = piped;
            out.push(cmd);
        }
        piped = sep == Some('|');
    }
    out
}

/// The command that does the work: the last one that is neither a directory change, an
/// environment set-up (`source`, `export`), an `echo`, a pipeline's filter nor (when
/// there is another) a look.
pub fn primary(commands: &[Command]) -> Option<&Command> {
    let works = |c: &&Command| !c.filters && !is_setup(c) && !is_filler(c);
    // A look tacked on at the end (`make && ls out/`) is not what the line is for.
    commands
        .iter()
        .rev()
        .filter(works)
        .find(|c| !is_diagnostic(c))
        .or_else(|| commands.iter().rev().find(works))
        .or_else(|| commands.iter().rev().find(|c| !c.filters))
        .or(commands.last())
}

/// The command of a line that failed: the one the error names (`touch: x: No such file
/// or directory`, `zsh: command not found: lspci`), else the primary. In a chain the
/// first failure stops the line, so the last command is often not the one that failed.
pub fn failing<'a>(commands: &'a [Command], error: &str) -> Option<&'a Command> {
    let lower = error.to_ascii_lowercase();
    commands
        .iter()
        .filter(|c| !is_setup(c))
        .find(|c| named_in(c, &lower))
        .or_else(|| primary(commands))
}

/// Whether a lower-cased error names `cmd` as the one that failed (`touch: …`,
/// `command not found: lspci`).
fn named_in(cmd: &Command, lower_error: &str) -> bool {
    let t = cmd.tool().to_ascii_lowercase();
    !cmd.filters
        && t.len() > 1
        && (lower_error.starts_with(&format!("{t}:"))
            || lower_error.contains(&format!("\n{t}:"))
            || lower_error.contains(&format!("| {t}:"))
            || lower_error.contains(&format!("not found: {t}"))
            || lower_error.contains(&format!("{t}: command not found"))
            || lower_error.contains(&format!("{t}: not found")))
}

/// Commands that do no work of their own: `echo`, `true`, `wait`, `sleep`, `:`.
fn is_filler(cmd: &Command) -> bool {
    matches!(
        cmd.tool(),
        "echo" | "printf" | "true" | "wait" | "sleep" | ":" | "clear"
    )
}

/// Whether the error names the command of the line that failed (see [`failing`]).
pub fn names_failing(commands: &[Command], error: &str) -> bool {
    let lower = error.to_ascii_lowercase();
    commands.iter().any(|c| named_in(c, &lower))
}

/// How many commands of a line do work (not set-up, a look, a filter or filler).
pub fn workers(commands: &[Command]) -> usize {
    commands
        .iter()
        .filter(|c| !c.filters && !is_setup(c) && !is_diagnostic(c) && !is_filler(c))
        .count()
}

/// `cd`, `source`, `.`, `export`, `set`: commands that only prepare the shell.
pub fn is_setup(cmd: &Command) -> bool {
    matches!(
        cmd.tool(),
        "cd" | "source" | "." | "export" | "set" | "pushd" | "popd"
    )
}

mod judge;
mod never;
mod words;

pub use judge::*;
pub use never::*;
use words::{keywords_off, segments, simple, without_heredoc_bodies};

#[cfg(test)]
mod tests;
