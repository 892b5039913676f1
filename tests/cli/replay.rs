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
            "architecture-migrations-and-src-schema-rs-change-together",
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
    // `state/` deleted (it is not in git; a user may take it for a cache): replaying
    // again still learns nothing twice, archives nothing twice, counts no session twice.
    let archive = crate::common::snapshot_tree(&env.memory().join("observations.archive"));
    std::fs::remove_dir_all(env.memory().join("state")).unwrap();
    let without_state = env.run(&["replay", projects.to_str().unwrap()]);
    without_state.success();
    assert!(
        without_state.stdout.contains("0 change(s)"),
        "{without_state}"
    );
    assert_eq!(memory(&env), after, "{without_state}");
    assert_eq!(
        crate::common::snapshot_tree(&env.memory().join("observations.archive")),
        archive
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
    // Every session file replay began is committed, those that taught nothing too.
    let status = std::process::Command::new("git")
        .args([
            "status",
            "--porcelain",
            "--untracked-files=all",
            "--",
            "sessions",
        ])
        .current_dir(env.memory())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&status.stdout), "");
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

#[test]
fn bad_input_is_skipped_and_counted_never_a_partial_memory() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let dir = env.home.join("projects/-home-x-src-app");
    std::fs::create_dir_all(&dir).unwrap();
    // A real-shaped session with a truncated line, an unknown line type and junk.
    let good = std::fs::read_to_string(fixture(
        "transcripts/-home-alice-src-ledger-svc/00000001-aaaa-4bbb-8ccc-000000000001.jsonl",
    ))
    .unwrap();
    let mut mixed = good.clone();
    mixed.push_str("{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"trunc\n");
    mixed.push_str("{\"type\":\"future-kind\",\"sessionId\":\"x\"}\n");
    std::fs::write(
        dir.join("11111111-aaaa-4bbb-8ccc-000000000001.jsonl"),
        &mixed,
    )
    .unwrap();
    // Binary junk, another tool's JSON lines, and a file too large to read.
    std::fs::write(
        dir.join("junk.jsonl"),
        [0xff_u8, 0xfe, 0x00, 0x9f, b'\n', 0x80, b'{'],
    )
    .unwrap();
    std::fs::write(
        dir.join("other-tool.jsonl"),
        "{\"level\":\"info\",\"msg\":\"hello\"}\n[1,2,3]\n",
    )
    .unwrap();
    let big = std::fs::File::create(dir.join("huge.jsonl")).unwrap();
    big.set_len(100 * 1024 * 1024).unwrap();
    let out = env.run(&["replay", env.home.join("projects").to_str().unwrap()]);
    out.success();
    assert!(out.stdout.starts_with("Replayed 1 session(s)"), "{out}");
    assert!(
        out.stdout.contains("1 unreadable or too large, skipped"),
        "{out}"
    );
    assert!(out.stdout.contains("lines not understood"), "{out}");
    // Every memory file written parses.
    for (path, text) in crate::common::snapshot_tree(&env.memory()) {
        if path.extension().is_some_and(|e| e == "md") {
            assert!(text.starts_with("---\n"), "{}", path.display());
        }
    }
}

/// What the user runs themselves in `!` shell mode (no hook carries it; the turn's end
/// reads it from the transcript): a check run in three sessions of a project is how they
/// check their work there, in their words; one run in one session is nothing.
#[test]
fn the_checks_the_user_runs_in_shell_mode_are_learned_as_theirs() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let projects = fixture("transcripts-shell-mode");
    env.run(&["replay", projects.to_str().unwrap()]).success();
    let learned = names(&env);
    assert_eq!(learned, ["testing-the-user-checks-with-nix-flake-check"]);
    let text = env.read("instincts/personal/testing-the-user-checks-with-nix-flake-check.md");
    assert!(text.contains("project: \"conf\""), "{text}");
    assert!(text.contains("provenance: user"), "{text}");
    assert!(
        text.contains("pattern: \"check:conf:nix flake check\""),
        "{text}"
    );
    assert!(
        text.contains("run `nix flake check` to check changes"),
        "{text}"
    );
    // `git status` is a look and `make test` ran in one session of another project.
    let markdown: Vec<_> = crate::common::snapshot_tree(&env.memory())
        .into_iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "md"))
        .collect();
    let everything = format!("{markdown:?}");
    assert!(!everything.contains("git status"), "a look became a memory");
    assert!(!everything.contains("make test"), "one run became a memory");
}
