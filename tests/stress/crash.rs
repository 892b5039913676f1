//! `kill -9` at random moments of `observe`, `evolve --promote`, `feedback`, `reindex`
//! and `hook stop`. After every kill: every markdown file parses and the next command
//! works without a manual step. At the end: every observation written is accounted for
//! exactly once, and no batch was applied twice to any instinct.

use std::collections::BTreeMap;
use std::time::Duration;

use super::{Home, Rng, full, payload};

#[test]
fn crash() {
    let trials: usize = if full() { 200 } else { 20 };
    let home = Home::initialised();
    let project = home.home.join("src/ledger");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    for (name, c) in [
        ("general-alpha", 0.80),
        ("general-beta", 0.45),
        ("general-gamma", 0.30),
    ] {
        home.write_instinct(name, c);
    }
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut written = 0;
    let mut kills = BTreeMap::<&str, usize>::new();
    for trial in 0..trials {
        // New observations: a failure and a different command that works, so the observer
        // has something to learn and to apply.
        for k in 0..3 {
            let session = format!("crash-{}", trial % 5);
            let (event, extra) = if k == 0 {
                (
                    "post-tool-use-failure",
                    format!(
                        "\"hook_event_name\":\"PostToolUseFailure\",\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"make test{trial}\"}},\"error\":\"Exit code 2\\nmake: *** No rule to make target\""
                    ),
                )
            } else {
                (
                    "post-tool-use",
                    format!(
                        "\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"make check{trial}-{k}\"}},\"tool_response\":{{\"stdout\":\"ok\"}}"
                    ),
                )
            };
            assert!(
                home.hook(event, &payload(&session, &project, &extra))
                    .status
                    .success()
            );
            written += 1;
        }
        let (label, args): (&str, Vec<String>) = match rng.below(5) {
            0 => ("observe", vec!["observe".into(), "--force".into()]),
            1 => ("evolve", vec!["evolve".into(), "--promote".into()]),
            2 => (
                "feedback",
                vec![
                    "feedback".into(),
                    "general-beta".into(),
                    if trial % 2 == 0 { "strong" } else { "weak" }.into(),
                ],
            ),
            3 => ("reindex", vec!["reindex".into()]),
            _ => ("stop", vec!["hook".into(), "stop".into()]),
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut cmd = home.command(&args);
        let mut child = if label == "stop" {
            use std::io::Write;
            let mut child = cmd
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let p = payload(
                &format!("crash-{}", trial % 5),
                &project,
                "\"hook_event_name\":\"Stop\",\"stop_hook_active\":false",
            );
            let _ = child.stdin.take().unwrap().write_all(p.as_bytes());
            child
        } else {
            cmd.stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        std::thread::sleep(Duration::from_micros(rng.below(40_000)));
        let _ = child.kill(); // SIGKILL on Unix: no cleanup of any kind
        let _ = child.wait();
        *kills.entry(label).or_default() += 1;
        home.assert_all_parse();
        let out = home.run(&["search", "alpha"]);
        assert!(
            out.status.success(),
            "trial {trial} ({label}): {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Let the observer finish whatever a kill interrupted, then account for everything.
    assert!(home.run(&["observe", "--force"]).status.success());
    assert!(home.run(&["observe", "--force"]).status.success());
    let lines = home.observation_lines();
    let mut seen = BTreeMap::<String, usize>::new();
    for line in &lines {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        *seen
            .entry(v["input"]["command"].as_str().unwrap_or("").to_string())
            .or_default() += 1;
    }
    assert_eq!(lines.len(), written, "observations lost or archived twice");
    assert!(seen.values().all(|&n| n == 1), "{seen:?}");
    for entry in std::fs::read_dir(home.memory().join("instincts/personal"))
        .unwrap()
        .flatten()
    {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let mut batches = BTreeMap::<&str, usize>::new();
        for b in text.split("(batch ").skip(1) {
            *batches
                .entry(b.split(')').next().unwrap_or(""))
                .or_default() += 1;
        }
        assert!(
            batches.values().all(|&n| n == 1),
            "a batch applied twice to {}: {batches:?}",
            entry.path().display()
        );
    }
    home.assert_all_parse();
    eprintln!("crash: {trials} trials ({kills:?}), {written} observations, all accounted for once");
}
