//! Claude Code's `settings.json`: merging our hook entries in and taking exactly them
//! out again. Every foreign key and hook is kept in place, hooks another copy of the
//! binary registered included; a shape we would have to overwrite (a `hooks` that is
//! not an object) is reported and nothing is written. The file itself: `file.rs`.

mod file;

use std::collections::BTreeSet;
use std::path::Path;

pub use file::{Removal, SettingsFile};

use serde_json::{Map, Value, json};

use crate::agent::hook_event::HookEvent;
use crate::fsutil::PathError;

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error(transparent)]
    Io(#[from] PathError),
    #[error("{path}:{line}: not valid JSON ({reason}); fix it by hand, nothing was written")]
    Malformed {
        path: String,
        line: usize,
        reason: String,
    },
    #[error("{0}: the top level is not a JSON object; nothing was written")]
    NotAnObject(String),
    #[error("{0} is read-only; nothing was written (make it writable, or add the hooks by hand)")]
    ReadOnly(String),
    #[error("{path}: {what}; homunculus will not replace it, nothing was written")]
    Shape { path: String, what: String },
    /// A settings path that leads somewhere we must not write through: a device, a
    /// FIFO, another user's file, a folder, or a chain of links too long to follow.
    #[error(
        "{path}: {why}; homunculus writes only through to a regular file of yours, nothing was written"
    )]
    NotOurs { path: String, why: String },
}

/// A shape of foreign content we would have to overwrite to install.
#[derive(Debug, PartialEq, Eq)]
pub struct ShapeError(pub String);

/// What happened to one event's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Installed,
    Updated,
    Unchanged,
    Removed,
}

/// The shell command Claude Code runs for one of our hooks.
pub fn hook_command(bin: &str, event: &str) -> String {
    format!("{} hook {event}", shell_quote(bin))
}

/// Quotes a path for a POSIX shell when it needs it.
pub fn shell_quote(text: &str) -> String {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// Whose a hook handler's command is.
#[derive(Debug, PartialEq, Eq)]
pub enum Owner {
    /// This binary (by path, by the bare name, or through a symlink).
    Us,
    /// A homunculus path that no longer exists: this install, moved; ours to update.
    Moved,
    /// Another copy of homunculus that exists: its install, not ours.
    OtherCopy(String),
    Foreign,
}

/// Whose `command` is, when this binary is `bin`.
pub fn owner(command: &str, bin: &str) -> Owner {
    let Some(program) = homunculus_program(command, " hook ") else {
        return Owner::Foreign;
    };
    let same_file = || {
        let (a, b) = (
            Path::new(program).canonicalize(),
            Path::new(bin).canonicalize(),
        );
        matches!((a, b), (Ok(a), Ok(b)) if a == b)
    };
    if program == bin || program == "homunculus" || same_file() {
        Owner::Us
    } else if Path::new(program).exists() {
        Owner::OtherCopy(program.to_string())
    } else {
        Owner::Moved
    }
}

/// The program of a `<program> <sub>…` command when it is a homunculus binary.
fn homunculus_program<'a>(command: &'a str, sub: &str) -> Option<&'a str> {
    let (program, _) = command.split_once(sub)?;
    let program = program.trim_matches(['\'', '"']);
    (program == "homunculus" || program.ends_with("/homunculus")).then_some(program)
}

fn ours_or_moved(command: &str, bin: &str) -> bool {
    matches!(owner(command, bin), Owner::Us | Owner::Moved)
}

fn handler_commands(settings: &Map<String, Value>) -> impl Iterator<Item = (&String, &str)> {
    settings
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .flat_map(|(event, groups)| {
            groups
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|g| g.get("hooks")?.as_array())
                .flatten()
                .filter_map(|h| h.get("command")?.as_str())
                .map(move |c| (event, c))
        })
}

/// Other copies of homunculus with hooks registered here: each event would run twice.
pub fn other_copies(settings: &Map<String, Value>, bin: &str) -> BTreeSet<String> {
    handler_commands(settings)
        .filter_map(|(_, command)| match owner(command, bin) {
            Owner::OtherCopy(program) => Some(program),
            _ => None,
        })
        .collect()
}

fn handler(bin: &str, event: &str, timeout: u64) -> Value {
    json!({ "type": "command", "command": hook_command(bin, event), "timeout": timeout })
}

/// Whether our entries can go in without overwriting foreign content: `hooks` must be
/// an object and each of our events in it a list.
pub fn check_shape(settings: &Map<String, Value>) -> Result<(), ShapeError> {
    match settings.get("hooks") {
        None | Some(Value::Object(_)) => {}
        Some(other) => {
            return Err(ShapeError(format!(
                "\"hooks\" is {}, not an object",
                kind_of(other)
            )));
        }
    }
    if let Some(hooks) = settings.get("hooks").and_then(Value::as_object) {
        for hook in HookEvent::ALL {
            if let Some(other) = hooks.get(hook.wire_name()).filter(|v| !v.is_array()) {
                return Err(ShapeError(format!(
                    "\"hooks.{}\" is {}, not a list",
                    hook.wire_name(),
                    kind_of(other)
                )));
            }
        }
    }
    Ok(())
}

/// Adds (or updates) our handler for every event. Foreign groups and handlers stay;
/// a `hooks` that is not an object, or an event that is not a list, is an error and
/// `settings` is left unchanged.
pub fn install(
    settings: &mut Map<String, Value>,
    bin: &str,
) -> Result<Vec<(&'static str, Change)>, ShapeError> {
    install_events(settings, bin, &HookEvent::ALL)
}

/// `install` for the events an agent knows (Codex has no SessionEnd, for one).
pub fn install_events(
    settings: &mut Map<String, Value>,
    bin: &str,
    events: &[HookEvent],
) -> Result<Vec<(&'static str, Change)>, ShapeError> {
    check_shape(settings)?;
    let hooks = settings.entry("hooks").or_insert_with(|| json!({}));
    let hooks = hooks.as_object_mut().expect("check_shape: an object");
    let mut changes = Vec::new();
    for &hook in events {
        let (event, matcher) = (hook.wire_name(), hook.matcher());
        let wanted = handler(bin, hook.cli_name(), hook.timeout_secs());
        let groups = hooks.entry(event).or_insert_with(|| json!([]));
        let groups = groups.as_array_mut().expect("check_shape: a list");
        let mut change = Change::Installed;
        for group in groups.iter_mut() {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                continue;
            };
            for h in handlers.iter_mut() {
                let cmd = h.get("command").and_then(Value::as_str).unwrap_or("");
                if ours_or_moved(cmd, bin) && cmd.ends_with(&format!(" hook {}", hook.cli_name())) {
                    change = if *h == wanted {
                        Change::Unchanged
                    } else {
                        *h = wanted.clone();
                        Change::Updated
                    };
                }
            }
            if change != Change::Installed
                && group.get("matcher").and_then(Value::as_str) != matcher
            {
                match matcher {
                    Some(m) => group["matcher"] = json!(m),
                    None => {
                        if let Some(obj) = group.as_object_mut() {
                            obj.remove("matcher");
                        }
                    }
                }
                change = Change::Updated;
            }
        }
        if change == Change::Installed {
            let mut group = json!({ "hooks": [wanted] });
            if let Some(m) = matcher {
                group["matcher"] = json!(m);
            }
            groups.push(group);
        }
        changes.push((event, change));
    }
    Ok(changes)
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Removes our handlers (and those of this install before it moved); groups and events
/// left empty go too. Returns the events something was removed from.
pub fn uninstall(settings: &mut Map<String, Value>, bin: &str) -> Vec<String> {
    let mut removed = Vec::new();
    let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) else {
        return removed;
    };
    for (event, groups) in hooks.iter_mut() {
        let Some(groups) = groups.as_array_mut() else {
            continue;
        };
        for group in groups.iter_mut() {
            if let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) {
                let before = handlers.len();
                handlers.retain(|h| {
                    !ours_or_moved(h.get("command").and_then(Value::as_str).unwrap_or(""), bin)
                });
                if handlers.len() != before {
                    removed.push(event.clone());
                }
            }
        }
        groups.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|h| !h.is_empty())
        });
    }
    hooks.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
    if hooks.is_empty() {
        settings.remove("hooks");
    }
    removed
}

/// Points the status line at our logger: an existing command is wrapped (ours runs it
/// with the same input and shows its output), a missing one becomes ours. Returns
/// whether anything changed.
pub fn install_statusline(settings: &mut Map<String, Value>, bin: &str) -> bool {
    let ours = format!("{} statusline", shell_quote(bin));
    let current = settings
        .get("statusLine")
        .and_then(|s| s.get("command"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let command = match current {
        Some(c) if is_our_statusline(&c) => return false,
        Some(c) => format!("{ours} --then {}", shell_quote_always(&c)),
        None => ours,
    };
    let line = settings.entry("statusLine").or_insert_with(|| json!({}));
    if !line.is_object() {
        *line = json!({});
    }
    line["type"] = json!("command");
    line["command"] = json!(command);
    true
}

/// Restores the status line init wrapped (or removes ours). Returns whether it changed.
pub fn uninstall_statusline(settings: &mut Map<String, Value>) -> bool {
    let Some(command) = settings
        .get("statusLine")
        .and_then(|s| s.get("command"))
        .and_then(Value::as_str)
        .filter(|c| is_our_statusline(c))
        .map(str::to_string)
    else {
        return false;
    };
    match command
        .split_once(" statusline --then ")
        .map(|(_, rest)| shell_unquote(rest))
    {
        Some(original) => settings["statusLine"]["command"] = json!(original),
        None => {
            settings.remove("statusLine");
        }
    }
    true
}

fn is_our_statusline(command: &str) -> bool {
    homunculus_program(command, " statusline").is_some()
}

fn shell_quote_always(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

fn shell_unquote(text: &str) -> String {
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .unwrap_or(text);
    inner.replace("'\\''", "'")
}

/// The events whose handler is ours and runs `bin`.
pub fn installed_events(settings: &Map<String, Value>, bin: &str) -> Vec<String> {
    HookEvent::ALL
        .iter()
        .filter(|hook| {
            let wanted = hook_command(bin, hook.cli_name());
            handler_commands(settings).any(|(event, command)| {
                event.as_str() == hook.wire_name() && command == wanted.as_str()
            })
        })
        .map(|hook| hook.wire_name().to_string())
        .collect()
}

#[cfg(test)]
mod tests;
