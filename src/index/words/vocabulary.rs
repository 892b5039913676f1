//! Developer shorthand and the words it stands for: a prompt that says "k8s" or "deps"
//! is about what a memory calls "kubernetes" or "dependencies". Groups of one-word
//! spellings of one thing; every spelling finds the others. Written from common usage,
//! not from any prompt set. A group is named only by a word written as one of its
//! spellings (the index stems "production" and "product" alike; "product" names no
//! group). Never grouped: tools that are alternatives to each other (npm, pnpm, yarn),
//! since a memory that prefers one says not to use the other; and shorthand that is
//! mostly a name in code or a folder by convention (`err`, `ctx`, `fmt`, `req`, `fn`,
//! `impl`, `cfg`, `args`, `src/`, `lib/`, `cmd/`, `pkg/`, `tmp/`), which finds code that
//! uses the name, not the topic. Prose shorthand that is also a name somewhere (`env`,
//! `ts`, `js`, `py` as file extensions) stays: a `.ts` file is TypeScript.

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
    &["conf", "config", "configuration"],
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

/// The groups the prompt or query names, as (the index's word for the spelling used,
/// the group): only a word written as one of a group's spellings counts, so "product"
/// (whose stem is also production's) names no group, while "prod" and "production" do.
pub fn named_in(index: &Index, text: &str) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for raw in text.split_whitespace() {
        let raw = raw
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        let Some(group) = GROUPS.iter().position(|g| g.contains(&raw.as_str())) else {
            continue;
        };
        if let Some(stem) = words(index, &raw).into_iter().next()
            && !out.iter().any(|(s, _)| *s == stem)
        {
            out.push((stem, group));
        }
    }
    out
}

/// Every spelling of a group, as the index's words.
pub fn spellings(index: &Index, group: usize) -> &'static [String] {
    stemmed(index).get(group).map_or(&[], Vec::as_slice)
}
