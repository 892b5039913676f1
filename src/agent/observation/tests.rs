//! Tests of `capture::observation`.

use super::*;

#[test]
fn noisy_commands() {
    for noisy in [
        "cat Cargo.toml",
        "ls -la",
        "pwd",
        "git status --short",
        "cd src && git diff",
        "tree",
        "wc -l x | head",
    ] {
        assert!(is_noisy_command(noisy), "{noisy}");
    }
    for useful in [
        "cargo test",
        "git commit -m x",
        "cd src && cargo build",
        "rm -rf target",
        "git push",
    ] {
        assert!(!is_noisy_command(useful), "{useful}");
    }
}

#[test]
fn excerpt_finds_the_cause_deep_in_the_output() {
    let mut output = String::from("Exit code 101\n");
    for n in 0..80 {
        output.push_str(&format!("test parse::case_{n} ... ok\n"));
    }
    output.push_str("thread 'parse::negative' panicked at src/parse.rs:42:9:\nassertion `left == right` failed\ntest result: FAILED. 80 passed; 1 failed\n");
    let e = error_excerpt(&output, ERROR_CHARS);
    assert!(
        e.starts_with("Exit code 101 | thread 'parse::negative' panicked at src/parse.rs:42:9:"),
        "{e}"
    );
    assert!(e.contains("FAILED"), "{e}");
    assert!(e.chars().count() <= ERROR_CHARS);
    let make = error_excerpt(
        "Exit code 2\nmake: *** No rule to make target 'test'.  Stop.\n",
        ERROR_CHARS,
    );
    assert_eq!(
        make,
        "Exit code 2 | make: *** No rule to make target 'test'.  Stop."
    );
    let terse = error_excerpt("Exit code 1\nsomething odd happened\n", ERROR_CHARS);
    assert_eq!(terse, "Exit code 1 | something odd happened");
}

#[test]
fn failures_are_classified_by_who_stopped_them() {
    let rejected_old = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nuse pnpm, not npm";
    assert_eq!(
        classify_failure("Bash", rejected_old),
        (Outcome::Rejected, Some("use pnpm, not npm".into()))
    );
    // Real: Users-dain-workspace-JSSoundRecorder/7acd37a8-…jsonl:77
    let rejected_reason = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection:  use pnpm";
    assert_eq!(
        classify_failure("Bash", rejected_reason),
        (Outcome::Rejected, Some("use pnpm".into()))
    );
    // Real: Users-dain-workspace-claude-code-log-sample/0d3a8e6f-…jsonl:14 (no words).
    let plain = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
    assert_eq!(classify_failure("Edit", plain), (Outcome::Rejected, None));
    // Real: Users-dain-workspace-danieldemmel-me-next/9e953218-…jsonl:34 (newer: the words alone).
    assert_eq!(
        classify_failure("Bash", "please add transformer.js too first"),
        (
            Outcome::Rejected,
            Some("please add transformer.js too first".into())
        )
    );
    // Real: src-experiments-claude_p/2b4ed4c0-…jsonl:6 and :14.
    assert_eq!(
        classify_failure(
            "WebSearch",
            "Claude requested permissions to use WebSearch, but you haven't granted it yet."
        )
        .0,
        Outcome::Denied
    );
    assert_eq!(
        classify_failure("Bash", "This command requires approval").0,
        Outcome::Denied
    );
    // Real: Users-dain-workspace-danieldemmel-me-next/9e953218-…jsonl:73 and :55.
    assert_eq!(classify_failure("Edit", "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>").0, Outcome::ToolError);
    assert_eq!(
        classify_failure(
            "Edit",
            "<tool_use_error>String to replace not found in file."
        )
        .0,
        Outcome::ToolError
    );
    assert_eq!(
        classify_failure(
            "MultiEdit",
            "Found 2 matches of the string to replace, but replace_all is false."
        )
        .0,
        Outcome::ToolError
    );
    // Real failures stay failures.
    for text in [
        "Exit code 1\nnpm ERR! missing script: lint",
        "============================= test session starts ==========\nFAILED test_x.py",
        "zsh: command not found: pytest",
    ] {
        assert_eq!(classify_failure("Bash", text).0, Outcome::Error, "{text}");
    }
    assert_eq!(
        classify_failure("Bash", "[Request interrupted by user for tool use]").0,
        Outcome::Blocked
    );
}
