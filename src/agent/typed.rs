//! What the user typed in a prompt, as opposed to what they pasted into it: fenced
//! blocks, quoted and indented blocks, log- and shell-shaped lines, and a pasted
//! document (from its first heading on). Only typed words can become the user's rule; a
//! pasted README's "Run `npm install`" or a CI log's "use --force" is someone else's.

use std::sync::OnceLock;

use regex::Regex;

/// Lines that look like output or code, not a person's sentence.
fn log_shaped() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        let shapes = [
            r"\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}", // a timestamp
            r"\[?\d{2}:\d{2}:\d{2}",
            r"\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL)\b[\]: ]",
            r"at\s+\S+\s+\(.*:\d+",         // a JS stack frame
            r#"File\s+".*",\s+line\s+\d+"#, // a Python frame
            r"Traceback\b",
            r"(?:npm|yarn|pnpm)\s+(?:ERR|WARN)",
            r"(?:error|warning|note|help)(?:\[\w+\])?:",
            r"-->\s",
            r"\d+\s*\|", // a numbered source line
            r"\$\s+\S",  // a shell prompt
            r"[\w.-]+@[\w.-]+:\S*\s*[$%]\s",
            r"PS\s+[A-Z]:\\",
            r"[{}\[\]<>()|;]+\s*$",    // punctuation alone
            r"\+{3}|-{3}\s|@@\s",      // a diff
            r"\[\d{4}-\d{2}-\d{2}",    // a bracketed timestamp
            r"\[[A-Z][A-Z0-9_]{2,}\]", // a build phase tag (`[INSTALL_PODS]`)
            r"\S+\s{3,}\S",            // column-aligned output
        ];
        Regex::new(&format!(r"^\s*(?:{})", shapes.join("|"))).expect("a valid pattern")
    })
}

/// The mark under which Claude Code's screen shows a call's result.
const UI_RESULT: char = '⎿';

/// The prompt without what was pasted into it; lines kept in order.
pub fn typed_words(prompt: &str) -> String {
    let lines: Vec<&str> = prompt.lines().collect();
    let long = lines.iter().filter(|l| !l.trim().is_empty()).count() > 4;
    let mut out: Vec<&str> = Vec::new();
    let mut fence: Option<&str> = None;
    let mut in_output = false;
    for line in &lines {
        let trimmed = line.trim_start();
        if let Some(marker) = fence {
            if trimmed.starts_with(marker) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            continue;
        }
        // A pasted document: its first heading and all that follows.
        if long && trimmed.starts_with('#') && trimmed.trim_start_matches('#').starts_with(' ') {
            break;
        }
        // A shell prompt line and the output after it, up to a blank line.
        if trimmed.starts_with("$ ") || trimmed.starts_with("% ") || trimmed.starts_with("> $") {
            in_output = true;
        }
        if in_output {
            if trimmed.is_empty() {
                in_output = false;
            }
            continue;
        }
        // Claude Code's own screen pasted back: `⏺ Bash(…)` or a line it ran, and its
        // result under `⎿`.
        if trimmed.starts_with(UI_RESULT) {
            if out.last().is_some_and(|l| !l.trim().is_empty()) {
                out.pop();
            }
            continue;
        }
        let indented = line.starts_with("    ") || line.starts_with('\t');
        if trimmed.starts_with(['>', '⏺']) || indented || log_shaped().is_match(line) {
            continue;
        }
        out.push(line);
    }
    out.join("\n")
}

/// The line a person reads as what was asked (a session's title, its "Asked:" list):
/// the first line, when it is a sentence. A prompt that opens with pasted lines (a
/// shell prompt, a log) and holds a failure is named by the line that says what failed,
/// marked as pasted, after the user's few words if any ("why?"); else by the first
/// full sentence the user typed; else by its first line.
pub fn request_line(prompt: &str) -> Option<String> {
    let mut lines = prompt.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    // A line with a result under it was pasted from Claude Code's screen.
    let answered = lines.next().is_some_and(|l| l.starts_with(UI_RESULT));
    if is_a_sentence(first, 3) && !answered {
        return Some(first.to_string());
    }
    let typed = typed_words(prompt);
    let own: Vec<&str> = typed
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let lines = prompt.lines().filter(|l| !l.trim().is_empty()).count();
    if let Some(failure) = crate::agent::signature::failing_line(prompt).filter(|_| lines >= 3) {
        let pasted = crate::agent::signature::quotable(failure, 80);
        // The user's few words ask about the paste ("why?", "look:") or close it.
        let last = prompt.lines().map(str::trim).rfind(|l| !l.is_empty());
        let words = |l: &str| l.split_whitespace().count();
        let few = own.first().filter(|l| {
            *l != &failure
                && words(l) < 3
                && words(l) == alphabetic_words(l)
                && (l.ends_with(['?', ':']) || Some(**l) == last)
        });
        return Some(match few {
            Some(few) => format!("{few} (pasted: {pasted})"),
            None => format!("(pasted) {pasted}"),
        });
    }
    let sentence = own.iter().find(|l| is_a_sentence(l, 5)).copied();
    Some(match sentence {
        Some(sentence) => sentence.to_string(),
        // Nothing typed at all: the paste's first line, marked as the paste it is.
        None if own.is_empty() => {
            format!("(pasted) {}", crate::agent::signature::quotable(first, 80))
        }
        None => first.to_string(),
    })
}

/// Words that begin with a letter and hold only letters, once quotes, brackets and
/// closing punctuation are set aside (`don't`, `` `cargo ``, "CI," count; `-s`,
/// `$TOKEN`, `v0.3.1`, `src/lib.rs` do not).
fn alphabetic_words(line: &str) -> usize {
    line.split_whitespace()
        .map(|w| {
            w.trim_start_matches(['"', '\'', '`', '(', '[', '{', '*', '_'])
                .trim_end_matches([
                    '.', ',', ';', ':', '!', '?', '"', '\'', '`', ')', ']', '}', '*', '_',
                ])
        })
        .filter(|w| w.starts_with(char::is_alphabetic))
        .filter(|w| {
            w.chars()
                .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
        })
        .count()
}

/// A line a person wrote: `min` words or more, three in four of them words of letters
/// (a log line is paths, versions, flags and numbers between its words), the first a
/// word too (`fatal:`, `go:`, `api_test.go:582:21:` open a program's line), no column
/// bar. Or a line of Chinese or Japanese, which has no spaces to count by.
fn is_a_sentence(line: &str, min: usize) -> bool {
    if line.chars().filter(|c| crate::text::unspaced(*c)).count() >= 4 {
        return true;
    }
    let words = line.split_whitespace().count();
    let opens = line
        .split_whitespace()
        .next()
        .is_some_and(|w| !w.ends_with(':') && alphabetic_words(w) == 1);
    opens
        && words >= min
        && alphabetic_words(line) * 4 >= words * 3
        && !line.split_whitespace().any(|w| w == "|")
}

#[cfg(test)]
mod tests {
    use super::{request_line, typed_words};

    #[test]
    fn a_request_is_named_by_what_the_user_typed() {
        let line = |p: &str| request_line(p).unwrap_or_default();
        assert_eq!(line("fix the parser\nit drops the sign"), "fix the parser");
        assert_eq!(
            line(
                "go: downloading golang.org/x/sys v0.0.0\ngo: downloading github.com/google/go-cmp v0.5.8\n• linting\napi.go:1: : # github.com/acme/api\napi_test.go:44:3: cannot use mock (variable of type *MockProducer) as ProducerService value\napi_test.go:582:21: too many errors (typecheck)\n"
            ),
            "(pasted) api_test.go:44:3: cannot use mock (variable of type *MockProducer) as…"
        );
        assert_eq!(
            line(
                "[me@host ~/src/app main !19]\n[128]$ gcm\nfatal: Unable to create '/src/app/.git/index.lock': File exists.\n"
            ),
            "(pasted) fatal: Unable to create '/src/app/.git/index.lock': File exists."
        );
        assert_eq!(
            line("```\nerror[E0432]: unresolved import `crate::csv`\n```\nwhy?"),
            "why? (pasted: error[E0432]: unresolved import `crate::csv`)"
        );
        assert_eq!(
            line(
                "the export test fails on CI only:\n```\nthread 'export' panicked at tests/it.rs:61:10\n```"
            ),
            "the export test fails on CI only:"
        );
        assert_eq!(line("  \n"), "");
        assert_eq!(
            line(
                " Ran 1 stop hook\n  ⎿  Stop hook error: Failed with non-blocking status code: /bin/sh: notify-send: command not found\n\nlets fix this"
            ),
            "(pasted) Stop hook error: Failed with non-blocking status code: /bin/sh: notify-send…"
        );
        assert_eq!(
            line("$ make build\nBuilding 42 targets\nDone in 3.2s\n"),
            "(pasted) $ make build"
        );
        assert_eq!(
            line(
                "$ make decrypt-secrets\nExiting...\nFATAL: Failed to decrypt ./server/.env\nmake: *** [decrypt] Error 1"
            ),
            "(pasted) FATAL: Failed to decrypt ./server/.env"
        );
        // A request that names files is still the user's (no failure pasted).
        assert_eq!(
            line("update src/lib.rs and src/main.rs"),
            "update src/lib.rs and src/main.rs"
        );
        assert_eq!(
            line("`ledger tags` lists everything now, do the docs"),
            "`ledger tags` lists everything now, do the docs"
        );
    }

    #[test]
    fn pastes_are_set_aside_and_typed_words_kept() {
        let prompt = "the build fails, never use --force here\n```\nnpm ERR! use --force to override\nRun `npm install --legacy-peer-deps`\n```\nplease fix it";
        let typed = typed_words(prompt);
        assert!(typed.contains("never use --force here"), "{typed}");
        assert!(typed.contains("please fix it"));
        assert!(!typed.contains("legacy-peer-deps"), "{typed}");
        let log = "why does this happen?\n2026-03-01 12:00:01 ERROR always restart the worker\n    at run (src/x.js:12:3)\n> Use yarn instead of npm";
        let typed = typed_words(log);
        assert!(!typed.contains("restart"), "{typed}");
        assert!(!typed.contains("yarn"), "{typed}");
        let readme = "here is the readme, set it up\n\n# Setup\n\nAlways run `make bootstrap` first.\nUse Node 18.\n\n## Tests\n\nNever run the e2e suite locally.\nRun `make test`.\n";
        let typed = typed_words(readme);
        assert!(typed.contains("set it up"));
        assert!(
            !typed.contains("bootstrap") && !typed.contains("e2e"),
            "{typed}"
        );
        // An unclosed fence (a paste cut at the observation's size) hides the rest.
        assert!(!typed_words("look:\n```\nalways use sudo").contains("sudo"));
        // Claude Code's screen pasted back: the call, its result, and the agent's bullet.
        let screen = "⏺ Bash(npm test)\n  ⎿  Error: always run npm ci first\nRun the migrations before the tests\n  ⎿  Done\n⏺ Always restart the worker after a deploy.\nwhy did it fail?";
        assert_eq!(typed_words(screen), "why did it fail?");
        // Plain typed rules stay.
        assert_eq!(
            typed_words("don't use npm, use pnpm"),
            "don't use npm, use pnpm"
        );
    }
}
