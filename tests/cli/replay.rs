//! `homunculus replay`: recorded sessions in Claude Code's transcript format teach what
//! they were written to teach, nothing from the must-not list, never our own injected
//! context; a second replay reinforces instead of duplicating.

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
fn replay_learns_from_history_and_reinforces_on_the_second_pass() {
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
            "architecture-migrations-001-amounts-sql-goes-with-src-schema-rs",
            "architecture-src-schema-rs-goes-with-migrations-001-amounts-sql",
            "testing-cargo-nextest-run-after-cargo-test-fails",
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
    let again = env.run(&["replay", projects.to_str().unwrap()]);
    again.success();
    assert_eq!(names(&env), learned, "no duplicates");
    assert!(
        again
            .stdout
            .contains("~ testing-cargo-nextest-run-after-cargo-test-fails 0.50→0.55"),
        "{again}"
    );
    let log = std::process::Command::new("git")
        .args(["log", "--oneline"])
        .current_dir(env.memory())
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&log.stdout);
    assert_eq!(
        log.lines().filter(|l| l.contains("learned from")).count(),
        2,
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
