//! Dated phrases of a past-work question: a day (`2026-11-05`, `the 5th of November`,
//! `nov 5`), a part of a month (`the start of October`, `mid-november`, `end of
//! september`), a month (`in october`) or `last month`, resolved to the most recent such
//! dates on or before today.

use std::ops::Range;
use std::sync::OnceLock;

use chrono::{Datelike, Months, NaiveDate};
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

/// The patterns, most specific first: each names its groups `day`, `month`, `part`,
/// `year`.
fn patterns() -> &'static [Regex] {
    static P: OnceLock<Vec<Regex>> = OnceLock::new();
    P.get_or_init(|| {
        let m = month_alternation();
        [
            r"\b(?P<year>20\d\d)-(?P<mm>\d\d)-(?P<day>\d\d)\b".to_string(),
            format!(
                r"\b(?:the )?(?P<day>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?(?P<month>{m})\b\.?"
            ),
            format!(r"\b(?P<month>{m})\.? (?:the )?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?:[^:\d]|$)"),
            format!(
                r"\b(?:(?:the )?(?P<part>start|beginning|middle|end) of |(?P<near>early|mid|late)[ -])(?P<month>{m})\b"
            ),
            format!(r"\b(?:in|during|since|over) (?:the month of )?(?P<month>{m})\b"),
            r"\b(?P<last>last|previous) month\b".to_string(),
        ]
        .iter()
        .map(|p| Regex::new(p).expect("a valid pattern"))
        .collect()
    })
}

fn month_number(name: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|names| names.contains(&name))
        .and_then(|i| u32::try_from(i + 1).ok())
}

/// The most recent `month`/`day` on or before `today` (this year's, else last year's).
fn latest(month: u32, day: u32, today: NaiveDate) -> Option<NaiveDate> {
    let this = NaiveDate::from_ymd_opt(today.year(), month, day)?;
    if this <= today {
        Some(this)
    } else {
        NaiveDate::from_ymd_opt(today.year() - 1, month, day)
    }
}

fn month_end(first: NaiveDate) -> NaiveDate {
    first
        .checked_add_months(Months::new(1))
        .and_then(|next| next.pred_opt())
        .unwrap_or(first)
}

/// The first dated phrase of `lower` (lower-cased), if any.
pub(super) fn dated(lower: &str, today: NaiveDate) -> Option<Dated> {
    for pattern in patterns() {
        for c in pattern.captures_iter(lower) {
            let at = c.get(0)?.range();
            if c.name("last").is_some() {
                let first = today.with_day(1)?.checked_sub_months(Months::new(1))?;
                return Some(Dated {
                    at,
                    from: first,
                    to: month_end(first),
                });
            }
            let month = match (c.name("month"), c.name("mm")) {
                (Some(m), _) => month_number(m.as_str())?,
                (None, Some(mm)) => mm.as_str().parse().ok()?,
                (None, None) => continue,
            };
            if let Some(day) = c.name("day") {
                let day: u32 = day.as_str().parse().ok()?;
                let date = match c.name("year") {
                    Some(y) => NaiveDate::from_ymd_opt(y.as_str().parse().ok()?, month, day),
                    None => latest(month, day, today),
                };
                // "may 40" is no date: the next pattern may still read the phrase.
                let Some(date) = date else { continue };
                return Some(Dated {
                    at,
                    from: date,
                    to: date,
                });
            }
            let first = latest(month, 1, today)?;
            let last = month_end(first);
            let part = c.name("part").or(c.name("near")).map(|p| p.as_str());
            let (from, to) = match part {
                Some("start" | "beginning" | "early") => (first, first + chrono::Days::new(9)),
                Some("middle" | "mid") => {
                    (first + chrono::Days::new(10), first + chrono::Days::new(19))
                }
                Some("end" | "late") => (first + chrono::Days::new(20), last),
                _ => (first, last),
            };
            return Some(Dated { at, from, to });
        }
    }
    None
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
        // Not dates: a modal verb, a version, a time, a day that does not exist.
        for none in [
            "may i ask what we did",
            "what did we do for mar 3:15",
            "what changed in v1.5",
            "the 40th of may",
        ] {
            assert_eq!(span(none), None, "{none}");
        }
    }
}
