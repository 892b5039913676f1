//! Tests of `agent::payload`.

use super::*;

#[test]
fn session_ids() {
    assert_eq!(safe_session_id("7c1e5a2b-3f4d-4e8a"), "7c1e5a2b-3f4d-4e8a");
    for hostile in ["../../x", "a/b", "x\0y", &"a".repeat(129), "ümlaut", "a b"] {
        let safe = safe_session_id(hostile);
        assert!(
            safe.starts_with('h') && safe.len() == 17,
            "{hostile:?} -> {safe}"
        );
    }
    assert_eq!(safe_session_id(""), "anonymous");
}

#[test]
fn short_ids_tell_time_ordered_sessions_apart() {
    assert_eq!(short_id("7c1e5a2b-3f4d-4e8a-9b6c-2d1f0e9a8b7c"), "7c1e5a2b");
    assert_eq!(short_id("01a213b5-409b-7423-996c-80f41bad3819"), "1bad3819");
    assert_ne!(
        short_id("01a213b5-409b-7423-996c-80f41bad3819"),
        short_id("01a213b5-294a-7431-9dbd-df99ebb8076e")
    );
    assert_eq!(short_id("abc"), "abc");
}

#[test]
fn long_outputs_keep_their_head_and_tail() {
    let out = format!(
        "start{}é{}the real error",
        "x".repeat(100_000),
        "y".repeat(100_000)
    );
    let p = Payload::parse(
        serde_json::json!({"session_id": "s", "tool_response": {"stdout": out, "stderr": 7}})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    let kept = p.tool_response.stdout.unwrap();
    assert!(kept.len() < CLIP + 100, "{}", kept.len());
    assert!(kept.starts_with("start") && kept.ends_with("the real error"));
    assert!(kept.contains("bytes left out"));
    assert_eq!(p.tool_response.stderr, None);
}

#[test]
fn lenient_fields() {
    let p = Payload::parse(
        br#"{"session_id": 42, "tool_input": {"file_path": ["x"], "command": "ls"}, "cwd": "/a", "stop_hook_active": "yes", "tool_response": 3}"#,
    )
    .unwrap();
    assert_eq!(p.session_id(), "anonymous");
    assert_eq!(p.file_path(), None);
    assert_eq!(p.tool_input.command.as_deref(), Some("ls"));
    assert_eq!(p.cwd.as_deref(), Some("/a"));
    assert!(!p.stop_hook_active);
    assert!(!p.tool_response.interrupted);
    let whole = Payload::parse(br#"{"tool_input": [1]}"#).unwrap();
    assert_eq!(whole.tool_input.command, None);
    assert!(Payload::parse(b"[1,2]").is_none());
    assert!(Payload::parse(b"{\"trunc").is_none());
    assert!(Payload::parse(&[0xff, 0xfe]).is_none());
}
