//! `settings.json` as a file the user owns: read keeping what a JSON round trip would
//! lose (numbers serde_json cannot spell back, indentation, the final newline), written
//! through a symlink to its target, refused when read-only, and given back byte for byte
//! when an uninstall leaves it as it was before init.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use super::SettingsError;
use crate::fsutil::{self, PathError};

/// Stands in for a number serde_json would rewrite (`1e3`, `123456789012345678901234`):
/// a private-use character no settings file contains, then the number's index.
const NUMBER_MARK: char = '\u{F8FF}';

/// One settings file as read: where it lives and how it was written.
#[derive(Debug)]
pub struct SettingsFile {
    /// The path Claude Code reads (may be a symlink).
    pub path: PathBuf,
    /// Where the bytes live: `path` with symlinks followed.
    target: PathBuf,
    /// The bytes as read; `None` when there was no file.
    original: Option<Vec<u8>>,
    style: Style,
    /// Number literals kept verbatim, in the order their stand-ins were numbered.
    numbers: Vec<String>,
}

#[derive(Debug, Clone)]
struct Style {
    /// `None`: the file was on one line.
    indent: Option<String>,
    final_newline: bool,
}

/// What `save_after_removal` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Removal {
    /// The file is again the bytes it had before init; the backup went.
    Restored,
    /// Nothing but what init added was in it and there was no file before: it went.
    Deleted,
    Written,
}

impl SettingsFile {
    /// Reads settings; a missing or blank file is an empty object.
    pub fn open(path: &Path) -> Result<(Self, Map<String, Value>), SettingsError> {
        let target = resolve_links(path).ok_or_else(|| SettingsError::NotOurs {
            path: path.display().to_string(),
            why: "a chain of more than 32 symbolic links".into(),
        })?;
        refuse_foreign(path, &target)?;
        let original = match std::fs::read(&target) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(PathError::new("read", path, e).into()),
        };
        let text = match &original {
            Some(bytes) => {
                String::from_utf8(bytes.clone()).map_err(|_| SettingsError::Malformed {
                    path: path.display().to_string(),
                    line: 1,
                    reason: "not UTF-8".into(),
                })?
            }
            None => String::new(),
        };
        let (map, numbers) = parse(path, &text)?;
        let file = Self {
            path: path.to_path_buf(),
            target,
            original,
            style: Style::of(&text),
            numbers,
        };
        Ok((file, map))
    }

    /// Writes `settings` in the file's own style, backing the original up once
    /// (`settings.json.homunculus-backup`, beside the path Claude Code reads).
    pub fn save(&self, settings: &Map<String, Value>) -> Result<(), SettingsError> {
        self.refuse_read_only()?;
        let backup = self.backup_path();
        if let Some(original) = &self.original
            && !backup.exists()
        {
            fsutil::atomic_write(&backup, original)?;
        }
        if let Some(dir) = self.target.parent() {
            fsutil::create_private_dir(dir)?;
        }
        fsutil::atomic_write(&self.target, self.render(settings).as_bytes())?;
        Ok(())
    }

    /// Writes what is left after our entries were taken out: the backup's bytes when
    /// that is what is left, no file when nothing is left and there was none.
    pub fn save_after_removal(
        &self,
        settings: &Map<String, Value>,
    ) -> Result<Removal, SettingsError> {
        self.refuse_read_only()?;
        let backup = self.backup_path();
        match std::fs::read(&backup) {
            Ok(bytes) => {
                let before = String::from_utf8(bytes.clone())
                    .ok()
                    .and_then(|text| parse(&backup, &text).ok());
                if before.is_some_and(|(map, numbers)| map == *settings && numbers == self.numbers)
                {
                    fsutil::atomic_write(&self.target, &bytes)?;
                    std::fs::remove_file(&backup)
                        .map_err(|e| PathError::new("remove", &backup, e))?;
                    return Ok(Removal::Restored);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && settings.is_empty() => {
                std::fs::remove_file(&self.target)
                    .map_err(|e| PathError::new("remove", &self.target, e))?;
                return Ok(Removal::Deleted);
            }
            Err(_) => {}
        }
        self.save(settings)?;
        Ok(Removal::Written)
    }

    pub fn backup_path(&self) -> PathBuf {
        self.path.with_extension("json.homunculus-backup")
    }

    pub fn refuse_read_only(&self) -> Result<(), SettingsError> {
        if self.original.is_some() && !writable(&self.target) {
            return Err(SettingsError::ReadOnly(self.path.display().to_string()));
        }
        Ok(())
    }

    fn render(&self, settings: &Map<String, Value>) -> String {
        let mut text = match &self.style.indent {
            Some(indent) => {
                let mut out = Vec::new();
                let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
                let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
                match settings.serialize(&mut ser) {
                    Ok(()) => String::from_utf8(out).unwrap_or_default(),
                    Err(_) => "{}".into(),
                }
            }
            None => serde_json::to_string(settings).unwrap_or_else(|_| "{}".into()),
        };
        for (i, number) in self.numbers.iter().enumerate() {
            text = text.replace(&format!("\"{}\"", stand_in(i)), number);
        }
        if self.style.final_newline {
            text.push('\n');
        }
        text
    }
}

impl Style {
    fn of(text: &str) -> Self {
        if text.trim().is_empty() {
            return Self {
                indent: Some("  ".into()),
                final_newline: true,
            };
        }
        let indent = text.trim_end().contains('\n').then(|| {
            text.lines()
                .skip(1)
                .map(|line| &line[..line.len() - line.trim_start().len()])
                .find(|lead| !lead.is_empty())
                .unwrap_or("  ")
                .to_string()
        });
        Self {
            indent,
            final_newline: text.ends_with('\n'),
        }
    }
}

fn stand_in(index: usize) -> String {
    format!("{NUMBER_MARK}homunculus-number-{index}{NUMBER_MARK}")
}

/// Parses settings, numbers serde_json would rewrite replaced by stand-ins first.
fn parse(path: &Path, text: &str) -> Result<(Map<String, Value>, Vec<String>), SettingsError> {
    if text.trim().is_empty() {
        return Ok((Map::new(), Vec::new()));
    }
    let (protected, numbers) = protect_numbers(text);
    match serde_json::from_str::<Value>(&protected) {
        Ok(Value::Object(map)) => Ok((map, numbers)),
        Ok(_) => Err(SettingsError::NotAnObject(path.display().to_string())),
        // Stand-ins never span lines, so the line is the original's.
        Err(e) => Err(SettingsError::Malformed {
            path: path.display().to_string(),
            line: e.line(),
            reason: e
                .to_string()
                .split(" at line ")
                .next()
                .unwrap_or("")
                .to_string(),
        }),
    }
}

/// Replaces every number literal (outside strings) whose serde_json spelling differs
/// from the file's by a quoted stand-in, returning the literals in stand-in order.
fn protect_numbers(text: &str) -> (String, Vec<String>) {
    if text.contains(NUMBER_MARK) {
        return (text.to_string(), Vec::new());
    }
    let mut out = String::with_capacity(text.len());
    let mut numbers = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '-' || c.is_ascii_digit() {
            let mut end = at + c.len_utf8();
            while let Some(&(i, d)) = chars.peek() {
                if !(d.is_ascii_digit() || "+-.eE".contains(d)) {
                    break;
                }
                end = i + d.len_utf8();
                chars.next();
            }
            let literal = &text[at..end];
            let spelled_back = serde_json::from_str::<serde_json::Number>(literal)
                .is_ok_and(|n| n.to_string() == literal);
            if spelled_back {
                out.push_str(literal);
            } else {
                out.push('"');
                out.push_str(&stand_in(numbers.len()));
                out.push('"');
                numbers.push(literal.to_string());
            }
            continue;
        }
        in_string = c == '"';
        out.push(c);
    }
    (out, numbers)
}

/// Follows symlinks (a dotfiles setup links `settings.json` into a repository) so the
/// atomic replace happens at the target and the link stays a link.
/// Where `path` leads through its symbolic links; `None` past 32 of them (the kernel's
/// own limit is 40: we stop earlier rather than cut a chain in the middle).
fn resolve_links(path: &Path) -> Option<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..=32 {
        match std::fs::read_link(&current) {
            Ok(next) => {
                current = match current.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                }
            }
            Err(_) => return Some(current),
        }
    }
    None
}

/// Refuses a target that is not a regular file of the user's (when it exists): writing
/// through would replace a device or hang on a FIFO, and another user's file would
/// become ours.
fn refuse_foreign(path: &Path, target: &Path) -> Result<(), SettingsError> {
    use std::os::unix::fs::MetadataExt;
    let Ok(meta) = std::fs::metadata(target) else {
        return Ok(());
    };
    let why = if !meta.is_file() {
        Some(format!("{} is not a regular file", target.display()))
    } else {
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        (meta.uid() != me).then(|| format!("{} belongs to another user", target.display()))
    };
    match why {
        Some(why) => Err(SettingsError::NotOurs {
            path: path.display().to_string(),
            why,
        }),
        None => Ok(()),
    }
}

/// Whether we may write `path`: it has a write bit (root passes `access` for any file,
/// but a file made read-only on purpose stays so) and `access` allows it.
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    if std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
        return false;
    }
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c_path` is a valid NUL-terminated string that outlives the call.
    unsafe { libc::access(c_path.as_ptr(), libc::W_OK) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_serde_json_would_rewrite_are_kept_verbatim() {
        let text = "{\"a\": 1e3, \"b\": 123456789012345678901234, \"c\": 10, \"d\": \"1e3\", \"e\": -0.50}";
        let (protected, numbers) = protect_numbers(text);
        assert_eq!(numbers, ["1e3", "123456789012345678901234", "-0.50"]);
        assert!(protected.contains("\"c\": 10") && protected.contains("\"d\": \"1e3\""));
    }

    #[test]
    fn style_follows_the_file() {
        assert_eq!(Style::of("{\n\t\"a\": 1\n}").indent.as_deref(), Some("\t"));
        assert_eq!(
            Style::of("{\n    \"a\": 1\n}\n").indent.as_deref(),
            Some("    ")
        );
        assert_eq!(Style::of("{\"a\": 1}").indent, None);
        assert!(!Style::of("{\"a\": 1}").final_newline);
    }
}
