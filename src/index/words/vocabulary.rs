//! Developer shorthand and the words it stands for: a prompt that says "k8s" or "deps"
//! is about what a memory calls "kubernetes" or "dependencies". Groups of one-word
//! spellings of one thing; every spelling finds the others. Written from common usage,
//! not from any prompt set. Never grouped: tools that are alternatives to each other
//! (npm, pnpm, yarn), since a memory that prefers one says not to use the other; and
//! shorthand that is also a name in code or a folder by convention (`err`, `ctx`,
//! `fmt`, `req`, `fn`, `args`, `src/`, `lib/`, `cmd/`, `pkg/`, `tmp/`), which finds code
//! that uses the name, not the topic.

use std::sync::OnceLock;

use super::words;
use crate::index::Index;

/// One thing, several spellings.
const GROUPS: &[&[&str]] = &[
    &["k8s", "kubernetes"],
    &["tf", "terraform"],
    &["pg", "postgres", "postgresql", "psql"],
    &["db", "database"],
    &["deps", "dependency", "dependencies"],
    &["repo", "repository"],
    &["env", "environment"],
    &["cfg", "conf", "config", "configuration"],
    &["auth", "authentication", "authn"],
    &["authz", "authorization"],
    &["creds", "credential", "credentials"],
    &["perms", "permission", "permissions"],
    &["js", "javascript"],
    &["ts", "typescript"],
    &["py", "python"],
    &["prod", "production"],
    &["dev", "development"],
    &["gh", "github"],
    &["msg", "message"],
    &["docs", "documentation"],
    &["perf", "performance"],
    &["impl", "implementation"],
    &["dir", "directory", "folder"],
    &["cert", "certs", "certificate", "certificates"],
    &["ssl", "tls"],
    &["regex", "regexp"],
    &["yml", "yaml"],
    &[
        "i18n",
        "internationalization",
        "translation",
        "translations",
    ],
    &["a11y", "accessibility"],
    &["tz", "timezone"],
    &["ws", "websocket"],
    &["gql", "graphql"],
    &["mongo", "mongodb"],
    &["txn", "transaction"],
    &["btn", "button"],
    &["letsencrypt", "acme"],
];

/// The groups as the index's words (stemmed, lower case).
fn stemmed(index: &Index) -> &'static [Vec<String>] {
    static GROUPS_STEMMED: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    GROUPS_STEMMED.get_or_init(|| {
        GROUPS
            .iter()
            .map(|group| {
                let mut words: Vec<String> = group
                    .iter()
                    .filter_map(|w| words(index, w).into_iter().next())
                    .collect();
                words.sort();
                words.dedup();
                words
            })
            .collect()
    })
}

/// The other spellings of `word` (an index word), if it has any.
pub fn others(index: &Index, word: &str) -> Vec<String> {
    stemmed(index)
        .iter()
        .find(|group| group.iter().any(|w| w == word))
        .map(|group| group.iter().filter(|w| *w != word).cloned().collect())
        .unwrap_or_default()
}
