//! The search index: a Tantivy cache of the markdown files under `.index/`, always
//! rebuildable from them. One writer at a time (the `index` lock); readers never lock.
//! A missing, outdated or corrupt index is rebuilt, never fatal.

mod document;

pub(crate) use document::sightings;
pub use document::{CONFIRMED, CONFIRMED_BY_USER, UNFINISHED};
pub mod listing;
pub mod schema;
pub mod search;
mod snippet;
pub mod sync;
mod update;
pub mod watch;
pub mod words;

use std::path::{Path, PathBuf};

use tantivy::{IndexReader, ReloadPolicy};

pub use document::{file_keys, glob_terms, path_terms};
pub use schema::Fields;
pub use search::{Hit, SearchOptions};

use crate::fsutil::{self, PathError};
use crate::lock::{LockError, LockName};
use crate::paths::Paths;

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Lock(#[from] LockError),
}

/// An open index.
pub struct Index {
    pub(crate) inner: tantivy::Index,
    pub(crate) fields: Fields,
    dir: PathBuf,
}

/// The first stored text of `field` in a document ("" when absent).
pub fn stored_text(doc: &tantivy::TantivyDocument, field: tantivy::schema::Field) -> String {
    use tantivy::schema::Value;
    doc.get_first(field)
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string()
}

/// Where the index keeps its pieces inside `.index/`.
fn tantivy_dir(paths: &Paths) -> PathBuf {
    paths.index().join("tantivy")
}

fn version_file(paths: &Paths) -> PathBuf {
    paths.index().join("version")
}

impl Index {
    /// Opens the index, creating (empty) or recreating it when it is missing, of another
    /// version, or unreadable. Returns whether it was (re)created: the caller then syncs
    /// everything in.
    pub fn open(paths: &Paths) -> Result<(Self, bool), IndexError> {
        Self::open_waiting(paths, None)
    }

    /// `open`, waiting at most `wait` for another process that is creating the index
    /// (`Lock(Busy)` after that): a hook must not wait seconds for someone else's build.
    pub fn open_waiting(
        paths: &Paths,
        wait: Option<std::time::Duration>,
    ) -> Result<(Self, bool), IndexError> {
        let dir = tantivy_dir(paths);
        let (schema, fields) = schema::build();
        if is_current(paths)
            && let Some(inner) = open_existing(&dir, &schema)
        {
            return Ok((Self::wrap(inner, fields, dir), false));
        }
        // Recreate under the writer lock, unless another process just did.
        let lock_path = paths.lock(&LockName::Index);
        let _lock = match wait {
            None => crate::lock::FileLock::acquire(&lock_path)?,
            Some(wait) => crate::lock::FileLock::try_acquire_for(&lock_path, wait)?,
        };
        if let Some(inner) = open_existing(&dir, &schema) {
            return Ok((Self::wrap(inner, fields, dir), false));
        }
        Ok((Self::create(paths, schema, fields)?, true))
    }

    /// Opens an index that exists and is current; never creates or waits. For hooks.
    pub fn open_current(paths: &Paths) -> Option<Self> {
        let dir = tantivy_dir(paths);
        let (schema, fields) = schema::build();
        let inner = open_existing(&dir, &schema).filter(|_| is_current(paths))?;
        Some(Self::wrap(inner, fields, dir))
    }

    fn create(
        paths: &Paths,
        schema: tantivy::schema::Schema,
        fields: Fields,
    ) -> Result<Self, IndexError> {
        let dir = tantivy_dir(paths);
        // The index is a cache: whatever is there is discarded. Readers of other processes
        // may still create lock files in it, so it is first renamed out of the way (atomic)
        // and then removed on a best-effort basis (found by the concurrency harness).
        if dir.exists() {
            let old = paths
                .index()
                .join(format!("old-{}", crate::fsutil::unique_suffix()));
            std::fs::rename(&dir, &old).map_err(|e| PathError::new("move aside", &dir, e))?;
        }
        for entry in std::fs::read_dir(paths.index())
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry.file_name().to_string_lossy().starts_with("old-") {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let _ = std::fs::remove_file(sync::dirs_file(paths));
        let _ = std::fs::remove_file(paths.index().join("queue"));
        fsutil::create_private_dir(&dir)?;
        let inner = tantivy::Index::create_in_dir(&dir, schema)?;
        fsutil::atomic_write(
            &version_file(paths),
            format!("{}\n", schema::VERSION).as_bytes(),
        )?;
        Ok(Self::wrap(inner, fields, dir))
    }

    fn wrap(inner: tantivy::Index, fields: Fields, dir: PathBuf) -> Self {
        Self { inner, fields, dir }
    }

    /// A reader that sees the last commit; no background reload thread.
    pub fn reader(&self) -> Result<IndexReader, IndexError> {
        Ok(self
            .inner
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?)
    }

    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Whether the index on disk was built by this version's schema and documents.
fn is_current(paths: &Paths) -> bool {
    fsutil::read_text(&version_file(paths))
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        == Some(schema::VERSION)
}

fn open_existing(dir: &Path, schema: &tantivy::schema::Schema) -> Option<tantivy::Index> {
    if !dir.join("meta.json").exists() {
        return None;
    }
    let inner = tantivy::Index::open_in_dir(dir).ok()?;
    (inner.schema() == *schema).then_some(inner)
}

/// Opens the index and brings it up to date with the files: the first step of `search`
/// and `status`. A corrupt index is rebuilt; a busy writer means searching what is there.
pub fn open_synced(paths: &Paths, now_unix: i64) -> Result<(Index, SyncReport), IndexError> {
    open_synced_waiting(paths, now_unix, None)
}

/// `open_synced`, waiting at most `wait` for another process creating the index.
pub fn open_synced_waiting(
    paths: &Paths,
    now_unix: i64,
    wait: Option<std::time::Duration>,
) -> Result<(Index, SyncReport), IndexError> {
    let (index, created) = Index::open_waiting(paths, wait)?;
    let mode = if created {
        sync::Mode::Full
    } else {
        sync::Mode::Quick
    };
    match sync::sync(&index, paths, mode, now_unix) {
        Ok(report) => Ok((index, report)),
        Err(IndexError::Tantivy(_)) if !created => {
            // Unreadable segments: start over from the markdown.
            let mut report = rebuild(paths, now_unix, &mut |_, _| {})?;
            report.rebuilt = true;
            let (index, _) = Index::open(paths)?;
            Ok((index, report))
        }
        Err(e) => Err(e),
    }
}

/// Runs `work` on the synced index. The index is a cache: if reading it fails or
/// panics (damaged files can make Tantivy panic), it is rebuilt from the markdown and
/// `work` runs once more. The returned report says whether that happened.
pub fn resilient<T>(
    paths: &Paths,
    now_unix: i64,
    work: impl Fn(&Index) -> Result<T, IndexError>,
) -> Result<(T, SyncReport), IndexError> {
    let attempt = || -> Result<(T, SyncReport), IndexError> {
        let (index, report) = open_synced(paths, now_unix)?;
        Ok((work(&index)?, report))
    };
    // A concurrent `reindex` can replace the index under a reader: try again a few
    // times before concluding the index is damaged.
    for pause in [0, 20, 100] {
        std::thread::sleep(std::time::Duration::from_millis(pause));
        match quietly(&attempt) {
            Some(Ok(done)) => return Ok(done),
            Some(Err(IndexError::Tantivy(_))) | None => {}
            Some(Err(e)) => return Err(e),
        }
    }
    let mut report = rebuild(paths, now_unix, &mut |_, _| {})?;
    report.rebuilt = true;
    let (index, _) = Index::open(paths)?;
    Ok((work(&index)?, report))
}

/// Runs `f`, turning a panic into `None` without printing it.
fn quietly<T>(f: &dyn Fn() -> T) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    std::panic::set_hook(hook);
    out
}

/// Rebuilds the index from scratch. `progress(done, total)` is called as files are read.
pub fn rebuild(
    paths: &Paths,
    now_unix: i64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SyncReport, IndexError> {
    let _lock = crate::lock::FileLock::acquire(&paths.lock(&LockName::Index))?;
    let (schema, fields) = schema::build();
    let index = Index::create(paths, schema, fields)?;
    sync::full_locked(&index, paths, now_unix, progress)
}

impl Index {
    /// How many items of `kind` the index holds, forgotten ones aside (they are indexed
    /// under a kind of their own).
    pub fn count_of(&self, kind: crate::memory::kind::Kind) -> Result<usize, IndexError> {
        let term = tantivy::Term::from_field_text(self.fields.kind, kind.name());
        let query = tantivy::query::TermQuery::new(term, tantivy::schema::IndexRecordOption::Basic);
        Ok(self
            .reader()?
            .searcher()
            .search(&query, &tantivy::collector::Count)?)
    }
}

/// What a sync did.
#[derive(Debug, Default, Clone)]
pub struct SyncReport {
    pub added: usize,
    pub updated: usize,
    pub removed: usize,
    /// The writer was busy; the index was searched as it was.
    pub busy: bool,
    pub rebuilt: bool,
    /// The files read that do not parse (`path:line: reason`), indexed by their text.
    pub unreadable: Vec<String>,
}

impl SyncReport {
    pub fn changed(&self) -> usize {
        self.added + self.updated + self.removed
    }
}
