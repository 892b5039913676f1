//! The review screen's pages: what each shows, gathered from the memory folder, the
//! index and the logs, rendered by compile-time templates (`templates/ui/`) that escape
//! every memory text. One module per page (the item page lives with the memory page).

mod inbox;
mod memory;
mod overview;
mod sessions;

pub use inbox::{Waiting, inbox, waiting};
pub use memory::{MemoryQuery, item, memory};
pub use overview::overview;
pub use sessions::{injections, sessions};

/// What every page shares: the token its links carry, its title, a message.
pub struct Frame {
    pub token: String,
    pub message: Option<String>,
}

/// One injection, for the tables.
pub struct Sent {
    pub ts: String,
    pub session: String,
    pub event: String,
    pub items: Vec<String>,
    pub chars: usize,
    pub mode: String,
    pub why: String,
}

impl From<crate::log::Injection> for Sent {
    fn from(i: crate::log::Injection) -> Self {
        let why = i
            .why
            .iter()
            .map(|(item, words)| {
                format!(
                    "{}: {}",
                    crate::memory::stem(std::path::Path::new(item)),
                    words.join(", ")
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        Sent {
            ts: i.ts.get(..19).unwrap_or(&i.ts).replace('T', " "),
            session: crate::agent::payload::short_id(&i.session),
            event: i.event,
            items: i.items,
            chars: i.chars,
            mode: i.mode,
            why,
        }
    }
}
