//! How a failed tool call reads: who stopped it (the user, a permission, the tool
//! refusing its input) or how it failed, in the shape each Claude Code era spells it;
//! the lines of a failure that say what failed; and output that says nothing happened.

use super::{Outcome, bounded};

/// How the Claude Code that wrote a failure spells it. Since 2.0 a failing Bash command
/// always starts `Exit code N` and the file tools wrap their refusals in
/// `<tool_use_error>`, so a bare sentence in their place is the feedback the user typed
/// when rejecting the call. Before 2.0 a failing command's output stood alone, so a bare
/// sentence there is the tool's and never the user's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 1.x transcripts.
    Early,
    /// 2.0 and later, and every live hook.
    Current,
}

impl Era {
    /// The era of a Claude Code version string (`1.0.24`, `2.1.150`); none is current.
    pub fn of(version: Option<&str>) -> Era {
        match version.and_then(|v| v.split('.').next()?.trim().parse::<u32>().ok()) {
            Some(major) if major < 2 => Era::Early,
            _ => Era::Current,
        }
    }
}

/// Classifies a failed call from Claude Code's error text. Returns the outcome and,
/// for a rejection, the user's words.
pub fn classify_failure(tool: &str, text: &str) -> (Outcome, Option<String>) {
    classify_failure_in(tool, text, Era::Current)
}

/// [`classify_failure`] for a failure written by Claude Code of `era`.
pub fn classify_failure_in(tool: &str, text: &str, era: Era) -> (Outcome, Option<String>) {
    let t = text.trim();
    let t = t.strip_prefix("Error: ").unwrap_or(t);
    const REJECTED: &str = "The user doesn't want to proceed with this tool use.";
    const REJECTED_NOW: &str = "The user doesn't want to take this action right now.";
    // Calls made alongside one the user rejected are cancelled with it, not judged.
    if t.starts_with(REJECTED_NOW) && !t.contains("the user said:") {
        return (Outcome::Blocked, None);
    }
    if t.starts_with(REJECTED) || t.starts_with(REJECTED_NOW) {
        // The user's words follow one of these, depending on Claude Code's version.
        let said = [
            "the user said:",
            "reason for the rejection:",
            "the user provided:",
        ]
        .iter()
        .find_map(|marker| t.split_once(marker))
        .map(|(_, words)| words.trim().to_string())
        .filter(|w| !w.is_empty());
        return (Outcome::Rejected, said);
    }
    if t.starts_with("[Request interrupted by user") {
        return (Outcome::Blocked, None);
    }
    let lower = t.to_ascii_lowercase();
    if lower.contains("requires approval")
        || lower.contains("haven't granted it yet")
        || lower.contains("permission to use")
        || lower.contains("was blocked. for security")
        || lower.starts_with("claude requested permissions")
        || lower.contains("permission denied by")
        || lower.contains("auto mode")
        || lower.contains("auto-mode")
        || lower.contains("classifier")
    {
        return (Outcome::Denied, None);
    }
    if t.starts_with("<tool_use_error>")
        || lower.starts_with("file has not been read yet")
        || lower.starts_with("string to replace not found")
        || lower.starts_with("found ") && lower.contains("matches of the string to replace")
        || lower.starts_with("file has been modified since read")
        || lower.starts_with("no such tool available")
        || lower.starts_with("file does not exist")
        || lower.starts_with("old_string and new_string are exactly the same")
    {
        return (Outcome::ToolError, None);
    }
    if era == Era::Current && is_users_words(tool, t) {
        return (Outcome::Rejected, Some(t.to_string()));
    }
    (Outcome::Error, None)
}

/// Newer Claude Code versions put a rejected call's feedback alone in the error: a short
/// sentence of a person, not the output of a tool.
fn is_users_words(tool: &str, text: &str) -> bool {
    const TOOL_WORDS: &[&str] = &[
        "error",
        "exception",
        "traceback",
        "failed",
        "failure",
        "not found",
        "no such",
        "denied",
        "cannot",
        "can't",
        "could not",
        "unable",
        "exit code",
        "exit status",
        "fatal",
        "warning",
        "panic",
        "invalid",
        "refused",
        "timed out",
        "usage:",
        "errno",
        "undefined",
        "unknown",
        "missing",
        "expected",
        "syntax",
    ];
    let lower = text.to_ascii_lowercase();
    let words = text.split_whitespace().count();
    crate::agent::tool::Tool::of(tool).spells_its_failures()
        && !text.contains('\n')
        && (3..=80).contains(&words)
        && text.starts_with(|c: char| c.is_alphabetic())
        && !TOOL_WORDS.iter().any(|w| lower.contains(w))
        && !text.contains(['{', '}', '=', '$', '<', '>', '|', '\t'])
}

/// The lines of a failure that say what failed: exit codes, `error:` lines, panics,
/// exception names, failed assertions. Real test output puts the cause far from the
/// start, so the first characters are not enough.
pub fn error_excerpt(text: &str, max: usize) -> String {
    const SIGNALS: &[&str] = &[
        // Advice the tool itself gives: often the whole lesson.
        "hint:",
        "help:",
        "did you mean",
        "to fix",
        "try:",
        "try running",
        "use \"",
        "use `",
        "please run",
        "run \"",
        "run `",
        "only-allow",
        "externally-managed",
        "exit code",
        "exit status",
        "error:",
        "error[",
        "panicked",
        "exception",
        "traceback",
        "failed",
        "failure",
        "fatal:",
        "assert",
        "not found",
        "no such file",
        "permission denied",
        "cannot",
        "could not",
        "refused",
        "timed out",
        "timeout",
        "undefined",
        "***",
        "no rule",
        "denied",
        "unknown",
        "invalid",
    ];
    let mut picked: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // A remedy announced on a line of its own ("Run", "To fix this, run:") is spelled
    // out on the indented lines after it: they are the lesson (git's own
    // `git config --global user.email …`).
    let mut remedy_lines = 0u8;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let lower = line.to_ascii_lowercase();
        let announces = matches!(
            lower.trim_end_matches([':', '.']),
            "run" | "try" | "to fix this, run" | "please run" | "you can run" | "run this"
        ) || lower.ends_with(", run:");
        let signal = SIGNALS.iter().any(|s| lower.contains(s)) || remedy_lines > 0;
        if signal && seen.insert(line) {
            picked.push(line);
        }
        remedy_lines = if announces {
            2
        } else {
            remedy_lines.saturating_sub(1)
        };
    }
    // An exit code alone says little: the last lines of the output usually say why.
    if picked
        .iter()
        .all(|l| l.to_ascii_lowercase().starts_with("exit code"))
    {
        let tail: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !picked.contains(l))
            .collect();
        picked.extend(tail.iter().rev().take(2).rev());
    }
    let joined = if picked.is_empty() {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    } else {
        picked.join(" | ")
    };
    bounded(&joined, max)
}

/// Whether a command's output says it did nothing: the state was already what was asked
/// for, or the work only started in the background.
pub fn says_nothing_happened(output: &str) -> bool {
    const NOTHING: &[&str] = &[
        "everything up-to-date",
        "already up to date",
        "already up-to-date",
        "requirement already satisfied",
        "is already the newest version",
        "0 upgraded, 0 newly installed",
        "is already installed",
        "already installed and up-to-date",
        "nothing to commit",
        "nothing added to commit",
        "no changes added to commit",
        "nothing to do",
        "up to date, audited",
        "running in background",
        "command running in background",
        "no changes detected",
        "no changes to apply",
        "already exists, skipping",
        "is already running",
    ];
    let head: String = crate::text::clip_chars(output, 4_000).to_ascii_lowercase();
    // A command that reports its own failure (`…; echo "exit=$?"` printing `exit=124`)
    // passed only as far as the shell is concerned. (A container listing's `Exit 1`
    // column is no such report.)
    static FAILED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let failed = || {
        FAILED.get_or_init(|| {
            regex::Regex::new(
                r"\b(?:exit\s+(?:code|status)\s*[=:]?\s*|exit\s*=\s*|rc\s*=\s*)[1-9][0-9]*\b",
            )
            .expect("a valid pattern")
        })
    };
    NOTHING.iter().any(|n| head.contains(n))
        || ((head.contains("exit") || head.contains("rc=")) && failed().is_match(&head))
}
