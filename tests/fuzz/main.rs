//! Property tests over every parser that meets outside input: frontmatter (with the
//! lossless edit round trip), hook payloads and observations, transcripts, redaction,
//! and the llm engine's operations. `cargo test` runs a few hundred cases each; a long
//! run is `FUZZ_SECONDS=600 cargo test --release --test fuzz -- --nocapture --test-threads 1`.
//! (cargo-fuzz needs a nightly toolchain, which this project's machines do not have.)

// Test and benchmark code sets up files and reads the clock directly; the house rules
// in clippy.toml are for the program.
#![allow(clippy::disallowed_methods)]

use chrono::{TimeZone, Utc};
use homunculus::agent::observation::{self, Event};
use homunculus::agent::payload::Payload;
use homunculus::agent::redact::redact;
use homunculus::agent::transcript;
use homunculus::memory::{Document, Scalar};
use homunculus::observer::ops;
use proptest::prelude::*;
use serde_json::Value;

/// Arbitrary JSON values, a few levels deep, with the keys hooks look at.
fn json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("session_id".to_string()),
        Just("cwd".to_string()),
        Just("tool_name".to_string()),
        Just("tool_input".to_string()),
        Just("command".to_string()),
        Just("file_path".to_string()),
        Just("prompt".to_string()),
        Just("error".to_string()),
        Just("op".to_string()),
        Just("name".to_string()),
        ".{0,8}".prop_map(|s| s),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,40}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key.clone(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Frontmatter-shaped text: key lines, comments, lists, junk, then a body.
fn frontmatter() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        ("[a-z_]{1,10}", ".{0,30}").prop_map(|(k, v)| format!("{k}: {v}")),
        ("[a-z_]{1,10}", "[a-z0-9 ]{0,20}").prop_map(|(k, v)| format!("{k}: \"{v}\"")),
        Just("confidence: 0.65   # tuned".to_string()),
        Just("paths:\n  - src/**".to_string()),
        "#.{0,20}".prop_map(|s| s),
        ".{0,30}".prop_map(|s| s),
    ];
    (prop::collection::vec(line, 0..10), ".{0,60}", any::<bool>()).prop_map(
        |(lines, body, crlf)| {
            let text = format!("---\n{}\n---\n{body}\n", lines.join("\n"));
            if crlf {
                text.replace('\n', "\r\n")
            } else {
                text
            }
        },
    )
}

/// Runs `property` over inputs from `strategy`: one proptest batch, or with
/// `FUZZ_SECONDS=N` batches until N seconds have passed. Failures shrink and report the
/// minimal input as usual.
fn fuzz<S: Strategy>(
    name: &str,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let seconds: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let started = std::time::Instant::now();
    let mut cases = 0u64;
    loop {
        let config = ProptestConfig {
            cases: if seconds > 0 { 2_000 } else { 256 },
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        let mut runner = proptest::test_runner::TestRunner::new(config.clone());
        if let Err(e) = runner.run(&strategy, &property) {
            panic!("{name}: {e}");
        }
        cases += u64::from(config.cases);
        if started.elapsed().as_secs() >= seconds {
            break;
        }
    }
    if seconds > 0 {
        eprintln!(
            "fuzz {name}: {cases} cases in {:.0} s",
            started.elapsed().as_secs_f64()
        );
    }
}

#[test]
fn frontmatter_edits_are_lossless() {
    fuzz(
        "frontmatter",
        (frontmatter(), 0.0f64..1.0),
        |(text, value)| {
            let Ok(mut doc) = Document::parse(text.clone()) else {
                return Ok(());
            };
            let before = doc.text().to_string();
            match doc.set("confidence", &Scalar::Number(value), &["domain"]) {
                Ok(()) => {
                    let map = doc.mapping().expect("an accepted edit always parses");
                    let got = map
                        .get("confidence")
                        .and_then(|v| v.as_f64())
                        .expect("confidence is set");
                    prop_assert!((got - value).abs() < 0.006);
                    // Every line that is not about confidence is untouched.
                    let strip = |t: &str| {
                        t.lines()
                            .filter(|l| !l.starts_with("confidence:"))
                            .map(str::to_string)
                            .collect::<Vec<_>>()
                    };
                    prop_assert_eq!(strip(&before), strip(doc.text()));
                    let original = Document::parse(before).unwrap();
                    prop_assert_eq!(doc.body(), original.body());
                }
                Err(_) => prop_assert_eq!(doc.text(), before.as_str()),
            }
            Ok(())
        },
    );
}

#[test]
fn payloads_and_observations() {
    fuzz(
        "payload bytes",
        prop::collection::vec(any::<u8>(), 0..512),
        |bytes| {
            let _ = Payload::parse(&bytes);
            Ok(())
        },
    );
    fuzz("observations", json(), |v| {
        let payload = Payload::from_value(v);
        let now = Utc.with_ymd_and_hms(2026, 2, 20, 12, 0, 0).unwrap();
        for event in [Event::Post, Event::Failure] {
            if let Some(obs) = observation::from_tool_event(&payload, event, now, Some("p")) {
                prop_assert!(
                    obs.input
                        .command
                        .as_ref()
                        .is_none_or(|c| c.chars().count() <= observation::COMMAND_CHARS)
                );
                prop_assert!(
                    obs.error
                        .as_ref()
                        .is_none_or(|e| e.chars().count() <= observation::ERROR_CHARS)
                );
                prop_assert!(!obs.session_id.contains('/') && !obs.session_id.contains(".."));
            }
        }
        if let Some(obs) = observation::from_prompt(&payload, now, Some("p")) {
            prop_assert!(
                obs.prompt
                    .as_ref()
                    .is_none_or(|p| p.chars().count() <= observation::PROMPT_CHARS)
            );
        }
        Ok(())
    });
}

#[test]
fn transcripts_never_panic() {
    fuzz(
        "transcripts",
        (prop::collection::vec(json(), 0..12), ".{0,80}"),
        |(lines, junk)| {
            let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            text.push_str(&junk);
            let _ = transcript::read(&text, "t", "/t.jsonl", &mut Default::default(), Utc::now());
            Ok(())
        },
    );
}

#[test]
fn redaction() {
    fuzz("redaction idempotent", ".{0,200}", |text: String| {
        let once = redact(&text).into_owned();
        prop_assert_eq!(redact(&once).into_owned(), once);
        Ok(())
    });
    // A value after a name, the name in any script: the shapes the rules read, where a
    // byte index can fall inside a letter (`léarscáileanna: <token>` once panicked).
    fuzz(
        "redaction of named values",
        (
            "[a-zé日üñ_ .-]{0,14}",
            "(: |=| = |:|, | )",
            "[A-Za-z0-9]{12,40}",
            ".{0,16}",
        ),
        |(name, sep, value, tail)| {
            let text = format!("{name}{sep}{value}{tail}");
            let once = redact(&text).into_owned();
            prop_assert_eq!(redact(&once).into_owned(), once);
            Ok(())
        },
    );
    fuzz(
        "redaction in noise",
        ("[a-z ]{0,30}", "[a-z ]{0,30}"),
        |(prefix, suffix)| {
            let text = format!("{prefix} ghp_abcdefghijklmnopqrstuvwxyz0123456789 {suffix}");
            prop_assert!(!redact(&text).contains("ghp_abcdef"));
            Ok(())
        },
    );
}

#[test]
fn operations_that_parse_are_valid() {
    fuzz("operations", (json(), ".{0,40}"), |(v, prose)| {
        let answer = format!("{prose}{v}");
        let (ops, _) = ops::parse(&answer);
        for op in ops {
            prop_assert!(op.validate().is_ok());
        }
        Ok(())
    });
}
