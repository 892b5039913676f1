//! One item by its id (the path relative to the memory folder, as search returns it) or
//! by its name (the file stem): resolved only inside the memory's item folders, so no
//! id can name a file elsewhere.

use std::path::{Component, Path, PathBuf};

use super::AskError;
use crate::memory::kind::Kind;
use crate::paths::Paths;

/// An item as stored: its id, kind and whole text (frontmatter, lesson and evidence).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Item {
    pub id: String,
    pub kind: &'static str,
    pub text: String,
}

/// The folders an id may point into, with the kind of what they hold.
fn folders(paths: &Paths) -> [(PathBuf, Kind); 5] {
    [
        (paths.personal_instincts(), Kind::Instinct),
        (paths.inherited_instincts(), Kind::Instinct),
        (paths.convictions(), Kind::Conviction),
        (paths.episodes(), Kind::Episode),
        (paths.sessions(), Kind::Session),
    ]
}

/// The file and kind of `id`: a relative path such as `instincts/personal/x.md`, or a
/// bare name such as `x`. Anything that would leave the item folders is refused.
pub fn resolve(paths: &Paths, id: &str) -> Result<(PathBuf, Kind), AskError> {
    let id = id.trim();
    let relative = Path::new(id);
    let plain = !id.is_empty()
        && relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
    if !plain {
        return Err(AskError::Refused(format!(
            "'{id}' is not an item id: give a name or a path inside the memory folder"
        )));
    }
    let candidates: Vec<(PathBuf, Kind)> = if id.contains('/') {
        let file = paths.root.join(relative);
        folders(paths)
            .into_iter()
            .filter(|(dir, _)| file.parent() == Some(dir.as_path()))
            .map(|(_, kind)| (file.clone(), kind))
            .collect()
    } else {
        let name = id.strip_suffix(".md").unwrap_or(id);
        folders(paths)
            .into_iter()
            .map(|(dir, kind)| (dir.join(format!("{name}.md")), kind))
            .collect()
    };
    candidates
        .into_iter()
        .find(|(file, _)| is_regular_file(file))
        .ok_or_else(|| AskError::NotFound(format!("no memory item '{id}'")))
}

/// A plain file, not a link that could lead out of the folder.
fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// The whole item.
pub fn get(paths: &Paths, id: &str) -> Result<Item, AskError> {
    let (file, kind) = resolve(paths, id)?;
    let text = crate::fsutil::read_text(&file).map_err(|e| AskError::NotFound(e.to_string()))?;
    Ok(Item {
        id: paths.relative(&file).display().to_string(),
        kind: kind.name(),
        text: crate::text::strip_ansi(&text).into_owned(),
    })
}
