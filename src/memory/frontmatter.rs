//! Markdown documents with a YAML frontmatter: split, parse, and edit single keys
//! losslessly. An edit rewrites only the lines of the key it changes; other keys, their
//! order, comments, quoting and the body stay byte-for-byte. Every edit is read back
//! through the YAML parser before it is accepted, so a change can never corrupt a file.

use std::ops::Range;

use serde_yaml_ng::{Mapping, Value};

pub use lines::parse_mapping;
use lines::{Line, line_ranges, top_level_key, value_span};
use scalar::render;
pub use scalar::{Scalar, quote_double, render_new};

/// A frontmatter problem, located by 1-based line in the file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{line}: {reason}")]
pub struct SyntaxError {
    pub line: usize,
    pub reason: String,
}

impl SyntaxError {
    pub fn new(line: usize, reason: impl Into<String>) -> Self {
        Self {
            line,
            reason: reason.into(),
        }
    }
}

/// A parsed markdown file: its full text and where the YAML sits in it.
#[derive(Debug, Clone)]
pub struct Document {
    text: String,
    yaml: Range<usize>,
    newline: &'static str,
}

impl Document {
    /// Splits `text` into frontmatter and body. The first line must be `---`, and a
    /// later `---` (or `...`) line closes the frontmatter.
    pub fn parse(text: String) -> Result<Self, SyntaxError> {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let mut lines = line_ranges(&text, start);
        let first = lines
            .next()
            .ok_or_else(|| SyntaxError::new(1, "empty file; expected '---' frontmatter"))?;
        if text[first.start..first.end].trim_end() != "---" {
            return Err(SyntaxError::new(
                1,
                "no frontmatter: the first line must be '---'",
            ));
        }
        let close = lines.find(|line| {
            let content = text[line.start..line.end].trim_end();
            content == "---" || content == "..."
        });
        drop(lines);
        if let Some(close) = close {
            return Ok(Self {
                yaml: first.next..close.start,
                text,
                newline,
            });
        }
        Err(SyntaxError::new(
            1,
            "frontmatter is not closed by a '---' line",
        ))
    }

    /// The whole file.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn into_text(self) -> String {
        self.text
    }

    /// The YAML between the delimiter lines.
    pub fn yaml(&self) -> &str {
        &self.text[self.yaml.clone()]
    }

    /// Everything after the closing delimiter line.
    pub fn body(&self) -> &str {
        let close = self.yaml.end;
        let after = self.text[close..]
            .find('\n')
            .map_or(self.text.len(), |i| close + i + 1);
        &self.text[after..]
    }

    /// Byte offset in `text()` where the body starts.
    pub fn body_offset(&self) -> usize {
        self.text.len() - self.body().len()
    }

    /// The line break this file uses.
    pub fn newline(&self) -> &'static str {
        self.newline
    }

    /// Parses the frontmatter as a YAML mapping (empty frontmatter is an empty mapping).
    pub fn mapping(&self) -> Result<Mapping, SyntaxError> {
        parse_mapping(self.yaml())
    }

    /// The 1-based file line holding top-level `key`, if present.
    pub fn key_line(&self, key: &str) -> Option<usize> {
        let lines = self.lines();
        lines
            .iter()
            .position(|l| top_level_key(self.line_text(l)) == Some(key))
            .map(|i| i + 2)
    }

    /// Sets top-level `key` to `value`. An existing key is rewritten in place (its
    /// trailing comment and quoting style kept); a new key goes after the first of
    /// `after` that exists, else at the end of the frontmatter.
    pub fn set(&mut self, key: &str, value: &Scalar, after: &[&str]) -> Result<(), SyntaxError> {
        let lines = self.lines();
        let (range, replacement) = match self.extent(&lines, key) {
            Some(extent) => {
                let first = lines[extent.start];
                let line = self.line_text(&first);
                let (value_span, _) = value_span(line, key);
                let old = &line[value_span.clone()];
                let rendered = render(value, old);
                if extent.len() == 1 {
                    let at = first.start + value_span.start..first.start + value_span.end;
                    (at, rendered)
                } else {
                    // A multi-line value becomes one line; its comment goes with it.
                    let end = lines[extent.end - 1].next;
                    let text = format!("{key}: {rendered}{}", self.newline);
                    (first.start..end, text)
                }
            }
            None => {
                let at = after
                    .iter()
                    .find_map(|k| self.extent(&lines, k))
                    .map_or(self.yaml.end, |e| lines[e.end - 1].next);
                let rendered = render(value, "");
                (at..at, format!("{key}: {rendered}{}", self.newline))
            }
        };
        self.replace_checked(range, &replacement, |map| {
            let got = map.get(key);
            let ok = match (value, got) {
                (Scalar::Text(t) | Scalar::Plain(t), Some(Value::String(s))) => s == t,
                (Scalar::Number(n), Some(Value::Number(v))) => {
                    v.as_f64().is_some_and(|v| (v - n).abs() < 0.005)
                }
                (Scalar::Bool(b), Some(Value::Bool(v))) => b == v,
                (Scalar::Int(i), Some(Value::Number(v))) => v.as_i64() == Some(*i),
                (Scalar::List(items), Some(Value::Sequence(seq))) => {
                    seq.len() == items.len()
                        && seq.iter().zip(items).all(|(v, s)| v.as_str() == Some(s))
                }
                _ => false,
            };
            ok.then_some(())
                .ok_or_else(|| format!("'{key}' would not read back as written"))
        })
    }

    /// Removes top-level `key` and its continuation lines. Returns whether it was there.
    pub fn remove(&mut self, key: &str) -> Result<bool, SyntaxError> {
        let lines = self.lines();
        let Some(extent) = self.extent(&lines, key) else {
            return Ok(false);
        };
        let range = lines[extent.start].start..lines[extent.end - 1].next;
        self.replace_checked(range, "", |map| match map.contains_key(key) {
            false => Ok(()),
            true => Err(format!("'{key}' is still present")),
        })?;
        Ok(true)
    }

    /// Replaces a byte range of the body (offsets relative to `body()`).
    pub fn splice_body(&mut self, range: Range<usize>, with: &str) {
        let offset = self.body_offset();
        self.text
            .replace_range(offset + range.start..offset + range.end, with);
    }

    fn replace_checked(
        &mut self,
        range: Range<usize>,
        with: &str,
        check: impl FnOnce(&Mapping) -> Result<(), String>,
    ) -> Result<(), SyntaxError> {
        let mut text = self.text.clone();
        text.replace_range(range.clone(), with);
        let delta = with.len() as isize - range.len() as isize;
        let yaml = self.yaml.start..(self.yaml.end as isize + delta) as usize;
        let map = parse_mapping(&text[yaml.clone()])?;
        check(&map).map_err(|reason| SyntaxError::new(1, reason))?;
        self.text = text;
        self.yaml = yaml;
        Ok(())
    }

    fn lines(&self) -> Vec<Line> {
        line_ranges(&self.text, self.yaml.start)
            .take_while(|l| l.start < self.yaml.end)
            .collect()
    }

    fn line_text(&self, line: &Line) -> &str {
        &self.text[line.start..line.end]
    }

    /// The index range of lines that belong to top-level `key`: its own line plus
    /// indented continuation lines (blank lines only when more continuation follows).
    fn extent(&self, lines: &[Line], key: &str) -> Option<Range<usize>> {
        let first = lines
            .iter()
            .position(|l| top_level_key(self.line_text(l)) == Some(key))?;
        let (span, _) = value_span(self.line_text(&lines[first]), key);
        // A value on the key's own line is the whole value as far as edits go: were it a
        // multi-line scalar, the edit would not read back and is refused, so no line is
        // ever dropped (found by property tests).
        if !span.is_empty() {
            return Some(first..first + 1);
        }
        let empty_value = true;
        let mut end = first + 1;
        let mut probe = first + 1;
        while probe < lines.len() {
            let text = self.line_text(&lines[probe]);
            // A whitespace-only line is blank, not a continuation (found by fuzzing).
            let blank = text.trim().is_empty();
            let continues = !blank
                && (text.starts_with([' ', '\t'])
                    || (empty_value && (text == "-" || text.starts_with("- "))));
            if continues {
                end = probe + 1;
            } else if !text.trim().is_empty() {
                break;
            }
            probe += 1;
        }
        Some(first..end)
    }
}

mod lines;
mod scalar;

#[cfg(test)]
mod tests;
