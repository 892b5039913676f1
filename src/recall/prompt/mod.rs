//! Prompt recall: the memories a prompt is about, or none. The current project is a
//! filter, not a boost: another project's memories come only when the prompt names that
//! project, global ones always may. Candidates come from BM25 over the prompt's
//! distinctive words (stopwords out; identifiers, paths and error codes matched whole as
//! well as by their parts); a candidate is kept only when it shares enough of what makes
//! the prompt distinctive (an absolute floor, not only one relative to the best hit).

mod identifiers;
pub(super) mod keywords;

use std::collections::BTreeSet;

use tantivy::query::{BooleanQuery, BoostQuery, Occur, PhraseQuery, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{IndexReader, Searcher, TantivyDocument, Term};

use super::{Item, load, of_kinds, term};
use crate::index::schema::BOOSTS;
use crate::index::{Index, IndexError, search};
use crate::memory::kind::Kind;
use crate::memory::usage::Usage;
use identifiers::{Identifier, identifiers, spelled};
use keywords::{Keyword, Keywords, keywords};

#[cfg(test)]
pub(super) use keywords::typo_fix;

/// Context for a prompt recall.
pub struct PromptContext<'a> {
    pub project: &'a str,
    /// Base names of files touched in this session (boosted).
    pub touched: &'a [String],
    /// Items already injected in this session (never again).
    pub exclude: &'a [String],
    pub max_items: usize,
    pub now: i64,
    /// How often items were injected and used: one sent often and never acted on ranks
    /// lower.
    pub usage: &'a Usage,
    /// What the user typed, when the prompt carries pasted output: the floor weighs all
    /// of it, and of the paste only the words the memory knows.
    pub prose: Option<&'a str>,
}

/// The most of a prompt that is read: a pasted megabyte is mostly noise, and the hook
/// must answer in milliseconds.
const MAX_PROMPT_CHARS: usize = 8_000;
/// The share of the prompt's distinctiveness (summed inverse document frequency) a
/// memory must share to be shown, with at least two of its words.
const FLOOR: f64 = 0.30;
/// With a word of the prompt in its trigger, a memory needs less of the rest.
const TOPIC_FLOOR: f64 = 0.2;
/// The same for a conviction, whose subject alone makes it worth showing.
const CONVICTION_TOPIC_FLOOR: f64 = 0.12;
/// The same for a memory that has one of the prompt's identifiers written out.
const IDENTIFIER_FLOOR: f64 = 0.1;
/// Rare words (each in at most 3% of the memory) a memory must share with the prompt
/// to be shown whatever their share of the prompt.
const RARE_WORDS_ENOUGH: usize = 3;
/// A memory must score at least this share of the best one.
const RELATIVE: f32 = 0.6;
/// Candidates kept beyond `max_items` for reordering by use.
const SPARES: usize = 3;

/// The lookup: the prompt's words in the fields by their boosts, its identifiers as
/// phrases, in the memory's kinds a prompt may bring (sessions only for a question about
/// the past), in this project, global ones and the projects it names; files touched in
/// the session count a little more.
fn query(
    index: &Index,
    searcher: &Searcher,
    text: &str,
    keys: &[Keyword],
    ids: &[Identifier],
    kinds: &[Kind],
    ctx: &PromptContext,
) -> BooleanQuery {
    let f = index.fields();
    let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for Keyword { word, .. } in keys {
        for (name, boost) in BOOSTS {
            if let Some(field) = f.by_name(name) {
                let q = TermQuery::new(
                    Term::from_field_text(field, word),
                    IndexRecordOption::WithFreqs,
                );
                should.push((
                    Occur::Should,
                    Box::new(BoostQuery::new(Box::new(q), *boost)),
                ));
            }
        }
    }
    // An identifier matched whole counts more than its parts.
    for Identifier { parts, .. } in ids {
        for field in [f.title, f.trigger, f.action, f.body] {
            let terms: Vec<Term> = parts
                .iter()
                .map(|p| Term::from_field_text(field, p))
                .collect();
            should.push((
                Occur::Should,
                Box::new(BoostQuery::new(Box::new(PhraseQuery::new(terms)), 4.0)),
            ));
        }
    }
    let mut scopes: Vec<String> = vec![ctx.project.to_string(), "*".to_string()];
    scopes.extend(named_projects(index, searcher, text, ctx.project));
    let scope_refs: Vec<&str> = scopes.iter().map(String::as_str).collect();
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![
        (Occur::Must, Box::new(BooleanQuery::new(should))),
        (Occur::Must, of_kinds(f, kinds)),
        (Occur::Must, super::any_of(f.scope, &scope_refs)),
        (Occur::MustNot, term(f.flags, "disputed")),
    ];
    for file in ctx.touched {
        clauses.push((
            Occur::Should,
            Box::new(BoostQuery::new(term(f.file_keys, file), 1.5)),
        ));
    }
    BooleanQuery::new(clauses)
}

/// The prompt's words a memory has (`has`), each word once however many of its
/// spellings the memory uses (every spelling of a word carries the same weight).
fn shared<'k>(keys: &'k [Keyword], has: &BTreeSet<String>) -> Vec<&'k Keyword> {
    let mut out: Vec<&Keyword> = Vec::new();
    for key in keys.iter().filter(|k| has.contains(&k.word)) {
        if !out.iter().any(|k| k.concept == key.concept) {
            out.push(key);
        }
    }
    out
}

/// The weight the floor judges a prompt with a paste by: everything the user typed,
/// and the paste's words only where the memory knows them (its hosts, hashes, image
/// tags and timestamps would drown any memory: nobody wrote those down).
fn typed_weight(
    index: &Index,
    searcher: &Searcher,
    prose: &str,
    keys: &[Keyword],
    kinds: &[Kind],
) -> f64 {
    let typed = keywords(
        index,
        searcher,
        crate::text::clip_chars(prose, MAX_PROMPT_CHARS),
        kinds,
    );
    let mut counted: Vec<usize> = Vec::new();
    let mut pasted = 0.0;
    for key in keys {
        let said = typed.found.iter().any(|t| t.word == key.word);
        if !said && !counted.contains(&key.concept) {
            counted.push(key.concept);
            pasted += key.idf;
        }
    }
    typed.weight + pasted
}

/// Projects the prompt names (other than the current one).
fn named_projects(index: &Index, searcher: &Searcher, text: &str, current: &str) -> Vec<String> {
    let f = index.fields();
    let text = text.to_lowercase();
    let mut out = Vec::new();
    for word in text
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '.'))
        .map(|w| w.trim_matches(['.', '-']))
        .filter(|w| w.len() > 2)
    {
        let known = searcher
            .doc_freq(&Term::from_field_text(f.scope, word))
            .is_ok_and(|n| n > 0);
        if known && word != current && !out.iter().any(|o| o == word) {
            out.push(word.to_string());
        }
    }
    out
}

/// The kinds of memory a prompt may bring: sessions only for a question about the past.
fn kinds_for(text: &str) -> Vec<Kind> {
    let mut kinds = vec![Kind::Instinct, Kind::Conviction, Kind::Episode];
    if asks_about_the_past(text) {
        kinds.push(Kind::Session);
    }
    kinds
}

/// Whether the prompt asks what happened ("where did we leave", "what did we do").
fn asks_about_the_past(prompt: &str) -> bool {
    let lower = prompt.to_lowercase();
    [
        "did we",
        "where were we",
        "we left",
        "we leave",
        "last time",
        "remember",
        "we decided",
        "what was the",
        "what happened",
        "we did",
        "previous session",
        "yesterday",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// A memory's text: its stemmed words, and its letters as `spelled` writes them.
struct DocText {
    words: BTreeSet<String>,
    spelled: String,
}

fn text_of(index: &Index, doc: &TantivyDocument) -> DocText {
    let f = index.fields();
    let mut text = String::new();
    for field in [
        f.title, f.trigger, f.action, f.body, f.name, f.tags, f.files,
    ] {
        text.push_str(&crate::index::stored_text(doc, field));
        text.push(' ');
    }
    DocText {
        words: search::words(index, &text.replace(['-', '_', '.', '/'], " "))
            .into_iter()
            .collect(),
        spelled: spelled(&text),
    }
}

/// The stemmed words of what a memory is about: an instinct's trigger, a conviction's
/// name.
fn trigger_words(index: &Index, doc: &TantivyDocument) -> BTreeSet<String> {
    let f = index.fields();
    let kind = crate::index::stored_text(doc, f.kind);
    let text = if kind == Kind::Conviction.name() {
        crate::index::stored_text(doc, f.name)
    } else {
        crate::index::stored_text(doc, f.trigger)
    };
    search::query_words(index, &text.replace(['-', '_', '.', '/'], " "))
        .into_iter()
        .collect()
}

/// Memories relevant to a prompt, best first, at most `ctx.max_items`.
pub fn prompt(
    index: &Index,
    reader: &IndexReader,
    text: &str,
    ctx: &PromptContext,
) -> Result<Vec<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let text = crate::text::clip_chars(text, MAX_PROMPT_CHARS);
    let kinds = kinds_for(text);
    let Keywords {
        found: keys,
        weight,
    } = keywords(index, &searcher, text, &kinds);
    let ids = identifiers(index, text);
    if keys.is_empty() && ids.is_empty() {
        return Ok(Vec::new());
    }
    let query = query(index, &searcher, text, &keys, &ids, &kinds, ctx);
    let limit = 20 + ctx.exclude.len().min(20);
    let ranked = search::ranked_scored(&searcher, &query, limit, ctx.now)?;
    let best = ranked.first().map_or(0.0, |(s, _)| *s);
    let weight = match ctx.prose {
        Some(prose) => typed_weight(index, &searcher, prose, &keys, &kinds),
        None => weight,
    }
    .max(f64::EPSILON);
    // A word in at most 3% of the memory.
    let rare = (1.0 + 1.0 / 0.03_f64).ln();
    // A question of how something works wants the memory only when it is plainly about
    // what is asked: neither a word of its trigger nor a name written out lowers the bar.
    let lowered = !super::gate::asks_how_it_works(ctx.prose.unwrap_or(text));
    let mut out: Vec<(f64, Item)> = Vec::new();
    for (score, address) in ranked {
        // A few spares beyond the limit let an ignored item's weight reorder them.
        if score < best * RELATIVE || out.len() >= ctx.max_items + SPARES {
            break;
        }
        let doc: TantivyDocument = searcher.doc(address)?;
        let DocText {
            words: has,
            spelled,
        } = text_of(index, &doc);
        let matched = shared(&keys, &has);
        let share = matched.iter().map(|k| k.idf).sum::<f64>() / weight;
        // Whole means written out in the memory, not its parts scattered over it.
        let whole = ids.iter().any(|id| spelled.contains(&id.spelled));
        // A word of the prompt that is what the advice is about (in its trigger or a
        // conviction's name): "npm install …" and "use pnpm, never npm".
        let about = trigger_words(index, &doc);
        // Any spelling of the word in the trigger counts (`k8s` in the body, `kubernetes`
        // in the trigger).
        let on_topic = keys
            .iter()
            .any(|k| has.contains(&k.word) && about.contains(&k.word) && k.idf >= rare);
        // A conviction is a rule the user holds: its subject named is reason enough.
        let topic_floor = if crate::index::stored_text(&doc, f.kind) == Kind::Conviction.name() {
            CONVICTION_TOPIC_FLOOR
        } else {
            TOPIC_FLOOR
        };
        // Rare words shared are evidence whatever the prompt's length: a long prompt has
        // many distinctive words, so any one memory's share of them is small.
        let rare_shared = matched.iter().filter(|k| k.idf >= rare).count();
        let enough = matched.len() >= 2 && share >= FLOOR
            || lowered && on_topic && share >= topic_floor
            || rare_shared >= RARE_WORDS_ENOUGH;
        // An identifier written out in the memory lowers the bar, never removes it: a
        // pasted diff names the project's own paths everywhere.
        if !(lowered && whole && share >= IDENTIFIER_FLOOR || enough) {
            continue;
        }
        let mut item = load(&searcher, f, address, ctx.now)?;
        if !ctx.exclude.contains(&item.id) {
            item.why = matched.iter().map(|k| k.word.clone()).collect();
            if whole {
                item.why.push("(identifier)".into());
            }
            let weighted = f64::from(score) * ctx.usage.rank_weight(&item.id);
            out.push((weighted, item));
        }
    }
    // Stable: equal weights keep the index's order.
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(out
        .into_iter()
        .take(ctx.max_items)
        .map(|(_, item)| item)
        .collect())
}
