//! Whether injected memories are used: how often each item was injected and how often
//! the agent then acted on it in the same session (read the item's file, ran a command
//! its advice names, touched a file it names or its `paths` cover). Counts live in
//! `state/usage.json`; what a session still watches for lives in its hook memo.
//!
//! Only positive acts are seen: "never run X" is used when X is *not* run, which no
//! single tool call shows, so such spans are not cues at all.

use std::collections::BTreeMap;
use std::path::PathBuf;

use globset::Glob;
use serde::{Deserialize, Serialize};

use super::hook_state::WAIT;
use crate::fsutil;
use crate::lock::{LockError, LockName};
use crate::paths::Paths;

/// One item's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Counts {
    /// Sent for a prompt, a file or an edit: recall chose it for this moment.
    pub injected: u32,
    /// Listed at session start, which lists every item of a small memory each session:
    /// kept apart so that listing alone never makes an item look ignored.
    pub listed: u32,
    /// Sessions in which the agent acted on it after it was sent.
    pub used: u32,
    /// Its advice names nothing a tool call could show done (a rule against something,
    /// "never force-push"): going unused says nothing about it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub blind: bool,
}

/// Counts per item id (its path relative to the memory folder).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Usage {
    pub items: BTreeMap<String, Counts>,
}

/// Injections an item may go unused before it ranks lower.
const GRACE: u32 = 4;
/// The lowest rank weight an ignored item falls to.
const MIN_WEIGHT: f64 = 0.5;

impl Usage {
    pub fn of(&self, id: &str) -> Counts {
        self.items.get(id).copied().unwrap_or_default()
    }

    /// What recall multiplies an item's score by: 1 while it is used or young, lower
    /// the more often it was injected and never acted on.
    pub fn rank_weight(&self, id: &str) -> f64 {
        let c = self.of(id);
        if c.blind || c.used > 0 || c.injected <= GRACE {
            return 1.0;
        }
        (1.0 / (1.0 + 0.1 * f64::from(c.injected - GRACE))).max(MIN_WEIGHT)
    }
}

fn file(paths: &Paths) -> PathBuf {
    paths.state().join("usage.json")
}

/// The counts (empty when there are none or they do not parse).
pub fn read(paths: &Paths) -> Usage {
    fsutil::read_json_or_default(&file(paths))
}

/// What happened to some items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Injected,
    Listed,
    Used,
}

/// Adds one `event` to each of `ids`; those also in `blind` cannot be seen used.
pub fn record(
    paths: &Paths,
    event: Event,
    ids: &[String],
    blind: &[String],
) -> Result<(), LockError> {
    if ids.is_empty() {
        return Ok(());
    }
    let lock = paths.lock(&LockName::Usage);
    crate::lock::update_json(&lock, &file(paths), WAIT, |usage: &mut Usage| {
        for id in ids {
            let c = usage.items.entry(id.clone()).or_default();
            if event != Event::Used {
                c.blind = blind.contains(id);
            }
            let n = match event {
                Event::Injected => &mut c.injected,
                Event::Listed => &mut c.listed,
                Event::Used => &mut c.used,
            };
            *n = n.saturating_add(1);
        }
    })
}

/// A sign that the agent acted on an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cue {
    /// A file whose path ends with this (read, edited or named in a command).
    File(String),
    /// A command (or the program) the advice names, run in the shell.
    Command(String),
    /// The item's `paths` glob, matched by a touched file.
    Glob(String),
}

/// An injected item a session watches for use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watch {
    pub id: String,
    pub cues: Vec<Cue>,
}

/// What an injected item looks like to the use detector.
pub struct Injected<'a> {
    pub id: &'a str,
    pub action: &'a str,
    pub globs: &'a [String],
    /// Sent because its path was touched: touching it again says nothing.
    pub by_path: bool,
}

/// Whether any of `cues` is more than the item's own file: something its advice names.
pub fn observable(cues: &[Cue]) -> bool {
    // `cues` puts the item's own file first.
    cues.len() > 1
}

/// The cues that would show an item was used (the item's own file first).
pub fn cues(item: &Injected) -> Vec<Cue> {
    let mut out = vec![Cue::File(item.id.to_string())];
    for span in advised_spans(item.action) {
        let cue = if looks_like_path(&span) {
            Cue::File(span)
        } else {
            Cue::Command(span)
        };
        if !out.contains(&cue) {
            out.push(cue);
        }
    }
    for command in plain_commands(item.action) {
        let cue = Cue::Command(command);
        if !out.contains(&cue) {
            out.push(cue);
        }
    }
    for word in item.action.split_whitespace() {
        let word = word.trim_matches(|c: char| ",;:()\"'`".contains(c));
        let word = word.trim_end_matches('.');
        if word.contains('/') && looks_like_path(word) && !word.contains("://") {
            let cue = Cue::File(word.to_string());
            if !out.contains(&cue) {
                out.push(cue);
            }
        }
    }
    if !item.by_path {
        out.extend(item.globs.iter().map(|g| Cue::Glob(g.clone())));
    }
    out
}

/// The `code spans` of an action that it advises, not those it warns against
/// ("use `pnpm`, not `npm`" advises `pnpm` only).
fn advised_spans(action: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = action;
    let mut before_len = 0;
    while let Some(open) = rest.find('`') {
        let Some(close) = rest[open + 1..].find('`') else {
            break;
        };
        let span = rest[open + 1..open + 1 + close].trim();
        let before = action[..before_len + open].to_lowercase();
        let before = before.trim_end_matches(['(', ' ', ',']);
        let warned = [
            "not",
            "never",
            "instead of",
            "avoid",
            "don't",
            "no",
            "rejected",
            "without",
            "over",
        ]
        .iter()
        .any(|w| {
            before.ends_with(w)
                && !before[..before.len() - w.len()].ends_with(|c: char| c.is_alphanumeric())
        });
        if !warned && span.chars().count() >= 2 && span.len() <= 200 {
            out.push(span.to_string());
        }
        let consumed = open + 1 + close + 1;
        before_len += consumed;
        rest = &rest[consumed..];
    }
    out
}

/// Commands an action names without code spans: "use cargo nextest run; …" names
/// `cargo nextest run`, "run git pull --rebase first" names `git pull --rebase`. A clause
/// that starts with an advising verb is read up to where the advice turns to prose; a
/// phrase that is not a command ("use early returns") costs nothing, as no shell command
/// contains it.
fn plain_commands(action: &str) -> Vec<String> {
    const VERBS: [&str; 4] = ["use ", "run ", "prefer ", "try "];
    const PROSE: [&str; 10] = [
        " instead", " not ", " before", " after", " when", " first", " rather", " so ", " because",
        " to ",
    ];
    let mut out = Vec::new();
    for clause in action
        .split(['\n', ';', ',', '(', ')'])
        .flat_map(|c| c.split(": "))
    {
        let clause = clause.trim().trim_end_matches('.');
        let lower = clause.to_lowercase();
        let Some(verb) = VERBS.iter().find(|v| lower.starts_with(*v)) else {
            continue;
        };
        let mut rest = &clause[verb.len()..];
        let rest_lower = rest.to_lowercase();
        if let Some(cut) = PROSE.iter().filter_map(|p| rest_lower.find(p)).min() {
            rest = &rest[..cut];
        }
        let words: Vec<&str> = rest.split_whitespace().take(4).collect();
        let shell_like = words.iter().all(|w| {
            w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:@+".contains(c))
        });
        let starts_like_a_program = words
            .first()
            .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_lowercase()));
        if shell_like && starts_like_a_program && !out.contains(&words.join(" ")) {
            out.push(words.join(" "));
        }
    }
    out
}

/// `src/schema.rs`, `Cargo.toml`, `.env.example`: one token, a dot in its last part.
fn looks_like_path(text: &str) -> bool {
    if text.contains(char::is_whitespace) {
        return false;
    }
    let last = text.rsplit('/').next().unwrap_or(text);
    last.contains('.') && last.chars().any(char::is_alphabetic) && !last.ends_with('.')
}

/// What a tool call touched.
#[derive(Debug, Default)]
pub struct Touch<'a> {
    /// The file as given (absolute) and relative to the project.
    pub file: Option<&'a str>,
    pub relative: Option<&'a str>,
    pub command: Option<&'a str>,
}

impl Cue {
    fn seen_in(&self, touch: &Touch) -> bool {
        match self {
            Cue::File(suffix) => {
                let file_hit = [touch.file, touch.relative]
                    .into_iter()
                    .flatten()
                    .any(|f| f == suffix || f.ends_with(&format!("/{suffix}")));
                file_hit || touch.command.is_some_and(|c| contains_word(c, suffix))
            }
            Cue::Command(cmd) => touch.command.is_some_and(|c| contains_word(c, cmd)),
            Cue::Glob(glob) => Glob::new(glob).map(|g| g.compile_matcher()).is_ok_and(|m| {
                [touch.file, touch.relative]
                    .into_iter()
                    .flatten()
                    .any(|f| m.is_match(f))
            }),
        }
    }
}

/// Whether `needle` occurs in `haystack` with no word character glued to either end
/// (`npm` is not in `pnpm install`), whitespace runs counting as one space.
fn contains_word(haystack: &str, needle: &str) -> bool {
    let hay = squeeze(crate::text::clip_chars(haystack, 10_000));
    let needle = squeeze(needle);
    if needle.is_empty() {
        return false;
    }
    let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let mut from = 0;
    while let Some(at) = hay[from..].find(&needle) {
        let start = from + at;
        let end = start + needle.len();
        if !glued(hay[..start].chars().next_back()) && !glued(hay[end..].chars().next()) {
            return true;
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    false
}

fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The watched items this tool call used; they are taken out of `watching`.
pub fn take_used(watching: &mut Vec<Watch>, touch: &Touch) -> Vec<String> {
    let mut used = Vec::new();
    watching.retain(|w| {
        let hit = w.cues.iter().any(|c| c.seen_in(touch));
        if hit {
            used.push(w.id.clone());
        }
        !hit
    });
    used
}

#[cfg(test)]
mod tests;
