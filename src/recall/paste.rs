//! A prompt with pasted output (a stack trace, a CI log, a `kubectl describe`): the prose
//! the user typed and the pasted block are read apart. The prose, with the paste's
//! telling line, is what recall searches and what its floor judges (a thousand lines of
//! log would drown any memory); the telling line's failure signature finds the memories
//! of that failure whole, as failure recall does.

use crate::agent::signature;
use crate::agent::typed::typed_words;

/// How recall reads one prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// What to search with.
    pub query: String,
    /// The failure the paste shows, as `failure_key` spells it.
    pub failure: Option<String>,
    /// What the user typed around the paste, when there was one.
    pub prose: Option<String>,
}

/// Reads a prompt: as it is, or, when a good part of it was pasted, its prose plus the
/// paste's telling line.
pub fn read(prompt: &str) -> Reading {
    let plain = || Reading {
        query: prompt.to_string(),
        failure: None,
        prose: None,
    };
    if prompt.lines().filter(|l| !l.trim().is_empty()).count() < 4 {
        return plain();
    }
    let typed = typed_words(prompt);
    let pasted_share = 1.0 - typed.len() as f64 / prompt.len().max(1) as f64;
    if pasted_share < 0.3 {
        return plain();
    }
    let telling = signature::telling_line(prompt);
    Reading {
        query: format!("{typed}\n{telling}"),
        failure: signature::failure_key(prompt),
        prose: Some(typed),
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn prose_and_paste_are_read_apart() {
        let prompt = "backfill keeps going red\n\n[2026-11-25, 10:14:02 UTC] {taskinstance.py:2612} INFO - Executing <Task>\nTraceback (most recent call last):\n  File \"/opt/x.py\", line 41, in load\n    with pg.connect() as conn:\npsycopg.OperationalError: connection failed: FATAL:  sorry, too many clients already\n[2026-11-25, 10:14:03 UTC] {taskinstance.py:1225} INFO - Marking task as UP_FOR_RETRY";
        let r = read(prompt);
        assert!(
            r.query.starts_with("backfill keeps going red"),
            "{}",
            r.query
        );
        assert!(r.query.contains("too many clients"), "{}", r.query);
        assert!(!r.query.contains("taskinstance"), "{}", r.query);
        assert!(r.failure.is_some());
        let prose = r.prose.as_deref().unwrap_or("");
        assert!(prose.starts_with("backfill keeps going red"), "{prose}");
        assert!(!prose.contains("taskinstance"), "{prose}");
        let plain = "the export is slow since the last migration, can you profile it";
        assert_eq!(read(plain).query, plain);
        assert_eq!(read(plain).failure, None);
        assert_eq!(read(plain).prose, None);
    }
}
