//! The line-level view of a frontmatter block: where each line starts and ends, which
//! top-level key it holds and where that key's value sits, and the YAML parse that
//! names the line of a problem.

use std::ops::Range;

use serde_yaml_ng::{Mapping, Value};

use super::SyntaxError;

/// One line of the YAML region: byte range without and with its line break.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line {
    pub start: usize,
    pub end: usize,
    pub next: usize,
}

pub(super) fn line_ranges(text: &str, from: usize) -> impl Iterator<Item = Line> + '_ {
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
/// The most frontmatter we parse, and the deepest nesting: a hostile or broken file
/// (50,000 nested lists) must not stall `status` or a hook.
const MAX_YAML_BYTES: usize = 256 * 1024;
const MAX_DEPTH: usize = 64;

/// The deepest bracket or indentation nesting of `yaml`, roughly: enough to refuse
/// the pathological before the parser sees it.
fn nesting(yaml: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for c in yaml.chars() {
        match c {
            '[' | '{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let indent = yaml
        .lines()
        .map(|l| l.len() - l.trim_start().len())
        .max()
        .unwrap_or(0);
    deepest.max(indent / 2)
}

/// The file line of a `[` or `{` left open: the parser notices it a line later, where
/// it expected the closing one, but the line to mend is the one that opened it.
fn unclosed_line(yaml: &str, reason: &str, noticed: Option<usize>) -> Option<usize> {
    let (open, close) = if reason.contains("',' or ']'") {
        ('[', ']')
    } else if reason.contains("',' or '}'") {
        ('{', '}')
    } else {
        return None;
    };
    let count = |l: &str, c: char| l.chars().filter(|x| *x == c).count();
    yaml.lines()
        .take(noticed?)
        .enumerate()
        .filter(|(_, l)| count(l, open) > count(l, close))
        .last()
        .map(|(i, _)| i + 2)
}

pub fn parse_mapping(yaml: &str) -> Result<Mapping, SyntaxError> {
    if yaml.trim().is_empty() {
        return Ok(Mapping::new());
    }
    if yaml.len() > MAX_YAML_BYTES {
        return Err(SyntaxError::new(
            2,
            "frontmatter is larger than 256 KiB; not read",
        ));
    }
    if nesting(yaml) > MAX_DEPTH {
        return Err(SyntaxError::new(
            2,
            "frontmatter nests deeper than 64 levels; not read",
        ));
    }
    match serde_yaml_ng::from_str::<Value>(yaml) {
        Ok(Value::Mapping(map)) => Ok(map),
        Ok(Value::Null) => Ok(Mapping::new()),
        Ok(_) => Err(SyntaxError::new(2, "frontmatter is not a mapping of keys")),
        Err(e) => {
            let reason = e.to_string();
            let line = duplicate_key_line(yaml, &reason)
                .or_else(|| unclosed_line(yaml, &reason, e.location().map(|l| l.line())))
                .unwrap_or_else(|| e.location().map_or(2, |l| l.line() + 1));
            // The library appends its own position; ours is in `line`.
            let reason = reason.split(" at line ").next().unwrap_or(&reason);
            Err(SyntaxError::new(line, format!("invalid YAML: {reason}")))
        }
    }
}

/// The parser places a duplicate key at the start of its mapping; point at the
/// second occurrence instead, which is the line to fix.
pub(super) fn duplicate_key_line(yaml: &str, reason: &str) -> Option<usize> {
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
pub(super) fn top_level_key(line: &str) -> Option<&str> {
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
pub(super) fn value_span(line: &str, key: &str) -> (Range<usize>, bool) {
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
