//! The `## Summary` of each session a batch touched, for a person to read: what was
//! asked (the first line of each request), what failed and whether it was fixed, and
//! how the session ended (the first sentence of the last answer).

use crate::agent::observation::{Observation, Outcome};
use crate::agent::tool::Tool;
use crate::memory::stem;
use crate::memory::{memo, session};
use crate::observer::miners;
use crate::observer::ops::Op;
use crate::paths::Paths;
use crate::shell;
use crate::text::{one_line, one_line_words};

/// The most requests and failures a summary lists.
const MAX_LINES: usize = 6;

/// A `## Summary` for every session of the batch whose summary file exists.
pub fn ops(paths: &Paths, sessions: &[Vec<Observation>]) -> Vec<Op> {
    let mut ops = Vec::new();
    for session in sessions {
        let Some(first) = session.first() else {
            continue;
        };
        let memo = memo::read(paths, &first.session_id);
        let Some(file) = memo.session_file else {
            continue;
        };
        let all = crate::agent::observation::of_session(paths, &first.session_id);
        let summary = summarize(&all, memo.last_answer.as_deref());
        if summary.is_empty() {
            continue;
        }
        ops.push(Op::SummarizeSession {
            session: stem(std::path::Path::new(&file)),
            summary,
        });
    }
    ops
}

/// The summary text of one session's observations.
pub fn summarize(all: &[Observation], last_answer: Option<&str>) -> String {
    let mut out = String::new();
    let requests: Vec<String> = all
        .iter()
        .filter(|o| o.tool.is_none())
        .filter_map(Observation::request_line)
        .map(|l| one_line_words(&l, 100))
        .collect();
    if !requests.is_empty() {
        out.push_str("Asked:\n");
        for r in requests.iter().take(MAX_LINES) {
            out.push_str(&format!("- {r}\n"));
        }
        if requests.len() > MAX_LINES {
            out.push_str(&format!("- … and {} more\n", requests.len() - MAX_LINES));
        }
    }
    let fixed = miners::recoveries(all);
    let failed: Vec<&Observation> = all
        .iter()
        .filter(|o| o.outcome == Some(Outcome::Error) && o.tool == Some(Tool::Bash))
        .filter(|o| !shell::line_is_diagnostic(o.input.command.as_deref().unwrap_or("")))
        .collect();
    if !failed.is_empty() {
        out.push_str("Failed:\n");
        let mut shown = Vec::new();
        for obs in &failed {
            let line = obs.input.command.as_deref().unwrap_or("");
            let shape = shell::primary(&shell::parse(line)).map_or_else(String::new, |c| c.shape());
            if shape.is_empty() || shown.contains(&shape) {
                continue;
            }
            let why = obs
                .error
                .as_deref()
                .map(crate::agent::signature::telling_line)
                .unwrap_or("");
            // Fixed: a recovery names the fix; or the same command worked later.
            let worked_later = all.iter().any(|o| {
                o.ts > obs.ts
                    && o.outcome == Some(Outcome::Success)
                    && o.input
                        .command
                        .as_deref()
                        .and_then(|c| shell::primary(&shell::parse(c)).map(|p| p.shape()))
                        .as_ref()
                        == Some(&shape)
            });
            let fix = match fixed.iter().find(|f| f.at == obs.ts) {
                Some(f) => format!("fixed: {}", f.action),
                None if worked_later => "worked later".to_string(),
                None => "not fixed".to_string(),
            };
            // A command that failed without a word (status 1, nothing printed) is
            // listed by its status alone, not with an empty quotation.
            let why = crate::agent::signature::quotable(why, 80);
            let why = if why.trim().is_empty() {
                "failed, printing nothing".to_string()
            } else {
                why
            };
            out.push_str(&format!("- `{shape}`: {why} ({})\n", one_line(&fix, 120)));
            shown.push(shape);
            if shown.len() >= MAX_LINES {
                break;
            }
        }
    }
    if let (Some(last), true) = (requests.last(), ended_on_a_failure(all)) {
        out.push_str(&format!("{}{last}\n", session::UNFINISHED));
    }
    if let Some(answer) = last_answer.filter(|a| !a.is_empty()) {
        out.push_str(&format!(
            "{}{}\n",
            session::OUTCOME,
            one_line_words(answer, 200)
        ));
    }
    out
}

/// Whether the session's last tool call that did something failed (a look around such
/// as `ls` or `which` does not count either way): the request it worked on is where the
/// next session picks up.
fn ended_on_a_failure(all: &[Observation]) -> bool {
    all.iter()
        .rev()
        .filter(|o| o.tool.is_some() && o.outcome.is_some())
        .find(|o| {
            o.tool != Some(Tool::Bash)
                || !shell::line_is_diagnostic(o.input.command.as_deref().unwrap_or(""))
        })
        .is_some_and(|o| o.outcome == Some(Outcome::Error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::observation::{Event, Input};

    fn obs(
        event: Event,
        tool: Option<&str>,
        command: Option<&str>,
        outcome: Option<Outcome>,
    ) -> Observation {
        Observation {
            tool: tool.map(Tool::of),
            input: Input {
                command: command.map(str::to_string),
                ..Input::default()
            },
            outcome,
            ..crate::testutil::observation(event)
        }
    }

    #[test]
    fn requests_failures_and_the_outcome() {
        let mut ask = obs(Event::Prompt, None, None, None);
        ask.prompt = Some("add a CSV export\nwith these columns: a, b".into());
        let mut fail = obs(
            Event::Failure,
            Some("Bash"),
            Some("npm install"),
            Some(Outcome::Error),
        );
        fail.error =
            Some("Exit code 1\nUse \"pnpm install\" for installation in this project.".into());
        fail.ts = "2026-02-20T12:00:01.000Z".into();
        let fix = obs(
            Event::Post,
            Some("Bash"),
            Some("pnpm install"),
            Some(Outcome::Success),
        );
        let mut broken = obs(
            Event::Failure,
            Some("Bash"),
            Some("cargo test"),
            Some(Outcome::Error),
        );
        broken.error = Some("test x ... FAILED".into());
        let text = summarize(
            &[ask, fail, fix, broken],
            Some("The export command is in src/export.rs."),
        );
        assert_eq!(
            text,
            "Asked:\n- add a CSV export\nFailed:\n- `npm install`: Use \"pnpm install\" for installation in this project. (fixed: use pnpm instead of npm: `pnpm install`)\n- `cargo test`: test x ... FAILED (not fixed)\nUnfinished: add a CSV export\nOutcome: The export command is in src/export.rs.\n"
        );
    }

    #[test]
    fn a_session_that_ends_well_leaves_nothing_unfinished() {
        let mut ask = obs(Event::Prompt, None, None, None);
        ask.prompt = Some("fix the flaky test".into());
        let broken = obs(
            Event::Failure,
            Some("Bash"),
            Some("cargo test"),
            Some(Outcome::Error),
        );
        let mut fixed = obs(
            Event::Post,
            Some("Bash"),
            Some("cargo test"),
            Some(Outcome::Success),
        );
        fixed.ts = "2026-02-20T12:00:05.000Z".into();
        let mut look = obs(
            Event::Failure,
            Some("Bash"),
            Some("which foo"),
            Some(Outcome::Error),
        );
        look.ts = "2026-02-20T12:00:06.000Z".into();
        let text = summarize(&[ask.clone(), broken.clone(), fixed, look], None);
        assert!(!text.contains("Unfinished"), "{text}");
        let text = summarize(&[ask, broken], None);
        assert!(text.contains("Unfinished: fix the flaky test\n"), "{text}");
    }

    #[test]
    fn a_silent_failure_and_a_long_request_read_whole() {
        let mut ask = obs(Event::Prompt, None, None, None);
        ask.prompt = Some(
            "please rework the monthly report so that every posting is converted to euros with the rate of its own posting date".into(),
        );
        let mut silent = obs(
            Event::Failure,
            Some("Bash"),
            Some("make deploy"),
            Some(Outcome::Error),
        );
        silent.error = Some("Exit code 2".into());
        let text = summarize(&[ask, silent], None);
        assert!(
            text.contains("- please rework the monthly report so that every posting is converted to euros with the rate of its…\n"),
            "{text}"
        );
        assert!(!text.contains(": ("), "{text}");
    }
}
