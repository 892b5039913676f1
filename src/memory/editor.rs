//! A lossless edit of one item file under the store's lock: the document and the path it
//! came from, so every refused edit is reported as `path:line: reason`.

use std::path::Path;

use chrono::{DateTime, Utc};

use super::confidence::Update;
use super::{Document, Error, Scalar, body};
use crate::time::stamp;

/// The file being edited, handed out by `Store::edit`.
pub struct Editor<'a> {
    doc: &'a mut Document,
    path: &'a Path,
}

impl<'a> Editor<'a> {
    pub(super) fn new(doc: &'a mut Document, path: &'a Path) -> Self {
        Self { doc, path }
    }

    pub fn path(&self) -> &Path {
        self.path
    }

    pub fn doc(&self) -> &Document {
        self.doc
    }

    pub fn text(&self) -> &str {
        self.doc.text()
    }

    /// Sets `key` on its own line (see `Document::set`).
    pub fn set(&mut self, key: &str, value: &Scalar, after: &[&str]) -> Result<(), Error> {
        self.doc
            .set(key, value, after)
            .map_err(|e| Error::invalid(self.path, e))
    }

    /// Removes `key`'s line; whether it was there.
    pub fn remove(&mut self, key: &str) -> Result<bool, Error> {
        self.doc
            .remove(key)
            .map_err(|e| Error::invalid(self.path, e))
    }

    pub fn append_bullet(&mut self, heading: &str, bullet: &str) {
        body::append_bullet(self.doc, heading, bullet);
    }

    /// Replaces the body's `# ` heading line (only that line), if it differs.
    pub fn set_title(&mut self, title: &str) {
        let body = self.doc.body();
        let Some(start) = body
            .lines()
            .position(|l| l.starts_with("# "))
            .map(|n| body.lines().take(n).map(|l| l.len() + 1).sum::<usize>())
        else {
            return;
        };
        let end = body[start..].find('\n').map_or(body.len(), |e| start + e);
        let wanted = format!("# {}", crate::text::one_line_words(title, 120));
        if body[start..end] != wanted {
            self.doc.splice_body(start..end, &wanted);
        }
    }

    pub fn replace_section(&mut self, name: &str, content: &str) {
        body::replace_section(self.doc, name, content);
    }

    /// Writes an instinct's new confidence state: `confidence`, `last_seen` (only when it
    /// differs from `stored_last_seen`, so an unchanged date keeps its spelling) and
    /// `decayed_until` (removed when decay counts from `last_seen` again). Feedback and
    /// the observer change an instinct through this one function.
    pub fn set_state(
        &mut self,
        stored_last_seen: Option<DateTime<Utc>>,
        update: &Update,
    ) -> Result<(), Error> {
        self.set("confidence", &Scalar::Number(update.confidence), &[])?;
        if stored_last_seen != Some(update.last_seen) {
            self.set(
                "last_seen",
                &Scalar::Plain(stamp(update.last_seen)),
                &["created"],
            )?;
        }
        match update.decayed_until {
            Some(t) => self.set("decayed_until", &Scalar::Plain(stamp(t)), &["last_seen"])?,
            None => {
                self.remove("decayed_until")?;
            }
        }
        Ok(())
    }
}
