//! Turning chosen memories into the text the agent reads, within the character budgets:
//! one item at most `item` characters, the whole block at most `total`. Every block is
//! headed with our name so the agent and the user can tell it from Claude Code's own memory.

use super::{Item, Start};
use crate::memory::kind::Kind;
use crate::text::one_line;

/// Character budgets.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub total: usize,
    pub item: usize,
}

/// Collects lines until the budget is spent; remembers which items made it.
struct Block {
    text: String,
    budget: Budget,
    ids: Vec<String>,
}

impl Block {
    fn new(header: &str, budget: Budget) -> Self {
        Self {
            text: format!("{header}\n"),
            budget,
            ids: Vec::new(),
        }
    }

    /// Adds a line if it fits; returns whether it did.
    fn line(&mut self, line: &str) -> bool {
        let line = one_line(line, self.budget.item);
        if self.text.chars().count() + line.chars().count() + 1 > self.budget.total {
            return false;
        }
        self.text.push_str(&line);
        self.text.push('\n');
        true
    }

    /// Adds an item's line, its file in parentheses at the end. The text is clipped to
    /// fit the item budget; the file never is (the agent reads it for the evidence).
    fn item(&mut self, line: &str, id: &str) {
        let room = self
            .budget
            .item
            .saturating_sub(id.chars().count() + 3)
            .max(40);
        let full = format!("{} ({id})", one_line(line, room));
        if self.text.chars().count() + full.chars().count() + 1 > self.budget.total {
            return;
        }
        self.text.push_str(&full);
        self.text.push('\n');
        self.ids.push(id.to_string());
    }
}

fn day(unix: i64) -> String {
    chrono::DateTime::from_timestamp(unix, 0)
        .map_or_else(|| "?".to_string(), |t| t.format("%Y-%m-%d").to_string())
}

/// The rendered text and the ids of the items it contains.
pub type Rendered = (String, Vec<String>);

/// How the last session ended (read by `memory::session`).
pub use crate::memory::session::Ending as LastSession;

/// The SessionStart block: each piece of advice as `trigger → action`, then this
/// project's recent episodes and where the last session left off.
pub fn session_start(
    start: &Start,
    project: &str,
    root: &str,
    last: &LastSession,
    budget: Budget,
) -> Rendered {
    let mut b = Block::new(
        &format!("# homunculus: learned memory for {project}"),
        budget,
    );
    b.line(&format!(
        "(Each line ends with its file under {root}/; read it for the evidence.)"
    ));
    if !start.convictions.is_empty() {
        b.line("## Convictions (always apply)");
        for c in &start.convictions {
            b.item(&format!("- {}: {}", c.name, c.action), &c.id);
        }
    }
    if !start.instincts.is_empty() {
        let shown = start.instincts.len();
        let header = if start.eligible_instincts > shown {
            format!(
                "## Instincts ({shown} of {}, most relevant first)",
                start.eligible_instincts
            )
        } else {
            "## Instincts".to_string()
        };
        b.line(&header);
        for i in &start.instincts {
            b.item(&advice(i), &i.id);
        }
    }
    if !start.episodes.is_empty() {
        b.line("## Recent episodes here");
        for e in &start.episodes {
            b.item(&format!("- {}: {}", day(e.date), e.title), &e.id);
        }
    }
    if let Some(s) = &start.last_session {
        b.line("## Last session here");
        let outcome = last
            .outcome
            .as_deref()
            .map_or(String::new(), |o| format!(": {o}"));
        b.item(&format!("- {}: {}{outcome}", day(s.date), s.title), &s.id);
        if let Some(request) = &last.unfinished {
            b.line(&format!(
                "It ended on a failure while working on: {request}"
            ));
        }
        if !last.open_tasks.is_empty() {
            b.line("Left open:");
            for task in last.open_tasks.iter().take(5) {
                b.line(&format!("- [ ] {task}"));
            }
        }
    }
    (b.text, b.ids)
}

/// An instinct as advice: what to do, and when.
fn advice(i: &Item) -> String {
    let trigger = i.trigger.trim_matches('"');
    // Whose words: what the user said weighs differently from what was observed.
    match crate::index::search::provenance_of(i.flags.iter().map(String::as_str)) {
        Some("user") => format!(
            "- {trigger} → {} [{:.2}, the user said so]",
            i.action, i.confidence
        ),
        Some("model") => format!("- {trigger} → {} [{:.2}, observed]", i.action, i.confidence),
        _ => format!("- {trigger} → {} [{:.2}]", i.action, i.confidence),
    }
}

fn describe(item: &Item) -> String {
    match item.kind {
        Kind::Instinct => advice(item),
        Kind::Conviction => format!("- {}: {}", item.name, item.action),
        Kind::Episode if !item.gist.is_empty() => format!(
            "- episode {}: {}: {}",
            day(item.date),
            item.title,
            item.gist
        ),
        kind => format!("- {} {}: {}", kind.name(), day(item.date), item.title),
    }
}

/// A block of items under a header (prompt recall, path triggers, file history).
pub fn items(header: &str, items: &[Item], budget: Budget) -> Rendered {
    let mut b = Block::new(header, budget);
    for item in items {
        b.item(&describe(item), &item.id);
    }
    (b.text, b.ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(n: usize) -> Item {
        Item {
            id: format!("instincts/personal/testing-{n}.md"),
            kind: Kind::Instinct,
            name: format!("testing-{n}"),
            title: String::new(),
            trigger: "when running tests ".repeat(30),
            action: "use nextest".into(),
            domain: "testing".into(),
            project: None,
            confidence: 0.5,
            date: 0,
            globs: vec![],
            flags: vec![],
            command: None,
            why: vec![],
            gist: String::new(),
        }
    }

    #[test]
    fn budgets_hold() {
        let many: Vec<Item> = (0..40).map(item).collect();
        let (text, ids) = items(
            "# header",
            &many,
            Budget {
                total: 2000,
                item: 300,
            },
        );
        assert!(text.chars().count() <= 2000);
        assert!(text.lines().all(|l| l.chars().count() <= 300));
        assert_eq!(ids.len(), text.lines().count() - 1);
        assert!(ids.len() < 40);
    }
}
