//! Tests of the miners. Each case names where it comes from: a line of
//! `../shared/transcripts-real/` (file:line), or a variation written for it.

mod ledgers;
mod recoveries;
mod rules;
mod stories;

use super::*;
use crate::agent::observation::{Event, Input, Observation, Outcome};

fn obs(session: &str, event: Event, outcome: Option<Outcome>) -> Observation {
    Observation {
        session_id: session.into(),
        cwd: "/src/ledger".into(),
        project: "ledger".into(),
        outcome,
        ..crate::testutil::observation(event)
    }
}

fn ok(session: &str, command: &str) -> Observation {
    Observation {
        tool: Some("Bash".into()),
        input: Input {
            command: Some(command.into()),
            ..Input::default()
        },
        ..obs(session, Event::Post, Some(Outcome::Success))
    }
}

fn failed(session: &str, command: &str, error: &str) -> Observation {
    Observation {
        error: Some(error.into()),
        ..Observation {
            event: Event::Failure,
            outcome: Some(Outcome::Error),
            ..ok(session, command)
        }
    }
}

fn edit(session: &str, file: &str) -> Observation {
    Observation {
        tool: Some("Edit".into()),
        input: Input {
            file_path: Some(format!("/src/ledger/{file}")),
            ..Input::default()
        },
        ..obs(session, Event::Post, Some(Outcome::Success))
    }
}

fn prompt(session: &str, text: &str) -> Observation {
    Observation {
        prompt: Some(text.into()),
        ..obs(session, Event::Prompt, None)
    }
}

fn rejected(session: &str, command: &str, feedback: Option<&str>) -> Observation {
    Observation {
        prompt: feedback.map(str::to_string),
        ..Observation {
            event: Event::Failure,
            outcome: Some(Outcome::Rejected),
            ..ok(session, command)
        }
    }
}

fn fixes(session: &[Observation]) -> Vec<(String, String)> {
    recoveries(session)
        .into_iter()
        .map(|f| (f.key, f.action))
        .collect()
}

/// The same observation a number of minutes later.
fn at_minute(mut o: Observation, minute: u32) -> Observation {
    o.ts = format!("2026-02-20T12:{minute:02}:00.000Z");
    o
}
