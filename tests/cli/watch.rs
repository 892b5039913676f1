//! `homunculus watch`: hand edits reach the index while it runs; a second watcher is
//! refused; Ctrl-C (SIGINT) stops it cleanly.

use std::fs;
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::TestEnv;

const PATIENCE: Duration = Duration::from_secs(30);

/// A running watcher whose stderr lines arrive on a channel; killed when dropped.
struct Watching {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Watching {
    fn start(env: &TestEnv) -> Self {
        let mut child = env
            .spawnable()
            .arg("watch")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Self { child, lines }
    }

    /// Waits for a stderr line containing `text`.
    fn expect_line(&self, text: &str) {
        let deadline = Instant::now() + PATIENCE;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            if line.contains(text) {
                return;
            }
        }
        panic!("watch never printed a line containing {text:?}");
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls search until `query` finds something (or nothing, with `expected` false).
fn eventually(env: &TestEnv, query: &str, expected: bool) -> bool {
    let deadline = Instant::now() + PATIENCE;
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
fn hand_edits_reach_the_index_and_a_second_watcher_is_refused() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["reindex"]).success();
    let watch = Watching::start(&env);
    watch.expect_line("synced");
    let second = env.run(&["watch"]);
    second.failure();
    assert!(second.stderr.contains("already running"), "{second}");

    let path = env.instinct("git-autostash");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("# Autostash", "# Autostash quasar");
    // Editors' save: write a swap file, then rename it over the original.
    let tmp = env
        .memory()
        .join("instincts/personal/.git-autostash.md.swp");
    fs::write(&tmp, text).unwrap();
    fs::rename(&tmp, &path).unwrap();
    watch.expect_line("indexed");
    assert!(eventually(&env, "quasar", true));
    fs::remove_file(&path).unwrap();
    assert!(eventually(&env, "quasar", false));
}

#[test]
fn interrupt_stops_cleanly() {
    let env = TestEnv::with_memory("bash-era");
    let mut watch = Watching::start(&env);
    watch.expect_line("synced");
    let pid = watch.child.id().to_string();
    std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    watch.expect_line("stopped");
    let status = watch.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

#[test]
fn after_an_edit_next_to_an_unreadable_file_it_goes_quiet() {
    let env = TestEnv::with_memory("bash-era");
    fs::write(
        env.memory().join("instincts/personal/garbled.md"),
        b"---\nname: garbled\n---\n\xff\xfe not text",
    )
    .unwrap();
    let watch = Watching::start(&env);
    watch.expect_line("synced");
    let path = env.instinct("git-autostash");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("# Autostash", "# Autostash nebula");
    fs::write(&path, text).unwrap();
    watch.expect_line("indexed");
    // Its own reads of the files must not wake it: no batch follows without an edit.
    let mut more = Vec::new();
    while let Ok(line) = watch.lines.recv_timeout(Duration::from_millis(1500)) {
        more.push(line);
        if more.len() > 3 {
            break;
        }
    }
    assert!(
        more.iter().all(|l| !l.contains("indexed")),
        "it kept indexing: {more:?}"
    );
}

/// Whether doctor sees a watcher holding the folder's lock.
fn watcher_runs(env: &TestEnv) -> bool {
    env.run(&["doctor"])
        .stdout
        .contains("a watcher keeps the index in step")
}

fn within_patience(what: impl Fn() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < PATIENCE {
        if what() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

#[test]
fn a_session_start_starts_one_watcher_which_leaves_with_the_folder() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["init"]).success();
    assert!(!watcher_runs(&env));
    // A fixed clock (tests, reproductions) starts nothing in the background.
    env.hook("session-start", "session_start_startup");
    std::thread::sleep(Duration::from_millis(500));
    assert!(!watcher_runs(&env));
    let live = |env: &TestEnv| {
        let out = env
            .spawnable()
            .env_remove("HOMUNCULUS_NOW")
            .args(["hook", "session-start"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin
                    .take()
                    .unwrap()
                    .write_all(env.payload("session_start_resume").as_bytes())?;
                c.wait()
            })
            .unwrap();
        assert!(out.success());
    };
    live(&env);
    assert!(within_patience(|| watcher_runs(&env)), "no watcher started");
    // A hand edit in place reaches search through it.
    let path = env.instinct("testing-use-nextest");
    let text = fs::read_to_string(&path).unwrap() + "\n- zqxwatchedword\n";
    fs::write(&path, text).unwrap();
    assert!(
        within_patience(|| env
            .run(&["search", "zqxwatchedword"])
            .stdout
            .contains("testing-use-nextest")),
        "the edit never reached search"
    );
    // More session starts add no second watcher (one lock per folder).
    live(&env);
    live(&env);
    // The folder gone, the watcher leaves; a new folder there has none.
    fs::remove_dir_all(env.memory()).unwrap();
    std::thread::sleep(Duration::from_secs(3));
    env.run(&["init"]).success();
    assert!(!watcher_runs(&env), "the watcher outlived its folder");
}
