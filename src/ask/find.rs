//! Search across every kind of memory, for the CLI (one question per process) and the
//! MCP server (an index held open across questions, brought up to date before each).

use std::sync::Mutex;

use tantivy::IndexReader;

use crate::index::search::{Hit, SearchOptions};
use crate::index::sync::{self, Mode};
use crate::index::{self, Index, IndexError, SyncReport};
use crate::paths::Paths;

/// One question, answered from a freshly synced index; the report says whether the
/// index had to be rebuilt on the way.
pub fn once(
    paths: &Paths,
    text: &str,
    opts: &SearchOptions,
) -> Result<(Vec<Hit>, SyncReport), IndexError> {
    index::resilient(paths, opts.now_unix, |idx| {
        index::search::search(idx, &idx.reader()?, text, opts)
    })
}

/// An index kept open for many questions (the MCP server's): each question first
/// takes in what changed on disk, which costs a few `stat`s when nothing did.
pub struct Finder {
    index: Index,
    reader: IndexReader,
}

impl Finder {
    pub fn open(paths: &Paths, now_unix: i64) -> Result<Self, IndexError> {
        let ((), _) = index::resilient(paths, now_unix, |_| Ok(()))?;
        let (index, _) = Index::open(paths)?;
        let reader = index.reader()?;
        Ok(Self { index, reader })
    }

    /// Runs `work` on the index as it is on disk now. A failure (the index replaced
    /// or damaged under us) reopens it, rebuilding when needed, and runs `work` again.
    pub fn with<T>(
        &mut self,
        paths: &Paths,
        now_unix: i64,
        work: impl Fn(&Index, &IndexReader) -> Result<T, IndexError>,
    ) -> Result<T, IndexError> {
        let fresh = sync::sync(&self.index, paths, Mode::Quick, now_unix)
            .and_then(|_| Ok(self.reader.reload()?))
            .and_then(|()| work(&self.index, &self.reader));
        match fresh {
            Ok(out) => Ok(out),
            Err(_) => {
                *self = Self::open(paths, now_unix)?;
                work(&self.index, &self.reader)
            }
        }
    }

    pub fn search(
        &mut self,
        paths: &Paths,
        text: &str,
        opts: &SearchOptions,
    ) -> Result<Vec<Hit>, IndexError> {
        self.with(paths, opts.now_unix, |idx, reader| {
            index::search::search(idx, reader, text, opts)
        })
    }
}

/// A `Finder` opened on first use and shared by the requests of a long-running server
/// (the MCP server, the review screen).
#[derive(Default)]
pub struct Shared(Mutex<Option<Finder>>);

impl Shared {
    /// Runs `work` with the open index, opening it on first use. The error is a message
    /// for the server to answer with.
    pub fn with<T>(
        &self,
        paths: &Paths,
        now_unix: i64,
        work: impl FnOnce(&mut Finder) -> Result<T, IndexError>,
    ) -> Result<T, String> {
        let mut slot = self.0.lock().map_err(|e| e.to_string())?;
        if slot.is_none() {
            *slot = Some(Finder::open(paths, now_unix).map_err(|e| e.to_string())?);
        }
        work(slot.as_mut().expect("opened above")).map_err(|e| e.to_string())
    }
}
