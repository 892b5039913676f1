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
