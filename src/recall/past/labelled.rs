//! The past-work classifier against prompts reviewers labelled from their own knowledge,
//! with the words of the recall evaluation's memory (`tests/data/recall/memory`) telling a
//! topic from a word it has nothing about.

use chrono::{DateTime, NaiveDate};

use super::Span;
use super::question::question;
use crate::index::{self, Index};
use crate::testutil::Memory;

#[derive(serde::Deserialize)]
struct Set {
    q: Vec<Labelled>,
}

#[derive(serde::Deserialize)]
struct Labelled {
    text: String,
    past: bool,
    span: Option<String>,
}

/// Whether the span read is the one labelled, on a Wednesday, 2026-11-25.
fn span_right(label: Option<&str>, got: Span) -> bool {
    let day = |d: u32| Span::Day(NaiveDate::from_ymd_opt(2026, 11, d).unwrap());
    match label {
        None | Some("weekend") => true,
        Some("yesterday" | "last-night" | "tuesday") => got == day(24),
        Some("today" | "this-morning") => got == day(25),
        Some("monday") => got == day(23),
        Some("wednesday") => got == day(18),
        Some("thursday") => got == day(19),
        Some("friday") => got == day(20),
        Some(_) => matches!(got, Span::Since(_)),
    }
}

/// The evaluation memory, indexed.
fn memory() -> (Memory, Index) {
    let m = Memory::new();
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/recall/memory");
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(&from).unwrap();
            m.write(
                &relative.to_string_lossy(),
                &std::fs::read_to_string(entry.path()).unwrap(),
            );
        }
    }
    let (index, _) = index::open_synced(&m.paths, m.now.timestamp()).unwrap();
    (m, index)
}

/// The prompts of `set` missed, wrongly taken and misdated; printed when `show`.
fn judge(set: &str, index: &Index, show: bool) -> Judged {
    let set: Set = toml::from_str(set).unwrap();
    let now = DateTime::parse_from_rfc3339("2026-11-25T10:00:00Z")
        .unwrap()
        .to_utc();
    let reader = index.reader().unwrap();
    let searcher = reader.searcher();
    let topical = crate::recall::past::topical(index, &searcher);
    let (mut missed, mut wrong, mut misdated) = (Vec::new(), Vec::new(), Vec::new());
    for q in &set.q {
        match (q.past, question(&q.text, "ledger", now, &topical)) {
            (true, None) => missed.push(q.text.clone()),
            (false, Some(_)) => wrong.push(q.text.clone()),
            (true, Some(span)) if !span_right(q.span.as_deref(), span) => {
                misdated.push(format!("{:?} {span:?}: {}", q.span, q.text));
            }
            _ => {}
        }
    }
    let asked = set.q.iter().filter(|q| q.past).count();
    let others = set.q.len() - asked;
    eprintln!(
        "missed {}/{asked}, wrongly taken {}/{others}, misdated {}",
        missed.len(),
        wrong.len(),
        misdated.len()
    );
    if show {
        eprintln!("missed: {missed:#?}\nwrongly taken: {wrong:#?}\nmisdated: {misdated:#?}");
    }
    Judged {
        missed: missed.len(),
        wrong: wrong.len(),
        misdated: misdated.len(),
    }
}

struct Judged {
    missed: usize,
    wrong: usize,
    misdated: usize,
}

#[test]
fn past_work_questions_a_reviewer_labelled() {
    let (_m, index) = memory();
    let first = judge(
        include_str!("../../../tests/data/recall/past_questions.toml"),
        &index,
        true,
    );
    // The set the classifier was first tuned on (2 missed, 1 wrongly taken when
    // written; 80 questions, 70 look-alikes): a regression shows.
    assert!(first.missed <= 4, "missed {}", first.missed);
    assert!(first.wrong <= 2, "wrongly taken {}", first.wrong);
    assert!(first.misdated <= 1, "misdated {}", first.misdated);
    // The second, measured once before it was read (50 of 65 missed, 2 of 65
    // wrongly taken), then tuned on.
    let second = judge(
        include_str!("../../../tests/data/recall/past_questions2.toml"),
        &index,
        true,
    );
    assert!(second.missed <= 4, "missed {}", second.missed);
    assert!(second.wrong <= 5, "wrongly taken {}", second.wrong);
    assert!(second.misdated <= 2, "misdated {}", second.misdated);
}

/// A third set, split: its even entries are read, its odd ones never are, and only
/// their counts are printed.
#[test]
fn past_work_questions_third_set() {
    // Before any of it was read, the classifier missed 27 of 30 questions of the
    // read half and 24 of 30 of the other, and took no look-alike.
    split_set_holds(
        include_str!("../../../tests/data/recall/past_questions3.toml"),
        Limits {
            read_missed: 6,
            read_wrong: 5,
            never_missed: 18,
            never_wrong: 3,
            misdated: 2,
        },
    );
}

/// A fourth set (`past_questions4.toml`: phrasings after a break, slang, the agent's own
/// last work, 52 of 120 in fifteen other languages or mixed), split the same way.
#[test]
fn past_work_questions_fourth_set() {
    // Before any of it was read: 17 and 15 of 30 questions missed, 1 and 2 of 30
    // look-alikes taken, 2 and 1 misdated.
    split_set_holds(
        include_str!("../../../tests/data/recall/past_questions4.toml"),
        Limits {
            read_missed: 2,
            read_wrong: 1,
            never_missed: 11,
            never_wrong: 4,
            misdated: 2,
        },
    );
}

/// A fifth set (`past_questions5.toml`: dictation run-ons, bare fragments, what the
/// agent itself promised, commits and merges in a period, relative dates, 42 of 120 in
/// twenty other languages or mixed), split the same way.
#[test]
fn past_work_questions_fifth_set() {
    // Before any of it was read: 25 and 20 of 30 questions missed, 0 and 2 of 30
    // look-alikes taken, 1 misdated. The look-alikes taken since name their topic in a
    // script the memory has no words in.
    split_set_holds(
        include_str!("../../../tests/data/recall/past_questions5.toml"),
        Limits {
            read_missed: 5,
            read_wrong: 3,
            never_missed: 9,
            never_wrong: 4,
            misdated: 1,
        },
    );
}

/// What a split set's halves may miss and wrongly take at most, and misdate together.
struct Limits {
    read_missed: usize,
    read_wrong: usize,
    never_missed: usize,
    never_wrong: usize,
    misdated: usize,
}

/// Judges a set's read half (its misses printed) and its never-read half (counts only)
/// against `limits`.
fn split_set_holds(set: &str, limits: Limits) {
    let (_m, index) = memory();
    let (read, never) = halves(set);
    let read = judge(&read, &index, true);
    let never = judge(&never, &index, false);
    for (what, got, most) in [
        ("read half: missed", read.missed, limits.read_missed),
        ("read half: wrongly taken", read.wrong, limits.read_wrong),
        ("never-read half: missed", never.missed, limits.never_missed),
        (
            "never-read half: wrongly taken",
            never.wrong,
            limits.never_wrong,
        ),
    ] {
        assert!(got <= most, "{what} {got}");
    }
    assert!(read.misdated + never.misdated <= limits.misdated);
}

/// The even and the odd entries of a set, each a set of its own.
fn halves(set: &str) -> (String, String) {
    let mut parts = set.split("[[q]]");
    let _header = parts.next();
    let (mut even, mut odd) = (String::new(), String::new());
    for (n, entry) in parts.enumerate() {
        let half = if n % 2 == 0 { &mut even } else { &mut odd };
        half.push_str("[[q]]");
        half.push_str(entry);
    }
    (even, odd)
}
