//! Tests of `memory::promotion`.

use super::*;
use crate::testutil::Memory;

fn plan_now(m: &Memory) -> Plan {
    plan(&m.paths, &Store::new(&m.paths).instincts().items, m.now)
}

#[test]
fn only_a_proven_instinct_is_promoted_and_the_second_run_does_nothing() {
    let m = Memory::new();
    // Old enough, seen this week, strong: promoted.
    m.instinct(
        "testing-proven",
        0.80,
        "2026-02-01T00:00:00Z",
        "2026-02-27T00:00:00Z",
        "",
    );
    // Too young; strong but stale; too weak.
    m.instinct(
        "testing-young",
        0.80,
        "2026-02-25T00:00:00Z",
        "2026-02-28T00:00:00Z",
        "",
    );
    m.instinct(
        "testing-stale",
        0.85,
        "2026-01-01T00:00:00Z",
        "2026-02-10T00:00:00Z",
        "",
    );
    m.instinct(
        "testing-weak",
        0.70,
        "2026-01-01T00:00:00Z",
        "2026-02-28T00:00:00Z",
        "",
    );
    let first = plan_now(&m);
    let names: Vec<&str> = first
        .candidates
        .iter()
        .map(|c| c.instinct.name.as_str())
        .collect();
    assert_eq!(names, ["testing-proven"]);
    let done = apply(&Store::new(&m.paths), &first, m.now);
    assert!(done.errors.is_empty(), "{:?}", done.errors);
    let conviction = m.paths.convictions().join("testing-proven.md");
    let text = std::fs::read_to_string(&conviction).unwrap();
    assert!(text.contains("source_instinct: testing-proven\n"), "{text}");
    assert!(
        text.contains("action: \"use cargo nextest run for testing-proven\""),
        "{text}"
    );
    let instinct =
        std::fs::read_to_string(m.paths.personal_instincts().join("testing-proven.md")).unwrap();
    assert!(
        instinct.contains("promoted: true\npromoted_to: convictions/testing-proven.md\n"),
        "{instinct}"
    );
    assert!(plan_now(&m).candidates.is_empty(), "promoted once");
}

#[test]
fn a_promoted_instinct_that_lost_confidence_is_revoked() {
    let m = Memory::new();
    m.instinct(
        "testing-fallen",
        0.35,
        "2026-01-01T00:00:00Z",
        "2026-02-28T00:00:00Z",
        "promoted: true\npromoted_to: convictions/testing-fallen.md\n",
    );
    m.instinct(
        "testing-wobbly",
        0.45,
        "2026-01-01T00:00:00Z",
        "2026-02-28T00:00:00Z",
        "promoted: true\n",
    );
    m.write(
        "convictions/testing-fallen.md",
        "---\nname: testing-fallen\naction: x\ndomain: testing\nsource_instinct: testing-fallen\n---\n",
    );
    let p = plan_now(&m);
    let weak: Vec<(&str, bool)> = p
        .weakened
        .iter()
        .map(|w| (w.instinct.name.as_str(), w.revoke))
        .collect();
    assert_eq!(weak.len(), 2);
    assert!(weak.contains(&("testing-fallen", true)) && weak.contains(&("testing-wobbly", false)));
    let done = apply(&Store::new(&m.paths), &p, m.now);
    assert_eq!(done.revoked.len(), 1);
    assert!(!m.paths.convictions().join("testing-fallen.md").exists());
    let text =
        std::fs::read_to_string(m.paths.personal_instincts().join("testing-fallen.md")).unwrap();
    assert!(!text.contains("promoted"), "{text}");
}

#[test]
fn five_solid_instincts_make_a_domain_ready() {
    let m = Memory::new();
    for n in 0..5 {
        m.instinct(
            &format!("testing-{n}"),
            0.55,
            "2026-02-20T00:00:00Z",
            "2026-02-28T00:00:00Z",
            "",
        );
    }
    assert_eq!(plan_now(&m).ready_domains, ["testing"]);
}
