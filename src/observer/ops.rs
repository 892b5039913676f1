//! The operations every engine produces, and their validation. Engines propose; only
//! validated operations reach the applier, so an LLM's answer can never name a path
//! outside the memory folder, invent a domain or write unbounded text.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::memory::provenance::Provenance;
use crate::memory::{DOMAINS, is_valid_name};

const MAX_TEXT: usize = 300;
const MAX_NARRATIVE: usize = 1200;
const MAX_PATHS: usize = 8;

/// One change to the memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Op {
    /// A new instinct `instincts/personal/<name>.md`.
    Create {
        name: String,
        domain: String,
        trigger: String,
        action: String,
        confidence: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        project: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        paths: Vec<String>,
        evidence: String,
        /// The engine's key for the pattern, kept in the file for dedup.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pattern: Option<String>,
        /// When the evidence was first and last seen (default: now).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first_seen: Option<DateTime<Utc>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_seen: Option<DateTime<Utc>>,
        /// Whose words it holds (an engine's answer is the model's: see `llm`).
        #[serde(default)]
        provenance: Provenance,
        /// Independent sessions that showed it (0: not counted, as for an llm's).
        #[serde(default, skip_serializing_if = "is_zero")]
        sessions: u32,
    },
    /// The pattern of an existing instinct was seen again.
    Reinforce {
        name: String,
        evidence: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_seen: Option<DateTime<Utc>>,
        /// The independent sessions that have shown it so far (0: not counted).
        #[serde(default, skip_serializing_if = "is_zero")]
        sessions: u32,
    },
    /// Observations went against an existing instinct.
    Contradict { name: String, evidence: String },
    /// A notable event below the instinct threshold, keyed so it can grow into one.
    Episode {
        key: String,
        title: String,
        narrative: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        project: Option<String>,
        tags: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        files: Vec<String>,
        occurrences: u32,
        /// What the episode would teach if it recurs, shown above its sightings.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lesson: Option<String>,
        /// When the event happened (default: now): the episode's date.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seen: Option<DateTime<Utc>>,
        #[serde(default)]
        provenance: Provenance,
    },
    /// An episode seen often enough becomes an instinct at 0.5.
    PromoteEpisode {
        episode: String,
        name: String,
        domain: String,
        trigger: String,
        action: String,
        evidence: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_seen: Option<DateTime<Utc>>,
        #[serde(default)]
        provenance: Provenance,
        #[serde(default, skip_serializing_if = "is_zero")]
        sessions: u32,
    },
    /// The `## Summary` of a session summary file.
    SummarizeSession { session: String, summary: String },
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Why an operation was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

fn text(field: &str, value: &str, max: usize) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        return Err(Invalid(format!("{field} is empty")));
    }
    if value.chars().count() > max {
        return Err(Invalid(format!("{field} is longer than {max} characters")));
    }
    Ok(())
}

fn name(field: &str, value: &str) -> Result<(), Invalid> {
    if is_valid_name(value) {
        Ok(())
    } else {
        Err(Invalid(format!(
            "{field} '{value}' is not a safe name ([a-z0-9][a-z0-9_-]*)"
        )))
    }
}

fn domain(value: &str) -> Result<(), Invalid> {
    if DOMAINS.contains(&value) {
        Ok(())
    } else {
        Err(Invalid(format!("unknown domain '{value}'")))
    }
}

fn safe_path(value: &str) -> Result<(), Invalid> {
    if value.is_empty()
        || value.len() > 200
        || value.split('/').any(|p| p == "..")
        || value.contains('\0')
    {
        return Err(Invalid(format!("path '{value}' is not allowed")));
    }
    Ok(())
}

/// `text` with secrets replaced.
fn clean(text: &mut String) {
    if let std::borrow::Cow::Owned(redacted) = crate::agent::redact::redact(text) {
        *text = redacted;
    }
    // What the observer writes is a memory file: personal addresses are masked too.
    if let std::borrow::Cow::Owned(masked) = crate::agent::redact::mask_emails(text) {
        *text = masked;
    }
}

/// A file name without a secret in it: a token can hide in a slug with its
/// underscores turned into dashes, so long runs of letters and digits go too.
fn clean_name(name: &mut String) {
    let secretish = |part: &str| {
        part.len() >= 20
            && part.chars().any(|c| c.is_ascii_digit())
            && part.chars().any(|c| c.is_ascii_alphabetic())
    };
    let underscored = name.replace('-', "_");
    let redacted = crate::agent::redact::redact(&underscored);
    let parts: Vec<&str> = name.split('-').collect();
    if matches!(redacted, std::borrow::Cow::Owned(_)) || parts.iter().any(|p| secretish(p)) {
        let kept: Vec<&str> = parts
            .iter()
            .copied()
            .filter(|p| {
                !secretish(p) && !matches!(*p, "ghp" | "gho" | "sk" | "xoxb" | "xoxp" | "akia")
            })
            .collect();
        *name = kept.join("-");
    }
}

/// Advice that must never be written (see `safety`).
fn advice(trigger: &str, action: &str) -> Result<(), Invalid> {
    match super::safety::refuse(trigger, action) {
        Some(why) => Err(Invalid(format!("the action {why}"))),
        None => Ok(()),
    }
}

impl Op {
    /// The operation with secrets redacted from every text and name (an LLM may repeat
    /// what it was shown).
    /// The operation with the model as the source of its words: an engine's answer may
    /// quote the user, but it cannot vouch for it, so it never becomes a user rule.
    pub fn in_the_models_words(mut self) -> Op {
        match &mut self {
            Op::Create {
                provenance,
                sessions,
                ..
            }
            | Op::PromoteEpisode {
                provenance,
                sessions,
                ..
            } => {
                *provenance = Provenance::Model;
                // A model's claim of how often it was seen is no count.
                *sessions = 0;
            }
            Op::Episode { provenance, .. } => *provenance = Provenance::Model,
            Op::Reinforce { sessions, .. } => *sessions = 0,
            _ => {}
        }
        self
    }

    pub fn redacted(mut self) -> Op {
        match &mut self {
            Op::Create {
                name,
                trigger,
                action,
                evidence,
                project,
                paths,
                pattern,
                ..
            } => {
                clean_name(name);
                for t in [trigger, action, evidence] {
                    clean(t);
                }
                project
                    .iter_mut()
                    .chain(pattern.iter_mut())
                    .chain(paths.iter_mut())
                    .for_each(clean);
            }
            Op::Reinforce { evidence, .. } | Op::Contradict { evidence, .. } => clean(evidence),
            Op::Episode {
                key,
                title,
                narrative,
                files,
                lesson,
                ..
            } => {
                for t in [key, title, narrative] {
                    clean(t);
                }
                files.iter_mut().chain(lesson.iter_mut()).for_each(clean);
            }
            Op::PromoteEpisode {
                name,
                trigger,
                action,
                evidence,
                ..
            } => {
                clean_name(name);
                for t in [trigger, action, evidence] {
                    clean(t);
                }
            }
            Op::SummarizeSession { summary, .. } => clean(summary),
        }
        self
    }

    /// Checks every field; the applier only ever sees operations that pass.
    pub fn validate(&self) -> Result<(), Invalid> {
        match self {
            Op::Create {
                name: n,
                domain: d,
                trigger,
                action,
                confidence,
                project,
                paths,
                evidence,
                pattern,
                ..
            } => {
                name("name", n)?;
                advice(trigger, action)?;
                if let Some(p) = pattern {
                    text("pattern", p, 200)?;
                }
                domain(d)?;
                text("trigger", trigger, MAX_TEXT)?;
                text("action", action, MAX_TEXT)?;
                text("evidence", evidence, MAX_TEXT)?;
                if !(0.2..=0.9).contains(confidence) {
                    return Err(Invalid(format!(
                        "confidence {confidence} is outside 0.2..0.9"
                    )));
                }
                if let Some(p) = project {
                    text("project", p, 100)?;
                }
                if paths.len() > MAX_PATHS {
                    return Err(Invalid("too many paths".into()));
                }
                paths.iter().try_for_each(|p| safe_path(p))
            }
            Op::Reinforce {
                name: n, evidence, ..
            }
            | Op::Contradict { name: n, evidence } => {
                name("name", n)?;
                text("evidence", evidence, MAX_TEXT)
            }
            Op::Episode {
                key,
                title,
                narrative,
                tags,
                files,
                lesson,
                ..
            } => {
                text("key", key, 200)?;
                text("title", title, 120)?;
                text("narrative", narrative, MAX_NARRATIVE)?;
                if let Some(lesson) = lesson {
                    text("lesson", lesson, MAX_NARRATIVE)?;
                }
                if tags.is_empty() {
                    return Err(Invalid("an episode needs a tag (its domain)".into()));
                }
                domain(&tags[0])?;
                files.iter().try_for_each(|p| safe_path(p))
            }
            Op::PromoteEpisode {
                episode,
                name: n,
                domain: d,
                trigger,
                action,
                evidence,
                ..
            } => {
                name("episode", episode)?;
                advice(trigger, action)?;
                name("name", n)?;
                domain(d)?;
                text("trigger", trigger, MAX_TEXT)?;
                text("action", action, MAX_TEXT)?;
                text("evidence", evidence, MAX_TEXT)
            }
            Op::SummarizeSession { session, summary } => {
                name("session", &session.to_ascii_lowercase())?;
                text("summary", summary, MAX_NARRATIVE)
            }
        }
    }
}

/// Parses an engine's answer: a JSON array of operations, or an object with an
/// `operations` array, possibly wrapped in prose or a code fence. Returns the valid
/// operations and a reason for each one refused.
pub fn parse(answer: &str) -> (Vec<Op>, Vec<String>) {
    let start = answer.find(['[', '{']);
    let end = answer.rfind([']', '}']);
    let Some((start, end)) = start.zip(end).filter(|(s, e)| s < e) else {
        return (Vec::new(), vec!["no JSON in the answer".into()]);
    };
    let json: serde_json::Value = match serde_json::from_str(&answer[start..=end]) {
        Ok(v) => v,
        Err(e) => return (Vec::new(), vec![format!("answer is not valid JSON: {e}")]),
    };
    let items = match json {
        serde_json::Value::Array(items) => items,
        serde_json::Value::Object(mut map) => match map.remove("operations") {
            Some(serde_json::Value::Array(items)) => items,
            _ => return (Vec::new(), vec!["expected an array of operations".into()]),
        },
        _ => return (Vec::new(), vec!["expected an array of operations".into()]),
    };
    let mut ops = Vec::new();
    let mut refused = Vec::new();
    for (n, item) in items.into_iter().enumerate() {
        match serde_json::from_value::<Op>(item) {
            Ok(op) => match op.validate() {
                Ok(()) => ops.push(op),
                Err(e) => refused.push(format!("operation {}: {e}", n + 1)),
            },
            Err(e) => refused.push(format!("operation {}: {e}", n + 1)),
        }
    }
    (ops, refused)
}

#[cfg(test)]
mod tests;
