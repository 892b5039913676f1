//! `homunculus injections [--session S] [--last N] [--json]`: what reached the model's
//! context, read from `logs/injections.jsonl` (and its rotated `.1`): when, in which
//! session, at which event, which memories, how many characters, and for prompt recall
//! the words of the prompt each memory shared.

use std::fmt::Write;

use anyhow::Result;
use serde_json::{Value, json};

use super::{Ctx, print};
use crate::cli::InjectionsArgs;

pub fn run(ctx: &Ctx, args: &InjectionsArgs) -> Result<()> {
    ctx.require_memory()?;
    let logs = ctx.paths.logs();
    let mut entries: Vec<Value> = Vec::new();
    for name in ["injections.jsonl.1", "injections.jsonl"] {
        let text = std::fs::read_to_string(logs.join(name)).unwrap_or_default();
        entries.extend(
            text.lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|v| {
                    args.session
                        .as_deref()
                        .is_none_or(|s| v["session"].as_str().is_some_and(|id| id.starts_with(s)))
                }),
        );
    }
    let skip = entries.len().saturating_sub(args.last as usize);
    let entries = &entries[skip..];
    if args.json {
        return print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({ "injections": entries }))?
        ));
    }
    let mut out = String::new();
    if entries.is_empty() {
        out.push_str("Nothing has been injected yet.\n");
    }
    for e in entries {
        let session: String = e["session"]
            .as_str()
            .unwrap_or("")
            .chars()
            .take(8)
            .collect();
        let _ = writeln!(
            out,
            "{} {session} {} ({}, {} chars)",
            e["ts"].as_str().unwrap_or("?"),
            e["event"].as_str().unwrap_or("?"),
            e["mode"].as_str().unwrap_or("live"),
            e["chars"].as_u64().unwrap_or(0)
        );
        for item in e["items"].as_array().into_iter().flatten() {
            let id = item.as_str().unwrap_or("");
            let why = e["why"][id]
                .as_array()
                .map(|w| {
                    let words: Vec<&str> = w.iter().filter_map(Value::as_str).collect();
                    format!("  [{}]", words.join(", "))
                })
                .unwrap_or_default();
            let _ = writeln!(out, "    {id}{why}");
        }
    }
    print(&out)
}
