//! Prompt recall: the memories a prompt is about, or none. The current project is a
//! filter, not a boost: another project's memories come only when the prompt names that
//! project, global ones always may. Candidates come from BM25 over the prompt's
//! distinctive words (stopwords out; identifiers, paths and error codes matched whole as
//! well as by their parts); a candidate is kept only when it shares enough of what makes
//! the prompt distinctive (an absolute floor, not only one relative to the best hit).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, PhraseQuery, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{IndexReader, Searcher, TantivyDocument, Term};

use super::{Item, load, of_kinds, term};
use crate::index::schema::BOOSTS;
use crate::index::{Index, IndexError, search};
use crate::memory::kind::Kind;
use crate::memory::usage::Usage;

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
}

/// The most of a prompt that is read: a pasted megabyte is mostly noise, and the hook
/// must answer in milliseconds.
const MAX_PROMPT_CHARS: usize = 8_000;
/// The most distinctive words a lookup uses.
const MAX_KEYWORDS: usize = 12;
/// A word in more than this share of the memory says nothing about a prompt.
const COMMON_SHARE: f64 = 0.15;
/// The share of the prompt's distinctiveness (summed inverse document frequency) a
/// memory must share to be shown, with at least two of its words.
const FLOOR: f64 = 0.30;
/// With a word of the prompt in its trigger, a memory needs less of the rest.
const TOPIC_FLOOR: f64 = 0.2;
/// The same for a conviction, whose subject alone makes it worth showing.
const CONVICTION_TOPIC_FLOOR: f64 = 0.12;
/// The same for a memory that has one of the prompt's identifiers written out.
const IDENTIFIER_FLOOR: f64 = 0.1;
/// A memory must score at least this share of the best one.
const RELATIVE: f32 = 0.6;
/// Candidates kept beyond `max_items` for reordering by use.
const SPARES: usize = 3;

/// The prompt's words as recall weighs them.
struct Keywords {
    /// Distinctive words found in the memory, with their weight (inverse document
    /// frequency), most distinctive first.
    found: Vec<(String, f64)>,
    /// The weight of everything distinctive the prompt says, found or not: a prompt
    /// about things the memory has never seen is not about the memory.
    weight: f64,
}

/// The distinctive words of a prompt: stemmed, not stopwords, not in most of the memory.
/// Words the memory does not have count at the weight of the rarest.
fn keywords(index: &Index, searcher: &Searcher, prompt: &str) -> Keywords {
    let f = index.fields();
    let total = searcher.num_docs().max(1) as f64;
    let text = crate::text::clip_chars(prompt, MAX_PROMPT_CHARS);
    let rarest = (1.0 + total).ln();
    let mut weight = 0.0;
    let mut found: Vec<(String, f64)> = Vec::new();
    let df_of = |w: &str| {
        [f.title, f.trigger, f.action, f.body, f.name, f.tags]
            .iter()
            .filter_map(|field| searcher.doc_freq(&Term::from_field_text(*field, w)).ok())
            .max()
            .unwrap_or(0)
    };
    let mut corrected = 0;
    for w in search::query_words(index, text) {
        let mut w = w;
        let mut df = df_of(&w);
        if df == 0
            && corrected < MAX_CORRECTIONS
            && let Some((fix, n)) = typo_fix(&w, &df_of)
        {
            corrected += 1;
            (w, df) = (fix, n);
        }
        if df == 0 {
            // Numbers and one-letter leftovers say little either way.
            if w.len() > 2 && !w.chars().all(|c| c.is_ascii_digit()) {
                weight += rarest;
            }
            continue;
        }
        // A word in most of a large memory finds everything and says nothing; in a
        // small one, every word still tells documents apart.
        if total >= 50.0 && df as f64 > COMMON_SHARE * total {
            continue;
        }
        let idf = (1.0 + total / df as f64).ln();
        weight += idf;
        found.push((w, idf));
    }
    found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    found.truncate(MAX_KEYWORDS);
    Keywords { found, weight }
}

fn identifier_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|/|-)[A-Za-z0-9_]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z]+_[A-Za-z0-9_]+")
            .expect("a valid pattern")
    })
}

/// The most misspelt words a prompt gets corrected.
const MAX_CORRECTIONS: usize = 4;

/// The word the memory has that `word` is most likely a slip of: one letter dropped
/// ("clippi" for "clipi"), doubled ("locali" for "local"), or two swapped. Words that are
/// short or not plain letters are left alone: a four-letter word is one slip from too
/// many others.
pub(super) fn typo_fix(word: &str, df_of: &impl Fn(&str) -> u64) -> Option<(String, u64)> {
    let chars: Vec<char> = word.chars().collect();
    if chars.len() < 5 || !chars.iter().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let mut variants: Vec<String> = Vec::new();
    for i in 0..chars.len() {
        let mut dropped = chars.clone();
        dropped.remove(i);
        variants.push(dropped.into_iter().collect());
        let mut doubled = chars.clone();
        doubled.insert(i, chars[i]);
        variants.push(doubled.into_iter().collect());
        if i + 1 < chars.len() && chars[i] != chars[i + 1] {
            let mut swapped = chars.clone();
            swapped.swap(i, i + 1);
            variants.push(swapped.into_iter().collect());
        }
    }
    variants.sort();
    variants.dedup();
    variants
        .into_iter()
        .map(|v| {
            let n = df_of(&v);
            (v, n)
        })
        .filter(|(_, n)| *n > 0)
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
}

/// Identifiers, paths and dotted names of a prompt, as the index's words in order:
/// `process.env.STRIPE_PUBLISHABLE_KEY` → [process, env, stripe, publish, key].
fn identifiers(index: &Index, prompt: &str) -> Vec<Identifier> {
    let text = crate::text::clip_chars(prompt, MAX_PROMPT_CHARS);
    let mut out: Vec<Identifier> = Vec::new();
    for m in identifier_pattern().find_iter(text).take(16) {
        let spaced = m.as_str().replace(['.', ':', '/', '-', '_'], " ");
        let split = split_camel(&spaced);
        let parts = search::words(index, &split);
        if parts.len() >= 2 && !out.iter().any(|i| i.parts == parts) {
            out.push(Identifier {
                parts,
                spelled: spelled(m.as_str()),
            });
        }
    }
    out
}

/// An identifier, path or dotted name of a prompt.
struct Identifier {
    /// The index's words for it, in order (for the phrase query).
    parts: Vec<String>,
    /// Its letters as written, separators as spaces (` claude code log renderer py `).
    spelled: String,
}

/// Lower case, camelCase split, every run of non-alphanumerics one space, padded with
/// a space at each end: `claude_code_log/renderer.py` and `claude-code-log/renderer.py`
/// spell alike, and a match of one inside another starts and ends at words.
fn spelled(text: &str) -> String {
    let split = split_camel(text).to_lowercase();
    let words: Vec<&str> = split
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    format!(" {} ", words.join(" "))
}

/// `StripeWebhook` → `Stripe Webhook`.
fn split_camel(text: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.push(c);
    }
    out
}

/// Projects the prompt names (other than the current one).
fn named_projects(index: &Index, searcher: &Searcher, prompt: &str, current: &str) -> Vec<String> {
    let f = index.fields();
    let text = crate::text::clip_chars(prompt, MAX_PROMPT_CHARS).to_lowercase();
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

/// The stemmed words of a memory's text fields.
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
    let Keywords {
        found: keys,
        weight,
    } = keywords(index, &searcher, text);
    let ids = identifiers(index, text);
    if keys.is_empty() && ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for (word, _) in &keys {
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
    for Identifier { parts, .. } in &ids {
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
    scopes.extend(named_projects(index, &searcher, text, ctx.project));
    let scope_refs: Vec<&str> = scopes.iter().map(String::as_str).collect();
    let past = asks_about_the_past(text);
    let mut kinds = vec![Kind::Instinct, Kind::Conviction, Kind::Episode];
    if past {
        kinds.push(Kind::Session);
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![
        (Occur::Must, Box::new(BooleanQuery::new(should))),
        (Occur::Must, of_kinds(f, &kinds)),
        (Occur::Must, super::any_of(f.scope, &scope_refs)),
        (Occur::MustNot, term(f.flags, "disputed")),
    ];
    for file in ctx.touched {
        clauses.push((
            Occur::Should,
            Box::new(BoostQuery::new(term(f.file_keys, file), 1.5)),
        ));
    }
    let query = BooleanQuery::new(clauses);
    let limit = 20 + ctx.exclude.len().min(20);
    let ranked = search::ranked_scored(&searcher, &query, limit, ctx.now)?;
    let best = ranked.first().map_or(0.0, |(s, _)| *s);
    let weight = weight.max(f64::EPSILON);
    // A word in at most 3% of the memory.
    let rare = (1.0 + 1.0 / 0.03_f64).ln();
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
        let matched: Vec<&(String, f64)> = keys.iter().filter(|(w, _)| has.contains(w)).collect();
        let share = matched.iter().map(|(_, idf)| idf).sum::<f64>() / weight;
        // Whole means written out in the memory, not its parts scattered over it.
        let whole = ids.iter().any(|id| spelled.contains(&id.spelled));
        // A word of the prompt that is what the advice is about (in its trigger or a
        // conviction's name): "npm install …" and "use pnpm, never npm".
        let about = trigger_words(index, &doc);
        let on_topic = matched
            .iter()
            .any(|(w, idf)| about.contains(w) && *idf >= rare);
        // A conviction is a rule the user holds: its subject named is reason enough.
        let topic_floor = if crate::index::stored_text(&doc, f.kind) == Kind::Conviction.name() {
            CONVICTION_TOPIC_FLOOR
        } else {
            TOPIC_FLOOR
        };
        let enough = matched.len() >= 2 && share >= FLOOR || on_topic && share >= topic_floor;
        // An identifier written out in the memory lowers the bar, never removes it: a
        // pasted diff names the project's own paths everywhere.
        if !(whole && share >= IDENTIFIER_FLOOR || enough) {
            continue;
        }
        let mut item = load(&searcher, f, address, ctx.now)?;
        if !ctx.exclude.contains(&item.id) {
            item.why = matched.iter().map(|(w, _)| w.clone()).collect();
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
