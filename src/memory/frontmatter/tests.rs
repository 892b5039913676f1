use super::*;

const HAND_EDITED: &str = r#"---
# my notes on this one
trigger: "when running the test suite in this repo"
action: 'use cargo nextest run; it''s faster'
confidence: 0.65   # tuned by hand
domain: testing
created: 2026-02-01T14:30:00Z
last_seen: 2026-02-07T10:15:00Z
mood: curious
paths:
  - src/**
  - tests/**
---

# Use nextest

## Evidence

- 2026-02-01: first seen
"#;

fn doc(text: &str) -> Document {
    Document::parse(text.to_string()).unwrap()
}

/// The lines that differ between two texts, as (removed, added).
fn changed_lines(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let diff = similar::TextDiff::from_lines(before, after);
    let mut removed = Vec::new();
    let mut added = Vec::new();
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Delete => removed.push(change.value().trim_end().to_string()),
            similar::ChangeTag::Insert => added.push(change.value().trim_end().to_string()),
            similar::ChangeTag::Equal => {}
        }
    }
    (removed, added)
}

#[test]
fn splits_frontmatter_and_body() {
    let d = doc(HAND_EDITED);
    assert!(d.yaml().starts_with("# my notes"));
    assert!(d.body().starts_with("\n# Use nextest"));
    let map = d.mapping().unwrap();
    assert_eq!(map.get("mood").unwrap().as_str(), Some("curious"));
    assert_eq!(d.key_line("confidence"), Some(5));
}

#[test]
fn set_existing_key_changes_only_its_value() {
    let mut d = doc(HAND_EDITED);
    d.set("confidence", &Scalar::Number(0.75), &[]).unwrap();
    d.set(
        "last_seen",
        &Scalar::Text("2026-02-08T09:00:00Z".into()),
        &[],
    )
    .unwrap();
    let (removed, added) = changed_lines(HAND_EDITED, d.text());
    assert_eq!(
        removed,
        [
            "confidence: 0.65   # tuned by hand",
            "last_seen: 2026-02-07T10:15:00Z"
        ]
    );
    assert_eq!(
        added,
        [
            "confidence: 0.75   # tuned by hand",
            "last_seen: 2026-02-08T09:00:00Z"
        ]
    );
}

#[test]
fn quoting_style_is_kept() {
    let mut d = doc(HAND_EDITED);
    d.set("trigger", &Scalar::Text("when testing".into()), &[])
        .unwrap();
    d.set("action", &Scalar::Text("don't guess".into()), &[])
        .unwrap();
    d.set("domain", &Scalar::Text("tooling".into()), &[])
        .unwrap();
    d.set("mood", &Scalar::Text("yes".into()), &[]).unwrap();
    let text = d.text();
    assert!(text.contains("trigger: \"when testing\"\n"));
    assert!(text.contains("action: 'don''t guess'\n"));
    assert!(text.contains("domain: tooling\n"));
    assert!(
        text.contains("mood: \"yes\"\n"),
        "a YAML keyword must be quoted"
    );
}

#[test]
fn new_key_goes_after_anchor() {
    let mut d = doc(HAND_EDITED);
    d.set("promoted", &Scalar::Bool(true), &["last_seen"])
        .unwrap();
    d.set(
        "promoted_to",
        &Scalar::Text("convictions/testing-use-nextest.md".into()),
        &["promoted", "last_seen"],
    )
    .unwrap();
    let (removed, added) = changed_lines(HAND_EDITED, d.text());
    assert!(removed.is_empty());
    assert_eq!(
        added,
        [
            "promoted: true",
            "promoted_to: convictions/testing-use-nextest.md"
        ]
    );
    let after_last_seen = d
        .text()
        .split("last_seen: 2026-02-07T10:15:00Z\n")
        .nth(1)
        .unwrap();
    assert!(after_last_seen.starts_with("promoted: true\npromoted_to:"));
}

#[test]
fn new_key_without_anchor_goes_last() {
    let mut d = doc(HAND_EDITED);
    d.set("disputed", &Scalar::Bool(true), &["nope"]).unwrap();
    assert!(d.text().contains("  - tests/**\ndisputed: true\n---\n"));
}

#[test]
fn remove_takes_continuation_lines() {
    let mut d = doc(HAND_EDITED);
    assert!(d.remove("paths").unwrap());
    assert!(!d.remove("paths").unwrap());
    let (removed, added) = changed_lines(HAND_EDITED, d.text());
    assert_eq!(removed, ["paths:", "  - src/**", "  - tests/**"]);
    assert!(added.is_empty());
}

#[test]
fn set_list_replaces_block_sequence() {
    let mut d = doc(HAND_EDITED);
    d.set("paths", &Scalar::List(vec!["src/**".into()]), &[])
        .unwrap();
    assert!(d.text().contains("paths: [\"src/**\"]\n---\n"));
}

#[test]
fn crlf_files_stay_crlf() {
    let text = HAND_EDITED.replace('\n', "\r\n");
    let mut d = doc(&text);
    d.set("confidence", &Scalar::Number(0.5), &[]).unwrap();
    d.set("disputed", &Scalar::Bool(true), &["domain"]).unwrap();
    assert!(d.text().contains("confidence: 0.50   # tuned by hand\r\n"));
    assert!(
        d.text()
            .contains("domain: testing\r\ndisputed: true\r\ncreated")
    );
    assert!(!d.text().replace("\r\n", "").contains('\n'));
}

#[test]
fn syntax_errors_carry_file_lines() {
    let cases = [
        ("no frontmatter\n", 1),
        ("---\ntrigger: x\n", 1),
        // The parser notices an unclosed list on the line after it; the line to mend
        // is the one that opened it.
        ("---\ntrigger: x\naction: [unclosed\n---\n", 3),
        (
            "---\ntrigger: x\nconfidence: [0.7\ndomain: testing\n---\n",
            3,
        ),
        ("---\nmeta: {a: 1\ntrigger: x\n---\n", 2),
        ("---\ntrigger: x\ntrigger: y\n---\n", 3),
        ("---\n- a\n- b\n---\n", 2),
        ("", 1),
    ];
    for (text, line) in cases {
        let err = Document::parse(text.to_string()).and_then(|d| d.mapping());
        let err = err.expect_err(text);
        assert_eq!(err.line, line, "{text:?}: {err}");
    }
}

#[test]
fn edits_that_would_break_yaml_are_refused() {
    let text = "---\nconfidence: 0.5\n---\n";
    let mut d = doc(text);
    let weird = Scalar::Text("line\nbreak".into());
    d.set("trigger", &weird, &[]).unwrap();
    assert_eq!(
        d.mapping().unwrap().get("trigger").unwrap().as_str(),
        Some("line\nbreak")
    );
}

#[test]
fn empty_frontmatter_accepts_keys() {
    let mut d = doc("---\n---\nbody\n");
    d.set("confidence", &Scalar::Number(0.3), &[]).unwrap();
    assert_eq!(d.text(), "---\nconfidence: 0.30\n---\nbody\n");
}

/// Regression (property tests): indented lines after a key with a value were taken for
/// part of that value and dropped by the edit. Now the edit touches only the key's
/// line, or is refused when that would not read back.
#[test]
fn lines_after_a_single_line_value_are_never_dropped() {
    for text in [
        "---\nconfidence: 0.65   # tuned\n\t\n---\n\n",
        "---\nconfidence: 0.65   # tuned\n\t\u{a1}\n---\n\n",
    ] {
        let Ok(mut d) = Document::parse(text.to_string()) else {
            continue;
        };
        match d.set("confidence", &Scalar::Number(0.0), &[]) {
            Ok(()) => assert_eq!(d.text(), text.replace("0.65", "0.00")),
            Err(_) => assert_eq!(d.text(), text),
        }
    }
    let mut multi = doc("---\ntrigger: first part\n  second part\nconfidence: 0.5\n---\n");
    assert!(
        multi
            .set("trigger", &Scalar::Text("new".into()), &[])
            .is_err(),
        "a multi-line scalar is refused, not cut"
    );
    assert_eq!(
        multi.text(),
        "---\ntrigger: first part\n  second part\nconfidence: 0.5\n---\n"
    );
}

#[test]
fn pathological_frontmatter_is_refused_before_parsing() {
    let deep = format!(
        "---\na: {}{}\n---\n",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    let doc = Document::parse(deep).unwrap();
    let err = doc.mapping().unwrap_err();
    assert!(err.reason.contains("deeper than 64"), "{err}");
    let big = format!("---\na: \"{}\"\n---\n", "x".repeat(300 * 1024));
    let err = Document::parse(big).unwrap().mapping().unwrap_err();
    assert!(err.reason.contains("256 KiB"), "{err}");
    let fine = "---\na: [[1, 2], {b: [c]}]\n---\n".to_string();
    assert!(Document::parse(fine).unwrap().mapping().is_ok());
}
