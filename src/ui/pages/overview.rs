//! The overview: counts by kind and project, what changed lately, what waits for review.

use askama::Template;
use chrono::{DateTime, Utc};

use crate::paths::Paths;

use super::Frame;
use crate::ask::find::Finder;
use crate::memory::Store;

#[derive(Template)]
#[template(path = "ui/overview.html")]
pub struct Overview {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub counts: Vec<(&'static str, usize)>,
    pub projects: Vec<(String, u64)>,
    pub inbox: usize,
    pub changes: Vec<Change>,
    pub from_git: bool,
}

pub struct Change {
    pub when: String,
    pub what: String,
}

pub fn overview(
    paths: &Paths,
    finder: &mut Finder,
    waiting: usize,
    frame: Frame,
    now: DateTime<Utc>,
) -> Overview {
    let store = Store::new(paths);
    let count = |dir: &std::path::Path| store.count(dir).unwrap_or(0);
    let counts = vec![
        (
            "instincts",
            count(&paths.personal_instincts()) + count(&paths.inherited_instincts()),
        ),
        ("convictions", count(&paths.convictions())),
        ("episodes", count(&paths.episodes())),
        ("sessions", count(&paths.sessions())),
    ];
    let log = crate::setup::git::recent_log(&paths.root, 7, 40);
    let from_git = crate::setup::git::is_repo(&paths.root);
    let changes = if from_git {
        log.iter()
            .map(|l| {
                let mut parts = l.splitn(3, '\t');
                let (_, when, what) = (parts.next(), parts.next(), parts.next());
                Change {
                    when: when.unwrap_or("").into(),
                    what: what.unwrap_or("").into(),
                }
            })
            .collect()
    } else {
        recently_changed(paths, finder, now)
    };
    let projects = finder
        .with(paths, now.timestamp(), |idx, reader| {
            crate::index::listing::project_counts(idx, reader)
        })
        .unwrap_or_default();
    Overview {
        token: frame.token,
        title: "Overview",
        message: frame.message,
        counts,
        projects,
        inbox: waiting,
        changes,
        from_git,
    }
}

/// Item files changed in the last 7 days, newest first (without git): from the index,
/// which keeps every file's modification time.
fn recently_changed(paths: &Paths, finder: &mut Finder, now: DateTime<Utc>) -> Vec<Change> {
    let since = (now - chrono::Duration::days(7)).timestamp();
    // The index keeps modification times in nanoseconds.
    let seconds = |t: i64| t / 1_000_000_000;
    finder
        .with(paths, now.timestamp(), |idx, reader| {
            crate::index::listing::last_changed(idx, reader, 40)
        })
        .unwrap_or_default()
        .into_iter()
        .filter(|(t, _)| seconds(*t) >= since)
        .map(|(t, what)| Change {
            when: DateTime::from_timestamp(seconds(t), 0)
                .map(|d| d.format("%Y-%m-%d").to_string())
                .unwrap_or_default(),
            what,
        })
        .collect()
}
