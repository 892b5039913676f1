//! Which project a working directory belongs to: the name of its git root (the nearest
//! folder holding `.git`), else the folder's own name; and the marker files that hint
//! at its languages and tools.

use std::path::{Path, PathBuf};

/// A project as seen from a working directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    pub name: String,
    pub root: PathBuf,
}

/// Resolves the project of `cwd`; `None` for an empty or relative path. A Windows path
/// (`C:\\Users\\me\\src\\app`, recorded on another machine) names its last folder.
pub fn of(cwd: &str) -> Option<Project> {
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
    let root = cwd
        .ancestors()
        .take(64)
        .find(|dir| dir.join(".git").exists())
        .unwrap_or(cwd);
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".to_string());
    Some(Project {
        name,
        root: root.to_path_buf(),
    })
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
}
