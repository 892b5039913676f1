//! Small string helpers shared by every layer: clipping on character boundaries (head or
//! tail), one-line flattening, camel case split into words, a stable hash, and which
//! scripts run their words together.

/// Cuts `text` to at most `max` characters on a character boundary.
pub fn clip_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// The end of `text`: at most its last `max` bytes, starting on a character boundary.
pub fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// `text` on one line (whitespace runs folded to one space), at most `max` characters,
/// a cut marked with an ellipsis.
pub fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    format!("{}…", clip_chars(&flat, max.saturating_sub(1)))
}

/// Like [`one_line`], but a cut falls between words when one ends in the last third of
/// the budget: a title reads "… which is less…", never "… which is le…".
pub fn one_line_words(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let cut = clip_chars(&flat, max.saturating_sub(1));
    // Cut right at a word's end: the word is whole.
    if flat[cut.len()..].starts_with(' ') {
        return format!("{}…", cut.trim_end_matches([',', ';', ':']));
    }
    match cut.rfind(' ') {
        Some(space) if cut[..space].chars().count() * 3 >= max * 2 => {
            format!("{}…", cut[..space].trim_end_matches([',', ';', ':']))
        }
        _ => format!("{cut}…"),
    }
}

/// `text` without one pair of double quotes around it, when it is wholly quoted (a
/// trigger written `"\"when …\""`); a quotation inside it (`fails with "error: …"`)
/// keeps both its marks.
pub fn unquoted(text: &str) -> &str {
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') => inner,
        _ => text,
    }
}

/// Camel case split into words: `StripeWebhook` → `Stripe Webhook`, `muxTokenSecret` →
/// `mux Token Secret`.
pub fn split_camel(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.push(c);
    }
    out
}

/// `text` without terminal escape sequences (colours, cursor moves) and other control
/// characters but line breaks and tabs: what a shell banner leaves in captured output.
pub fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(|c: char| c.is_control() && c != '\n' && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            match chars.peek() {
                // CSI: ESC [ parameters final-byte
                Some('[') => {
                    chars.next();
                    for n in chars.by_ref() {
                        if ('@'..='~').contains(&n) {
                            break;
                        }
                    }
                }
                // OSC: ESC ] ... BEL or ESC \
                Some(']') => {
                    chars.next();
                    while let Some(n) = chars.next() {
                        if n == '\u{7}' || n == '\u{1b}' && chars.peek() == Some(&'\\') {
                            break;
                        }
                    }
                }
                _ => {
                    chars.next();
                }
            }
            continue;
        }
        if c.is_control() && c != '\n' && c != '\t' {
            continue;
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

/// FNV-1a, 64 bits: stable across versions and platforms.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Whether `c` is of a script written without spaces between words: Chinese and
/// Japanese (Korean puts spaces between its words).
pub fn unspaced(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' // kana
        | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' // han
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_wholly_quoted_text_loses_its_quotes() {
        assert_eq!(unquoted("\"when x\""), "when x");
        let quoting = "when `cargo test` fails with \"error: no test harness\"";
        assert_eq!(unquoted(quoting), quoting);
        let both = "\"a\" fails with \"b\"";
        assert_eq!(unquoted(both), both);
        assert_eq!(unquoted("\""), "\"");
    }

    #[test]
    fn a_clipped_title_ends_between_words() {
        let rule = "You can set group.visible using the vis library which is less work";
        assert_eq!(
            one_line_words(rule, 60),
            "You can set group.visible using the vis library which is…"
        );
        assert_eq!(one_line_words("short enough", 60), "short enough");
        // Already ending in an ellipsis and within the budget: as it is.
        assert_eq!(one_line_words("wait for it…", 60), "wait for it…");
        // A cut at a word's end keeps the word.
        assert_eq!(one_line_words("abcd efgh ijkl", 10), "abcd efgh…");
        // One long word: cut inside it rather than drop most of the budget.
        let long = format!("see {}", "x".repeat(80));
        assert_eq!(one_line_words(&long, 20).chars().count(), 20);
    }

    #[test]
    fn clipping_respects_characters() {
        assert_eq!(clip_chars("héllo", 2), "hé");
        assert_eq!(clip_chars("hi", 5), "hi");
        assert_eq!(one_line("a\n  b c", 10), "a b c");
        assert_eq!(one_line("abcdef", 4), "abc…");
    }

    #[test]
    fn escapes_go_text_stays() {
        assert_eq!(strip_ansi("\u{1b}[1;32mok\u{1b}[0m done\r\n"), "ok done\n");
        assert_eq!(strip_ansi("\u{1b}]0;title\u{7}prompt"), "prompt");
        assert!(matches!(
            strip_ansi("plain\ttext\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
