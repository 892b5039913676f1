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
    let changes = install(&mut s, "/usr/bin/homunculus");
    assert!(changes.iter().all(|(_, c)| *c == Change::Installed));
    let post = s["hooks"]["PostToolUse"].as_array().unwrap();
    assert_eq!(post.len(), 2);
    assert_eq!(post[0]["hooks"][0]["command"], "atuin hook claude-code");
    let again = s.clone();
    let changes = install(&mut s, "/usr/bin/homunculus");
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
    install(&mut s, "/old/homunculus");
    let changes = install(&mut s, "/new place/homunculus");
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
    install(&mut s, "/usr/bin/homunculus");
    let removed = uninstall(&mut s);
    assert_eq!(removed.len(), HookEvent::ALL.len());
    assert_eq!(s, foreign());
    let mut empty = Map::new();
    install(&mut empty, "homunculus");
    uninstall(&mut empty);
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
fn ours_is_recognised_by_program_name() {
    assert!(is_ours("/home/a/.cargo/bin/homunculus hook stop"));
    assert!(is_ours("'/a b/homunculus' hook stop"));
    assert!(is_ours("homunculus hook stop"));
    assert!(!is_ours("not-homunculus hook stop"));
    assert!(!is_ours("atuin hook claude-code"));
}
