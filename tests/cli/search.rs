//! `homunculus search` and `reindex`: freshness after hand edits, deletes and renames,
//! hostile queries, concurrent writers, a corrupt index.

use std::fs;

use crate::common::TestEnv;

fn names(env: &TestEnv, query: &[&str]) -> Vec<String> {
    let mut args = vec!["search", "--json"];
    args.extend_from_slice(query);
    let out = env.run(&args);
    out.success();
    out.json()["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn finds_every_kind_with_snippets() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["search", "nextest"]);
    out.success();
    insta::assert_snapshot!("search_nextest", out.to_string());
    assert_eq!(names(&env, &["busy", "port"]), ["2026-02-10-flaky-port"]);
    assert_eq!(
        names(&env, &["--kind", "session", "ledger"]),
        ["2026-02-19T174512Z-7c1e5a2"]
    );
    assert_eq!(
        names(&env, &["--project", "elsewhere", "port"]),
        Vec::<String>::new()
    );
    // Stemming: "reloading" finds "reload".
    assert!(names(&env, &["reloading"]).contains(&"tooling-launchd-reload".to_string()));
}

#[test]
fn json_has_the_documented_shape() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["search", "--json", "autostash"]);
    let hit = &out.json()["hits"][0];
    for key in ["path", "kind", "name", "title", "score"] {
        assert!(hit.get(key).is_some(), "{key}: {out}");
    }
    assert_eq!(hit["path"], "instincts/personal/git-autostash.md");
}

#[test]
fn hand_edits_deletes_and_renames_are_seen() {
    let env = TestEnv::with_memory("bash-era");
    assert_eq!(names(&env, &["zeppelin"]), Vec::<String>::new());
    // An in-place edit (no rename: the folder's mtime does not change).
    let path = env.instinct("testing-use-nextest");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace("# Use nextest", "# Use nextest like a zeppelin");
    fs::write(&path, text).unwrap();
    assert_eq!(names(&env, &["zeppelin"]), ["testing-use-nextest"]);
    // A rename.
    let renamed = env.instinct("testing-zeppelin-runner");
    fs::rename(&path, &renamed).unwrap();
    assert_eq!(names(&env, &["zeppelin"]), ["testing-zeppelin-runner"]);
    // A delete.
    fs::remove_file(&renamed).unwrap();
    assert_eq!(names(&env, &["zeppelin"]), Vec::<String>::new());
    // A new file.
    fs::write(
        env.memory().join("episodes/2026-02-20-zeppelin.md"),
        "---\ndate: 2026-02-20\ntype: episode\nproject: air\ntags: [general]\n---\n\n# Zeppelin landed\n",
    )
    .unwrap();
    assert_eq!(names(&env, &["zeppelin"]), ["2026-02-20-zeppelin"]);
}

#[test]
fn own_writes_update_the_index() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["reindex"]).success();
    env.run(&["evolve", "--promote"]).success();
    assert_eq!(
        names(&env, &["--kind", "conviction", "nextest"]),
        ["testing-use-nextest"]
    );
}

#[test]
fn hostile_queries_never_error() {
    let env = TestEnv::with_memory("bash-era");
    for q in [
        "\"unclosed",
        "a:b",
        "(((",
        "*",
        "+-!^~",
        "AND OR NOT",
        "title:x",
        "[1 TO 2]",
        "\\",
        "🦀",
        "ü ß",
        "' OR 1=1 --",
        &"x".repeat(5000),
    ] {
        let out = env.run(&["search", q]);
        assert_eq!(out.code, 0, "{q:?}: {out}");
    }
    let out = env.run(&["search", "--json", "nextest\"):"]);
    assert_eq!(out.json()["hits"][0]["name"], "testing-use-nextest");
}

#[test]
fn corrupt_index_is_rebuilt() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["reindex"]).success();
    let tantivy = env.memory().join(".index/tantivy");
    // Damage every segment file, keep meta.json pointing at them.
    for entry in fs::read_dir(&tantivy).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".idx") || name.ends_with(".term") || name.ends_with(".store") {
            fs::write(&path, b"garbage").unwrap();
        }
    }
    let out = env.run(&["search", "--json", "nextest"]);
    out.success();
    assert_eq!(
        out.json()["hits"][0]["name"],
        "testing-use-nextest",
        "{out}"
    );
    // A missing index is just rebuilt.
    fs::remove_dir_all(env.memory().join(".index")).unwrap();
    assert_eq!(names(&env, &["nextest"]), ["testing-use-nextest"]);
    // Garbage in meta.json too.
    fs::write(tantivy.join("meta.json"), "{not json").unwrap();
    assert_eq!(names(&env, &["nextest"]), ["testing-use-nextest"]);
}

#[test]
fn search_while_another_process_writes() {
    let env = TestEnv::with_memory("bash-era");
    for n in 0..400 {
        fs::write(
            env.memory().join(format!("episodes/2026-01-01-bulk-{n}.md")),
            format!("---\ndate: 2026-01-01\ntype: episode\nproject: bulk\ntags: [general]\n---\n\n# Bulk {n}\n\nfiller words about caching and retries\n"),
        )
        .unwrap();
    }
    let mut writer = env
        .spawnable()
        .arg("reindex")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..10 {
        let out = env.run(&["search", "--json", "autostash"]);
        assert_eq!(out.code, 0, "{out}");
    }
    assert!(writer.wait().unwrap().success());
    assert_eq!(names(&env, &["autostash"]), ["git-autostash"]);
    assert_eq!(
        names(&env, &["--limit", "500", "--kind", "episode", "caching"]).len(),
        400
    );
}

#[test]
fn reindex_reports_count() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["reindex"]);
    out.success();
    assert!(out.stdout.starts_with("Indexed 7 files in "), "{out}");
}

/// Regression (concurrency harness): `reindex` removed the index folder while readers
/// in other processes were creating their lock files in it, and failed with "Directory
/// not empty". It now moves the old index aside first.
#[test]
fn reindex_while_others_read() {
    let env = TestEnv::with_memory("bash-era");
    env.run(&["reindex"]).success();
    std::thread::scope(|s| {
        s.spawn(|| {
            for _ in 0..30 {
                let out = env.run(&["search", "autostash"]);
                assert_eq!(out.code, 0, "{out}");
            }
        });
        for _ in 0..8 {
            env.run(&["reindex"]).success();
        }
    });
    let leftovers: Vec<_> = fs::read_dir(env.memory().join(".index"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("old-"))
        .collect();
    assert!(
        leftovers.len() <= 1,
        "old indexes are cleaned up: {leftovers:?}"
    );
}

#[test]
fn a_limit_of_zero_is_refused() {
    let env = TestEnv::with_memory("bash-era");
    let out = env.run(&["search", "nextest", "--limit", "0"]);
    assert_eq!(out.code, 2, "a usage error: {out}");
    assert!(out.stderr.contains("0 is not in 1..=1000"), "{out}");
}

/// A word only an instinct's action holds ranks as a word in a session's body does, however
/// many sessions the memory holds: BM25 measures an action against the other actions,
/// not against every document (most have none), which buried a hand-edited action.
#[test]
fn a_word_in_an_action_counts_as_much_as_a_word_in_a_body() {
    let env = TestEnv::new();
    env.run(&["init"]).success();
    let memory = env.memory();
    fs::write(
        memory.join("instincts/personal/tooling-devbox.md"),
        "---\ntrigger: \"when building the site\"\naction: \"run zebrafish inside the devbox shell first\"\nconfidence: 0.6\ndomain: tooling\ncreated: 2026-02-01T00:00:00Z\nlast_seen: 2026-02-18T00:00:00Z\n---\n\n# Build inside devbox\n",
    )
    .unwrap();
    let body = "We opened the shell to look at the build output of the site and fixed a typo in the navigation menu and the footer links.";
    for n in 0..40 {
        fs::write(
            memory.join(format!("sessions/2026-01-{:02}-s{n}.md", n % 28 + 1)),
            format!("---\nsession: s{n}\n---\n\n# Session {n}\n\n{body}\n"),
        )
        .unwrap();
    }
    fs::write(
        memory.join("sessions/2026-02-01-z.md"),
        format!("---\nsession: z\n---\n\n# Session z\n\n{body} The zebrafish theme too.\n"),
    )
    .unwrap();
    let out = env.run(&["search", "zebrafish", "--json"]).json();
    let hits = out["hits"].as_array().unwrap();
    assert_eq!(hits[0]["kind"], "instinct", "{out}");
}
