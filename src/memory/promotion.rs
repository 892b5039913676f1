//! Promotion of instincts into convictions, revocation of convictions whose instinct
//! lost confidence, and domain clustering. `plan` decides without touching files;
//! `apply` carries a plan out through the store.

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::memory::confidence::{self, CLUSTER_SIZE};
use crate::memory::draft::new_file;
use crate::memory::{Error, Instinct, Scalar, Store, is_valid_name};
use crate::paths::Paths;
use crate::time::stamp;

/// An instinct that has earned a conviction, and the file it would become.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub instinct: Instinct,
    pub effective: f64,
    pub conviction: PathBuf,
}

/// A promoted instinct whose confidence fell: below 0.40 it is revoked, below 0.50 it
/// is only flagged.
#[derive(Debug, Clone)]
pub struct Weakened {
    pub instinct: Instinct,
    pub effective: f64,
    pub revoke: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub candidates: Vec<Candidate>,
    pub weakened: Vec<Weakened>,
    /// Domains with five or more instincts at 0.5 or above.
    pub ready_domains: Vec<String>,
}

/// Decides what promotion and revocation would do at `now`.
pub fn plan(paths: &Paths, instincts: &[Instinct], now: DateTime<Utc>) -> Plan {
    let mut plan = Plan::default();
    let mut clusters: BTreeMap<&str, usize> = BTreeMap::new();
    for instinct in instincts.iter().filter(|i| !i.retired) {
        let effective = instinct.effective(now);
        if confidence::counts_for_cluster(effective) {
            *clusters.entry(instinct.domain.as_str()).or_default() += 1;
        }
        if instinct.promoted {
            if confidence::is_stale(effective) {
                plan.weakened.push(Weakened {
                    instinct: instinct.clone(),
                    effective,
                    revoke: confidence::should_revoke(effective),
                });
            }
        } else if confidence::is_promotable(&instinct.promotion_input(now), now) {
            plan.candidates.push(Candidate {
                conviction: conviction_path(paths, instinct),
                instinct: instinct.clone(),
                effective,
            });
        }
    }
    plan.ready_domains = clusters
        .into_iter()
        .filter(|(_, n)| *n >= CLUSTER_SIZE)
        .map(|(d, _)| d.to_string())
        .collect();
    plan
}

/// `convictions/<instinct name>.md`; a name unsafe as a file name is slugged.
fn conviction_path(paths: &Paths, instinct: &Instinct) -> PathBuf {
    let name = if is_valid_name(&instinct.name) {
        instinct.name.clone()
    } else {
        crate::memory::slugify(&instinct.name, 80)
    };
    paths.convictions().join(format!("{name}.md"))
}

/// What a conviction file says; rendered by `render_conviction`.
#[derive(Debug, Clone)]
pub struct ConvictionDraft {
    pub name: String,
    /// When it applies (the instinct's trigger): "first" and "afterwards" in an action
    /// refer to it.
    pub trigger: Option<String>,
    pub action: String,
    pub domain: String,
    pub source_instinct: Option<String>,
    pub paths: Vec<String>,
    pub project: Option<String>,
    pub title: String,
    pub confidence: Option<f64>,
}

impl ConvictionDraft {
    pub fn from_candidate(candidate: &Candidate) -> Self {
        let i = &candidate.instinct;
        Self {
            name: i.short_name().to_string(),
            trigger: Some(i.trigger.clone()).filter(|t| !t.trim().is_empty()),
            action: i.action.clone(),
            domain: i.domain.clone(),
            source_instinct: Some(i.name.clone()),
            paths: i.paths.clone(),
            project: i.project.clone(),
            title: i
                .title
                .clone()
                .unwrap_or_else(|| i.short_name().replace('-', " ")),
            confidence: Some(candidate.effective),
        }
    }
}

/// Renders a conviction file.
pub fn render_conviction(draft: &ConvictionDraft, now: DateTime<Utc>) -> String {
    let text = |t: &str| Scalar::Text(t.to_string());
    let mut fields = vec![("name", text(&draft.name))];
    if let Some(trigger) = &draft.trigger {
        fields.push(("trigger", text(trigger)));
    }
    fields.extend([
        ("action", text(&draft.action)),
        ("domain", text(&draft.domain)),
        ("promoted_at", Scalar::Plain(stamp(now))),
    ]);
    if let Some(source) = &draft.source_instinct {
        fields.push(("source_instinct", Scalar::Plain(source.clone())));
    }
    if !draft.paths.is_empty() {
        fields.push(("paths", Scalar::List(draft.paths.clone())));
    }
    if let Some(project) = &draft.project {
        fields.push(("project", text(project)));
    }
    let mut body = format!("# {}\n\n{}\n", draft.title, draft.action);
    // A migrated bullet without a known instinct keeps the rule without the story.
    if let Some(source) = &draft.source_instinct {
        let confidence = draft.confidence.map_or("?".into(), |c| format!("{c:.2}"));
        body.push_str(&format!(
            "\nPromoted from instinct `{source}` at confidence {confidence}, after at least two\n\
             weeks of life and a sighting within the last week. Revoked automatically if that instinct's\n\
             confidence falls below 0.40.\n"
        ));
    }
    new_file(&fields, &body)
}

/// What `apply` did.
#[derive(Debug, Default)]
pub struct Promoted {
    pub promoted: Vec<Candidate>,
    pub revoked: Vec<Weakened>,
    pub errors: Vec<Error>,
}

impl Promoted {
    /// Every file the promotion wrote or removed.
    pub fn files(&self, paths: &crate::paths::Paths) -> Vec<std::path::PathBuf> {
        let mut files = Vec::new();
        for c in &self.promoted {
            files.extend([c.conviction.clone(), c.instinct.path.clone()]);
        }
        for w in &self.revoked {
            files.push(w.instinct.path.clone());
            files.push(paths.convictions().join(format!("{}.md", w.instinct.name)));
            if let Some(to) = &w.instinct.promoted_to {
                files.push(paths.root.join(to));
            }
        }
        files
    }
}

/// Writes conviction files and marks their instincts; revokes what fell below 0.40.
/// A failure on one instinct is reported and does not stop the others.
pub fn apply(store: &Store, plan: &Plan, now: DateTime<Utc>) -> Promoted {
    let mut applied = Promoted::default();
    for candidate in &plan.candidates {
        match promote(store, candidate, now) {
            Ok(()) => applied.promoted.push(candidate.clone()),
            Err(e) => applied.errors.push(e),
        }
    }
    for weak in plan.weakened.iter().filter(|w| w.revoke) {
        match revoke(store, &weak.instinct) {
            Ok(()) => applied.revoked.push(weak.clone()),
            Err(e) => applied.errors.push(e),
        }
    }
    applied
}

fn promote(store: &Store, candidate: &Candidate, now: DateTime<Utc>) -> Result<(), Error> {
    let relative = store
        .paths()
        .relative(&candidate.conviction)
        .display()
        .to_string();
    let text = render_conviction(&ConvictionDraft::from_candidate(candidate), now);
    match store.create(&candidate.conviction, &text) {
        Ok(()) => {}
        // Another run (a concurrent `evolve --promote`, the observer) promoted it first:
        // the conviction is there, and marking the instinct again changes nothing.
        Err(Error::Refused { .. }) if is_conviction_of(store, candidate) => {}
        Err(e) => return Err(e),
    }
    store.edit(&candidate.instinct.path, |file| {
        file.set("promoted", &Scalar::Bool(true), &["last_seen"])?;
        file.set(
            "promoted_to",
            &Scalar::Text(relative.clone()),
            &["promoted", "last_seen"],
        )
    })
}

/// Whether the conviction file at the candidate's path came from this instinct.
fn is_conviction_of(store: &Store, candidate: &Candidate) -> bool {
    store
        .read(&candidate.conviction)
        .ok()
        .and_then(|doc| doc.mapping().ok())
        .and_then(|m| m.get("source_instinct")?.as_str().map(str::to_string))
        .is_some_and(|s| s == candidate.instinct.name)
}

fn revoke(store: &Store, instinct: &Instinct) -> Result<(), Error> {
    let paths = store.paths();
    let mut files = vec![paths.convictions().join(format!("{}.md", instinct.name))];
    if let Some(to) = &instinct.promoted_to {
        // Only a path inside the memory folder's convictions/ is ours to remove.
        let to = to.trim_start_matches("./");
        if let Some(file) = to.strip_prefix("convictions/").filter(|f| !f.contains('/')) {
            files.push(paths.convictions().join(file));
        }
    }
    for file in files {
        let Ok(doc) = store.read(&file) else { continue };
        let source = doc
            .mapping()
            .ok()
            .and_then(|m| m.get("source_instinct")?.as_str().map(str::to_string));
        if source.as_deref() == Some(instinct.name.as_str()) {
            store.remove(&file)?;
        }
    }
    store.edit(&instinct.path, |file| {
        for key in ["promoted", "promoted_to"] {
            file.remove(key)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests;
