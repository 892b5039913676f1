//! A password given as an item of a list, with no word for it (a numbered answer
//! whose second item is `Qm4rTz81vb!`): a numbered or bulleted line that holds one
//! token and nothing else, drawn as passwords are — letters of both cases and digits,
//! with a symbol or with its digits in more than one run. A list of names in code,
//! versions, paths, dates or hashes is left alone: they hold `.`, `/`, `:`, `_` or `-`,
//! or have their digits in one run (`Base64Encoder`, `Sha256`).

/// Symbols a password is told to hold.
const PASSWORD_SYMBOLS: &[char] = &['!', '@', '#', '$', '%', '^', '&', '*', '?', '+', '=', '~'];

/// `text` with the passwords its list items are made of redacted; `None` when none.
pub fn list_item_passwords(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let spans: Vec<(usize, &str)> = item(line)
            .filter(|(_, token)| drawn_as_passwords_are(token))
            .into_iter()
            .collect();
        changed |= super::push_redacted(&mut out, line, spans);
    }
    changed.then_some(out)
}

/// The one token of a list item (`2. x`, `3) x`, `- x`, `* x`, `• x`) and where it is.
fn item(line: &str) -> Option<(usize, &str)> {
    let body = line.trim_end();
    let indent = body.len() - body.trim_start().len();
    let rest = &body[indent..];
    let marker = if let Some(r) = rest.strip_prefix(['-', '*', '•']) {
        rest.len() - r.len()
    } else {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let after = rest[digits..].strip_prefix(['.', ')'])?;
        if digits == 0 || digits > 2 {
            return None;
        }
        rest.len() - after.len()
    };
    let after = &rest[marker..];
    let token = after.trim_start();
    if token.len() == after.len() || token.contains(char::is_whitespace) {
        return None;
    }
    let at = indent + marker + (after.len() - token.len());
    let ticks = token.len() - token.trim_start_matches('`').len();
    Some((at + ticks, token.trim_matches('`')))
}

fn drawn_as_passwords_are(token: &str) -> bool {
    let b = token.as_bytes();
    let [lower, upper, digit, _] = super::near::char_kinds(token);
    let symbol = token.contains(PASSWORD_SYMBOLS);
    let digit_runs = super::near::digit_runs(b);
    (8..=64).contains(&token.len())
        && token.is_ascii()
        && lower
        && upper
        && digit
        && (symbol || digit_runs >= 2)
        && !token.contains(['.', '/', ':', '_', '-', '\\', '<', '>', '(', ')', '[', ']'])
}

#[cfg(test)]
mod tests {
    use super::list_item_passwords;

    #[test]
    fn a_password_alone_on_a_list_line_is_redacted() {
        let prompt =
            "the two test accounts:\n1. qa-admin\n2. Qm4rTz81vb!x\n- Zq8vT2mPx\nlog in with both";
        let out = list_item_passwords(prompt).unwrap();
        assert_eq!(
            out,
            "the two test accounts:\n1. qa-admin\n2. [REDACTED]\n- [REDACTED]\nlog in with both"
        );
    }

    #[test]
    fn lists_of_names_versions_and_words_are_left_alone() {
        for text in [
            "1. Base64Encoder\n2. Sha256Hasher\n3. HttpClient",
            "- v1.2.3-rc1\n- 2026-11-28\n- src/lib.rs:42",
            "1. cargo build\n2. cargo test",
            "- ProductService\n- OAuth2Token_v2\n- deadbeef0123456789",
            "2. 3f9a1c2",
            "10. Reconnect",
        ] {
            assert_eq!(list_item_passwords(text), None, "{text}");
        }
    }
}
