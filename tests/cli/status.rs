//! `homunculus status`: the human table and the JSON for scripts.

use std::fs;

use crate::common::{TestEnv, fixture};

#[test]
fn table_groups_by_domain_with_marks() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["status"]);
    out.success();
    insta::assert_snapshot!("status_bash_era", out.to_string());
}

#[test]
fn domain_filter() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["status", "--domain", "git"]);
    out.success();
    assert!(out.stdout.contains("git-autostash"));
    assert!(!out.stdout.contains("testing-use-nextest"));
    let none = env.run(&["status", "--domain", "nope"]);
    none.success();
    assert!(none.stdout.contains("No instincts in domain 'nope'."));
}

#[test]
fn json_has_the_documented_shape() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["status", "--json"]);
    out.success();
    let v = out.json();
    assert_eq!(v["pending_observations"], 3);
    assert_eq!(v["episodes"], 1);
    assert_eq!(v["sessions"], 1);
    assert_eq!(v["promotion_ready"], serde_json::json!(["testing"]));
    let items = v["instincts"].as_array().unwrap();
    assert_eq!(items.len(), 5);
    let launchd = items
        .iter()
        .find(|i| i["name"] == "tooling-launchd-reload")
        .unwrap();
    for key in [
        "name",
        "domain",
        "trigger",
        "action",
        "confidence",
        "effective_confidence",
        "created",
        "last_seen",
        "promoted",
        "path",
    ] {
        assert!(launchd.get(key).is_some(), "{key}");
    }
    assert_eq!(launchd["confidence"], 0.45);
    assert_eq!(
        launchd["effective_confidence"], 0.35,
        "two whole weeks of decay"
    );
    assert_eq!(launchd["promoted"], true);
}

#[test]
fn broken_files_are_reported_with_line_and_skipped() {
    let env = TestEnv::with_memory("bash-era");
    for name in [
        "testing-broken-yaml",
        "testing-bad-confidence",
        "testing-no-frontmatter",
    ] {
        fs::copy(fixture(&format!("broken/{name}.md")), env.instinct(name)).unwrap();
    }
    let before: Vec<String> = ["testing-broken-yaml", "testing-bad-confidence"]
        .iter()
        .map(|n| fs::read_to_string(env.instinct(n)).unwrap())
        .collect();
    let out = env.run(&["status"]);
    out.success();
    insta::assert_snapshot!("status_broken_stderr", out.stderr);
    assert!(out.stdout.contains("Instincts: 5"), "{out}");
    let json = env.run(&["status", "--json"]);
    assert_eq!(json.json()["errors"].as_array().unwrap().len(), 3);
    // Commands that touch instincts leave broken files alone.
    env.run(&["evolve", "--promote"]);
    let after: Vec<String> = ["testing-broken-yaml", "testing-bad-confidence"]
        .iter()
        .map(|n| fs::read_to_string(env.instinct(n)).unwrap())
        .collect();
    assert_eq!(before, after);
}

#[test]
fn missing_folder_is_a_clear_error() {
    let env = TestEnv::new();
    let out = env.run(&["status"]);
    out.failure();
    assert_eq!(
        out.stderr,
        "error: no memory folder at $HOME/.claude/homunculus; run `homunculus init` first\n"
    );
}

/// Memory text is data: an escape sequence in an action (an OSC 52 clipboard write, a
/// cursor move that hides lines) never reaches the terminal through `status` or `search`.
#[test]
fn memory_text_prints_no_terminal_control_sequences() {
    let env = TestEnv::with_memory("bash-era");
    fs::write(
        env.instinct("testing-hostile-escapes"),
        // YAML's own escapes: `\e` is ESC, `\a` BEL.
        "---\ntrigger: \"when testing \\e[2K\\e[1A\"\naction: \"run the suite \\e]52;c;ZWNobyBwd25lZA==\\a then \\e[31mred\\e[0m\"\nconfidence: 0.7\ndomain: testing\ncreated: 2026-02-01T00:00:00Z\nlast_seen: 2026-02-20T00:00:00Z\n---\n\n# Hostile suite\n",
    )
    .unwrap();
    for args in [&["status"][..], &["search", "suite"][..]] {
        let out = env.run(args);
        out.success();
        assert!(out.stdout.contains("hostile"), "{args:?}: {:?}", out.stdout);
        assert!(!out.stdout.contains('\u{1b}'), "{args:?}: {:?}", out.stdout);
        assert!(!out.stdout.contains('\u{7}'), "{args:?}");
    }
}

#[test]
fn an_old_lesson_many_sessions_showed_keeps_its_weight_and_says_why() {
    let env = TestEnv::with_memory("bash-era");
    let file = env
        .memory()
        .join("instincts/personal/testing-seen-in-seven.md");
    fs::write(
        &file,
        "---\ntrigger: \"when running the ledger tests\"\naction: \"use cargo nextest run\"\nconfidence: 0.60\ndomain: testing\ncreated: 2025-01-01T00:00:00Z\nlast_seen: 2025-02-01T00:00:00Z\nprovenance: model\nsessions: 7\n---\n\n# Seen in seven\n",
    )
    .unwrap();
    let out = env.run(&["status", "--domain", "testing"]);
    out.success();
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("testing-seen-in-seven"))
        .unwrap();
    assert!(
        line.contains("0.60    0.50") && line.contains("[7 sessions]"),
        "{line}"
    );
    let json = env.run(&["status", "--json"]).json();
    let item = json["instincts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == "testing-seen-in-seven")
        .unwrap()
        .clone();
    assert_eq!(
        (item["effective_confidence"].clone(), item["weight"].clone()),
        (0.2.into(), 0.5.into())
    );
    // Export keeps it at its weight, not its decay.
    let to = env.memory().with_file_name("export.json");
    let to = to.to_str().unwrap();
    env.run(&["export", "--min-confidence", "0.4", to])
        .success();
    let exported = fs::read_to_string(to).unwrap();
    assert!(exported.contains("testing-seen-in-seven"), "{exported}");
}

/// A forgotten episode is no longer counted (and keeps why), and a memory whose only instinct does not
/// parse says so instead of "no instincts yet".
#[test]
fn counts_leave_out_forgotten_items_and_an_unreadable_memory_says_so() {
    let env = TestEnv::with_memory("bash-era");
    assert!(env.run(&["status"]).stdout.contains("Episodes: 1"));
    env.run(&[
        "forget",
        "2026-02-10-flaky-port",
        "--reason",
        "port fixed upstream",
    ])
    .success();
    let out = env.run(&["status"]);
    assert!(out.stdout.contains("Episodes: 0"), "{out}");
    // An episode keeps no evidence list: the reason stands by the mark.
    let episode = fs::read_to_string(env.memory().join("episodes/2026-02-10-flaky-port.md"));
    let episode = episode.unwrap();
    assert!(
        episode.contains("retired: true\nretired_reason: port fixed upstream\n"),
        "{episode}"
    );

    let env = TestEnv::new();
    env.run(&["init"]).success();
    let broken = env
        .memory()
        .join("instincts/personal/testing-broken-yaml.md");
    fs::copy(fixture("broken/testing-broken-yaml.md"), &broken).unwrap();
    let out = env.run(&["status"]);
    out.success();
    assert!(
        out.stdout.contains("No instinct can be read: 1 file(s)"),
        "{out}"
    );
    assert!(out.stderr.contains("testing-broken-yaml.md:"), "{out}");
}
