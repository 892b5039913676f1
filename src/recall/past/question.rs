//! Whether a prompt asks about past work in general, and about which sessions: a known
//! phrase ("where did we leave off"), or a cue of an earlier time or of work left open
//! ("anything pending from last time?", "recap pls", "昨天我们做了什么？") put as a
//! question or a request to go on, in either case naming no topic of its own.

use chrono::{DateTime, Datelike, Duration, Utc, Weekday};
use regex::Regex;
use std::sync::OnceLock;

use super::Span;
use super::words::{ASK_ANYWHERE, ASK_FIRST, CUES, FILLER, PHRASE_HINTS, PHRASES};

fn phrases() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        let bounded: Vec<String> = PHRASES
            .iter()
            .map(|p| {
                // CJK has no spaces, so a word boundary never falls inside its text.
                if p.chars().any(is_cjk) {
                    format!("(?:{p})")
                } else {
                    format!(r"\b(?:{p})")
                }
            })
            .collect();
        // Matched against the lower-cased prompt: no case folding to build.
        Regex::new(&bounded.join("|")).expect("a valid pattern")
    })
}

/// Literal phrases, expanded from their slots (see `words`).
struct Phrases(Vec<String>);

impl Phrases {
    fn of(specs: &[&str]) -> Self {
        let mut out = Vec::new();
        for spec in specs {
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
            let anywhere = word.chars().any(is_cjk);
            for (start, _) in text.match_indices(word) {
                let end = start + word.len();
                let before = text[..start].chars().next_back();
                let after = text[end..].chars().next();
                let letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '\'');
                if anywhere || (!letter(before) && (prefix || !letter(after))) {
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
    P.get_or_init(|| Phrases::of(CUES))
}

fn ask_first() -> &'static Phrases {
    static P: OnceLock<Phrases> = OnceLock::new();
    P.get_or_init(|| Phrases::of(ASK_FIRST))
}

fn ask_anywhere() -> &'static Phrases {
    static P: OnceLock<Phrases> = OnceLock::new();
    P.get_or_init(|| Phrases::of(ASK_ANYWHERE))
}

/// Put as a question or a request to go on.
fn asks(lower: &str) -> bool {
    lower.contains(['?', '？'])
        || ask_first().starts(lower)
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
pub fn question(text: &str, project: &str, now: DateTime<Utc>) -> Option<Span> {
    let text = text.replace('’', "'");
    if text.split_whitespace().count() > 30 {
        return None;
    }
    let lower = text.to_lowercase();
    // Literal words first: most prompts are no such question, and a hook pays for every
    // pattern it builds.
    let phrased = PHRASE_HINTS.iter().any(|h| lower.contains(h))
        && phrases()
            .find(&lower)
            .is_some_and(|m| !names_a_topic(clause_after(&lower[m.end()..]), project));
    let cued = || {
        let found = cues().found(&lower);
        !found.is_empty() && asks(&lower) && !names_a_topic(&without(&lower, &found), project)
    };
    if !phrased && !cued() {
        return None;
    }
    Some(span(&lower, now))
}

/// The clause after a phrase: where a topic would be named ("where did we leave *the
/// export command*").
fn clause_after(after: &str) -> &str {
    after.split(['?', '.', '!', '\n']).next().unwrap_or("")
}

/// Whether the words name something besides when, where and how far: the project's own
/// name names nothing.
fn names_a_topic(text: &str, project: &str) -> bool {
    let project = project.to_lowercase();
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        // Words only: a CJK clause has no spaces to tell a topic from filler by.
        .filter(|w| !w.is_empty() && !w.chars().any(is_cjk))
        .any(|w| !FILLER.contains(&w) && w != project && w.chars().count() > 2)
        || katakana_word(text)
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

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}')
}

/// Which sessions: a named day, the last week, else the latest.
fn span(lower: &str, now: DateTime<Utc>) -> Span {
    let today = now.date_naive();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if has(&["yesterday", "昨天", "昨日", "hier", "gestern", "ayer"]) {
        return Span::Day(today - Duration::days(1));
    }
    if has(&["this morning", "earlier today", "today so far"]) {
        return Span::Day(today);
    }
    if has(&[
        "last week",
        "this week",
        "上週",
        "上周",
        "先週",
        "semaine dernière",
        "letzte woche",
        "semana pasada",
    ]) {
        return Span::Since((now - Duration::days(7)).timestamp());
    }
    const DAYS: &[(&str, Weekday)] = &[
        ("monday", Weekday::Mon),
        ("tuesday", Weekday::Tue),
        ("wednesday", Weekday::Wed),
        ("thursday", Weekday::Thu),
        ("friday", Weekday::Fri),
        ("saturday", Weekday::Sat),
        ("sunday", Weekday::Sun),
    ];
    if let Some((_, day)) = DAYS.iter().find(|(name, _)| lower.contains(name)) {
        // The most recent such day before today.
        let back = (today.weekday().num_days_from_monday() + 7 - day.num_days_from_monday()) % 7;
        let back = if back == 0 { 7 } else { back };
        return Span::Day(today - Duration::days(i64::from(back)));
    }
    Span::Latest
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
            assert_eq!(question(q, "ledger", now), Some(Span::Latest), "{q}");
        }
        assert_eq!(
            question("what were we doing yesterday", "ledger", now),
            Some(Span::Day(NaiveDate::from_ymd_opt(2026, 11, 24).unwrap()))
        );
        assert_eq!(
            question("what did we do on monday? anything left over", "blog", now),
            Some(Span::Day(NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()))
        );
        assert_eq!(
            question("what did we do on wednesday", "blog", now),
            Some(Span::Day(NaiveDate::from_ymd_opt(2026, 11, 18).unwrap()))
        );
        assert!(matches!(
            question("what did we get done last week?", "ledger", now),
            Some(Span::Since(_))
        ));
        // Cues that overlap ("earlier this week", "this week") blank only themselves.
        assert!(matches!(
            question(
                "anything pending from earlier this week? recap pls",
                "ledger",
                now
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
            assert_eq!(question(q, "ledger", now), None, "{q}");
        }
    }
}

#[cfg(test)]
mod labelled {
    //! The classifier against 150 prompts a reviewer labelled from their own knowledge
    //! (`tests/data/recall/past_questions.toml`): the set past-work questions are tuned on.

    use super::*;

    #[derive(serde::Deserialize)]
    struct Set {
        q: Vec<Labelled>,
    }

    #[derive(serde::Deserialize)]
    struct Labelled {
        text: String,
        past: bool,
    }

    #[test]
    fn past_work_questions_a_reviewer_labelled() {
        let set: Set = toml::from_str(include_str!(
            "../../../tests/data/recall/past_questions.toml"
        ))
        .unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-25T10:00:00Z")
            .unwrap()
            .to_utc();
        let (mut missed, mut wrong) = (Vec::new(), Vec::new());
        for q in &set.q {
            match (q.past, question(&q.text, "ledger", now).is_some()) {
                (true, false) => missed.push(&q.text),
                (false, true) => wrong.push(&q.text),
                _ => {}
            }
        }
        let asked = set.q.iter().filter(|q| q.past).count();
        eprintln!("missed {}/{asked}: {missed:#?}", missed.len());
        eprintln!(
            "wrongly taken {}/{}: {wrong:#?}",
            wrong.len(),
            set.q.len() - asked
        );
        // Tuned on this set (2 missed, 1 wrongly taken when written): a regression shows.
        assert!(missed.len() <= 4, "missed {}", missed.len());
        assert!(wrong.len() <= 2, "wrongly taken {}", wrong.len());
    }
}
