//! Reading a command line the way the shell does: its pieces between `&&`, `||`, `;`,
//! `|` and new lines (each with the separator that ended it), here-document bodies set
//! aside, shell keywords taken off, and the words of one simple command with quotes,
//! wrappers and redirections removed.

use super::Command;

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

/// The line without the bodies of its here-documents (`python3 - <<'EOF'` … `EOF`):
/// they are a program's input, not commands. A body fed to a shell (`bash <<EOF`,
/// `ssh host <<EOF`) is commands, and stays.
pub(super) fn without_heredoc_bodies(line: &str) -> std::borrow::Cow<'_, str> {
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
pub(super) fn keywords_off(segment: &str) -> Option<&str> {
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

/// Splits on unquoted `&&`, `||`, `;`, `|`, `&` and new lines; drops comment lines.
/// Each piece comes with the separator that ended it (`Some('|')` for a pipe, not `||`).
pub(super) fn segments(line: &str) -> Vec<(String, Option<char>)> {
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
pub(super) fn simple(segment: &str) -> Option<Command> {
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
