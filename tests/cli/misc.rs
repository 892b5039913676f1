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
    // The variable left exported by mistake changes nothing for ordinary commands.
    let status = env
        .cmd()
        .env("HOMUNCULUS_COMPLETE", "bash")
        .args(["status"])
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(status.starts_with("Instincts:"), "{status}");
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

/// `HOMUNCULUS_DIR` may name a new, empty or memory folder, never a folder of other things
/// (`/etc`, a project): refused with a message, nothing created in it, hooks silent.
#[test]
fn homunculus_dir_that_holds_other_things_is_refused() {
    let env = TestEnv::new();
    let project = env.home.join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("Cargo.toml"), "[package]\n").unwrap();
    let out = env
        .cmd()
        .env("HOMUNCULUS_DIR", &project)
        .arg("init")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("neither empty nor a homunculus memory folder"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hook = env
        .cmd()
        .env("HOMUNCULUS_DIR", &project)
        .args(["hook", "user-prompt-submit"])
        .write_stdin(r#"{"session_id":"s1","cwd":"/tmp","prompt":"hello there friend"}"#)
        .output()
        .unwrap();
    assert_eq!(hook.status.code(), Some(0));
    assert!(hook.stdout.is_empty());
    let names: Vec<String> = std::fs::read_dir(&project)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // A new folder, and then the memory folder it became, are fine.
    let fresh = env.home.join("mem");
    let init = env
        .cmd()
        .env("HOMUNCULUS_DIR", &fresh)
        .args(["init", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(
        init.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
}
