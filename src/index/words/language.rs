//! Whether a prompt is written in another language than English, told by its function
//! words (Tantivy's Snowball stopword lists: "dans", "les", "que", "und", "como"), and
//! which words of it are that language's function words. The memory's own words are
//! mostly English and tool names, so in a French prompt "dans" and "les" say nothing
//! about what it is looking for, and a word the memory has never seen is most likely a
//! word of that language rather than a topic the memory lacks.

use std::sync::OnceLock;

use tantivy::tokenizer::{
    Language, LowerCaser, SimpleTokenizer, StopWordFilter, TextAnalyzer, TokenStream,
};

/// The languages with a stopword list to tell them by.
const LANGUAGES: [Language; 11] = [
    Language::French,
    Language::Spanish,
    Language::Portuguese,
    Language::Italian,
    Language::German,
    Language::Dutch,
    Language::Russian,
    Language::Swedish,
    Language::Danish,
    Language::Norwegian,
    Language::Finnish,
];

/// Function words of one language that are not English ones a prompt needs before it
/// counts as written in it: one or two ("come", "die", "sin") turn up in English.
const MIN_FUNCTION_WORDS: usize = 3;
/// A prompt with at least one English function word in this many of its words is
/// English.
const ENGLISH_SHARE: usize = 5;
/// How much of a prompt is read to tell its language.
const SAMPLE_CHARS: usize = 2_000;

/// A prompt's other language: the words of it that are only that language's grammar.
#[derive(Clone)]
pub struct Foreign {
    /// Drops English and this language's function words.
    filter: TextAnalyzer,
}

impl Foreign {
    /// Whether `word` is a function word of this language or of English (an elided
    /// article like `l'` or `c'` counts as one only when nothing else is left).
    pub fn is_function_word(&self, word: &str) -> bool {
        let mut filter = self.filter.clone();
        let mut stream = filter.token_stream(word);
        !stream.advance()
    }
}

/// The analyzers: English function words out, then each language's.
fn analyzers() -> &'static (TextAnalyzer, Vec<TextAnalyzer>) {
    static ANALYZERS: OnceLock<(TextAnalyzer, Vec<TextAnalyzer>)> = OnceLock::new();
    ANALYZERS.get_or_init(|| {
        let english = || {
            StopWordFilter::remove(
                super::STOPWORDS
                    .iter()
                    .chain(ENGLISH_EXTRA)
                    .map(|w| (*w).to_string()),
            )
        };
        let base = || {
            TextAnalyzer::builder(SimpleTokenizer::default())
                .filter(LowerCaser)
                .filter(english())
        };
        let each = LANGUAGES
            .iter()
            .filter_map(|l| StopWordFilter::new(*l))
            .map(|stop| base().filter(stop).build())
            .collect();
        (base().build(), each)
    })
}

/// English words that are also another language's function words and are common in
/// prompts, beyond the stopwords recall already drops ("on", "the", "to", "or", "so"):
/// an English prompt must not count them as French or Italian.
const ENGLISH_EXTRA: &[&str] = &[
    "on", "the", "to", "or", "so", "was", "will", "with", "then", "there", "this", "that", "what",
    "we", "you", "they", "our", "your", "us", "up", "out", "off", "over", "under", "until",
    "while", "why", "where", "when", "which", "who", "she", "them", "their", "its", "same",
    "other", "some", "such", "only", "own", "than", "too", "very", "should", "would", "come",
    "hat", "man", "war", "die", "den", "men", "son", "far", "van", "had", "ben",
];

/// How many words of `text` each analyzer lets through.
fn kept(analyzer: &TextAnalyzer, text: &str) -> usize {
    let mut analyzer = analyzer.clone();
    let mut stream = analyzer.token_stream(text);
    let mut n = 0;
    while stream.advance() {
        n += 1;
    }
    n
}

/// The words of prose in `text`, each once: plain words of two letters or more, split
/// at an elision (`l'équipe`). Paths, URLs and identifiers are left out: `github.com`
/// holds Portuguese "com" and `~/uw/` Dutch "uw", and neither is a language.
fn prose_words(text: &str) -> String {
    let mut seen: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        if !word
            .chars()
            .all(|c| c.is_alphabetic() || c == '\'' || c == '\u{2019}')
        {
            continue;
        }
        for part in word.split(['\'', '\u{2019}']) {
            let part = part.to_lowercase();
            if part.chars().count() >= 2 && !seen.contains(&part) {
                seen.push(part);
            }
        }
    }
    seen.join(" ")
}

/// The other language `text` is written in, if its function words say so: at least
/// three different ones that are not English, and as many as any other language's
/// (Spanish, Portuguese and Italian often tie; either one's function words are dropped
/// then, which serves the prompt about as well).
pub fn foreign(text: &str) -> Option<Foreign> {
    // One word at a time (as the past-work reader asks) is never a language.
    text.split_whitespace().nth(MIN_FUNCTION_WORDS - 1)?;
    let sample = prose_words(crate::text::clip_chars(text, SAMPLE_CHARS));
    // English prose is told cheaply, by its own function words, so that an English
    // prompt's hook never builds the other languages' lists.
    let words = sample.split(' ').count();
    let english = sample
        .split(' ')
        .filter(|w| super::STOPWORDS.contains(w) || ENGLISH_EXTRA.contains(w))
        .count();
    if english * ENGLISH_SHARE >= words {
        return None;
    }
    let (english, each) = analyzers();
    let all = kept(english, &sample);
    let (best, hits) = each
        .iter()
        .map(|a| (a, all - kept(a, &sample)))
        .max_by_key(|(_, hits)| *hits)?;
    (hits >= MIN_FUNCTION_WORDS).then(|| Foreign {
        filter: best.clone(),
    })
}

pub use crate::text::unspaced;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn told_by_function_words() {
        let french = foreign("Dans le handler des commandes, je voudrais voir les logs").unwrap();
        assert!(french.is_function_word("dans"));
        assert!(french.is_function_word("les"));
        assert!(!french.is_function_word("handler"));
        assert!(!french.is_function_word("commandes"));
        assert!(foreign("¿cómo actualizo el release de gateway en staging con helm?").is_some());
        assert!(
            foreign(
                "Seit ich die Zinsberechnung eingebaut habe, weichen die Summen um ein Cent ab"
            )
            .is_some()
        );
        assert!(foreign("c'est quoi la bonne façon de faire chez nous ?").is_some());
        // English, however many words it shares with other languages' grammar.
        for english in [
            "the man page says die on error, so come back to the con list",
            "fix the flaky test in the gateway, it fails on CI but not on my machine",
            "what did we do on the auth service last time, and was the migration merged",
            // Terse English has few function words to tell it by, and none foreign.
            "pods crashloop, config map mount fails, rollout stuck since monday deploy",
            // Hosts and paths are no prose: github.com, ~/uw/js-mono.
            "clone https://github.com/a/b and https://gitlab.com/c/d into /Users/me/uw/js-mono \
             and /Users/me/uw/docs, then compare them with github.com/e/f",
        ] {
            assert!(foreign(english).is_none(), "{english}");
        }
    }

    #[test]
    fn unspaced_scripts() {
        assert!("設定画面を追加したい".chars().all(unspaced));
        assert!("告警".chars().all(unspaced));
        assert!(!"déployer".chars().any(unspaced));
        assert!(!"배포".chars().any(unspaced));
    }
}
