//! Ranked search. User text is never parsed as query syntax: it is tokenized like the
//! documents (stemmed words), and each word is looked up in every text field with that
//! field's weight (BM25), then scaled by effective confidence for instincts.

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, Value};
use tantivy::snippet::SnippetGenerator;
use tantivy::{DocId, IndexReader, Score, SegmentReader, TantivyDocument, Term};

use super::schema::{Fields, SEARCHED_FIELDS};
pub use super::snippet::Snippet;
pub use super::words::{query_words, words};
use super::{Index, IndexError};
use crate::memory::kind::Kind;

/// Filters and limits for one search.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    pub kind: Option<String>,
    pub project: Option<String>,
    /// Only items of this domain (instincts and convictions have one).
    pub domain: Option<String>,
    /// The project the search is run from: its memories (and global ones) rank higher.
    pub near: Option<String>,
    pub limit: usize,
    /// The clock for decay, in unix seconds.
    pub now_unix: i64,
    /// Characters of snippet per hit (0: none).
    pub snippet_chars: usize,
}

/// One result.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Hit {
    pub path: String,
    pub kind: String,
    pub name: String,
    pub title: String,
    /// What it teaches in one line: an instinct's or conviction's action, an
    /// episode's newest sighting, a session's outcome (empty when there is none).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub lesson: String,
    pub score: f32,
    #[serde(skip)]
    pub snippet: Snippet,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// Whose words it holds (`user`, `model`, …), when the file says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
}

/// The provenance an item's flags carry (`provenance-user` → `user`).
pub fn provenance_of<'a>(flags: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    flags
        .into_iter()
        .find_map(|f| f.strip_prefix("provenance-"))
}

/// The query for `words` with the filters of `opts`; `None` when there is nothing to find.
pub fn query(fields: &Fields, words: &[String], opts: &SearchOptions) -> Option<Box<dyn Query>> {
    let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for word in words {
        for name in SEARCHED_FIELDS {
            let Some(field) = fields.by_name(name) else {
                continue;
            };
            let term = TermQuery::new(
                Term::from_field_text(field, word),
                IndexRecordOption::WithFreqs,
            );
            should.push((Occur::Should, Box::new(term)));
        }
    }
    if should.is_empty() {
        return None;
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> =
        vec![(Occur::Must, Box::new(BooleanQuery::new(should)))];
    // The project searched from, and what holds everywhere, first. Chosen on the first
    // to eighth sets: ×2.5 ranks as well as ×2 on each and better on four (nDCG@10 up
    // to +0.02); ×3 put the fourth below plain BM25, ×4 was no better again.
    if let Some(near) = &opts.near {
        for scope in [near.as_str(), "*"] {
            let term = TermQuery::new(
                Term::from_field_text(fields.scope, scope),
                IndexRecordOption::Basic,
            );
            clauses.push((
                Occur::Should,
                Box::new(BoostQuery::new(Box::new(term), NEAR_BOOST)),
            ));
        }
    }
    for (field, value) in [
        (fields.kind, &opts.kind),
        (fields.project, &opts.project),
        (fields.domain, &opts.domain),
    ] {
        if let Some(value) = value {
            let term = TermQuery::new(
                Term::from_field_text(field, value),
                IndexRecordOption::Basic,
            );
            clauses.push((Occur::Must, Box::new(term)));
        }
    }
    Some(Box::new(BooleanQuery::new(clauses)))
}

/// The ranking multiplier of a document from its confidence: decayed like an instinct
/// but never below its floor (`Instinct::floor`), between 0.85 (at the decay floor) and
/// 1.25 (a conviction). Items without one score 1.
fn confidence_factor(confidence: f64, floor: f64, decay_origin: i64, now_unix: i64) -> f32 {
    if confidence <= 0.0 {
        return 1.0;
    }
    let effective = crate::memory::confidence::effective_at(confidence, decay_origin, now_unix);
    (0.75 + 0.5 * effective.max(floor)) as f32
}

/// BM25's statistics with each field's average length taken over the documents that
/// have the field. Tantivy averages over every document, so in a memory of many
/// sessions an instinct's eight-word action counted as forty times the average action,
/// and a word found only there scored a tenth of one found in a body.
struct FieldLengths<'a> {
    searcher: &'a tantivy::Searcher,
    /// Fields only instincts and convictions have, and how many documents those are.
    sparse: [tantivy::schema::Field; 2],
    holders: u64,
}

impl<'a> FieldLengths<'a> {
    fn new(searcher: &'a tantivy::Searcher, fields: &Fields) -> Result<Self, IndexError> {
        let mut holders = 0;
        for kind in [Kind::Instinct, Kind::Conviction] {
            let term = Term::from_field_text(fields.kind, kind.name());
            let query = TermQuery::new(term, IndexRecordOption::Basic);
            holders += searcher.search(&query, &tantivy::collector::Count)? as u64;
        }
        Ok(Self {
            searcher,
            sparse: [fields.trigger, fields.action],
            holders,
        })
    }
}

impl tantivy::query::Bm25StatisticsProvider for FieldLengths<'_> {
    fn total_num_tokens(&self, field: tantivy::schema::Field) -> tantivy::Result<u64> {
        let tokens = self.searcher.total_num_tokens(field)?;
        if !self.sparse.contains(&field) || self.holders == 0 {
            return Ok(tokens);
        }
        let docs = self.searcher.total_num_docs()?;
        // tokens / holders = (tokens × docs / holders) / docs: the average BM25 takes.
        Ok((u128::from(tokens) * u128::from(docs) / u128::from(self.holders)) as u64)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        self.searcher.total_num_docs()
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        self.searcher.doc_freq(term)
    }
}

/// The top `limit` documents for `query`, BM25 scaled by confidence, with scores.
/// Prompt recall ranks with tantivy's own statistics: its floor and gate were measured
/// on those scores (the field-length correction `search` uses moved them: precision on
/// the sixteenth set 68% → 65%, unrelated prompts served 3 → 4 of 8).
pub fn ranked_scored(
    searcher: &tantivy::Searcher,
    query: &dyn Query,
    limit: usize,
    now: i64,
) -> Result<Vec<(Score, tantivy::DocAddress)>, IndexError> {
    ranked_with(searcher, searcher, query, limit, now)
}

fn ranked_with(
    searcher: &tantivy::Searcher,
    statistics: &dyn tantivy::query::Bm25StatisticsProvider,
    query: &dyn Query,
    limit: usize,
    now: i64,
) -> Result<Vec<(Score, tantivy::DocAddress)>, IndexError> {
    let collector =
        TopDocs::with_limit(limit.max(1)).tweak_score(move |segment: &SegmentReader| {
            let fast = segment.fast_fields();
            let conf = fast
                .f64("confidence")
                .ok()
                .map(|c| c.first_or_default_col(0.0));
            let origin = fast
                .i64("decay_origin")
                .ok()
                .map(|c| c.first_or_default_col(0));
            let floor = fast.f64("floor").ok().map(|c| c.first_or_default_col(0.0));
            move |doc: DocId, score: Score| {
                let c = conf.as_ref().map_or(0.0, |c| c.get_val(doc));
                let o = origin.as_ref().map_or(0, |o| o.get_val(doc));
                let f = floor.as_ref().map_or(0.0, |f| f.get_val(doc));
                score * confidence_factor(c, f, o, now)
            }
        });
    Ok(searcher.search_with_statistics_provider(query, &collector, statistics)?)
}

/// The top `limit` documents for `query`, best first.
pub fn ranked(
    searcher: &tantivy::Searcher,
    query: &dyn Query,
    limit: usize,
    now: i64,
) -> Result<Vec<tantivy::DocAddress>, IndexError> {
    Ok(ranked_scored(searcher, query, limit, now)?
        .into_iter()
        .map(|(_, a)| a)
        .collect())
}

/// How much a memory of the project searched from (or of none) counts over another's.
const NEAR_BOOST: f32 = 2.5;

/// Searches with the index's reader as it is (call a sync first).
pub fn search(
    index: &Index,
    reader: &IndexReader,
    text: &str,
    opts: &SearchOptions,
) -> Result<Vec<Hit>, IndexError> {
    let mut words = query_words(index, text);
    // Shorthand finds what the memory spells out, and back (`k8s`, `kubernetes`).
    for (_, group) in super::words::groups_named_in(index, text) {
        for spelling in super::words::group_spellings(index, group) {
            if !words.contains(spelling) {
                words.push(spelling.clone());
            }
        }
    }
    let Some(query) = query(&index.fields, &words, opts) else {
        return Ok(Vec::new());
    };
    let searcher = reader.searcher();
    // A word found only in an instinct's action ranks as a word in a body does.
    let lengths = FieldLengths::new(&searcher, &index.fields)?;
    let top = ranked_with(&searcher, &lengths, &*query, opts.limit, opts.now_unix)?;
    let generators = if opts.snippet_chars > 0 {
        [index.fields.body, index.fields.action, index.fields.trigger]
            .into_iter()
            .filter_map(|field| {
                let mut g = SnippetGenerator::create(&searcher, &*query, field).ok()?;
                g.set_max_num_chars(opts.snippet_chars);
                Some(g)
            })
            .collect()
    } else {
        Vec::new()
    };
    let f = &index.fields;
    let mut hits = Vec::with_capacity(top.len());
    for (score, address) in top {
        let doc: TantivyDocument = searcher.doc(address)?;
        let snippet = generators
            .iter()
            .map(|g| g.snippet_from_doc(&doc))
            .find(|s| !s.highlighted().is_empty())
            .map(|s| Snippet::new(s.fragment(), s.highlighted()))
            .unwrap_or_default();
        hits.push(hit(f, &doc, score, snippet));
    }
    Ok(hits)
}

/// A hit from a stored document (`score` and `snippet` are the caller's).
pub(crate) fn hit(f: &Fields, doc: &TantivyDocument, score: f32, snippet: Snippet) -> Hit {
    let text = |field| super::stored_text(doc, field);
    let project = text(f.project);
    let flags: Vec<&str> = doc.get_all(f.flags).filter_map(|v| v.as_str()).collect();
    Hit {
        path: text(f.path),
        kind: text(f.kind),
        name: text(f.name),
        title: text(f.title),
        lesson: lesson(&text(f.action), &text(f.gist)),
        score,
        snippet,
        project: (!project.is_empty()).then_some(project),
        provenance: provenance_of(flags).map(str::to_string),
    }
}

fn lesson(action: &str, gist: &str) -> String {
    let line = if action.trim().is_empty() {
        gist
    } else {
        action
    };
    crate::text::one_line_words(&crate::text::strip_ansi(line), 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_scales_between_floor_and_conviction() {
        assert_eq!(confidence_factor(0.0, 0.0, 0, 0), 1.0);
        assert!((confidence_factor(1.0, 0.0, 0, 0) - 1.25).abs() < 1e-6);
        let week = 7 * 24 * 3600;
        // 0.9 decayed by 20 weeks sits at the floor.
        assert!((confidence_factor(0.9, 0.0, 0, 20 * week) - 0.85).abs() < 1e-6);
        // Unless the user vouched for it, or many sessions showed it.
        assert!((confidence_factor(0.9, 0.7, 0, 20 * week) - 1.1).abs() < 1e-6);
    }
}
