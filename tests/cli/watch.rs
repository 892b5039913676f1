//! `homunculus watch`: hand edits reach the index while it runs; a second watcher is
//! refused; Ctrl-C (SIGINT) stops it cleanly.

use std::fs;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::common::TestEnv;

struct Watching(Child);

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(env: &TestEnv) -> Watching {
    let child = env
        .spawnable()
        .arg("watch")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Watching(child)
}

/// Polls the index (without a sync of its own) until `query` finds `expected`.
fn eventually_found(env: &TestEnv, query: &str, expected: bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        let out = env.run(&["search", "--json", query]);
        let found = !out.json()["hits"].as_array().unwrap().is_empty();
        if found == expected {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn hand_edits_reach_the_index() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["reindex"]).success();
    let _watch = start(&env);
    // Wait until the watcher holds its lock (a second one is refused).
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let second = env.run(&["watch"]);
        if second.code == 1 && second.stderr.contains("already running") {
            break;
        }
        assert!(Instant::now() < deadline, "watch never started: {second}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let path = env.instinct("git-autostash");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("# Autostash", "# Autostash quasar");
    // Editors' save: write a temp file, then rename over the original.
    let tmp = env
        .memory()
        .join("instincts/personal/.git-autostash.md.swp");
    fs::write(&tmp, text).unwrap();
    fs::rename(&tmp, &path).unwrap();
    assert!(eventually_found(&env, "quasar", true));
    fs::remove_file(&path).unwrap();
    assert!(eventually_found(&env, "quasar", false));
}

#[test]
fn interrupt_stops_cleanly() {
    let env = TestEnv::with_memory("bash-era");
    let mut watch = start(&env);
    std::thread::sleep(Duration::from_millis(500));
    let pid = watch.0.id().to_string();
    std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    let status = watch.0.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
