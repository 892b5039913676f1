//! Project keys: two unrelated repositories with the same folder name are two projects.
//! A project is named by its folder (`ledger`, a worktree by its main repository's);
//! `state/projects.json` records, per name, the repositories this machine has seen under
//! it, each with its key, its roots and its `origin` remote. A repository is known by its
//! remote (every clone is one project) or else by its root; the first under a name keeps
//! the plain name, another one gets the name and a short hash (`ledger-3f2a`). A remote
//! added to a known root keeps its key, and so does a folder moved away from a root that
//! is gone. The file is this machine's (paths mean nothing elsewhere), so on another
//! machine the first repository of a name is again the plain name, as it always was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::agent::project::Project;
use crate::lock::{LockError, LockName};
use crate::paths::Paths;

/// How long a hook waits for another process's registration.
const WAIT: Duration = Duration::from_millis(30);

/// `state/projects.json`: per folder name, the repositories seen under it.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
struct Registry {
    #[serde(default)]
    projects: BTreeMap<String, Vec<Entry>>,
}

/// One repository and its key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Entry {
    key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    remote: Option<String>,
    #[serde(default)]
    roots: Vec<String>,
}

/// What is known of a repository from where the agent works.
struct Seen {
    root: String,
    remote: Option<String>,
}

impl Entry {
    /// The same repository: the same remote, or, where one side has none, a root of it.
    fn is(&self, seen: &Seen) -> bool {
        match (&self.remote, &seen.remote) {
            (Some(a), Some(b)) => a == b,
            _ => self.roots.contains(&seen.root),
        }
    }

    /// A repository without a remote whose every root is gone from this machine: moved,
    /// or recorded elsewhere (replayed history).
    fn moved_away(&self) -> bool {
        self.remote.is_none()
            && self.roots.iter().all(|r| {
                let path = Path::new(r);
                !(path.is_absolute() && path.exists())
            })
    }
}

/// `project` under its key, registered when new. When the registry cannot be written (a
/// busy lock, a read-only folder): the plain name for a name nobody holds, else the key
/// another repository under it gets (never someone else's memories).
pub fn keyed(paths: &Paths, project: Project) -> Project {
    let seen = seen(&project.root);
    let known: Registry = crate::fsutil::read_json_or_default(&paths.projects());
    let entries = known.projects.get(&project.name);
    if let Some(e) = entries.and_then(|es| {
        es.iter()
            .find(|e| e.remote == seen.remote && e.roots.contains(&seen.root))
    }) {
        return Project {
            name: e.key.clone(),
            ..project
        };
    }
    let name = match register(paths, &project.name, &seen) {
        Ok(key) => key,
        Err(_) if entries.is_some_and(|es| !es.is_empty()) => other_key(&project.name, &seen),
        Err(_) => project.name.clone(),
    };
    Project { name, ..project }
}

/// `project` under its key, without registering anything (for read-only commands).
pub fn looked_up(paths: &Paths, project: Project) -> Project {
    let seen = seen(&project.root);
    let known: Registry = crate::fsutil::read_json_or_default(&paths.projects());
    let key = known
        .projects
        .get(&project.name)
        .and_then(|es| es.iter().find(|e| e.is(&seen)))
        .map(|e| e.key.clone());
    match key {
        Some(name) => Project { name, ..project },
        None => project,
    }
}

fn register(paths: &Paths, name: &str, seen: &Seen) -> Result<String, LockError> {
    let lock = paths.lock(&LockName::Projects);
    crate::lock::update_json(&lock, &paths.projects(), WAIT, |r: &mut Registry| {
        let entries = r.projects.entry(name.to_string()).or_default();
        let at = entries
            .iter()
            .position(|e| e.is(seen))
            // A folder moved here from a root that is gone keeps its key.
            .or_else(|| entries.iter().position(Entry::moved_away));
        match at {
            Some(at) => {
                let e = &mut entries[at];
                if !e.roots.contains(&seen.root) {
                    e.roots.push(seen.root.clone());
                }
                // A remote added to a known root: the same repository, now by its remote.
                if e.remote.is_none() {
                    e.remote.clone_from(&seen.remote);
                }
                e.key.clone()
            }
            None => {
                let key = if entries.is_empty() {
                    name.to_string()
                } else {
                    other_key(name, seen)
                };
                entries.push(Entry {
                    key: key.clone(),
                    remote: seen.remote.clone(),
                    roots: vec![seen.root.clone()],
                });
                key
            }
        }
    })
}

/// The key of a repository that is not the first under its name.
fn other_key(name: &str, seen: &Seen) -> String {
    let identity = seen.remote.as_deref().unwrap_or(&seen.root);
    format!(
        "{name}-{:04x}",
        crate::text::fnv1a(identity.as_bytes()) & 0xffff
    )
}

/// The repository of `root` (a worktree's main repository): its root as text (Windows
/// paths without case) and its `origin` remote.
fn seen(root: &Path) -> Seen {
    let main: PathBuf =
        crate::agent::project::main_repository(root).unwrap_or_else(|| root.to_path_buf());
    let text = main.display().to_string();
    let root = if text.contains(":\\") {
        text.to_lowercase()
    } else {
        text
    };
    Seen {
        root,
        remote: origin_of(&main),
    }
}

/// The `origin` remote of the repository at `root`, normalised: `github.com/me/ledger`.
fn origin_of(root: &Path) -> Option<String> {
    let text = crate::fsutil::read_text(&root.join(".git").join("config")).ok()?;
    let mut in_origin = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_origin = line == "[remote \"origin\"]";
        } else if in_origin && let Some(url) = line.strip_prefix("url") {
            return Some(normalized(url.trim_start().strip_prefix('=')?.trim()));
        }
    }
    None
}

/// `git@github.com:me/ledger.git`, `https://me@github.com/me/ledger` → `github.com/me/ledger`
/// (lower case: hosts ignore it, and so do GitHub's and GitLab's paths).
fn normalized(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((_, rest)) => (true, rest),
        None => (false, url),
    };
    // The user part ends at the first `@` before the path.
    let path_start = rest.find('/').unwrap_or(rest.len());
    let rest = match rest[..path_start]
        .rfind('@')
        .or_else(|| (!scheme).then(|| rest.find('@')).flatten())
    {
        Some(at) => &rest[at + 1..],
        None => rest,
    };
    // `host:path` (scp form) without a scheme; `host:port/path` with one.
    let rest = if scheme {
        rest.to_string()
    } else {
        rest.replacen(':', "/", 1)
    };
    let (host, path) = rest.split_once('/').unwrap_or((&rest, ""));
    let host = host.split(':').next().unwrap_or(host);
    let path = path.trim_end_matches('/').trim_end_matches(".git");
    format!("{host}/{path}").to_lowercase()
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up files directly
mod tests {
    use super::*;

    fn repo(dir: &Path, origin: Option<&str>) -> Project {
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        if let Some(url) = origin {
            set_origin(dir, url);
        }
        crate::agent::project::of(&dir.to_string_lossy()).unwrap()
    }

    fn set_origin(dir: &Path, url: &str) {
        std::fs::write(
            dir.join(".git/config"),
            format!("[core]\n\tbare = false\n[remote \"origin\"]\n\turl = {url}\n"),
        )
        .unwrap();
    }

    #[test]
    fn same_name_other_repository_is_another_project() {
        let memory = crate::testutil::Memory::new();
        let dir = tempfile::tempdir().unwrap();
        let paths = &memory.paths;
        let first = repo(&dir.path().join("a/app"), None);
        let second = repo(&dir.path().join("b/app"), None);
        assert_eq!(keyed(paths, first.clone()).name, "app");
        let other = keyed(paths, second.clone()).name;
        assert!(other.starts_with("app-") && other.len() == 8, "{other}");
        // Stable, and the same answer read-only.
        assert_eq!(keyed(paths, first).name, "app");
        assert_eq!(keyed(paths, second.clone()).name, other);
        assert_eq!(looked_up(paths, second).name, other);
    }

    #[test]
    fn clones_of_one_remote_are_one_project_and_adding_a_remote_keeps_the_key() {
        let memory = crate::testutil::Memory::new();
        let dir = tempfile::tempdir().unwrap();
        let paths = &memory.paths;
        let a = repo(&dir.path().join("a/api"), None);
        assert_eq!(keyed(paths, a.clone()).name, "api");
        set_origin(&dir.path().join("a/api"), "git@github.com:Me/API.git");
        assert_eq!(keyed(paths, a).name, "api", "a remote added later");
        let b = repo(
            &dir.path().join("b/api"),
            Some("https://me@github.com/me/api"),
        );
        assert_eq!(keyed(paths, b).name, "api", "another clone");
        let c = repo(
            &dir.path().join("c/api"),
            Some("git@gitlab.com:other/api.git"),
        );
        assert_ne!(keyed(paths, c).name, "api", "another repository");
    }

    #[test]
    fn a_moved_folder_keeps_its_key_for_good() {
        let memory = crate::testutil::Memory::new();
        let dir = tempfile::tempdir().unwrap();
        let paths = &memory.paths;
        let live = repo(&dir.path().join("live/tool"), None);
        let old = repo(&dir.path().join("old/tool"), None);
        assert_eq!(keyed(paths, live.clone()).name, "tool");
        let old_key = keyed(paths, old).name;
        std::fs::remove_dir_all(dir.path().join("old")).unwrap();
        let moved = repo(&dir.path().join("new/tool"), None);
        for _ in 0..3 {
            assert_eq!(
                keyed(paths, moved.clone()).name,
                old_key,
                "the moved folder keeps its key"
            );
        }
        assert_eq!(keyed(paths, live).name, "tool");
    }

    #[test]
    fn a_worktree_is_its_main_repository() {
        let memory = crate::testutil::Memory::new();
        let dir = tempfile::tempdir().unwrap();
        let paths = &memory.paths;
        let main = repo(&dir.path().join("src/app"), None);
        assert_eq!(keyed(paths, main).name, "app");
        let other = repo(&dir.path().join("elsewhere/app"), None);
        assert_ne!(keyed(paths, other).name, "app");
        let tree = dir.path().join("trees/feature");
        std::fs::create_dir_all(&tree).unwrap();
        std::fs::write(
            tree.join(".git"),
            format!(
                "gitdir: {}/src/app/.git/worktrees/feature\n",
                dir.path().display()
            ),
        )
        .unwrap();
        let worktree = crate::agent::project::of(&tree.to_string_lossy()).unwrap();
        assert_eq!(keyed(paths, worktree).name, "app");
    }

    #[test]
    fn a_windows_path_ignores_case() {
        let upper = seen(Path::new("C:\\Users\\me\\dev\\app")).root;
        assert_eq!(upper, seen(Path::new("c:\\Users\\me\\dev\\app")).root);
    }

    #[test]
    fn remotes_normalised() {
        for url in [
            "git@github.com:me/api.git",
            "https://github.com/me/api",
            "ssh://git@GitHub.com:22/me/api.git",
            "https://token@github.com/me/api.git/",
        ] {
            assert_eq!(normalized(url), "github.com/me/api", "{url}");
        }
        assert_eq!(normalized("https://host/@scope/x"), "host/@scope/x");
    }
}
