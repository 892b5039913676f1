//! Markdown documents with a YAML frontmatter: split, parse, and edit single keys
//! losslessly. An edit rewrites only the lines of the key it changes; other keys, their
//! order, comments, quoting and the body stay byte-for-byte. Every edit is read back
//! through the YAML parser before it is accepted, so a change can never corrupt a file.

use std::ops::Range;

use serde_yaml_ng::{Mapping, Value};

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

/// A value the program writes into a frontmatter key.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// Text; written plain when safe and the old value was plain, else quoted. In a new
    /// file, always quoted.
    Text(String),
    /// A word (a domain, a date, an enum value): written plain whenever that reads back
    /// as the same string.
    Plain(String),
    /// A confidence and the like: always two decimals.
    Number(f64),
    /// A count.
    Int(i64),
    Bool(bool),
    /// A list of strings, written inline as `["a", "b"]`.
    List(Vec<String>),
}

/// A parsed markdown file: its full text and where the YAML sits in it.
#[derive(Debug, Clone)]
pub struct Document {
    text: String,
    yaml: Range<usize>,
    newline: &'static str,
}

/// One line of the YAML region: byte range without and with its line break.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    next: usize,
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

fn line_ranges(text: &str, from: usize) -> impl Iterator<Item = Line> + '_ {
    let mut pos = from;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let start = pos;
        let (end, next) = match text[start..].find('\n') {
            Some(i) => {
                let nl = start + i;
                let end = if nl > start && text.as_bytes()[nl - 1] == b'\r' {
                    nl - 1
                } else {
                    nl
                };
                (end, nl + 1)
            }
            None => (text.len(), text.len()),
        };
        pos = next;
        Some(Line { start, end, next })
    })
}

/// Parses YAML text that must be a mapping; errors carry file lines (the YAML starts on
/// line 2 of the file).
pub fn parse_mapping(yaml: &str) -> Result<Mapping, SyntaxError> {
    if yaml.trim().is_empty() {
        return Ok(Mapping::new());
    }
    match serde_yaml_ng::from_str::<Value>(yaml) {
        Ok(Value::Mapping(map)) => Ok(map),
        Ok(Value::Null) => Ok(Mapping::new()),
        Ok(_) => Err(SyntaxError::new(2, "frontmatter is not a mapping of keys")),
        Err(e) => {
            let reason = e.to_string();
            let line = duplicate_key_line(yaml, &reason)
                .unwrap_or_else(|| e.location().map_or(2, |l| l.line() + 1));
            // The library appends its own position; ours is in `line`.
            let reason = reason.split(" at line ").next().unwrap_or(&reason);
            Err(SyntaxError::new(line, format!("invalid YAML: {reason}")))
        }
    }
}

/// The parser places a duplicate key at the start of its mapping; point at the
/// second occurrence instead, which is the line to fix.
fn duplicate_key_line(yaml: &str, reason: &str) -> Option<usize> {
    let key = reason
        .split("duplicate entry with key \"")
        .nth(1)?
        .split('"')
        .next()?;
    yaml.lines()
        .enumerate()
        .filter(|(_, l)| top_level_key(l) == Some(key))
        .nth(1)
        .map(|(i, _)| i + 2)
}

/// The key of a top-level `key: value` line, if it is one.
fn top_level_key(line: &str) -> Option<&str> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    let valid = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !key.starts_with('-');
    let rest = &line[colon + 1..];
    (valid && (rest.is_empty() || rest.starts_with([' ', '\t']))).then_some(key)
}

/// The byte span of the value on a `key: value` line, and whether it was quoted.
fn value_span(line: &str, key: &str) -> (Range<usize>, bool) {
    let after_colon = key.len() + 1;
    let rest = &line[after_colon..];
    let start = after_colon + (rest.len() - rest.trim_start().len());
    let value = &line[start..];
    let bytes = value.as_bytes();
    let end = match bytes.first() {
        Some(b'"') => {
            let mut i = 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            return (start..start + (i + 1).min(bytes.len()), true);
        }
        Some(b'\'') => {
            let mut i = 1;
            while i < bytes.len() {
                if bytes[i] == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            return (start..start + (i + 1).min(bytes.len()), true);
        }
        _ => {
            let comment = [" #", "\t#"]
                .iter()
                .filter_map(|p| value.find(p))
                .min()
                .unwrap_or(value.len());
            value[..comment].trim_end().len()
        }
    };
    (start..start + end, false)
}

/// Renders a value, following the quoting style of the value it replaces.
fn render(value: &Scalar, old: &str) -> String {
    match value {
        Scalar::Number(n) => format!("{n:.2}"),
        Scalar::Int(i) => i.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::List(items) => {
            let quoted: Vec<String> = items.iter().map(|s| quote_double(s)).collect();
            format!("[{}]", quoted.join(", "))
        }
        Scalar::Plain(text) if is_plain_safe(text) && !old.starts_with(['"', '\'']) => text.clone(),
        Scalar::Text(text) | Scalar::Plain(text) => {
            if old.starts_with('\'') {
                format!("'{}'", text.replace('\'', "''"))
            } else if old.starts_with('"') || !is_plain_safe(text) {
                quote_double(text)
            } else {
                text.clone()
            }
        }
    }
}

/// The frontmatter of a new file: `fields` in order, text quoted, words plain.
pub fn render_new(fields: &[(&str, Scalar)]) -> String {
    let mut out = String::from("---\n");
    for (key, value) in fields {
        let fresh = match value {
            Scalar::Text(_) => render(value, "\""),
            _ => render(value, ""),
        };
        out.push_str(&format!("{key}: {fresh}\n"));
    }
    out.push_str("---\n");
    out
}

/// A YAML double-quoted string (JSON escaping is valid YAML).
pub fn quote_double(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

/// Whether `text` reads back as the same string when written without quotes.
fn is_plain_safe(text: &str) -> bool {
    let Some(first) = text.chars().next() else {
        return false;
    };
    let lowered = text.to_ascii_lowercase();
    let special_word = matches!(
        lowered.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
    );
    (first.is_ascii_alphanumeric() || first == '/' || first == '.')
        && !special_word
        && text.parse::<f64>().is_err()
        && !text.ends_with([':', ' '])
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.contains(['\n', '\r', '\t', '"', '\'', '{', '}', '[', ']', ',', '`'])
}

#[cfg(test)]
mod tests;
