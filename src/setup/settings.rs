//! Claude Code's `settings.json`: merging our hook entries in and taking exactly them
//! out again. Every foreign key and hook is kept in place; the file is replaced
//! atomically, and backed up once before our first change. A file that is not valid
//! JSON is reported and left untouched.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::capture::hook_event::HookEvent;
use crate::fsutil::{self, PathError};

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
}

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

/// Whether a handler's command is one of ours (any install path of the binary).
pub fn is_ours(command: &str) -> bool {
    let Some(at) = command.find(" hook ") else {
        return false;
    };
    let program = command[..at].trim_matches(['\'', '"']);
    program == "homunculus" || program.ends_with("/homunculus")
}

/// Reads settings; a missing file is an empty object.
pub fn read(path: &Path) -> Result<Map<String, Value>, SettingsError> {
    let text = match fsutil::read_text(path) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return Ok(Map::new()),
        Err(e) => return Err(e.into()),
    };
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(SettingsError::NotAnObject(path.display().to_string())),
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

/// Writes settings atomically, backing the original up once (`settings.json.homunculus-backup`).
pub fn write(path: &Path, settings: &Map<String, Value>) -> Result<(), SettingsError> {
    let backup = path.with_extension("json.homunculus-backup");
    if path.exists() && !backup.exists() {
        let original = std::fs::read(path).map_err(|e| PathError::new("read", path, e))?;
        fsutil::atomic_write(&backup, &original)?;
    }
    if let Some(dir) = path.parent() {
        fsutil::create_private_dir(dir)?;
    }
    let mut text = serde_json::to_string_pretty(settings).unwrap_or_else(|_| "{}".into());
    text.push('\n');
    fsutil::atomic_write(path, text.as_bytes())?;
    Ok(())
}

fn handler(bin: &str, event: &str, timeout: u64) -> Value {
    json!({ "type": "command", "command": hook_command(bin, event), "timeout": timeout })
}

/// Adds (or updates) our handler for every event. Foreign groups and handlers stay.
pub fn install(settings: &mut Map<String, Value>, bin: &str) -> Vec<(&'static str, Change)> {
    let hooks = settings.entry("hooks").or_insert_with(|| json!({}));
    if !hooks.is_object() {
        *hooks = json!({});
    }
    let hooks = hooks.as_object_mut().expect("made an object above");
    let mut changes = Vec::new();
    for hook in HookEvent::ALL {
        let (event, matcher) = (hook.wire_name(), hook.matcher());
        let wanted = handler(bin, hook.cli_name(), hook.timeout_secs());
        let groups = hooks.entry(event).or_insert_with(|| json!([]));
        if !groups.is_array() {
            *groups = json!([]);
        }
        let groups = groups.as_array_mut().expect("made an array above");
        let mut change = Change::Installed;
        for group in groups.iter_mut() {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                continue;
            };
            for h in handlers.iter_mut() {
                let cmd = h.get("command").and_then(Value::as_str).unwrap_or("");
                if is_ours(cmd) && cmd.ends_with(&format!(" hook {}", hook.cli_name())) {
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
    changes
}

/// Removes our handlers; groups and events left empty go too. Returns what was removed.
pub fn uninstall(settings: &mut Map<String, Value>) -> Vec<String> {
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
                handlers
                    .retain(|h| !is_ours(h.get("command").and_then(Value::as_str).unwrap_or("")));
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
    command
        .split_once(" statusline")
        .is_some_and(|(program, _)| {
            let program = program.trim_matches(['\'', '"']);
            program == "homunculus" || program.ends_with("/homunculus")
        })
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
    let mut out = Vec::new();
    let Some(hooks) = settings.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for hook in HookEvent::ALL {
        let (event, wanted) = (hook.wire_name(), hook_command(bin, hook.cli_name()));
        let found = hooks
            .get(event)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|g| g.get("hooks")?.as_array())
            .flatten()
            .any(|h| h.get("command").and_then(Value::as_str) == Some(wanted.as_str()));
        if found {
            out.push(event.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests;
