//! Project keys: two unrelated repositories with the same folder name are two projects.
//! A project is named by its folder (`ledger`); `projects.json` (in the memory folder,
//! kept in git) records which repository each name stands for: its `origin` remote when
//! it has one (every clone of it is one project), else its root. The first repository
//! seen under a name keeps the plain name; another one gets the name and a short hash of
//! its identity (`ledger-3f2a`). A repository whose root is gone and was not a remote
//! was moved: the next one seen under its name takes its key over.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::agent::project::Project;
use crate::lock::{LockError, LockName};
use crate::paths::Paths;

/// How long a hook waits for another process's registration.
const WAIT: Duration = Duration::from_millis(30);

/// `projects.json`: per name, the identities seen under it, the plain name's first.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
struct Registry {
    #[serde(default)]
    projects: BTreeMap<String, Vec<String>>,
}

/// `project` under its key, its identity registered when new. Without a registry that
/// can be written (a busy lock, a read-only folder), the plain name.
pub fn keyed(paths: &Paths, project: Project) -> Project {
    let identity = identity_of(&project.root);
    let known: Registry = crate::fsutil::read_json_or_default(&paths.projects());
    if let Some(key) = key_in(&known, &project.name, &identity) {
        return Project {
            name: key,
            ..project
        };
    }
    match register(paths, &project.name, &identity) {
        Ok(key) => Project {
            name: key,
            ..project
        },
        Err(_) => project,
    }
}

/// `project` under its key, without registering anything (for read-only commands).
pub fn looked_up(paths: &Paths, project: Project) -> Project {
    let known: Registry = crate::fsutil::read_json_or_default(&paths.projects());
    match key_in(&known, &project.name, &identity_of(&project.root)) {
        Some(key) => Project {
            name: key,
            ..project
        },
        None => project,
    }
}

fn key_in(registry: &Registry, name: &str, identity: &str) -> Option<String> {
    let seen = registry.projects.get(name)?;
    let at = seen.iter().position(|i| i == identity)?;
    Some(key(name, at, identity))
}

fn key(name: &str, at: usize, identity: &str) -> String {
    if at == 0 {
        name.to_string()
    } else {
        format!(
            "{name}-{:04x}",
            crate::text::fnv1a(identity.as_bytes()) & 0xffff
        )
    }
}

fn register(paths: &Paths, name: &str, identity: &str) -> Result<String, LockError> {
    let lock = paths.lock(&LockName::Projects);
    crate::lock::update_json(&lock, &paths.projects(), WAIT, |r: &mut Registry| {
        let seen = r.projects.entry(name.to_string()).or_default();
        if let Some(at) = seen.iter().position(|i| i == identity) {
            return key(name, at, identity);
        }
        // A folder that is gone (and no remote) was moved here.
        if let Some(at) = seen.iter().position(|i| moved_away(i)) {
            let kept = seen[at].clone();
            seen[at] = identity.to_string();
            // The key stays what it was, so its memories stay with it.
            return key(name, at, &kept);
        }
        seen.push(identity.to_string());
        key(name, seen.len() - 1, identity)
    })
}

fn moved_away(identity: &str) -> bool {
    identity
        .strip_prefix("path:")
        .is_some_and(|root| Path::new(root).is_absolute() && !Path::new(root).exists())
}

/// What a project is: `remote:<host/path>` of its `origin`, else `path:<root>`.
fn identity_of(root: &Path) -> String {
    match origin_of(root) {
        Some(remote) => format!("remote:{remote}"),
        // Windows paths (recorded on another machine) ignore case: `C:\` is `c:\`.
        None if root.to_string_lossy().contains(":\\") => {
            format!("path:{}", root.display()).to_lowercase()
        }
        None => format!("path:{}", root.display()),
    }
}

/// The `origin` remote of the repository at `root` (a worktree's main repository's),
/// without scheme, user, port or `.git`: `github.com/me/ledger`.
fn origin_of(root: &Path) -> Option<String> {
    let dot_git = root.join(".git");
    let config = if dot_git.is_dir() {
        dot_git.join("config")
    } else {
        // A worktree: `gitdir: <main>/.git/worktrees/<name>`.
        let text = std::fs::read_to_string(&dot_git).ok()?;
        let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
        let (main, _) = gitdir.split_once("/.git/worktrees/")?;
        Path::new(main).join(".git/config")
    };
    let text = crate::fsutil::read_text(&config).ok()?;
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

/// `git@github.com:me/ledger.git`, `https://me@github.com/me/ledger` → `github.com/me/ledger`.
fn normalized(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((_, rest)) => (true, rest),
        None => (false, url),
    };
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    // `host:path` (scp form) without a scheme; `host:port/path` with one.
    let rest = if scheme {
        rest.to_string()
    } else {
        rest.replacen(':', "/", 1)
    };
    let (host, path) = rest.split_once('/').unwrap_or((&rest, ""));
    let host = host.split(':').next().unwrap_or(host);
    let path = path.trim_end_matches('/').trim_end_matches(".git");
    format!("{}/{path}", host.to_ascii_lowercase())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up files directly
mod tests {
    use super::*;

    fn repo(dir: &Path, origin: Option<&str>) -> Project {
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        if let Some(url) = origin {
            std::fs::write(
                dir.join(".git/config"),
                format!("[core]\n\tbare = false\n[remote \"origin\"]\n\turl = {url}\n"),
            )
            .unwrap();
        }
        crate::agent::project::of(&dir.to_string_lossy()).unwrap()
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
        assert_eq!(looked_up(paths, second).name, other);
    }

    #[test]
    fn clones_of_one_remote_are_one_project_and_a_moved_folder_keeps_its_key() {
        let memory = crate::testutil::Memory::new();
        let dir = tempfile::tempdir().unwrap();
        let paths = &memory.paths;
        let a = repo(&dir.path().join("a/api"), Some("git@github.com:me/api.git"));
        let b = repo(
            &dir.path().join("b/api"),
            Some("https://me@github.com/me/api"),
        );
        assert_eq!(keyed(paths, a).name, "api");
        assert_eq!(keyed(paths, b).name, "api");
        let old = repo(&dir.path().join("old/tool"), None);
        let unrelated = repo(&dir.path().join("x/tool"), None);
        assert_eq!(keyed(paths, old).name, "tool");
        let unrelated_key = keyed(paths, unrelated).name;
        std::fs::remove_dir_all(dir.path().join("old")).unwrap();
        let moved = repo(&dir.path().join("new/tool"), None);
        assert_eq!(
            keyed(paths, moved).name,
            "tool",
            "the moved folder keeps its key"
        );
        assert_ne!(unrelated_key, "tool");
    }

    #[test]
    fn a_windows_path_ignores_case() {
        let upper = identity_of(Path::new("C:\\Users\\me\\dev\\app"));
        assert_eq!(upper, identity_of(Path::new("c:\\Users\\me\\dev\\app")));
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
    }
}
