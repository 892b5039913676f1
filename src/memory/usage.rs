//! How often each injected memory was sent and then used: the counts in
//! `state/usage.json`, and the rank weight recall takes from them. What a session still
//! watches for lives in its memo (`memory::memo`); the detector is `hooks::detect`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::memo::WAIT;
use crate::fsutil;
use crate::lock::{LockError, LockName};
use crate::paths::Paths;

/// One item's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Counts {
    /// Sent for a prompt, a file or an edit: recall chose it for this moment.
    pub injected: u32,
    /// Listed at session start, which lists every item of a small memory each session:
    /// kept apart so that listing alone never makes an item look ignored.
    pub listed: u32,
    /// Sessions in which the agent acted on it after it was sent.
    pub used: u32,
    /// Its advice names nothing a tool call could show done (a rule against something,
    /// "never force-push"): going unused says nothing about it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub blind: bool,
}

/// Counts per item id (its path relative to the memory folder).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Usage {
    pub items: BTreeMap<String, Counts>,
}

/// Injections an item may go unused before it ranks lower.
const GRACE: u32 = 4;
/// The lowest rank weight an ignored item falls to.
const MIN_WEIGHT: f64 = 0.5;

impl Usage {
    pub fn of(&self, id: &str) -> Counts {
        self.items.get(id).copied().unwrap_or_default()
    }

    /// What recall multiplies an item's score by: 1 while it is used or young, lower
    /// the more often it was injected and never acted on.
    pub fn rank_weight(&self, id: &str) -> f64 {
        let c = self.of(id);
        if c.blind || c.used > 0 || c.injected <= GRACE {
            return 1.0;
        }
        (1.0 / (1.0 + 0.1 * f64::from(c.injected - GRACE))).max(MIN_WEIGHT)
    }
}

fn file(paths: &Paths) -> PathBuf {
    paths.state().join("usage.json")
}

/// The counts (empty when there are none or they do not parse).
pub fn read(paths: &Paths) -> Usage {
    fsutil::read_json_or_default(&file(paths))
}

/// What happened to some items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Injected,
    Listed,
    Used,
}

/// Adds one `event` to each of `ids`; those also in `blind` cannot be seen used.
pub fn record(
    paths: &Paths,
    event: Event,
    ids: &[String],
    blind: &[String],
) -> Result<(), LockError> {
    if ids.is_empty() {
        return Ok(());
    }
    let lock = paths.lock(&LockName::Usage);
    crate::lock::update_json(&lock, &file(paths), WAIT, |usage: &mut Usage| {
        for id in ids {
            let c = usage.items.entry(id.clone()).or_default();
            if event != Event::Used {
                c.blind = blind.contains(id);
            }
            let n = match event {
                Event::Injected => &mut c.injected,
                Event::Listed => &mut c.listed,
                Event::Used => &mut c.used,
            };
            *n = n.saturating_add(1);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignored_items_rank_lower_the_more_they_are_ignored() {
        let mut u = Usage::default();
        let counts = |injected, used| Counts {
            injected,
            listed: 100,
            used,
            blind: false,
        };
        u.items.insert("a".into(), counts(4, 0));
        u.items.insert("b".into(), counts(9, 0));
        u.items.insert("c".into(), counts(50, 0));
        u.items.insert("d".into(), counts(50, 1));
        assert_eq!(u.rank_weight("a"), 1.0);
        assert!(u.rank_weight("b") < 1.0 && u.rank_weight("b") > u.rank_weight("c"));
        assert_eq!(u.rank_weight("c"), MIN_WEIGHT);
        assert_eq!(u.rank_weight("d"), 1.0);
        assert_eq!(u.rank_weight("unknown"), 1.0);
        u.items.insert(
            "e".into(),
            Counts {
                blind: true,
                ..counts(50, 0)
            },
        );
        assert_eq!(
            u.rank_weight("e"),
            1.0,
            "a rule against something is never ignored"
        );
    }
}
