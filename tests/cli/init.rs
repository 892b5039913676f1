//! `homunculus init`: layout, permissions, idempotence, dry run, migration, git.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::{TestEnv, snapshot_tree};

fn mode(path: &std::path::Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn fresh_init_creates_layout_and_is_idempotent() {
    let env = TestEnv::new();
    let first = env.run(&["init"]);
    first.success();
    insta::assert_snapshot!("init_fresh", first.to_string());
    let m = env.memory();
    for dir in [
        "instincts/personal",
        "instincts/inherited",
        "convictions",
        "episodes",
        "sessions",
        "observations",
        "observations.archive",
        "state",
        "logs",
    ] {
        assert!(m.join(dir).is_dir(), "{dir}");
        assert_eq!(mode(&m.join(dir)), 0o700, "{dir}");
    }
    assert_eq!(mode(&m), 0o700);
    for file in ["identity.json", "config.toml", ".gitignore"] {
        assert_eq!(mode(&m.join(file)), 0o600, "{file}");
    }
    let identity: serde_json::Value = serde_json::from_str(&env.read("identity.json")).unwrap();
    assert_eq!(identity["session_count"], 0);
    assert_eq!(identity["created"], "2026-02-20T12:00:00Z");
    let gitignore = env.read(".gitignore");
    for line in [
        "observations/",
        "observations.archive/",
        "state/",
        "logs/",
        ".index/",
    ] {
        assert!(gitignore.lines().any(|l| l == line), "{line}");
    }
    let command = fs::read_to_string(env.claude().join("commands/instinct-status.md")).unwrap();
    assert!(command.contains(" status $ARGUMENTS`"));

    let before = snapshot_tree(&env.home);
    let second = env.run(&["init"]);
    second.success();
    insta::assert_snapshot!("init_again", second.to_string());
    assert_eq!(
        before,
        snapshot_tree(&env.home),
        "a second init changes nothing"
    );
}

#[test]
fn dry_run_writes_nothing() {
    let env = TestEnv::new();
    let out = env.run(&["init", "--dry-run"]);
    out.success();
    assert!(out.stdout.contains("would create"), "{out}");
    assert!(out.stdout.contains("Dry run: nothing was written."));
    assert!(!env.claude().exists(), "nothing under ~/.claude");
}

#[test]
fn foreign_slash_command_is_never_overwritten() {
    let env = TestEnv::new();
    let commands = env.claude().join("commands");
    fs::create_dir_all(&commands).unwrap();
    fs::write(commands.join("evolve.md"), "my own evolve command\n").unwrap();
    let out = env.run(&["init"]);
    out.success();
    assert!(
        out.stdout
            .contains("skipped (not ours) $HOME/.claude/commands/evolve.md"),
        "{out}"
    );
    assert_eq!(
        fs::read_to_string(commands.join("evolve.md")).unwrap(),
        "my own evolve command\n"
    );
    // Ours, edited by an older version: updated.
    let ours = commands.join("feedback.md");
    let text = fs::read_to_string(&ours)
        .unwrap()
        .replace("Show the result", "Show the old result");
    fs::write(&ours, text).unwrap();
    let out = env.run(&["init"]);
    assert!(
        out.stdout
            .contains("updated       $HOME/.claude/commands/feedback.md"),
        "{out}"
    );
}

#[test]
fn bash_era_folder_is_migrated_and_loads_unchanged() {
    let env = TestEnv::with_memory("bash-era");
    let nextest_before = fs::read_to_string(env.instinct("testing-use-nextest")).unwrap();
    let out = env.run(&["init"]);
    out.success();
    insta::assert_snapshot!("init_bash_era", out.to_string());
    // Existing identity kept as it was.
    assert!(env.read("identity.json").contains("\"session_count\": 42"));
    // convictions.md became one file per conviction, the original kept aside.
    assert!(!env.memory().join("convictions.md").exists());
    assert!(env.memory().join("convictions.md.migrated").exists());
    let launchd = env.read("convictions/tooling-launchd-reload.md");
    assert!(launchd.contains("name: \"launchd-reload\""), "{launchd}");
    assert!(launchd.contains("source_instinct: tooling-launchd-reload"));
    assert!(launchd.contains("domain: \"tooling\""));
    // The instinct now points at its own conviction file; nothing else changed.
    let (removed, added) = crate::common::changed_lines(
        &fs::read_to_string(crate::common::fixture(
            "bash-era/instincts/personal/git-autostash.md",
        ))
        .unwrap(),
        &fs::read_to_string(env.instinct("git-autostash")).unwrap(),
    );
    assert_eq!(
        removed,
        ["promoted_to: ~/.claude/homunculus/convictions.md"]
    );
    assert_eq!(added, ["promoted_to: convictions/git-autostash.md"]);
    // Unpromoted instincts are untouched.
    assert_eq!(
        fs::read_to_string(env.instinct("testing-use-nextest")).unwrap(),
        nextest_before
    );
    // Running again migrates nothing twice.
    let again = env.run(&["init"]);
    again.success();
    assert!(!again.stdout.contains("migrated"), "{again}");
}

#[test]
fn git_flag_makes_a_repository_with_one_commit() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["init", "--git"]);
    out.success();
    assert!(out.stdout.contains("committed"), "{out}");
    let log = std::process::Command::new("git")
        .args(["log", "--oneline"])
        .current_dir(env.memory())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert_eq!(log.lines().count(), 1, "{log}");
    let files = std::process::Command::new("git")
        .args(["ls-files"])
        .current_dir(env.memory())
        .output()
        .unwrap();
    let files = String::from_utf8_lossy(&files.stdout);
    assert!(files.contains("instincts/personal/testing-use-nextest.md"));
    assert!(
        !files.contains("observations/"),
        "observations stay out of git: {files}"
    );
    let again = env.run(&["init", "--git"]);
    again.success();
    assert!(!again.stdout.contains("committed"), "{again}");
}

#[test]
fn git_flag_without_git_says_so() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .env("PATH", "/nonexistent")
        .args(["init", "--git"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: git is not installed"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}
