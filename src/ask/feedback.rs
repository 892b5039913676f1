//! A verdict on one instinct (wrong, weak, strong: only its confidence and last_seen
//! lines change, plus one evidence bullet), or "not now" on any item for the rest of a
//! session (its file untouched).

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::AskError;
use crate::memory::confidence::Feedback;
use crate::memory::kind::Kind;
use crate::memory::{Instinct, Origin, Scalar, Store, memo};
use crate::paths::Paths;
use crate::time::day;

/// What a verdict did to an instinct.
#[derive(Debug, Clone)]
pub struct Judged {
    pub name: String,
    pub path: PathBuf,
    /// The stored confidence and the weight (`status`'s "now") before the verdict.
    pub stored: f64,
    pub before: f64,
    pub after: f64,
    /// Whether the verdict counts as a sighting now (strong does).
    pub seen_now: bool,
}

/// The word a verdict is spelt with.
pub fn word(kind: Feedback) -> &'static str {
    match kind {
        Feedback::Wrong => "wrong",
        Feedback::Weak => "weak",
        Feedback::Strong => "strong",
    }
}

/// Applies `kind` to the instinct named (or with the id) `name`.
pub fn judge(
    paths: &Paths,
    name: &str,
    kind: Feedback,
    now: DateTime<Utc>,
) -> Result<Judged, AskError> {
    let store = Store::new(paths);
    let path = instinct(paths, &store, name)?;
    let origin = if path.starts_with(paths.inherited_instincts()) {
        Origin::Inherited
    } else {
        Origin::Personal
    };
    let word = word(kind);
    let judged = store.edit(&path, |file| {
        let instinct = Instinct::from_document(&path, origin, file.doc())?;
        if instinct.retired {
            return Err(crate::memory::Error::Refused {
                path: path.clone(),
                reason: format!(
                    "'{}' is forgotten (`retired: true`): nothing recalls it; take that line out of its file to bring it back first",
                    instinct.name
                ),
            });
        }
        let state = instinct.state(now);
        let before = instinct.weight(now);
        let update = state.feedback(kind, now, instinct.floor());
        file.set_state(instinct.last_seen, &update)?;
        let confirmed = kind == Feedback::Strong;
        if confirmed {
            // The user vouched for it: shown as confirmed, whoever's words it holds.
            file.set(
                "confirmed_by",
                &Scalar::Plain("user".into()),
                &["last_seen"],
            )?;
        } else {
            // A later doubt takes back an earlier word for it, or `weak` could not
            // lower what the user once vouched for.
            file.remove("confirmed_by")?;
        }
        // What it weighs after, as `status` will show it.
        let sessions = instinct.sessions.unwrap_or(0);
        let after = crate::memory::confidence::weight_floor(update.confidence, sessions, confirmed)
            .max(update.confidence);
        let bullet = format!("{}: feedback {word} ({before:.2} → {after:.2})", day(now));
        file.append_bullet("Evidence", &bullet);
        Ok(Judged {
            name: instinct.name.clone(),
            path: path.clone(),
            stored: instinct.confidence,
            before,
            after,
            seen_now: update.last_seen == now,
        })
    })?;
    Ok(judged)
}

/// The instinct `name` stands for: a name, or an id that resolves to an instinct.
fn instinct(paths: &Paths, store: &Store, name: &str) -> Result<PathBuf, AskError> {
    if let Some(path) = store.instinct_path(name) {
        return Ok(path);
    }
    match super::item::resolve(paths, name) {
        Ok((path, Kind::Instinct)) => Ok(path),
        Ok((_, kind)) => Err(AskError::Refused(format!(
            "'{name}' is a{} {}: wrong, weak and strong judge instincts; use mute or forget",
            if kind == Kind::Episode { "n" } else { "" },
            kind.name()
        ))),
        Err(_) => Err(AskError::NotFound(unknown_name(store, name))),
    }
}

/// "Not now": the item counts as already injected for the rest of `session` (the
/// newest one when `None`), for prompt recall and path triggers alike. Returns the
/// session.
pub fn mute(paths: &Paths, id: &str, session: Option<&str>) -> Result<String, AskError> {
    let (path, _) = super::item::resolve(paths, id)?;
    let session = match session {
        Some(s) => crate::agent::payload::safe_session_id(s),
        None => latest_session(paths)?,
    };
    let id = paths.relative(&path).display().to_string();
    memo::update(paths, &session, |m| {
        for list in [&mut m.injected, &mut m.path_fired] {
            if !list.contains(&id) {
                list.push(id.clone());
            }
        }
    })
    .map_err(|e| AskError::Refused(e.to_string()))?;
    Ok(session)
}

/// The session whose hook state changed last.
fn latest_session(paths: &Paths) -> Result<String, AskError> {
    let dir = paths.root.join("state/sessions");
    let newest = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max();
    match newest {
        Some((_, path)) => Ok(crate::memory::stem(&path)),
        None => Err(AskError::NotFound(
            "no session has started yet; name one with --session".into(),
        )),
    }
}

/// The message for an unknown name, with the closest existing names.
pub fn unknown_name(store: &Store, name: &str) -> String {
    let names = store.instinct_names().unwrap_or_default();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut close = similar::get_close_matches(name, &refs, 3, 0.5);
    if close.is_empty() {
        close = refs
            .iter()
            .copied()
            .filter(|n| n.contains(name) || name.contains(*n))
            .take(3)
            .collect();
    }
    match (close.is_empty(), names.is_empty()) {
        (_, true) => format!("no instinct named '{name}' (there are no instincts yet)"),
        (true, false) => {
            format!("no instinct named '{name}'; run `homunculus status` to list them")
        }
        (false, false) => format!(
            "no instinct named '{name}'; did you mean: {}?",
            close.join(", ")
        ),
    }
}
