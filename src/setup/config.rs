//! `config.toml`: the user's settings, every one optional with a default. The template
//! `templates/config.toml` lists them all, commented; a test keeps the two in step.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::fsutil::{self, InvalidFile, PathError};

/// The observer's llm command when `config.toml` names none: the only one that runs
/// without the user's approval (`homunculus trust`).
pub const DEFAULT_LLM_COMMAND: &str = "claude -p --model haiku";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Invalid(#[from] InvalidFile),
}

#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(default)]
pub struct Config {
    pub observer: Observer,
    pub recall: Recall,
    pub context: Context,
    pub git: Git,
    pub index: IndexConfig,
}

/// The search index.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct IndexConfig {
    /// Start `homunculus watch` in the background at a session's start when none runs,
    /// so hand edits reach search and recall within a second at any size.
    pub watch: bool,
}

impl Default for IndexConfig {
    fn default() -> Self {
        Self { watch: true }
    }
}

/// Which engine learns: the deterministic miners or the configured LLM command. Its
/// name is also the `source` of what it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    #[default]
    Builtin,
    Llm,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Builtin => "builtin",
            Engine::Llm => "llm",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct Observer {
    pub engine: Engine,
    pub min_observations: usize,
    pub min_interval: String,
    pub max_observations: usize,
    pub llm_command: String,
    pub llm_timeout: String,
    pub llm_run_budget: usize,
    pub llm_daily_budget: usize,
}

impl Default for Observer {
    fn default() -> Self {
        Self {
            engine: Engine::Builtin,
            min_observations: 20,
            min_interval: "10m".into(),
            max_observations: 500,
            llm_command: DEFAULT_LLM_COMMAND.into(),
            llm_timeout: "120s".into(),
            llm_run_budget: 60_000,
            llm_daily_budget: 600_000,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecallMode {
    Live,
    Shadow,
    Off,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct Recall {
    pub mode: RecallMode,
    pub max_items: usize,
}

impl Default for Recall {
    fn default() -> Self {
        Self {
            mode: RecallMode::Live,
            max_items: 3,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct Context {
    pub session_start_chars: usize,
    pub prompt_chars: usize,
    pub item_chars: usize,
    pub all_instincts_up_to: usize,
    pub top_instincts: usize,
}

impl Default for Context {
    fn default() -> Self {
        Self {
            session_start_chars: 4000,
            prompt_chars: 2000,
            item_chars: 300,
            all_instincts_up_to: 30,
            top_instincts: 15,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default)]
pub struct Git {
    pub commit: bool,
}

impl Default for Git {
    fn default() -> Self {
        Self { commit: true }
    }
}

impl Config {
    /// Reads `config.toml`; a missing file means every default.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        match fsutil::read_text(path) {
            Ok(text) => Self::parse(&text)
                .map_err(|(line, reason)| InvalidFile::new(path, line, reason).into()),
            Err(e) if e.is_not_found() => Ok(Self::default()),
            Err(e) => Err(e.into()),
        }
    }

    fn parse(text: &str) -> Result<Self, (usize, String)> {
        toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(1, |s| {
                text[..s.start.min(text.len())].lines().count().max(1)
            });
            (line, e.message().to_string())
        })
    }
}

/// Parses a duration such as `90s`, `10m`, `2h` or `1d`.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number.parse().ok()?;
    let seconds = match unit.trim() {
        "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        "d" => n * 86_400,
        _ => return None,
    };
    Some(Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_lists_every_default() {
        let template = include_str!("../../templates/config.toml");
        assert_eq!(Config::parse(template).unwrap(), Config::default());
        let uncommented: String = template
            .lines()
            .map(|l| {
                l.strip_prefix("# ")
                    .filter(|r| r.contains(" = "))
                    .unwrap_or(l)
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(Config::parse(&uncommented).unwrap(), Config::default());
        let settings = uncommented.lines().filter(|l| l.contains(" = ")).count();
        assert_eq!(
            settings, 17,
            "a setting was added: document it in the template"
        );
    }

    #[test]
    fn bad_values_are_located() {
        let err = Config::parse("[recall]\nmode = \"loud\"\n").unwrap_err();
        assert_eq!(err.0, 2);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("10m"), Some(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Some(Duration::from_secs(7200)));
        assert_eq!(parse_duration("m"), None);
        assert_eq!(parse_duration("10 parsecs"), None);
    }
}
