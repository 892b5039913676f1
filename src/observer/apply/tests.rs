//! Tests of `observer::apply`.

use super::*;

#[test]
fn titles() {
    assert_eq!(
        title_of("run `cargo nextest run` instead; x"),
        "Run cargo nextest run instead"
    );
    assert_eq!(
        title_of("Never make manual changes to generated files (the user's rule)"),
        "Never make manual changes to generated files"
    );
    assert_eq!(
        title_of("Always run the formatter on the files in the workspace before committing"),
        "Always run the formatter on the files"
    );
    assert_eq!(
        title_of("Use pnpm (not npm) here always"),
        "Use pnpm (not npm) here always"
    );
    // Not clipped: its own words, whatever they end on.
    assert_eq!(title_of("Answer yes or no"), "Answer yes or no");
    assert_eq!(title_of("Keep strict mode on"), "Keep strict mode on");
    // An aside that opens the action is no cut.
    assert_eq!(
        title_of("(when the build is red) always run cargo clean before the next build"),
        "(when the build is red) always run cargo"
    );
    // The dash is trimmed before the word it leaves dangling.
    assert_eq!(
        title_of("Run the suite with --nocapture and -- then the filter after it"),
        "Run the suite with --nocapture"
    );
}

#[test]
fn a_forgotten_item_is_never_reinforced_contradicted_or_grown_again() {
    let m = crate::testutil::Memory::new();
    let store = Store::new(&m.paths);
    let path = m.instinct(
        "testing-nextest",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "retired: true\n",
    );
    let episode = m.write(
        "episodes/2026-02-01-flaky-port.md",
        "---\ndate: 2026-02-01\nproject: ledger\npattern: \"port-in-use\"\noccurrences: 1\nretired: true\n---\n\n# Flaky port\n\n## Sightings\n\n- once\n",
    );
    let before = (
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(&episode).unwrap(),
    );
    let ops = [
        Op::Reinforce {
            name: "testing-nextest".into(),
            evidence: "seen again".into(),
            last_seen: None,
            sessions: 2,
        },
        Op::Contradict {
            name: "testing-nextest".into(),
            evidence: "went against it".into(),
        },
        Op::Episode {
            key: "port-in-use".into(),
            title: "Flaky port".into(),
            narrative: "seen again".into(),
            project: Some("ledger".into()),
            tags: vec![],
            files: vec![],
            occurrences: 2,
            lesson: None,
            seen: None,
            provenance: Default::default(),
        },
        Op::PromoteEpisode {
            episode: "2026-02-01-flaky-port".into(),
            name: "debugging-free-the-port".into(),
            domain: "debugging".into(),
            trigger: "when the port is in use".into(),
            action: "free the port first".into(),
            evidence: "three times".into(),
            last_seen: None,
            provenance: Default::default(),
            sessions: 3,
        },
    ];
    let applied = apply(&store, &ops, "b1", "builtin", m.now);
    assert!(applied.errors.is_empty(), "{:?}", applied.errors);
    assert_eq!(
        (
            applied.reinforced,
            applied.contradicted,
            applied.episodes,
            applied.created
        ),
        (0, 0, 0, 0)
    );
    assert_eq!(
        before,
        (
            std::fs::read_to_string(&path).unwrap(),
            std::fs::read_to_string(&episode).unwrap()
        )
    );
    assert!(
        !m.paths
            .personal_instincts()
            .join("debugging-free-the-port.md")
            .exists()
    );
}

#[test]
fn reinforcing_records_the_session_count_in_one_line_and_never_lowers_it() {
    let m = crate::testutil::Memory::new();
    let store = Store::new(&m.paths);
    let path = m.instinct(
        "testing-nextest",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "provenance: model\nsessions: 3\n",
    );
    let reinforce = |sessions| Op::Reinforce {
        name: "testing-nextest".into(),
        evidence: "seen again".into(),
        last_seen: None,
        sessions,
    };
    let before = std::fs::read_to_string(&path).unwrap();
    let applied = apply(&store, &[reinforce(5)], "b1", "builtin", m.now);
    assert!(applied.errors.is_empty(), "{:?}", applied.errors);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.contains("\nsessions: 5\n"), "{after}");
    // Only the state lines, the count and one evidence bullet changed.
    let changed = before
        .lines()
        .filter(|l| !after.lines().any(|a| a == *l))
        .count();
    assert!(changed <= 3, "{before}\n---\n{after}");
    // A smaller count (a ledger lost) or none (an engine that does not count) keeps it.
    apply(
        &store,
        &[reinforce(4), reinforce(0)],
        "b2",
        "builtin",
        m.now,
    );
    let again = std::fs::read_to_string(&path).unwrap();
    assert!(again.contains("\nsessions: 5\n"), "{again}");
}

#[test]
fn evidence_that_names_its_own_day_is_not_dated_twice() {
    let m = crate::testutil::Memory::new();
    let store = Store::new(&m.paths);
    let path = m.instinct(
        "tools-read-first",
        0.5,
        "2026-02-01T00:00:00Z",
        "2026-02-01T00:00:00Z",
        "provenance: model\n",
    );
    let reinforce = |evidence: &str| Op::Reinforce {
        name: "tools-read-first".into(),
        evidence: evidence.into(),
        last_seen: None,
        sessions: 0,
    };
    let dated = reinforce("2026-02-03, dl: Edit refused (session 5a198443)");
    apply(&store, &[dated], "b1", "builtin", m.now);
    apply(&store, &[reinforce("seen again")], "b2", "builtin", m.now);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.contains("\n- 2026-02-03, dl: Edit refused (session 5a198443) "),
        "{after}"
    );
    assert!(!after.contains(": 2026-02-03,"), "{after}");
    assert!(after.contains(": seen again "), "{after}");
}

#[test]
fn another_error_that_teaches_the_same_lesson_is_a_sighting_of_its_episode() {
    let m = crate::testutil::Memory::new();
    let store = Store::new(&m.paths);
    let sighting = |key: &str, narrative: &str| Op::Episode {
        key: key.into(),
        title: "git add before nix flake check".into(),
        narrative: narrative.into(),
        project: Some("system-conf".into()),
        tags: vec![],
        files: vec![],
        occurrences: 1,
        lesson: Some("run `git add` first".into()),
        seen: Some(m.now),
        provenance: Default::default(),
    };
    let ops = [
        sighting(
            "recover:does not exist=>first:git add",
            "failed: does not exist (s1)",
        ),
        sighting(
            "recover:not tracked=>first:git add",
            "failed: not tracked (s2)",
        ),
    ];
    let applied = apply(&store, &ops, "b1", "builtin", m.now);
    assert!(applied.errors.is_empty(), "{:?}", applied.errors);
    let files: Vec<_> = std::fs::read_dir(m.paths.episodes()).unwrap().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let path = files[0].as_ref().unwrap().path();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("occurrences: 2"), "{text}");
    assert!(text.contains("(s1)") && text.contains("(s2)"), "{text}");
    // The same batch again (after a crash) changes nothing.
    let again = apply(&store, &ops, "b1", "builtin", m.now);
    assert_eq!(again.episodes, 0);
    assert_eq!(text, std::fs::read_to_string(&path).unwrap());
}
