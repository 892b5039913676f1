//! Nous stores (`engram.jsonl`: learnings, `cortex.jsonl`: knowledge), one JSON entry a
//! line, turned into import entries: each becomes an instinct scoped to its project,
//! with `source: import`. Entries their own reconciliation discarded (weight ≤ 0.15) are
//! left out.

use anyhow::{Result, bail};
use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::memory::draft::InstinctDraft;
use crate::memory::slugify;
use crate::observer::miners::domain_of;

/// Weights at or below this were discarded by Nous itself.
const DISCARDED_AT: f64 = 0.15;
/// Unscored entries count as this (as Nous does).
const UNSCORED: f64 = 0.4;

/// Import entries (`name`, `markdown`) from a Nous store's text.
pub fn entries(text: &str, now: DateTime<Utc>) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    let mut parsed_any = false;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(entry) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let Some(content) = entry.get("content").and_then(Value::as_str).map(str::trim) else {
            continue;
        };
        parsed_any = true;
        let weight = entry.get("w").and_then(Value::as_f64).unwrap_or(UNSCORED);
        if content.is_empty() || weight <= DISCARDED_AT {
            continue;
        }
        let project = entry
            .get("project")
            .and_then(Value::as_str)
            .and_then(|p| p.trim_end_matches('/').rsplit('/').next())
            .filter(|p| !p.is_empty())
            .unwrap_or("unknown");
        let knowledge = entry.get("category").is_some();
        let domain = domain_of(content);
        let ts = entry
            .get("ts")
            .and_then(Value::as_str)
            .and_then(crate::time::parse)
            .unwrap_or(now);
        let why = entry.get("context").and_then(Value::as_str).unwrap_or("");
        let lens = if knowledge { "knowledge" } else { "learnings" };
        let title: String = content
            .split_whitespace()
            .take(8)
            .collect::<Vec<_>>()
            .join(" ");
        let markdown = InstinctDraft {
            domain,
            trigger: &format!("when working in {project}"),
            action: content,
            confidence: weight.min(0.9),
            project: Some(project),
            paths: &[],
            pattern: None,
            source: "import",
            provenance: crate::memory::provenance::Provenance::Import,
            created: ts,
            last_seen: ts,
            title: &title,
            evidence: &format!(
                "imported from Nous ({lens}){}{why}",
                if why.is_empty() { "" } else { ": " }
            ),
            sessions: 0,
        }
        .render();
        out.push(
            json!({ "name": format!("{domain}-{}", slugify(content, 40)), "markdown": markdown }),
        );
    }
    if !parsed_any {
        bail!("no entries");
    }
    Ok(out)
}
