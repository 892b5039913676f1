//! Which project a working directory belongs to: the name of its git root (the nearest
//! folder holding `.git`; a git worktree takes its main repository's name, so all its
//! worktrees are one project), else the folder's own name; a home folder or `/` is no
//! project at all (user scope: what is learned there applies everywhere). And the
//! marker files that hint at its languages and tools.

use std::path::{Path, PathBuf};

/// A project as seen from a working directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub name: String,
    pub root: PathBuf,
}

/// Resolves the project of `cwd`; `None` for an empty or relative path, and for a home
/// folder or `/` outside any repository (user scope). A Windows path
/// (`C:\\Users\\me\\src\\app`, recorded on another machine) names its last folder.
pub fn of(cwd: &str) -> Option<Project> {
    if is_home_or_root(cwd) {
        return None;
    }
    if let Some(name) = windows_folder(cwd) {
        return Some(Project {
            name: name.to_string(),
            root: PathBuf::from(cwd),
        });
    }
    let cwd = Path::new(cwd);
    if !cwd.is_absolute() {
        return None;
    }
    let repo = cwd
        .ancestors()
        .take(64)
        .find(|dir| dir.join(".git").exists());
    let root = repo.unwrap_or(cwd);
    if repo.is_none() && is_home_or_root(&root.to_string_lossy()) {
        return None;
    }
    let named = repo
        .and_then(main_repository)
        .unwrap_or_else(|| root.to_path_buf());
    let name = named
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".to_string());
    Some(Project {
        name,
        root: root.to_path_buf(),
    })
}

/// The project of `cwd` in a session Claude Code started in `started_in`
/// (`CLAUDE_PROJECT_DIR`): a folder outside any repository, below the folder the
/// session started in, belongs to that folder's project. Claude Code keeps the Bash
/// tool's `cd`, so a `cd docs` would otherwise make `docs` a project of its own.
pub fn of_session(cwd: &str, started_in: Option<&str>) -> Option<Project> {
    let here = of(cwd);
    // Most hooks run where the session started: nothing more to look at.
    let below = started_in.filter(|start| {
        *start != cwd && Path::new(start).is_absolute() && Path::new(cwd).starts_with(start)
    });
    let Some(start) = below else {
        return here;
    };
    let in_a_repository = here.as_ref().is_some_and(|p| p.root.join(".git").exists());
    if in_a_repository {
        here
    } else {
        of(start).or(here)
    }
}

/// The main repository of a git worktree (its `.git` is a file pointing into
/// `<main>/.git/worktrees/<name>`); `None` for a repository of its own.
pub fn main_repository(root: &Path) -> Option<PathBuf> {
    let dot_git = root.join(".git");
    if !dot_git.is_file() {
        return None;
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    let gitdir = if Path::new(gitdir).is_absolute() {
        PathBuf::from(gitdir)
    } else {
        root.join(gitdir)
    };
    let (main, _) = gitdir.to_str()?.split_once("/.git/worktrees/")?;
    Some(PathBuf::from(main))
}

/// A home folder (`/home/me`, `/Users/me`, `/root`, `C:\\Users\\me`) or the root.
fn is_home_or_root(cwd: &str) -> bool {
    let unix: Vec<&str> = cwd.split('/').filter(|p| !p.is_empty()).collect();
    let windows: Vec<&str> = cwd.split('\\').filter(|p| !p.is_empty()).collect();
    match (unix.as_slice(), windows.as_slice()) {
        ([], _) if cwd.starts_with('/') => true,
        (["root"], _) => cwd.starts_with('/'),
        (["home" | "Users", _] | ["var", "home", _], _) => cwd.starts_with('/'),
        (_, [drive, users, _]) => drive.ends_with(':') && users.eq_ignore_ascii_case("users"),
        _ => false,
    }
}

fn windows_folder(cwd: &str) -> Option<&str> {
    let bytes = cwd.as_bytes();
    let drive = bytes.len() > 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    let unc = cwd.starts_with("\\\\");
    if !(drive || unc) || !cwd.contains('\\') {
        return None;
    }
    cwd.trim_end_matches('\\')
        .rsplit('\\')
        .next()
        .filter(|n| !n.is_empty() && !n.ends_with(':'))
}

/// Words a project's marker files suggest (`Cargo.toml` → rust cargo).
pub fn marker_words(root: &Path) -> Vec<&'static str> {
    const MARKERS: &[(&str, &[&str])] = &[
        ("Cargo.toml", &["rust", "cargo"]),
        ("go.mod", &["go", "golang"]),
        ("package.json", &["javascript", "typescript", "node", "npm"]),
        ("pyproject.toml", &["python"]),
        ("setup.py", &["python"]),
        ("justfile", &["just"]),
        ("Makefile", &["make"]),
        ("dbt_project.yml", &["dbt", "sql"]),
        (".terraform", &["terraform"]),
        ("Dockerfile", &["docker", "container"]),
        ("pom.xml", &["java", "maven"]),
        ("Gemfile", &["ruby"]),
    ];
    MARKERS
        .iter()
        .filter(|(file, _)| root.join(file).exists())
        .flat_map(|(_, words)| words.iter().copied())
        .collect()
}

/// `path` relative to the project root when inside it, else as given.
pub fn relative_to(project: &Project, path: &str) -> String {
    Path::new(path)
        .strip_prefix(&project.root)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.to_string())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up files directly
mod tests {
    use super::*;

    #[test]
    fn git_root_names_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("ledger-svc");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("crates/core")).unwrap();
        std::fs::write(repo.join("Cargo.toml"), "").unwrap();
        let p = of(repo.join("crates/core").to_str().unwrap()).unwrap();
        assert_eq!(p.name, "ledger-svc");
        assert_eq!(marker_words(&p.root), ["rust", "cargo"]);
        assert_eq!(
            relative_to(&p, repo.join("src/lib.rs").to_str().unwrap()),
            "src/lib.rs"
        );
        let loose = dir.path().join("scratch");
        std::fs::create_dir_all(&loose).unwrap();
        assert_eq!(of(loose.to_str().unwrap()).unwrap().name, "scratch");
        assert_eq!(of("relative/path"), None);
        assert_eq!(of(r"C:\Users\me\src\app").unwrap().name, "app");
        assert_eq!(of(r"D:\work\api\").unwrap().name, "api");
        assert_eq!(of(r"C:\"), None);
    }

    #[test]
    fn a_folder_below_where_the_session_started_is_that_project() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes");
        std::fs::create_dir_all(notes.join("drafts/2026")).unwrap();
        let start = notes.to_str().unwrap();
        let below = notes.join("drafts/2026");
        let p = of_session(below.to_str().unwrap(), Some(start)).unwrap();
        assert_eq!(
            (p.name.as_str(), p.root.as_path()),
            ("notes", notes.as_path())
        );
        // Without the starting folder, or outside it, the folder is its own.
        assert_eq!(
            of_session(below.to_str().unwrap(), None).unwrap().name,
            "2026"
        );
        let elsewhere = dir.path().join("other");
        std::fs::create_dir_all(&elsewhere).unwrap();
        let p = of_session(elsewhere.to_str().unwrap(), Some(start)).unwrap();
        assert_eq!(p.name, "other");
        // A repository below the starting folder is its own project.
        let repo = notes.join("tool");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src")).unwrap();
        let p = of_session(repo.join("src").to_str().unwrap(), Some(start)).unwrap();
        assert_eq!(p.name, "tool");
        // Started in a home folder: a folder below it stays its own project.
        assert_eq!(
            of_session("/home/ana/scratch", Some("/home/ana"))
                .unwrap()
                .name,
            "scratch"
        );
    }

    #[test]
    fn a_home_folder_is_user_scope_and_worktrees_share_their_repository() {
        assert_eq!(of("/home/ana"), None);
        assert_eq!(of("/Users/ana/"), None);
        assert_eq!(of("/root"), None);
        assert_eq!(of("/"), None);
        assert_eq!(of(r"C:\Users\ana"), None);
        assert!(of("/Users/ana/Downloads").is_some());
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("ledger");
        std::fs::create_dir_all(main.join(".git/worktrees/feature-x")).unwrap();
        let tree = dir.path().join("ledger-feature-x");
        std::fs::create_dir_all(tree.join("src")).unwrap();
        std::fs::write(
            tree.join(".git"),
            format!(
                "gitdir: {}\n",
                main.join(".git/worktrees/feature-x").display()
            ),
        )
        .unwrap();
        let p = of(tree.join("src").to_str().unwrap()).unwrap();
        assert_eq!(p.name, "ledger");
        assert_eq!(p.root, tree);
    }
}
