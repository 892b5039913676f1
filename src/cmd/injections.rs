//! `homunculus injections [--session S] [--last N] [--json]`: what reached the model's
//! context, read from `logs/injections.jsonl` (and its rotated `.1`): when, in which
//! session, at which event, which memories, how many characters, and for prompt recall
//! the words of the prompt each memory shared.

use std::fmt::Write;

use anyhow::Result;
use serde_json::json;

use super::{Ctx, print};
use crate::cli::InjectionsArgs;

pub fn run(ctx: &Ctx, args: &InjectionsArgs) -> Result<()> {
    ctx.require_memory()?;
    let entries: Vec<crate::log::Injection> = crate::log::injections(&ctx.paths)
        .into_iter()
        .filter(|e| {
            args.session
                .as_deref()
                .is_none_or(|s| e.session.starts_with(s))
        })
        .collect();
    let skip = entries.len().saturating_sub(args.last as usize);
    let entries = &entries[skip..];
    if args.json {
        return print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({ "injections": entries }))?
        ));
    }
    let mut out = String::new();
    match (&args.session, entries.is_empty()) {
        (Some(s), true) => {
            let _ = writeln!(out, "Nothing has been injected in a session starting {s}.");
        }
        (None, true) => out.push_str("Nothing has been injected yet.\n"),
        _ => {}
    }
    for e in entries {
        let session = crate::agent::payload::short_id(&e.session);
        let mode = if e.mode.is_empty() { "live" } else { &e.mode };
        let _ = writeln!(
            out,
            "{} {session} {} ({mode}, {} chars)",
            e.ts, e.event, e.chars
        );
        for id in &e.items {
            let why = e
                .why
                .get(id)
                .map(|words| format!("  [{}]", words.join(", ")))
                .unwrap_or_default();
            let _ = writeln!(out, "    {id}{why}");
        }
    }
    print(&out)
}
