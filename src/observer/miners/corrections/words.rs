//! The words of what the user said, taken apart: sentences, the filler before a rule,
//! questions and hedges (no rules), statements (a subject, not an imperative), the
//! clause a phrase belongs to, and the salient words a rule is keyed on.

/// Words that carry no meaning for the key.
const STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "in",
    "on",
    "at",
    "this",
    "that",
    "these",
    "those",
    "here",
    "there",
    "repo",
    "repository",
    "project",
    "codebase",
    "it",
    "its",
    "for",
    "to",
    "with",
    "of",
    "and",
    "or",
    "be",
    "is",
    "are",
    "any",
    "all",
    "please",
    "we",
    "you",
    "our",
    "your",
    "just",
    "only",
    "also",
    "anymore",
    "again",
    "ever",
    "when",
    "from",
    "into",
    "by",
    "as",
    "use",
    "using",
    "run",
    "running",
    "do",
    "does",
    "not",
    "no",
    "never",
    "always",
    "don't",
    "dont",
    "instead",
    "rather",
    "than",
    "over",
    "prefer",
    "directly",
    "one",
    "ones",
    "thing",
    "things",
    "stuff",
    "something",
    "anything",
    "everything",
];

/// Words that open a statement about something rather than an instruction.
pub(super) const SUBJECTS: &[&str] = &[
    "i", "i'm", "im", "i've", "i'd", "i'll", "my", "we", "we're", "we've", "our", "it", "it's",
    "its", "this", "that", "these", "those", "there", "there's", "they", "he", "she", "the", "a",
    "an", "your", "you're", "here", "here's", "what", "which",
];

/// What "no X" names when it is no rule at all: "no longer", "no need", "no idea".
pub(super) const NOT_A_THING: &[&str] = &[
    "longer",
    "more",
    "need",
    "way",
    "idea",
    "problem",
    "problems",
    "one",
    "matter",
    "worries",
    "doubt",
    "reason",
    "point",
    "change",
    "changes",
    "luck",
    "difference",
    "clue",
    "issue",
    "issues",
    "thanks",
    "rush",
];

/// Words a rule's key may hold that name nothing: a rule of only these says nothing.
pub(super) const VAGUE: &[&str] = &[
    "same",
    "again",
    "thing",
    "way",
    "other",
    "different",
    "more",
    "less",
    "better",
    "first",
    "now",
    "then",
    "try",
    "that",
    "what",
    "like",
    "good",
    "right",
    "ok",
    "okay",
    "it",
    "them",
];

/// Whether a "not" that split a sentence into "prefer … not …" is a clause's own
/// negation ("this is not installed yet") rather than the rule's.
pub(super) fn not_is_a_clause(sentence: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    let Some(at) = lower.find(" not ") else {
        return false;
    };
    let before = &lower[..at];
    let last = before.split_whitespace().last().unwrap_or("");
    before.contains('(')
        || matches!(
            last,
            "is" | "are"
                | "was"
                | "were"
                | "be"
                | "been"
                | "do"
                | "does"
                | "did"
                | "has"
                | "have"
                | "had"
                | "can"
                | "could"
                | "should"
                | "would"
                | "will"
                | "it's"
                | "that's"
                | "i'm"
                | "may"
                | "might"
                | "must"
        )
}

pub(super) fn is_question(sentence: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    let first = lower.split_whitespace().next().unwrap_or("");
    sentence.trim_end().ends_with('?')
        || matches!(
            first,
            "does"
                | "do"
                | "is"
                | "are"
                | "can"
                | "could"
                | "should"
                | "would"
                | "will"
                | "why"
                | "how"
                | "what"
                | "where"
                | "when"
                | "which"
                | "who"
                | "did"
                | "have"
                | "has"
                | "was"
                | "were"
                | "shall"
                | "may"
                | "isn't"
                | "aren't"
                | "doesn't"
                | "didn't"
                | "if"
        )
}

pub(super) fn is_hedged(sentence: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    [
        "not sure",
        "maybe",
        "i think",
        "i wonder",
        "perhaps",
        "might",
        "i guess",
        "probably",
        "not certain",
        "wondering",
        "what if",
    ]
    .iter()
    .any(|h| lower.contains(h))
}

/// Leading filler a person puts before the rule itself.
pub(super) fn strip_filler(sentence: &str) -> (&str, bool) {
    let mut s = sentence.trim();
    let mut negated_start = false;
    loop {
        let lower = s.to_ascii_lowercase();
        let filler = [
            "no,",
            "no.",
            "no!",
            "nope,",
            "nope",
            "ok,",
            "ok.",
            "okay,",
            "also,",
            "also",
            "and",
            "but",
            "so,",
            "so",
            "actually,",
            "actually",
            "hmm,",
            "wait,",
            "btw,",
            "btw",
            "hey,",
            "remember:",
            "remember,",
            "remember to",
            "note:",
            "fyi,",
            "fyi:",
            "important:",
            "rule:",
            "again,",
            "please note:",
            // What frustration puts first ("fuck me stop making changes …").
            "fuck me",
            "fuck",
            "ffs",
            "omg",
            "ugh",
            "argh",
            "dude",
            "wtf",
            "jeez",
            "lol",
            "dammit",
            "damn",
            "seriously",
            "come on",
            "bro",
            "sigh",
        ]
        .iter()
        .find(|f| {
            lower.starts_with(*f) && lower[f.len()..].starts_with([' ', ',', ':']) || lower == **f
        });
        let Some(f) = filler else { break };
        negated_start |= f.starts_with("no");
        s = s[f.len()..]
            .trim_start_matches([' ', ',', ':', '-'])
            .trim_start();
    }
    (s, negated_start)
}

/// Words that only say how strongly something is said ("dont fkn give me plans").
const INTENSIFIERS: &[&str] = &[
    "fucking", "fuckin", "fkn", "fking", "fcking", "effing", "freaking", "frickin", "friggin",
    "bloody", "goddamn",
];

/// "ffs", "fffs", "wtf", "omg", "ugh": said at the rule, not part of it (a trailing one
/// would end up in the advice: "never edit generated files fffs").
fn is_exasperation(word: &str) -> bool {
    let fs = word.trim_end_matches('s');
    (word.len() >= 3 && word.ends_with('s') && !fs.is_empty() && fs.chars().all(|c| c == 'f'))
        || matches!(word, "wtf" | "omg" | "ugh" | "argh" | "smh")
}

/// The sentence without its intensifiers, its words otherwise as written.
pub(super) fn without_intensifiers(sentence: &str) -> String {
    let kept: Vec<&str> = sentence
        .split(' ')
        .filter(|w| {
            let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
            let bare = bare.to_ascii_lowercase();
            bare.is_empty() || !(INTENSIFIERS.contains(&bare.as_str()) || is_exasperation(&bare))
        })
        .collect();
    kept.join(" ")
}

/// The things a phrase names, for the key: lower-case words without the filler.
pub fn salient(phrase: &str) -> String {
    let mut words: Vec<String> = phrase
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '`' | '\''))
        .map(|w| {
            w.trim_matches(|c: char| matches!(c, '.' | '!' | ':'))
                .to_ascii_lowercase()
        })
        .filter(|w| w.len() > 1 && !STOP.contains(&w.as_str()))
        .take(3)
        .collect();
    words.sort();
    words.join(" ")
}

/// A captured phrase up to the end of its clause, without the place it is said for
/// ("npm in this repo" → "npm").
pub(super) fn trimmed(m: Option<regex::Match>) -> Option<String> {
    let mut clause = clause_of(m?.as_str());
    for place in [
        " in this repo",
        " in this project",
        " in this codebase",
        " in this",
        " here",
        " anymore",
        " anywhere",
        " either",
        " at all",
    ] {
        if clause.to_ascii_lowercase().ends_with(place) {
            clause = clause[..clause.len() - place.len()].trim_end();
        }
    }
    (!clause.is_empty()).then(|| clause.to_string())
}

/// A phrase up to the end of its clause, without the punctuation that ends it.
pub(super) fn clause_of(text: &str) -> &str {
    clause(text, false)
}

/// A rule's clause for its advice: the alternative that follows a comma stays ("don't
/// give me plans, just tell me the findings"), as it is what to do instead.
pub(super) fn advice_clause(text: &str) -> &str {
    clause(text, true)
}

fn clause(text: &str, with_alternative: bool) -> &str {
    let end = |text: &str| {
        [
            " - ",
            " – ",
            ", ",
            "; ",
            " because ",
            " since ",
            " so ",
            " as ",
        ]
        .iter()
        .filter_map(|sep| text.find(sep))
        .min()
    };
    let mut cut = end(text).unwrap_or(text.len());
    let alternative = ["just ", "instead ", "rather ", "only "];
    if with_alternative
        && let Some(rest) = text[cut..].strip_prefix(", ")
        && alternative
            .iter()
            .any(|a| rest.to_ascii_lowercase().starts_with(a))
    {
        let from = cut + 2;
        cut = from + end(&text[from..]).unwrap_or(text.len() - from);
    }
    text[..cut].trim().trim_end_matches(['.', '!', ',']).trim()
}

/// The sentences of a message: a period ends one only before a space or the end, so
/// `group.visible` and `v1.2` stay whole.
pub(super) fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        let next = bytes.get(i + 1).copied();
        let ends = match c {
            '\n' | ';' => true,
            // `?` alone (Rust's operator, "with ?") ends nothing.
            '.' | '!' | '?' => {
                next.is_none_or(|n| n == b' ' || n == b'\n')
                    && !text[..i].ends_with(char::is_whitespace)
            }
            _ => false,
        };
        if ends {
            // A question mark stays with its sentence: questions are no rules.
            let end = if c == '?' { i + 1 } else { i };
            out.push(&text[start..end]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out.into_iter()
}
