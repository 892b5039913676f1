//! Typed, located access to frontmatter values: each getter reports a bad value as
//! `path:line: reason`, pointing at the key's own line.

use std::path::Path;

use chrono::{DateTime, Utc};
use serde_yaml_ng::{Mapping, Value};

use super::{Document, Error};
use crate::fsutil::InvalidFile;

pub struct FieldReader<'a> {
    pub map: &'a Mapping,
    pub doc: &'a Document,
    pub path: &'a Path,
}

impl<'a> FieldReader<'a> {
    fn bad(&self, key: &str, reason: String) -> Error {
        InvalidFile::new(self.path, self.doc.key_line(key).unwrap_or(1), reason).into()
    }

    /// A scalar as text (numbers and booleans included); `None` when absent or null.
    pub fn text(&self, key: &str) -> Result<Option<String>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(Value::Bool(b)) => Ok(Some(b.to_string())),
            Some(_) => Err(self.bad(key, format!("'{key}' must be a single value"))),
        }
    }

    pub fn text_or_empty(&self, key: &str) -> Result<String, Error> {
        Ok(self.text(key)?.unwrap_or_default())
    }

    /// A number, also accepted in quotes.
    pub fn number(&self, key: &str) -> Result<Option<f64>, Error> {
        let value = match self.map.get(key) {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse().ok(),
            Some(_) => None,
        };
        value
            .filter(|v: &f64| v.is_finite())
            .map(Some)
            .ok_or_else(|| self.bad(key, format!("'{key}' must be a number")))
    }

    /// A confidence: a number from 0 to 1.
    pub fn confidence(&self, key: &str) -> Result<f64, Error> {
        let value = self
            .number(key)?
            .ok_or_else(|| self.bad(key, format!("missing '{key}'")))?;
        if !(0.0..=1.0).contains(&value) {
            return Err(self.bad(key, format!("'{key}' must be between 0 and 1, got {value}")));
        }
        Ok(value)
    }

    pub fn bool(&self, key: &str) -> Result<bool, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
            Some(_) => Err(self.bad(key, format!("'{key}' must be true or false"))),
        }
    }

    /// A timestamp: RFC 3339, `YYYY-MM-DDTHH:MM:SS` (taken as UTC) or a bare date.
    pub fn date(&self, key: &str) -> Result<Option<DateTime<Utc>>, Error> {
        let Some(text) = self.text(key)? else {
            return Ok(None);
        };
        crate::time::parse(&text)
            .map(Some)
            .ok_or_else(|| self.bad(key, format!("'{key}' is not a date: '{text}'")))
    }

    /// A list of strings; a single string counts as a list of one.
    pub fn list(&self, key: &str) -> Result<Vec<String>, Error> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(vec![s.clone()]),
            Some(Value::Sequence(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    Value::Number(n) => Ok(n.to_string()),
                    Value::Bool(b) => Ok(b.to_string()),
                    _ => Err(self.bad(key, format!("'{key}' must be a list of text"))),
                })
                .collect(),
            Some(_) => Err(self.bad(key, format!("'{key}' must be a list"))),
        }
    }
}
