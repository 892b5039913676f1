//! A prompt's identifiers, paths and dotted names, as the index's words in order (for a
//! phrase query) and as written (to find them whole in a memory).

use std::sync::OnceLock;

use regex::Regex;

use crate::index::{Index, search};

fn identifier_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|/|-)[A-Za-z0-9_]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z]+_[A-Za-z0-9_]+")
            .expect("a valid pattern")
    })
}

/// Identifiers, paths and dotted names of a prompt, as the index's words in order:
/// `process.env.STRIPE_PUBLISHABLE_KEY` → [process, env, stripe, publish, key].
pub(super) fn identifiers(index: &Index, text: &str) -> Vec<Identifier> {
    let mut out: Vec<Identifier> = Vec::new();
    for m in identifier_pattern().find_iter(text).take(16) {
        let spaced = m.as_str().replace(['.', ':', '/', '-', '_'], " ");
        let split = crate::text::split_camel(&spaced);
        let parts = search::words(index, &split);
        if parts.len() >= 2 && !out.iter().any(|i| i.parts == parts) {
            out.push(Identifier {
                parts,
                spelled: spelled(m.as_str()),
            });
        }
    }
    out
}

/// An identifier, path or dotted name of a prompt.
pub(super) struct Identifier {
    /// The index's words for it, in order (for the phrase query).
    pub parts: Vec<String>,
    /// Its letters as written, separators as spaces (` claude code log renderer py `).
    pub spelled: String,
}

/// Lower case, camelCase split, every run of non-alphanumerics one space, padded with
/// a space at each end: `claude_code_log/renderer.py` and `claude-code-log/renderer.py`
/// spell alike, and a match of one inside another starts and ends at words.
pub(super) fn spelled(text: &str) -> String {
    let split = crate::text::split_camel(text).to_lowercase();
    let words: Vec<&str> = split
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    format!(" {} ", words.join(" "))
}
