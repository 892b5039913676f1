//! Security properties: everything we create is private to the user, a symlink planted
//! in the memory folder is never written through, and no code opens a network socket.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use crate::common::TestEnv;

#[test]
fn everything_we_create_is_private() {
    let env = TestEnv::new();
    env.run(&["init", "--git", "--statusline"]).success();
    // Three sessions that fail a command and recover, so the observer writes instincts,
    // episodes are staged, summaries written and the index rebuilt.
    for n in 1..=3 {
        let sid = format!("7c1e5a2b-3f4d-4e8a-9b6c-00000000000{n}");
        let ids = |f: &str| {
            env.payload(f)
                .replace("7c1e5a2b-3f4d-4e8a-9b6c-2d1f0e9a8b7c", &sid)
        };
        for (event, fixture) in [
            ("session-start", "session_start_startup"),
            ("user-prompt-submit", "user_prompt_submit"),
            ("post-tool-use-failure", "post_tool_use_failure_bash"),
            ("post-tool-use", "post_tool_use_bash"),
            ("post-tool-use", "post_tool_use_edit"),
            ("stop", "stop"),
        ] {
            env.hook_raw(event, ids(fixture)).success();
        }
    }
    env.run(&["observe", "--force"]).success();
    env.run(&["reindex"]).success();
    env.run(&["evolve", "--promote"]).success();
    env.run(&["search", "nextest"]).success();
    let mut loose = Vec::new();
    for entry in walkdir::WalkDir::new(env.memory()).into_iter().flatten() {
        let path = entry.path();
        if path.starts_with(env.memory().join(".git")) {
            continue; // git's own files follow git's rules
        }
        let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            loose.push(format!("{} {mode:o}", path.display()));
        }
    }
    assert!(loose.is_empty(), "readable by others: {loose:#?}");
    let instincts = fs::read_dir(env.memory().join("instincts/personal"))
        .unwrap()
        .count();
    assert!(instincts > 0, "the workflow wrote instincts");
}

#[test]
fn a_symlink_in_the_memory_folder_is_never_written_through() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let outside = env.home.join("outside.txt");
    fs::write(&outside, "precious\n").unwrap();
    // A planted link where the hook appends this session's observations...
    let sid = "7c1e5a2b-3f4d-4e8a-9b6c-2d1f0e9a8b7c";
    std::os::unix::fs::symlink(
        &outside,
        env.memory().join(format!("observations/{sid}.jsonl")),
    )
    .unwrap();
    env.hook("post-tool-use", "post_tool_use_bash").success();
    // ...and one where a log goes.
    let _ = fs::remove_file(env.memory().join("logs/hooks.log"));
    std::os::unix::fs::symlink(&outside, env.memory().join("logs/hooks.log")).unwrap();
    env.hook_raw("no-such-event", "{}").success();
    // ...and an instinct file that is a link: feedback replaces the link, not its target.
    let target = env.home.join("target.md");
    fs::write(
        &target,
        "---\ntrigger: t\naction: a\nconfidence: 0.5\ndomain: general\n---\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(
        &target,
        env.memory().join("instincts/personal/general-linked.md"),
    )
    .unwrap();
    env.run(&["feedback", "general-linked", "strong"]).success();
    assert_eq!(fs::read_to_string(&outside).unwrap(), "precious\n");
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .contains("confidence: 0.5\n")
    );
}

#[test]
fn only_the_review_screen_listens_and_only_on_loopback() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let ui = src.join("ui");
    for entry in walkdir::WalkDir::new(&src)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
    {
        let text = fs::read_to_string(entry.path()).unwrap();
        // The review screen (`homunculus ui`) listens; nothing else touches the network.
        let allowed: &[&str] = if entry.path().starts_with(&ui) {
            &["TcpListener"]
        } else {
            &[]
        };
        for api in [
            "TcpStream",
            "TcpListener",
            "UdpSocket",
            "UnixStream",
            "std::net",
            "reqwest",
            "hyper",
        ] {
            if !allowed.contains(&api) {
                assert!(!text.contains(api), "{} uses {api}", entry.path().display());
            }
        }
        if text.contains("TcpListener::bind") {
            assert!(
                text.contains("TcpListener::bind((\"127.0.0.1\", port))"),
                "{} listens beyond the loopback address",
                entry.path().display()
            );
        }
    }
}
