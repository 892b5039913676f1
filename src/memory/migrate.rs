//! Migration of the bash era's single `convictions.md` (bullets `- **name**: action`)
//! into one file per conviction under `convictions/`. The old file is renamed to
//! `convictions.md.migrated`, never deleted.

use std::fs;
use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::fsutil::{self, IoContext};
use crate::memory::promotion::{ConvictionDraft, render_conviction};
use crate::memory::{Error, Instinct, Scalar, Store, slugify};

/// One conviction moved (or, in a dry run, to be moved) into its own file.
#[derive(Debug)]
pub struct Moved {
    pub name: String,
    pub file: PathBuf,
    /// False when the file already existed and was left alone.
    pub created: bool,
}

/// Parses `- **name**: action` bullets; other lines are prose and ignored.
pub fn parse_bullets(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix("- **")?;
            let (name, action) = rest.split_once("**")?;
            let action = action.trim_start().strip_prefix(':')?.trim();
            (!name.trim().is_empty()).then(|| (name.trim().to_string(), action.to_string()))
        })
        .collect()
}

/// The instinct a bash-era conviction came from: bash named a conviction after the
/// instinct's file name minus its first dash-separated word.
fn source_of<'a>(instincts: &'a [Instinct], name: &str) -> Option<&'a Instinct> {
    instincts.iter().find(|i| {
        i.name == name
            || i.short_name() == name
            || i.name.split_once('-').is_some_and(|(_, rest)| rest == name)
    })
}

/// Migrates `convictions.md` if present. Returns `None` when there is nothing to do.
pub fn legacy_convictions(
    store: &Store,
    now: DateTime<Utc>,
    dry_run: bool,
) -> Result<Option<Vec<Moved>>, Error> {
    let paths = store.paths();
    let legacy = paths.legacy_convictions();
    let text = match fsutil::read_text(&legacy) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let instincts = store.instincts().items;
    let mut moved = Vec::new();
    for (name, action) in parse_bullets(&text) {
        let source = source_of(&instincts, &name);
        let stem = source.map_or_else(|| slugify(&name, 80), |i| i.name.clone());
        let file = paths.convictions().join(format!("{stem}.md"));
        let created = !file.exists();
        if created && !dry_run {
            let draft = ConvictionDraft {
                trigger: source
                    .map(|i| i.trigger.clone())
                    .filter(|t| !t.trim().is_empty()),
                name: name.clone(),
                action: action.clone(),
                domain: source.map_or("general".into(), |i| i.domain.clone()),
                source_instinct: source.map(|i| i.name.clone()),
                paths: source.map(|i| i.paths.clone()).unwrap_or_default(),
                project: source.and_then(|i| i.project.clone()),
                title: name.replace(['-', '_'], " "),
                confidence: source.map(|i| i.effective(now)),
            };
            store.create(&file, &render_conviction(&draft, now))?;
        }
        if let Some(i) = source.filter(|_| !dry_run) {
            let relative = paths.relative(&file).display().to_string();
            store.edit(&i.path, |file| {
                file.set("promoted", &Scalar::Bool(true), &["last_seen"])?;
                file.set("promoted_to", &Scalar::Text(relative), &["promoted"])
            })?;
        }
        moved.push(Moved {
            name,
            file,
            created,
        });
    }
    if !dry_run {
        let target = legacy.with_extension("md.migrated");
        fs::rename(&legacy, &target).at("rename", &legacy)?;
    }
    Ok(Some(moved))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullets() {
        let text = "# Convictions\n\nPromoted after sustained confidence.\n\n- **use-nextest**: use cargo nextest run\n- **launchd-reload**:   sleep 5 between unload and load\n- plain bullet\n  continuation\n";
        assert_eq!(
            parse_bullets(text),
            vec![
                ("use-nextest".into(), "use cargo nextest run".into()),
                (
                    "launchd-reload".into(),
                    "sleep 5 between unload and load".into()
                ),
            ]
        );
    }
}
