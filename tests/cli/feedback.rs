//! `homunculus feedback`: the arithmetic through the binary, lossless edits, bad input.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::{TestEnv, changed_lines, fixture, snapshot_tree};

#[test]
fn strong_changes_only_confidence_last_seen_and_one_bullet() {
    let env = TestEnv::with_memory("bash-era");
    let path = env.instinct("code-style-prefer-early-return");
    let before = fs::read_to_string(&path).unwrap();
    let out = env.run(&["feedback", "code-style-prefer-early-return", "strong"]);
    out.success();
    insta::assert_snapshot!("feedback_strong", out.to_string());
    let after = fs::read_to_string(&path).unwrap();
    let (removed, added) = changed_lines(&before, &after);
    assert_eq!(
        removed,
        ["confidence: 0.62", "last_seen: 2026-02-16T08:00:00Z",]
    );
    assert_eq!(
        added,
        [
            "confidence: 0.72",
            "last_seen: 2026-02-20T12:00:00Z",
            // The user vouched for it (DESIGN: `confirmed_by`, set by feedback strong).
            "confirmed_by: user",
            "- 2026-02-20: feedback strong (0.62 → 0.72)",
        ]
    );
}

#[test]
fn feedback_commits_only_its_own_change_and_only_the_changed_lines() {
    let env = TestEnv::with_memory("bash-era");
    assert_eq!(env.run(&["init", "--git"]).code, 0);
    // The user is editing another instinct by hand, not committed yet.
    let mine = env.instinct("tooling-launchd-reload");
    let text = std::fs::read_to_string(&mine).unwrap() + "\nmy own note\n";
    std::fs::write(&mine, text).unwrap();
    let out = env.run(&["feedback", "testing-use-nextest", "strong"]);
    out.success();
    assert!(
        out.stdout
            .contains("Committed to the memory folder's git history"),
        "{out}"
    );
    assert!(
        env.git(&["log", "-1", "--format=%s"])
            .starts_with("homunculus: feedback strong on testing-use-nextest")
    );
    assert_eq!(
        env.git(&["status", "--porcelain"]).trim(),
        "M instincts/personal/tooling-launchd-reload.md",
        "the user's edit stays theirs to commit"
    );
    let diff = env.git(&["show", "HEAD", "--unified=0", "--no-color", "--format="]);
    let changes: Vec<&str> = diff
        .lines()
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-'))
                && !l.starts_with("+++")
                && !l.starts_with("---")
        })
        .collect();
    assert_eq!(
        changes,
        [
            "-confidence: 0.80",
            "+confidence: 0.90",
            "-last_seen: 2026-02-18T10:15:00Z",
            "+last_seen: 2026-02-20T12:00:00Z",
            "+confirmed_by: user",
            "+- 2026-02-20: feedback strong (0.80 → 0.90)",
        ],
        "{diff}"
    );
}

#[test]
fn weak_and_wrong_follow_the_table() {
    let env = TestEnv::with_memory("bash-era");
    // launchd: stored 0.45, two weeks idle → effective 0.35; weak → 0.20 (floor).
    let out = env.run(&["feedback", "tooling-launchd-reload", "weak"]);
    out.success();
    assert!(
        out.stdout
            .starts_with("tooling-launchd-reload: 0.35 (stored 0.45) → 0.20 (weak)"),
        "{out}"
    );
    // nextest: 0.80 → wrong → 0.20 regardless.
    let out = env.run(&["feedback", "testing-use-nextest", "wrong"]);
    out.success();
    assert!(
        out.stdout
            .starts_with("testing-use-nextest: 0.80 → 0.20 (wrong)"),
        "{out}"
    );
}

#[test]
fn weak_feedback_is_not_decayed_twice() {
    let env = TestEnv::with_memory("bash-era");
    // early-return: 0.62 stored, last seen 2026-02-16.
    let mut later = TestEnv::with_memory("bash-era");
    later.now = "2026-03-05T12:00:00Z".into(); // 2 weeks + 3 days after last_seen
    let _ = env;
    later
        .run(&["feedback", "code-style-prefer-early-return", "weak"])
        .success();
    let status = later.run(&["status", "--json"]).json();
    let item = status["instincts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "code-style-prefer-early-return")
        .cloned()
        .unwrap();
    // 0.62 - 2 weeks (0.10) - 0.15 = 0.37, and still 0.37 right after.
    assert_eq!(item["confidence"], 0.37);
    assert_eq!(item["effective_confidence"], 0.37);
    let text = fs::read_to_string(later.instinct("code-style-prefer-early-return")).unwrap();
    assert!(
        text.contains("decayed_until: 2026-03-02T08:00:00Z"),
        "{text}"
    );
}

/// An old instinct that twelve sessions hold up shows its floor in `status`; `weak`
/// lowers that by 0.15 (not to the floor, as `wrong` does), and a forgotten instinct is
/// refused, not judged.
#[test]
fn feedback_judges_what_status_shows_and_refuses_a_forgotten_instinct() {
    let mut env = TestEnv::with_memory("bash-era");
    env.now = "2026-09-01T12:00:00Z".into(); // months after last_seen: decayed to 0.20
    let path = env.instinct("code-style-prefer-early-return");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replacen("confidence: 0.62", "confidence: 0.62\nsessions: 12", 1),
    )
    .unwrap();
    let weight = |env: &TestEnv| {
        let status = env.run(&["status", "--json"]).json();
        status["instincts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == "code-style-prefer-early-return")
            .unwrap()["weight"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(weight(&env), 0.50);
    let out = env.run(&["feedback", "code-style-prefer-early-return", "weak"]);
    out.success();
    assert!(
        out.stdout.contains("0.50 (stored 0.62) → 0.35 (weak)"),
        "{out}"
    );
    assert_eq!(weight(&env), 0.35);
    env.run(&["forget", "code-style-prefer-early-return"])
        .success();
    let out = env.run(&["feedback", "code-style-prefer-early-return", "strong"]);
    out.failure();
    assert!(out.stderr.contains("is forgotten"), "{out}");
}

#[test]
fn unknown_name_lists_closest_and_fails() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["feedback", "testing-use-nexttest", "strong"]);
    out.failure();
    assert_eq!(
        out.stderr,
        "error: no instinct named 'testing-use-nexttest'; did you mean: testing-use-nextest?\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn hostile_names_are_unknown_names() {
    let env = TestEnv::with_memory("bash-era");
    for name in ["../identity", "../../../etc/passwd", "", ".hidden"] {
        let out = env.run(&["feedback", name, "strong"]);
        out.failure();
        assert!(
            out.stderr.starts_with("error: no instinct named"),
            "{name}: {out}"
        );
    }
}

#[test]
fn broken_file_is_reported_and_left_alone() {
    let env = TestEnv::with_memory("bash-era");
    let path = env.instinct("testing-bad-confidence");
    fs::copy(fixture("broken/testing-bad-confidence.md"), &path).unwrap();
    let before = fs::read_to_string(&path).unwrap();
    let out = env.run(&["feedback", "testing-bad-confidence", "strong"]);
    out.failure();
    assert_eq!(
        out.stderr,
        "error: $HOME/.claude/homunculus/instincts/personal/testing-bad-confidence.md:4: 'confidence' must be between 0 and 1, got 1.7\n"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn reindex_and_doctor_name_a_file_that_does_not_parse() {
    let env = TestEnv::with_memory("bash-era");
    let path = env.instinct("testing-broken-yaml");
    fs::copy(fixture("broken/testing-broken-yaml.md"), &path).unwrap();
    let before = fs::read_to_string(&path).unwrap();
    let reindex = env.run(&["reindex"]);
    reindex.success();
    assert!(
        reindex.stderr.contains(
            "warning: $HOME/.claude/homunculus/instincts/personal/testing-broken-yaml.md:"
        ),
        "{reindex}"
    );
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("1 memory file(s) do not parse")
            && doctor.stdout.contains("testing-broken-yaml.md:"),
        "{doctor}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn read_only_folder_fails_cleanly() {
    let env = TestEnv::with_memory("bash-era");
    let dir = env.memory().join("instincts/personal");
    // Take the lock folder into being first, as any earlier command would.
    env.run(&["status"]).success();
    let before = snapshot_tree(&env.memory());
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
    let out = env.run(&["feedback", "testing-use-nextest", "strong"]);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    if out.code == 0 {
        // Running as root ignores permissions; nothing to prove here.
        return;
    }
    out.failure();
    assert!(
        out.stderr.starts_with(
            "error: cannot create a temporary file in $HOME/.claude/homunculus/instincts/personal"
        ),
        "{out}"
    );
    assert_eq!(out.stderr.lines().count(), 1);
    assert_eq!(before, snapshot_tree(&env.memory()), "nothing half-written");
}

#[test]
fn mute_stops_an_item_for_the_session_and_leaves_its_confidence() {
    let env = TestEnv::with_memory("bash-era");
    let name = "testing-use-nextest";
    let before = env.read(&format!("instincts/personal/{name}.md"));
    let out = env.run(&["feedback", name, "mute", "--session", "s-1"]);
    out.success();
    assert!(
        out.stdout.contains("muted for the rest of session s-1"),
        "{out}"
    );
    assert_eq!(env.read(&format!("instincts/personal/{name}.md")), before);
    let memo = env.read("state/sessions/s-1.json");
    assert!(
        memo.contains(&format!("instincts/personal/{name}.md")),
        "{memo}"
    );
}
