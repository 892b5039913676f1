//! E-mail addresses are personal data: in what the memory writes to its files they keep
//! their first character and their domain (`a…@example.com`), enough to tell who it
//! was to the person who knows, nothing to harvest. Redaction proper (secrets) is left
//! untouched by this: a `Co-authored-by` line stays readable in observations.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

fn address() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"(?i)\b([a-z0-9])[a-z0-9._%+-]*@((?:[a-z0-9-]+\.)+[a-z]{2,})\b")
            .expect("a valid pattern")
    })
}

/// `text` with every e-mail address masked (`alice.b@example.com` → `a…@example.com`).
pub fn mask_emails(text: &str) -> Cow<'_, str> {
    if !text.contains('@') {
        return Cow::Borrowed(text);
    }
    address().replace_all(text, "$1…@$2")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_keep_a_letter_and_their_domain() {
        assert_eq!(
            mask_emails("ask alice.b+ops@corp.example.com or Bob@EXAMPLE.org"),
            "ask a…@corp.example.com or B…@EXAMPLE.org"
        );
        for kept in [
            "git@github.com:org/repo.git",
            "pnpm add @types/node",
            "a@b",
            "user@localhost",
        ] {
            // An scp-style git remote still masks its user, which is harmless; the rest stay.
            let masked = mask_emails(kept);
            assert!(
                !masked.contains("…") || kept.starts_with("git@"),
                "{kept} → {masked}"
            );
        }
        assert!(matches!(mask_emails("no address here"), Cow::Borrowed(_)));
    }
}
