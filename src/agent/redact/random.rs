//! A token drawn at random, standing free among a line's words with no name before it:
//! an in-house service's key in a log line ("dialing recon:8443 as etl-03 with
//! NQ8SWjKT…"), a key pasted into a sentence. Only a token no name in code could be:
//! letters of both cases and digits, capitals side by side and digits in several runs
//! (`trv2StatRingTableEntryIndex`, a MIB's name, has one run and no two capitals
//! together). A value after a name is left to the rules that read the name when the name
//! says what it is (`clientId: "…"`, an id, a digest), and taken when it says nothing
//! (`RELAY_SHARED=…`, `session = …`), as it is after a sentence's colon (where base64
//! of random bytes is taken too, and nowhere else); a line that is nothing but the token
//! is a block's (a PEM body's) line.

/// The shortest and longest free token taken (shorter ones are ids and hashes; longer
/// ones are data).
const MIN_LEN: usize = 32;
const MAX_LEN: usize = 64;

/// Whether a token is drawn at random as keys are.
fn is_random(token: &str) -> bool {
    (MIN_LEN..=MAX_LEN).contains(&token.len()) && drawn_at_random(token)
}

/// Letters of both cases and digits only, capitals side by side and digits in several
/// runs: no name in code is written so.
fn drawn_at_random(token: &str) -> bool {
    let b = token.as_bytes();
    let [lower, upper, digit, _] = super::near::char_kinds(token);
    let digit_runs = super::near::digit_runs(b);
    b.iter().all(u8::is_ascii_alphanumeric)
        && lower
        && upper
        && digit
        && !b.iter().all(u8::is_ascii_hexdigit)
        && super::near::capitals_together(b) >= 3
        && digit_runs >= 3
}

/// Whether a token is base64 of random bytes (`+` and `/` among the letters, `=`
/// padding at the end; a path has more slashes). Taken only in prose: digests, public
/// keys and ciphertext are base64 of random bytes too, under their names.
fn is_random_base64(token: &str) -> bool {
    let body = token
        .strip_suffix("==")
        .or(token.strip_suffix('='))
        .unwrap_or(token);
    // Every word of an output comes here: the letters are gathered only for a token
    // long enough.
    if !(MIN_LEN..=MAX_LEN).contains(&body.len()) {
        return false;
    }
    let signs = body.bytes().filter(|c| matches!(c, b'+' | b'/')).count();
    let letters: String = body.chars().filter(|c| !matches!(c, '+' | '/')).collect();
    signs <= 3
        && !body.starts_with(['+', '/'])
        && !body.ends_with('/')
        && !body.contains("//")
        && drawn_at_random(&letters)
}

/// Words of a name whose random value is no secret: an id, a digest, a reference.
const NAMES_NO_SECRET: &[&str] = &[
    "id",
    "ids",
    "uuid",
    "guid",
    "sha",
    "hash",
    "digest",
    "checksum",
    "etag",
    "trace",
    "span",
    "request",
    "req",
    "build",
    "commit",
    "revision",
    "rev",
    "version",
    "fingerprint",
    "kid",
    "ref",
    "tag",
    "image",
    "name",
    "file",
    "path",
    "url",
    "uri",
    "host",
    "nonce",
    "state",
    "cursor",
    "page",
    "next",
    "public",
    "pub",
    "anon",
    "publishable",
    "site",
    "integrity",
    "object",
    "bucket",
    "account",
    "project",
    "tenant",
    "user",
];

/// Whether the text before a value ends in `NAME =` or `NAME:` with a name that says
/// nothing of what it holds but is no id (`RELAY_SHARED=…`, `session = …`): a random
/// value there is a secret as much as a free one.
fn assigned_to_a_plain_name(before: &str) -> bool {
    let (name, opens_line) = name_before(before);
    name.len() >= 2 && opens_line && !says_no_secret(name)
}

/// Whether the text before a value ends a sentence's clause with a colon ("he sent me
/// this and said to use it in every request: …", in any language): words before the
/// colon, not a quoted or a line's name (`"x": …`, `< x-trace: …`), and none of the
/// last three an id's or a digest's ("the hash is: …", "request id (for support): …").
fn after_a_sentence(before: &str) -> bool {
    let trimmed = before.trim_end();
    let Some(clause) = trimmed.strip_suffix(':') else {
        return false;
    };
    let words: Vec<&str> = clause
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let prose = clause.ends_with(char::is_alphabetic)
        && clause
            .split_whitespace()
            .filter(|w| w.chars().all(char::is_alphabetic))
            .count()
            >= 3;
    let names_an_id = words.iter().rev().take(3).any(|w| {
        let w = w.to_lowercase();
        let w = w
            .strip_suffix("es")
            .filter(|s| s.ends_with("sh"))
            .unwrap_or(&w);
        let w = w.strip_suffix('s').unwrap_or(w);
        ID_WORDS.contains(&w)
    });
    prose && !name_before(before).1 && !names_an_id
}

/// Words that say a value in prose is an id or a digest.
const ID_WORDS: &[&str] = &[
    "id",
    "uuid",
    "guid",
    "sha",
    "sha1",
    "sha256",
    "sha512",
    "hash",
    "digest",
    "checksum",
    "etag",
    "commit",
    "revision",
    "fingerprint",
    "request",
    "trace",
    "version",
    "build",
];

/// The name a value comes after (`RELAY_SHARED` of `RELAY_SHARED=`), and whether it
/// opens its line (a diff's `+`/`-`, an indentation or a list's dash before it): an
/// assignment, not a sentence's "with: …".
fn name_before(before: &str) -> (&str, bool) {
    let before = before.trim_end().trim_end_matches([':', '=']).trim_end();
    let before = before.trim_end_matches(['"', '\'']);
    let name = super::value::trailing_name(before);
    let name_at = before.len() - name.len();
    let opens_line = before[..name_at]
        .trim_start_matches(['+', '-', ' ', '\t'])
        .trim_end_matches(['"', '\''])
        .trim()
        .is_empty();
    (name, opens_line)
}

/// Whether a name says its value is an id, a digest or a reference.
fn says_no_secret(name: &str) -> bool {
    crate::text::split_camel(name)
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| NAMES_NO_SECRET.contains(&w))
}

/// Replaces every random token that stands free in a line; `None` when none.
pub fn free_tokens(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let spans: Vec<(usize, &str)> = super::pieces(line, char::is_whitespace)
            .filter_map(|(at, word)| {
                let bare = word.trim_matches(|c: char| {
                    matches!(c, '"' | '\'' | '`' | ',' | '.' | ';' | ')' | '(')
                });
                // `NAME=value` written as one word: the value after the sign.
                let (bare, split) = match bare.split_once('=') {
                    Some((_, value)) if !is_random(bare) && !is_random_base64(bare) => {
                        (value.trim_matches(['"', '\'']), true)
                    }
                    _ => (bare, false),
                };
                let random = is_random(bare);
                if !random && !is_random_base64(bare) {
                    return None;
                }
                let offset = word.find(bare)?;
                let before = line[..at + offset].trim_end_matches(['"', '\'', '`', '(']);
                // Base64 is taken only in prose (see `is_random_base64`).
                let sentence = after_a_sentence(before);
                if !random && !sentence {
                    return None;
                }
                let named = before.trim_end().ends_with([':', '=', ',', '>'])
                    && !sentence
                    && !assigned_to_a_plain_name(before);
                // A line of its own, but for `NAME=value` written as one word.
                let alone = line.trim() == word && !split;
                // An SSH public key's body (`ssh-ed25519 AAAAC3…`) begins with its
                // length's zero bytes; a public key says so before it.
                let public = bare.starts_with("AAAA")
                    || super::near::says_public(&before.to_ascii_lowercase());
                (!named && !alone && !public).then_some((at + offset, bare))
            })
            .collect();
        changed |= super::push_redacted(&mut out, line, spans);
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_token_among_words() {
        let log = "DEBUG upstream: dialing https://recon.int:8443 as etl-03 with NQ8SWjKTlKbBKVbkxlEiWoUZTVX9roZsm77SyzAb (40 chars)\n";
        assert_eq!(
            free_tokens(log).unwrap(),
            "DEBUG upstream: dialing https://recon.int:8443 as etl-03 with [REDACTED] (40 chars)\n"
        );
    }

    #[test]
    fn names_ids_and_blocks_stay() {
        for text in [
            "see `trv2StatDynamicRingCouplingTableEntryGroupIndex` in the MIB",
            "  clientId: \"5hUsIC657PFYhpPBQs0wAfWDXYmDO4aI\",",
            "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAOx4xQNkxEJcbVn4dIU1e\n",
            "commit 3f9a8c7d2e1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f and more",
            "nmhGetLldpXdot1ConfigVlanNameTxEnable(INT4 port)",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq7W2e9R4t1Y8u3I6o5P0 me@host",
        ] {
            assert_eq!(free_tokens(text), None, "{text}");
        }
    }

    #[test]
    fn a_name_after_a_letter_of_several_bytes() {
        // Panicked once: the name's start was one byte past `á`, inside it.
        let text = "eochair nua don tseirbhís léarscáileanna: Hq7LmZPw2XbRT9vKsNy4QdJcFE8ua3GtWnB5";
        let out = free_tokens(text).unwrap_or_else(|| text.to_string());
        assert!(out.starts_with("eochair nua"), "{out}");
        for before in [
            "léarscáileanna:",
            "séance =",
            "ü=",
            "日本語 relay_shared =",
            "é",
        ] {
            assigned_to_a_plain_name(before);
        }
        assert!(assigned_to_a_plain_name("RELAY_SHARED ="));
    }
}
