//! Time as our files spell it. An instant is a `DateTime<Utc>` everywhere in the code;
//! this module owns how it is written (frontmatter, observation and log lines, file
//! names, evidence days) and read back (every form found in memory files and
//! transcripts). The index stores unix seconds; `from_unix` is the way back.

use chrono::{DateTime, NaiveDate, NaiveDateTime, SecondsFormat, Utc};

/// How frontmatter stores instants: second precision, UTC, `Z`.
pub const STAMP: &str = "%Y-%m-%dT%H:%M:%SZ";
/// How a session summary's file name spells its start (no colons, for every OS).
pub const FILE_STAMP: &str = "%Y-%m-%dT%H%M%SZ";

/// An instant as frontmatter and logs store it (`2026-02-01T14:30:00Z`).
pub fn stamp(t: DateTime<Utc>) -> String {
    t.format(STAMP).to_string()
}

/// An instant as observation lines carry it (RFC 3339, milliseconds).
pub fn stamp_ms(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A day as evidence bullets and episode names carry it (`2026-02-01`).
pub fn day(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d").to_string()
}

/// The `YYYY-MM-DD` a text opens with, when it is a real day.
pub fn leading_day(text: &str) -> Option<&str> {
    text.get(..10)
        .filter(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").is_ok())
}

/// The day of a unix time from the index; `?` for one out of range.
pub fn day_of_unix(unix: i64) -> String {
    from_unix(unix).map_or_else(|| "?".to_string(), day)
}

/// A unix time from the index as an instant.
pub fn from_unix(unix: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(unix, 0)
}

/// Any of the forms found in memory files, observations and transcripts: RFC 3339
/// (any offset, any precision), without a zone (read as UTC), a summary's file-name
/// form, or a bare day (its midnight).
pub fn parse(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&Utc));
    }
    for format in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", FILE_STAMP] {
        if let Ok(t) = NaiveDateTime::parse_from_str(text, format) {
            return Some(t.and_utc());
        }
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_read_back() {
        let t = parse("2026-02-01T14:30:00.5Z").expect("RFC 3339");
        assert_eq!(stamp_ms(t), "2026-02-01T14:30:00.500Z");
        assert_eq!(stamp(t), "2026-02-01T14:30:00Z");
        assert_eq!(day(t), "2026-02-01");
        assert_eq!(parse(&t.format(FILE_STAMP).to_string()), parse(&stamp(t)));
        assert_eq!(
            parse("2026-02-01").map(stamp).as_deref(),
            Some("2026-02-01T00:00:00Z")
        );
        assert_eq!(
            parse("2026-02-01T15:30:00+01:00").map(stamp).as_deref(),
            Some("2026-02-01T14:30:00Z")
        );
        assert_eq!(day_of_unix(i64::MAX), "?");
        assert_eq!(parse("yesterday"), None);
    }

    #[test]
    fn date_forms() {
        for ok in [
            "2026-02-01T14:30:00Z",
            "2026-02-01T14:30:00+02:00",
            "2026-02-01T14:30:00.123Z",
            "2026-02-01T14:30:00",
            "2026-02-01",
        ] {
            assert!(parse(ok).is_some(), "{ok}");
        }
        for bad in ["yesterday", "2026-13-01", "01/02/2026", ""] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }
}
