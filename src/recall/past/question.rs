//! Whether a prompt asks about past work in general, and about which sessions: a known
//! phrase ("where did we leave off"), or a cue of an earlier time or of work left open
//! ("anything pending from last time?", "recap pls", "昨天我们做了什么？") put as a
//! question or a request to go on, in either case naming no topic of its own.

use chrono::{DateTime, Utc};
use regex::Regex;
use std::sync::OnceLock;

use super::Span;
use super::span::span;
use super::words::{ASK_ANYWHERE, ASK_FIRST, CUES, FILLER, HOW_OR_WHY, PHRASES};
use super::world;

/// The most characters a past-work question has: the longest of the 205 that reviewers
/// labelled has 167.
const MAX_CHARS: usize = 400;

/// Where the phrases occur in `text` (lower-cased): byte ranges. A phrase's pattern is
/// built only when the text holds its literal.
fn phrases_in(text: &str) -> Vec<std::ops::Range<usize>> {
    static BUILT: [OnceLock<Regex>; PHRASES.len()] = [const { OnceLock::new() }; PHRASES.len()];
    let mut at = Vec::new();
    for (n, (literal, pattern)) in PHRASES.iter().enumerate() {
        if !literal.split('|').any(|l| text.contains(l)) {
            continue;
        }
        let regex = BUILT[n].get_or_init(|| {
            // Chinese, Japanese and Thai have no spaces, so a word boundary never falls
            // inside their text.
            let bounded = if pattern.chars().any(is_unspaced) {
                pattern.to_string()
            } else {
                format!(r"\b(?:{pattern})")
            };
            Regex::new(&bounded).expect("a valid pattern")
        });
        at.extend(regex.find_iter(text).map(|m| m.range()));
    }
    at
}

/// Literal phrases, expanded from their slots (see `words`).
struct Phrases(Vec<String>);

impl Phrases {
    fn of(specs: &[&[&str]]) -> Self {
        let mut out = Vec::new();
        for spec in specs.iter().flat_map(|s| s.iter()) {
            let mut made = vec![String::new()];
            for slot in spec.split(' ') {
                made = made
                    .iter()
                    .flat_map(|m| {
                        slot.split('|').map(move |choice| {
                            if m.is_empty() {
                                choice.to_string()
                            } else {
                                format!("{m} {choice}")
                            }
                        })
                    })
                    .collect();
            }
            out.extend(made);
        }
        Self(out)
    }

    /// Where each phrase occurs whole in `text`: byte ranges.
    fn found(&self, text: &str) -> Vec<std::ops::Range<usize>> {
        let mut at = Vec::new();
        for phrase in &self.0 {
            let (word, prefix) = match phrase.strip_suffix('*') {
                Some(w) => (w, true),
                None => (phrase.as_str(), false),
            };
            let anywhere = word.chars().any(is_unspaced);
            for (start, _) in text.match_indices(word) {
                let end = start + word.len();
                let before = text[..start].chars().next_back();
                let after = text[end..].chars().next();
                let letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'');
                // "last night's session": a possessive ends the cue.
                let ends = !letter(after) || text[end..].starts_with("'s");
                // An elided article before a cue ("l'ultima volta") is no letter of it.
                let joined = before.is_some_and(char::is_alphanumeric);
                if anywhere || (!joined && (prefix || ends)) {
                    let end = if prefix {
                        end + text[end..]
                            .find(|c: char| !c.is_alphanumeric())
                            .unwrap_or(text.len() - end)
                    } else {
                        end
                    };
                    at.push(start..end);
                }
            }
        }
        at
    }

    /// Whether `text` starts with one of them (after punctuation and spaces).
    fn starts(&self, text: &str) -> bool {
        let text = text.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '¿');
        self.found(text).iter().any(|r| r.start == 0)
    }
}

fn cues() -> &'static Phrases {
    static P: OnceLock<Phrases> = OnceLock::new();
    P.get_or_init(|| Phrases::of(&[CUES, world::CUES]))
}

fn ask_first() -> &'static Phrases {
    static P: OnceLock<Phrases> = OnceLock::new();
    P.get_or_init(|| Phrases::of(&[ASK_FIRST, world::ASK_FIRST]))
}

fn ask_anywhere() -> &'static Phrases {
    static P: OnceLock<Phrases> = OnceLock::new();
    P.get_or_init(|| Phrases::of(&[ASK_ANYWHERE, world::ASK_ANYWHERE]))
}

/// Put as a question or a request to go on: a question mark (Arabic's too), a clause
/// that starts with a question word ("…, what were they"), or a request anywhere.
fn asks(lower: &str) -> bool {
    lower.contains(['?', '？', '؟'])
        || clauses(lower).iter().any(|c| ask_first().starts(c))
        || !ask_anywhere().found(lower).is_empty()
}

/// The text with the cues in it blanked out, each byte a space: nothing moves, so
/// overlapping cues ("earlier this week", "this week") blank what they cover.
fn without(text: &str, cues: &[std::ops::Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in cues {
        bytes[r.clone()].fill(b' ');
    }
    // Cues are whole words, so only whole characters were blanked.
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Whether `text` asks about past work in general, and about which sessions. Long
/// prompts are tasks that mention the past, and a question that names a topic is
/// answered by the topic: neither is one.
///
/// The prompt is read clause by clause: one clause must ask about the past naming
/// nothing, no clause that asks about the past may name a topic ("recap what we did on
/// the webhook handler"), and no other question may ask about one ("where were we… oh
/// right, the docker build: why is it so slow?"). Context around the question ("my
/// brain is fried", "need it for standup") is neither. `topical` tells a word that names
/// something the memory is about from one it has nothing on (see [`super::topical`]).
pub fn question(
    text: &str,
    project: &str,
    now: DateTime<Utc>,
    topical: &dyn Fn(&str) -> bool,
) -> Option<Span> {
    // A megabyte of one script without spaces is one "word": the length is checked too.
    if text.len() > 4 * MAX_CHARS || text.chars().count() > MAX_CHARS {
        return None;
    }
    let text = text.replace('’', "'");
    if text.split_whitespace().count() > 30 {
        return None;
    }
    let lower = chat_spellings(&text.to_lowercase());
    let (mut past_clause, mut phrased_anywhere) = (false, false);
    for clause in clauses(&lower) {
        let mut marks = phrases_in(clause);
        let phrased = !marks.is_empty();
        phrased_anywhere |= phrased;
        let mut cued = cues().found(clause);
        // A date is a cue of an earlier time ("what went out at the start of october?").
        cued.extend(super::dated::dated(clause, now.date_naive()).map(|d| d.at));
        marks.extend(cued.iter().cloned());
        // The words of a request ("fill me in", "sitrep") name no topic either.
        let mut said = marks.clone();
        said.extend(ask_anywhere().found(clause));
        let topic = names_a_topic(&without(clause, &said), project, topical);
        if marks.is_empty() || asks_how_or_why(clause) {
            if topic && clause.trim_end().ends_with(['?', '？']) {
                return None;
            }
        } else if !topic {
            past_clause = true;
        } else if phrased || asks(clause) {
            return None;
        }
        // A remark that names a topic ("there's a half-written post lying around") is
        // context: it neither asks nor keeps the question from being one.
    }
    if !past_clause || !(phrased_anywhere || asks(&lower)) {
        return None;
    }
    Some(span(&lower, now))
}

/// Whether a clause asks how or why ("how far did we get" asks where).
fn asks_how_or_why(clause: &str) -> bool {
    let start = clause.trim_start_matches(|c: char| !c.is_alphanumeric());
    let not_how_far = |rest: &str| {
        let rest = rest.trim_start();
        !rest.starts_with("far") && !rest.starts_with("much")
    };
    let first = HOW_OR_WHY.iter().any(|w| {
        start.strip_prefix(w).is_some_and(|rest| {
            !rest.starts_with(|c: char| c.is_alphanumeric() && !is_unspaced(c)) && not_how_far(rest)
        })
    });
    // "remind me how to do it": how and why ask it anywhere (`como` also means "as").
    let anywhere = ["how", "why", "怎么", "怎麼", "为什么", "為什麼", "어떻게"]
        .iter()
        .any(|w| {
            clause.match_indices(w).any(|(at, _)| {
                let end = at + w.len();
                let letter =
                    |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() && !is_unspaced(c));
                is_unspaced(w.chars().next().unwrap_or(' '))
                    || (!letter(clause[..at].chars().next_back())
                        && !letter(clause[end..].chars().next())
                        && not_how_far(&clause[end..]))
            })
        });
    first || anywhere
}

/// The prompt with chat spellings of the question words written out: `wht`, `wat`,
/// `what'd`, `where'd`.
fn chat_spellings(lower: &str) -> String {
    let mut out = String::with_capacity(lower.len());
    for (n, word) in lower.split(' ').enumerate() {
        if n > 0 {
            out.push(' ');
        }
        // A word keeps the punctuation after it: "mornin," is "morning,".
        let bare = word.trim_end_matches(|c: char| c.is_ascii_punctuation() && c != '\'');
        out.push_str(match bare {
            "wht" | "wat" | "wut" | "whta" => "what",
            "what'd" | "whatd" => "what did",
            "where'd" | "whered" => "where did",
            "mornin" => "morning",
            "nite" => "night",
            "tonite" => "tonight",
            "thurs" | "thur" => "thursday",
            "tues" => "tuesday",
            "weds" => "wednesday",
            _ => untyped(bare),
        });
        out.push_str(&word[bare.len()..]);
    }
    out
}

/// The words past-work questions are made of, as typed with two letters swapped
/// ("wehre did we laeve it"): the word meant.
fn untyped(word: &str) -> &str {
    const MEANT: &[&str] = &[
        "where",
        "leave",
        "left",
        "last",
        "what",
        "were",
        "yesterday",
        "stopped",
        "session",
        "pending",
    ];
    let swapped = |meant: &str| {
        let (a, b) = (word.as_bytes(), meant.as_bytes());
        a.len() == b.len()
            && a != b
            && (0..a.len().saturating_sub(1)).any(|i| {
                a[i] == b[i + 1] && a[i + 1] == b[i] && a[..i] == b[..i] && a[i + 2..] == b[i + 2..]
            })
    };
    MEANT.iter().find(|m| swapped(m)).copied().unwrap_or(word)
}

/// The prompt's clauses, each with the mark that ends it: sentences, and the parts of a
/// sentence a comma or a dash sets apart.
fn clauses(lower: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = lower.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        let ends = matches!(
            c,
            '?' | '？' | '!' | '！' | '。' | '\n' | ';' | ',' | '、' | '，' | ':' | '：'
        )
            // A dot ends a sentence, not a version or a file name; a dash set apart
            // by spaces ends a clause.
            || (c == '.' && next.is_none_or(char::is_whitespace))
            || (matches!(c, '-' | '—' | '–') && next == Some(' ') && lower[..i].ends_with(' '));
        if ends {
            let end = i + c.len_utf8();
            out.push(&lower[start..end]);
            start = end;
        }
    }
    if start < lower.len() {
        out.push(&lower[start..]);
    }
    out
}

/// Whether the words name something besides when, where and how far: the project's own
/// name names nothing, nor does a word the memory has nothing to say about.
fn names_a_topic(text: &str, project: &str, topical: &dyn Fn(&str) -> bool) -> bool {
    let project = project.to_lowercase();
    // An unspaced script has no spaces to tell a topic from filler by, but the Latin
    // words set in it ("最近這幾個OID group在framework…") are words like any other.
    text.split(|c: char| (!c.is_alphanumeric() && c != '\'' && c != '-') || is_unspaced(c))
        .map(|w| w.trim_matches(['-', '\'']))
        .filter(|w| !w.is_empty() && !FILLER.contains(w) && !world::FILLER.contains(w))
        .map(bare)
        .any(|w| {
            let names = |w: &str| {
                !FILLER.contains(&w)
                    && w != project
                    && w.chars().count() > 2
                    && !reads_as_a_modifier(w)
                    && topical(w)
            };
            // `infra-repo`, `half-finished`: a compound of the project and filler names
            // nothing, a project's own hyphenated name neither.
            names(w) && (!w.contains('-') || w.split('-').any(names))
        })
        || katakana_word(text)
        || names_a_file(text)
}

/// Whether the words name a file, which is a topic even when the memory has nothing on
/// it: a name with a source file's extension (`main.go`, `flake.nix`) or a build file
/// (`Dockerfile`, `Makefile`).
fn names_a_file(text: &str) -> bool {
    const EXTENSIONS: &[&str] = &[
        "rs", "go", "py", "ts", "tsx", "js", "jsx", "rb", "java", "kt", "swift", "c", "h", "cpp",
        "cs", "php", "nix", "sh", "toml", "yaml", "yml", "json", "sql", "tf", "md", "css", "html",
        "vue", "lua",
    ];
    const BUILD_FILES: &[&str] = &[
        "dockerfile",
        "containerfile",
        "makefile",
        "justfile",
        "taskfile",
        "jenkinsfile",
        "gemfile",
        "podfile",
        "procfile",
        "rakefile",
        "brewfile",
        "vagrantfile",
    ];
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '?' | '!' | '(' | ')' | '`'))
        .map(|w| w.trim_end_matches('.'))
        .any(|w| {
            BUILD_FILES.contains(&w)
                || w.rsplit_once('.')
                    .is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext))
        })
}

/// Whether an English word reads as an adverb or a past form ("actually", "shipped",
/// "started"): it says how or what happened, and a topic is named by a noun. Short
/// words are left alone, for "speed", "feed" and "embed" are things.
fn reads_as_a_modifier(word: &str) -> bool {
    word.len() >= 6
        && word.bytes().all(|b| b.is_ascii_lowercase())
        && (word.ends_with("ly") || word.ends_with("ed"))
}

/// A word without the clitics that carry no topic: English `where'd`, `we've`, French
/// `s'était`, `c'est`, Italian `un po'`.
fn bare(word: &str) -> &str {
    let word = match word.split_once('\'') {
        Some((head, tail)) if head.chars().count() <= 3 && tail.chars().count() > 2 => tail,
        _ => word,
    };
    for clitic in ["'d", "'s", "'ll", "'ve", "'re", "'m"] {
        if let Some(stem) = word.strip_suffix(clitic) {
            return stem;
        }
    }
    word
}

/// A Japanese loanword (three katakana or more: リトライ, "retry") names a thing.
fn katakana_word(text: &str) -> bool {
    let mut run = 0;
    text.chars().any(|c| {
        run = if matches!(c, '\u{30a0}'..='\u{30ff}') {
            run + 1
        } else {
            0
        };
        run >= 3
    })
}

/// A character of a script written without spaces between words (Chinese, Japanese;
/// Thai, Lao, Khmer, Myanmar), or of Korean, whose words carry their particles.
pub(super) fn is_unspaced(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}'
        | '\u{0e00}'..='\u{0eff}' | '\u{1000}'..='\u{109f}' | '\u{1780}'..='\u{17ff}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    #[test]
    fn past_work_questions_and_their_days() {
        // A Wednesday.
        let now = at("2026-11-25T10:00:00Z");
        for q in [
            "hey, where did we stop last time in this repo?",
            "where did we leave off",
            "pick up where we left off",
            "continue where we stopped",
            "what was i doing in here last time? weekend wiped my brain",
            "what were we debugging on this one?",
            "is there stuff still unfinished here",
            "did we leave anything half-done",
            "the last time we worked on this, what was it about?",
            "上次我们做到哪里了",
            "on en était où ?",
            "wo waren wir stehen geblieben?",
            "¿dónde lo dejamos?",
        ] {
            assert_eq!(
                question(q, "ledger", now, &|_| true),
                Some(Span::Latest),
                "{q}"
            );
        }
        assert_eq!(
            question("what were we doing yesterday", "ledger", now, &|_| true),
            Some(Span::Day(NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()))
        );
        assert_eq!(
            question(
                "what did we do on monday? anything left over",
                "blog",
                now,
                &|_| true
            ),
            Some(Span::Day(NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()))
        );
        assert_eq!(
            question("what did we do on wednesday", "blog", now, &|_| true),
            Some(Span::Day(NaiveDate::from_ymd_opt(2026, 11, 18).unwrap()))
        );
        assert!(matches!(
            question("what did we get done last week?", "ledger", now, &|_| true),
            Some(Span::Since(_))
        ));
        // Cues that overlap ("earlier this week", "this week") blank only themselves.
        assert!(matches!(
            question(
                "anything pending from earlier this week? recap pls",
                "ledger",
                now,
                &|_| true
            ),
            Some(Span::Since(_))
        ));
        for q in [
            "add a CSV export to the ledger",
            "where do we store the api keys?",
            "fix the flaky test in the importer",
            "where did we leave the export command?",
            "what did we do about the flaky checkout test?",
            "what am i missing here?",
            "what were we using for the retry backoff?",
        ] {
            assert_eq!(question(q, "ledger", now, &|_| true), None, "{q}");
        }
        // The languages of `world`: a Thai question has no spaces to find its cue by, and
        // Swedish "i fredags" is last Friday.
        assert_eq!(
            question("ครั้งที่แล้วเราทำถึงไหนแล้ว", "ledger", now, &|_| false),
            Some(Span::Latest)
        );
        assert_eq!(
            question("vad gjorde vi i fredags?", "ledger", now, &|_| false),
            Some(Span::Day(NaiveDate::from_ymd_opt(2026, 11, 20).unwrap()))
        );
        // A question word that starts a later clause asks, without a question mark.
        assert_eq!(
            question(
                "the other day you said you'd look at a few things, what were they",
                "ledger",
                now,
                &|_| false
            ),
            Some(Span::Latest)
        );
        // A megabyte without spaces is no question, and is not read clause by clause.
        let pasted = "上次我们做到哪里了".repeat(100_000);
        assert_eq!(question(&pasted, "ledger", now, &|_| false), None);
    }
}
