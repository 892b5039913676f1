//! Whose words a memory holds: the `provenance:` frontmatter key. Only the user's own
//! typed words (a prompt, a rejection's feedback) make a "user rule"; what a tool
//! printed or the user pasted never does, and the model's own commands are learned only
//! as what happened, confirmed by their outcome.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provenance {
    /// Typed by the user: a prompt, or the feedback of a rejected call.
    User,
    /// Printed by a tool (output, errors).
    Tool,
    /// Written by the model: its commands and edits, confirmed by what they did.
    #[default]
    Model,
    /// Pasted by the user (a log, a README, a fenced block): not their own words.
    Paste,
    /// Brought in by `import`.
    Import,
}

/// How a provenance (by its name) reads to a person: whose words the memory holds.
pub fn origin_word(name: &str) -> &str {
    match name {
        "user" => "you said",
        "model" => "observed",
        "tool" => "tool output",
        "paste" => "pasted",
        "import" => "imported",
        other => other,
    }
}

impl Provenance {
    pub fn name(self) -> &'static str {
        match self {
            Provenance::User => "user",
            Provenance::Tool => "tool",
            Provenance::Model => "model",
            Provenance::Paste => "paste",
            Provenance::Import => "import",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name.trim() {
            "user" => Provenance::User,
            "tool" => Provenance::Tool,
            "model" => Provenance::Model,
            "paste" => Provenance::Paste,
            "import" => Provenance::Import,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for p in [
            Provenance::User,
            Provenance::Tool,
            Provenance::Model,
            Provenance::Paste,
            Provenance::Import,
        ] {
            assert_eq!(Provenance::from_name(p.name()), Some(p));
        }
        assert_eq!(Provenance::from_name("the user"), None);
    }
}
