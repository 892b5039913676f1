//! The memory page (every item, newest or by search) and one item's page.

use askama::Template;
use chrono::{DateTime, Utc};

use crate::paths::Paths;

use super::{Frame, Sent};
use crate::ask::find::Finder;
use crate::index::SearchOptions;
use crate::memory::kind::Kind;
use crate::memory::provenance::origin_word;

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
            crate::index::listing::newest(
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
}
