//! Choosing which memories reach the agent, and when: at session start (convictions,
//! this project's instincts, the last session), on a prompt (gated, keyword recall), before
//! a file is touched (`paths` globs) and after it is edited (past sessions and episodes).
//! Everything reads the index; nothing here writes.

mod files;
pub mod gate;
pub mod render;

pub use files::{Verdict, censors, file_history, for_path};

use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{DocAddress, IndexReader, Order, Searcher, TantivyDocument, Term};

use crate::index::schema::{BOOSTS, Fields};
use crate::index::{Index, IndexError, search};
use crate::memory::kind::Kind;

/// A memory as injection sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The path relative to the memory folder: the id used in memos and logs.
    pub id: String,
    pub kind: Kind,
    pub name: String,
    pub title: String,
    pub trigger: String,
    pub action: String,
    pub domain: String,
    pub project: Option<String>,
    /// Effective confidence for instincts; 1 for convictions; 0 otherwise.
    pub confidence: f64,
    pub date: i64,
    pub globs: Vec<String>,
    pub flags: Vec<String>,
    pub command: Option<String>,
}

pub(crate) fn term(field: Field, value: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(field, value),
        IndexRecordOption::Basic,
    ))
}

/// Any of the kinds.
pub(crate) fn of_kinds(f: &Fields, kinds: &[Kind]) -> Box<dyn Query> {
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    any_of(f.kind, &names)
}

pub(crate) fn any_of(field: Field, values: &[&str]) -> Box<dyn Query> {
    Box::new(BooleanQuery::new(
        values
            .iter()
            .map(|v| (Occur::Should, term(field, v)))
            .collect(),
    ))
}

/// Items of `kinds` visible in `project` (its own and global ones).
fn scoped(f: &Fields, kinds: &[Kind], project: &str) -> Vec<(Occur, Box<dyn Query>)> {
    vec![
        (Occur::Must, of_kinds(f, kinds)),
        (Occur::Must, any_of(f.scope, &[project, "*"])),
    ]
}

fn effective(kind: Kind, confidence: f64, decay_origin: i64, now: i64) -> f64 {
    match kind {
        Kind::Instinct => crate::memory::confidence::effective_at(confidence, decay_origin, now),
        Kind::Conviction => 1.0,
        Kind::Episode | Kind::Session => 0.0,
    }
}

pub(crate) fn load(
    searcher: &Searcher,
    f: &Fields,
    address: DocAddress,
    now: i64,
) -> Result<Item, IndexError> {
    let doc: TantivyDocument = searcher.doc(address)?;
    let text = |field| crate::index::stored_text(&doc, field);
    let all = |field| {
        doc.get_all(field)
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect::<Vec<_>>()
    };
    let int = |field| doc.get_first(field).and_then(|v| v.as_i64()).unwrap_or(0);
    // An unknown kind (an index written by a newer version) reads as a record of what
    // happened, never as advice.
    let kind = Kind::from_name(&text(f.kind)).unwrap_or(Kind::Episode);
    let confidence = doc
        .get_first(f.confidence)
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let project = text(f.project);
    Ok(Item {
        id: text(f.path),
        confidence: effective(kind, confidence, int(f.decay_origin), now),
        name: text(f.name),
        title: text(f.title),
        trigger: text(f.trigger),
        action: text(f.action),
        domain: text(f.domain),
        project: (!project.is_empty()).then_some(project),
        date: int(f.last_seen).max(int(f.created)),
        globs: all(f.globs),
        flags: all(f.flags),
        command: Some(text(f.command)).filter(|c| !c.is_empty()),
        kind,
    })
}

/// What SessionStart injects.
#[derive(Debug, Default)]
pub struct Start {
    pub convictions: Vec<Item>,
    pub instincts: Vec<Item>,
    /// How many instincts were eligible (more than shown when filtered).
    pub eligible_instincts: usize,
    pub last_session: Option<Item>,
}

/// Limits for session start.
#[derive(Debug, Clone, Copy)]
pub struct StartLimits {
    pub all_up_to: usize,
    pub top: usize,
    pub convictions: usize,
}

/// Convictions, then this project's instincts (all when few, else the most relevant to
/// the project and its markers, weighted by effective confidence), then the last session.
pub fn session_start(
    index: &Index,
    reader: &IndexReader,
    project: &str,
    words: &[&str],
    exclude_session: Option<&str>,
    limits: StartLimits,
    now: i64,
) -> Result<Start, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let mut start = Start::default();
    let convictions = BooleanQuery::new(scoped(f, &[Kind::Conviction], project));
    let top = TopDocs::with_limit(limits.convictions.max(1))
        .order_by_fast_field::<i64>("created", Order::Desc);
    for (_, address) in searcher.search(&convictions, &top)? {
        start.convictions.push(load(&searcher, f, address, now)?);
    }
    let mut clauses = scoped(f, &[Kind::Instinct], project);
    // Promoted instincts speak through their conviction; disputed ones are not advice.
    clauses.push((Occur::MustNot, term(f.flags, "promoted")));
    clauses.push((Occur::MustNot, term(f.flags, "disputed")));
    let filter = BooleanQuery::new(clauses);
    start.eligible_instincts = searcher.search(&filter, &Count)?;
    let addresses: Vec<DocAddress> = if start.eligible_instincts <= limits.all_up_to {
        let all = TopDocs::with_limit(limits.all_up_to.max(1))
            .order_by_fast_field::<f64>("confidence", Order::Desc);
        searcher
            .search(&filter, &all)?
            .into_iter()
            .map(|(_, a)| a)
            .collect()
    } else {
        let text = words.join(" ");
        let opts = search::SearchOptions {
            kind: None,
            project: None,
            limit: limits.top,
            now_unix: now,
            snippet_chars: 0,
        };
        let stemmed = search::words(index, &text);
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, Box::new(filter))];
        if let Some(relevance) = search::query(f, &stemmed, &opts) {
            clauses.push((Occur::Should, relevance));
        }
        search::ranked(&searcher, &BooleanQuery::new(clauses), limits.top, now)?
    };
    for address in addresses {
        start.instincts.push(load(&searcher, f, address, now)?);
    }
    if start.eligible_instincts <= limits.all_up_to {
        start.instincts.sort_by(|a, b| {
            b.confidence
                .total_cmp(&a.confidence)
                .then(a.name.cmp(&b.name))
        });
    }
    start.last_session = last_session(index, reader, project, exclude_session, None, now)?;
    Ok(start)
}

/// The newest session summary of `project` other than `exclude`, started no later than
/// `before` when given.
pub fn last_session(
    index: &Index,
    reader: &IndexReader,
    project: &str,
    exclude: Option<&str>,
    before: Option<i64>,
    now: i64,
) -> Result<Option<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let sessions = BooleanQuery::new(vec![
        (Occur::Must, term(f.kind, Kind::Session.name())),
        (Occur::Must, term(f.scope, project)),
    ]);
    let top = TopDocs::with_limit(20).order_by_fast_field::<i64>("last_seen", Order::Desc);
    for (_, address) in searcher.search(&sessions, &top)? {
        let item = load(&searcher, f, address, now)?;
        if Some(item.id.as_str()) != exclude && before.is_none_or(|b| item.date <= b) {
            return Ok(Some(item));
        }
    }
    Ok(None)
}

/// The distinctive words of a prompt: stemmed, present in the index, and rare in it
/// (highest inverse document frequency first).
pub fn keywords(index: &Index, searcher: &Searcher, prompt: &str, max: usize) -> Vec<String> {
    let f = index.fields();
    let total = searcher.num_docs().max(1) as f64;
    let mut scored: Vec<(f64, String)> = search::words(index, prompt)
        .into_iter()
        .filter(|w| w.len() > 2)
        .filter_map(|w| {
            let df = [f.title, f.trigger, f.action, f.body]
                .iter()
                .filter_map(|field| searcher.doc_freq(&Term::from_field_text(*field, &w)).ok())
                .max()
                .unwrap_or(0);
            // Absent words find nothing; very common ones find everything.
            (df > 0 && (df as f64) / total <= 0.2).then(|| ((total / df as f64).ln(), w))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(max).map(|(_, w)| w).collect()
}

/// Context for a prompt recall.
pub struct PromptContext<'a> {
    pub project: &'a str,
    /// Base names of files touched in this session (boosted).
    pub touched: &'a [String],
    /// Items already injected in this session (never again).
    pub exclude: &'a [String],
    pub max_items: usize,
    pub now: i64,
}

/// Memories relevant to a prompt: BM25 over its distinctive words, boosted for the
/// current project and this session's files, weighted by confidence; a hit must score at
/// least 40% of the best one.
pub fn prompt(
    index: &Index,
    reader: &IndexReader,
    text: &str,
    ctx: &PromptContext,
) -> Result<Vec<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let words = keywords(index, &searcher, text, 8);
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for word in &words {
        for (name, boost) in BOOSTS {
            if let Some(field) = f.by_name(name) {
                should.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(term_freq(field, word), *boost)),
                ));
            }
        }
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![
        (Occur::Must, Box::new(BooleanQuery::new(should))),
        (
            Occur::Must,
            of_kinds(f, &[Kind::Instinct, Kind::Conviction, Kind::Episode]),
        ),
        (
            Occur::Should,
            Box::new(BoostQuery::new(term(f.scope, ctx.project), 2.0)),
        ),
    ];
    for file in ctx.touched {
        clauses.push((
            Occur::Should,
            Box::new(BoostQuery::new(term(f.file_keys, file), 1.5)),
        ));
    }
    let query = BooleanQuery::new(clauses);
    let limit = ctx.max_items + ctx.exclude.len().min(20);
    let ranked = search::ranked_scored(&searcher, &query, limit, ctx.now)?;
    let best = ranked.first().map_or(0.0, |(s, _)| *s);
    let mut out = Vec::new();
    for (score, address) in ranked {
        if score < best * 0.4 || out.len() >= ctx.max_items {
            break;
        }
        let item = load(&searcher, f, address, ctx.now)?;
        if !ctx.exclude.contains(&item.id) {
            out.push(item);
        }
    }
    Ok(out)
}

fn term_freq(field: Field, value: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(field, value),
        IndexRecordOption::WithFreqs,
    ))
}

#[cfg(test)]
mod tests;
