//! Tests of `memory::store`.

use super::*;
use crate::memory::Scalar;
use crate::testutil::Memory;

#[test]
fn loads_good_files_and_reports_broken_ones_by_line() {
    let m = Memory::new();
    m.instinct(
        "testing-a",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "",
    );
    let broken = m.write(
        "instincts/personal/testing-broken.md",
        "---\ntrigger: \"x\"\naction: [unclosed\n---\n",
    );
    let loaded = Store::new(&m.paths).instincts();
    assert_eq!(loaded.items.len(), 1);
    assert_eq!(loaded.items[0].name, "testing-a");
    assert_eq!(loaded.errors.len(), 1);
    let report = loaded.errors[0].to_string();
    assert!(
        report.starts_with(&format!("{}:", broken.display())),
        "{report}"
    );
}

#[test]
fn edit_writes_only_what_changed_and_never_a_broken_file() {
    let m = Memory::new();
    let path = m.instinct(
        "testing-a",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "",
    );
    let store = Store::new(&m.paths);
    let before = std::fs::read_to_string(&path).unwrap();
    store.edit(&path, |_| Ok(())).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    store
        .edit(&path, |f| f.set("confidence", &Scalar::Number(0.6), &[]))
        .unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        after,
        before.replace("confidence: 0.50", "confidence: 0.60")
    );

    let broken = m.write("instincts/personal/testing-b.md", "---\na: [\n---\n");
    let err = store.edit(&broken, |_| Ok(())).unwrap_err();
    assert!(matches!(err, Error::Invalid(_)), "{err}");
    assert_eq!(
        std::fs::read_to_string(&broken).unwrap(),
        "---\na: [\n---\n"
    );
}

#[test]
fn create_never_replaces_and_names_never_escape() {
    let m = Memory::new();
    let store = Store::new(&m.paths);
    let path = m.paths.episodes().join("2026-03-01-x.md");
    store.create(&path, "---\ndate: 2026-03-01\n---\n").unwrap();
    assert!(matches!(
        store.create(&path, "other"),
        Err(Error::Refused { .. })
    ));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "---\ndate: 2026-03-01\n---\n"
    );
    m.instinct(
        "testing-a",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "",
    );
    assert!(store.instinct_path("testing-a").is_some());
    for hostile in ["", "../identity", ".hidden", "a/b", "x\0"] {
        assert_eq!(store.instinct_path(hostile), None, "{hostile:?}");
    }
    store.remove(&path).unwrap();
    store.remove(&path).unwrap();
    assert!(!path.exists());
}
