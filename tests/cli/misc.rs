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
fn completions_are_generated() {
    let env = TestEnv::new();
    let out = env.run(&["completions", "bash"]);
    out.success();
    assert!(out.stdout.contains("homunculus"));
    assert!(out.stdout.contains("feedback"));
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
