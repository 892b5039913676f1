//! Behaviour common to every command: the clock, usage errors, completions.

use crate::common::TestEnv;

#[test]
fn bad_clock_is_one_line_error() {
    let mut env = TestEnv::with_memory("bash-era");
    env.now = "last tuesday".into();
    let out = env.run(&["status"]);
    out.failure();
    assert_eq!(
        out.stderr,
        "error: HOMUNCULUS_NOW: 'last tuesday' is not an RFC 3339 timestamp\n"
    );
}

#[test]
fn usage_errors_exit_2() {
    let env = TestEnv::new();
    assert_eq!(env.run(&["feedback", "x", "meh"]).code, 2);
    assert_eq!(env.run(&["no-such-command"]).code, 2);
}

#[test]
fn completion_registers_with_the_shell_and_completes_instinct_names_live() {
    let env = TestEnv::with_memory("bash-era");
    for shell in ["bash", "zsh", "fish"] {
        let out = env.run(&["completions", shell]);
        out.success();
        assert!(out.stdout.contains("HOMUNCULUS_COMPLETE"), "{shell}: {out}");
    }
    // What the shell runs when the user presses tab after `homunculus feedback test`.
    let asked = env
        .cmd()
        .env("HOMUNCULUS_COMPLETE", "fish")
        .args(["--", "homunculus", "feedback", "test"])
        .output()
        .unwrap();
    let answer = String::from_utf8_lossy(&asked.stdout);
    assert!(
        answer
            .lines()
            .any(|l| l.starts_with("testing-use-nextest\t")),
        "{answer}"
    );
    assert!(
        !answer.contains("tooling-"),
        "only names that match: {answer}"
    );
    let verbs = env
        .cmd()
        .env("HOMUNCULUS_COMPLETE", "fish")
        .args(["--", "homunculus", "feedback", "testing-use-nextest", "w"])
        .output()
        .unwrap();
    let verbs = String::from_utf8_lossy(&verbs.stdout);
    assert!(verbs.contains("weak") && verbs.contains("wrong"), "{verbs}");
}

#[test]
fn relative_homunculus_dir_is_refused() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .env("HOMUNCULUS_DIR", "relative")
        .arg("status")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: HOMUNCULUS_DIR must be an absolute path, got 'relative'\n"
    );
}
