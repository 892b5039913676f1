//! Codex as a second agent: `init --agent codex` wires Codex's own files, Codex's hook
//! payloads (captured from its schemas into fixtures/codex) are recorded and learned
//! from like Claude Code's, and what one agent taught is recalled in the other.

use std::fs;

use serde_json::Value;

use crate::common::{TestEnv, fixture};

/// A Codex fixture for session `n`, in the test's project.
fn payload(env: &TestEnv, name: &str, n: usize) -> String {
    fs::read_to_string(fixture(&format!("codex/{name}.json")))
        .unwrap()
        .replace("$PROJECT", &env.project().display().to_string())
        .replace("$HOME", &env.home.display().to_string())
        .replace("$SID", &format!("019a7c3e-0000-7000-8000-00000000000{n}"))
        .replace("$N", &n.to_string())
}

fn context(out: &crate::common::Output) -> String {
    assert_eq!(out.code, 0, "{out}");
    if out.stdout.trim().is_empty() {
        return String::new();
    }
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn init_agent_codex_wires_codex_and_uninstall_unwires_it() {
    let env = TestEnv::new();
    let codex = env.home.join(".codex");
    fs::create_dir_all(&codex).unwrap();
    fs::write(codex.join("config.toml"), "# mine\nmodel = \"o4\"\n").unwrap();
    env.run(&["init", "--agent", "codex"]).success();
    let hooks: Value =
        serde_json::from_str(&fs::read_to_string(codex.join("hooks.json")).unwrap()).unwrap();
    let events: Vec<&String> = hooks["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "PreCompact",
            "Stop"
        ],
        "only the events Codex has"
    );
    let config = fs::read_to_string(codex.join("config.toml")).unwrap();
    assert!(
        config.starts_with("# mine\nmodel = \"o4\"\n")
            && config.contains("[mcp_servers.homunculus]"),
        "{config}"
    );
    // Claude Code's files are not touched by a Codex install; doctor sees the wiring.
    assert!(!env.claude().join("settings.json").exists());
    assert!(env.run(&["doctor"]).stdout.contains("Codex: our hooks in"));
    env.run(&["uninstall", "--agent", "codex"]).success();
    assert_eq!(
        fs::read_to_string(codex.join("config.toml")).unwrap(),
        "# mine\nmodel = \"o4\"\n"
    );
    assert!(
        !codex.join("hooks.json").exists(),
        "init created it, uninstall removes it"
    );
}

#[test]
fn what_codex_taught_claude_code_recalls() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    for n in 1..=3 {
        for (event, name) in [
            ("session-start", "session_start"),
            ("user-prompt-submit", "user_prompt_submit"),
            ("post-tool-use", "post_tool_use_bash_failed"),
            ("post-tool-use", "post_tool_use_bash_ok"),
            ("stop", "stop"),
        ] {
            let out = env.hook_raw(event, payload(&env, name, n));
            assert_eq!(out.code, 0, "{out}");
        }
    }
    // The failed command was recorded as a failure, with its error.
    let recorded: String = fs::read_dir(env.memory().join("observations"))
        .unwrap()
        .flatten()
        .map(|e| fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(
        recorded.contains("\"event\":\"failure\"") && recorded.contains("No rule to make target"),
        "{recorded}"
    );
    env.run(&["observe", "--force"]).success();
    let status = env.run(&["status", "--json"]).json();
    let learned = status["instincts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["action"].as_str().unwrap_or("").contains("make check"));
    assert!(learned.is_some(), "{status}");
    // Claude Code, in the same project, is handed the lesson at session start.
    let start = env.hook("session-start", "session_start_startup");
    assert!(context(&start).contains("make check"), "{start}");
}

#[test]
fn an_apply_patch_fires_the_path_triggers_of_the_files_it_names() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    fs::write(
        env.memory().join("instincts/personal/architecture-storage-invariants.md"),
        "---\ntrigger: \"when editing the storage layer\"\naction: \"keep amounts in integer cents; never f64\"\nconfidence: 0.8\ndomain: architecture\ncreated: 2026-02-01T00:00:00Z\nlast_seen: 2026-02-19T00:00:00Z\npaths: [\"src/storage/**\"]\n---\n\n# Integer cents\n\n## Evidence\n\n- seen\n",
    )
    .unwrap();
    env.hook_raw("session-start", payload(&env, "session_start", 1));
    let out = env.hook_raw("pre-tool-use", payload(&env, "pre_tool_use_apply_patch", 1));
    let text = context(&out);
    assert!(text.contains("integer cents"), "{out}");
    let answer: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
}

#[test]
fn replay_reads_codex_session_files_and_learns_from_them() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let sessions = env.home.join(".codex/sessions/2026/11/20");
    fs::create_dir_all(&sessions).unwrap();
    let project = env.project().display().to_string();
    for entry in fs::read_dir(fixture("codex/sessions/2026/11/20"))
        .unwrap()
        .flatten()
    {
        let text = fs::read_to_string(entry.path())
            .unwrap()
            .replace("$PROJECT", &project);
        fs::write(sessions.join(entry.file_name()), text).unwrap();
    }
    let out = env.run(&[
        "replay",
        &env.home.join(".codex/sessions").display().to_string(),
    ]);
    out.success();
    assert!(out.stdout.contains("Replayed 3 session(s)"), "{out}");
    let status = env.run(&["status", "--json"]).json();
    assert!(
        status["instincts"].as_array().unwrap().iter().any(|i| {
            i["trigger"].as_str().unwrap_or("").contains("make test")
                && i["action"].as_str().unwrap_or("").contains("make check")
        }),
        "{status}"
    );
    // Codex's own wrappers are not prompts, and the patch's file was edited.
    let summaries: String = fs::read_dir(env.memory().join("sessions"))
        .unwrap()
        .flatten()
        .map(|e| fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(summaries.contains("report-1.md"), "{summaries}");
    assert!(!summaries.contains("environment_context"), "{summaries}");
}
