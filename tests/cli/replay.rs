//! `homunculus replay`: recorded sessions in Claude Code's transcript format teach what
//! they were written to teach, nothing from the must-not list, never our own injected
//! context; replaying the same history again reads nothing new and changes no file.

use crate::common::{TestEnv, fixture};

fn names(env: &TestEnv) -> Vec<String> {
    env.run(&["status", "--json"]).json()["instincts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn replay_learns_from_history_and_a_second_pass_changes_nothing() {
    let env = TestEnv::new();
    env.run(&["init", "--git"]).success();
    let projects = fixture("transcripts");
    let out = env.run(&["replay", projects.to_str().unwrap()]);
    out.success();
    insta::assert_snapshot!(
        "replay_first",
        out.to_string()
            .replace(&projects.display().to_string(), "$FIXTURES")
    );
    let learned = names(&env);
    assert_eq!(
        learned,
        [
            "architecture-migrations-goes-with-src-schema-rs",
            "architecture-src-schema-rs-goes-with-migrations",
            "testing-cargo-nextest-instead-of-cargo-test",
            "tooling-user-rule-use-pnpm-for-the-dashboard-not-npm",
        ]
    );
    // Must not: our own injected context, the subagent's side conversation, the quiet session.
    let everything = crate::common::snapshot_tree(&env.memory().join("instincts"));
    let text = format!("{everything:?}");
    assert!(
        !text.contains("force-yes") && !text.contains("staging database"),
        "{text}"
    );
    // One summary per replayed session (three teaching, one quiet).
    assert_eq!(
        std::fs::read_dir(env.memory().join("sessions"))
            .unwrap()
            .count(),
        4
    );
    // The memory itself: the markdown and identity.json (state and logs may move on).
    let memory = |env: &TestEnv| -> Vec<(std::path::PathBuf, String)> {
        crate::common::snapshot_tree(&env.memory())
            .into_iter()
            .filter(|(p, _)| {
                !p.components().any(|c| c.as_os_str() == ".git")
                    && (p.extension().is_some_and(|e| e == "md") || p.ends_with("identity.json"))
            })
            .collect()
    };
    let before = memory(&env);
    let again = env.run(&["replay", projects.to_str().unwrap()]);
    again.success();
    assert!(again.stdout.starts_with("Replayed 0 session(s)"), "{again}");
    assert!(again.stdout.contains("0 change(s)"), "{again}");
    let after = memory(&env);
    let changed: Vec<_> = after
        .iter()
        .filter(|f| !before.contains(f))
        .map(|f| &f.0)
        .collect();
    assert!(
        changed.is_empty() && after.len() == before.len(),
        "changed: {changed:?}"
    );
    let log = std::process::Command::new("git")
        .args(["log", "--oneline"])
        .current_dir(env.memory())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert_eq!(
        log.lines().filter(|l| l.contains("learned from")).count(),
        1,
        "{log}"
    );
}

#[test]
fn replay_of_nothing_is_an_error() {
    let env = TestEnv::new();
    let out = env.run(&["replay", env.home.to_str().unwrap()]);
    out.failure();
    assert_eq!(
        out.stderr,
        "error: no transcript files (*.jsonl) found in the given paths\n"
    );
}
