//! `init` registering hooks in Claude Code's settings, `uninstall`, `doctor`, and the
//! status-line logger.

use std::fs;

use serde_json::Value;

use crate::common::TestEnv;

const FOREIGN: &str = r#"{
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "atuin hook claude-code" } ] }
    ],
    "Stop": [ { "hooks": [ { "type": "command", "command": "~/bin/notify.sh" } ] } ]
  },
  "statusLine": { "type": "command", "command": "~/bin/status.sh", "padding": 0 },
  "env": { "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1" }
}
"#;

fn settings(env: &TestEnv) -> Value {
    serde_json::from_str(&fs::read_to_string(env.claude().join("settings.json")).unwrap()).unwrap()
}

fn with_foreign_settings() -> TestEnv {
    let env = TestEnv::new();
    fs::create_dir_all(env.claude()).unwrap();
    fs::write(env.claude().join("settings.json"), FOREIGN).unwrap();
    env
}

#[test]
fn init_merges_hooks_keeping_foreign_ones() {
    let env = with_foreign_settings();
    let out = env.run(&["init"]);
    out.success();
    assert!(
        out.stdout
            .contains("installed     hook SessionStart in $HOME/.claude/settings.json"),
        "{out}"
    );
    let s = settings(&env);
    assert_eq!(s["model"], "opus");
    assert_eq!(
        s["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "atuin hook claude-code"
    );
    assert_eq!(
        s["hooks"]["Stop"][0]["hooks"][0]["command"],
        "~/bin/notify.sh"
    );
    let ours = s["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(
        ours.ends_with("/homunculus hook session-start") && ours.starts_with('/'),
        "{ours}"
    );
    let backup = fs::read_to_string(env.claude().join("settings.json.homunculus-backup")).unwrap();
    assert_eq!(backup, FOREIGN);
    let before = fs::read_to_string(env.claude().join("settings.json")).unwrap();
    let again = env.run(&["init"]);
    assert!(again.stdout.contains("exists        hook Stop"), "{again}");
    assert_eq!(
        before,
        fs::read_to_string(env.claude().join("settings.json")).unwrap()
    );
}

#[test]
fn malformed_settings_stop_init_before_any_write() {
    let env = TestEnv::new();
    fs::create_dir_all(env.claude()).unwrap();
    fs::write(
        env.claude().join("settings.json"),
        "{\n  \"hooks\": {,\n}\n",
    )
    .unwrap();
    let out = env.run(&["init"]);
    out.failure();
    assert!(
        out.stderr
            .starts_with("error: $HOME/.claude/settings.json:2: not valid JSON"),
        "{out}"
    );
    assert!(!env.memory().exists(), "nothing written");
    assert_eq!(
        fs::read_to_string(env.claude().join("settings.json")).unwrap(),
        "{\n  \"hooks\": {,\n}\n"
    );
}

#[test]
fn uninstall_removes_exactly_what_init_added() {
    let env = with_foreign_settings();
    env.run(&["init", "--statusline"]).success();
    assert!(
        settings(&env)["statusLine"]["command"]
            .as_str()
            .unwrap()
            .contains("statusline --then '~/bin/status.sh'")
    );
    let out = env.run(&["uninstall"]);
    out.success();
    insta::assert_snapshot!("uninstall", out.to_string());
    let original: Value = serde_json::from_str(FOREIGN).unwrap();
    assert_eq!(settings(&env), original);
    assert!(!env.claude().join("commands/evolve.md").exists());
    assert!(
        env.memory().join("identity.json").exists(),
        "the memory stays"
    );
    let again = env.run(&["uninstall"]);
    assert_eq!(
        again.stdout,
        "Nothing of homunculus is installed in Claude Code.\n"
    );
}

#[test]
fn project_flag_writes_project_settings() {
    let env = TestEnv::new();
    let project = env.project();
    let out = env
        .cmd()
        .current_dir(&project)
        .args(["init", "--project"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s: Value =
        serde_json::from_str(&fs::read_to_string(project.join(".claude/settings.json")).unwrap())
            .unwrap();
    assert!(s["hooks"]["UserPromptSubmit"].is_array());
    assert!(!env.claude().join("settings.json").exists());
}

#[test]
fn doctor_reports_wiring() {
    let env = with_foreign_settings();
    let before = env.run(&["doctor"]);
    before.failure();
    assert!(before.stdout.contains("FAIL  hooks missing"), "{before}");
    env.run(&["init"]).success();
    let after = env.run(&["doctor"]);
    after.success();
    assert!(
        after.stdout.contains("ok    all 8 hooks registered"),
        "{after}"
    );
}

#[test]
fn statusline_logs_and_passes_through() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let input = r#"{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/p","context_window":{"used_percentage":16}}"#;
    let out = env
        .cmd()
        .args(["statusline", "--then", "cat >/dev/null; echo model-x"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "model-x\n");
    let quiet = env
        .cmd()
        .arg("statusline")
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(quiet.stdout.is_empty());
    let log = env.read("logs/activity.jsonl");
    assert_eq!(log.lines().count(), 2);
    assert!(
        log.contains("\"used_percentage\":16.0") || log.contains("\"used_percentage\":16"),
        "{log}"
    );
}
