//! `homunculus evolve`: candidates, promotion, revocation, stale warnings.

use crate::common::TestEnv;

#[test]
fn preview_lists_candidates_and_stale_convictions() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["evolve"]);
    out.success();
    insta::assert_snapshot!("evolve_preview", out.to_string());
    assert!(
        !env.memory()
            .join("convictions/testing-use-nextest.md")
            .exists()
    );
}

#[test]
fn promote_writes_convictions_and_revokes() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["init"]).success();
    let out = env.run(&["evolve", "--promote", "--json"]);
    out.success();
    let v = out.json();
    assert_eq!(v["promoted"], serde_json::json!(["testing-use-nextest"]));
    assert_eq!(v["revoked"], serde_json::json!(["tooling-launchd-reload"]));
    let stale: Vec<_> = v["stale"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert_eq!(stale, ["git-autostash", "tooling-launchd-reload"]);

    let conviction = env.read("convictions/testing-use-nextest.md");
    insta::assert_snapshot!("conviction_promoted", conviction);
    let instinct = env.read("instincts/personal/testing-use-nextest.md");
    assert!(instinct.contains("last_seen: 2026-02-18T10:15:00Z\npromoted: true\npromoted_to: convictions/testing-use-nextest.md\n---"), "{instinct}");
    // Revoked: the migrated conviction is gone and the instinct unmarked.
    assert!(
        !env.memory()
            .join("convictions/tooling-launchd-reload.md")
            .exists()
    );
    let launchd = env.read("instincts/personal/tooling-launchd-reload.md");
    assert!(!launchd.contains("promoted"), "{launchd}");
    let identity: serde_json::Value = serde_json::from_str(&env.read("identity.json")).unwrap();
    assert_eq!(identity["last_promotion"], "2026-02-20T12:00:00Z");
    // Nothing left to do.
    let again = env.run(&["evolve", "--promote"]);
    again.success();
    assert!(again.stdout.contains("Nothing to change."), "{again}");
}

#[test]
fn clustering_marks_domains_ready() {
    let env = TestEnv::with_memory("bash-era");
    for n in 0..5 {
        let text = format!(
            "---\ntrigger: \"when case {n}\"\naction: \"do {n}\"\nconfidence: 0.60\ndomain: security\ncreated: 2026-02-01T00:00:00Z\nlast_seen: 2026-02-19T00:00:00Z\n---\n\n# Case {n}\n"
        );
        std::fs::write(env.instinct(&format!("security-case-{n}")), text).unwrap();
    }
    let out = env.run(&["evolve", "--promote", "--json"]);
    out.success();
    assert_eq!(
        out.json()["promotion_ready"],
        serde_json::json!(["security"])
    );
    let identity: serde_json::Value = serde_json::from_str(&env.read("identity.json")).unwrap();
    assert_eq!(
        identity["promotion"]["ready"],
        serde_json::json!(["security"])
    );
}

#[test]
fn promote_commits_what_it_changed_in_a_repository() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["init", "--git"]).success();
    let out = env.run(&["evolve", "--promote"]);
    out.success();
    assert!(
        out.stdout
            .contains("Committed to the memory folder's git history"),
        "{out}"
    );
    let shown = env.git(&["show", "HEAD", "--name-only", "--format=%B"]);
    assert!(shown.contains("promoted testing-use-nextest"), "{shown}");
    assert!(
        shown.contains("convictions/testing-use-nextest.md"),
        "{shown}"
    );
    assert_eq!(
        env.git(&["status", "--porcelain"]).trim(),
        "",
        "nothing left over"
    );
}
