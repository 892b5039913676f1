//! Dated phrases of a past-work question: a day (`2026-11-05`, `the 5th of November`,
//! `nov 5`), a part of a month (`the start of October`, `mid-november`, `end of
//! september`), a month (`in october`) or `last month`, resolved to the most recent such
//! dates on or before today.

use std::ops::Range;
use std::sync::OnceLock;

use chrono::{Datelike, Days, Months, NaiveDate};
use regex::Regex;

/// The months as written in English, full and abbreviated, in order.
const MONTHS: &[&[&str]] = &[
    &["january", "jan"],
    &["february", "feb"],
    &["march", "mar"],
    &["april", "apr"],
    &["may"],
    &["june", "jun"],
    &["july", "jul"],
    &["august", "aug"],
    &["september", "sept", "sep"],
    &["october", "oct"],
    &["november", "nov"],
    &["december", "dec"],
];

/// The first and last day a dated phrase covers, and where the phrase is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Dated {
    pub at: Range<usize>,
    pub from: NaiveDate,
    pub to: NaiveDate,
}

fn month_alternation() -> String {
    let mut names: Vec<&str> = MONTHS.iter().flat_map(|m| m.iter().copied()).collect();
    // Longest first, so `sept` is not read as `sep`.
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.join("|")
}

/// How many patterns there are (see [`source`]).
const PATTERNS: usize = 6;

/// The patterns, most specific first: a day is named by `year`/`mm`/`day` or
/// `day`/`month`, a part of a month by `part` or `near`, the month before this one by
/// `last`. A day before a month needs `the`, an ordinal or `of` ("the 5th of
/// november", "5 of nov"): "step 3 may fail" names no day.
fn source(i: usize) -> String {
    let m = month_alternation();
    match i {
        0 => r"\b(?P<year>20\d\d)-(?P<mm>\d\d)-(?P<day>\d\d)\b".to_string(),
        1 => format!(
            r"\b(?:the (?P<day>\d{{1,2}})(?:st|nd|rd|th)?|(?P<nth>\d{{1,2}})(?:st|nd|rd|th)|(?P<dof>\d{{1,2}}) of) (?:of )?(?P<month>{m})\b"
        ),
        2 => format!(
            r"\b(?P<month>{m})\.? (?:the )?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?:[^:\d]|$)"
        ),
        3 => format!(
            r"\b(?:(?:the )?(?P<part>start|beginning|middle|end) of |(?P<near>early|mid|late)[ -])(?P<month>{m})\b"
        ),
        4 => format!(r"\b(?:in|during|since|over) (?:the month of )?(?P<month>{m})\b"),
        _ => r"\b(?P<last>last|previous) month\b".to_string(),
    }
}

/// Pattern `i`, built the first time a text may match it: building all of them costs a
/// hook process milliseconds.
fn pattern(i: usize) -> &'static Regex {
    static BUILT: [OnceLock<Regex>; PATTERNS] = [const { OnceLock::new() }; PATTERNS];
    BUILT[i].get_or_init(|| Regex::new(&source(i)).expect("a valid pattern"))
}

/// Which patterns `lower` may match, from the words each needs (a month's name, a digit,
/// a part of a month, a preposition, `month`, an ISO date's `20…-`): a pattern whose
/// words are missing cannot match, and is neither built nor run. A word is a run of
/// letters, so a word a pattern finds between its `\b`s is one here too.
fn wanted(lower: &str) -> [bool; PATTERNS] {
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(w));
    let month = words.iter().any(|w| month_number(w).is_some());
    let digit = lower.chars().any(char::is_numeric);
    [
        lower.contains("20") && lower.contains('-'),
        month && digit,
        month && digit,
        month
            && has(&[
                "start",
                "beginning",
                "middle",
                "end",
                "early",
                "mid",
                "late",
            ]),
        month && has(&["in", "during", "since", "over"]),
        has(&["month"]),
    ]
}

fn month_number(name: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|names| names.contains(&name))
        .and_then(|i| u32::try_from(i + 1).ok())
}

/// The most recent `month`/`day` on or before `today` (a 29th of February may be
/// four years back).
fn latest(month: u32, day: u32, today: NaiveDate) -> Option<NaiveDate> {
    (0..=4)
        .filter_map(|back| NaiveDate::from_ymd_opt(today.year() - back, month, day))
        .find(|d| *d <= today)
}

fn month_end(first: NaiveDate) -> NaiveDate {
    first
        .checked_add_months(Months::new(1))
        .and_then(|next| next.pred_opt())
        .unwrap_or(first)
}

/// The first dated phrase of `lower` (lower-cased), if any. After `since`, the span
/// runs to today.
pub(super) fn dated(lower: &str, today: NaiveDate) -> Option<Dated> {
    let wanted = wanted(lower);
    for i in (0..PATTERNS).filter(|i| wanted[*i]) {
        for c in pattern(i).captures_iter(lower) {
            let Some(whole) = c.get(0) else { continue };
            let at = whole.range();
            // A time's or a version's digits (`10:30 may`, `1.5 may`), a name's
            // possessive (`jan's branch`): no date.
            if lower[..at.start].ends_with([':', '.']) || lower[at.end..].starts_with('\'') {
                continue;
            }
            let Some((from, to)) = days(&c, today) else {
                continue;
            };
            let since =
                lower[..at.start].ends_with("since ") || whole.as_str().starts_with("since");
            let to = if since { today } else { to };
            return Some(Dated { at, from, to });
        }
    }
    None
}

/// The days one match of a pattern names.
fn days(c: &regex::Captures, today: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
    if c.name("last").is_some() {
        let first = today.with_day(1)?.checked_sub_months(Months::new(1))?;
        return Some((first, month_end(first)));
    }
    let month = match (c.name("month"), c.name("mm")) {
        (Some(m), _) => month_number(m.as_str())?,
        (None, Some(mm)) => mm.as_str().parse().ok()?,
        (None, None) => return None,
    };
    let day = c.name("day").or(c.name("nth")).or(c.name("dof"));
    if let Some(day) = day {
        let day: u32 = day.as_str().parse().ok()?;
        let date = match c.name("year") {
            Some(y) => NaiveDate::from_ymd_opt(y.as_str().parse().ok()?, month, day)?,
            None => latest(month, day, today)?,
        };
        return Some((date, date));
    }
    let part = c.name("part").or(c.name("near")).map(|p| p.as_str());
    let of_year = |year: i32| {
        let first = NaiveDate::from_ymd_opt(year, month, 1)?;
        let last = month_end(first);
        Some(match part {
            Some("start" | "beginning" | "early") => (first, first + Days::new(9)),
            Some("middle" | "mid") => (first + Days::new(10), first + Days::new(19)),
            Some("end" | "late") => (first + Days::new(20), last),
            _ => (first, last),
        })
    };
    // This year's, unless it has not begun: the end of this month, asked on its 5th,
    // is last year's.
    let this = of_year(today.year())?;
    if this.0 <= today {
        Some(this)
    } else {
        of_year(today.year() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, m, d).unwrap()
    }

    #[test]
    fn dated_phrases_and_their_days() {
        let today = day(11, 23);
        let span = |text: &str| dated(text, today).map(|d| (d.from, d.to));
        assert_eq!(
            span("what did we do on the 5th of november?"),
            Some((day(11, 5), day(11, 5)))
        );
        assert_eq!(span("what happened nov 5"), Some((day(11, 5), day(11, 5))));
        assert_eq!(
            span("recap of 2026-10-02 pls"),
            Some((day(10, 2), day(10, 2)))
        );
        assert_eq!(
            span("what went out at the start of october?"),
            Some((day(10, 1), day(10, 10)))
        );
        assert_eq!(
            span("anything left from mid-october"),
            Some((day(10, 11), day(10, 20)))
        );
        assert_eq!(
            span("what did we do at the end of september"),
            Some((day(9, 21), day(9, 30)))
        );
        assert_eq!(
            span("what did we do in august?"),
            Some((day(8, 1), day(8, 31)))
        );
        assert_eq!(span("recap last month"), Some((day(10, 1), day(10, 31))));
        // A month after today's is last year's.
        assert_eq!(
            span("what did we do in december?"),
            Some((
                NaiveDate::from_ymd_opt(2025, 12, 1).unwrap(),
                NaiveDate::from_ymd_opt(2025, 12, 31).unwrap()
            ))
        );
        // Since a month: to today.
        assert_eq!(
            span("what have we done since october?"),
            Some((day(10, 1), day(11, 23)))
        );
        assert_eq!(
            span("anything since the start of october"),
            Some((day(10, 1), day(11, 23)))
        );
        // A part of this month yet to come is last year's.
        let early = dated("what did we ship at the end of november?", day(11, 5)).unwrap();
        assert_eq!(early.from, NaiveDate::from_ymd_opt(2025, 11, 21).unwrap());
        // The 29th of February of the last leap year.
        assert_eq!(
            span("what did we do on feb 29"),
            Some((
                NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
                NaiveDate::from_ymd_opt(2024, 2, 29).unwrap()
            ))
        );
        // Not dates: a modal verb, a version, a time, a day that does not exist, a
        // count before "may", a name's possessive.
        for none in [
            "may i ask what we did",
            "what did we do for mar 3:15",
            "what changed in v1.5",
            "the 40th of may",
            "where did we leave off? step 3 may still be failing",
            "the job at 10:30 may move",
            "what was left in jan's branch",
        ] {
            assert_eq!(span(none), None, "{none}");
        }
    }
}
