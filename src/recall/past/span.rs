//! Which sessions a past-work question covers: a named day (yesterday, on Friday,
//! martedì, the 5th of November), a part of a month, the last days or week, else the
//! latest; resolved against the clock.

use chrono::{DateTime, Datelike, Duration, Utc, Weekday};
use regex::Regex;
use std::sync::OnceLock;

use super::Span;
use super::question::is_unspaced;
use super::world;

/// Which sessions: a named day, the last days or week, else the latest.
pub(super) fn span(lower: &str, now: DateTime<Utc>) -> Span {
    let today = now.date_naive();
    let has = |words: &[&str], more: &[&str]| words.iter().chain(more).any(|w| has_word(lower, w));
    if has(YESTERDAY, world::YESTERDAY) {
        return Span::Day(today - Duration::days(1));
    }
    if has(TODAY, world::TODAY) {
        return Span::Day(today);
    }
    if let Some(d) = super::dated::dated(lower, today) {
        return if d.from == d.to {
            Span::Day(d.from)
        } else {
            Span::Between(d.from, d.to)
        };
    }
    if has(RECENT_DAYS, world::RECENT_DAYS) {
        return Span::Since((now - Duration::days(7)).timestamp());
    }
    if let Some(days) = last_days(lower) {
        return Span::Since((now - Duration::days(days)).timestamp());
    }
    if let Some((_, day)) = WEEKDAYS
        .iter()
        .chain(world::WEEKDAYS)
        .find(|(name, _)| has_word(lower, name))
    {
        // The most recent such day before today.
        let back = (today.weekday().num_days_from_monday() + 7 - day.num_days_from_monday()) % 7;
        let back = if back == 0 { 7 } else { back };
        return Span::Day(today - Duration::days(i64::from(back)));
    }
    Span::Latest
}

/// "the last 3 days", "past 10 days": how many.
fn last_days(lower: &str) -> Option<i64> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r =
        R.get_or_init(|| Regex::new(r"\b(?:last|past) (\d{1,2}) days\b").expect("a valid pattern"));
    r.captures(lower)?.get(1)?.as_str().parse().ok()
}

/// Whether `word` is in `text` as a word of its own (`ayer` is not in `layer`); an unspaced
/// word anywhere.
fn has_word(text: &str, word: &str) -> bool {
    if word.chars().any(is_unspaced) {
        return text.contains(word);
    }
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Yesterday, and the night before today.
pub(super) const YESTERDAY: &[&str] = &[
    "yesterday",
    "yday",
    "last night",
    "昨天",
    "昨日",
    "昨晚",
    "hier",
    "gestern",
    "ayer",
    "anoche",
    "ontem",
    "ieri",
    "gisteren",
    "вчера",
    "어제",
    "dün",
    "wczoraj",
    "hôm qua",
    "kemarin",
    "kal",
    "कल",
];

/// Today.
pub(super) const TODAY: &[&str] = &[
    "today",
    "tday",
    "this morning",
    "this afternoon",
    "ce matin",
    "aujourd'hui",
    "heute",
    "hoy",
    "esta mañana",
    "hoje",
    "oggi",
    "stamattina",
    "vandaag",
    "vanochtend",
    "dziś",
    "dzisiaj",
    "bugün",
    "hôm nay",
    "hari ini",
    "aaj",
    "आज",
    "сегодня",
    "오늘",
    "今天",
    "今日",
    "今朝",
];

/// The last days or week.
pub(super) const RECENT_DAYS: &[&str] = &[
    "geçen hafta",
    "w zeszłym tygodniu",
    "tuần trước",
    "minggu lalu",
    "pichle hafte",
    "पिछले हफ्ते",
    "last week",
    "this week",
    "past week",
    "last few days",
    "past few days",
    "last couple of days",
    "past couple of days",
    "上週",
    "上周",
    "这周",
    "這週",
    "本周",
    "先週",
    "今週",
    "ここ数日",
    "最近几天",
    "这几天",
    "這幾天",
    "semaine dernière",
    "semaine derniere",
    "cette semaine",
    "derniers jours",
    "letzte woche",
    "letzten woche",
    "diese woche",
    "dieser woche",
    "letzten tage",
    "semana pasada",
    "esta semana",
    "últimos días",
    "ultimos dias",
    "semana passada",
    "últimos dias",
    "settimana scorsa",
    "questa settimana",
    "ultimi giorni",
    "vorige week",
    "deze week",
    "afgelopen dagen",
    "прошлой неделе",
    "этой неделе",
    "последние дни",
    "지난주",
    "이번 주",
    "며칠",
];

/// The days of the week, by name.
pub(super) const WEEKDAYS: &[(&str, Weekday)] = &[
    ("monday", Weekday::Mon),
    ("tuesday", Weekday::Tue),
    ("wednesday", Weekday::Wed),
    ("thursday", Weekday::Thu),
    ("friday", Weekday::Fri),
    ("saturday", Weekday::Sat),
    ("sunday", Weekday::Sun),
    ("lundi", Weekday::Mon),
    ("mardi", Weekday::Tue),
    ("mercredi", Weekday::Wed),
    ("jeudi", Weekday::Thu),
    ("vendredi", Weekday::Fri),
    ("montag", Weekday::Mon),
    ("dienstag", Weekday::Tue),
    ("mittwoch", Weekday::Wed),
    ("donnerstag", Weekday::Thu),
    ("freitag", Weekday::Fri),
    ("lunes", Weekday::Mon),
    ("martes", Weekday::Tue),
    ("miércoles", Weekday::Wed),
    ("miercoles", Weekday::Wed),
    ("jueves", Weekday::Thu),
    ("viernes", Weekday::Fri),
    ("segunda-feira", Weekday::Mon),
    ("terça-feira", Weekday::Tue),
    ("quarta-feira", Weekday::Wed),
    ("quinta-feira", Weekday::Thu),
    ("sexta-feira", Weekday::Fri),
    ("lunedì", Weekday::Mon),
    ("martedì", Weekday::Tue),
    ("mercoledì", Weekday::Wed),
    ("giovedì", Weekday::Thu),
    ("venerdì", Weekday::Fri),
    ("maandag", Weekday::Mon),
    ("dinsdag", Weekday::Tue),
    ("woensdag", Weekday::Wed),
    ("donderdag", Weekday::Thu),
    ("vrijdag", Weekday::Fri),
    ("понедельник", Weekday::Mon),
    ("вторник", Weekday::Tue),
    ("среду", Weekday::Wed),
    ("четверг", Weekday::Thu),
    ("пятницу", Weekday::Fri),
    ("월요일", Weekday::Mon),
    ("화요일", Weekday::Tue),
    ("수요일", Weekday::Wed),
    ("목요일", Weekday::Thu),
    ("금요일", Weekday::Fri),
    ("月曜", Weekday::Mon),
    ("火曜", Weekday::Tue),
    ("水曜", Weekday::Wed),
    ("木曜", Weekday::Thu),
    ("金曜", Weekday::Fri),
    ("周一", Weekday::Mon),
    ("周二", Weekday::Tue),
    ("周三", Weekday::Wed),
    ("周四", Weekday::Thu),
    ("周五", Weekday::Fri),
    ("星期五", Weekday::Fri),
];
