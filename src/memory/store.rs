//! The store: lists, loads and changes memory files. Reads never lock; every
//! read-modify-write holds the `memory` lock and replaces the file atomically. A file
//! that does not parse is reported, never rewritten.

use std::fs;
use std::path::{Path, PathBuf};

use super::editor::Editor;
use super::{Conviction, Document, Error, Instinct, Note, NoteKind, Origin, stem};
use crate::fsutil;
use crate::lock::{FileLock, LockName};
use crate::memory::journal;
use crate::paths::Paths;

/// Items that loaded, and the files that did not (reported, skipped).
#[derive(Debug)]
pub struct Loaded<T> {
    pub items: Vec<T>,
    pub errors: Vec<Error>,
}

impl<T> Default for Loaded<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            errors: Vec::new(),
        }
    }
}

/// Access to the memory folder's markdown files.
#[derive(Debug, Clone, Copy)]
pub struct Store<'a> {
    paths: &'a Paths,
    /// `None`: wait for the lock as long as it takes (user commands); `Some`: give up
    /// after that long (hooks never stall the agent).
    wait: Option<std::time::Duration>,
}

impl<'a> Store<'a> {
    pub fn new(paths: &'a Paths) -> Self {
        Self { paths, wait: None }
    }

    /// A store whose writes wait for the lock at most `wait`.
    pub fn impatient(paths: &'a Paths, wait: std::time::Duration) -> Self {
        Self {
            paths,
            wait: Some(wait),
        }
    }

    pub fn paths(&self) -> &'a Paths {
        self.paths
    }

    /// Reads and splits one file.
    pub fn read(&self, path: &Path) -> Result<Document, Error> {
        let text = fsutil::read_text(path)?;
        Document::parse(text).map_err(|e| Error::invalid(path, e))
    }

    fn load_dir<T>(
        &self,
        dir: &Path,
        mut parse: impl FnMut(&Path, &Document) -> Result<T, Error>,
        into: &mut Loaded<T>,
    ) {
        let files = match fsutil::markdown_files(dir) {
            Ok(files) => files,
            Err(e) => return into.errors.push(e.into()),
        };
        for path in files {
            match self.read(&path).and_then(|doc| parse(&path, &doc)) {
                Ok(item) => into.items.push(item),
                // A file deleted between listing and reading is simply gone.
                Err(Error::Io(e)) if e.is_not_found() => {}
                Err(e) => into.errors.push(e),
            }
        }
    }

    /// Every personal and inherited instinct.
    pub fn instincts(&self) -> Loaded<Instinct> {
        let mut loaded = Loaded::default();
        for (dir, origin) in [
            (self.paths.personal_instincts(), Origin::Personal),
            (self.paths.inherited_instincts(), Origin::Inherited),
        ] {
            self.load_dir(
                &dir,
                |p, d| Instinct::from_document(p, origin, d),
                &mut loaded,
            );
        }
        loaded
    }

    pub fn convictions(&self) -> Loaded<Conviction> {
        let mut loaded = Loaded::default();
        self.load_dir(
            &self.paths.convictions(),
            Conviction::from_document,
            &mut loaded,
        );
        loaded
    }

    pub fn notes(&self, kind: NoteKind) -> Loaded<Note> {
        let dir = match kind {
            NoteKind::Episode => self.paths.episodes(),
            NoteKind::Session => self.paths.sessions(),
        };
        let mut loaded = Loaded::default();
        self.load_dir(&dir, |p, d| Note::from_document(p, kind, d), &mut loaded);
        loaded
    }

    /// Every memory file that does not parse, instincts, convictions, episodes and
    /// sessions alike (each `path:line: reason`).
    pub fn unreadable(&self) -> Vec<Error> {
        let mut errors = self.instincts().errors;
        errors.extend(self.convictions().errors);
        errors.extend(self.notes(NoteKind::Episode).errors);
        errors.extend(self.notes(NoteKind::Session).errors);
        errors
    }

    /// The names of all instinct files, whether they parse or not.
    pub fn instinct_names(&self) -> Result<Vec<String>, Error> {
        let mut names = Vec::new();
        for dir in [
            self.paths.personal_instincts(),
            self.paths.inherited_instincts(),
        ] {
            names.extend(fsutil::markdown_files(&dir)?.iter().map(|p| stem(p)));
        }
        Ok(names)
    }

    /// The file of the instinct called `name` (personal first), if any.
    pub fn instinct_path(&self, name: &str) -> Option<PathBuf> {
        if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\', '\0']) {
            return None;
        }
        [
            self.paths.personal_instincts(),
            self.paths.inherited_instincts(),
        ]
        .into_iter()
        .map(|dir| dir.join(format!("{name}.md")))
        .find(|p| p.is_file())
    }

    /// Counts the markdown files in a folder.
    pub fn count(&self, dir: &Path) -> Result<usize, Error> {
        Ok(fsutil::markdown_files(dir)?.len())
    }

    /// Reads `path`, applies `change` and writes the result back atomically, all under
    /// the memory lock. Nothing is written when `change` fails or changes nothing.
    pub fn edit<T>(
        &self,
        path: &Path,
        change: impl FnOnce(&mut Editor) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let _lock = self.lock()?;
        let mut doc = self.read(path)?;
        doc.mapping().map_err(|e| Error::invalid(path, e))?;
        let before = doc.text().to_string();
        let out = change(&mut Editor::new(&mut doc, path))?;
        if doc.text() != before {
            journal::write(self.paths, path, doc.text().as_bytes())?;
        }
        Ok(out)
    }

    /// Writes a new file; refuses to replace an existing one.
    pub fn create(&self, path: &Path, text: &str) -> Result<(), Error> {
        let _lock = self.lock()?;
        if let Some(dir) = path.parent() {
            fsutil::create_private_dir(dir)?;
        }
        if fs::symlink_metadata(path).is_ok() {
            return Err(Error::Refused {
                path: path.to_path_buf(),
                reason: "already exists".into(),
            });
        }
        journal::write(self.paths, path, text.as_bytes())?;
        Ok(())
    }

    /// Removes a file under the memory lock; a file already gone is fine.
    pub fn remove(&self, path: &Path) -> Result<(), Error> {
        let _lock = self.lock()?;
        Ok(journal::remove(self.paths, path)?)
    }

    fn lock(&self) -> Result<FileLock, Error> {
        let path = self.paths.lock(&LockName::Memory);
        Ok(match self.wait {
            None => FileLock::acquire(&path)?,
            Some(wait) => FileLock::try_acquire_for(&path, wait)?,
        })
    }
}

#[cfg(test)]
mod tests;
