use super::*;
use crate::capture::observation::{Input, Outcome};

fn bash(session: &str, event: Event, command: &str, error: Option<&str>) -> Observation {
    Observation {
        ts: "2026-02-20T12:00:00.000Z".into(),
        event,
        session_id: session.into(),
        cwd: "/src/ledger".into(),
        project: "ledger".into(),
        tool: Some("Bash".into()),
        input: Input {
            command: Some(command.into()),
            ..Input::default()
        },
        outcome: Some(if event == Event::Failure {
            Outcome::Error
        } else {
            Outcome::Success
        }),
        error: error.map(str::to_string),
        prompt: None,
    }
}

fn edit(session: &str, file: &str) -> Observation {
    Observation {
        tool: Some("Edit".into()),
        input: Input {
            file_path: Some(format!("/src/ledger/{file}")),
            ..Input::default()
        },
        ..bash(session, Event::Post, "", None)
    }
}

fn prompt(text: &str) -> Observation {
    Observation {
        tool: None,
        event: Event::Prompt,
        input: Input::default(),
        outcome: None,
        prompt: Some(text.into()),
        ..bash("s1", Event::Prompt, "", None)
    }
}

#[test]
fn shapes() {
    let table = [
        ("cargo test -p ledger-core parse", "cargo test"),
        ("cargo nextest run -p x", "cargo nextest run"),
        ("RUST_LOG=debug cargo run --release", "cargo run"),
        ("npm install --save-dev jest", "npm install"),
        ("./scripts/deploy.sh staging", ""),
        ("python -m pytest tests/", "python"),
    ];
    for (cmd, want) in table {
        assert_eq!(command_shape(cmd), want, "{cmd}");
    }
}

#[test]
fn recovery_needs_a_different_command_of_the_same_program() {
    let found = recoveries(&[
        bash(
            "s1",
            Event::Failure,
            "cargo test -p ledger-core",
            Some("Exit code 101 | harness missing"),
        ),
        edit("s1", "src/lib.rs"),
        bash("s1", Event::Post, "cargo nextest run -p ledger-core", None),
    ]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].key, "recover:ledger:cargo test=>cargo nextest run");
    assert_eq!(found[0].domain, "testing");
    // Must not: the same command passing after an edit is an ordinary fix cycle.
    assert!(
        recoveries(&[
            bash("s1", Event::Failure, "cargo test", Some("Exit code 101")),
            edit("s1", "src/lib.rs"),
            bash("s1", Event::Post, "cargo test", None),
        ])
        .is_empty()
    );
    // Must not: an unrelated program succeeding later.
    assert!(
        recoveries(&[
            bash("s1", Event::Failure, "cargo build", Some("error[E0425]")),
            bash("s1", Event::Post, "git commit -m wip", None),
        ])
        .is_empty()
    );
    // Must not: noisy commands.
    assert!(
        recoveries(&[
            bash(
                "s1",
                Event::Failure,
                "cat missing.txt",
                Some("No such file")
            ),
            bash("s1", Event::Post, "cat other.txt", None),
        ])
        .is_empty()
    );
}

#[test]
fn corrections_become_rules() {
    let found = corrections(&[
        prompt("no, use pnpm here"),
        prompt("please don't commit the generated files"),
        prompt("always run clippy with -D warnings before you finish."),
        prompt("prefer rg over grep for searching"),
    ]);
    let rules: Vec<&str> = found.iter().map(|f| f.action.as_str()).collect();
    assert_eq!(
        rules,
        [
            "Use pnpm here (the user's rule)",
            "Never commit the generated files (the user's rule)",
            "Always run clippy with -D warnings before you finish (the user's rule)",
            "Use rg instead of grep for searching (the user's rule)",
        ]
    );
    // Must not: ordinary requests and questions.
    assert!(
        corrections(&[
            prompt("add a retry to the upload client"),
            prompt("why is the build slow?")
        ])
        .is_empty()
    );
}

#[test]
fn coedits_need_three_sessions() {
    let root = |_: &Observation| Some("/src/ledger".to_string());
    let mut ledger = Ledger::default();
    let session = |s: &str| {
        vec![
            edit(s, "src/schema.rs"),
            edit(s, "migrations/001.sql"),
            edit(s, "Cargo.lock"),
        ]
    };
    assert!(coedits(&[session("s1"), session("s2")], &root, &mut ledger).is_empty());
    let found = coedits(&[session("s3")], &root, &mut ledger);
    assert_eq!(
        found.len(),
        2,
        "one per direction; Cargo.lock is incidental"
    );
    assert_eq!(found[0].paths, ["migrations/001.sql"]);
    // The same session again does not count twice.
    assert!(coedits(&[session("s3")], &root, &mut ledger).is_empty());
}

#[test]
fn consistent_non_default_choice() {
    let mut ledger = Ledger::default();
    let uses = |cmd: &str, n: usize| {
        (0..n)
            .map(|_| bash("s1", Event::Post, cmd, None))
            .collect::<Vec<_>>()
    };
    assert!(choices(&uses("pnpm install", 2), &mut ledger).is_empty());
    let found = choices(&uses("pnpm run build", 1), &mut ledger);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].key, "choice:ledger:pnpm");
    assert!(!found[0].opposite);
    let against = choices(&uses("npm install", 3), &mut ledger);
    assert_eq!(against.len(), 1);
    assert!(against[0].opposite);
    // Must not: the default itself is never an instinct.
    let mut fresh = Ledger::default();
    assert!(choices(&uses("npm install", 5), &mut fresh).is_empty());
}
