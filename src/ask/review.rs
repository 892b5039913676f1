//! The review of what was learned: accept an instinct (the user vouches for it:
//! `confirmed_by: user`), or edit its trigger and action in place. Rejecting is
//! `forget`. Every change is a lossless edit of the lines it must change.

use std::path::PathBuf;

use super::AskError;
use crate::memory::kind::Kind;
use crate::memory::{Scalar, Store};
use crate::paths::Paths;

/// Marks an instinct as accepted by the user; whether anything changed.
pub fn accept(paths: &Paths, id: &str) -> Result<(PathBuf, bool), AskError> {
    let path = instinct(paths, id)?;
    let changed = Store::new(paths).edit(&path, |file| {
        let already = file
            .text()
            .lines()
            .any(|l| l.trim() == "confirmed_by: user");
        if !already {
            file.set(
                "confirmed_by",
                &Scalar::Plain("user".into()),
                &["last_seen"],
            )?;
        }
        Ok(!already)
    })?;
    Ok((path, changed))
}

/// Rewrites an instinct's trigger and action as the user typed them; refused when the
/// action advises something destructive (the rule holds for the user's words too).
pub fn edit(
    paths: &Paths,
    id: &str,
    trigger: &str,
    action: &str,
) -> Result<(PathBuf, bool), AskError> {
    let (trigger, action) = (trigger.trim(), action.trim());
    if trigger.is_empty() || action.is_empty() {
        return Err(AskError::Refused(
            "a trigger and an action are both needed".into(),
        ));
    }
    if let Some(why) = crate::observer::safety::refuse(trigger, action) {
        return Err(AskError::Refused(format!("the action {why}")));
    }
    let path = instinct(paths, id)?;
    let changed = Store::new(paths).edit(&path, |file| {
        let before = file.text().to_string();
        file.set("trigger", &Scalar::Text(trigger.into()), &[])?;
        file.set("action", &Scalar::Text(action.into()), &["trigger"])?;
        file.set(
            "confirmed_by",
            &Scalar::Plain("user".into()),
            &["last_seen"],
        )?;
        Ok(file.text() != before)
    })?;
    Ok((path, changed))
}

fn instinct(paths: &Paths, id: &str) -> Result<PathBuf, AskError> {
    match super::item::resolve(paths, id)? {
        (path, Kind::Instinct) => Ok(path),
        (_, kind) => Err(AskError::Refused(format!(
            "'{id}' is a {}: only instincts are accepted or edited",
            kind.name()
        ))),
    }
}
