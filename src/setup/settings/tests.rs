//! Tests of `setup::settings`.

use super::*;

fn foreign() -> Map<String, Value> {
    serde_json::from_str(
        r#"{"model": "opus", "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "atuin hook claude-code"}]}]}, "env": {"A": "1"}}"#,
    )
    .unwrap()
}

#[test]
fn install_keeps_foreign_hooks_and_is_idempotent() {
    let mut s = foreign();
    let changes = install(&mut s, "/usr/bin/homunculus").unwrap();
    assert!(changes.iter().all(|(_, c)| *c == Change::Installed));
    let post = s["hooks"]["PostToolUse"].as_array().unwrap();
    assert_eq!(post.len(), 2);
    assert_eq!(post[0]["hooks"][0]["command"], "atuin hook claude-code");
    let again = s.clone();
    let changes = install(&mut s, "/usr/bin/homunculus").unwrap();
    assert!(changes.iter().all(|(_, c)| *c == Change::Unchanged));
    assert_eq!(s, again);
    assert_eq!(
        installed_events(&s, "/usr/bin/homunculus").len(),
        HookEvent::ALL.len()
    );
}

#[test]
fn moved_binary_updates_in_place() {
    let mut s = foreign();
    install(&mut s, "/old/homunculus").unwrap();
    let changes = install(&mut s, "/new place/homunculus").unwrap();
    assert!(changes.iter().all(|(_, c)| *c == Change::Updated));
    assert_eq!(
        s["hooks"]["Stop"][0]["hooks"][0]["command"],
        "'/new place/homunculus' hook stop"
    );
    assert_eq!(s["hooks"]["Stop"].as_array().unwrap().len(), 1);
}

#[test]
fn uninstall_removes_exactly_ours() {
    let mut s = foreign();
    install(&mut s, "/usr/bin/homunculus").unwrap();
    let removed = uninstall(&mut s, "/usr/bin/homunculus");
    assert_eq!(removed.len(), HookEvent::ALL.len());
    assert_eq!(s, foreign());
    let mut empty = Map::new();
    install(&mut empty, "homunculus").unwrap();
    uninstall(&mut empty, "/usr/bin/homunculus");
    assert!(empty.is_empty());
}

#[test]
fn statusline_wraps_and_restores() {
    let mut s: Map<String, Value> = serde_json::from_str(
        r#"{"statusLine": {"type": "command", "command": "~/bin/status.sh 'it''s'", "padding": 0}}"#,
    )
    .unwrap();
    let original = s.clone();
    assert!(install_statusline(&mut s, "/usr/bin/homunculus"));
    assert!(!install_statusline(&mut s, "/usr/bin/homunculus"));
    assert!(
        s["statusLine"]["command"]
            .as_str()
            .unwrap()
            .starts_with("/usr/bin/homunculus statusline --then '")
    );
    assert!(uninstall_statusline(&mut s));
    assert_eq!(s, original);
    let mut none = Map::new();
    assert!(install_statusline(&mut none, "/usr/bin/homunculus"));
    assert!(uninstall_statusline(&mut none));
    assert!(none.is_empty());
}

#[test]
fn ours_is_this_binary_or_a_moved_one_never_another_live_copy() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("homunculus");
    crate::fsutil::atomic_write(&other, b"").unwrap();
    let other = other.display().to_string();
    let bin = "/usr/bin/homunculus";
    assert_eq!(owner("/usr/bin/homunculus hook stop", bin), Owner::Us);
    assert_eq!(owner("homunculus hook stop", bin), Owner::Us);
    assert_eq!(
        owner("'/gone away/homunculus' hook stop", bin),
        Owner::Moved
    );
    assert_eq!(
        owner(&format!("{other} hook stop"), bin),
        Owner::OtherCopy(other.clone())
    );
    assert_eq!(owner("not-homunculus hook stop", bin), Owner::Foreign);
    assert_eq!(owner("atuin hook claude-code", bin), Owner::Foreign);

    let mut s = foreign();
    install(&mut s, &other).unwrap();
    let theirs = s.clone();
    install(&mut s, bin).unwrap();
    assert_eq!(
        s["hooks"]["Stop"].as_array().unwrap().len(),
        2,
        "theirs stays"
    );
    assert_eq!(
        other_copies(&s, bin).into_iter().collect::<Vec<_>>(),
        [other]
    );
    uninstall(&mut s, bin);
    assert_eq!(s, theirs);
}

#[test]
fn foreign_shapes_we_would_overwrite_are_refused() {
    for text in [
        r#"{"hooks": "see hooks.json"}"#,
        r#"{"hooks": {"Stop": {"command": "x"}}}"#,
    ] {
        let mut s: Map<String, Value> = serde_json::from_str(text).unwrap();
        let before = s.clone();
        assert!(install(&mut s, "/usr/bin/homunculus").is_err(), "{text}");
        assert_eq!(s, before);
        uninstall(&mut s, "/usr/bin/homunculus");
        assert_eq!(s, before);
    }
}
