//! The arguments of each tool, as the model sends them; their doc comments become the
//! JSON Schema descriptions the model reads.

use rmcp::schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Search {
    /// What to look for, in plain words: an error message, a tool, a file, a topic.
    pub query: String,
    /// Only this kind: instinct, conviction, episode or session.
    #[serde(default)]
    pub kind: Option<String>,
    /// Only memories of this project (by default this project's come first, then the rest).
    #[serde(default)]
    pub project: Option<String>,
    /// How many results (default 8, at most 50).
    #[serde(default)]
    pub limit: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Get {
    /// The item's id as `search` returned it (for example `instincts/personal/testing-use-nextest.md`), or its name.
    pub id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct RecentSessions {
    /// The project (default: the one this server runs in).
    #[serde(default)]
    pub project: Option<String>,
    /// How many sessions (default 5, at most 20).
    #[serde(default)]
    pub limit: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Remember {
    /// The rule, fact or preference, in one sentence, as the user stated it.
    pub text: String,
    /// True when it holds in every project; by default it holds in this one.
    #[serde(default)]
    pub everywhere: bool,
    /// Optional domain: code-style, testing, debugging, git, tooling, architecture, performance, security, documentation or general.
    #[serde(default)]
    pub domain: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Feedback {
    /// The item's id or name.
    pub id: String,
    /// wrong (it misled), weak (not sure it holds), strong (it proved right), or mute (not in this session).
    pub verdict: String,
    /// For mute: the session (default: the newest one).
    #[serde(default)]
    pub session: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
pub struct Forget {
    /// The item's id or name.
    pub id: String,
    /// Why, in a few words (kept in the item's evidence).
    #[serde(default)]
    pub reason: Option<String>,
}
