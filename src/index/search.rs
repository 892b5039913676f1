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
use super::{Index, IndexError};

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

/// Words that say nothing about what a prompt or query is looking for.
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "don't",
    "down",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "it's",
    "its",
    "itself",
    "just",
    "let's",
    "me",
    "more",
    "most",
    "my",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "out",
    "over",
    "own",
    "please",
    "pls",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "ok",
    "okay",
    "thanks",
    "thank",
    "hey",
    "hi",
    "yes",
    "yeah",
    "again",
    "still",
    "really",
    "think",
    "want",
    "need",
    "like",
    "get",
    "got",
    "make",
    "go",
    "let",
    "lets",
    "see",
    "look",
    "use",
    "way",
    "thing",
    "something",
    "anything",
    "one",
    "now",
    "then",
    "sure",
    "maybe",
    "also",
    "us",
    "it'll",
    "i'm",
    "i'd",
    "we're",
    "can't",
    "against",
    "below",
    "between",
    "both",
    "during",
    "whom",
    "ours",
    "myself",
    "yourself",
    "ourselves",
    "themselves",
    // Where the work happens: every prompt to a coding agent is about "the project".
    "project",
    "repo",
    "codebase",
    // Conversation around the request says nothing about its topic.
    "said",
    "says",
    "say",
    "told",
    "ever",
    "folks",
    "guys",
    "already",
    "i've",
    "we've",
    "you're",
    "that's",
    "there's",
    "didn't",
    "won't",
    "nice",
    "cool",
    "worked",
    "today",
    "tomorrow",
    "yesterday",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The words of a query or prompt to look up: stemmed like the index, without
/// stopwords, duplicates gone, at most 64.
pub fn query_words(index: &Index, text: &str) -> Vec<String> {
    let kept: String = text
        .split_whitespace()
        .map(url_words)
        .filter(|w| {
            let bare = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
            !STOPWORDS.contains(&bare.to_lowercase().as_str())
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut words = words(index, &kept);
    words.truncate(64);
    words
}

/// A URL as the words that say what it points at: its host without `www.` and the
/// top-level domain, and its path; the scheme and the query string (video ids,
/// tracking) say nothing. Other words pass unchanged.
fn url_words(word: &str) -> std::borrow::Cow<'_, str> {
    let Some((_, rest)) = word.split_once("://") else {
        return word.into();
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.strip_prefix("www.").unwrap_or(host);
    let host = host.rsplit_once('.').map_or(host, |(name, _tld)| name);
    format!("{host} {}", path.replace('/', " ")).into()
}

/// The stemmed, lower-cased words of `text`, as the index stores them. Duplicates go.
pub fn words(index: &Index, text: &str) -> Vec<String> {
    let Some(mut tokenizer) = index.inner.tokenizers().get("en_stem") else {
        return Vec::new();
    };
    let mut stream = tokenizer.token_stream(text);
    let mut out: Vec<String> = Vec::new();
    while let Some(token) = stream.next() {
        if !out.contains(&token.text) {
            out.push(token.text.clone());
        }
    }
    out
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
    if let Some(near) = &opts.near {
        for scope in [near.as_str(), "*"] {
            let term = TermQuery::new(
                Term::from_field_text(fields.scope, scope),
                IndexRecordOption::Basic,
            );
            clauses.push((
                Occur::Should,
                Box::new(BoostQuery::new(Box::new(term), 2.0)),
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

/// The ranking multiplier of a document from its confidence: decayed like an instinct,
/// between 0.85 (at the floor) and 1.25 (a conviction). Items without one score 1.
fn confidence_factor(confidence: f64, decay_origin: i64, now_unix: i64) -> f32 {
    if confidence <= 0.0 {
        return 1.0;
    }
    (0.75 + 0.5 * crate::memory::confidence::effective_at(confidence, decay_origin, now_unix))
        as f32
}

/// The top `limit` documents for `query`, BM25 scaled by confidence, with scores.
pub fn ranked_scored(
    searcher: &tantivy::Searcher,
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
            move |doc: DocId, score: Score| {
                let c = conf.as_ref().map_or(0.0, |c| c.get_val(doc));
                let o = origin.as_ref().map_or(0, |o| o.get_val(doc));
                score * confidence_factor(c, o, now)
            }
        });
    Ok(searcher.search(query, &collector)?)
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

/// Searches with the index's reader as it is (call a sync first).
pub fn search(
    index: &Index,
    reader: &IndexReader,
    text: &str,
    opts: &SearchOptions,
) -> Result<Vec<Hit>, IndexError> {
    let words = query_words(index, text);
    let Some(query) = query(&index.fields, &words, opts) else {
        return Ok(Vec::new());
    };
    let searcher = reader.searcher();
    let top = ranked_scored(&searcher, &*query, opts.limit, opts.now_unix)?;
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
    crate::text::one_line(&crate::text::strip_ansi(line), 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_scales_between_floor_and_conviction() {
        assert_eq!(confidence_factor(0.0, 0, 0), 1.0);
        assert!((confidence_factor(1.0, 0, 0) - 1.25).abs() < 1e-6);
        let week = 7 * 24 * 3600;
        // 0.9 decayed by 20 weeks sits at the floor.
        assert!((confidence_factor(0.9, 0, 20 * week) - 0.85).abs() < 1e-6);
    }
}
