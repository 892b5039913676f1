//! What a client sends to log in, as a trace of the wire shows it (`strace`, `tcpdump
//! -A`, Redis's `MONITOR`, a mail client's debug log): Redis's `AUTH pw` (`AUTH user pw`,
//! and in its protocol `AUTH\r\n$24\r\npw`), IMAP's `a1 LOGIN user pw`, POP3's and FTP's
//! `PASS pw`, SMTP's `AUTH PLAIN <base64>`. The command is in capitals; its last
//! argument is the secret.

use std::sync::OnceLock;

use regex::Regex;

/// A command and its one or two arguments, with what separates them on the wire
/// (spaces, an escaped line break, a length prefix, quotes between arguments). The
/// command starts a word, or follows an escaped line break (Redis's protocol).
fn command() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r#"(?:\b|\\n)(?:AUTH|LOGIN|PASS)"?(?:(?:\\r\\n|[ \t]|"[ \t]+"|\$\d+)+"?[^\s"\\,]+){1,2}"#,
        )
        .expect("a valid pattern")
    })
}

/// The arguments of a matched command, with their offsets in it.
fn arguments(matched: &str) -> Vec<(usize, &str)> {
    // After the command's word (an escaped line break may come before it: `\r\nAUTH`).
    let word = ["AUTH", "LOGIN", "PASS"]
        .iter()
        .filter_map(|c| matched.find(c).map(|i| i + c.len()))
        .min()
        .unwrap_or(0);
    let mut out = Vec::new();
    let rest = &matched[word..];
    let mut at = 0;
    for piece in rest.split(['"', ' ', '\t']) {
        let start = at;
        at += piece.len() + 1;
        // What an escaped line break and a length prefix leave of a piece.
        let mut value = piece;
        let mut offset = 0;
        while let Some(stripped) = value.strip_prefix("\\r\\n") {
            offset += 4;
            value = stripped;
        }
        if value.starts_with('$') && value[1..].starts_with(|c: char| c.is_ascii_digit()) {
            let digits = value[1..].chars().take_while(char::is_ascii_digit).count();
            let tail = &value[1 + digits..];
            match tail.strip_prefix("\\r\\n") {
                Some(after) => {
                    offset += 1 + digits + 4;
                    value = after;
                }
                None => continue,
            }
        }
        if !value.is_empty() {
            out.push((word + start + offset, value));
        }
    }
    out
}

/// Whether the arguments are a login's (not a test runner's `PASS [0.03s]` or `PASS
/// src/x.test.ts`, nor a mechanism's name, `AUTH LOGIN`), and the last one a secret.
fn is_login(args: &[(usize, &str)]) -> bool {
    let Some((_, secret)) = args.last() else {
        return false;
    };
    let all_fine = args
        .iter()
        .all(|(_, a)| !a.starts_with(['[', '(', '<', '{', '$']) && !a.contains('/'));
    // PLAIN, LOGIN, XOAUTH2, CRAM-MD5, SCRAM-SHA-256.
    let mechanism = secret
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-');
    // A word of prose ends a sentence with its punctuation ("PASS before proceeding;").
    let word = secret
        .trim_end_matches(['.', ';', ':', '!', '?', ')'])
        .chars()
        .all(char::is_alphabetic);
    all_fine
        && !mechanism
        && !word
        && secret.chars().count() >= 4
        && !secret.contains(super::REDACTED)
        && !super::value::is_placeholder(secret)
}

/// Replaces the secret of every login sent on the wire; `None` when none.
pub fn wire_logins(text: &str) -> Option<String> {
    if !["AUTH", "LOGIN", "PASS"].iter().any(|c| text.contains(c)) {
        return None;
    }
    let mut spans: Vec<(usize, &str)> = Vec::new();
    for m in command().find_iter(text) {
        let args = arguments(m.as_str());
        if is_login(&args)
            && let Some((at, secret)) = args.last()
        {
            spans.push((m.start() + at, secret));
        }
    }
    super::redacted_spans(text, spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redacted(text: &str) -> String {
        wire_logins(text).unwrap_or_else(|| text.to_string())
    }

    #[test]
    fn a_login_on_the_wire() {
        for (text, want) in [
            (
                r#"write(7, "*2\r\n$4\r\nAUTH\r\n$12\r\nQ7#kd-99xLm2\r\n", 34) = 34"#,
                r#"write(7, "*2\r\n$4\r\nAUTH\r\n$12\r\n[REDACTED]\r\n", 34) = 34"#,
            ),
            (
                r#"1700000000.1 [0 10.0.0.5:5123] "AUTH" "default" "s3cr3t-Pw9""#,
                r#"1700000000.1 [0 10.0.0.5:5123] "AUTH" "default" "[REDACTED]""#,
            ),
            (
                "a001 LOGIN alice Tr0ub4dor&3\r\n",
                "a001 LOGIN alice [REDACTED]\r\n",
            ),
            ("C: PASS hunter2\n", "C: PASS [REDACTED]\n"),
            ("AUTH PLAIN AGFsaWNlAHMzY3JldA==", "AUTH PLAIN [REDACTED]"),
        ] {
            assert_eq!(redacted(text), want);
        }
    }

    #[test]
    fn test_runners_and_mechanisms_stay() {
        for text in [
            "        PASS [   0.031s] ledger::it export::filters",
            " PASS  src/App.test.tsx (5.2 s)",
            "--- PASS: TestFoo (0.00s)",
            "S: 250-AUTH LOGIN PLAIN XOAUTH2",
            "C: AUTH LOGIN",
            "the AUTH token is refreshed",
            "PASS: 12, FAIL: 0",
            "Later tasks assume this verdict is PASS before proceeding;",
        ] {
            assert_eq!(redacted(text), text);
        }
    }
}
