//! 8 processes at once on one memory folder: four hook streams from different sessions,
//! two feedback streams, the observer and reindex, with `watch` running. Afterwards: the
//! observation count is exact, every file parses, no feedback was lost (evidence and
//! confidence match a serial replay), and the index agrees with the files.

use std::collections::BTreeSet;
use std::thread;

use chrono::{DateTime, Utc};
use homunculus::memory::confidence::{Feedback, State, weight_floor};

use super::{Home, NOW, full, payload};

fn replay(start: f64, ops: &[Feedback], now: DateTime<Utc>) -> f64 {
    let mut state = State {
        confidence: start,
        last_seen: now,
        decayed_until: None,
    };
    // `strong` vouches for it (`confirmed_by: user`, a floor); `weak`/`wrong` take that back.
    let mut confirmed = false;
    for op in ops {
        let floor = weight_floor(state.confidence, 0, confirmed);
        let u = state.feedback(*op, now, floor);
        confirmed = *op == Feedback::Strong;
        state = State {
            confidence: u.confidence,
            last_seen: u.last_seen,
            decayed_until: u.decayed_until,
        };
    }
    state.confidence
}

#[test]
fn concurrency() {
    let n: usize = if full() { 200 } else { 25 };
    let home = Home::initialised();
    let project = home.home.join("src/ledger");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    home.write_instinct("general-alpha", 0.50);
    home.write_instinct("general-beta", 0.50);
    let mut watch = home
        .command(&["watch"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let a_ops: Vec<Feedback> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Feedback::Strong
            } else {
                Feedback::Weak
            }
        })
        .collect();
    let b_ops: Vec<Feedback> = (0..n)
        .map(|i| {
            if i % 3 == 2 {
                Feedback::Weak
            } else {
                Feedback::Strong
            }
        })
        .collect();
    thread::scope(|s| {
        for w in 0..4 {
            let (home, project) = (&home, &project);
            s.spawn(move || {
                for i in 0..n {
                    let cmd = format!("\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"cargo build -p w{w}-{i}\"}},\"tool_response\":{{\"stdout\":\"ok\"}}");
                    assert!(home.hook("post-tool-use", &payload(&format!("sess-{w}"), project, &cmd)).status.success());
                    if i % 10 == 0 {
                        let p = format!("\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"please continue with step {w}-{i} of the plan\"");
                        assert!(home.hook("user-prompt-submit", &payload(&format!("sess-{w}"), project, &p)).status.success());
                    }
                    if i % 50 == 49 {
                        let p = "\"hook_event_name\":\"Stop\",\"stop_hook_active\":false";
                        assert!(home.hook("stop", &payload(&format!("sess-{w}"), project, p)).status.success());
                    }
                }
            });
        }
        for (name, ops) in [("general-alpha", &a_ops), ("general-beta", &b_ops)] {
            let home = &home;
            s.spawn(move || {
                for op in ops {
                    let verdict = match op {
                        Feedback::Strong => "strong",
                        Feedback::Weak => "weak",
                        Feedback::Wrong => "wrong",
                    };
                    let out = home.run(&["feedback", name, verdict]);
                    assert!(
                        out.status.success(),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            });
        }
        let home_ref = &home;
        s.spawn(move || {
            for _ in 0..n {
                let out = home_ref.run(&["observe", "--force"]);
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        });
        s.spawn(move || {
            for i in 0..n {
                let out = if i % 10 == 0 {
                    home_ref.run(&["reindex"])
                } else {
                    home_ref.run(&["search", "alpha"])
                };
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        });
    });
    let _ = watch.kill();
    let _ = watch.wait();

    // Exact observation count: every tool call and prompt, once.
    let lines = home.observation_lines();
    let commands: Vec<String> = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["input"]["command"].as_str().map(str::to_string))
        .collect();
    let unique: BTreeSet<&String> = commands.iter().collect();
    assert_eq!(commands.len(), 4 * n, "observations lost or duplicated");
    assert_eq!(unique.len(), 4 * n);
    let prompts = lines
        .iter()
        .filter(|l| l.contains("\"event\":\"prompt\""))
        .count();
    assert_eq!(prompts, 4 * n.div_ceil(10));

    home.assert_all_parse();
    // No feedback lost: one evidence bullet per call, and the serial replay's value.
    let now = DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc);
    for (name, ops) in [("general-alpha", &a_ops), ("general-beta", &b_ops)] {
        let text =
            std::fs::read_to_string(home.memory().join(format!("instincts/personal/{name}.md")))
                .unwrap();
        assert_eq!(text.matches(": feedback ").count(), ops.len(), "{name}");
        let want = replay(0.50, ops, now);
        assert!(
            text.contains(&format!("confidence: {want:.2}")),
            "{name}: want {want:.2}\n{text}"
        );
    }
    // The index agrees with the files after a sync.
    let status: serde_json::Value =
        serde_json::from_slice(&home.run(&["status", "--json"]).stdout).unwrap();
    let files: usize = [
        "instincts/personal",
        "instincts/inherited",
        "convictions",
        "episodes",
        "sessions",
    ]
    .iter()
    .map(|d| std::fs::read_dir(home.memory().join(d)).map_or(0, |e| e.count()))
    .sum();
    assert_eq!(status["indexed"].as_u64(), Some(files as u64), "{status}");
    eprintln!(
        "concurrency: 8 processes, {} operations, {} observations, all accounted for",
        8 * n,
        lines.len()
    );
}
