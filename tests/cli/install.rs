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
    // Checked in and shared: every clone calls `homunculus` from its own PATH, never
    // this machine's path to the binary.
    let command = s["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert_eq!(command, "homunculus hook user-prompt-submit");
    // Removing the project's hooks leaves the user-level slash commands alone.
    let commands = env.claude().join("commands");
    let before: Vec<_> = fs::read_dir(&commands)
        .map(|d| d.count())
        .into_iter()
        .collect();
    assert!(
        before.first().is_some_and(|n| *n > 0),
        "init installs the slash commands"
    );
    let out = env
        .cmd()
        .current_dir(&project)
        .args(["uninstall", "--project"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let after: Vec<_> = fs::read_dir(&commands)
        .map(|d| d.count())
        .into_iter()
        .collect();
    assert_eq!(before, after, "{}", String::from_utf8_lossy(&out.stdout));
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
    let json = env.run(&["doctor", "--json"]);
    json.success();
    let v = json.json();
    assert_eq!(v["ok"], true);
    assert_eq!(v["checks"][0]["level"], "ok");
    assert!(
        v["checks"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("all 8 hooks registered")
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

/// Content serde_json alone would rewrite: tabs, key order, a number it cannot spell
/// back, a float in exponent form, no final newline.
const UNUSUAL: &str = "{\n\t\"zeta\": 1,\n\t\"alpha\": {\"id\": 123456789012345678901234, \"ratio\": 1e3},\n\t\"hooks\": {\n\t\t\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/notify.sh\"}]}]\n\t}\n}";

#[test]
fn uninstall_after_init_gives_back_the_same_bytes_and_leaves_nothing_behind() {
    let env = TestEnv::new();
    fs::create_dir_all(env.claude()).unwrap();
    let file = env.claude().join("settings.json");
    fs::write(&file, UNUSUAL).unwrap();
    env.run(&["init"]).success();
    let installed = fs::read_to_string(&file).unwrap();
    assert!(installed.contains("123456789012345678901234") && installed.contains("1e3"));
    assert!(
        installed.starts_with("{\n\t\"zeta\": 1,\n\t\"alpha\""),
        "{installed}"
    );
    assert!(!installed.ends_with('\n'));
    let out = env.run(&["uninstall"]);
    out.success();
    assert!(out.stdout.contains("as it was before init"), "{out}");
    assert_eq!(fs::read_to_string(&file).unwrap(), UNUSUAL);
    assert!(
        !env.claude()
            .join("settings.json.homunculus-backup")
            .exists()
    );
    assert!(
        !env.claude().join("commands").exists(),
        "no empty commands/"
    );

    let fresh = TestEnv::new();
    fresh.run(&["init"]).success();
    fresh.run(&["uninstall"]).success();
    assert!(
        !fresh.claude().join("settings.json").exists(),
        "no {{}} file where there was none"
    );
}

#[test]
fn a_symlinked_settings_file_is_written_through_and_stays_a_link() {
    let env = TestEnv::new();
    let dotfiles = env.home.join("dotfiles/claude");
    fs::create_dir_all(&dotfiles).unwrap();
    fs::create_dir_all(env.claude()).unwrap();
    fs::write(dotfiles.join("settings.json"), FOREIGN).unwrap();
    let link = env.claude().join("settings.json");
    std::os::unix::fs::symlink("../dotfiles/claude/settings.json", &link).unwrap();
    env.run(&["init"]).success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(dotfiles.join("settings.json"))
            .unwrap()
            .contains("hook session-start")
    );
    env.run(&["uninstall"]).success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_to_string(dotfiles.join("settings.json")).unwrap(),
        FOREIGN
    );
}

#[test]
fn read_only_settings_and_shapes_we_would_overwrite_are_refused_untouched() {
    use std::os::unix::fs::PermissionsExt;
    let env = with_foreign_settings();
    let file = env.claude().join("settings.json");
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    let out = env.run(&["init"]);
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("settings.json is read-only"), "{out}");
    assert_eq!(fs::read_to_string(&file).unwrap(), FOREIGN);

    for text in [
        "{\"hooks\": \"managed elsewhere\"}\n",
        "{\"hooks\": {\"Stop\": {\"command\": \"x\"}}}\n",
    ] {
        let env = TestEnv::new();
        fs::create_dir_all(env.claude()).unwrap();
        fs::write(env.claude().join("settings.json"), text).unwrap();
        let out = env.run(&["init"]);
        assert_eq!(out.code, 1, "{out}");
        assert!(out.stderr.contains("will not replace it"), "{out}");
        assert_eq!(
            fs::read_to_string(env.claude().join("settings.json")).unwrap(),
            text
        );
        assert!(!env.memory().exists(), "refused before any write");
    }
}

#[test]
fn hooks_of_another_copy_are_left_alone_and_reported() {
    let env = TestEnv::new();
    let other = env.home.join("opt/x/homunculus");
    fs::create_dir_all(other.parent().unwrap()).unwrap();
    fs::write(&other, "#!/bin/sh\n").unwrap();
    let theirs = format!(
        "{{\"hooks\": {{\"Stop\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"{} hook stop\"}}]}}]}}}}\n",
        other.display()
    );
    fs::create_dir_all(env.claude()).unwrap();
    fs::write(env.claude().join("settings.json"), &theirs).unwrap();
    let out = env.run(&["init"]);
    out.success();
    assert!(
        out.stdout
            .contains("hooks of another copy, $HOME/opt/x/homunculus"),
        "{out}"
    );
    assert_eq!(settings(&env)["hooks"]["Stop"].as_array().unwrap().len(), 2);
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor
            .stdout
            .contains("another copy of homunculus, $HOME/opt/x/homunculus"),
        "{doctor}"
    );
    env.run(&["uninstall"]).success();
    assert_eq!(
        fs::read_to_string(env.claude().join("settings.json")).unwrap(),
        theirs
    );
}

/// A FIFO at `path` (what a hostile or confused setup could leave there).
fn fifo(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn settings_that_lead_to_a_device_a_fifo_or_a_long_chain_are_refused() {
    let env = TestEnv::new();
    fs::create_dir_all(env.claude()).unwrap();
    let settings = env.claude().join("settings.json");
    // A link to a device: the device stays a device.
    std::os::unix::fs::symlink("/dev/null", &settings).unwrap();
    let out = env.run(&["init"]);
    out.failure();
    assert!(out.stderr.contains("is not a regular file"), "{out}");
    {
        use std::os::unix::fs::FileTypeExt;
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    // A FIFO (directly, or behind a link): refused at once, never waited on.
    fs::remove_file(&settings).unwrap();
    let pipe = env.home.join("pipe");
    fifo(&pipe);
    std::os::unix::fs::symlink(&pipe, &settings).unwrap();
    for args in [&["init"][..], &["uninstall"][..]] {
        let started = std::time::Instant::now();
        let out = env.run(args);
        out.failure();
        assert!(out.stderr.contains("is not a regular file"), "{out}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
    // A chain of 40 links is not cut in the middle.
    fs::remove_file(&settings).unwrap();
    let mut next = env.home.join("real.json");
    fs::write(&next, "{}").unwrap();
    for n in 0..40 {
        let link = env.home.join(format!("link{n}"));
        std::os::unix::fs::symlink(&next, &link).unwrap();
        next = link;
    }
    std::os::unix::fs::symlink(&next, &settings).unwrap();
    let out = env.run(&["init"]);
    out.failure();
    assert!(out.stderr.contains("more than 32 symbolic links"), "{out}");
    assert_eq!(
        fs::read_to_string(env.home.join("real.json")).unwrap(),
        "{}"
    );
}
