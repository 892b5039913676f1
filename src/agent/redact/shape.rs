//! Keys of services no rule names, found by the shape most of them share: a short
//! lower-case prefix that names the vendor or the kind of key (`acme_live_`, `pat-`,
//! `figd_`), then a long random body of mixed letters and digits. Names in code have
//! words in them; hashes are one case or say which hash they are (`sha512-…`).

/// The shortest random body taken for a key.
const MIN_BODY: usize = 30;
/// The same after a prefix that says the key is secret (`sk_` is a secret key in most
/// vendors' conventions: Stripe's, Checkout.com's, Clerk's).
const MIN_SECRET_BODY: usize = 20;
/// Prefixes that say so.
const SAYS_SECRET: &[&str] = &["sk", "rk", "secret", "priv", "private"];
/// Segments of a prefix that say the body is a server's key (DevCycle's `dvc_server_`),
/// which a body of hex then is too: an id would not be named so.
const SAYS_SERVER_SECRET: &[&str] = &["sk", "secret", "server", "private"];
/// A prefix is at most this many segments (`acme_live_` is two) of at most
/// `MAX_SEGMENT` characters each.
const MAX_SEGMENTS: usize = 3;
const MAX_SEGMENT: usize = 12;
/// Prefixes that say the body is a digest, an encoding or a key meant to be public
/// (`pk_live_…` is Stripe's publishable key, shipped to every browser).
const NOT_KEYS: &[&str] = &[
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "md5",
    "blake2b",
    "blake3",
    "h1",
    "base64",
    "data",
    "git",
    "commit",
    "rev",
    "build",
    "chunk",
    "hash",
    "id",
    "uuid",
    "nonce",
    "pk",
    "pub",
    "public",
    "publishable",
];

/// Replaces every prefixed random token in `text`; `None` when there is none.
pub fn prefixed_keys(text: &str) -> Option<String> {
    // Cheap: a key needs a separator followed by a long run of letters and digits.
    if !text.bytes().any(|b| b == b'_' || b == b'-') {
        return None;
    }
    let mut out = String::new();
    let mut last = 0;
    for (start, token) in candidates(text) {
        if let Some(body_at) = key_body(token) {
            // The prefix stays: it says which service's key was there.
            out.push_str(&text[last..start + body_at]);
            out.push_str(super::REDACTED);
            last = start + token.len();
        }
    }
    if last == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// Runs of `[A-Za-z0-9_-]` with their byte offsets.
fn candidates(text: &str) -> impl Iterator<Item = (usize, &str)> {
    super::pieces(text, |c| {
        !(c.is_ascii_alphanumeric() || c == '_' || c == '-')
    })
    .filter(|(_, t)| t.len() > MIN_SECRET_BODY + 2)
}

/// Where a token's random body starts, if the token is a prefix and a random body.
fn key_body(token: &str) -> Option<usize> {
    let mut at = 0;
    let mut segments = 0;
    let mut secret_said = false;
    for (i, c) in token.char_indices() {
        if c != '_' && c != '-' {
            continue;
        }
        let segment = &token[at..i];
        let lower_word = !segment.is_empty()
            && segment.len() <= MAX_SEGMENT
            && segment.starts_with(|c: char| c.is_ascii_lowercase())
            && segment
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        if !lower_word || NOT_KEYS.contains(&segment) {
            return None;
        }
        let min = if segments == 0 && SAYS_SECRET.contains(&segment) {
            MIN_SECRET_BODY
        } else {
            MIN_BODY
        };
        secret_said |= SAYS_SERVER_SECRET.contains(&segment);
        segments += 1;
        at = i + 1;
        let body = &token[at..];
        if is_random(body, min) || is_random_in_parts(body) || secret_said && is_hex_key(body) {
            return Some(at);
        }
        if segments == MAX_SEGMENTS {
            return None;
        }
    }
    None
}

/// A random body with separators in it (Paddle's `pdl_live_apikey_01k3…5h_UBH7…wJ_698`):
/// a long random first part, and random as a whole once the separators are gone.
fn is_random_in_parts(body: &str) -> bool {
    let first = body.split(['_', '-']).next().unwrap_or("");
    first.len() >= MIN_FIRST_PART
        && first.len() < body.len()
        && !body.contains("__")
        && is_random(&body.replace(['_', '-'], ""), MIN_BODY)
}

/// A body of hex digits, whole or in groups (`7286703b_da51_…`), of a key's length: 32
/// digits or more, letters and digits both.
fn is_hex_key(body: &str) -> bool {
    let digits: String = body.chars().filter(|c| !matches!(c, '_' | '-')).collect();
    digits.len() >= 32
        && !body.contains("__")
        && digits.bytes().all(|b| b.is_ascii_hexdigit())
        && digits.bytes().any(|b| b.is_ascii_digit())
        && digits.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The shortest random first part of a body with separators in it.
const MIN_FIRST_PART: usize = 20;

/// A body drawn at random from letters and digits: long, and either of mixed case with
/// no run of lower-case letters as long as a word, or of lower-case letters and digits
/// (not hex, which digests are) with few vowels, unlike words run together.
fn is_random(body: &str, min: usize) -> bool {
    let n = body.len();
    if n < min || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let upper = body.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = body.bytes().filter(u8::is_ascii_lowercase).count();
    let digit = body.bytes().filter(u8::is_ascii_digit).count();
    let vowels = body.bytes().filter(|b| b"aeiou".contains(b)).count();
    let hex = body.bytes().all(|b| b.is_ascii_hexdigit());
    // Random base62 of this length: about 40% each letter case and 16% digits.
    let mixed = upper * 6 >= n && lower * 6 >= n && digit >= 2 && {
        let longest_word = body
            .as_bytes()
            .split(|b| !b.is_ascii_lowercase())
            .map(<[u8]>::len)
            .max()
            .unwrap_or(0);
        longest_word < 7
    };
    // Random base36: about 28% digits, and a fifth of its letters vowels (words: two
    // fifths).
    let base36 = upper == 0 && !hex && digit * 6 >= n && lower * 2 >= n && vowels * 10 < lower * 3;
    mixed || base36
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vendor_prefix_and_a_random_body_is_a_key() {
        for key in [
            "acme_live_4fQz9XbL2mT7vR1kPw8sYd3NqE5uZp",
            "figd_Xr7Qp2LmZ9aB4cT1vW8kN3sD6fG0hJ",
            "pat-na1-9Kd82JfPq7XmL3vB0tRz4WcYa6HnQ1",
            "hcaik_01h4l8h3rgzcygg50j2mb002lto72kqxylkzqr",
            "acme_live_apikey_01k3f5n3k6bmgkvp5xe4raya5h_UBH7CWQfpflKmkCvqGtEwJ_698",
            "sk_q7w2x9r4t1y8z3k6m5p0b2s7d4",
        ] {
            let text = format!("export KEYLESS={key} # set up");
            let out = prefixed_keys(&text).unwrap();
            assert!(!out.contains(&key[key.len() - 12..]), "{out}");
        }
    }

    #[test]
    fn names_hashes_and_identifiers_are_not_keys() {
        for text in [
            "integrity sha512-Xr7Qp2LmZ9aB4cT1vW8kN3sD6fG0hJ==",
            "fn handle_createUserAccountWithEmail2(",
            "docker pull repo/app@sha256:4f0d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b",
            "css: Button_root__3xK9a main-content-wrapper-container-large",
            "test_parses_the_whole_config_file_again",
            "git-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",
            "session_01MqnbqBMNxCkL8NixMEnPj1 toolu_01XTePumH4JtnxFK3LPmmWT7",
            "pi_3MtwBwLkdIwHu7ix28a3tqPa and cus_NffrFeUfNV2Hib",
            "build-cache-3f2a9b7c1d0e4f5a6b7c8d9e0f1a2b3c4d5e6f7a",
            "acme_q7w2e9r4t1y8u3i6o5p0a2s7d4",
            "sk_buff_head_of_the_receive_queue_list",
        ] {
            assert_eq!(prefixed_keys(text), None, "{text}");
        }
    }
}
