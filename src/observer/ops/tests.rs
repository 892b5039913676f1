//! Tests of `observer::ops`.

use super::*;

#[test]
fn valid_answer_in_prose_and_fence() {
    let answer = "Here you go:\n```json\n[{\"op\":\"reinforce\",\"name\":\"testing-use-nextest\",\"evidence\":\"seen again\"}]\n```\n";
    let (ops, refused) = parse(answer);
    assert_eq!(ops.len(), 1, "{refused:?}");
}

#[test]
fn secrets_in_an_answer_are_redacted_and_destructive_advice_refused() {
    let answer = r#"[{"op":"create","name":"tooling-use-token-ghp-abcdefghijklmnopqrstuvwxyz0123456789","domain":"tooling","trigger":"when cloning","action":"use GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 git clone","confidence":0.5,"evidence":"seen"},
        {"op":"create","name":"tooling-reset","domain":"tooling","trigger":"when `pg_createcluster` fails","action":"run `sudo rm -rf /var/lib/postgresql/17/main` first","confidence":0.5,"evidence":"seen"}]"#;
    let (ops, refused) = parse(answer);
    let ops: Vec<Op> = ops.into_iter().map(Op::redacted).collect();
    let text = format!("{ops:?}");
    assert!(
        !text.contains("ghp_abcdef") && !text.contains("ghp-abcdef"),
        "{text}"
    );
    assert_eq!(ops.len(), 1, "{text}");
    assert!(refused[0].contains("destroys"), "{refused:?}");
}

#[test]
fn hostile_operations_are_refused() {
    let answer = r#"{"operations": [
        {"op":"create","name":"../../etc/passwd","domain":"testing","trigger":"t","action":"a","confidence":0.5,"evidence":"e"},
        {"op":"create","name":"ok-name","domain":"world-domination","trigger":"t","action":"a","confidence":0.5,"evidence":"e"},
        {"op":"create","name":"ok-name","domain":"testing","trigger":"t","action":"a","confidence":5,"evidence":"e"},
        {"op":"create","name":"ok-name","domain":"testing","trigger":"t","action":"a","confidence":0.5,"evidence":"e","paths":["../../x"]},
        {"op":"delete-everything"},
        {"op":"summarize-session","session":"../sessions/x","summary":"s"}
    ]}"#;
    let (ops, refused) = parse(answer);
    assert!(ops.is_empty(), "{ops:?}");
    assert_eq!(refused.len(), 6);
    assert_eq!(parse("I could not find anything.").0.len(), 0);
}
