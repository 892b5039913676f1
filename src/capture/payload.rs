//! Lenient access to Claude Code's hook payloads: every field is optional and of any
//! type; what we do not understand reads as absent. Session ids become safe file names.

use serde_json::Value;

use crate::text::fnv1a;

/// A parsed payload.
#[derive(Debug, Clone)]
pub struct Payload(pub Value);

impl Payload {
    /// Parses bytes as JSON; `None` for anything that is not a JSON object.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(v @ Value::Object(_)) => Some(Self(v)),
            _ => None,
        }
    }

    /// A string at a `/`-separated path (`tool_input/file_path`).
    pub fn str(&self, path: &str) -> Option<&str> {
        self.value(path)?.as_str()
    }

    pub fn value(&self, path: &str) -> Option<&Value> {
        path.split('/').try_fold(&self.0, |v, key| v.get(key))
    }

    pub fn bool(&self, path: &str) -> bool {
        self.value(path).and_then(Value::as_bool).unwrap_or(false)
    }

    pub fn session_id(&self) -> String {
        safe_session_id(self.str("session_id").unwrap_or(""))
    }

    pub fn tool_name(&self) -> &str {
        self.str("tool_name").unwrap_or("")
    }

    /// The file a tool call is about (Read, Edit, Write, MultiEdit, NotebookEdit).
    pub fn file_path(&self) -> Option<&str> {
        self.str("tool_input/file_path")
            .or_else(|| self.str("tool_input/notebook_path"))
            .filter(|p| !p.is_empty())
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
mod tests {
    use super::*;

    #[test]
    fn session_ids() {
        assert_eq!(safe_session_id("7c1e5a2b-3f4d-4e8a"), "7c1e5a2b-3f4d-4e8a");
        for hostile in ["../../x", "a/b", "x\0y", &"a".repeat(129), "ümlaut", "a b"] {
            let safe = safe_session_id(hostile);
            assert!(
                safe.starts_with('h') && safe.len() == 17,
                "{hostile:?} -> {safe}"
            );
        }
        assert_eq!(safe_session_id(""), "anonymous");
    }

    #[test]
    fn lenient_fields() {
        let p = Payload::parse(
            br#"{"session_id": 42, "tool_input": {"file_path": ["x"]}, "cwd": "/a"}"#,
        )
        .unwrap();
        assert_eq!(p.session_id(), "anonymous");
        assert_eq!(p.file_path(), None);
        assert_eq!(p.str("cwd"), Some("/a"));
        assert!(Payload::parse(b"[1,2]").is_none());
        assert!(Payload::parse(b"{\"trunc").is_none());
        assert!(Payload::parse(&[0xff, 0xfe]).is_none());
    }
}
