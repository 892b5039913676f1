//! Secrets whose word stands on another line: a key under a parent that names secrets
//! (Composer's `"bearer": { "repo.example.com": "…" }`, `credentials:` then
//! `github.com: …`), and a key file's body under its heading ("untrusted comment:
//! minisign encrypted secret key").

use super::near::{looks_secret, says_public, spoken};

/// Words of a parent key whose children are secrets, not settings (`key` alone is not
/// one: `keys:` may list fingerprints).
const PARENT_WORDS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "credential",
    "bearer",
    "oauth",
    "auth",
    "api key",
    "apikey",
    "private",
];

/// Words of a heading whose next line is a key's body.
const HEADING_WORDS: &[&str] = &["secret key", "private key"];

/// The shortest body taken under a heading: a key, not a word.
const MIN_BODY: usize = 40;

/// Replaces every value under a secret-naming parent or heading; `None` when none.
pub fn under_secret_names(text: &str) -> Option<String> {
    let said = spoken(text);
    if !PARENT_WORDS.iter().any(|w| said.contains(w)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    // Open parents, by indentation: (indent, whether its key names secrets).
    let mut parents: Vec<(usize, bool)> = Vec::new();
    let mut heading = false;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end();
        let trimmed = body.trim_start();
        if trimmed.is_empty() {
            out.push_str(line);
            continue;
        }
        let indent = body.len() - trimmed.len();
        while parents.last().is_some_and(|(i, _)| *i >= indent) {
            parents.pop();
        }
        let under_secret = parents.last().is_some_and(|(_, secret)| *secret);
        let redacted = if heading && is_key_body(trimmed) {
            Some(line.replacen(trimmed, super::REDACTED, 1))
        } else if under_secret {
            child_value(line)
        } else {
            None
        };
        let line_said = spoken(trimmed);
        heading = HEADING_WORDS.iter().any(|w| line_said.contains(w)) && !says_public(&line_said);
        if let Some(key) = opens_object(trimmed) {
            let key = spoken(key);
            let secret = PARENT_WORDS.iter().any(|w| key.contains(w)) && !says_public(&key);
            parents.push((indent, secret));
        }
        match redacted {
            Some(replaced) => {
                out.push_str(&replaced);
                changed = true;
            }
            None => out.push_str(line),
        }
    }
    changed.then_some(out)
}

/// A line that is one long run of a key's characters (base64 or hex).
fn is_key_body(line: &str) -> bool {
    line.len() >= MIN_BODY
        && line
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
        && looks_secret(line)
}

/// The key of a line that opens a mapping: `"bearer": {`, `credentials:`, or an XML
/// element's opening tag alone on its line (`<AdministratorPassword>`).
fn opens_object(line: &str) -> Option<&str> {
    if let Some(tag) = opening_tag(line) {
        return Some(tag);
    }
    let rest = line.strip_suffix('{').unwrap_or(line).trim_end();
    let key = rest.strip_suffix(':')?.trim();
    let key = key.trim_matches(['"', '\'']);
    // `def aws_credentials():`, `if token:`, `with open(path) as secret:` open code's
    // blocks, whose lines are statements, not a mapping's values.
    let code = key.contains(['(', ')'])
        || [
            "def ", "async ", "class ", "if ", "elif ", "else", "for ", "while ", "with ", "try",
            "except", "finally", "match ", "case ",
        ]
        .iter()
        .any(|w| key.starts_with(w));
    (!key.is_empty() && key.len() < 40 && !code).then_some(key)
}

/// The name of an XML element opened alone on a line: `<Password>`, `<Value a="b">`;
/// not a closing, a self-closing or a declaration's tag.
fn opening_tag(line: &str) -> Option<&str> {
    let inner = line.strip_prefix('<')?.strip_suffix('>')?;
    if inner.starts_with(['/', '?', '!']) || inner.ends_with('/') || inner.contains(['<', '>']) {
        return None;
    }
    let name = inner.split_whitespace().next()?;
    (!name.is_empty() && name.len() < 40).then_some(name)
}

/// An XML element's text on one line: (its name, its text): `<Value>…</Value>`.
fn element_text(line: &str) -> Option<(&str, &str)> {
    let inner = line.trim().strip_prefix('<')?;
    let (open, rest) = inner.split_once('>')?;
    let name = open.split_whitespace().next()?;
    let text = rest
        .strip_suffix('>')?
        .strip_suffix(name)?
        .strip_suffix("</")?;
    (!name.starts_with(['/', '?', '!']) && !text.contains('<')).then_some((name, text))
}

/// `key: value`, `"key": "value",` or `<key>value</key>` with a value of a secret's
/// shape, redacted.
fn child_value(line: &str) -> Option<String> {
    let (key, value) = match element_text(line) {
        Some(element) => element,
        None => line.split_once([':', '='])?,
    };
    let key = key.trim().trim_matches(['"', '\'']);
    if key.is_empty() || key.contains(char::is_whitespace) {
        return None;
    }
    let bare = value.trim().trim_end_matches(',').trim_matches(['"', '\'']);
    // A value labelled as ciphertext (Pulumi's `secure: v1:…`, `encrypted: …`) is meant
    // to be committed; a child named as an id, a type or a public key is no secret.
    let lower = key.to_ascii_lowercase();
    let ciphertext = ["secure", "encrypted", "enc", "ciphertext", "sealed"]
        .iter()
        .any(|c| lower == *c || lower.starts_with(&format!("{c}_")));
    if ciphertext
        || !looks_secret(bare)
        || !super::value::is_secret_value(key, bare)
        || bare.contains(super::REDACTED)
    {
        return None;
    }
    // The value is a slice of the line (after its key, or between its tags).
    let at = value.as_ptr() as usize - line.as_ptr() as usize + value.find(bare)?;
    Some(format!(
        "{}{}{}",
        &line[..at],
        super::REDACTED,
        &line[at + bare.len()..]
    ))
}
