//! The distinctive words of a prompt and their weight: stemmed like the index, without
//! stopwords, with slips of the keyboard corrected against the memory's own words.

use tantivy::{Searcher, Term};

use crate::index::{Index, search, words};

/// The most distinctive words a lookup uses.
const MAX_KEYWORDS: usize = 12;
/// A word in more than this share of the memory says nothing about a prompt.
const COMMON_SHARE: f64 = 0.15;

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

/// The distinctive words of a prompt: stemmed, not stopwords, not in most of the memory,
/// with their other spellings (`k8s`, `kubernetes`). Words the memory does not have
/// count at the weight of the rarest.
pub(super) fn keywords(index: &Index, searcher: &Searcher, text: &str) -> Keywords {
    let f = index.fields();
    let total = searcher.num_docs().max(1) as f64;
    let rarest = (1.0 + total).ln();
    let mut weight = 0.0;
    let mut found: Vec<Keyword> = Vec::new();
    let df_of = |w: &str| {
        [f.title, f.trigger, f.action, f.body, f.name, f.tags]
            .iter()
            .filter_map(|field| searcher.doc_freq(&Term::from_field_text(*field, w)).ok())
            .max()
            .unwrap_or(0)
    };
    let mut corrected = 0;
    let prompt_words = search::query_words(index, &words::cleaned(text));
    for (concept, w) in prompt_words.into_iter().enumerate() {
        let mut w = w;
        let mut df = df_of(&w);
        if df == 0
            && corrected < MAX_CORRECTIONS
            && let Some((fix, n)) = typo_fix(&w, &df_of)
        {
            corrected += 1;
            (w, df) = (fix, n);
        }
        let spellings: Vec<(String, u64)> = std::iter::once((w.clone(), df))
            .chain(words::other_spellings(index, &w).into_iter().map(|o| {
                let n = df_of(&o);
                (o, n)
            }))
            .filter(|(_, n)| *n > 0)
            .collect();
        if spellings.is_empty() {
            // Numbers and one-letter leftovers say little either way.
            if w.len() > 2 && !w.chars().all(|c| c.is_ascii_digit()) {
                weight += rarest;
            }
            continue;
        }
        // A word in most of a large memory finds everything and says nothing; in a
        // small one, every word still tells documents apart. The commonest spelling
        // weighs the word.
        let common = spellings.iter().map(|(_, n)| *n).max().unwrap_or(0);
        if total >= 50.0 && common as f64 > COMMON_SHARE * total {
            continue;
        }
        let idf = (1.0 + total / common as f64).ln();
        weight += idf;
        for (word, _) in spellings {
            found.push(Keyword { word, idf, concept });
        }
    }
    found.sort_by(|a, b| b.idf.total_cmp(&a.idf).then(a.word.cmp(&b.word)));
    found.truncate(MAX_KEYWORDS);
    Keywords { found, weight }
}

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
