//! The agent's tools by name: the ones our hooks and miners tell apart get a variant, an
//! MCP tool (`mcp__server__tool`) and any other keep their name. Spelled on the wire and in
//! `observations/*.jsonl` as Claude Code names them.

use serde::{Deserialize, Serialize};

/// One tool of the coding agent.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum Tool {
    Bash,
    Read,
    Edit,
    Write,
    MultiEdit,
    NotebookEdit,
    Grep,
    Glob,
    WebFetch,
    WebSearch,
    Task,
    TodoWrite,
    /// A tool of an MCP server: `mcp__<server>__<tool>`.
    Mcp(String),
    Other(String),
}

/// The named tools and their names, in one table.
const NAMED: [(Tool, &str); 12] = [
    (Tool::Bash, "Bash"),
    (Tool::Read, "Read"),
    (Tool::Edit, "Edit"),
    (Tool::Write, "Write"),
    (Tool::MultiEdit, "MultiEdit"),
    (Tool::NotebookEdit, "NotebookEdit"),
    (Tool::Grep, "Grep"),
    (Tool::Glob, "Glob"),
    (Tool::WebFetch, "WebFetch"),
    (Tool::WebSearch, "WebSearch"),
    (Tool::Task, "Task"),
    (Tool::TodoWrite, "TodoWrite"),
];

impl Tool {
    /// The tool Claude Code calls `name`.
    pub fn of(name: &str) -> Tool {
        if let Some((tool, _)) = NAMED.iter().find(|(_, n)| *n == name) {
            return tool.clone();
        }
        if name.starts_with("mcp__") {
            Tool::Mcp(name.to_string())
        } else {
            Tool::Other(name.to_string())
        }
    }

    /// Its name as Claude Code spells it.
    pub fn name(&self) -> &str {
        match self {
            Tool::Mcp(name) | Tool::Other(name) => name,
            named => NAMED
                .iter()
                .find(|(t, _)| t == named)
                .map_or("", |(_, n)| n),
        }
    }

    /// A tool that changes a file: after it we recall the file's history, and it is
    /// what "files touched" and co-edits count.
    pub fn edits_files(&self) -> bool {
        matches!(
            self,
            Tool::Edit | Tool::Write | Tool::MultiEdit | Tool::NotebookEdit
        )
    }

    /// A tool that spells every failure of its own in a fixed shape (`Exit code`,
    /// `<tool_use_error>`): a bare sentence in its place is someone's words. WebFetch,
    /// Task and the rest print bare errors of their own.
    pub fn spells_its_failures(&self) -> bool {
        *self == Tool::Bash || self.edits_files()
    }
}

impl From<String> for Tool {
    fn from(name: String) -> Self {
        Tool::of(&name)
    }
}

impl From<&str> for Tool {
    fn from(name: &str) -> Self {
        Tool::of(name)
    }
}

impl From<Tool> for String {
    fn from(tool: Tool) -> Self {
        tool.name().to_string()
    }
}

impl std::fmt::Display for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "Bash",
            "NotebookEdit",
            "TodoWrite",
            "mcp__homunculus__search",
            "Skill",
            "",
        ] {
            assert_eq!(Tool::of(name).name(), name);
        }
        assert_eq!(Tool::of("mcp__x__y"), Tool::Mcp("mcp__x__y".into()));
        let json = serde_json::to_string(&Some(Tool::MultiEdit)).unwrap();
        assert_eq!(json, "\"MultiEdit\"");
        assert_eq!(
            serde_json::from_str::<Tool>(&json).unwrap(),
            Tool::MultiEdit
        );
        assert!(Tool::Write.edits_files() && !Tool::Read.edits_files());
    }
}
