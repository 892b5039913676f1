//! The Claude Code plugin: `init --plugin` writes a skills-directory plugin instead of
//! editing settings.json, the two wirings never both run, and the repository plugin's
//! launcher never fails a session when the binary is missing.

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common::TestEnv;

fn json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn has_our_hooks(env: &TestEnv) -> bool {
    fs::read_to_string(env.claude().join("settings.json")).is_ok_and(|t| t.contains(" hook "))
}

#[test]
fn init_plugin_replaces_the_settings_registration_and_back() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    assert!(has_our_hooks(&env));
    let out = env.run(&["init", "--plugin"]);
    out.success();
    let plugin = env.claude().join("skills/homunculus");
    let hooks = json(&plugin.join("hooks/hooks.json"));
    let start = &hooks["hooks"]["SessionStart"][0]["hooks"][0];
    assert_eq!(
        start["args"],
        serde_json::json!(["hook", "session-start"]),
        "{hooks}"
    );
    assert!(
        start["command"].as_str().unwrap().ends_with("/homunculus"),
        "exec form, no shell: {start}"
    );
    assert_eq!(
        json(&plugin.join(".mcp.json"))["mcpServers"]["homunculus"]["args"][0],
        "mcp"
    );
    assert!(plugin.join("commands/feedback.md").exists());
    assert!(!has_our_hooks(&env), "{out}");
    assert!(!env.claude().join("commands/feedback.md").exists(), "{out}");
    assert!(
        !fs::read_to_string(env.home.join(".claude.json"))
            .unwrap_or_default()
            .contains("homunculus")
    );
    // The memory never lives in the plugin.
    assert!(env.memory().join("identity.json").exists());
    let doctor = env.run(&["doctor"]);
    assert!(doctor.stdout.contains("wired by the plugin"), "{doctor}");
    // Plain init takes the plugin out again.
    env.run(&["init"]).success();
    assert!(!plugin.exists());
    assert!(has_our_hooks(&env));
    env.run(&["init", "--plugin"]).success();
    let out = env.run(&["uninstall"]);
    out.success();
    assert!(!plugin.exists(), "{out}");
}

#[test]
fn a_folder_of_someone_else_is_never_overwritten() {
    let env = TestEnv::new();
    let plugin = env.claude().join("skills/homunculus");
    fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
    fs::write(
        plugin.join(".claude-plugin/plugin.json"),
        r#"{"name":"homunculus","author":{"name":"someone"}}"#,
    )
    .unwrap();
    let out = env.run(&["init", "--plugin"]);
    out.failure();
    assert!(out.stderr.contains("is not homunculus's plugin"), "{out}");
    env.run(&["uninstall"]).success();
    assert!(plugin.join(".claude-plugin/plugin.json").exists());
}

#[test]
fn a_plugin_copy_stands_down_while_settings_json_has_the_hooks() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let payload = env.payload("post_tool_use_bash");
    let observations = env.memory().join("observations");
    let recorded = || {
        fs::read_dir(&observations)
            .map(|d| d.flatten().count())
            .unwrap_or(0)
    };
    let run = |plugin_root: Option<&str>| {
        let mut cmd = env.cmd();
        if let Some(root) = plugin_root {
            cmd.env("CLAUDE_PLUGIN_ROOT", root);
        }
        let out = cmd
            .args(["hook", "post-tool-use"])
            .write_stdin(payload.clone())
            .output()
            .unwrap();
        assert!(out.status.success() && out.stdout.is_empty());
    };
    run(Some("/plugins/cache/homunculus/0.1.0"));
    assert_eq!(recorded(), 0, "the plugin's copy stood down");
    run(None);
    assert_eq!(recorded(), 1, "the settings.json copy answered");
    // Once the plugin is the only wiring, it runs.
    env.run(&["init", "--plugin"]).success();
    fs::remove_dir_all(&observations).unwrap();
    run(Some("/plugins/cache/homunculus/0.1.0"));
    assert_eq!(recorded(), 1);
}

/// The launcher with `dir` as the whole PATH (plus the shell's own tools).
fn launcher(path: &str, args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin/bin/homunculus-hook");
    let mut child = Command::new(&script)
        .args(args)
        .env_clear()
        .env("PATH", path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The launcher may exit without reading its input (no binary to hand it to): a
    // closed pipe then is its right, not a failure.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

#[test]
fn the_launcher_says_once_how_to_install_and_never_fails_the_session() {
    let env = TestEnv::new();
    let empty = env.home.join("empty-bin");
    fs::create_dir_all(&empty).unwrap();
    let path = format!("{}:/usr/bin:/bin", empty.display());
    let start = launcher(
        &path,
        &["hook", "session-start"],
        &env.payload("session_start_startup"),
    );
    assert!(start.status.success());
    let answer: Value = serde_json::from_slice(&start.stdout).unwrap();
    assert!(
        answer["systemMessage"]
            .as_str()
            .unwrap()
            .contains("cargo install"),
        "{answer}"
    );
    for event in ["post-tool-use", "user-prompt-submit", "stop"] {
        let out = launcher(&path, &["hook", event], "{}");
        assert!(out.status.success() && out.stdout.is_empty(), "{event}");
    }
    // With the binary on PATH it runs it.
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin("homunculus"),
        empty.join("homunculus"),
    )
    .unwrap();
    let mut cmd =
        Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin/bin/homunculus-hook"));
    let out = cmd
        .args(["--version"])
        .env_clear()
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("homunculus "),
        "{out:?}"
    );
}
