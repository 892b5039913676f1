//! The Claude Code hook events we handle, each named once: its name on the wire
//! (`hook_event_name`, the settings key), its name on our command line, the matcher and
//! the timeout `init` registers it with.

/// One hook event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookEvent {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    Stop,
    SessionEnd,
    PreCompact,
}

impl HookEvent {
    /// Every event, in the order `init` writes them into `settings.json`.
    pub const ALL: [HookEvent; 8] = [
        HookEvent::SessionStart,
        HookEvent::UserPromptSubmit,
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::PostToolUseFailure,
        HookEvent::Stop,
        HookEvent::SessionEnd,
        HookEvent::PreCompact,
    ];

    /// The name Claude Code uses: the settings key and the payload's `hook_event_name`.
    pub fn wire_name(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "SessionStart",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
            HookEvent::Stop => "Stop",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::PreCompact => "PreCompact",
        }
    }

    /// Our argument: `homunculus hook <cli_name>`.
    pub fn cli_name(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "session-start",
            HookEvent::UserPromptSubmit => "user-prompt-submit",
            HookEvent::PreToolUse => "pre-tool-use",
            HookEvent::PostToolUse => "post-tool-use",
            HookEvent::PostToolUseFailure => "post-tool-use-failure",
            HookEvent::Stop => "stop",
            HookEvent::SessionEnd => "session-end",
            HookEvent::PreCompact => "pre-compact",
        }
    }

    /// The tools the event is registered for; `None` = every tool (or not a tool event).
    /// PreToolUse needs the file tools (path triggers) and Bash (command censors).
    pub fn matcher(self) -> Option<&'static str> {
        match self {
            HookEvent::PreToolUse => Some("Read|Edit|Write|MultiEdit|NotebookEdit|Bash"),
            _ => None,
        }
    }

    /// Seconds Claude Code waits before giving up on us (we answer in milliseconds; this
    /// only bounds a machine under heavy load).
    pub fn timeout_secs(self) -> u64 {
        match self {
            HookEvent::SessionStart | HookEvent::Stop | HookEvent::PreCompact => 10,
            _ => 5,
        }
    }

    /// The event named by our command-line argument.
    pub fn from_cli(name: &str) -> Option<HookEvent> {
        HookEvent::ALL.into_iter().find(|e| e.cli_name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for event in HookEvent::ALL {
            assert_eq!(HookEvent::from_cli(event.cli_name()), Some(event));
        }
        assert_eq!(HookEvent::from_cli("SessionStart"), None);
        assert_eq!(HookEvent::from_cli(""), None);
    }
}
