//! A session's running tally for its summary: tools by use, files edited, failures, the
//! first request, and how far the observation log has been read. Kept in the session's
//! memo, so a Stop reads only the observations added since the last one instead of the
//! whole log at every turn.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::agent::observation::{Event, Observation, Since};
use crate::agent::project::{self, Project};
use crate::memory::session::{Facts, MAX_FILES};

/// Distinct edited files remembered; a summary lists at most `MAX_FILES` of them.
const MAX_EDITED: usize = 1_000;

/// What a session did so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// The pending log's length read so far and a hash of its first line.
    pub read_to: u64,
    pub head: u64,
    /// Tool calls by tool.
    pub tools: BTreeMap<String, usize>,
    /// Files edited, as the tools named them.
    pub edited: Vec<String>,
    pub errors: usize,
    /// The first line of the session's first request.
    pub first_request: Option<String>,
}

impl Tally {
    /// The tally of `observations` from nothing.
    pub fn of(observations: &[Observation]) -> Self {
        let mut tally = Tally::default();
        observations.iter().for_each(|o| tally.add(o));
        tally
    }

    /// Adds what a read of the log found; a read of the whole log replaces the rest.
    pub fn extend(&mut self, read: Since) {
        if read.whole {
            *self = Tally::of(&read.observations);
        } else {
            read.observations.iter().for_each(|o| self.add(o));
        }
        self.read_to = read.read_to;
        self.head = read.head;
    }

    pub fn add(&mut self, obs: &Observation) {
        let Some(tool) = &obs.tool else {
            if self.first_request.is_none() {
                self.first_request = obs
                    .request_line()
                    .map(|l| crate::text::one_line_words(&l, 80));
            }
            return;
        };
        *self.tools.entry(tool.name().to_string()).or_default() += 1;
        if obs.event == Event::Failure {
            self.errors += 1;
        }
        if tool.edits_files()
            && obs.event == Event::Post
            && let Some(path) = &obs.input.file_path
            && !self.edited.contains(path)
            && self.edited.len() < MAX_EDITED
        {
            self.edited.push(path.clone());
        }
    }

    /// Tools most frequent first (ties by name), edited files relative to the project
    /// (those outside it apart), and the number of failures.
    pub fn facts(&self, project: Option<&Project>) -> Facts {
        let mut tools: Vec<(&String, &usize)> = self.tools.iter().collect();
        tools.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut files: Vec<String> = Vec::new();
        let mut outside: Vec<String> = Vec::new();
        for path in &self.edited {
            let shown = project.map_or_else(|| path.clone(), |p| project::relative_to(p, path));
            let list = if shown.starts_with('/') && project.is_some() {
                &mut outside
            } else {
                &mut files
            };
            if !list.contains(&shown) {
                list.push(shown);
            }
        }
        for list in [&mut files, &mut outside] {
            list.sort();
            list.truncate(MAX_FILES);
        }
        Facts {
            tools: tools.into_iter().map(|(t, _)| t.clone()).collect(),
            files,
            outside,
            errors: self.errors,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::observation::Input;

    fn obs(
        event: Event,
        tool: Option<&str>,
        file: Option<&str>,
        prompt: Option<&str>,
    ) -> Observation {
        Observation {
            tool: tool.map(Into::into),
            input: Input {
                file_path: file.map(Into::into),
                ..Input::default()
            },
            prompt: prompt.map(Into::into),
            ..crate::testutil::observation(event)
        }
    }

    #[test]
    fn counts_in_parts_as_it_would_at_once() {
        let all = vec![
            obs(
                Event::Prompt,
                None,
                None,
                Some("\n  fix the parser\nplease"),
            ),
            obs(Event::Post, Some("Edit"), Some("/p/src/a.rs"), None),
            obs(Event::Failure, Some("Bash"), None, None),
            obs(Event::Post, Some("Edit"), Some("/p/src/a.rs"), None),
            obs(Event::Prompt, None, None, Some("and the lexer")),
            obs(Event::Post, Some("Write"), Some("/elsewhere/b.rs"), None),
        ];
        let mut parts = Tally::of(&all[..2]);
        all[2..].iter().for_each(|o| parts.add(o));
        assert_eq!(parts, Tally::of(&all));
        assert_eq!(parts.first_request.as_deref(), Some("fix the parser"));
        let project = Project {
            name: "p".into(),
            root: "/p".into(),
        };
        let facts = parts.facts(Some(&project));
        assert_eq!(facts.tools, ["Edit", "Bash", "Write"]);
        assert_eq!(facts.files, ["src/a.rs"]);
        assert_eq!(facts.outside, ["/elsewhere/b.rs"]);
        assert_eq!(facts.errors, 1);
    }

    #[test]
    fn facts_rank_tools_and_relativise_files() {
        let project = Project {
            name: "p".into(),
            root: "/p".into(),
        };
        let edit = |tool, file| obs(Event::Post, Some(tool), Some(file), None);
        let list = [
            edit("Read", "/p/src/a.rs"),
            edit("Edit", "/p/src/b.rs"),
            edit("Edit", "/p/src/b.rs"),
            obs(Event::Failure, Some("Bash"), None, None),
            obs(Event::Post, Some("Bash"), None, None),
            edit("Write", "/elsewhere/c.md"),
        ];
        let f = Tally::of(&list).facts(Some(&project));
        assert_eq!(f.tools, ["Bash", "Edit", "Read", "Write"]);
        assert_eq!(f.files, ["src/b.rs"]);
        assert_eq!(f.outside, ["/elsewhere/c.md"]);
        assert_eq!(f.errors, 1);
    }
}
