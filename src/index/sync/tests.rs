//! Tests of `index::sync`.

use super::*;
use crate::index::{self, Index, SearchOptions};
use crate::memory::{Scalar, Store};
use crate::testutil::Memory;

fn names(m: &Memory, index: &Index, query: &str) -> Vec<String> {
    let reader = index.reader().unwrap();
    reader.reload().unwrap();
    let opts = SearchOptions {
        domain: None,
        kind: None,
        project: None,
        near: None,
        limit: 10,
        now_unix: m.now.timestamp(),
        snippet_chars: 0,
    };
    index::search::search(index, &reader, query, &opts)
        .unwrap()
        .into_iter()
        .map(|h| h.name)
        .collect()
}

#[test]
fn hand_edits_deletes_and_our_own_writes_reach_the_index() {
    let m = Memory::new();
    let now = m.now.timestamp();
    m.instinct(
        "testing-alpha",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "",
    );
    let (index, report) = index::open_synced(&m.paths, now).unwrap();
    assert_eq!(report.added, 1);
    assert_eq!(names(&m, &index, "alpha"), ["testing-alpha"]);

    // A hand edit (a new file, no journal): the folder's mtime tells a quick sync.
    m.instinct(
        "testing-beta",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "",
    );
    let quick = sync(&index, &m.paths, Mode::Quick, now).unwrap();
    assert_eq!(quick.changed(), 1, "{quick:?}");
    assert_eq!(names(&m, &index, "beta"), ["testing-beta"]);

    // Our own write goes through the journal and is applied by a bounded sync.
    let store = Store::new(&m.paths);
    let beta = m.paths.personal_instincts().join("testing-beta.md");
    store
        .edit(&beta, |f| {
            f.set("action", &Scalar::Text("use zeppelin".into()), &[])
        })
        .unwrap();
    let bounded = sync(&index, &m.paths, Mode::Bounded, now).unwrap();
    assert_eq!(bounded.updated, 1, "{bounded:?}");
    assert_eq!(names(&m, &index, "zeppelin"), ["testing-beta"]);

    // A delete by hand.
    std::fs::remove_file(&beta).unwrap();
    let gone = sync(&index, &m.paths, Mode::Quick, now).unwrap();
    assert_eq!(gone.removed, 1, "{gone:?}");
    assert!(names(&m, &index, "zeppelin").is_empty());

    // Nothing changed: a quick sync does nothing at all.
    let idle = sync(&index, &m.paths, Mode::Quick, now).unwrap();
    assert_eq!(idle.changed(), 0);
}

#[test]
fn a_full_sync_repairs_what_the_manifest_missed() {
    let m = Memory::new();
    let now = m.now.timestamp();
    let path = m.instinct(
        "testing-alpha",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "",
    );
    let (index, _) = index::open_synced(&m.paths, now).unwrap();
    // An in-place rewrite that keeps the folder's mtime: only a sweep sees it.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("nextest", "quokka");
    crate::fsutil::atomic_write(&path, text.as_bytes()).unwrap();
    let full = sync(&index, &m.paths, Mode::Full, now).unwrap();
    assert!(full.changed() >= 1, "{full:?}");
    assert_eq!(names(&m, &index, "quokka"), ["testing-alpha"]);
}

/// Whether any file of the index holds `needle` as raw bytes.
fn index_files_hold(m: &Memory, needle: &[u8]) -> bool {
    walkdir::WalkDir::new(m.paths.index())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .any(|e| {
            std::fs::read(e.path())
                .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
        })
}

#[test]
fn a_deleted_files_text_leaves_the_index_files_at_once() {
    let m = Memory::new();
    let now = m.now.timestamp();
    for n in 0..20 {
        m.instinct(
            &format!("filler-{n}"),
            0.5,
            "2026-02-01T00:00:00Z",
            "2026-02-01T00:00:00Z",
            "",
        );
    }
    let secret = "ghp_zq7Xk2Lw9RvT4mNa8Bc3Dy6Fh1Jp5Gs0Ue";
    let leaked = m.write(
        "episodes/leaked-token.md",
        &format!("---\ntitle: \"deploy notes\"\n---\n\nThe deploy used {secret} to push.\n"),
    );
    let (index, _) = index::open_synced(&m.paths, now).unwrap();
    assert!(
        index_files_hold(&m, secret.as_bytes()),
        "the test needs the text to be in the index first"
    );
    std::fs::remove_file(&leaked).unwrap();
    let report = sync(&index, &m.paths, Mode::Quick, now).unwrap();
    assert_eq!(report.removed, 1, "{report:?}");
    assert!(!index_files_hold(&m, secret.as_bytes()));
    assert!(!names(&m, &index, "filler").is_empty(), "the rest stays");
    let reader = index.reader().unwrap();
    reader.reload().unwrap();
    assert!(
        reader
            .searcher()
            .segment_readers()
            .iter()
            .all(|s| s.num_deleted_docs() == 0)
    );
}
