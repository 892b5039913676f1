//! Memories tied to files and failures: instincts and convictions whose `paths` globs
//! match a file, censors that fire for a tool call, the past sessions and episodes that
//! touched a file, and what happened the last times a failure was seen.

use globset::Glob;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur};
use tantivy::{IndexReader, Order};

use super::{Item, any_of, item_of, load, of_kinds, term};
use crate::index::{Index, IndexError, path_terms};
use crate::memory::kind::Kind;

/// Instincts and convictions whose `paths` globs match a file (given relative to its
/// project, and absolute). Promoted instincts are left to their conviction.
pub fn for_path(
    index: &Index,
    reader: &IndexReader,
    relative: &str,
    absolute: &str,
    now: i64,
) -> Result<Vec<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let terms = path_terms(relative);
    let term_refs: Vec<&str> = terms.iter().map(String::as_str).collect();
    let query = BooleanQuery::new(vec![
        (
            Occur::Must,
            of_kinds(f, &[Kind::Instinct, Kind::Conviction]),
        ),
        (Occur::Must, any_of(f.glob_terms, &term_refs)),
        (Occur::MustNot, term(f.flags, "promoted")),
    ]);
    let mut out = Vec::new();
    for (_, address) in searcher.search(&query, &TopDocs::with_limit(200).order_by_score())? {
        let item = load(&searcher, f, address, now)?;
        let hit = item.globs.iter().any(|g| {
            Glob::new(g)
                .map(|g| g.compile_matcher())
                .is_ok_and(|m| m.is_match(relative) || m.is_match(absolute))
        });
        if hit {
            out.push(item);
        }
    }
    out.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    Ok(out)
}

/// What a censor does when it fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Warn,
    /// Deny the call: only a conviction (set by a person) can block.
    Block,
}

/// Censors that fire for a tool call: their `command` pattern matches the shell command,
/// or their `paths` globs match the file. A bad pattern never fires.
pub fn censors(
    index: &Index,
    reader: &IndexReader,
    command: Option<&str>,
    file: Option<(&str, &str)>,
    now: i64,
) -> Result<Vec<(Item, Verdict)>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let query = any_of(f.flags, &["censor-warn", "censor-block"]);
    let mut out = Vec::new();
    for (_, address) in searcher.search(&query, &TopDocs::with_limit(500).order_by_score())? {
        let item = load(&searcher, f, address, now)?;
        let by_command = match (command, item.command.as_deref()) {
            (Some(cmd), Some(pattern)) => regex::RegexBuilder::new(pattern)
                .size_limit(1 << 20)
                .build()
                .is_ok_and(|re| re.is_match(crate::text::clip_chars(cmd, 10_000))),
            _ => false,
        };
        let by_path = file.is_some_and(|(relative, absolute)| {
            item.globs.iter().any(|g| {
                Glob::new(g)
                    .map(|g| g.compile_matcher())
                    .is_ok_and(|m| m.is_match(relative) || m.is_match(absolute))
            })
        });
        if by_command || by_path {
            let block =
                item.kind == Kind::Conviction && item.flags.iter().any(|x| x == "censor-block");
            out.push((item, if block { Verdict::Block } else { Verdict::Warn }));
        }
    }
    Ok(out)
}

/// Past sessions (up to 3) and episodes (up to 2) that touched a file, newest first.
pub fn file_history(
    index: &Index,
    reader: &IndexReader,
    keys: &[&str],
    exclude: Option<&str>,
    now: i64,
) -> Result<Vec<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let mut out = Vec::new();
    for (kind, limit) in [(Kind::Session, 3), (Kind::Episode, 2)] {
        let query = BooleanQuery::new(vec![
            (Occur::Must, term(f.kind, kind.name())),
            (Occur::Must, any_of(f.file_keys, keys)),
        ]);
        let top =
            TopDocs::with_limit(limit + 1).order_by_fast_field::<i64>("last_seen", Order::Desc);
        let mut taken = 0;
        for (_, address) in searcher.search(&query, &top)? {
            let item = load(&searcher, f, address, now)?;
            if Some(item.id.as_str()) != exclude && taken < limit {
                taken += 1;
                out.push(item);
            }
        }
    }
    Ok(out)
}

/// Failure recall: the instincts and episodes about a failure with this key (see
/// `agent::signature::failure_key`), in this project or for everyone, newest first.
/// Other projects' items are never returned.
pub fn for_failure(
    index: &Index,
    reader: &IndexReader,
    key: &str,
    project: &str,
    now: i64,
) -> Result<Vec<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let query = BooleanQuery::new(vec![
        (Occur::Must, of_kinds(f, &[Kind::Instinct, Kind::Episode])),
        (Occur::Must, term(f.flags, key)),
        (Occur::Must, any_of(f.scope, &[project, "*"])),
    ]);
    let top = TopDocs::with_limit(2).order_by_fast_field::<i64>("last_seen", Order::Desc);
    let mut out = Vec::new();
    for (_, address) in searcher.search(&query, &top)? {
        let doc: tantivy::TantivyDocument = searcher.doc(address)?;
        let mut item = item_of(f, &doc, now);
        if let Some(sighting) = sighting_of(&crate::index::stored_text(&doc, f.body), key) {
            item.gist = sighting;
        }
        out.push(item);
    }
    Ok(out)
}

/// The newest sighting of an episode that is of this failure: an episode gathers the
/// failures that teach one lesson, and its newest sighting may be of another.
fn sighting_of(body: &str, key: &str) -> Option<String> {
    use crate::agent::signature::{failure_key, quoted_failures};
    crate::index::sightings(body)
        .rev()
        .find(|line| quoted_failures(line).any(|q| failure_key(q).as_deref() == Some(key)))
        .map(str::to_string)
}
