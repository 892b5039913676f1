//! Used or not: every item a hook sends is counted and watched for in the rest of the
//! session; a later tool call that acts on it (reads its file, runs the command it
//! advises, touches a file it names or covers) counts it used, once per session.

use super::HookCtx;
use super::detect::{self, Injected, Touch};
use crate::agent::project;
use crate::memory::memo;
use crate::memory::memo::Watch;
use crate::memory::usage::{self, Event};
use crate::recall::Item;
use crate::recall::render::{self, Budget};

/// How many watched items a session keeps (the oldest go first).
const MAX_WATCHED: usize = 200;

/// How an item reached the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// In the session-start listing.
    Listed,
    /// Chosen for a prompt.
    Prompted,
    /// Recalled after an edit of a file it touched (once per file, not per item).
    AfterEdit,
    /// Because the file it covers is being touched.
    ForPath,
}

impl HookCtx {
    /// Notes in one memo update that the items of `items` with ids in `ids` were sent:
    /// which of them are new to this session for `how` (never injected, or for a path
    /// trigger never fired), marks those, and watches them for use; then counts them.
    /// Returns the new ids.
    pub fn note_sent(&self, items: &[&Item], ids: &[String], how: Sent) -> Vec<String> {
        let watches: Vec<Watch> = items
            .iter()
            .filter(|i| ids.contains(&i.id))
            .map(|i| Watch {
                id: i.id.clone(),
                cues: detect::cues(&Injected {
                    id: &i.id,
                    action: &i.action,
                }),
            })
            .collect();
        let noted = memo::update(&self.paths, &self.sid, |m| {
            let mut fresh = Vec::new();
            for w in watches {
                let new = match how {
                    Sent::Listed | Sent::Prompted => !m.injected.contains(&w.id),
                    Sent::ForPath => !m.path_fired.contains(&w.id),
                    Sent::AfterEdit => true,
                };
                if !new {
                    continue;
                }
                match how {
                    Sent::Listed | Sent::Prompted => m.injected.push(w.id.clone()),
                    Sent::ForPath => {
                        m.path_fired.push(w.id.clone());
                        if !m.injected.contains(&w.id) {
                            m.injected.push(w.id.clone());
                        }
                    }
                    Sent::AfterEdit => {}
                }
                if !m.watching.iter().any(|x| x.id == w.id) {
                    m.watching.push(w.clone());
                }
                fresh.push(w);
            }
            let over = m.watching.len().saturating_sub(MAX_WATCHED);
            m.watching.drain(..over);
            fresh
        });
        let fresh = match noted {
            Ok(fresh) => fresh,
            Err(e) => {
                self.log(&format!("usage: {e}"));
                return Vec::new();
            }
        };
        let event = match how {
            Sent::Listed => Event::Listed,
            Sent::Prompted | Sent::AfterEdit | Sent::ForPath => Event::Injected,
        };
        let fresh_ids: Vec<String> = fresh.iter().map(|w| w.id.clone()).collect();
        let blind: Vec<String> = fresh
            .iter()
            .filter(|w| !detect::observable(&w.cues))
            .map(|w| w.id.clone())
            .collect();
        if let Err(e) = usage::record(&self.paths, event, &fresh_ids, &blind) {
            self.log(&format!("usage: {e}"));
        }
        fresh_ids
    }

    /// Renders `items` under `header` within `budget`, notes what fitted as sent (one
    /// memo update, so parallel hooks of a session send each item once) and renders
    /// again without any a parallel hook sent first. `None` when nothing is left.
    pub fn render_unsent(
        &self,
        header: &str,
        items: Vec<Item>,
        budget: Budget,
        how: Sent,
    ) -> Option<(String, Vec<String>)> {
        let (text, ids) = render::items(header, &items, budget);
        let sent: Vec<&Item> = items.iter().collect();
        let fresh = self.note_sent(&sent, &ids, how);
        if fresh.is_empty() {
            return None;
        }
        if fresh.len() == ids.len() {
            return Some((text, ids));
        }
        let kept: Vec<Item> = items
            .into_iter()
            .filter(|i| fresh.contains(&i.id))
            .collect();
        Some(render::items(header, &kept, budget))
    }

    /// Counts the watched items this tool call acted on.
    pub fn notice_use(&self) {
        let memo = memo::read(&self.paths, &self.sid);
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
        if detect::take_used(&mut memo.watching.clone(), &touch).is_empty() {
            return;
        }
        let used = memo::update(&self.paths, &self.sid, |m| {
            detect::take_used(&mut m.watching, &touch)
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
