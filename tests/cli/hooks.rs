//! `homunculus hook <event>` for every event, with payloads shaped like Claude Code's:
//! what is recorded, what is injected, and that nothing hostile gets through.

use std::fs;

use serde_json::Value;

use crate::common::{TestEnv, snapshot_tree};

const SID: &str = "7c1e5a2b-3f4d-4e8a-9b6c-2d1f0e9a8b7c";

/// A memory with the bash-era fixture, initialised (convictions migrated, indexed).
fn ready() -> TestEnv {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["init"]).success();
    env
}

fn context(out: &crate::common::Output, event: &str) -> String {
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stderr.is_empty(), "{out}");
    let v: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], event, "{out}");
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

fn silent(out: &crate::common::Output) {
    assert_eq!(out.code, 0, "{out}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out}");
}

fn observations(env: &TestEnv) -> Vec<Value> {
    fs::read_to_string(env.memory().join(format!("observations/{SID}.jsonl")))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn hooks_log(env: &TestEnv) -> String {
    fs::read_to_string(env.memory().join("logs/hooks.log")).unwrap_or_default()
}

#[test]
fn session_start_injects_convictions_instincts_and_last_session() {
    let env = ready();
    let text = context(
        &env.hook("session-start", "session_start_startup"),
        "SessionStart",
    );
    insta::assert_snapshot!(
        "session_start",
        regex::Regex::new(r#"nonce="[0-9a-f]+""#)
            .unwrap()
            .replace_all(
                &text.replace(&env.home.display().to_string(), "$HOME"),
                r#"nonce="N""#
            )
    );
    assert!(text.chars().count() <= 4000);
    // Counted once per session, however many starts (resume, compact) it sees.
    for source in ["resume", "clear", "compact"] {
        context(
            &env.hook("session-start", &format!("session_start_{source}")),
            "SessionStart",
        );
    }
    let identity: Value = serde_json::from_str(&env.read("identity.json")).unwrap();
    assert_eq!(identity["session_count"], 43);
    let log = env.read("logs/injections.jsonl");
    let first: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "session-start");
    assert!(first["items"].as_array().unwrap().len() >= 3);
}

#[test]
fn tool_events_are_recorded_with_redaction_and_error_excerpts() {
    let env = ready();
    for (event, fixture) in [
        ("post-tool-use", "post_tool_use_bash"),
        ("post-tool-use", "post_tool_use_read"),
        ("post-tool-use", "post_tool_use_grep"),
        ("post-tool-use", "post_tool_use_glob"),
        ("post-tool-use", "post_tool_use_write"),
        ("post-tool-use", "post_tool_use_noisy"),
        ("post-tool-use", "post_tool_use_secret"),
        ("post-tool-use-failure", "post_tool_use_failure_bash"),
    ] {
        let out = env.hook(event, fixture);
        assert_eq!(out.code, 0, "{fixture}: {out}");
    }
    let obs = observations(&env);
    let tools: Vec<&str> = obs.iter().map(|o| o["tool"].as_str().unwrap()).collect();
    assert_eq!(
        tools,
        ["Bash", "Read", "Grep", "Glob", "Write", "Bash", "Bash"],
        "git status is noise"
    );
    assert_eq!(
        obs[0]["input"]["command"],
        "cargo nextest run -p ledger-core parse_amount"
    );
    assert_eq!(obs[0]["project"], "ledger-svc");
    assert_eq!(obs[2]["input"]["pattern"], "fn parse_amount");
    let secret = obs[5].to_string();
    assert!(
        !secret.contains("abcdef0123456789abcdef0123456789") && !secret.contains("ghp_"),
        "{secret}"
    );
    assert!(secret.contains("[REDACTED]"));
    let failure = &obs[6];
    assert_eq!(failure["event"], "failure");
    assert_eq!(failure["outcome"], "error");
    let error = failure["error"].as_str().unwrap();
    assert!(
        error.starts_with(
            "Exit code 101 | thread 'parse::negative_amount' panicked at src/parse.rs:42:9"
        ),
        "{error}"
    );
    assert!(error.chars().count() <= 300);
    assert_eq!(hooks_log(&env), "");
}

#[test]
fn a_cd_below_a_folder_outside_git_stays_in_the_sessions_project() {
    // Claude Code keeps the Bash tool's `cd`: the payload's cwd moves, the folder the
    // session started in (CLAUDE_PROJECT_DIR) does not.
    let env = ready();
    let notes = env.home.join("notes");
    let below = notes.join("drafts");
    fs::create_dir_all(&below).unwrap();
    let payload = |cwd: &std::path::Path| {
        serde_json::json!({
            "session_id": SID, "cwd": cwd, "hook_event_name": "PostToolUse",
            "tool_name": "Bash", "tool_input": {"command": "make html"},
            "tool_response": {"stdout": "built", "stderr": "", "interrupted": false},
        })
        .to_string()
    };
    for (started_in, cwd) in [(Some(&notes), &below), (None, &below)] {
        let mut cmd = env.cmd();
        if let Some(dir) = started_in {
            cmd.env("CLAUDE_PROJECT_DIR", dir);
        }
        cmd.args(["hook", "post-tool-use"])
            .write_stdin(payload(cwd))
            .assert()
            .success();
    }
    let projects: Vec<Value> = observations(&env)
        .iter()
        .map(|o| o["project"].clone())
        .collect();
    assert_eq!(projects, ["notes", "drafts"]);
    assert_eq!(hooks_log(&env), "");
}

#[test]
fn a_subagents_tool_calls_are_not_the_sessions_own() {
    // Replay learns from the main thread only; live, a subagent's failure recorded in
    // the session's stream would find its "fix" in the main thread's next command.
    let env = ready();
    silent(&env.hook("post-tool-use-failure", "post_tool_use_failure_subagent"));
    assert!(observations(&env).is_empty());
    env.hook("post-tool-use-failure", "post_tool_use_failure_bash")
        .success();
    assert_eq!(observations(&env).len(), 1);
    assert_eq!(hooks_log(&env), "");
}

#[test]
fn prompt_recall_is_gated_and_never_repeats() {
    let env = ready();
    for fixture in ["user_prompt_short", "user_prompt_slash"] {
        silent(&env.hook("user-prompt-submit", fixture));
    }
    let text = context(
        &env.hook("user-prompt-submit", "user_prompt_question"),
        "UserPromptSubmit",
    );
    assert!(text.contains("testing-use-nextest"), "{text}");
    // The same item never twice in a session.
    silent(&env.hook("user-prompt-submit", "user_prompt_question"));
    let prompts: Vec<Value> = observations(&env)
        .into_iter()
        .filter(|o| o["event"] == "prompt")
        .collect();
    assert_eq!(
        prompts.len(),
        4,
        "every prompt is recorded for correction mining"
    );
}

#[test]
fn recall_shadow_mode_logs_without_injecting() {
    let env = ready();
    fs::write(
        env.memory().join("config.toml"),
        "[recall]\nmode = \"shadow\"\n",
    )
    .unwrap();
    silent(&env.hook("user-prompt-submit", "user_prompt_question"));
    let log = env.read("logs/injections.jsonl");
    assert!(log.contains("\"mode\":\"shadow\""), "{log}");
}

#[test]
fn path_globs_inject_before_a_file_is_touched_once() {
    let env = ready();
    let text = context(&env.hook("pre-tool-use", "pre_tool_use_edit"), "PreToolUse");
    assert!(text.contains("code-style-prefer-early-return"), "{text}");
    silent(&env.hook("pre-tool-use", "pre_tool_use_edit"));
    silent(&env.hook("pre-tool-use", "post_tool_use_bash"));
}

#[test]
fn an_edit_recalls_past_work_on_the_file_once() {
    let env = ready();
    let text = context(
        &env.hook("post-tool-use", "post_tool_use_edit"),
        "PostToolUse",
    );
    assert!(
        text.contains("sessions/2026-02-19T174512Z-7c1e5a2.md"),
        "{text}"
    );
    silent(&env.hook("post-tool-use", "post_tool_use_edit"));
}

#[test]
fn stop_keeps_one_summary_per_session() {
    let env = ready();
    env.hook("session-start", "session_start_startup");
    env.hook("post-tool-use", "post_tool_use_edit");
    env.hook("post-tool-use-failure", "post_tool_use_failure_bash");
    silent(&env.hook("stop", "stop"));
    env.hook("post-tool-use", "post_tool_use_write");
    silent(&env.hook("stop", "stop"));
    silent(&env.hook("stop", "stop_active"));
    silent(&env.hook("pre-compact", "pre_compact"));
    silent(&env.hook("session-end", "session_end"));
    let sessions: Vec<_> = fs::read_dir(env.memory().join("sessions"))
        .unwrap()
        .collect();
    assert_eq!(sessions.len(), 2, "the fixture's old session and this one");
    let summary = env.read("sessions/2026-02-20T120000Z-7c1e5a2b.md");
    insta::assert_snapshot!(
        "session_summary",
        summary.replace(&env.home.display().to_string(), "$HOME")
    );
    let identity: Value = serde_json::from_str(&env.read("identity.json")).unwrap();
    assert_eq!(
        identity["session_count"], 43,
        "sessions are counted, not turns"
    );
}

#[test]
fn observer_child_does_nothing() {
    let env = ready();
    let before = snapshot_tree(&env.memory());
    let out = env
        .cmd()
        .env("HOMUNCULUS_OBSERVER", "1")
        .args(["hook", "post-tool-use"])
        .write_stdin(env.payload("post_tool_use_bash"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(before, snapshot_tree(&env.memory()));
}

#[test]
fn hostile_input_is_skipped_cleanly() {
    let env = ready();
    let write_of = |bytes: usize| {
        format!(
            "{{\"session_id\":\"{SID}\",\"cwd\":\"/tmp\",\"tool_name\":\"Write\",\"tool_input\":{{\"file_path\":\"/tmp/x\",\"content\":\"{}\"}}}}",
            "x".repeat(bytes)
        )
    };
    // Over the 8 MiB a hook reads: skipped and logged; under it: handled.
    let (huge, large) = (write_of(10 * 1024 * 1024), write_of(6 * 1024 * 1024));
    let cases: Vec<(&str, Vec<u8>, bool)> = vec![
        ("post-tool-use", Vec::new(), true),
        (
            "post-tool-use",
            b"{\"session_id\": \"abc\", \"tool_na".to_vec(),
            true,
        ),
        ("post-tool-use", vec![0xff, 0xfe, 0x00, 0x9f], true),
        ("post-tool-use", b"[1, 2, 3]".to_vec(), true),
        (
            "session-start",
            b"{\"session_id\": 42, \"cwd\": [\"/\"], \"source\": {}}".to_vec(),
            true,
        ),
        (
            "user-prompt-submit",
            b"{\"prompt\": 7, \"session_id\": null}".to_vec(),
            true,
        ),
        (
            "pre-tool-use",
            b"{\"tool_input\": \"not an object\", \"tool_name\": 3}".to_vec(),
            true,
        ),
        (
            "pre-tool-use",
            b"{\"session_id\": \"s\", \"tool_input\": \"not an object\", \"tool_name\": 3}"
                .to_vec(),
            false,
        ),
        (
            "stop",
            b"{\"session_id\": \"s\", \"stop_hook_active\": \"yes\", \"cwd\": 5}".to_vec(),
            false,
        ),
        ("no-such-event", b"{}".to_vec(), true),
        ("post-tool-use", huge.into_bytes(), true),
        ("post-tool-use", large.into_bytes(), false),
    ];
    env.project();
    let outside = |env: &TestEnv| -> Vec<_> {
        snapshot_tree(&env.home)
            .into_iter()
            .filter(|(p, _)| !p.starts_with(env.memory()))
            .collect()
    };
    let outside_before = outside(&env);
    for (n, (event, input, logged)) in cases.into_iter().enumerate() {
        let before = hooks_log(&env).lines().count();
        let out = env.hook_raw(event, input);
        assert_eq!(out.code, 0, "case {n}: {out}");
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "case {n}: {out}"
        );
        let after = hooks_log(&env).lines().count();
        assert_eq!(
            after - before,
            usize::from(logged),
            "case {n}: {}",
            hooks_log(&env)
        );
    }
    // A hostile session id names no path of its own.
    let evil = env
        .payload("post_tool_use_bash")
        .replace(SID, "../../../escape");
    env.hook_raw("post-tool-use", evil).success();
    let files: Vec<String> = fs::read_dir(env.memory().join("observations"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        files
            .iter()
            .any(|f| f.starts_with('h') && f.ends_with(".jsonl")),
        "{files:?}"
    );
    assert!(!env.home.join("escape.jsonl").exists());
    assert!(!env.memory().join("escape.jsonl").exists());
    assert_eq!(
        outside_before,
        outside(&env),
        "nothing written outside the memory folder"
    );
}

#[test]
fn odd_hook_arguments_never_exit_2() {
    let env = ready();
    for args in [
        vec!["hook"],
        vec!["hook", "stop", "--weird", "extra"],
        vec!["hook", "--help-me"],
    ] {
        let out = env.cmd().args(&args).write_stdin("{}").output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_hook_creates_a_missing_memory_folder() {
    let env = TestEnv::new();
    env.hook("post-tool-use", "post_tool_use_bash").success();
    assert!(env.memory().join("identity.json").exists());
    assert_eq!(observations(&env).len(), 1);
    assert!(
        !env.claude().join("settings.json").exists(),
        "hooks never touch settings"
    );
}

#[test]
fn censors_warn_and_block() {
    let env = ready();
    std::fs::write(
        env.memory().join("convictions/git-no-force-push.md"),
        "---\nname: \"no-force-push\"\naction: \"never force-push to main; open a PR\"\ndomain: git\ncensor: block\ncommand: \"git push .*--force\"\n---\n\n# No force push\n",
    )
    .unwrap();
    std::fs::write(
        env.instinct("security-migrations-review"),
        "---\ntrigger: \"when editing migrations\"\naction: \"ask for a review first\"\nconfidence: 0.6\ndomain: security\ncensor: block\npaths: [\"src/storage/**\"]\n---\n\n# Review migrations\n",
    )
    .unwrap();
    let push = env.payload("post_tool_use_bash").replace(
        "cargo nextest run -p ledger-core parse_amount",
        "git push origin main --force",
    );
    let out = env.hook_raw("pre-tool-use", push.replace("PostToolUse", "PreToolUse"));
    let v: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
    assert!(
        v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("never force-push")
    );
    // An instinct cannot block: it warns, on every matching call.
    for _ in 0..2 {
        let text = context(&env.hook("pre-tool-use", "pre_tool_use_edit"), "PreToolUse");
        assert!(text.contains("homunculus warning"), "{text}");
        assert!(text.contains("ask for a review first"), "{text}");
    }
    // A harmless command passes untouched.
    silent(&env.hook("pre-tool-use", "post_tool_use_bash"));
}

#[test]
fn a_nearly_full_context_earns_one_clear_advice() {
    let env = ready();
    let transcript = env.home.join("t.jsonl");
    fs::write(
        &transcript,
        "{\"type\":\"assistant\",\"message\":{\"model\":\"claude-sonnet-5-5\",\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":1000,\"cache_read_input_tokens\":178990,\"output_tokens\":50}}}\n",
    )
    .unwrap();
    let payload = env.payload("stop").replace(
        &format!(
            "{}/.claude/projects/-project/{SID}.jsonl",
            env.home.display()
        ),
        &transcript.display().to_string(),
    );
    assert!(payload.contains("t.jsonl"), "{payload}");
    let out = env.hook_raw("stop", payload.clone());
    let v: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(
        v["systemMessage"].as_str().unwrap().contains("/clear"),
        "{out}"
    );
    assert!(
        v.get("hookSpecificOutput").is_none(),
        "Stop never injects context"
    );
    silent(&env.hook_raw("stop", payload));
}

#[test]
fn a_transcript_path_that_is_a_fifo_or_a_device_cannot_hang_a_hook() {
    let env = ready();
    let fifo = env.home.join("transcript.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let zero = env.home.join("zero.jsonl");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for path in [&fifo, &zero] {
        for event in ["stop", "session-end", "pre-compact"] {
            let payload = format!(
                "{{\"session_id\":\"{SID}\",\"cwd\":\"/tmp\",\"transcript_path\":\"{}\",\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}}",
                path.display()
            );
            // A blocking open of the FIFO would never return; the test would time out.
            let out = env
                .cmd()
                .args(["hook", event])
                .write_stdin(payload)
                .timeout(std::time::Duration::from_secs(20))
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{event} on {}", path.display());
        }
    }
}

#[test]
fn a_broken_identity_does_not_switch_session_start_off() {
    let env = ready();
    // A git merge left conflict markers in it.
    std::fs::write(
        env.memory().join("identity.json"),
        "<<<<<<< HEAD\n{\"session_count\": 3}\n=======\n{\"session_count\": 4}\n>>>>>>> other\n",
    )
    .unwrap();
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("identity.json:1: invalid JSON"),
        "doctor names the broken file: {doctor}"
    );
    let out = env.hook("session-start", "session_start_startup");
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.contains("homunculus: learned memory"),
        "{}",
        out.stdout
    );
    // Rebuilt under the lock: the larger side of the conflict, plus this session; the
    // broken file is kept beside it.
    let identity: Value = serde_json::from_str(&env.read("identity.json")).unwrap();
    assert_eq!(identity["session_count"], 5, "{identity}");
    assert!(env.read("identity.json.broken").starts_with("<<<<<<< HEAD"));
    assert!(
        env.run(&["doctor"])
            .stdout
            .contains("identity.json was rebuilt")
    );
    std::fs::write(env.memory().join("identity.json"), "{\"session_count\": ").unwrap();
    env.run(&["evolve", "--promote"]).success();
    env.run(&["observe"]).success();
    assert_eq!(env.read("identity.json.broken-2"), "{\"session_count\": ");
    assert!(env.read("identity.json.broken").starts_with("<<<<<<< HEAD"));
}

#[test]
fn injections_lists_what_reached_the_model_and_why() {
    let env = ready();
    env.hook("session-start", "session_start_startup");
    let out = env.run(&["injections"]);
    out.success();
    assert!(out.stdout.contains("session-start (live"), "{out}");
    assert!(
        out.stdout
            .contains("instincts/personal/testing-use-nextest.md"),
        "{out}"
    );
    let json = env
        .run(&["injections", "--json", "--session", "7c1e5a2b"])
        .json();
    assert_eq!(json["injections"][0]["event"], "session-start");
    let none = env.run(&["injections", "--session", "nobody"]);
    assert!(
        none.stdout
            .contains("Nothing has been injected in a session starting nobody."),
        "{none}"
    );
}

#[test]
fn an_injected_memory_the_agent_acts_on_counts_as_used_once() {
    let env = ready();
    let text = context(
        &env.hook("user-prompt-submit", "user_prompt_question"),
        "UserPromptSubmit",
    );
    assert!(text.contains("testing-use-nextest"), "{text}");
    // A shell command unrelated to the advice is not a use of it.
    let other = env
        .payload("post_tool_use_bash")
        .replace("cargo nextest run -p ledger-core parse_amount", "ls -la");
    env.hook_raw("post-tool-use", other);
    let before = env.run(&["status", "--json"]).json();
    let nextest = |v: &Value| {
        v["instincts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == "testing-use-nextest")
            .cloned()
            .unwrap()
    };
    assert_eq!(nextest(&before)["injected"], 1, "{before}");
    assert_eq!(nextest(&before)["used"], 0, "{before}");
    // The advised command, run twice: used once in this session.
    env.hook("post-tool-use", "post_tool_use_bash");
    env.hook("post-tool-use", "post_tool_use_bash");
    let after = env.run(&["status", "--json"]).json();
    assert_eq!(nextest(&after)["used"], 1, "{after}");
    let out = env.run(&["status"]);
    assert!(out.stdout.contains("(injected 1 · used 1)"), "{out}");
    assert_eq!(hooks_log(&env), "");
}

#[test]
fn session_start_says_where_the_last_session_stopped() {
    let env = ready();
    let file = env.memory().join("sessions/2026-02-19T174512Z-7c1e5a2.md");
    // A title that ends on a colon, as a pasted issue's first line does.
    let mut text = fs::read_to_string(&file)
        .unwrap()
        .replace("# Session: ledger-svc", "# Work on issue LED-12:");
    text.push_str("\n## Summary\n\nAsked:\n- add a CSV export\nUnfinished: add a CSV export\nOutcome: The export test still fails on quoting.\n\n## Open tasks\n\n- [ ] quote fields with commas\n- [ ] document the flag\n");
    fs::write(&file, text).unwrap();
    env.run(&["reindex"]).success();
    let start = context(
        &env.hook("session-start", "session_start_startup"),
        "SessionStart",
    );
    let tail = start.split("## Last session here").nth(1).unwrap();
    assert!(
        tail.contains("Work on issue LED-12: The export test still fails on quoting."),
        "{start}"
    );
    assert!(
        tail.contains("It ended on a failure while working on: add a CSV export"),
        "{start}"
    );
    assert!(tail.contains("- [ ] quote fields with commas"), "{start}");
}

#[test]
fn two_sessions_with_the_same_id_prefix_in_the_same_second_keep_two_summaries() {
    let env = ready();
    for sid in [
        "7c1e5a2b-1111-4e8a-9b6c-2d1f0e9a8b7c",
        "7c1e5a2b-2222-4e8a-9b6c-2d1f0e9a8b7c",
    ] {
        for (event, fixture) in [("session-start", "session_start_startup"), ("stop", "stop")] {
            let payload = env.payload(fixture).replace(SID, sid);
            assert_eq!(env.hook_raw(event, payload).code, 0);
        }
    }
    let summaries: Vec<String> = fs::read_dir(env.memory().join("sessions"))
        .unwrap()
        .flatten()
        .map(|e| fs::read_to_string(e.path()).unwrap())
        .filter(|t| t.contains("7c1e5a2b-"))
        .collect();
    assert_eq!(summaries.len(), 2, "{summaries:#?}");
}

#[test]
fn a_hook_never_waits_for_or_takes_on_a_large_index_build() {
    let env = ready();
    let index = env.memory().join(".index");
    let session_start = |env: &TestEnv| {
        let started = std::time::Instant::now();
        let out = env.hook("session-start", "session_start_startup");
        assert_eq!(out.code, 0, "{out}");
        started.elapsed()
    };
    // No index, and another process holds the index lock (it is building one).
    std::fs::remove_dir_all(&index).unwrap();
    let lock = crate::common::hold_lock(&env.memory().join("state/locks/index.lock"));
    assert!(session_start(&env) < std::time::Duration::from_secs(2));
    assert!(
        hooks_log(&env).contains("it is being built"),
        "{}",
        hooks_log(&env)
    );
    drop(lock);
    // Few files but large ones: left to the watcher or `reindex`, not built inline.
    let body = "word ".repeat(27_000);
    for n in 0..40 {
        std::fs::write(
            env.memory().join(format!("episodes/2026-02-01-big-{n}.md")),
            format!("---\ndate: 2026-02-01\nproject: ledger-svc\n---\n\n# Big {n}\n\n{body}\n"),
        )
        .unwrap();
    }
    let _ = std::fs::remove_dir_all(&index);
    session_start(&env);
    assert!(
        !index.join("meta.json").exists(),
        "a hook built a 5 MB index inline"
    );
    assert!(hooks_log(&env).contains("builds it"), "{}", hooks_log(&env));
}

/// The commands recorded as run by the user in shell mode, in order.
fn ran(env: &TestEnv) -> Vec<String> {
    observations(env)
        .iter()
        .filter(|o| o["event"] == "shell")
        .map(|o| o["input"]["command"].as_str().unwrap().to_string())
        .collect()
}

/// `!` shell mode has no hook: each turn's end reads what the user ran from the
/// transcript, from where the last read stopped, so every command is recorded once; a
/// look is not recorded, nor a line still being written.
#[test]
fn stop_records_what_the_user_ran_in_shell_mode_once() {
    let env = ready();
    let project = env.project();
    let transcript = env.home.join("transcript.jsonl");
    let line = |ts: &str, text: &str| {
        serde_json::json!({
            "type": "user", "sessionId": SID, "cwd": project, "timestamp": ts,
            "message": {"role": "user", "content": [{"type": "text", "text": text}]},
        })
        .to_string()
            + "\n"
    };
    let stop = serde_json::json!({
        "session_id": SID, "transcript_path": transcript, "cwd": project,
        "hook_event_name": "Stop", "stop_hook_active": false,
    })
    .to_string();
    fs::write(
        &transcript,
        line(
            "2026-02-20T11:00:00Z",
            "<bash-input>cargo test</bash-input>",
        ) + &line("2026-02-20T11:00:01Z", "<bash-input>ls</bash-input>"),
    )
    .unwrap();
    // The first turns end at 11:10 (twice: nothing is recorded twice), the last at the
    // test's clock (12:00).
    for _ in 0..2 {
        let out = env
            .cmd()
            .env("HOMUNCULUS_NOW", "2026-02-20T11:10:00Z")
            .args(["hook", "stop"])
            .write_stdin(stop.clone())
            .output()
            .unwrap();
        assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    }
    let next = line(
        "2026-02-20T11:30:00Z",
        "<bash-input>cargo clippy</bash-input>",
    );
    let mut text = fs::read_to_string(&transcript).unwrap() + &next;
    text.push_str(&next[..20]);
    fs::write(&transcript, text).unwrap();
    silent(&env.hook_raw("stop", stop.clone()));
    assert_eq!(ran(&env), ["cargo test", "cargo clippy"]);
    // A transcript replaced by a shorter one is read again from its start: only what is
    // newer than the last command recorded is recorded.
    fs::write(
        &transcript,
        line(
            "2026-02-20T11:00:00Z",
            "<bash-input>cargo test</bash-input>",
        ) + &line("2026-02-20T11:45:00Z", "<bash-input>cargo doc</bash-input>"),
    )
    .unwrap();
    silent(&env.hook_raw("stop", stop));
    assert_eq!(ran(&env), ["cargo test", "cargo clippy", "cargo doc"]);
}

#[test]
fn where_we_left_off_is_the_newest_session_and_older_ones_left_open() {
    let env = ready();
    let sessions = env.memory().join("sessions");
    let old = sessions.join("2026-02-19T174512Z-7c1e5a2.md");
    let mut text = fs::read_to_string(&old).unwrap();
    text.push_str("\n## Open tasks\n\n- [ ] quote fields with commas\n");
    fs::write(&old, text).unwrap();
    for (stem, title, outcome) in [
        (
            "2026-02-20T060000Z-aaaa0001",
            "Rename the payee table",
            "renamed, tests pass.",
        ),
        (
            "2026-02-20T080000Z-aaaa0002",
            "Bump sqlx",
            "sqlx 0.8, builds clean.",
        ),
    ] {
        let sid = stem.rsplit('-').next().unwrap();
        fs::write(
            sessions.join(format!("{stem}.md")),
            format!(
                "---\ntype: session\ndate: {}-{}-{}T{}:00:00Z\nproject: ledger-svc\nsession_id: {sid}\n---\n\n# {title}\n\n## Summary\n\nOutcome: {outcome}\n",
                &stem[..4],
                &stem[5..7],
                &stem[8..10],
                &stem[11..13],
            ),
        )
        .unwrap();
    }
    env.run(&["reindex"]).success();
    let payload = env.payload("user_prompt_question").replace(
        "how should I run the test suite for the ledger parser?",
        "where did we leave off?",
    );
    let text = context(
        &env.hook_raw("user-prompt-submit", payload),
        "UserPromptSubmit",
    );
    assert!(text.contains("Bump sqlx"), "the newest session: {text}");
    assert!(
        text.contains("quote fields with commas"),
        "left open: {text}"
    );
    assert!(
        !text.contains("Rename the payee table"),
        "finished, older: {text}"
    );
}

#[test]
fn a_past_work_question_is_told_from_one_about_a_topic_by_what_the_memory_holds() {
    let env = ready();
    // The user's own remark, kept in a session summary, names no topic: a search by topic
    // never brings sessions.
    fs::write(
        env.memory()
            .join("sessions/2026-02-20T080000Z-aaaa0002.md"),
        "---\ntype: session\ndate: 2026-02-20T08:00:00Z\nproject: ledger-svc\nsession_id: aaaa0002\n---\n\n# Bump sqlx\n\n## Summary\n\nAsked: I accidently reverted the sqlx bump, redo it. Outcome: sqlx 0.8, builds clean.\n",
    )
    .unwrap();
    env.run(&["reindex"]).success();
    // Each question in a session of its own: a session is never shown an item twice.
    let ask = |prompt: &str, session: &str| {
        let payload = env
            .payload("user_prompt_question")
            .replace(
                "how should I run the test suite for the ledger parser?",
                prompt,
            )
            .replace("7c1e5a2b-3f4d-4e8a-9b6c-2d1f0e9a8b7c", session);
        env.hook_raw("user-prompt-submit", payload)
    };
    let text = context(
        &ask("I accidently closed you where did we leave off", "s-one"),
        "UserPromptSubmit",
    );
    assert!(text.contains("Bump sqlx"), "the newest session: {text}");
    let text = context(&ask("where did we leave off?", "s-two"), "UserPromptSubmit");
    assert!(text.contains("Bump sqlx"), "the newest session: {text}");
    // A word a lesson has names a topic: that question is answered by the topic.
    let out = ask("where did we leave off with the flaky port?", "s-three");
    assert_eq!(out.code, 0, "{out}");
    assert!(!out.stdout.contains("Bump sqlx"), "{out}");
}
