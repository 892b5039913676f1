//! Tests of `fsutil`.

#![allow(clippy::disallowed_methods)] // tests set up files directly

#[test]
fn stale_temporary_files_go_fresh_ones_stay() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join(".tmp-old");
    let fresh = dir.path().join(".tmp-fresh");
    let mine = dir.path().join("note.md");
    for p in [&old, &fresh, &mine] {
        fs::write(p, "x").unwrap();
    }
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    for p in [&old, &mine] {
        fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(two_hours_ago)
            .unwrap();
    }
    assert_eq!(remove_stale_temps(dir.path()), 1);
    assert!(!old.exists() && fresh.exists() && mine.exists());
}
use super::*;

#[test]
fn atomic_write_creates_private_file_and_keeps_existing_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.md");
    atomic_write(&path, b"one").unwrap();
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    atomic_write(&path, b"two").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "two");
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644);
    // No temp file left behind.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn atomic_write_replaces_symlink_instead_of_following_it() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    fs::write(&outside, "keep").unwrap();
    let link = dir.path().join("link.md");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    atomic_write(&link, b"new").unwrap();
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep");
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_file());
}

#[test]
fn append_never_follows_symlinks() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.txt");
    fs::write(&outside, "keep").unwrap();
    let link = dir.path().join("obs.jsonl");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    assert!(append(&link, b"x\n").is_err());
    let linked_dir = dir.path().join("linked");
    std::os::unix::fs::symlink(dir.path(), &linked_dir).unwrap();
    assert!(append(&linked_dir.join("a.jsonl"), b"x\n").is_err());
    assert_eq!(fs::read_to_string(&outside).unwrap(), "keep");
    let plain = dir.path().join("plain.jsonl");
    append(&plain, b"a\n").unwrap();
    append(&plain, b"b\n").unwrap();
    assert_eq!(fs::read_to_string(&plain).unwrap(), "a\nb\n");
    assert_eq!(
        fs::metadata(&plain).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn private_dirs_are_0700() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("a/b");
    assert!(create_private_dir(&sub).unwrap());
    assert!(!create_private_dir(&sub).unwrap());
    let mode = fs::metadata(&sub).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}

#[test]
fn markdown_names() {
    for ok in ["a.md", "testing-use-nextest.md"] {
        assert!(is_markdown_name(Path::new(ok)), "{ok}");
    }
    for bad in [
        ".a.md", "~a.md", "a.md~", "a.md.swp", ".md", "a.txt", ".tmp-x",
    ] {
        assert!(!is_markdown_name(Path::new(bad)), "{bad}");
    }
}
