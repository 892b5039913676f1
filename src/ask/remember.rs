//! Something the user asked the agent to remember (a rule, a fact, a preference),
//! recorded as an instinct in the user's words at 0.6: through the observer's own
//! validation and writer, so the same redaction and never-advice rules apply.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::AskError;
use crate::memory::provenance::Provenance;
use crate::memory::{DOMAINS, RETIRED, Store, pattern, slugify};
use crate::observer::apply::apply;
use crate::observer::ops::Op;
use crate::paths::Paths;

/// The confidence of a remembered rule: above the injection floor, below promotion.
pub const CONFIDENCE: f64 = 0.6;
/// The longest rule kept (the observer's limit on an action).
const MAX_RULE: usize = 280;

/// What to remember.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    pub text: &'a str,
    /// The project it holds in; `None` for every project.
    pub project: Option<&'a str>,
    /// One of `memory::DOMAINS`; guessed from the words when absent.
    pub domain: Option<&'a str>,
    /// Who records it: `mcp` or `manual`.
    pub source: &'a str,
}

/// What was written.
#[derive(Debug, Clone)]
pub struct Remembered {
    pub name: String,
    pub path: PathBuf,
    /// False when the same rule was known already (it is reinforced instead).
    pub created: bool,
}

pub fn remember(paths: &Paths, req: &Request, now: DateTime<Utc>) -> Result<Remembered, AskError> {
    let rule = crate::text::one_line(req.text.trim(), MAX_RULE);
    if rule.split_whitespace().count() < 2 {
        return Err(AskError::Refused(
            "say what to remember in a sentence (at least two words)".into(),
        ));
    }
    let domain = match req.domain {
        Some(d) if DOMAINS.contains(&d) => d,
        Some(d) => {
            return Err(AskError::Refused(format!(
                "unknown domain '{d}'; one of: {}",
                DOMAINS.join(", ")
            )));
        }
        None => crate::observer::miners::domain_of(&rule),
    };
    let slug = slugify(&crate::agent::redact::redact(&rule), 48);
    let name = format!("{domain}-{slug}");
    let store = Store::new(paths);
    let path = paths.personal_instincts().join(format!("{name}.md"));
    let mut action = rule.clone();
    if let Some(first) = action.get(..1) {
        action = first.to_uppercase() + &action[1..];
    }
    let evidence = format!("the user asked to remember it (via {})", req.source);
    let op = if path.exists() {
        // Asked again: the user's word brings a forgotten rule back.
        store.edit(&path, |file| file.remove(RETIRED))?;
        Op::Reinforce {
            name: name.clone(),
            evidence,
            last_seen: None,
            sessions: 0,
        }
    } else {
        Op::Create {
            name: name.clone(),
            domain: domain.to_string(),
            trigger: match req.project {
                Some(p) => format!("when working in {p}"),
                None => "in any project".to_string(),
            },
            action,
            confidence: CONFIDENCE,
            project: req.project.map(str::to_string),
            paths: Vec::new(),
            evidence,
            pattern: Some(pattern::rule(req.project.unwrap_or("*"), &slug)),
            first_seen: None,
            last_seen: None,
            provenance: Provenance::User,
            sessions: 0,
        }
    };
    let op = op.redacted();
    op.validate().map_err(|e| AskError::Refused(e.0))?;
    let batch = format!("remember-{}", now.timestamp());
    let applied = apply(&store, std::slice::from_ref(&op), &batch, req.source, now);
    if let Some(e) = applied.errors.first() {
        return Err(AskError::Refused(e.clone()));
    }
    Ok(Remembered {
        created: matches!(op, Op::Create { .. }),
        name,
        path,
    })
}
