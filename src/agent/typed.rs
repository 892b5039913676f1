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
        let indented = line.starts_with("    ") || line.starts_with('\t');
        if trimmed.starts_with('>') || indented || log_shaped().is_match(line) {
            continue;
        }
        out.push(line);
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::typed_words;

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
        // Plain typed rules stay.
        assert_eq!(
            typed_words("don't use npm, use pnpm"),
            "don't use npm, use pnpm"
        );
    }
}
