//! A prompt's words cleaned before they are weighed: curly apostrophes straightened,
//! contractions without their ending ("what's" is "what", not `what` and `s`), and
//! words that name no topic left out: one- and two-digit numbers, versions (`1.2.3`,
//! `v18.2`, and so addresses like `127.0.0.1`) and hashes (`e3b0c442`) say which
//! release or commit, not what about it. A word the memory does not have weighs against
//! every memory, so a commit id in a prompt must not sink what the prompt is about.

use std::borrow::Cow;

/// `text` with each word cleaned, words that name no topic dropped.
pub fn cleaned(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if let Some(w) = topic_word(word) {
            out.push_str(&w);
            out.push(' ');
        }
    }
    out
}

fn topic_word(word: &str) -> Option<Cow<'_, str>> {
    let word: Cow<str> = if word.contains(['\u{2019}', '\u{2018}']) {
        word.replace(['\u{2019}', '\u{2018}'], "'").into()
    } else {
        word.into()
    };
    let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
    if bare.is_empty() || is_version(bare) || names_no_topic(bare) {
        return None;
    }
    Some(match without_contraction(bare) {
        Some(stem) => Cow::Owned(stem.to_string()),
        None => word,
    })
}

/// The word without its contracted ending: `what's` → `what`, `doesn't` → `does`,
/// `can't` → `can`, `won't` → `will`, `we'll` → `we`.
fn without_contraction(word: &str) -> Option<&str> {
    let lower = word.to_ascii_lowercase();
    match lower.as_str() {
        "can't" | "cannot" => return Some("can"),
        "won't" => return Some("will"),
        _ => {}
    }
    if let Some(stem) = lower.strip_suffix("n't") {
        return Some(&word[..stem.len()]);
    }
    let (stem, ending) = word.rsplit_once('\'')?;
    let ending = ending.to_ascii_lowercase();
    ["s", "re", "ve", "ll", "d", "m"]
        .contains(&ending.as_str())
        .then_some(stem)
}

/// `1.2.3`, `v18.2`, `1.3.0-rc1`.
fn is_version(word: &str) -> bool {
    let v = word.strip_prefix(['v', 'V']).unwrap_or(word);
    v.starts_with(|c: char| c.is_ascii_digit())
        && v.contains('.')
        && v.split(['.', '-', '+'])
            .all(|part| part.chars().all(|c| c.is_ascii_alphanumeric()))
        && v.split('.')
            .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
            .count()
            >= 2
}

/// A small number or a hash: nothing a memory is about.
fn names_no_topic(word: &str) -> bool {
    let digits = word.chars().filter(char::is_ascii_digit).count();
    let small_number = digits == word.len() && word.len() <= 2;
    // Hex digits with letters and digits interleaved (`5e1b0c7`), not a name that ends
    // in a number (`ed25519`, `sha256`).
    let interleaved = word
        .as_bytes()
        .windows(2)
        .filter(|p| p[0].is_ascii_digit() != p[1].is_ascii_digit())
        .count()
        >= 3;
    let hash = word.len() >= 7
        && word.chars().all(|c| c.is_ascii_hexdigit())
        && digits > 0
        && digits < word.len()
        && interleaved;
    small_number || hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contractions_numbers_versions_and_hashes() {
        assert_eq!(
            cleaned("what's wrong? it doesn\u{2019}t build on node v18.2 since e3b0c442, 2 files"),
            "what wrong? it does build on node since files "
        );
        assert_eq!(
            cleaned("we'll bump 1.2.3 to 1.3.0-rc1 and I can't"),
            "we bump to and I can "
        );
        // Kept: real numbers, names with digits, words that only look like hex.
        assert_eq!(
            cleaned("port 5432 s3 h264 deadbeef facade added 404 ed25519"),
            "port 5432 s3 h264 deadbeef facade added 404 ed25519 "
        );
    }
}
