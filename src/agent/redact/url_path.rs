//! Keys carried in a URL's path rather than its query: a blockchain node provider's
//! endpoint (`https://eth-mainnet.g.alchemy.com/v2/KEY`, `https://mainnet.infura.io/v3/KEY`,
//! `https://x.quiknode.pro/KEY/`), where the path segment is the account's key.

use std::sync::OnceLock;

use regex::Regex;

use super::near::looks_secret;

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
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r#"(?i)\b(?:https?|wss?)://(?P<host>[a-z0-9.-]+)(?::\d+)?(?P<path>/[^\s"'<>()\[\]{}?#]*)"#)
            .expect("a valid pattern")
    });
    let mut changed = false;
    let out = re.replace_all(text, |caps: &regex::Captures| {
        let whole = &caps[0];
        let host = caps["host"].to_ascii_lowercase();
        let serves_keys = KEY_IN_PATH_HOSTS.iter().any(|h| {
            host.split(['.', '-'])
                .any(|label| label == *h || (*h != "rpc" && label.contains(h)))
        });
        if !serves_keys {
            return whole.to_string();
        }
        let path_at = whole.len() - caps["path"].len();
        let path: Vec<String> = caps["path"]
            .split('/')
            .map(|segment| {
                if segment.len() >= MIN_KEY
                    && looks_secret(segment)
                    && !segment.contains(super::REDACTED)
                {
                    changed = true;
                    super::REDACTED.to_string()
                } else {
                    segment.to_string()
                }
            })
            .collect();
        format!("{}{}", &whole[..path_at], path.join("/"))
    });
    changed.then(|| out.into_owned())
}

#[cfg(test)]
mod tests {
    use super::keys_in_paths;

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
}
