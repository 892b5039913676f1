//! Claude Code's hook payloads as typed structs that mirror the wire format. Reading is
//! lenient: every field is optional and may be of any type; what we do not understand
//! reads as absent (or false), so no payload can make a hook fail. Session ids become safe
//! file names.

use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer};
use serde_json::Value;

use crate::text::fnv1a;

/// One hook event's payload: the fields common to every event and those of the events
/// we handle (Claude Code contract, section 2).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Payload {
    #[serde(deserialize_with = "any_text")]
    pub session_id: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub transcript_path: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub cwd: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub hook_event_name: Option<String>,
    /// SessionStart: startup | resume | clear | compact.
    #[serde(deserialize_with = "any_text")]
    pub source: Option<String>,
    /// UserPromptSubmit. A pasted megabyte is kept to its head and tail like a tool's
    /// output: what it asks and where the paste fails, in bounded memory.
    #[serde(deserialize_with = "clipped_text")]
    pub prompt: Option<String>,
    /// The tool events.
    #[serde(deserialize_with = "any_text")]
    pub tool_name: Option<String>,
    #[serde(deserialize_with = "any_object")]
    pub tool_input: ToolInput,
    #[serde(deserialize_with = "any_text")]
    pub tool_use_id: Option<String>,
    #[serde(deserialize_with = "any_response")]
    pub tool_response: ToolResponse,
    /// PostToolUseFailure: the error text, and whether the user interrupted the call.
    #[serde(deserialize_with = "clipped_text")]
    pub error: Option<String>,
    #[serde(deserialize_with = "any_flag")]
    pub is_interrupt: bool,
    /// Stop: a Stop hook already blocked this turn once.
    #[serde(deserialize_with = "any_flag")]
    pub stop_hook_active: bool,
    /// Set only on a subagent's tool events: its calls are not the session's own.
    #[serde(deserialize_with = "any_text")]
    pub agent_id: Option<String>,
    /// The Claude Code version that wrote a replayed transcript line (live payloads have
    /// none: they come from a current build). Failure texts changed shape over versions.
    #[serde(deserialize_with = "any_text")]
    pub claude_version: Option<String>,
    /// Not sent in the payload: the folder the session started in, from Claude Code's
    /// `CLAUDE_PROJECT_DIR` in the hook's environment.
    #[serde(skip)]
    pub started_in: Option<String>,
}

/// The parts of a tool's input we record.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ToolInput {
    #[serde(deserialize_with = "any_text")]
    pub command: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub description: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub pattern: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub file_path: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub notebook_path: Option<String>,
    /// TodoWrite: the agent's task list.
    #[serde(deserialize_with = "any_list")]
    pub todos: Vec<Todo>,
}

/// One entry of a TodoWrite list.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Todo {
    #[serde(deserialize_with = "any_text")]
    pub content: Option<String>,
    /// pending | in_progress | completed
    #[serde(deserialize_with = "any_text")]
    pub status: Option<String>,
}

/// The parts of a tool's response we record.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ToolResponse {
    #[serde(deserialize_with = "any_flag")]
    pub interrupted: bool,
    /// Bash: what the command printed (read for "nothing happened", never stored).
    #[serde(deserialize_with = "clipped_text")]
    pub stdout: Option<String>,
    #[serde(deserialize_with = "clipped_text")]
    pub stderr: Option<String>,
    /// An agent that reports a command's exit status (Codex does): non-zero is a failure.
    #[serde(deserialize_with = "any_integer", alias = "exitCode")]
    pub exit_code: Option<i64>,
    /// A response that is plain text (Codex's tools answer with the text the model saw).
    #[serde(skip)]
    pub text: Option<String>,
}

/// Claude Code's status line input: the fields the activity log keeps.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct StatusInput {
    #[serde(deserialize_with = "any_text")]
    pub session_id: Option<String>,
    #[serde(deserialize_with = "any_text")]
    pub transcript_path: Option<String>,
    #[serde(deserialize_with = "any_object")]
    pub context_window: ContextWindow,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ContextWindow {
    #[serde(deserialize_with = "any_number")]
    pub used_percentage: Option<f64>,
}

fn any_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

/// How much of a long text field (a tool's output, an error) a hook keeps: the start
/// and the end, where failures and their causes are, and nothing in between.
pub const CLIP: usize = 64 * 1024;

/// A text field kept to `CLIP` bytes (its head and tail), read without holding the
/// whole of it twice: an unescaped string is read in place.
fn clipped_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct Clipped;
    impl<'de> serde::de::Visitor<'de> for Clipped {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any value")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(clip(v)))
        }
        fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Some(clip(v)))
        }
        fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(clip(&v)))
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut a: A,
        ) -> Result<Self::Value, A::Error> {
            while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut a: A,
        ) -> Result<Self::Value, A::Error> {
            while a
                .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                .is_some()
            {}
            Ok(None)
        }
    }
    d.deserialize_any(Clipped)
}

/// The first and last `CLIP / 2` bytes of `text` (on character boundaries), joined by a
/// line that says what was left out.
fn clip(text: &str) -> String {
    if text.len() <= CLIP {
        return text.to_string();
    }
    let mut head = CLIP / 2;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - CLIP / 2;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    format!(
        "{}\n[… {} bytes left out …]\n{}",
        &text[..head],
        tail - head,
        &text[tail..]
    )
}

fn any_flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Value::deserialize(d)?.as_bool().unwrap_or(false))
}

fn any_integer<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(Value::deserialize(d)?.as_i64())
}

/// A tool response: an object (Claude Code), or the plain text Codex returns.
fn any_response<'de, D: Deserializer<'de>>(d: D) -> Result<ToolResponse, D::Error> {
    Ok(match Value::deserialize(d)? {
        value @ Value::Object(_) => serde_json::from_value(value).unwrap_or_default(),
        Value::String(text) => ToolResponse {
            text: Some(clip(&text)),
            ..ToolResponse::default()
        },
        _ => ToolResponse::default(),
    })
}

fn any_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(Value::deserialize(d)?.as_f64())
}

/// A nested object whose fields are lenient themselves; anything else reads as empty.
fn any_object<'de, D: Deserializer<'de>, T: DeserializeOwned + Default>(
    d: D,
) -> Result<T, D::Error> {
    let value = Value::deserialize(d)?;
    Ok(if value.is_object() {
        serde_json::from_value(value).unwrap_or_default()
    } else {
        T::default()
    })
}

/// A list whose entries are lenient objects; anything else reads as empty, and entries
/// that are not objects are left out.
fn any_list<'de, D: Deserializer<'de>, T: DeserializeOwned + Default>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter(Value::is_object)
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// Parses bytes as a JSON object into `T`; `None` for anything that is not an object.
/// Straight from the bytes into `T`, with no JSON tree in between: a hook's memory stays
/// near the payload's own size (a 50 MB payload used to take twice that again).
fn parse_object<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace())?;
    if *first != b'{' {
        return None;
    }
    serde_json::from_slice(bytes).ok()
}

impl Payload {
    /// Parses a hook's stdin; `None` for anything that is not a JSON object.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        parse_object(bytes)
    }

    /// The payload a JSON value describes (replay builds them as values).
    pub fn from_value(value: Value) -> Self {
        if value.is_object() {
            serde_json::from_value(value).unwrap_or_default()
        } else {
            Self::default()
        }
    }

    /// The session id, safe as a file name.
    pub fn session_id(&self) -> String {
        safe_session_id(self.session_id.as_deref().unwrap_or(""))
    }

    pub fn tool_name(&self) -> &str {
        self.tool_name.as_deref().unwrap_or("")
    }

    /// The tool of a tool event, as our code tells tools apart.
    pub fn tool(&self) -> crate::agent::tool::Tool {
        crate::agent::tool::Tool::of(self.tool_name())
    }

    /// The file a tool call is about (Read, Edit, Write, MultiEdit, NotebookEdit).
    pub fn file_path(&self) -> Option<&str> {
        self.tool_input
            .file_path
            .as_deref()
            .or(self.tool_input.notebook_path.as_deref())
            .filter(|p| !p.is_empty())
    }
}

impl StatusInput {
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        parse_object(bytes)
    }
}

/// Eight characters that tell sessions apart in file names and evidence lines: the
/// first eight of the id, except for a time-ordered UUID (version 7, Codex's), whose
/// first eight are a timestamp shared by every session started the same minute: its
/// last eight (random) then.
pub fn short_id(session_id: &str) -> String {
    let b = session_id.as_bytes();
    let v7 = b.len() == 36 && [8, 13, 18, 23].iter().all(|&i| b[i] == b'-') && b[14] == b'7';
    if v7 {
        session_id[28..].to_string()
    } else {
        session_id.chars().take(8).collect()
    }
}

/// A session id usable as a file name: itself when it matches `[A-Za-z0-9_-]{1,128}`,
/// else a hash of it (so `../../x` can never name a path).
pub fn safe_session_id(raw: &str) -> String {
    let ok = !raw.is_empty()
        && raw.len() <= 128
        && raw
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        raw.to_string()
    } else if raw.is_empty() {
        "anonymous".to_string()
    } else {
        format!("h{:016x}", fnv1a(raw.as_bytes()))
    }
}

#[cfg(test)]
mod tests;
