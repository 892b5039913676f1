//! New item files, rendered from typed values on the frontmatter renderer: text is
//! quoted, words (domains, dates, enum values) are plain, so whatever a value holds the
//! file reads back as written.

use chrono::{DateTime, Utc};

use super::Scalar;
use super::frontmatter::render_new;
use super::provenance::Provenance;
use crate::time::stamp;

/// The text of a new item file: the frontmatter, a blank line, the body.
pub fn new_file(fields: &[(&str, Scalar)], body: &str) -> String {
    format!("{}\n{}\n", render_new(fields), body.trim_end())
}

fn text(value: &str) -> Scalar {
    Scalar::Text(value.to_string())
}

fn plain(value: &str) -> Scalar {
    Scalar::Plain(value.to_string())
}

/// A new instinct.
#[derive(Debug, Clone)]
pub struct InstinctDraft<'a> {
    pub domain: &'a str,
    pub trigger: &'a str,
    pub action: &'a str,
    pub confidence: f64,
    pub project: Option<&'a str>,
    pub paths: &'a [String],
    /// The observer's key for the pattern, kept for dedup.
    pub pattern: Option<&'a str>,
    /// builtin | llm | manual | import
    pub source: &'a str,
    /// Whose words it holds.
    pub provenance: Provenance,
    pub created: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
    pub title: &'a str,
    /// The first evidence bullet, without its `- `.
    pub evidence: &'a str,
    /// Independent sessions that showed it; 0 when not counted (not written).
    pub sessions: u32,
}

impl InstinctDraft<'_> {
    pub fn render(&self) -> String {
        let mut fields = vec![
            ("trigger", text(self.trigger)),
            ("action", text(self.action)),
            ("confidence", Scalar::Number(self.confidence)),
            ("domain", plain(self.domain)),
            ("created", plain(&stamp(self.created))),
            ("last_seen", plain(&stamp(self.last_seen))),
        ];
        if let Some(p) = self.project {
            fields.push(("project", text(p)));
        }
        if !self.paths.is_empty() {
            fields.push(("paths", Scalar::List(self.paths.to_vec())));
        }
        fields.push(("source", plain(self.source)));
        fields.push(("provenance", plain(self.provenance.name())));
        if self.sessions > 0 {
            fields.push(("sessions", Scalar::Int(i64::from(self.sessions))));
        }
        if let Some(p) = self.pattern {
            fields.push(("pattern", text(p)));
        }
        let body = format!("# {}\n\n## Evidence\n\n- {}", self.title, self.evidence);
        new_file(&fields, &body)
    }
}

/// A new episode.
#[derive(Debug, Clone)]
pub struct EpisodeDraft<'a> {
    pub day: &'a str,
    pub project: &'a str,
    pub tags: &'a [String],
    pub pattern: &'a str,
    pub occurrences: u32,
    pub files: &'a [String],
    pub title: &'a str,
    /// Everything under the title.
    pub narrative: &'a str,
    /// Whose words it holds.
    pub provenance: Provenance,
}

impl EpisodeDraft<'_> {
    pub fn render(&self) -> String {
        let mut fields = vec![
            ("date", plain(self.day)),
            ("type", plain("episode")),
            ("project", text(self.project)),
            ("tags", Scalar::List(self.tags.to_vec())),
            ("pattern", text(self.pattern)),
            ("occurrences", Scalar::Int(i64::from(self.occurrences))),
        ];
        if !self.files.is_empty() {
            fields.push(("files", Scalar::List(self.files.to_vec())));
        }
        fields.push(("provenance", plain(self.provenance.name())));
        new_file(&fields, &format!("# {}\n\n{}", self.title, self.narrative))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{Document, Instinct, Origin};

    #[test]
    fn hostile_values_read_back_as_written() {
        let t = DateTime::parse_from_rfc3339("2026-02-01T14:30:00Z")
            .unwrap()
            .to_utc();
        for nasty in [
            "a: b",
            "\"quoted\"",
            "yes",
            "- x",
            "# not a comment",
            "line\nbreak",
        ] {
            let text = InstinctDraft {
                domain: "testing",
                trigger: nasty,
                action: nasty,
                confidence: 0.5,
                project: Some(nasty),
                paths: &[nasty.to_string()],
                pattern: None,
                source: "builtin",
                provenance: Provenance::Model,
                created: t,
                last_seen: t,
                title: "T",
                evidence: "2026-02-01: seen",
                sessions: 3,
            }
            .render();
            let doc = Document::parse(text.clone()).unwrap();
            let i =
                Instinct::from_document(std::path::Path::new("/x/a.md"), Origin::Personal, &doc)
                    .unwrap();
            assert_eq!(i.trigger, nasty, "{text}");
            assert_eq!(i.action, nasty);
            assert_eq!(i.project.as_deref(), Some(nasty));
            assert_eq!(i.paths, [nasty]);
        }
    }

    #[test]
    fn words_stay_plain() {
        let text = new_file(
            &[
                ("domain", plain("testing")),
                ("when", plain("2026-02-01T14:30:00Z")),
                ("odd", plain("true")),
                ("name", text("x")),
            ],
            "# T",
        );
        assert_eq!(
            text,
            "---\ndomain: testing\nwhen: 2026-02-01T14:30:00Z\nodd: \"true\"\nname: \"x\"\n---\n\n# T\n"
        );
    }
}
