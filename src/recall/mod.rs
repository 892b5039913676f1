//! Choosing which memories reach the agent, and when: at session start (convictions,
//! this project's instincts, the last session), on a prompt (gated, keyword recall), before
//! a file is touched (`paths` globs) and after it is edited (past sessions and episodes).
//! Everything reads the index; nothing here writes.

mod files;
pub mod gate;
pub mod past;
pub mod paste;
mod prompt;
pub mod render;

pub use files::{Verdict, censors, file_history, for_failure, for_path};
pub use prompt::{PromptContext, prompt};

use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Value};
use tantivy::{DocAddress, IndexReader, Order, Searcher, TantivyDocument, Term};

use crate::index::schema::Fields;
use crate::index::{Index, IndexError, search};
use crate::memory::kind::Kind;
use crate::memory::usage::Usage;

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
    /// Why it was chosen (the words of the prompt it shares), for the injection log.
    pub why: Vec<String>,
    /// An episode's one line of what happened (empty for other kinds).
    pub gist: String,
    /// Independent sessions that showed an instinct (0: not counted).
    pub sessions: u32,
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
    Ok(item_of(f, &doc, now))
}

/// An item as a document of the index stores it.
pub(crate) fn item_of(f: &Fields, doc: &TantivyDocument, now: i64) -> Item {
    let text = |field| crate::index::stored_text(doc, field);
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
    let flags = all(f.flags);
    let mut confidence = effective(kind, confidence, int(f.decay_origin), now);
    // What the user vouched for, and what many sessions showed, keeps its floor however
    // old (`Instinct::floor`, computed when indexed).
    if kind == Kind::Instinct {
        let floor = doc
            .get_first(f.floor)
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0);
        confidence = confidence.max(floor);
    }
    let sessions = doc
        .get_first(f.sessions)
        .and_then(|v| v.as_u64())
        .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
    Item {
        id: text(f.path),
        confidence,
        name: text(f.name),
        title: text(f.title),
        trigger: text(f.trigger),
        action: text(f.action),
        domain: text(f.domain),
        project: (!project.is_empty()).then_some(project),
        date: int(f.last_seen).max(int(f.created)),
        globs: all(f.globs),
        flags,
        command: Some(text(f.command)).filter(|c| !c.is_empty()),
        kind,
        why: Vec::new(),
        gist: text(f.gist),
        sessions,
    }
}

/// What SessionStart injects.
#[derive(Debug, Default)]
pub struct Start {
    pub convictions: Vec<Item>,
    pub instincts: Vec<Item>,
    /// How many instincts were eligible (more than shown when filtered).
    pub eligible_instincts: usize,
    /// This project's most recent episodes.
    pub episodes: Vec<Item>,
    pub last_session: Option<Item>,
}

/// How many of the project's episodes SessionStart shows.
const EPISODES_AT_START: usize = 3;

/// Limits for session start.
#[derive(Debug, Clone, Copy)]
pub struct StartLimits {
    pub all_up_to: usize,
    pub top: usize,
    pub convictions: usize,
}

/// What a SessionStart lookup knows.
#[derive(Clone, Copy)]
pub struct StartContext<'a> {
    pub project: &'a str,
    /// The project's name and marker words (what its instincts are ranked by).
    pub words: &'a [&'a str],
    /// The session being started (its own summary is not the last session).
    pub exclude_session: Option<&'a str>,
    pub limits: StartLimits,
    pub now: i64,
    /// Items often injected and never acted on are listed after the others.
    pub usage: &'a Usage,
}

/// Convictions, then this project's instincts (all when few, else the most relevant to
/// the project and its markers, weighted by effective confidence and by use), then the
/// last session.
pub fn session_start(
    index: &Index,
    reader: &IndexReader,
    ctx: &StartContext,
) -> Result<Start, IndexError> {
    let StartContext {
        project,
        words,
        exclude_session,
        limits,
        now,
        usage,
    } = *ctx;
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
    let all = start.eligible_instincts <= limits.all_up_to;
    let scored: Vec<(f32, DocAddress)> = if all {
        let all = TopDocs::with_limit(limits.all_up_to.max(1))
            .order_by_fast_field::<f64>("confidence", Order::Desc);
        searcher
            .search(&filter, &all)?
            .into_iter()
            .map(|(_, a)| (0.0, a))
            .collect()
    } else {
        let text = words.join(" ");
        let opts = search::SearchOptions {
            domain: None,
            kind: None,
            project: None,
            near: None,
            limit: limits.top,
            now_unix: now,
            snippet_chars: 0,
        };
        let stemmed = search::words(index, &text);
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, Box::new(filter))];
        if let Some(relevance) = search::query(f, &stemmed, &opts) {
            clauses.push((Occur::Should, relevance));
        }
        // A few spares, so that ones never acted on can make room.
        search::ranked_scored(&searcher, &BooleanQuery::new(clauses), limits.top + 3, now)?
    };
    let mut weighted: Vec<(f64, Item)> = Vec::with_capacity(scored.len());
    for (score, address) in scored {
        let item = load(&searcher, f, address, now)?;
        let base = if all {
            item.confidence
        } else {
            f64::from(score)
        };
        weighted.push((base * usage.rank_weight(&item.id), item));
    }
    weighted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.name.cmp(&b.1.name)));
    let keep = if all { limits.all_up_to } else { limits.top };
    start.instincts = weighted.into_iter().take(keep).map(|(_, i)| i).collect();
    // Only what two sessions confirmed or the user said is pushed unasked.
    let episodes = BooleanQuery::new(vec![
        (Occur::Must, term(f.kind, Kind::Episode.name())),
        (Occur::Must, term(f.scope, project)),
        (Occur::Must, term(f.flags, crate::index::CONFIRMED)),
    ]);
    let newest =
        TopDocs::with_limit(EPISODES_AT_START).order_by_fast_field::<i64>("created", Order::Desc);
    for (_, address) in searcher.search(&episodes, &newest)? {
        start.episodes.push(load(&searcher, f, address, now)?);
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

#[cfg(test)]
mod tests;
