//! Keys carried in a URL's fragment, which the browser never sends to the server and
//! which therefore is where end-to-end encrypted shares put their key: Excalidraw's
//! `#json=ID,KEY`, Bitwarden Send's `#ID/KEY`, PrivateBin's `?ID#KEY`, MEGA's `#KEY`.

use std::sync::OnceLock;

use regex::Regex;

/// The shortest piece of a fragment taken for a key: longer than any anchor's word.
const MIN_KEY: usize = 16;

/// Replaces every key-shaped piece of a URL's fragment; `None` when there is none.
pub fn keys_in_fragments(text: &str, lower: &str) -> Option<String> {
    if !lower.contains("://") || !text.contains('#') {
        return None;
    }
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r#"(?i)\bhttps?://[^\s#"'<>]+#(?P<fragment>[^\s"'<>)\]]+)"#)
            .expect("a valid pattern")
    });
    let mut changed = false;
    let out = re.replace_all(text, |caps: &regex::Captures| {
        let whole = &caps[0];
        let at = whole.len() - caps["fragment"].len();
        let mut rebuilt = whole[..at].to_string();
        let fragment = &caps["fragment"];
        let separator = |c: char| matches!(c, ',' | '/' | '!' | '=' | '&' | ':' | ';');
        let keys = super::pieces(fragment, separator).filter(|(_, piece)| is_key(piece));
        changed |= super::push_redacted(&mut rebuilt, fragment, keys);
        rebuilt
    });
    changed.then(|| out.into_owned())
}

/// A piece drawn at random: long, with upper and lower case letters and digits mixed,
/// never escaped text (`%20`) or a name in camel case.
fn is_key(piece: &str) -> bool {
    let piece = piece.trim_end_matches(['.', ',']);
    let n = piece.chars().count();
    let upper = piece.chars().filter(char::is_ascii_uppercase).count();
    let lower = piece.chars().filter(char::is_ascii_lowercase).count();
    let digits = piece.chars().filter(char::is_ascii_digit).count();
    n >= MIN_KEY
        && upper > 0
        && lower > 0
        && digits > 0
        && piece
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        // A name in camel case has few capitals and digits; a key has many of each.
        && upper * 6 >= n
        && !piece.contains(super::REDACTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Option<String> {
        keys_in_fragments(text, &text.to_ascii_lowercase())
    }

    #[test]
    fn a_share_links_key_goes_and_its_address_stays() {
        assert_eq!(
            run("https://send.example.com/#XLxiwJuqFTwUpOGTAA7PA/q7S8JOuE0q0YN8JjvWDVhw")
                .as_deref(),
            Some("https://send.example.com/#[REDACTED]/[REDACTED]")
        );
        assert_eq!(
            run("see https://draw.example.com/#json=nEurf4kC,ssyf2zj8nZiVz2VvgCJf7g now")
                .as_deref(),
            Some("see https://draw.example.com/#json=nEurf4kC,[REDACTED] now")
        );
    }

    #[test]
    fn anchors_and_routes_stay() {
        for text in [
            "https://docs.example.com/guide#section-2-installation-on-windows",
            "https://github.com/acme/app/blob/main/src/lib.rs#L10-L20",
            "https://app.example.com/#/users/42/editProfileSettings",
            "https://example.com/page#:~:text=Getting%20Started%20With%20Rust",
            "https://github.com/acme/app/commit/3f2c9a0e8b7d6c5f4a3b2c1d0e9f8a7b#diff-2b4c6d8e0f",
        ] {
            assert_eq!(run(text), None, "{text}");
        }
    }
}
