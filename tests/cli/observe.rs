//! `homunculus observe`: observation streams that must teach (recoveries, corrections,
//! co-edits) and streams that must not; reinforcement on a second pass; exactly-once
//! application; git history; the llm engine with a fake `claude`.

use std::fs;

use serde_json::Value;

use crate::common::{TestEnv, fixture};

fn with_observations(names: &[&str]) -> TestEnv {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    for name in names {
        fs::copy(
            fixture(&format!("observations/{name}.jsonl")),
            env.memory().join(format!("observations/{name}.jsonl")),
        )
        .unwrap();
    }
    env
}

fn instincts(env: &TestEnv) -> Vec<Value> {
    env.run(&["status", "--json"]).json()["instincts"]
        .as_array()
        .unwrap()
        .clone()
}

fn names(env: &TestEnv) -> Vec<String> {
    instincts(env)
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn three_sessions_teach_recovery_correction_and_coedits() {
    let env = with_observations(&["session-1", "session-2", "session-3"]);
    let out = env.run(&["observe"]);
    out.success();
    insta::assert_snapshot!("observe_teaches", out.to_string());
    let all = names(&env);
    assert_eq!(all.len(), 3, "{all:?}");
    let recovery = env.read("instincts/personal/testing-cargo-nextest-instead-of-cargo-test.md");
    assert!(
        recovery.contains(
            "trigger: \"when `cargo test` fails with \\\"error: no test harness found for tests/it.rs\\\"\""
        ),
        "{recovery}"
    );
    assert!(recovery.contains("confidence: 0.50"));
    assert!(recovery.contains("project: \"ledger-svc\""));
    assert!(recovery.contains("source: builtin"));
    assert!(
        instincts(&env)
            .iter()
            .any(|i| i["trigger"] == "when editing migrations/* and src/schema.rs in ledger-svc")
    );
    assert_eq!(
        env.run(&["status", "--json"]).json()["pending_observations"],
        0
    );
    assert_eq!(
        fs::read_dir(env.memory().join("observations.archive"))
            .unwrap()
            .count(),
        3
    );
    // Nothing pending: the next run is not due, and forcing it changes nothing.
    let again = env.run(&["observe", "--force"]);
    again.success();
    assert!(again.stdout.contains("0 change(s)"), "{again}");
}

#[test]
fn must_not_create_anything_from_ordinary_work() {
    let env = with_observations(&["quiet-1", "quiet-2", "quiet-3"]);
    env.run(&["observe", "--force"]).success();
    assert_eq!(names(&env), Vec::<String>::new());
    let episodes = fs::read_dir(env.memory().join("episodes")).unwrap().count();
    assert_eq!(episodes, 0);
}

#[test]
fn one_sighting_is_an_episode_and_the_third_promotes_it() {
    let env = with_observations(&["session-1"]);
    env.run(&["observe", "--force"]).success();
    // The user's stated rule is an instinct at once; the recovery waits as an episode.
    assert_eq!(
        names(&env),
        ["tooling-user-rule-use-pnpm-for-the-dashboard-not-npm"]
    );
    assert!(
        env.read("instincts/personal/tooling-user-rule-use-pnpm-for-the-dashboard-not-npm.md")
            .contains("confidence: 0.60")
    );
    let episodes: Vec<String> = fs::read_dir(env.memory().join("episodes"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(episodes.len(), 1, "the recovery: {episodes:?}");
    // Dated by the event, not by the run.
    assert!(episodes[0].starts_with("2026-02-11-"), "{episodes:?}");
    for name in ["session-2", "session-3"] {
        fs::copy(
            fixture(&format!("observations/{name}.jsonl")),
            env.memory().join(format!("observations/{name}.jsonl")),
        )
        .unwrap();
    }
    env.run(&["observe", "--force"]).success();
    let all = names(&env);
    assert!(
        all.iter()
            .any(|n| n.starts_with("testing-cargo-nextest-instead")),
        "{all:?}"
    );
    let left = fs::read_dir(env.memory().join("episodes")).unwrap().count();
    assert_eq!(left, 0, "promoted episodes are removed");
}

#[test]
fn a_pattern_seen_again_reinforces_instead_of_duplicating() {
    let env = with_observations(&["session-1", "session-2", "session-3"]);
    env.run(&["observe"]).success();
    let before = names(&env);
    for name in ["session-1", "session-2", "session-3"] {
        let text = fs::read_to_string(fixture(&format!("observations/{name}.jsonl"))).unwrap();
        fs::write(
            env.memory()
                .join(format!("observations/again-{name}.jsonl")),
            text.replace("session-", "again-"),
        )
        .unwrap();
    }
    let mut later = env;
    later.now = "2026-02-21T12:00:00Z".into();
    let out = later.run(&["observe", "--force"]);
    out.success();
    assert_eq!(names(&later), before, "no duplicates");
    assert!(
        out.stdout
            .contains("~ testing-cargo-nextest-instead-of-cargo-test 0.45→0.55"),
        "{out}"
    );
}

#[test]
fn git_history_gets_one_commit_per_run_that_changed_something() {
    let env = with_observations(&["session-1", "session-2", "session-3"]);
    env.run(&["init", "--git"]).success();
    let out = env.run(&["observe"]);
    assert!(out.stdout.contains("Committed"), "{out}");
    env.run(&["observe", "--force"]).success();
    let log = std::process::Command::new("git")
        .args(["log", "--format=%s%n%b"])
        .current_dir(env.memory())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert_eq!(log.matches("homunculus: learned from").count(), 1, "{log}");
    assert!(
        log.contains("+ testing-cargo-nextest-instead-of-cargo-test 0.50"),
        "{log}"
    );
}

#[test]
fn the_observer_commits_only_what_it_wrote() {
    let env = with_observations(&["session-1", "session-2", "session-3"]);
    env.run(&["init", "--git"]).success();
    // The user's own note, not committed yet.
    fs::write(
        env.memory().join("convictions/my-own-rule.md"),
        "---\nname: my-own-rule\naction: x\ndomain: git\n---\n",
    )
    .unwrap();
    let out = env.run(&["observe"]);
    assert!(out.stdout.contains("Committed"), "{out}");
    let status = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(env.memory())
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(status.contains("?? convictions/my-own-rule.md"), "{status}");
    let shown = std::process::Command::new("git")
        .args(["show", "--name-only", "--format=", "HEAD"])
        .current_dir(env.memory())
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("instincts/personal/testing-cargo-nextest-instead-of-cargo-test.md"),
        "{shown}"
    );
    assert!(!shown.contains("my-own-rule"), "{shown}");
}

#[test]
fn dry_run_changes_nothing() {
    let env = with_observations(&["session-1", "session-2", "session-3"]);
    let before = crate::common::snapshot_tree(&env.memory());
    let out = env.run(&["observe", "--dry-run", "--force"]);
    out.success();
    assert!(out.stdout.contains("\"op\":\"create\""), "{out}");
    assert!(out.stdout.contains("Would apply at most"), "{out}");
    assert_eq!(before, crate::common::snapshot_tree(&env.memory()));
}

/// A run a hook started holds the observer lock: a due run from a hook gives way to
/// it, and one asked for with `--force` waits for it and then learns.
#[test]
fn a_forced_run_waits_for_the_run_in_progress() {
    let env = with_observations(&["session-1", "session-2", "session-3"]);
    let lock = crate::common::hold_lock(&env.memory().join("state/locks/observer.lock"));
    let out = env.run(&["observe"]);
    out.success();
    assert!(
        out.stdout.contains("another observer run is in progress"),
        "{out}"
    );
    let forced = env
        .spawnable()
        .args(["observe", "--force"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(
        names(&env).is_empty(),
        "learned while another run held the lock"
    );
    drop(lock);
    let done = forced.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success() && stdout.contains("Learned from"),
        "{stdout}"
    );
    assert_eq!(names(&env).len(), 3, "{:?}", names(&env));
}

fn llm_env() -> (TestEnv, std::path::PathBuf) {
    let env = with_observations(&["session-1"]);
    let log = env.home.join("fake-claude.log");
    let config = format!(
        "[observer]\nllm_command = \"{}\"\nllm_timeout = \"3s\"\n",
        fixture("fake-claude").display()
    );
    fs::write(env.memory().join("config.toml"), config).unwrap();
    env.run(&["trust"]).success();
    (env, log)
}

fn observe_llm(env: &TestEnv, log: &std::path::Path, mode: &str) -> crate::common::Output {
    let out = env
        .cmd()
        .env("FAKE_CLAUDE_MODE", mode)
        .env("FAKE_CLAUDE_LOG", log)
        .args(["observe", "--engine", "llm", "--force"])
        .output()
        .unwrap();
    crate::common::Output {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

#[test]
fn llm_engine_applies_valid_operations() {
    let (env, log) = llm_env();
    let out = observe_llm(&env, &log, "good");
    out.success();
    assert!(out.stdout.contains("+ testing-run-nextest 0.50"), "{out}");
    assert!(
        env.read("instincts/personal/testing-run-nextest.md")
            .contains("source: llm")
    );
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        "observer=1 lens=learnings conversation=no\n",
        "the child is marked"
    );
}

#[test]
fn llm_engine_refuses_hostile_and_survives_bad_answers() {
    for mode in ["hostile", "malformed", "prose", "huge"] {
        let (env, log) = llm_env();
        let before: Vec<_> = crate::common::snapshot_tree(&env.memory().join("instincts"));
        let out = observe_llm(&env, &log, mode);
        out.success();
        assert_eq!(
            before,
            crate::common::snapshot_tree(&env.memory().join("instincts")),
            "{mode}: {out}"
        );
        assert!(!std::path::Path::new("/tmp/pwned.md").exists());
        if mode == "hostile" {
            assert_eq!(out.stdout.matches("refused:").count(), 3, "{out}");
        }
    }
}

#[test]
fn llm_engine_failures_are_errors_and_consume_nothing() {
    for mode in ["fail", "slow"] {
        let (env, log) = llm_env();
        let out = observe_llm(&env, &log, mode);
        out.failure();
        assert!(
            out.stderr.starts_with("error: llm engine:"),
            "{mode}: {out}"
        );
        assert_eq!(
            env.run(&["status", "--json"]).json()["pending_observations"],
            9,
            "{mode}"
        );
    }
}

#[test]
fn llm_lenses_read_each_conversation_window_once() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let log = env.home.join("fake-claude.log");
    let config = format!(
        "[observer]\nengine = \"llm\"\nllm_command = \"{}\"\nllm_timeout = \"5s\"\n",
        fixture("fake-claude").display()
    );
    fs::write(env.memory().join("config.toml"), config).unwrap();
    env.run(&["trust"]).success();
    let projects = fixture("transcripts");
    let replay = |env: &TestEnv| {
        let out = env
            .cmd()
            .env("FAKE_CLAUDE_MODE", "prose")
            .env("FAKE_CLAUDE_LOG", &log)
            .args(["replay", projects.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    replay(&env);
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        "observer=1 lens=learnings conversation=yes\nobserver=1 lens=knowledge conversation=yes\n"
    );
    // The same transcripts again: nothing new is read, so the model is not asked again.
    replay(&env);
    let calls = fs::read_to_string(&log).unwrap();
    assert_eq!(calls.lines().count(), 2, "{calls}");
}

fn with_llm_command(command: &str) -> TestEnv {
    let env = with_observations(&["session-1"]);
    let config = format!("[observer]\nllm_command = {command:?}\nllm_timeout = \"2s\"\n");
    fs::write(env.memory().join("config.toml"), config).unwrap();
    env.run(&["trust"]).success();
    env
}

/// A config that names another command (arrived by `git pull`, say) runs nothing until
/// the user approves that exact command with `homunculus trust`.
#[test]
fn a_command_the_user_did_not_approve_never_runs() {
    let env = with_observations(&["session-1"]);
    let config = "[observer]\nllm_command = \"touch ran-it; echo '[]'\"\nllm_timeout = \"2s\"\n";
    fs::write(env.memory().join("config.toml"), config).unwrap();
    let out = env.run(&["observe", "--engine", "llm", "--force"]);
    out.failure();
    assert!(
        out.stderr
            .contains("is not approved; run `homunculus trust`"),
        "{out}"
    );
    assert!(!env.memory().join("ran-it").exists() && !env.home.join("ran-it").exists());
    let doctor = env.run(&["doctor"]);
    assert!(doctor.stdout.contains("not approved"), "{doctor}");
    let trust = env.run(&["trust"]);
    trust.success();
    assert!(
        trust
            .stdout
            .starts_with("approved observer.llm_command: touch ran-it"),
        "{trust}"
    );
    // The approval is of that exact text: another command needs approving again.
    let other = "[observer]\nllm_command = \"touch other; echo '[]'\"\nllm_timeout = \"2s\"\n";
    fs::write(env.memory().join("config.toml"), other).unwrap();
    let out = env.run(&["observe", "--engine", "llm", "--force"]);
    out.failure();
    assert!(out.stderr.contains("is not approved"), "{out}");
}

#[test]
fn a_background_child_holding_stdout_cannot_outlive_the_timeout() {
    let env = with_llm_command("(sleep 60 &); echo '[]'");
    let started = std::time::Instant::now();
    let out = env
        .cmd()
        .args(["observe", "--engine", "llm", "--force"])
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("timed out after 2s"), "{stderr}");
}

#[test]
fn a_missing_command_says_so() {
    let env = with_llm_command("no-such-claude-here -p");
    let out = env.run(&["observe", "--engine", "llm", "--force"]);
    out.failure();
    assert!(
        out.stderr
            .contains("not found: is it installed and on PATH?"),
        "{out}"
    );
}

#[test]
fn a_config_others_can_write_never_runs_its_command() {
    use std::os::unix::fs::PermissionsExt;
    let env = with_llm_command("touch ran-it; echo '[]'");
    let config = env.memory().join("config.toml");
    fs::set_permissions(&config, fs::Permissions::from_mode(0o666)).unwrap();
    let out = env.run(&["observe", "--engine", "llm", "--force"]);
    out.failure();
    assert!(
        out.stderr.contains("refusing to run observer.llm_command"),
        "{out}"
    );
    assert!(!env.memory().join("ran-it").exists() && !env.home.join("ran-it").exists());
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("observer.llm_command will not run"),
        "{doctor}"
    );
}

#[test]
fn a_failed_run_is_logged_and_doctor_says_so() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["init"]).success();
    // The detached observer's stderr goes nowhere: its failure must reach the log.
    let out = env
        .cmd()
        .env("PATH", "/usr/bin:/bin")
        .args(["observe", "--engine", "llm", "--force"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let log = env.read("logs/observer.log");
    assert!(log.contains("run failed: llm engine"), "{log}");
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("the observer's last run failed"),
        "{doctor}"
    );
    env.run(&["observe", "--force"]).success();
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("the observer's last run: "),
        "{doctor}"
    );
}
