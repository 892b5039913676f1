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

/// The line without the bodies of its here-documents (`python3 - <<'EOF'` … `EOF`):
/// they are a program's input, not commands. A body fed to a shell (`bash <<EOF`,
/// `ssh host <<EOF`) is commands, and stays.
fn without_heredoc_bodies(line: &str) -> std::borrow::Cow<'_, str> {
    static OPENER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let opener = OPENER.get_or_init(|| {
        regex::Regex::new(r#"<<(-?)\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?"#)
            .expect("a valid pattern")
    });
    if !line.contains("<<") {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut pending: Vec<(String, bool)> = Vec::new();
    for text in line.split_inclusive('\n') {
        if let Some((delimiter, dash)) = pending.first() {
            let body = if *dash {
                text.trim()
            } else {
                text.trim_end_matches(['\n', '\r'])
            };
            if body == delimiter {
                pending.remove(0);
            }
            continue;
        }
        out.push_str(text);
        for c in opener.captures_iter(text) {
            let Some(m) = c.get(0) else { continue };
            if text[m.end()..].starts_with('<') || text[..m.start()].ends_with('<') {
                continue; // `<<<`, a here-string
            }
            let shell_reads_it = text[..m.start()].split_whitespace().any(|w| {
                matches!(
                    w.rsplit('/').next().unwrap_or(w),
                    "bash" | "sh" | "zsh" | "dash" | "ksh" | "fish" | "ssh"
                )
            });
            if shell_reads_it {
                continue;
            }
            pending.push((c[2].to_string(), !c[1].is_empty()));
        }
    }
    out.into()
}

/// A segment without the shell keyword in front of its command (`do make` → `make`,
/// `if grep -q x f` → `grep -q x f`), or `None` for a segment that runs nothing itself:
/// a loop header (`for f in *.png`), `done`, `fi`, `esac`, `then` alone.
fn keywords_off(segment: &str) -> Option<&str> {
    const LEADING: &[&str] = &[
        "do", "then", "else", "elif", "if", "while", "until", "!", "{",
    ];
    let mut rest = segment.trim();
    loop {
        let first = rest.split_whitespace().next()?;
        if matches!(first, "for" | "select" | "case" | "function") {
            return None;
        }
        if matches!(first, "done" | "fi" | "esac" | "}" | ";;") {
            return None;
        }
        if LEADING.contains(&first) {
            rest = rest[first.len()..].trim_start();
            continue;
        }
        return Some(rest);
    }
}

/// The command that does the work: the last one that is neither a directory change, an
/// environment set-up (`source`, `export`) nor an `echo`.
pub fn primary(commands: &[Command]) -> Option<&Command> {
    commands
        .iter()
        .rev()
        .find(|c| !c.filters && !is_setup(c) && c.tool() != "echo" && c.tool() != "true")
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
        .filter(|c| !c.filters && !is_setup(c) && c.tool().len() > 1)
        .find(|c| {
            let t = c.tool().to_ascii_lowercase();
            lower.starts_with(&format!("{t}:"))
                || lower.contains(&format!("\n{t}:"))
                || lower.contains(&format!("| {t}:"))
                || lower.contains(&format!("not found: {t}"))
                || lower.contains(&format!("{t}: command not found"))
                || lower.contains(&format!("{t}: not found"))
        })
        .or_else(|| primary(commands))
}

/// `cd`, `source`, `.`, `export`, `set`: commands that only prepare the shell.
pub fn is_setup(cmd: &Command) -> bool {
    matches!(
        cmd.tool(),
        "cd" | "source" | "." | "export" | "set" | "pushd" | "popd"
    )
}

/// Splits on unquoted `&&`, `||`, `;`, `|`, `&` and new lines; drops comment lines.
/// Each piece comes with the separator that ended it (`Some('|')` for a pipe, not `||`).
fn segments(line: &str) -> Vec<(String, Option<char>)> {
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
                let mut sep = Some(c);
                if matches!(c, '&' | '|') && chars.peek() == Some(&c) {
                    chars.next();
                    sep = None;
                }
                out.push((std::mem::take(&mut current), sep));
            }
            _ => current.push(c),
        }
    }
    out.push((current, None));
    out.into_iter()
        .map(|(s, sep)| (s.trim().to_string(), sep))
        .filter(|(s, _)| !s.is_empty())
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
        // `command -v x` asks where x is; `command x` runs it.
        let asks =
            tool == "command" && words.clone().nth(1).is_some_and(|w| w == "-v" || w == "-V");
        if WRAPPERS.contains(&tool.as_str()) && !asks {
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

mod judge;

pub use judge::*;

#[cfg(test)]
mod tests;
