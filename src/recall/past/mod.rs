//! Past-work questions ("where did we leave off", "what did we do yesterday", "pick up
//! where we stopped", "anything left over from last week"): answered by recency within
//! the project, the newest sessions first, not by the words of the question. A dated
//! phrase (yesterday, on Friday, last week, the 5th of November, the start of October)
//! is resolved against the clock.

use std::ops::Bound;

use chrono::{DateTime, NaiveDate};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur};
use tantivy::{IndexReader, Order, Searcher, Term};

use super::prompt::keywords::{COMMON_SHARE, Reach, doc_freq};
use super::{Item, load, term};
use crate::index::{Index, IndexError};
use crate::memory::kind::Kind;

mod dated;
#[cfg(test)]
mod labelled;
mod question;
mod span;
mod words;
mod world;

pub use question::question;

/// Which sessions a question asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// Where things were left: the newest one, and older ones left unfinished.
    Latest,
    /// All of them, newest first (a listing, not a question).
    Every,
    /// Those of one day.
    Day(NaiveDate),
    /// Those since a moment (unix seconds).
    Since(i64),
    /// Those of the days from the first to the last, both included.
    Between(NaiveDate, NaiveDate),
}

/// The project's sessions the span covers, newest first, at most `limit` (for the
/// latest: the newest and older ones left unfinished); the newest one when the span
/// holds none. `exclude` is the asking session's own summary.
pub fn sessions(
    index: &Index,
    reader: &IndexReader,
    project: &str,
    span: Span,
    exclude: Option<&str>,
    now: i64,
    limit: usize,
) -> Result<Vec<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let of_project = || -> Vec<(Occur, Box<dyn tantivy::query::Query>)> {
        vec![
            (Occur::Must, term(f.kind, Kind::Session.name())),
            (Occur::Must, term(f.scope, project)),
        ]
    };
    let mut queries = vec![BooleanQuery::new(of_project())];
    // A dated span is looked up by its dates too: it may lie before the newest fifty
    // (which still come first, for the newest when the span holds none).
    if let Some((first, last)) = days_of(span) {
        let at = |d: NaiveDate, h, m, s| {
            d.and_hms_opt(h, m, s)
                .map_or(0, |t| t.and_utc().timestamp())
        };
        let mut dated = of_project();
        dated.push((
            Occur::Must,
            Box::new(tantivy::query::RangeQuery::new(
                Bound::Included(Term::from_field_i64(f.created, at(first, 0, 0, 0))),
                Bound::Included(Term::from_field_i64(f.created, at(last, 23, 59, 59))),
            )),
        ));
        queries.push(BooleanQuery::new(dated));
    }
    let newest = TopDocs::with_limit(50).order_by_fast_field::<i64>("created", Order::Desc);
    let mut all: Vec<Item> = Vec::new();
    for query in &queries {
        for (_, address) in searcher.search(query, &newest)? {
            let item = load(&searcher, f, address, now)?;
            let seen = all.iter().any(|i| i.id == item.id);
            if Some(item.id.as_str()) != exclude && item.date <= now && !seen {
                all.push(item);
            }
        }
    }
    // "Where did we leave off" is the newest session, and an older one only when it left
    // something open: the second newest alone is just older news.
    let unfinished = |i: &Item| i.flags.iter().any(|f| f == crate::index::UNFINISHED);
    let within = |(n, i): &(usize, &Item)| match span {
        Span::Latest => *n == 0 || unfinished(i),
        Span::Every => true,
        Span::Day(day) => {
            DateTime::from_timestamp(i.date, 0).is_some_and(|t| t.date_naive() == day)
        }
        Span::Since(from) => i.date >= from,
        Span::Between(first, last) => DateTime::from_timestamp(i.date, 0)
            .is_some_and(|t| (first..=last).contains(&t.date_naive())),
    };
    let chosen: Vec<Item> = all
        .iter()
        .enumerate()
        .filter(within)
        .take(limit)
        .map(|(_, i)| i.clone())
        .collect();
    Ok(if chosen.is_empty() {
        all.into_iter().take(limit.min(1)).collect()
    } else {
        chosen
    })
}

/// The first and last day of a dated span.
fn days_of(span: Span) -> Option<(NaiveDate, NaiveDate)> {
    match span {
        Span::Day(day) => Some((day, day)),
        Span::Between(first, last) => Some((first, last)),
        _ => None,
    }
}

/// Whether a word of a question names something the memory is about: a word some of
/// the memories a search by topic brings (instincts, convictions, episodes) have, and
/// most memories do not. A word they have never seen ("lying around", "no me acuerdo",
/// "eigentlich"), or one only in session summaries (which hold the user's every
/// remark), or one in most of the memory ("work", "new") leaves nothing for a search by
/// topic to find, so the question is about the project's recent work. Counted in the
/// whole memory, not the project's: a question about the auth middleware names a topic
/// even in a project whose memory has nothing on it yet.
pub fn topical<'a>(index: &'a Index, searcher: &'a Searcher) -> impl Fn(&str) -> bool + 'a {
    let f = index.fields();
    let total = searcher.num_docs() as f64;
    let lessons = Reach::new(
        index,
        searcher,
        &[Kind::Instinct, Kind::Conviction, Kind::Episode],
    );
    move |word: &str| {
        // A project's name says where, not what.
        if searcher
            .doc_freq(&Term::from_field_text(f.scope, word))
            .unwrap_or(0)
            > 0
        {
            return false;
        }
        crate::index::words::query_words(index, word)
            .iter()
            .any(|stem| {
                // What is left of an elision (`c'è`) or a flag letter names nothing.
                if stem.chars().count() < 3 {
                    return false;
                }
                let df = doc_freq(searcher, f, stem);
                df > 0 && df as f64 <= COMMON_SHARE * total.max(20.0) && lessons.df(stem) > 0
            })
    }
}
