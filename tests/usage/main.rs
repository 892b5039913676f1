//! Used or not, judged: 70 tool calls after an injected piece of advice, each labelled by
//! a reviewer who did not write the detector (`tests/data/usage/cases.toml`: real
//! actions from the recall memory, the call the agent made, and whether that call acted
//! on the advice). Prints the detector's precision and recall and every disagreement;
//! fails when either drops below what it reached when the set was written.

use std::path::PathBuf;

use homunculus::hooks::detect::{self as usage, Injected, Touch};
use homunculus::memory::memo::Watch;
use serde::Deserialize;

#[derive(Deserialize)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    item: String,
    action: String,
    /// The item's `paths` globs: where the advice applies, which the detector does not
    /// take as a sign of use (kept in the corpus for the reviewer's context).
    #[serde(default)]
    #[allow(dead_code)]
    globs: Vec<String>,
    tool: String,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    relative: Option<String>,
    used: bool,
    #[serde(default)]
    note: String,
    /// The reviewer found this one hard to judge.
    #[serde(default)]
    hard: bool,
}

/// Whether the detector, watching `case.item` as the hook does after a prompt
/// injection, takes this tool call as a use.
fn detected(case: &Case) -> bool {
    let injected = Injected {
        id: &case.item,
        action: &case.action,
    };
    let mut watching = vec![Watch {
        id: case.item.clone(),
        cues: usage::cues(&injected),
    }];
    let shell = case.tool == "Bash";
    let touch = Touch {
        file: if shell { None } else { case.file.as_deref() },
        relative: if shell {
            None
        } else {
            case.relative.as_deref()
        },
        command: if shell { case.command.as_deref() } else { None },
    };
    !usage::take_used(&mut watching, &touch).is_empty()
}

#[test]
fn the_use_detector_agrees_with_the_judged_cases() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/usage/cases.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let cases: Cases = toml::from_str(&text).unwrap();
    let (mut tp, mut fp, mut fn_, mut tn) = (0, 0, 0, 0);
    for case in &cases.case {
        let got = detected(case);
        match (got, case.used) {
            (true, true) => tp += 1,
            (true, false) => fp += 1,
            (false, true) => fn_ += 1,
            (false, false) => tn += 1,
        }
        if got != case.used {
            let call = case
                .command
                .as_deref()
                .or(case.file.as_deref())
                .unwrap_or("");
            println!(
                "  {}{} {} said {got}, judged {}: {:?} | {} {call} ({})",
                if got { "false use" } else { "missed use" },
                if case.hard { " (hard)" } else { "" },
                case.id,
                case.used,
                case.action,
                case.tool,
                case.note
            );
        }
    }
    let precision = f64::from(tp) / f64::from((tp + fp).max(1));
    let recall = f64::from(tp) / f64::from((tp + fn_).max(1));
    println!(
        "used or not: precision {:.0}% ({tp}/{}), recall {:.0}% ({tp}/{}), {tn} rightly not used, over {} judged calls",
        precision * 100.0,
        tp + fp,
        recall * 100.0,
        tp + fn_,
        cases.case.len()
    );
    assert!(cases.case.len() >= 60);
    assert!(precision >= MIN_PRECISION, "precision {precision:.2}");
    assert!(recall >= MIN_RECALL, "recall {recall:.2}");
}

const MIN_PRECISION: f64 = 0.85;
const MIN_RECALL: f64 = 0.78;
