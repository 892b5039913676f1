//! Keys carried in a URL's path rather than its query: a blockchain node provider's
//! endpoint (`https://eth-mainnet.g.alchemy.com/v2/KEY`, `https://mainnet.infura.io/v3/KEY`,
//! `https://x.quiknode.pro/KEY/`), where the path segment is the account's key, and the
//! segment after one that names it on any host (`/hooks/KEY`, `/with/key/KEY`).

use std::sync::OnceLock;

use regex::Regex;

use super::near::looks_secret;
use super::value::is_uuid;

/// Words of a host that serves an account's key in its path: node providers, and `rpc`
/// as a label of its own (`rpc.ankr.com`, `polygon-rpc.example.io`).
const KEY_IN_PATH_HOSTS: &[&str] = &[
    "alchemy",
    "infura",
    "quiknode",
    "quicknode",
    "ankr",
    "chainstack",
    "blastapi",
    "getblock",
    "drpc",
    "nodereal",
    "moralis",
    "rpc",
];

/// The shortest path segment taken for a key: an id, not a word or a chain's name.
const MIN_KEY: usize = 20;

/// Replaces every key-shaped path segment of a node provider's URL; `None` when none.
pub fn keys_in_paths(text: &str, lower: &str) -> Option<String> {
    if !lower.contains("://") || !KEY_IN_PATH_HOSTS.iter().any(|h| lower.contains(h)) {
        return None;
    }
    redact_segments(text, |host, _, segment| {
        segment.len() >= MIN_KEY
            && KEY_IN_PATH_HOSTS.iter().any(|h| {
                host.split(['.', '-'])
                    .any(|label| label == *h || (*h != "rpc" && label.contains(h)))
            })
    })
}

/// Path segments after which the next one is the key itself: a chat's incoming webhook
/// (`/hooks/KEY`), a trigger's key (`/with/key/KEY`), a token in the path.
const NAMES_THE_KEY: &[&str] = &[
    "hooks", "hook", "webhook", "webhooks", "key", "token", "secret", "apikey", "api-key",
];

/// The shortest segment after such a name taken for a key.
const MIN_NAMED_KEY: usize = 16;

/// Replaces every key-shaped path segment that follows a segment naming a key, or a
/// first segment `t` on conda's hosts; `None` when none. A UUID there names a resource
/// (`/api/keys/<uuid>`), not a key.
pub fn keys_after_names(text: &str, lower: &str) -> Option<String> {
    static NAMED: OnceLock<Regex> = OnceLock::new();
    let named = NAMED.get_or_init(|| segment_among(NAMES_THE_KEY));
    if !lower.contains("://") || !named.is_match(lower) && !lower.contains("conda") {
        return None;
    }
    redact_segments(text, |host, earlier, segment| {
        let before = earlier.last().copied().unwrap_or("");
        // On conda's hosts a path that opens with `/t/` carries a token next
        // (`https://conda.anaconda.org/t/<token>/<channel>`); elsewhere `/t/<slug>/` is a
        // forum's topic.
        let token_first = before == "t" && earlier.len() == 2 && host.contains("conda");
        (token_first || NAMES_THE_KEY.contains(&before.to_ascii_lowercase().as_str()))
            && segment.len() >= MIN_NAMED_KEY
            && !is_uuid(segment)
    })
}

/// Path segments that say the link acts once for whoever holds it: a password reset, an
/// email's confirmation, an invitation, a magic sign-in link.
const ONE_TIME: &[&str] = &[
    "reset",
    "password-reset",
    "password_reset",
    "confirm",
    "confirm-email",
    "activate",
    "activation",
    "verify",
    "verify-email",
    "invite",
    "invitation",
    "magic",
    "magic-link",
];

/// The shortest segment of a one-time link taken for its token.
const MIN_LINK_TOKEN: usize = 20;

/// Replaces the token of every one-time link (`/accounts/reset/MTc/<token>/`, any
/// segment after the one that says what the link does); `None` when none. A UUID there
/// may be the token too, and goes.
pub fn one_time_links(text: &str, lower: &str) -> Option<String> {
    static NAMED: OnceLock<Regex> = OnceLock::new();
    let named = NAMED.get_or_init(|| segment_among(ONE_TIME));
    if !lower.contains("://") || !named.is_match(lower) {
        return None;
    }
    redact_segments(text, |_, earlier, segment| {
        earlier
            .iter()
            .any(|s| ONE_TIME.contains(&s.to_ascii_lowercase().as_str()))
            && segment.len() >= MIN_LINK_TOKEN
    })
}

/// A path segment that is one of `names` (`/hooks/`): one pass over a large output for
/// all the names at once.
fn segment_among(names: &[&str]) -> Regex {
    let names: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
    Regex::new(&format!("/(?:{})/", names.join("|"))).expect("a valid pattern")
}

/// Every URL of `text` with the path segments `is_key` takes (given the URL's host in
/// lower case, the segments before and the segment) replaced, when they look like a
/// secret; `None` when none was.
fn redact_segments(text: &str, is_key: impl Fn(&str, &[&str], &str) -> bool) -> Option<String> {
    let mut changed = false;
    let out = url_re().replace_all(text, |caps: &regex::Captures| {
        let whole = &caps[0];
        let host = caps["host"].to_ascii_lowercase();
        let path_at = whole.len() - caps["path"].len();
        let segments: Vec<&str> = caps["path"].split('/').collect();
        let path: Vec<&str> = segments
            .iter()
            .enumerate()
            .map(|(i, segment)| {
                if is_key(&host, &segments[..i], segment)
                    && looks_secret(segment)
                    && !segment.contains(super::REDACTED)
                {
                    changed = true;
                    super::REDACTED
                } else {
                    segment
                }
            })
            .collect();
        format!("{}{}", &whole[..path_at], path.join("/"))
    });
    changed.then(|| out.into_owned())
}

/// A URL: its host and its path, up to a query, a fragment or what ends it in text.
fn url_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"(?i)\b(?:https?|wss?)://(?P<host>[a-z0-9.-]+)(?::\d+)?(?P<path>/[^\s"'<>()\[\]{}?#]*)"#)
            .expect("a valid pattern")
    })
}

#[cfg(test)]
mod tests {
    use super::{keys_after_names, keys_in_paths};

    fn run(text: &str) -> Option<String> {
        keys_in_paths(text, &text.to_ascii_lowercase())
    }

    #[test]
    fn a_node_providers_key_in_the_path_goes_but_not_a_repositorys_commit() {
        let alchemy =
            "mainnet = \"https://eth-mainnet.g.alchemy.com/v2/5bXon24-4D7IfSOWRAUkD1htZqekJ9C8\"";
        assert_eq!(
            run(alchemy).as_deref(),
            Some("mainnet = \"https://eth-mainnet.g.alchemy.com/v2/[REDACTED]\"")
        );
        let infura = "https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161";
        assert!(!run(infura).expect("redacted").contains("9aa3d95b"));
        for kept in [
            "https://github.com/rpc-org/rpc/commit/3f2c9a0e8b7d6c5f4a3b2c1d0e9f8a7b6c5d4e3f",
            "https://docs.alchemy.com/reference/eth-getbalance",
            "https://rpc.example.io/status",
        ] {
            assert_eq!(run(kept), None, "{kept}");
        }
    }

    #[test]
    fn the_segment_after_one_that_names_a_key_goes() {
        let hook = "curl -d '{}' https://chat.example.io/hooks/q3k8vz0w1mdx7rthpa2y5ucn4e";
        assert_eq!(
            keys_after_names(hook, &hook.to_ascii_lowercase()).as_deref(),
            Some("curl -d '{}' https://chat.example.io/hooks/[REDACTED]")
        );
        let trigger = "https://maker.example.com/trigger/done/with/key/pW3_xK9vQm2LzT8rYb4N-";
        let out = keys_after_names(trigger, &trigger.to_ascii_lowercase()).expect("redacted");
        assert!(!out.contains("pW3_xK9v"), "{out}");
        for kept in [
            "https://api.example.com/v1/keys/3f2c9a0e-8b7d-4c5f-9a3b-2c1d0e9f8a7b",
            "https://github.com/acme/app/settings/hooks/412398771",
            "https://example.com/docs/webhooks/getting-started-with-events",
            "https://example.com/hooks/",
        ] {
            assert_eq!(
                keys_after_names(kept, &kept.to_ascii_lowercase()),
                None,
                "{kept}"
            );
        }
    }
}
