//! Used or not: every item a hook sends is counted and watched for in the rest of the
//! session; a later tool call that acts on it (reads its file, runs the command it
//! advises, touches a file it names or covers) counts it used, once per session.

use super::HookCtx;
use crate::capture::usage::{self, Event, Injected, Touch, Watch};
use crate::capture::{hook_state, project};
use crate::recall::Item;

/// How many watched items a session keeps (the oldest go first).
const MAX_WATCHED: usize = 200;

/// How an item reached the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// In the session-start listing.
    Listed,
    /// Chosen for a prompt or after an edit.
    Recalled,
    /// Because the file it covers is being touched.
    ForPath,
}

impl HookCtx {
    /// Counts the items of `items` that were sent (their ids in `ids`) and watches the
    /// session for their use.
    pub fn watch_use(&self, items: &[&Item], ids: &[String], sent: Sent) {
        let sent_items: Vec<&Item> = items
            .iter()
            .copied()
            .filter(|i| ids.contains(&i.id))
            .collect();
        if sent_items.is_empty() {
            return;
        }
        let watches: Vec<Watch> = sent_items
            .iter()
            .map(|i| Watch {
                id: i.id.clone(),
                cues: usage::cues(&Injected {
                    id: &i.id,
                    action: &i.action,
                    globs: &i.globs,
                    by_path: sent == Sent::ForPath,
                }),
            })
            .collect();
        let event = match sent {
            Sent::Listed => Event::Listed,
            Sent::Recalled | Sent::ForPath => Event::Injected,
        };
        let sent_ids: Vec<String> = watches.iter().map(|w| w.id.clone()).collect();
        let blind: Vec<String> = watches
            .iter()
            .filter(|w| !usage::observable(&w.cues))
            .map(|w| w.id.clone())
            .collect();
        if let Err(e) = usage::record(&self.paths, event, &sent_ids, &blind) {
            self.log(&format!("usage: {e}"));
        }
        let watched = hook_state::update(&self.paths, &self.sid, |m| {
            for w in watches {
                if !m.watching.iter().any(|x| x.id == w.id) {
                    m.watching.push(w);
                }
            }
            let over = m.watching.len().saturating_sub(MAX_WATCHED);
            m.watching.drain(..over);
        });
        if let Err(e) = watched {
            self.log(&format!("usage: {e}"));
        }
    }

    /// Counts the watched items this tool call acted on.
    pub fn notice_use(&self) {
        let memo = hook_state::read(&self.paths, &self.sid);
        if memo.watching.is_empty() {
            return;
        }
        let file = self.payload.file_path();
        let relative = file.and_then(|f| self.project.as_ref().map(|p| project::relative_to(p, f)));
        let touch = Touch {
            file,
            relative: relative.as_deref(),
            command: self.payload.tool_input.command.as_deref(),
        };
        // Look before locking: most tool calls use nothing.
        if usage::take_used(&mut memo.watching.clone(), &touch).is_empty() {
            return;
        }
        let used = hook_state::update(&self.paths, &self.sid, |m| {
            usage::take_used(&mut m.watching, &touch)
        });
        match used {
            Ok(ids) => {
                if let Err(e) = usage::record(&self.paths, Event::Used, &ids, &[]) {
                    self.log(&format!("usage: {e}"));
                }
            }
            Err(e) => self.log(&format!("usage: {e}")),
        }
    }
}
