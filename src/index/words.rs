//! The words of a query or prompt as the index has them: stemmed and lower-cased like
//! the indexed text, without stopwords; URLs as what they point at; contractions,
//! numbers, versions and hashes cleaned (`tokens`); developer shorthand with its
//! other spellings (`vocabulary`); and developer words of other languages with the
//! English the memory writes them in (`glossary`).

mod glossary;
mod language;
mod tokens;
mod vocabulary;

use super::Index;

pub use glossary::{english as gloss_english, entries_in as glossed_in};
pub use language::{Foreign, foreign, unspaced};
pub use tokens::cleaned;
pub use vocabulary::{named_in as groups_named_in, spellings as group_spellings};

/// The most distinct words a query is made of (search reads 400; 64 missed the error
/// line of a pasted log).
const MAX_QUERY_WORDS: usize = 400;

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
    // How many says which, not what: "two short paragraphs", "three of them".
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
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
/// stopwords (a prompt in another language without that language's too), duplicates
/// gone, at most 64.
pub fn query_words(index: &Index, text: &str) -> Vec<String> {
    query_words_in(index, text, foreign(text).as_ref())
}

/// `query_words` of a text whose language the caller has already told.
pub fn query_words_in(index: &Index, text: &str, foreign: Option<&Foreign>) -> Vec<String> {
    let kept: String = text
        .split_whitespace()
        .map(url_words)
        .filter(|w| {
            // An apostrophe at a word's edge is a quote ('what went well'), not part of
            // a contraction.
            let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
            !STOPWORDS.contains(&bare.to_lowercase().as_str())
                && !foreign.is_some_and(|f| f.is_function_word(bare))
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut words = words(index, &kept);
    // A pasted log's telling line often comes after a hundred words of preamble: the
    // most a query keeps is a bound on work, not a reading of the first lines.
    words.truncate(MAX_QUERY_WORDS);
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
