//! The anatomy of a shell command line as an agent writes it: the commands it chains
//! (`&&`, `;`, `||`, `|`, new lines), each with its environment assignments, program and
//! arguments, seen through wrappers (`sudo`, `timeout 60`, `env X=1`, `nice`, `time`,
//! subshell parentheses, comment lines). And the two judgements every learner needs:
//! which commands only look (diagnostics) and which destroy (never advice).

/// One simple command of a line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Command {
    /// `NAME=value` assignments before the program (wrapper `env` ones included).
    pub env: Vec<String>,
    /// The program as written (`pnpm`, `.venv/bin/pytest`, `./gradlew`).
    pub program: String,
    pub args: Vec<String>,
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
    )
}

fn is_word(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':' || c == '_')
}

/// Wrappers that run the rest of the line: looked through.
const WRAPPERS: &[&str] = &[
    "sudo",
    "doas",
    "timeout",
    "env",
    "nice",
    "nohup",
    "time",
    "command",
    "exec",
    "stdbuf",
    "ionice",
    "caffeinate",
];

/// Splits a line into its simple commands, wrappers and comments removed. `cd` and
/// `source` stay (they matter to what follows); empty pieces go.
pub fn parse(line: &str) -> Vec<Command> {
    let mut out = Vec::new();
    for segment in segments(line) {
        if let Some(cmd) = simple(&segment) {
            out.push(cmd);
        }
    }
    out
}

/// The command that does the work: the last one that is neither a directory change, an
/// environment set-up (`source`, `export`) nor an `echo`.
pub fn primary(commands: &[Command]) -> Option<&Command> {
    commands
        .iter()
        .rev()
        .find(|c| !is_setup(c) && c.tool() != "echo" && c.tool() != "true")
        .or(commands.last())
}

/// `cd`, `source`, `.`, `export`, `set`: commands that only prepare the shell.
pub fn is_setup(cmd: &Command) -> bool {
    matches!(
        cmd.tool(),
        "cd" | "source" | "." | "export" | "set" | "pushd" | "popd"
    )
}

/// Splits on unquoted `&&`, `||`, `;`, `|`, `&` and new lines; drops comment lines.
fn segments(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let (mut quote, mut depth) = (None::<char>, 0usize);
    let mut chars = line.chars().peekable();
    let mut at_line_start = true;
    while let Some(c) = chars.next() {
        if quote.is_none() && at_line_start && c == '#' {
            // A comment line: skip to its end.
            for n in chars.by_ref() {
                if n == '\n' {
                    break;
                }
            }
            continue;
        }
        at_line_start = false;
        match (quote, c) {
            (Some(q), _) if c == q => {
                quote = None;
                current.push(c);
            }
            (Some(_), _) => current.push(c),
            (None, '\'' | '"' | '`') => {
                quote = Some(c);
                current.push(c);
            }
            (None, '$') if chars.peek() == Some(&'(') => {
                depth += 1;
                current.push(c);
            }
            (None, ')') if depth > 0 => {
                depth -= 1;
                current.push(c);
            }
            (None, '\\') => {
                if let Some(n) = chars.next().filter(|n| *n != '\n') {
                    current.push(c);
                    current.push(n);
                }
            }
            // `2>&1`, `&>file`, `>|`: redirections, not separators.
            (None, '&' | '|') if current.ends_with('>') || chars.peek() == Some(&'>') => {
                current.push(c);
            }
            (None, '&' | '|' | ';' | '\n') if depth == 0 => {
                if c == '\n' {
                    at_line_start = true;
                }
                if matches!(c, '&' | '|') && chars.peek() == Some(&c) {
                    chars.next();
                }
                out.push(std::mem::take(&mut current));
            }
            _ => current.push(c),
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Shell words of one simple command, quotes removed.
fn words(segment: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote = None::<char>;
    let mut depth = 0usize;
    let mut started = false;
    let mut chars = segment.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => current.push(c),
            (None, '\'' | '"') if depth == 0 => {
                quote = Some(c);
                started = true;
            }
            (None, '$') if chars.peek() == Some(&'(') => {
                depth += 1;
                current.push(c);
                started = true;
            }
            (None, ')') if depth > 0 => {
                depth -= 1;
                current.push(c);
            }
            (None, c) if c.is_whitespace() && depth == 0 => {
                if started {
                    out.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            _ => {
                current.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(current);
    }
    out
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// One simple command with its wrappers taken off.
fn simple(segment: &str) -> Option<Command> {
    let segment = segment
        .trim()
        .trim_start_matches(['(', '{'])
        .trim_end_matches([')', '}'])
        .trim();
    let mut words = words(segment).into_iter().peekable();
    let mut cmd = Command::default();
    loop {
        let word = words.peek()?.clone();
        if is_assignment(&word) {
            cmd.env.push(word);
            words.next();
            continue;
        }
        let tool = word.rsplit('/').next().unwrap_or(&word).to_string();
        if WRAPPERS.contains(&tool.as_str()) {
            words.next();
            // The wrapper's own options and numbers (`timeout -s KILL 60`, `nice -n 5`).
            while let Some(next) = words.peek() {
                let takes_value = matches!(next.as_str(), "-s" | "-n" | "-u" | "-k" | "-c");
                if next.starts_with('-')
                    || next.chars().all(|c| c.is_ascii_digit() || c == '.')
                    || next.ends_with(['s', 'm']) && next[..next.len() - 1].parse::<f64>().is_ok()
                {
                    words.next();
                    if takes_value {
                        words.next();
                    }
                } else {
                    break;
                }
            }
            continue;
        }
        break;
    }
    cmd.program = words.next()?;
    // Redirections say where output goes, not what runs.
    let mut args = Vec::new();
    let mut skip_target = false;
    for word in words {
        if skip_target {
            skip_target = false;
            continue;
        }
        let redirect = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&');
        if redirect.starts_with(['>', '<']) {
            skip_target = redirect.trim_start_matches(['>', '<', '&', '|']).is_empty()
                && !redirect.ends_with('&');
            if redirect.ends_with('&') || redirect.contains(">&") {
                skip_target = false;
            }
            continue;
        }
        args.push(word);
    }
    cmd.args = args;
    Some(cmd)
}

/// Commands that only look: they never fix anything, so they are never learned as a
/// fix (a failure followed by `ls` and then the real fix is about the real fix).
pub fn is_diagnostic(cmd: &Command) -> bool {
    /// Options that make any tool list or describe instead of act.
    const LISTING: &[&str] = &[
        "--markers",
        "--collect-only",
        "--co",
        "--fixtures",
        "--list",
        "--help",
        "--version",
        "--dry-run",
        "--list-tests",
    ];
    if cmd.flags().any(|f| LISTING.contains(&f)) {
        return true;
    }
    let verb = cmd.verb().unwrap_or("");
    match cmd.tool() {
        "ls" | "ll" | "cat" | "head" | "tail" | "less" | "more" | "pwd" | "tree" | "wc"
        | "which" | "whereis" | "type" | "file" | "stat" | "du" | "df" | "find" | "grep" | "rg"
        | "ag" | "fd" | "echo" | "printf" | "env" | "printenv" | "id" | "whoami" | "uname"
        | "hostname" | "date" | "ps" | "top" | "htop" | "lsof" | "netstat" | "ss"
        | "journalctl" | "dmesg" | "diff" | "sleep" | "true" | "jq" | "realpath" | "readlink"
        | "basename" | "dirname" | "history" | "man" | "free" | "uptime" => true,
        "git" => {
            matches!(
                verb,
                "status"
                    | "diff"
                    | "log"
                    | "show"
                    | "branch"
                    | "remote"
                    | "rev-parse"
                    | "blame"
                    | "ls-files"
                    | "describe"
                    | "reflog"
                    | "config"
            ) && (verb != "config"
                || cmd
                    .args
                    .iter()
                    .any(|a| a == "--get" || a == "--list" || a == "-l")
                || cmd.words().count() == 2)
        }
        "systemctl" | "service" => matches!(verb, "status" | "is-active" | "list-units" | "show"),
        "docker" if verb == "compose" => {
            matches!(
                cmd.words().nth(1),
                Some("ps" | "logs" | "config" | "version")
            )
        }
        "docker" | "podman" => matches!(
            verb,
            "info" | "ps" | "images" | "inspect" | "logs" | "version" | "stats" | "top"
        ),
        "docker-compose" => matches!(verb, "ps" | "logs" | "config" | "version"),
        "kubectl" => matches!(
            verb,
            "get" | "describe" | "logs" | "top" | "explain" | "version"
        ),
        "helm" => matches!(verb, "list" | "status" | "history" | "get" | "version"),
        "terraform" => {
            matches!(
                verb,
                "show" | "output" | "version" | "state" | "validate" | "fmt"
            ) && cmd.words().nth(1) != Some("rm")
        }
        "npm" | "pnpm" | "yarn" => matches!(
            verb,
            "ls" | "list" | "view" | "info" | "outdated" | "why" | "config"
        ),
        "pip" | "pip3" => matches!(verb, "list" | "show" | "freeze" | "check"),
        "cargo" => matches!(verb, "tree" | "metadata" | "--version" | "search"),
        "go" => matches!(verb, "env" | "version" | "list"),
        "gh" => {
            matches!(verb, "status")
                || cmd.words().nth(1) == Some("view")
                || cmd.words().nth(1) == Some("list")
        }
        "op" => matches!(verb, "whoami" | "account") || cmd.words().nth(1) == Some("list"),
        _ => {
            cmd.flags()
                .all(|f| f == "--version" || f == "-V" || f == "--help" || f == "-h")
                && cmd.flags().next().is_some()
                && cmd.words().next().is_none()
        }
    }
}

/// Commands that destroy data or history. Never advice, whatever they followed.
pub fn is_destructive(cmd: &Command) -> bool {
    let verb = cmd.verb().unwrap_or("");
    let has = |f: &str| cmd.args.iter().any(|a| a == f);
    let short_has = |c: char| {
        cmd.args
            .iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
    };
    let text = cmd.text().to_ascii_lowercase();
    match cmd.tool() {
        "rm" => short_has('r') || short_has('f') || has("--recursive") || has("--force"),
        "rmdir" | "shred" | "wipefs" | "mkfs" | "fdisk" | "parted" | "dd" | "truncate" | "srm" => {
            true
        }
        t if t.starts_with("mkfs.") => true,
        "git" => match verb {
            "push" => {
                short_has('f')
                    || cmd
                        .flags()
                        .any(|f| f.starts_with("--force") || f == "--delete" || f == "--mirror")
                    || cmd
                        .words()
                        .any(|w| w.starts_with('+') || w.starts_with(':'))
            }
            "reset" => has("--hard") || has("--merge") || has("--keep"),
            "clean" => short_has('f') || has("--force"),
            "checkout" | "restore" => {
                has("--")
                    || has(".")
                    || short_has('f')
                    || has("--force")
                    || has("--staged") && has("--worktree")
            }
            "branch" => short_has('D') || has("--delete") && has("--force"),
            "stash" => matches!(cmd.words().nth(1), Some("drop" | "clear")),
            "filter-branch" | "filter-repo" => true,
            "rm" => true,
            "submodule" => cmd.words().nth(1) == Some("deinit"),
            "reflog" => cmd.words().nth(1) == Some("expire"),
            "gc" => has("--prune=now"),
            _ => false,
        },
        "docker" | "podman" => {
            matches!(verb, "rm" | "rmi" | "prune")
                || matches!(
                    (verb, cmd.words().nth(1)),
                    (
                        "volume" | "system" | "image" | "container" | "network" | "builder",
                        Some("rm" | "prune" | "remove")
                    )
                )
                || verb == "compose"
                    && cmd.words().nth(1) == Some("down")
                    && (has("-v") || has("--volumes"))
        }
        "docker-compose" => verb == "down" && (has("-v") || has("--volumes")) || verb == "rm",
        "kubectl" => matches!(verb, "delete" | "drain") || verb == "replace" && has("--force"),
        "helm" => matches!(verb, "uninstall" | "delete"),
        "terraform" | "tofu" => {
            verb == "destroy"
                || verb == "state" && cmd.words().nth(1) == Some("rm")
                || has("-destroy")
        }
        "op" | "bw" | "vault" | "aws" | "gcloud" | "az" | "gh" => {
            cmd.words()
                .any(|w| matches!(w, "delete" | "rm" | "remove" | "destroy" | "purge"))
                || text.contains(" rb ")
                || text.contains("secretsmanager delete")
        }
        "dropdb" | "dropuser" => true,
        "psql" | "mysql" | "sqlite3" | "mongo" | "mongosh" | "redis-cli" | "sqlcmd"
        | "clickhouse-client" => {
            text.contains("drop ")
                || text.contains("truncate ")
                || text.contains("delete from")
                || text.contains("flushall")
                || text.contains("flushdb")
                || text.contains("dropdatabase")
        }
        "npm" | "pnpm" | "yarn" => {
            verb == "cache" && cmd.words().nth(1) == Some("clean") || verb == "unpublish"
        }
        "uv" | "pip" | "pip3" | "poetry" | "conda" => {
            verb == "cache" && matches!(cmd.words().nth(1), Some("clean" | "purge" | "clear"))
                || verb == "uninstall" && short_has('y')
                || verb == "env" && cmd.words().nth(1) == Some("remove")
        }
        "chmod" | "chown" => {
            short_has('R')
                && cmd
                    .words()
                    .any(|w| w == "/" || w == "~" || w.starts_with("/etc") || w.starts_with("/usr"))
        }
        "find" => has("-delete") || text.contains("-exec rm"),
        "xargs" => cmd.words().next() == Some("rm"),
        "pg_dropcluster" => true,
        _ => {
            text.contains("drop database")
                || text.contains("drop table")
                || text.contains("drop schema")
                || cmd.flags().any(|f| f == "--force-delete" || f == "--purge")
        }
    }
}

/// Whether any command of the line destroys something.
pub fn line_is_destructive(line: &str) -> bool {
    parse(line).iter().any(is_destructive)
}

/// Whether every command of the line only looks.
pub fn line_is_diagnostic(line: &str) -> bool {
    let cmds = parse(line);
    !cmds.is_empty() && cmds.iter().all(|c| is_diagnostic(c) || is_setup(c))
}

#[cfg(test)]
mod tests;
