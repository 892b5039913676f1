//! Past-work questions ("where did we leave off", "what did we do yesterday", "pick up
//! where we stopped", "anything left over from last week"): answered by recency within
//! the project, the newest sessions first, not by the words of the question. A dated
//! phrase (yesterday, on Friday, last week) is resolved against the clock.

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};
use regex::Regex;
use std::sync::OnceLock;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur};
use tantivy::{IndexReader, Order};

use super::{Item, load, term};
use crate::index::{Index, IndexError};
use crate::memory::kind::Kind;

/// Which sessions a question asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// Where things were left: the newest one, and older ones left unfinished.
    Latest,
    /// All of them, newest first (a listing, not a question).
    Every,
    /// Those of one day.
    Day(NaiveDate),
    /// Those since a moment (unix seconds).
    Since(i64),
}

fn asks() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        let phrases = [
            r"where (did|do|have) (we|i) (leave|left|stop|stopped|get|got)\b",
            r"where were we",
            r"(pick|picking) (it |things )?(back )?up\b",
            r"(continue|carry on|resume|start again) (from )?where",
            r"what (was|were|am|are) (i|we) (doing|working on|up to|in the middle of)",
            // "what were we fixing", "what was i building": past, so not "what am i missing".
            r"what (was|were) (i|we) [a-z]+ing\b",
            r"(leave|left) (anything|something|stuff|things|it|work) (unfinished|undone|open|half[- ]done|hanging)",
            r"(anything|stuff|something) (still )?(unfinished|undone|half[- ]done)",
            r"what did (we|i) (do|get done|work on|finish|change|ship|try)",
            r"what (have|had) (we|i) (done|been doing|been working on)",
            r"(anything|what'?s?|is there anything) (still )?(left|left over|leftover|open|pending|unfinished|half[- ]done)",
            r"what was the plan",
            r"(last|previous) (session|time we)",
            r"remind me what we",
            // The languages of the people whose sessions we have read: Chinese, French,
            // German, Spanish.
            r"上次.{0,16}(做到|停在|进行到|進行到|做了什么|做了什麼|哪)",
            r"(继续|繼續)上次",
            r"où (en )?(étions|etions|était|etait|on en était|on s'est arrêté)",
            r"on en (était|etait) où",
            r"wo (waren wir( stehen geblieben)?|haben wir aufgehört|sind wir stehen geblieben)",
            r"(dónde|donde) (lo )?(dejamos|quedamos)",
            r"en qu[ée] (quedamos|estábamos|estabamos)",
        ];
        Regex::new(&format!(r"(?i)\b(?:{})", phrases.join("|"))).expect("a valid pattern")
    })
}

/// Words that say when or where, not what: a question made only of these asks about
/// past work in general.
const FILLER: &[&str] = &[
    "last",
    "time",
    "times",
    "yesterday",
    "today",
    "week",
    "weekend",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "morning",
    "afternoon",
    "evening",
    "night",
    "earlier",
    "before",
    "ago",
    "here",
    "there",
    "this",
    "that",
    "repo",
    "project",
    "codebase",
    "app",
    "in",
    "on",
    "off",
    "at",
    "we",
    "i",
    "you",
    "the",
    "a",
    "it",
    "things",
    "thing",
    "work",
    "session",
    "stuff",
    "one",
    "left",
    "over",
    "anything",
    "still",
    "so",
    "far",
    "again",
    "and",
    "what",
    "is",
    "are",
    "was",
    "were",
    "my",
    "our",
    "all",
    "of",
    "hey",
    "ok",
    "okay",
    "pls",
    "please",
    "now",
    "then",
    "up",
    "doing",
    "did",
    "do",
    "done",
    "where",
    "from",
    "when",
    "us",
    "me",
    "get",
    "got",
    "going",
    "went",
    "stopped",
    "stop",
    "leave",
    "just",
    "with",
    "in here",
    "lol",
    "btw",
    // Verbs and nouns of work in general, not a topic.
    "touched",
    "worked",
    "working",
    "about",
    "finished",
    "finish",
    "unfinished",
    "undone",
    "open",
    "pending",
    "recap",
    "status",
    "summary",
    "ended",
    "end",
];

/// Whether the question names a topic after its past-work phrase ("where did we leave
/// the export command", "what did we do about the flaky test"): then it is answered by
/// what it names, not by recency.
fn topical(text: &str, project: &str) -> bool {
    let Some(m) = asks().find(text) else {
        return false;
    };
    let after = &text[m.end()..];
    let clause = after.split(['?', '.', '!', '\n']).next().unwrap_or("");
    clause
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        // Words only: a CJK clause has no spaces to tell a topic from filler by.
        .filter(|w| !w.is_empty() && !w.chars().any(is_cjk))
        .any(|w| {
            let w = w.to_lowercase();
            !FILLER.contains(&w.as_str()) && w != project.to_lowercase() && w.len() > 2
        })
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}')
}

/// Whether `text` asks about past work in general, and about which sessions. Long
/// prompts are tasks that mention the past, and a question that names a topic is
/// answered by the topic: neither is one.
pub fn question(text: &str, project: &str, now: DateTime<Utc>) -> Option<Span> {
    let text = text.replace('’', "'");
    // Cheap words first: most prompts are no such question, and a hook pays for every
    // regex it compiles.
    let lower = text.to_lowercase();
    let hints = [
        "where",
        "what",
        "pick",
        "continue",
        "carry on",
        "resume",
        "start again",
        "left",
        "last",
        "plan",
        "remind",
        "unfinished",
        "undone",
        "half",
        "上次",
        "继续",
        "繼續",
        "où",
        "wo ",
        "donde",
        "dónde",
        "qué",
        "que",
    ];
    if text.split_whitespace().count() > 30 || !hints.iter().any(|h| lower.contains(h)) {
        return None;
    }
    if !asks().is_match(&text) || topical(&text, project) {
        return None;
    }
    let today = now.date_naive();
    if lower.contains("yesterday") {
        return Some(Span::Day(today - Duration::days(1)));
    }
    if lower.contains("this morning") || lower.contains("earlier today") {
        return Some(Span::Day(today));
    }
    if lower.contains("last week") || lower.contains("this week") {
        return Some(Span::Since((now - Duration::days(7)).timestamp()));
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
        return Some(Span::Day(today - Duration::days(i64::from(back))));
    }
    Some(Span::Latest)
}

/// The project's sessions the span covers, newest first, at most `limit` (for the
/// latest: the newest and older ones left unfinished); the newest one when the span
/// holds none. `exclude` is the asking session's own summary.
pub fn sessions(
    index: &Index,
    reader: &IndexReader,
    project: &str,
    span: Span,
    exclude: Option<&str>,
    now: i64,
    limit: usize,
) -> Result<Vec<Item>, IndexError> {
    let f = index.fields();
    let searcher = reader.searcher();
    let query = BooleanQuery::new(vec![
        (Occur::Must, term(f.kind, Kind::Session.name())),
        (Occur::Must, term(f.scope, project)),
    ]);
    let newest = TopDocs::with_limit(50).order_by_fast_field::<i64>("created", Order::Desc);
    let mut all = Vec::new();
    for (_, address) in searcher.search(&query, &newest)? {
        let item = load(&searcher, f, address, now)?;
        if Some(item.id.as_str()) != exclude && item.date <= now {
            all.push(item);
        }
    }
    // "Where did we leave off" is the newest session, and an older one only when it left
    // something open: the second newest alone is just older news.
    let unfinished = |i: &Item| i.flags.iter().any(|f| f == crate::index::UNFINISHED);
    let within = |(n, i): &(usize, &Item)| match span {
        Span::Latest => *n == 0 || unfinished(i),
        Span::Every => true,
        Span::Day(day) => {
            DateTime::from_timestamp(i.date, 0).is_some_and(|t| t.date_naive() == day)
        }
        Span::Since(from) => i.date >= from,
    };
    let chosen: Vec<Item> = all
        .iter()
        .enumerate()
        .filter(within)
        .take(limit)
        .map(|(_, i)| i.clone())
        .collect();
    Ok(if chosen.is_empty() {
        all.into_iter().take(limit.min(1)).collect()
    } else {
        chosen
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
