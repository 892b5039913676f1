//! The index read without a query, newest or most recently changed first, and counted
//! by project: the review screen's listings.

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{IndexReader, TantivyDocument, Term};

use super::search::{Hit, Snippet, hit};
use super::{Index, IndexError};

/// How many items each project holds (from the index's term dictionary: no document is
/// read), largest first.
pub fn project_counts(
    index: &Index,
    reader: &IndexReader,
) -> Result<Vec<(String, u64)>, IndexError> {
    let mut counts: std::collections::BTreeMap<String, u64> = Default::default();
    for segment in reader.searcher().segment_readers() {
        let inverted = segment.inverted_index(index.fields.project)?;
        let mut terms = inverted
            .terms()
            .stream()
            .map_err(|e| IndexError::Tantivy(e.into()))?;
        while terms.advance() {
            let name = String::from_utf8_lossy(terms.key()).into_owned();
            *counts.entry(name).or_default() += u64::from(terms.value().doc_freq);
        }
    }
    let mut out: Vec<(String, u64)> = counts.into_iter().filter(|(p, _)| !p.is_empty()).collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(out)
}

/// The items whose files changed last (by modification time), newest first, with that
/// time: the review screen's "changed lately" when the folder has no git history.
pub fn last_changed(
    index: &Index,
    reader: &IndexReader,
    limit: usize,
) -> Result<Vec<(i64, String)>, IndexError> {
    let searcher = reader.searcher();
    let query = BooleanQuery::new(vec![
        (
            Occur::Must,
            Box::new(tantivy::query::AllQuery) as Box<dyn Query>,
        ),
        (
            Occur::MustNot,
            Box::new(TermQuery::new(
                Term::from_field_text(index.fields.kind, super::document::RETIRED_KIND),
                IndexRecordOption::Basic,
            )),
        ),
    ]);
    let by_mtime =
        TopDocs::with_limit(limit).order_by_fast_field::<i64>("mtime", tantivy::Order::Desc);
    let mut out = Vec::new();
    for (mtime, address) in searcher.search(&query, &by_mtime)? {
        let doc: TantivyDocument = searcher.doc(address)?;
        out.push((
            mtime.unwrap_or(0),
            super::stored_text(&doc, index.fields.path),
        ));
    }
    Ok(out)
}

/// The newest items (by creation), optionally of one kind and project: the review
/// screen's listing when there is no query.
pub fn newest(
    index: &Index,
    reader: &IndexReader,
    kind: Option<&str>,
    project: Option<&str>,
    domain: Option<&str>,
    limit: usize,
) -> Result<Vec<Hit>, IndexError> {
    let f = &index.fields;
    let term = |field, value: &str| -> Box<dyn Query> {
        Box::new(TermQuery::new(
            Term::from_field_text(field, value),
            IndexRecordOption::Basic,
        ))
    };
    let mut clauses: Vec<(Occur, Box<dyn Query>)> =
        vec![(Occur::Must, Box::new(tantivy::query::AllQuery))];
    if let Some(kind) = kind {
        clauses.push((Occur::Must, term(f.kind, kind)));
    } else {
        clauses.push((Occur::MustNot, term(f.kind, super::document::RETIRED_KIND)));
    }
    if let Some(project) = project {
        clauses.push((Occur::Must, term(f.project, project)));
    }
    if let Some(domain) = domain {
        clauses.push((Occur::Must, term(f.domain, domain)));
    }
    let searcher = reader.searcher();
    let newest =
        TopDocs::with_limit(limit).order_by_fast_field::<i64>("created", tantivy::Order::Desc);
    let mut hits = Vec::new();
    for (_, address) in searcher.search(&BooleanQuery::new(clauses), &newest)? {
        let doc: TantivyDocument = searcher.doc(address)?;
        hits.push(hit(f, &doc, 0.0, Snippet::default()));
    }
    Ok(hits)
}
