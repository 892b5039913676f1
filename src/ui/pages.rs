//! The review screen's pages: what each shows, gathered from the memory folder, the
//! index and the logs, rendered by compile-time templates (`templates/ui/`) that escape
//! every memory text.

use askama::Template;
use chrono::{DateTime, Utc};

use crate::ask::find::Finder;
use crate::index::SearchOptions;
use crate::memory::kind::Kind;
use crate::memory::{Instinct, Store};
use crate::paths::Paths;

/// What every page shares: the token its links carry, its title, a message.
pub struct Frame {
    pub token: String,
    pub message: Option<String>,
}

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
            crate::index::search::project_counts(idx, reader)
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
            crate::index::search::last_changed(idx, reader, 40)
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

pub fn inbox(paths: &Paths, waiting: Waiting, frame: Frame, now: DateTime<Utc>) -> Inbox {
    let summaries = summaries_by_short_id(paths);
    let items = waiting
        .items
        .into_iter()
        .map(|i| {
            let provenance = i.provenance.map_or("model", |p| p.name()).to_string();
            let text = crate::fsutil::read_text(&i.path).unwrap_or_default();
            Review {
                id: paths.relative(&i.path).display().to_string(),
                title: i.title.clone().unwrap_or_else(|| i.name.clone()),
                name: i.name.clone(),
                trigger: i.trigger.clone(),
                action: i.action.clone(),
                confidence: format!("{:.2}", i.effective(now)),
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
        broken: waiting.broken,
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
fn evidence(text: &str) -> Vec<String> {
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

/// How a provenance reads to a person.
fn origin_word(provenance: &str) -> &str {
    match provenance {
        "user" => "you said",
        "model" => "observed",
        "tool" => "tool output",
        "paste" => "pasted",
        "import" => "imported",
        other => other,
    }
}

#[derive(Template)]
#[template(path = "ui/memory.html")]
pub struct Memory {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub q: String,
    pub kind: String,
    pub kinds: Vec<String>,
    pub project: String,
    pub domain: String,
    pub domains: Vec<String>,
    pub rows: Vec<Row>,
}

pub struct Row {
    pub id: String,
    pub kind: String,
    pub title: String,
    pub lesson: String,
    pub project: String,
    pub provenance: String,
    pub injected: u32,
    pub used: u32,
}

/// The filters of the memory page.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct MemoryQuery {
    pub q: String,
    pub kind: String,
    pub project: String,
    pub domain: String,
}

pub fn memory(
    paths: &Paths,
    finder: &mut Finder,
    frame: Frame,
    query: MemoryQuery,
    now: DateTime<Utc>,
) -> Result<Memory, crate::index::IndexError> {
    let kind = Kind::from_name(&query.kind).map(|k| k.name().to_string());
    let project = Some(query.project.trim().to_string()).filter(|p| !p.is_empty());
    let domain = Some(query.domain.trim().to_string()).filter(|d| !d.is_empty());
    let hits = if query.q.trim().is_empty() {
        finder.with(paths, now.timestamp(), |idx, reader| {
            crate::index::search::newest(
                idx,
                reader,
                kind.as_deref(),
                project.as_deref(),
                domain.as_deref(),
                200,
            )
        })?
    } else {
        let opts = SearchOptions {
            domain: domain.clone(),
            kind: kind.clone(),
            project: project.clone(),
            near: None,
            limit: 200,
            now_unix: now.timestamp(),
            snippet_chars: 0,
        };
        finder.search(paths, &query.q, &opts)?
    };
    let usage = crate::memory::usage::read(paths);
    let rows = hits
        .into_iter()
        .map(|h| {
            let counts = usage.of(&h.path);
            Row {
                kind: h.kind,
                title: crate::text::strip_ansi(&h.title).into_owned(),
                lesson: h.lesson,
                project: h.project.unwrap_or_default(),
                provenance: h
                    .provenance
                    .as_deref()
                    .map(origin_word)
                    .unwrap_or("")
                    .to_string(),
                injected: counts.injected,
                used: counts.used,
                id: h.path,
            }
        })
        .collect();
    Ok(Memory {
        token: frame.token,
        title: "Memory",
        message: frame.message,
        q: query.q,
        kind: query.kind,
        kinds: Kind::ALL.iter().map(|k| k.name().to_string()).collect(),
        project: query.project,
        domain: query.domain,
        domains: crate::memory::DOMAINS
            .iter()
            .map(|d| d.to_string())
            .collect(),
        rows,
    })
}

#[derive(Template)]
#[template(path = "ui/item.html")]
pub struct Item {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub id: String,
    pub kind: &'static str,
    pub is_instinct: bool,
    pub text: String,
    pub injected: u32,
    pub listed: u32,
    pub used: u32,
    pub injections: Vec<Sent>,
    /// The confidence over the folder's git history, as an SVG polyline's points.
    pub chart: Option<Chart>,
}

/// A small line chart of confidence over time.
pub struct Chart {
    pub points: String,
    pub first: String,
    pub last: String,
    pub values: String,
}

fn chart(history: &[(String, String)]) -> Option<Chart> {
    let values: Vec<(String, f64)> = history
        .iter()
        .filter_map(|(day, v)| Some((day.clone(), v.parse::<f64>().ok()?)))
        .collect();
    if values.len() < 2 {
        return None;
    }
    let step = 300.0 / (values.len() - 1) as f64;
    let points = values
        .iter()
        .enumerate()
        .map(|(n, (_, v))| {
            format!(
                "{:.0},{:.0}",
                n as f64 * step,
                60.0 - v.clamp(0.0, 1.0) * 60.0
            )
        })
        .collect::<Vec<_>>()
        .join(" ");
    Some(Chart {
        points,
        first: values[0].0.clone(),
        last: values[values.len() - 1].0.clone(),
        values: values
            .iter()
            .map(|(_, v)| format!("{v:.2}"))
            .collect::<Vec<_>>()
            .join(" → "),
    })
}

/// One injection, for the tables.
pub struct Sent {
    pub ts: String,
    pub session: String,
    pub event: String,
    pub items: Vec<String>,
    pub chars: usize,
    pub mode: String,
    pub why: String,
}

impl From<crate::log::Injection> for Sent {
    fn from(i: crate::log::Injection) -> Self {
        let why = i
            .why
            .iter()
            .map(|(item, words)| {
                format!(
                    "{}: {}",
                    crate::memory::stem(std::path::Path::new(item)),
                    words.join(", ")
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        Sent {
            ts: i.ts.get(..19).unwrap_or(&i.ts).replace('T', " "),
            session: crate::agent::payload::short_id(&i.session),
            event: i.event,
            items: i.items,
            chars: i.chars,
            mode: i.mode,
            why,
        }
    }
}

pub fn item(paths: &Paths, frame: Frame, id: &str) -> Result<Item, crate::ask::AskError> {
    let item = crate::ask::item::get(paths, id)?;
    let counts = crate::memory::usage::read(paths).of(&item.id);
    let history =
        crate::setup::git::value_history(&paths.root, &paths.root.join(&item.id), "confidence");
    let injections = crate::log::injections(paths)
        .into_iter()
        .rev()
        .filter(|i| i.items.contains(&item.id))
        .take(50)
        .map(Sent::from)
        .collect();
    Ok(Item {
        token: frame.token,
        title: "Item",
        message: frame.message,
        is_instinct: item.kind == Kind::Instinct.name(),
        kind: item.kind,
        id: item.id,
        text: item.text,
        injected: counts.injected,
        listed: counts.listed,
        used: counts.used,
        injections,
        chart: chart(&history),
    })
}

#[derive(Template)]
#[template(path = "ui/sessions.html")]
pub struct Sessions {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub project: String,
    pub sessions: Vec<Timeline>,
}

pub struct Timeline {
    pub id: String,
    pub date: String,
    pub project: String,
    pub asked: String,
    pub outcome: Option<String>,
    pub unfinished: Option<String>,
    pub open_tasks: Vec<String>,
    /// The memories injected into it, each with whether the agent has yet to act on it
    /// (it is still watched for a use).
    pub injected: Vec<(String, bool)>,
}

pub fn sessions(
    paths: &Paths,
    finder: &mut Finder,
    frame: Frame,
    project: String,
    now: DateTime<Utc>,
) -> Result<Sessions, crate::index::IndexError> {
    let only = Some(project.trim()).filter(|p| !p.is_empty());
    let hits = finder.with(paths, now.timestamp(), |idx, reader| {
        crate::index::search::newest(idx, reader, Some(Kind::Session.name()), only, None, 50)
    })?;
    let sessions = hits
        .into_iter()
        .map(|h| {
            let text = crate::fsutil::read_text(&paths.root.join(&h.path)).unwrap_or_default();
            let end = crate::memory::session::ending(&text);
            let session_id = frontmatter_value(&text, "session_id");
            let memo = crate::memory::memo::read(
                paths,
                &crate::agent::payload::safe_session_id(&session_id),
            );
            let injected = memo
                .injected
                .iter()
                .map(|i| (i.clone(), memo.watching.iter().any(|w| &w.id == i)))
                .collect();
            Timeline {
                date: frontmatter_value(&text, "date").replace('T', " "),
                project: h.project.unwrap_or_default(),
                asked: crate::text::strip_ansi(&h.title).into_owned(),
                outcome: end.outcome,
                unfinished: end.unfinished,
                open_tasks: end.open_tasks,
                injected,
                id: h.path,
            }
        })
        .collect();
    Ok(Sessions {
        token: frame.token,
        title: "Sessions",
        message: frame.message,
        project,
        sessions,
    })
}

/// One plain `key: value` line of a summary's frontmatter, unquoted.
fn frontmatter_value(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .map(|v| v.trim().trim_matches('"').to_string())
        .unwrap_or_default()
}

#[derive(Template)]
#[template(path = "ui/injections.html")]
pub struct Injections {
    pub token: String,
    pub title: &'static str,
    pub message: Option<String>,
    pub rows: Vec<Sent>,
}

pub fn injections(paths: &Paths, frame: Frame) -> Injections {
    let rows = crate::log::injections(paths)
        .into_iter()
        .rev()
        .take(300)
        .map(Sent::from)
        .collect();
    Injections {
        token: frame.token,
        title: "Injections",
        message: frame.message,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_confidence_chart_needs_two_values_and_stays_in_its_box() {
        let day = |d: &str, v: &str| (d.to_string(), v.to_string());
        assert!(chart(&[day("2026-11-01", "0.50")]).is_none());
        let c = chart(&[
            day("2026-11-01", "0.50"),
            day("2026-11-03", "1.40"),
            day("2026-11-09", "0.20"),
        ])
        .unwrap();
        assert_eq!(c.points, "0,30 150,0 300,48");
        assert_eq!(
            (c.first.as_str(), c.last.as_str()),
            ("2026-11-01", "2026-11-09")
        );
        assert_eq!(c.values, "0.50 → 1.40 → 0.20");
    }

    #[test]
    fn evidence_is_the_bullets_of_its_section() {
        let text =
            "---\na: b\n---\n\n# T\n\n## Evidence\n\n- one\n- two\n\n## Notes\n\n- not evidence\n";
        assert_eq!(evidence(text), ["one", "two"]);
    }
}
