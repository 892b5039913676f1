//! Instincts (learned patterns with a decaying confidence) and convictions (instincts
//! promoted into permanent rules), read from their frontmatter.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::fields::FieldReader;
use super::{Document, Error, body, stem};
use crate::memory::confidence::{PromotionInput, State};

/// Where an instinct came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Personal,
    Inherited,
}

/// A learned pattern: when `trigger`, do `action`, believed with `confidence`.
#[derive(Debug, Clone)]
pub struct Instinct {
    /// The file stem, e.g. `testing-use-nextest`.
    pub name: String,
    pub path: PathBuf,
    pub origin: Origin,
    pub trigger: String,
    pub action: String,
    pub confidence: f64,
    pub domain: String,
    pub created: Option<DateTime<Utc>>,
    pub last_seen: Option<DateTime<Utc>>,
    pub decayed_until: Option<DateTime<Utc>>,
    pub project: Option<String>,
    pub paths: Vec<String>,
    pub source: Option<String>,
    /// Whose words it holds (absent in older files).
    pub provenance: Option<super::provenance::Provenance>,
    pub promoted: bool,
    pub promoted_to: Option<String>,
    pub disputed: bool,
    /// Set by `forget`: never injected, searched or learned again; the file stays.
    pub retired: bool,
    /// `user` once the user accepted it (review screen, feedback strong).
    pub confirmed_by: Option<String>,
    /// How many independent sessions showed it (absent in older files and for rules
    /// the user wrote).
    pub sessions: Option<u32>,
    pub censor: Option<String>,
    /// A regular expression over shell commands: the instinct applies (as a censor)
    /// when a Bash call matches it.
    pub command: Option<String>,
    /// The observer's key for the pattern this instinct stands for (dedup).
    pub pattern: Option<String>,
    pub title: Option<String>,
}

impl Instinct {
    /// Reads an instinct from a parsed document. Bash-era files load unchanged.
    pub fn from_document(path: &Path, origin: Origin, doc: &Document) -> Result<Self, Error> {
        let map = doc.mapping().map_err(|e| Error::invalid(path, e))?;
        let f = FieldReader {
            map: &map,
            doc,
            path,
        };
        let name = stem(path);
        let domain = match f.text("domain")? {
            Some(d) if !d.trim().is_empty() => d.trim().to_string(),
            _ => domain_from_name(&name),
        };
        Ok(Self {
            trigger: f.text_or_empty("trigger")?.trim().to_string(),
            action: f.text_or_empty("action")?.trim().to_string(),
            confidence: f.confidence("confidence")?,
            domain,
            created: f.date("created")?,
            last_seen: f.date("last_seen")?,
            decayed_until: f.date("decayed_until")?,
            project: f.text("project")?.filter(|p| !p.is_empty()),
            paths: f.list("paths")?,
            source: f.text("source")?,
            provenance: f
                .text("provenance")?
                .as_deref()
                .and_then(super::provenance::Provenance::from_name),
            promoted: f.bool("promoted")?,
            promoted_to: f.text("promoted_to")?,
            disputed: f.bool("disputed")?,
            retired: f.bool("retired")?,
            confirmed_by: f.text("confirmed_by")?,
            sessions: f.number("sessions")?.map(|n| n.max(0.0) as u32),
            censor: f.text("censor")?,
            command: f.text("command")?,
            pattern: f.text("pattern")?,
            title: body::title(doc.body()),
            name,
            path: path.to_path_buf(),
            origin,
        })
    }

    /// The decay state; without dates nothing decays (the file says nothing about age).
    pub fn state(&self, now: DateTime<Utc>) -> State {
        State {
            confidence: self.confidence,
            last_seen: self.last_seen.or(self.created).unwrap_or(now),
            decayed_until: self.decayed_until,
        }
    }

    pub fn effective(&self, now: DateTime<Utc>) -> f64 {
        self.state(now).effective(now)
    }

    /// The user vouched for it (`confirmed_by: user`).
    pub fn confirmed_by_user(&self) -> bool {
        self.confirmed_by.as_deref() == Some("user")
    }

    /// The least weight it keeps however old (`confidence::weight_floor`).
    pub fn floor(&self) -> f64 {
        super::confidence::weight_floor(
            self.confidence,
            self.sessions.unwrap_or(0),
            self.confirmed_by_user(),
        )
    }

    /// What it weighs now: its effective confidence, never below its floor. Recall,
    /// `status`, `export` and the review screen use this; promotion uses `effective`.
    pub fn weight(&self, now: DateTime<Utc>) -> f64 {
        self.effective(now).max(self.floor())
    }

    pub fn promotion_input(&self, now: DateTime<Utc>) -> PromotionInput {
        PromotionInput {
            state: self.state(now),
            created: self.created.unwrap_or(now),
            promoted: self.promoted,
            has_action: !self.action.is_empty(),
        }
    }

    /// The name without its domain prefix: `use-nextest` for `testing-use-nextest`.
    pub fn short_name(&self) -> &str {
        self.name
            .strip_prefix(&self.domain)
            .and_then(|rest| rest.strip_prefix('-'))
            .filter(|rest| !rest.is_empty())
            .unwrap_or(&self.name)
    }
}

/// The domain a bash-era file name implies: the longest known domain it starts with.
fn domain_from_name(name: &str) -> String {
    super::DOMAINS
        .iter()
        .filter(|d| name.starts_with(&format!("{d}-")))
        .max_by_key(|d| d.len())
        .map_or("general", |d| d)
        .to_string()
}

/// A permanent rule, promoted from an instinct or written by a person.
#[derive(Debug, Clone)]
pub struct Conviction {
    pub name: String,
    pub path: PathBuf,
    /// When it applies, kept from the instinct it was promoted from.
    pub trigger: Option<String>,
    pub action: String,
    pub domain: String,
    pub promoted_at: Option<DateTime<Utc>>,
    pub source_instinct: Option<String>,
    pub project: Option<String>,
    pub paths: Vec<String>,
    pub censor: Option<String>,
    pub command: Option<String>,
}

impl Conviction {
    pub fn from_document(path: &Path, doc: &Document) -> Result<Self, Error> {
        let map = doc.mapping().map_err(|e| Error::invalid(path, e))?;
        let f = FieldReader {
            map: &map,
            doc,
            path,
        };
        let file_stem = stem(path);
        Ok(Self {
            name: f.text("name")?.unwrap_or_else(|| file_stem.clone()),
            trigger: f.text("trigger")?.filter(|t| !t.trim().is_empty()),
            action: f.text_or_empty("action")?.trim().to_string(),
            domain: f.text("domain")?.unwrap_or_else(|| "general".to_string()),
            promoted_at: f.date("promoted_at")?,
            source_instinct: f.text("source_instinct")?,
            project: f.text("project")?.filter(|p| !p.is_empty()),
            paths: f.list("paths")?,
            censor: f.text("censor")?,
            command: f.text("command")?,
            path: path.to_path_buf(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_era_instinct_loads() {
        let text = "---\ntrigger: \"when editing launchd plists\"\naction: \"sleep 5 between unload and load\"\nconfidence: 0.7\ndomain: tooling\ncreated: 2026-02-01T14:30:00Z\nlast_seen: 2026-02-07T10:15:00Z\npromoted: true\npromoted_to: ~/.claude/homunculus/convictions.md\n---\n\n# Launchd reload\n\n## Evidence\n- seen\n";
        let doc = Document::parse(text.into()).unwrap();
        let path = Path::new("/m/instincts/personal/tooling-launchd-reload.md");
        let i = Instinct::from_document(path, Origin::Personal, &doc).unwrap();
        assert_eq!(i.name, "tooling-launchd-reload");
        assert_eq!(i.short_name(), "launchd-reload");
        assert!(i.promoted);
        assert_eq!(i.title.as_deref(), Some("Launchd reload"));
    }

    #[test]
    fn bad_values_point_at_their_line() {
        let text = "---\ntrigger: t\nconfidence: 1.5\n---\n";
        let doc = Document::parse(text.into()).unwrap();
        let err = Instinct::from_document(Path::new("/x/a.md"), Origin::Personal, &doc)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "/x/a.md:3: 'confidence' must be between 0 and 1, got 1.5"
        );
        let text = "---\nconfidence: 0.5\nlast_seen: last tuesday\n---\n";
        let doc = Document::parse(text.into()).unwrap();
        let err = Instinct::from_document(Path::new("/x/a.md"), Origin::Personal, &doc)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "/x/a.md:3: 'last_seen' is not a date: 'last tuesday'");
    }

    #[test]
    fn domain_falls_back_to_file_name() {
        assert_eq!(domain_from_name("code-style-prefer-let"), "code-style");
        assert_eq!(domain_from_name("whatever"), "general");
    }
}
