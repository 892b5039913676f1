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

    fn item(&mut self, line: &str, id: &str) {
        if self.line(line) {
            self.ids.push(id.to_string());
        }
    }
}

fn day(unix: i64) -> String {
    chrono::DateTime::from_timestamp(unix, 0)
        .map_or_else(|| "?".to_string(), |t| t.format("%Y-%m-%d").to_string())
}

/// The rendered text and the ids of the items it contains.
pub type Rendered = (String, Vec<String>);

/// The SessionStart block.
pub fn session_start(
    start: &Start,
    project: &str,
    root: &str,
    pending: usize,
    budget: Budget,
) -> Rendered {
    let mut b = Block::new(
        &format!("# homunculus: learned memory for {project}"),
        budget,
    );
    b.line(&format!(
        "(Files under {root}/; read one for its evidence.)"
    ));
    if !start.convictions.is_empty() {
        b.line("## Convictions (always apply)");
        for c in &start.convictions {
            b.item(&format!("- **{}**: {}", c.name, c.action), &c.id);
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
            let trigger = i.trigger.trim_matches('"');
            b.item(
                &format!("- {}: {trigger} ({:.2}) → {}", i.domain, i.confidence, i.id),
                &i.id,
            );
        }
    }
    if let Some(s) = &start.last_session {
        b.line("## Last session here");
        b.item(&format!("- {}: {} → {}", day(s.date), s.title, s.id), &s.id);
    }
    if pending > 0 {
        b.line(&format!(
            "{pending} observations are waiting to be learned from."
        ));
    }
    (b.text, b.ids)
}

fn describe(item: &Item) -> String {
    match item.kind {
        Kind::Instinct => format!(
            "- [instinct {:.2}] {} → {} ({})",
            item.confidence,
            item.trigger.trim_matches('"'),
            item.action,
            item.id
        ),
        Kind::Conviction => format!(
            "- [conviction] {}: {} ({})",
            item.name, item.action, item.id
        ),
        kind => format!(
            "- [{} {}] {} ({})",
            kind.name(),
            day(item.date),
            item.title,
            item.id
        ),
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
