//! The distinctive words of a prompt and their weight: stemmed like the index, without
//! stopwords, with slips of the keyboard corrected against the memory's own words.

use tantivy::collector::Count;
use tantivy::query::{BooleanQuery, Occur, Query};
use tantivy::{Searcher, Term};

use crate::index::{Index, words};
use crate::memory::kind::Kind;

/// The most distinctive words a lookup uses.
const MAX_KEYWORDS: usize = 12;
/// A word in more than this share of the memory says nothing about a prompt.
pub(in crate::recall) const COMMON_SHARE: f64 = 0.15;

/// The prompt's words as recall weighs them.
pub(super) struct Keywords {
    /// Distinctive words found in the memory, most distinctive first.
    pub found: Vec<Keyword>,
    /// The weight of everything distinctive the prompt says, found or not: a prompt
    /// about things the memory has never seen is not about the memory.
    pub weight: f64,
}

/// One word a memory may share with the prompt.
pub(super) struct Keyword {
    pub word: String,
    /// Its weight: the inverse document frequency of the word's commonest spelling.
    pub idf: f64,
    /// Which of the prompt's words it spells (the word itself or another spelling of
    /// it): a memory with two spellings of one word shares that word once.
    pub concept: usize,
}

/// The distinctive words of a prompt: stemmed, not stopwords, not in most of the memories
/// of the `kinds` it may bring, with their other spellings (`k8s`, `kubernetes`). Words
/// the memory does not have count at the weight of the rarest.
pub(super) fn keywords(index: &Index, searcher: &Searcher, text: &str, kinds: &[Kind]) -> Keywords {
    let f = index.fields();
    let total = searcher.num_docs().max(1) as f64;
    let reach = Reach::new(index, searcher, kinds);
    let rarest = (1.0 + total).ln();
    let mut weight = 0.0;
    let mut found: Vec<Keyword> = Vec::new();
    let df_of = |w: &str| doc_freq(searcher, f, w);
    // A word in most of a large memory finds everything and says nothing; in a small
    // one, every word still tells documents apart. Only the memories the prompt may bring
    // count: early on a memory is mostly session summaries, and forty of them saying
    // `nix` must not hide the one nix lesson from a prompt that brings no sessions. Most
    // words are rare in the whole memory, so only the few common there are counted again
    // among the memories in reach.
    let too_common = |word: &str, df: u64| {
        df as f64 > COMMON_SHARE * reach.total.min(total)
            && reach.total >= 50.0
            && reach.df(word) as f64 > COMMON_SHARE * reach.total
    };
    let cleaned = words::cleaned(text);
    // In another language, a word the memory lacks is most likely that language's word
    // for something, not a topic the memory has never seen, and no slip of the keyboard.
    let language = words::foreign(&cleaned);
    let foreign = language.is_some();
    let named = words::groups_named_in(index, &cleaned);
    let mut weighed_groups: Vec<usize> = Vec::new();
    let mut corrected = 0;
    let prompt_words = words::query_words_in(index, &cleaned, language.as_ref());
    // What the memory has of a word's spellings, and the word's weight: the inverse
    // document frequency of the commonest spelling kept. `None` when it has none; no
    // spelling when all are in most of the memory (they say nothing; the word weighs
    // nothing either).
    let weigh = |spellings: Vec<String>| -> Option<(f64, Vec<String>)> {
        let seen: Vec<(String, u64)> = spellings
            .into_iter()
            .map(|s| {
                let df = df_of(&s);
                (s, df)
            })
            .filter(|(_, df)| *df > 0)
            .collect();
        if seen.is_empty() {
            return None;
        }
        let kept: Vec<(String, u64)> = seen
            .into_iter()
            .filter(|(word, df)| !too_common(word, *df))
            .collect();
        let idf = kept
            .iter()
            .map(|(_, df)| *df)
            .max()
            .map_or(0.0, |common| (1.0 + total / common as f64).ln());
        Some((idf, kept.into_iter().map(|(word, _)| word).collect()))
    };
    for (n, w) in prompt_words.iter().cloned().enumerate() {
        // A word of a shorthand group is the group: its spellings, weighed once however
        // many of them the prompt uses.
        let group = named.iter().find(|(stem, _)| *stem == w).map(|(_, g)| *g);
        let (concept, spellings) = match group {
            Some(g) if weighed_groups.contains(&g) => continue,
            Some(g) => {
                weighed_groups.push(g);
                (
                    GROUP_CONCEPTS + g,
                    words::group_spellings(index, g).to_vec(),
                )
            }
            None if df_of(&w) == 0 && !foreign && corrected < MAX_CORRECTIONS => {
                match typo_fix(&w, &df_of) {
                    Some((fix, _)) => {
                        corrected += 1;
                        (n, vec![fix])
                    }
                    None => (n, vec![w.clone()]),
                }
            }
            None => (n, vec![w.clone()]),
        };
        let Some((idf, kept)) = weigh(spellings) else {
            // Numbers and one-letter leftovers say little either way.
            if w.len() > 2 && !w.chars().all(|c| c.is_ascii_digit()) {
                weight += if foreign {
                    rarest * FOREIGN_UNKNOWN
                } else {
                    rarest
                };
            }
            continue;
        };
        // A spelling in most of the memory says nothing; the others still may, each
        // sharing the word's weight.
        if !kept.is_empty() {
            weight += idf;
            found.extend(kept.into_iter().map(|word| Keyword { word, idf, concept }));
        }
    }
    // Words of another language the memory writes in English ("contraseña": password),
    // where the prompt does not say them in English too: weighed like its own words when
    // the memory has them, and not at all when it does not (the word itself already
    // weighs as one the memory lacks).
    for entry in words::glossed_in(&cleaned) {
        let english = words::gloss_english(index, entry);
        if english.iter().any(|e| prompt_words.contains(e)) {
            continue;
        }
        if let Some((idf, kept)) = weigh(english.to_vec())
            && !kept.is_empty()
        {
            weight += idf;
            let concept = GLOSS_CONCEPTS + entry;
            found.extend(kept.into_iter().map(|word| Keyword { word, idf, concept }));
        }
    }
    found.sort_by(|a, b| b.idf.total_cmp(&a.idf).then(a.word.cmp(&b.word)));
    found.truncate(MAX_KEYWORDS);
    Keywords { found, weight }
}

/// How many memories have `word` (stemmed) in a field its frequency is counted in: the
/// most of any one field, from the index's term counts, with no search.
pub(in crate::recall) fn doc_freq(
    searcher: &Searcher,
    f: &crate::index::schema::Fields,
    word: &str,
) -> u64 {
    counted_fields(f)
        .iter()
        .filter_map(|field| searcher.doc_freq(&Term::from_field_text(*field, word)).ok())
        .max()
        .unwrap_or(0)
}

/// The fields a word's frequency is counted in.
fn counted_fields(f: &crate::index::schema::Fields) -> [tantivy::schema::Field; 6] {
    [f.title, f.trigger, f.action, f.body, f.name, f.tags]
}

/// The memories a prompt may bring: how many, and how many of them have a word (counted
/// by a search, only for a word common in the whole memory).
pub(in crate::recall) struct Reach<'a> {
    index: &'a Index,
    searcher: &'a Searcher,
    kinds: Box<dyn Query>,
    /// How many (by the kinds' term counts, which include documents deleted and not yet
    /// merged away: near enough for a threshold, and no search).
    total: f64,
}

impl<'a> Reach<'a> {
    pub(in crate::recall) fn new(index: &'a Index, searcher: &'a Searcher, kinds: &[Kind]) -> Self {
        let f = index.fields();
        let total = kinds
            .iter()
            .filter_map(|k| {
                searcher
                    .doc_freq(&Term::from_field_text(f.kind, k.name()))
                    .ok()
            })
            .sum::<u64>() as f64;
        Reach {
            index,
            searcher,
            kinds: crate::recall::of_kinds(f, kinds),
            total,
        }
    }

    /// The memories in reach with `word` in any field its frequency is counted in.
    pub(in crate::recall) fn df(&self, word: &str) -> usize {
        let f = self.index.fields();
        let any_field: Vec<(Occur, Box<dyn Query>)> = counted_fields(f)
            .iter()
            .map(|field| (Occur::Should, crate::recall::term(*field, word)))
            .collect();
        let query = BooleanQuery::new(vec![
            (Occur::Must, Box::new(BooleanQuery::new(any_field))),
            (Occur::Must, self.kinds.box_clone()),
        ]);
        self.searcher.search(&query, &Count).unwrap_or(usize::MAX)
    }
}

/// What a word the memory lacks weighs in a prompt in another language, against one in
/// an English prompt. Not nothing: the prompt still says more than the memory knows, and
/// at nothing the few English words left would let noise through. (A run of Chinese or
/// Japanese, which the index keeps whole, weighs in full: it names nothing the memory
/// could hold, and counting it for less let tool names alone pick memories.)
const FOREIGN_UNKNOWN: f64 = 0.3;

/// Concept numbers of shorthand groups, apart from the prompt's word positions.
const GROUP_CONCEPTS: usize = 1 << 20;
/// Concept numbers of glossary entries, apart from both.
const GLOSS_CONCEPTS: usize = 1 << 21;

/// The most misspelt words a prompt gets corrected.
const MAX_CORRECTIONS: usize = 4;

/// The word the memory has that `word` is most likely a slip of: one letter dropped
/// ("clippi" for "clipi"), doubled ("locali" for "local"), or two swapped. Words that are
/// short or not plain letters are left alone: a four-letter word is one slip from too
/// many others.
pub(in crate::recall) fn typo_fix(
    word: &str,
    df_of: &impl Fn(&str) -> u64,
) -> Option<(String, u64)> {
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
