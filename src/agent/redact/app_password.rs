//! A Google app password ("hytq jkko itvf pfyz": four groups of four random letters)
//! close after a word for a password, in any language, on its line.

use super::near::{CLOSE, says_password, spoken};

/// A Google app password ("hytq jkko itvf pfyz": four groups of four random letters)
/// close after a word for a password, in any language, on its line (`password hytq jkko
/// itvf pfyz` in `.msmtprc`, "Aplikazio-pasahitza sortu dut: yvdn fukn yxes xrfj").
/// Read by hand, not by a pattern: compiling one cost every hook half a millisecond.
/// Never where a value was redacted already between the word and the groups (so that
/// redacting twice takes no more).
pub fn app_password(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        let Some(end) = four_groups(bytes, i) else {
            i += 1;
            continue;
        };
        // Only the few characters before it are read, however long the line.
        let mut reach = i.saturating_sub(CLOSE * 4);
        while !text.is_char_boundary(reach) {
            reach += 1;
        }
        let before = &text[reach..i];
        let before = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
        let from = before.char_indices().rev().nth(CLOSE).map_or(0, |(n, _)| n);
        let said = spoken(&before[from..]);
        let names_a_password = says_password(&said)
            // `pass` as a word of its own (`pass:`, `app pass`), not "passed in".
            || said
                .split(|c: char| !c.is_alphabetic())
                .any(|w| w == "pass");
        if names_a_password && !before.contains(super::REDACTED) && drawn_letters(&text[i..end]) {
            out.push_str(&text[last..i]);
            out.push_str(super::REDACTED);
            last = end;
            i = end;
        } else {
            i += 1;
        }
    }
    (last > 0).then(|| {
        out.push_str(&text[last..]);
        out
    })
}

/// Where four groups of four lower-case letters that start at `i` end, standing as words
/// of their own.
fn four_groups(bytes: &[u8], i: usize) -> Option<usize> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .is_some_and(|g| g.iter().all(u8::is_ascii_lowercase))
    };
    if i > 0 && bytes[i - 1].is_ascii_alphanumeric() {
        return None;
    }
    if !word(i) {
        return None;
    }
    let mut at = i + 4;
    for _ in 0..3 {
        if bytes.get(at) != Some(&b' ') || !word(at + 1) {
            return None;
        }
        at += 5;
    }
    (!bytes.get(at).is_some_and(u8::is_ascii_alphanumeric)).then_some(at)
}

/// Whether four groups of four letters are drawn at random, not four words ("then come
/// back home", "when this form says"): a group with no vowel, or two vowels at most in
/// all (a random draw has three on average; four short words have four or more).
fn drawn_letters(groups: &str) -> bool {
    let vowel = |c: char| matches!(c, 'a' | 'e' | 'i' | 'o' | 'u');
    groups
        .split(' ')
        .any(|g| !g.chars().any(|c| vowel(c) || c == 'y'))
        || groups.chars().filter(|c| vowel(*c)).count() <= 2
}

#[cfg(test)]
mod tests {
    use super::app_password;

    #[test]
    fn after_a_word_for_a_password_in_any_script() {
        for (text, out) in [
            ("пароль: hytq jkko itvf pfyz", "пароль: [REDACTED]"),
            (
                "🔑 app password hytq jkko itvf pfyz🙂 ok",
                "🔑 app password [REDACTED]🙂 ok",
            ),
            ("密码是 hytq jkko itvf pfyz。", "密码是 [REDACTED]。"),
        ] {
            assert_eq!(app_password(text).as_deref(), Some(out), "{text}");
        }
    }

    #[test]
    fn words_and_other_groups_stay() {
        for text in [
            "Reset your password when this form says so",
            "the password is hytqjkkoitvfpfyz",
            "hytq jkko itvf pfyz with no word before it",
            "password xhytq jkko itvf pfyz",
        ] {
            assert_eq!(app_password(text), None, "{text}");
        }
    }
}
