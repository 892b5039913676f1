//! Developer words of other languages and the English a memory writes them in
//! (`glossary.txt`): a Spanish prompt that says "contraseña" is about what a memory calls
//! a password, a Japanese one that says 設定画面 about a settings screen. The memory is
//! mostly English and tool names; without this, a prompt in another language shares
//! only its tool names with it. Spellings are matched as whole words, prefixes (inflected
//! languages), phrases, or, in Chinese, Japanese and Korean script, inside a run of text.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{unspaced, words};
use crate::index::Index;

const TABLE: &str = include_str!("glossary.txt");

/// The table, parsed once.
struct Glossary {
    /// Each entry's English words, as written.
    english: Vec<Vec<&'static str>>,
    /// Whole words → the entries they spell.
    words: HashMap<&'static str, Vec<usize>>,
    /// Prefixes of inflected words (`ошибк` of ошибка, ошибку).
    prefixes: Vec<(&'static str, usize)>,
    /// Phrases of several words, space-separated and padded with a space each side
    /// (` mot de passe `), as they are looked for among the prompt's words.
    phrases: Vec<(String, usize)>,
    /// Spellings in a script found inside a run of text (`密码`, `설정`).
    inside: Vec<(String, usize)>,
}

fn glossary() -> &'static Glossary {
    static GLOSSARY: OnceLock<Glossary> = OnceLock::new();
    GLOSSARY.get_or_init(|| {
        let mut g = Glossary {
            english: Vec::new(),
            words: HashMap::new(),
            prefixes: Vec::new(),
            phrases: Vec::new(),
            inside: Vec::new(),
        };
        let lines = TABLE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
        for line in lines {
            let Some((english, spellings)) = line.split_once(" = ") else {
                continue;
            };
            let entry = g.english.len();
            g.english.push(english.split_whitespace().collect());
            for spelling in spellings.split_whitespace() {
                if spelling.chars().any(is_run_script) {
                    g.inside.push((spelling.replace('_', " "), entry));
                } else if spelling.contains('_') {
                    g.phrases
                        .push((format!(" {} ", spelling.replace('_', " ")), entry));
                } else if let Some(prefix) = spelling.strip_suffix('*') {
                    g.prefixes.push((prefix, entry));
                } else {
                    g.words.entry(spelling).or_default().push(entry);
                }
            }
        }
        g
    })
}

/// Scripts whose words are found inside a run: Chinese and Japanese write none of
/// their spaces, Korean glues its particles on (`설정을`).
fn is_run_script(c: char) -> bool {
    unspaced(c) || matches!(c, '\u{AC00}'..='\u{D7AF}')
}

/// The entries `text` spells, in order, each once.
pub fn entries_in(text: &str) -> Vec<usize> {
    let g = glossary();
    let lower = text.to_lowercase();
    let mut out: Vec<usize> = Vec::new();
    let mut add = |entry: usize| {
        if !out.contains(&entry) {
            out.push(entry);
        }
    };
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .map(|w| w.trim_matches(['-', '\'']))
        .filter(|w| !w.is_empty())
        .collect();
    for word in &words {
        for entry in g.words.get(word).into_iter().flatten() {
            add(*entry);
        }
        for (prefix, entry) in &g.prefixes {
            if word.starts_with(prefix) {
                add(*entry);
            }
        }
    }
    let spaced = format!(" {} ", words.join(" "));
    for (phrase, entry) in &g.phrases {
        if spaced.contains(phrase.as_str()) {
            add(*entry);
        }
    }
    if lower.chars().any(is_run_script) {
        for (spelling, entry) in &g.inside {
            if lower.contains(spelling.as_str()) {
                add(*entry);
            }
        }
    }
    out
}

/// An entry's English words as the index has them (stemmed, lower case).
pub fn english(index: &Index, entry: usize) -> &'static [String] {
    static STEMMED: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    let stemmed = STEMMED.get_or_init(|| {
        glossary()
            .english
            .iter()
            .map(|words_of| {
                let mut out: Vec<String> = words_of.iter().flat_map(|w| words(index, w)).collect();
                out.dedup();
                out
            })
            .collect()
    });
    stemmed.get(entry).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english_of(text: &str) -> Vec<Vec<&'static str>> {
        entries_in(text)
            .into_iter()
            .map(|e| glossary().english[e].clone())
            .collect()
    }

    #[test]
    fn words_prefixes_phrases_and_runs() {
        assert_eq!(
            english_of("¿Cómo me conecto a la base de datos de prod?"),
            [
                vec!["connect", "connection"],
                vec!["data"],
                vec!["database"]
            ]
        );
        assert_eq!(
            english_of("Ошибку в логах не видно"),
            [vec!["error"], vec!["log", "logs"]]
        );
        assert_eq!(
            english_of("J'ai oublié le mot de passe"),
            [vec!["password"]]
        );
        assert_eq!(
            english_of("设置页面加一个开关"),
            [
                vec!["settings", "config"],
                vec!["screen", "page"],
                vec!["toggle", "switch"]
            ]
        );
        assert_eq!(
            english_of("설정을 바꿔 주세요"),
            [vec!["settings", "config"]]
        );
    }

    #[test]
    fn an_english_prompt_spells_nothing() {
        for prompt in [
            "add a settings screen with a toggle for push notifications",
            "the branches and cores of the build, a dossier, an installer, lent money",
            "deploy the release to staging and roll back if the error rate climbs",
        ] {
            assert_eq!(english_of(prompt), Vec::<Vec<&str>>::new(), "{prompt}");
        }
    }

    #[test]
    fn every_line_of_the_table_is_an_entry() {
        let lines = TABLE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(glossary().english.len(), lines);
        assert!(glossary().english.iter().all(|e| !e.is_empty()));
    }
}
