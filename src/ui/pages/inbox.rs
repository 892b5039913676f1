//! The inbox: what was learned and not reviewed yet, with its evidence.

use askama::Template;
use chrono::{DateTime, Utc};

use crate::paths::Paths;

use super::Frame;
use crate::memory::provenance::origin_word;
use crate::memory::{Instinct, Store};

/// What waits for review: instincts neither accepted, retired nor promoted, newest first,
/// and the instinct files that do not parse (`path:line: reason`; never rewritten).
pub struct Waiting {
    pub items: Vec<Instinct>,
    pub broken: Vec<String>,
}

pub fn waiting(paths: &Paths) -> Waiting {
    let loaded = Store::new(paths).instincts();
    let broken = loaded.errors.iter().map(ToString::to_string).collect();
    let mut items: Vec<Instinct> = loaded
        .items
        .into_iter()
        .filter(|i| !i.retired && !i.promoted && i.confirmed_by.is_none())
        .collect();
    items.sort_by(|a, b| b.created.cmp(&a.created).then(a.name.cmp(&b.name)));
    Waiting { items, broken }
}

#[derive(Template)]
#[template(path = "ui/inbox.html")]
pub struct Inbox {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub items: Vec<Review>,
    pub broken: Vec<String>,
}

pub struct Review {
    pub id: String,
    pub name: String,
    pub title: String,
    pub trigger: String,
    pub action: String,
    pub confidence: String,
    pub provenance: String,
    pub provenance_word: String,
    pub project: String,
    pub created: String,
    /// Each evidence line, with the summary of the session it names when there is one.
    pub evidence: Vec<(String, Option<String>)>,
}

pub fn inbox(paths: &Paths, waiting: &Waiting, frame: Frame, now: DateTime<Utc>) -> Inbox {
    let summaries = summaries_by_short_id(paths);
    let items = waiting
        .items
        .iter()
        .map(|i| {
            let provenance = i.provenance.map_or("model", |p| p.name()).to_string();
            let text = crate::fsutil::read_text(&i.path).unwrap_or_default();
            Review {
                id: paths.relative(&i.path).display().to_string(),
                title: i.title.clone().unwrap_or_else(|| i.name.clone()),
                name: i.name.clone(),
                trigger: i.trigger.clone(),
                action: i.action.clone(),
                confidence: format!("{:.2}", i.weight(now)),
                provenance_word: origin_word(&provenance).to_string(),
                provenance,
                project: i.project.clone().unwrap_or_else(|| "every project".into()),
                created: i
                    .created
                    .map(|c| c.format("%Y-%m-%d").to_string())
                    .unwrap_or_default(),
                evidence: evidence(&text)
                    .into_iter()
                    .map(|line| {
                        let summary =
                            named_session(&line).and_then(|sid| summaries.get(&sid).cloned());
                        (line, summary)
                    })
                    .collect(),
            }
        })
        .collect();
    Inbox {
        token: frame.token,
        title: "Inbox",
        message: frame.message,
        items,
        broken: waiting.broken.clone(),
    }
}

/// The summaries in the folder by the short session id that ends their names.
fn summaries_by_short_id(paths: &Paths) -> std::collections::HashMap<String, String> {
    std::fs::read_dir(paths.sessions())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let stem = crate::memory::stem(&e.path());
            let sid = stem.rsplit('-').next()?.to_string();
            Some((sid, paths.relative(&e.path()).display().to_string()))
        })
        .collect()
}

/// The short session id an evidence line names ("… (session 7c1e5a2b)").
fn named_session(line: &str) -> Option<String> {
    let at = line.find("session ")? + "session ".len();
    let id: String = line[at..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    (id.len() >= 7).then_some(id)
}

/// The bullets of an item's `## Evidence` section.
pub(super) fn evidence(text: &str) -> Vec<String> {
    text.split("\n## Evidence")
        .nth(1)
        .map(|section| {
            section
                .lines()
                .take_while(|l| !l.starts_with("## "))
                .filter_map(|l| l.strip_prefix("- "))
                .map(|l| crate::text::strip_ansi(l).into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_is_the_bullets_of_its_section() {
        let text =
            "---\na: b\n---\n\n# T\n\n## Evidence\n\n- one\n- two\n\n## Notes\n\n- not evidence\n";
        assert_eq!(evidence(text), ["one", "two"]);
    }
}
