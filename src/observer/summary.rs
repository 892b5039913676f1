//! The `## Summary` of each session a batch touched: what was asked, what failed and
//! whether it was fixed, and what the session touched.

use crate::capture::hook_state;
use crate::capture::observation::{Event, Observation};
use crate::capture::project;
use crate::memory::stem;
use crate::observer::miners;
use crate::observer::ops::Op;
use crate::paths::Paths;

/// A factual `## Summary` for every session of the batch whose summary file exists.
pub fn ops(paths: &Paths, sessions: &[Vec<Observation>]) -> Vec<Op> {
    let mut ops = Vec::new();
    for session in sessions {
        let Some(first) = session.first() else {
            continue;
        };
        let Some(file) = hook_state::read(paths, &first.session_id).session_file else {
            continue;
        };
        let name = stem(std::path::Path::new(&file));
        let all = crate::capture::observation::of_session(paths, &first.session_id);
        let tools = all.iter().filter(|o| o.tool.is_some()).count();
        let failures: Vec<&Observation> =
            all.iter().filter(|o| o.event == Event::Failure).collect();
        let prompts = all.iter().filter(|o| o.event == Event::Prompt).count();
        let facts = crate::memory::session::facts(&all, project::of(&first.cwd).as_ref());
        let mut text = format!(
            "{tools} tool calls ({}), {} failed, over {prompts} prompts.",
            facts
                .tools
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            failures.len()
        );
        if !facts.files.is_empty() {
            text.push_str(&format!(
                " Edited {} file(s), among them {}.",
                facts.files.len(),
                facts
                    .files
                    .iter()
                    .take(3)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let recoveries = miners::recoveries(&all);
        if let Some(r) = recoveries.first() {
            text.push_str(&format!(" Recovered from a failure: {}.", r.title));
        }
        ops.push(Op::SummarizeSession {
            session: name,
            summary: text,
        });
    }
    ops
}
