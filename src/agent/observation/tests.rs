//! Tests of `agent::observation`.

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

#[test]
fn a_bare_sentence_is_the_users_only_where_claude_code_spells_tool_failures_otherwise() {
    let said = "please add transformer.js too first";
    assert_eq!(
        classify_failure_in("Bash", said, Era::Current),
        (Outcome::Rejected, Some(said.to_string()))
    );
    // Before 2.0 a failing command's output stood alone: it is the tool's.
    for (tool, text) in [
        ("Bash", "Everything up-to-date"),
        ("Bash", "On branch main nothing added to commit"),
        ("Edit", "Use the Read tool first then write the file"),
    ] {
        assert_eq!(
            classify_failure_in(tool, text, Era::Early).0,
            Outcome::Error,
            "{text}"
        );
    }
    // Tools that print bare errors of their own never carry the user's words.
    for tool in ["WebFetch", "Task", "Glob", "mcp__github__create_issue"] {
        assert_ne!(
            classify_failure_in(
                tool,
                "Domain example.com is not on the allow list",
                Era::Current
            )
            .0,
            Outcome::Rejected,
            "{tool}"
        );
    }
    assert_eq!(Era::of(Some("1.0.24")), Era::Early);
    assert_eq!(Era::of(Some("2.0.5")), Era::Current);
    assert_eq!(Era::of(None), Era::Current);
}

#[test]
fn the_remedy_a_tool_spells_out_is_kept() {
    let git = "Exit code 128\nAuthor identity unknown\n\n*** Please tell me who you are.\n\nRun\n\n  git config --global user.email \"you@example.com\"\n  git config --global user.name \"Your Name\"\n\nto set your account's default identity.\nfatal: unable to auto-detect email address (got 'x@y.(none)')";
    let excerpt = error_excerpt(git, 300);
    assert!(
        excerpt.contains("git config --global user.email"),
        "{excerpt}"
    );
    let cargo = "Exit code 101\nerror[E0425]: cannot find value `x`\nhelp: a local variable with a similar name exists: `y`";
    assert!(error_excerpt(cargo, 300).contains("help: a local variable"));
}

#[test]
fn output_that_says_nothing_happened_is_noticed() {
    for out in [
        "Everything up-to-date",
        "Requirement already satisfied: requests in /usr/lib/python3",
        "nginx is already the newest version (1.22).\n0 upgraded, 0 newly installed",
        "On branch main\nnothing to commit, working tree clean",
        "Command running in background with ID: b1",
    ] {
        assert!(says_nothing_happened(out), "{out}");
    }
    for out in [
        "[main 3f2a9c1] fix: parse dates\n 1 file changed",
        "added 12 packages",
    ] {
        assert!(!says_nothing_happened(out), "{out}");
    }
}

#[test]
fn output_that_reports_its_own_failure_is_no_success() {
    assert!(says_nothing_happened("waiting…\nexit=124"));
    assert!(says_nothing_happened("done, exit code: 2"));
    assert!(!says_nothing_happened(
        "NAME   STATE\nlocal_db_1   Exit 1\nlocal_web_1  Up"
    ));
    assert!(!says_nothing_happened("exit=0"));
}

#[test]
fn a_log_read_in_parts_is_read_whole() {
    let memory = crate::testutil::Memory::new();
    let paths = &memory.paths;
    let at = |n: usize, prompt: &str| {
        let mut o = base(
            &Payload::default(),
            Event::Prompt,
            crate::testutil::at("2026-01-01T00:00:00Z"),
            None,
        );
        o.session_id = "s1".into();
        o.prompt = Some(format!("{prompt} {n}"));
        o
    };
    append(paths, &at(0, "first")).unwrap();
    let first = since(paths, "s1", 0, 0);
    assert!(first.whole);
    assert_eq!(first.observations.len(), 1);
    // A line still being written waits for the next read.
    append(paths, &at(1, "second")).unwrap();
    crate::fsutil::append(&file(paths, "s1"), b"{\"ts\":").unwrap();
    let next = since(paths, "s1", first.read_to, first.head);
    assert!(!next.whole);
    assert_eq!(next.observations, vec![at(1, "second")]);
    // The file replaced (archived, started again): read whole once more.
    std::fs::remove_file(file(paths, "s1")).unwrap();
    append(
        paths,
        &at(2, "new one, and long enough to pass the old end"),
    )
    .unwrap();
    append(paths, &at(3, "and another line")).unwrap();
    let again = since(paths, "s1", next.read_to, next.head);
    assert!(again.whole);
    assert_eq!(again.observations.len(), 2);
}

#[test]
fn a_status_the_command_printed_of_itself_is_read() {
    // Real shape: awesumsawz 485c7fc1:26, the failure hidden behind `; echo`.
    let add = r#"git submodule add https://example.com/x.git x 2>&1; echo "exit: $?""#;
    let fatal = "fatal: 'x' already exists and is not a valid git repo\nexit: 128";
    assert!(reports_failure(add, fatal));
    assert!(!reports_failure(add, "Cloning into 'x'...\nexit: 0"));
    for (command, output) in [
        (
            "make -C build; echo \"make_exit=$?\"",
            "make: *** [all] Error 2\nmake_exit=2",
        ),
        (
            "cargo test; echo EXIT_CODE=$?",
            "test result: FAILED\nEXIT_CODE=101",
        ),
        ("./run.sh; echo -e \"rc=$?\"", "rc=1"),
        ("pytest -q; echo $?", "1 failed\n1"),
        // A search that failed (status 2) still failed.
        (
            "grep -r x missing/; echo \"rc=$?\"",
            "grep: missing/: No such file or directory\nrc=2",
        ),
        (
            "identify /tmp/crab.png 2>/dev/null; echo \"exit: $?\"",
            "exit: 1",
        ),
    ] {
        assert!(reports_failure(command, output), "{command}");
    }
    for (command, output) in [
        // No status of its own: an `exit=1` in a program's output is the program's.
        ("./check.sh", "exit=1"),
        // A bare `$?` counts only as the output's last line.
        ("pytest -q; echo $?", "1\n0"),
        // A label that is a variable is no label we can read.
        (
            "for f in a b; do x \"$f\"; echo \"$f: $?\"; done",
            "a: 1\nb: 0",
        ),
        ("cargo build; echo \"exit: $?\"", "exit: 0\nexit: done"),
        // `grep` found nothing, `diff` saw a difference: answers, not failures.
        ("ls out/ | grep -i swu; echo \"exit=$?\"", "exit=1"),
        ("grep -rn TODO src 2>&1; echo \"rc=$?\"", "rc=1"),
        (
            "diff -u a b; echo \"--- exit:$?\"",
            "--- a\n+++ b\n--- exit:1",
        ),
    ] {
        assert!(!reports_failure(command, output), "{command}");
    }
}

#[test]
fn a_command_that_reports_its_own_failure_is_a_failure() {
    let payload: Payload = serde_json::from_value(serde_json::json!({
        "session_id": "s1",
        "cwd": "/repo",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git submodule add https://example.com/x.git x 2>&1; echo \"exit: $?\""},
        "tool_response": {"stdout": "fatal: 'x' already exists and is not a valid git repo\nexit: 128", "stderr": "", "interrupted": false},
    }))
    .unwrap();
    let now = crate::testutil::at("2026-01-01T00:00:00Z");
    let obs = from_tool_event(&payload, Event::Post, now, Some("repo")).unwrap();
    assert_eq!(obs.outcome, Some(Outcome::Error));
    assert!(
        obs.error.as_deref().unwrap().contains("already exists"),
        "{obs:?}"
    );
}

#[test]
fn a_failure_a_pipe_or_a_loop_hides_is_read() {
    for (command, output) in [
        // Real shapes (awesumsawz): ffmpeg's status lost to `tail`, to a loop, to `&`.
        (
            "ffmpeg -i in.mp4 -vframes 1 -y out.webp 2>&1 | tail -3",
            "[vost#0:0 @ 0x9e0c94000] Error selecting an encoder\nError opening output file out.webp.\nError opening output files: Encoder not found",
        ),
        (
            "for f in a.mp4 b.mp4; do\n  ffmpeg -i \"$f\" -y \"${f%.mp4}.webp\" 2>&1 | tail -1\n  echo \"Done: $f\"\ndone",
            "Error opening output files: Encoder not found\nDone: a.mp4\nError opening output files: Encoder not found\nDone: b.mp4",
        ),
        (
            "git ls-remote https://example.com/team/app.git 2>&1 | head -5",
            "fatal: repository 'https://example.com/team/app.git/' not found",
        ),
        (
            "nixos-rebuild build --flake .#host 2>&1 | head -20",
            "building the system configuration...\nerror:\n       … while evaluating the attribute 'config'",
        ),
        (
            "vault-sync --push 2>&1 || true",
            "vault-sync: 2026/06/03 13:56:04 sync.go:206: error: could not lock config file",
        ),
        (
            "pnpm build 2>&1 | tail -5",
            "> app@1.0.0 build\n> vite build\n\nsh: vite: command not found",
        ),
        (
            "npm run build &\nwait",
            "\u{1b}[31mERROR:\u{1b}[0m Build failed with 1 error",
        ),
    ] {
        assert!(hidden_failure(command, output).is_some(), "{command}");
    }
    for (command, output) in [
        // The status is the work's own: nothing hides it.
        (
            "ffmpeg -i in.mp4 out.webp",
            "Error opening output files: Encoder not found",
        ),
        // A look prints what it found, errors included.
        (
            "grep -rn 'Error' src | head -20",
            "src/a.rs:3: error: Error opening x",
        ),
        ("git diff HEAD | head -50", "-\tfunc() error {\nerror: x"),
        (
            "find /opt/app -name '*.go' | head -10",
            "find: /opt/app: No such file or directory",
        ),
        // A look run by another program.
        (
            "rtk proxy grep -rn refused src | head -5",
            "error: connect refused at boot (see snx.c)",
        ),
        // A line shaped like a search's match is never the program's voice: a
        // compiler's error has that shape, but so does every match a search prints.
        (
            "make lint 2>&1 | tail -3",
            "src/net.c:82: error: connect refused at boot\nsrc/net.c:90:\nok",
        ),
        // A failure in the middle of a long output is not where a masked one shows.
        (
            "cargo test 2>&1 | tail -40",
            "running 3 tests\ntest a ... ok\ntest b ... ok\nerror: expected in a log\nb\nc\nd\ne\ntest result: ok. 3 passed",
        ),
        // Words about errors that are not a failure.
        (
            "go test ./... 2>&1 | tail -5",
            "ok  \tpkg/a\t0.2s\n--- PASS: TestReturnsAnErrorWhenMissing (0.00s)\nok  \tpkg/b\t0.1s",
        ),
        ("make 2>&1 | tail -3", "Errors: 0\nWarnings: 2\nDone"),
    ] {
        assert!(hidden_failure(command, output).is_none(), "{command}");
    }
}

#[test]
fn a_command_whose_pipe_hides_its_failure_is_a_failure() {
    let payload: Payload = serde_json::from_value(serde_json::json!({
        "session_id": "s1",
        "cwd": "/repo",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ffmpeg -i in.mp4 -y out.webp 2>&1 | tail -3"},
        "tool_response": {"stdout": "  Stream #0:0: Video: h264, 25 tbr, [vost#0:0 @ 0x1] Automatic encoder selection failed\nError opening output file out.webp.\nError opening output files: Encoder not found", "stderr": "", "interrupted": false},
    }))
    .unwrap();
    let now = crate::testutil::at("2026-01-01T00:00:00Z");
    let obs = from_tool_event(&payload, Event::Post, now, Some("repo")).unwrap();
    assert_eq!(obs.outcome, Some(Outcome::Error));
    let error = obs.error.as_deref().unwrap();
    assert!(error.contains("Encoder not found"), "{obs:?}");
    // What the failure says, not the progress printed before it.
    assert!(!error.contains("Stream #0:0"), "{obs:?}");
}

#[test]
fn a_search_that_found_nothing_answered_no_and_did_not_fail() {
    let failed = |command: &str, error: &str| {
        let payload: Payload = serde_json::from_value(serde_json::json!({
            "session_id": "s1",
            "cwd": "/repo",
            "hook_event_name": "PostToolUseFailure",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "error": error,
        }))
        .unwrap();
        let now = crate::testutil::at("2026-01-01T00:00:00Z");
        from_tool_event(&payload, Event::Failure, now, Some("repo"))
            .unwrap()
            .outcome
    };
    assert_eq!(
        failed("pgrep -f 'celery worker'", "Exit code 1"),
        Some(Outcome::Success)
    );
    assert_eq!(
        failed("ps aux | grep -v grep | grep celery", "Exit code 1\n"),
        Some(Outcome::Success)
    );
    // A real failure of the same programs, or status 1 of another program, stays one.
    assert_eq!(
        failed(
            "grep -r TODO src/",
            "Exit code 2\ngrep: src/: No such file or directory"
        ),
        Some(Outcome::Error)
    );
    assert_eq!(
        failed(
            "grep -q x notes.txt && make",
            "Exit code 1\nmake: *** No targets."
        ),
        Some(Outcome::Error)
    );
    assert_eq!(failed("cargo build", "Exit code 1"), Some(Outcome::Error));
}

#[test]
fn a_long_paste_is_asked_by_its_failing_line_past_what_is_kept() {
    let mut prompt = String::new();
    for n in 0..12 {
        prompt.push_str(&format!("go: downloading example.com/module{n} v0.{n}.0\n"));
    }
    prompt.push_str("api_test.go:49:20: cannot use events (variable of type *MockProducer) as ProducerService value\n");
    let payload: Payload = serde_json::from_value(serde_json::json!({
        "session_id": "s1", "cwd": "/repo", "hook_event_name": "UserPromptSubmit", "prompt": prompt,
    }))
    .unwrap();
    let now = crate::testutil::at("2026-01-01T00:00:00Z");
    let obs = from_prompt(&payload, now, Some("repo")).unwrap();
    assert!(!obs.prompt.as_deref().unwrap().contains("cannot use"));
    assert_eq!(
        obs.request_line().as_deref(),
        Some("(pasted) api_test.go:49:20: cannot use events (variable of type *MockProducer) as…")
    );
    // A short prompt needs nothing more than itself.
    let short: Payload = serde_json::from_value(serde_json::json!({
        "session_id": "s1", "cwd": "/repo", "prompt": "fix the parser",
    }))
    .unwrap();
    let obs = from_prompt(&short, now, Some("repo")).unwrap();
    assert_eq!(obs.request, None);
    assert_eq!(obs.request_line().as_deref(), Some("fix the parser"));
}
