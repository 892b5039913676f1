//! What a hook hands back to Claude Code (contract, section 3): context for the model, a
//! decision on a tool call, or a message for the user, each as the one JSON object the
//! hook prints. The hooks decide; this module only spells the wire format.

use serde_json::{Value, json};

/// One hook's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Text added to the model's context at `event` (`SessionStart`, `UserPromptSubmit`,
    /// `PreToolUse`, `PostToolUse`).
    Context { event: &'static str, text: String },
    /// PreToolUse: refuse the call, with the reason the model is shown.
    Deny { reason: String },
    /// A line for the user, not the model.
    SystemMessage(String),
}

impl Answer {
    /// The JSON object Claude Code reads from the hook's stdout.
    pub fn to_json(&self) -> Value {
        match self {
            Answer::Context { event, text } => json!({
                "hookSpecificOutput": {
                    "hookEventName": event,
                    "additionalContext": text,
                }
            }),
            Answer::Deny { reason } => json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": reason,
                }
            }),
            Answer::SystemMessage(message) => json!({ "systemMessage": message }),
        }
    }

    /// The context text, when this answer carries some.
    pub fn context(&self) -> Option<&str> {
        match self {
            Answer::Context { text, .. } => Some(text),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_answer_has_its_wire_shape() {
        let context = Answer::Context {
            event: "UserPromptSubmit",
            text: "x".into(),
        };
        assert_eq!(
            context.to_json()["hookSpecificOutput"]["additionalContext"],
            "x"
        );
        let deny = Answer::Deny {
            reason: "no".into(),
        }
        .to_json();
        assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(
            Answer::SystemMessage("hi".into()).to_json()["systemMessage"],
            "hi"
        );
    }
}
