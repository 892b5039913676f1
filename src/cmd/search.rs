//! `homunculus search <query>`: ranked hits across every kind of memory, each with its
//! kind, name, a snippet with the matched words marked, and its path.

use std::fmt::Write;

use anyhow::Result;
use serde_json::json;

use super::{Ctx, print};
use crate::cli::{KindArg, SearchArgs};
use crate::index::SearchOptions;
use crate::memory::kind::Kind;
use crate::memory::provenance::origin_word;

pub fn run(ctx: &Ctx, args: &SearchArgs) -> Result<()> {
    ctx.require_memory()?;
    let text = args.query.join(" ");
    let opts = options(ctx, args);
    let (hits, report) = crate::ask::find::once(&ctx.paths, &text, &opts)?;
    if report.rebuilt {
        eprintln!("warning: the search index was unreadable and has been rebuilt");
    }
    if args.json {
        return print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&json!({ "hits": hits }))?
        ));
    }
    let mut out = String::new();
    if hits.is_empty() {
        let _ = writeln!(out, "No memories match '{text}'.");
    }
    let style = ctx.style();
    for hit in &hits {
        let origin = hit
            .provenance
            .as_deref()
            .map(|p| format!(" [{}]", origin_word(p)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{} {}  {}{}",
            style.dim(&format!("{:<10}", hit.kind)),
            style.bold(&crate::text::strip_ansi(&hit.name)),
            style.dim(&format!("({:.2})", hit.score)),
            style.dim(&origin)
        );
        if hit.title != hit.name && !hit.title.is_empty() {
            let _ = writeln!(out, "           {}", crate::text::strip_ansi(&hit.title));
        }
        let snippet = hit.snippet.after_title(&hit.title);
        if !snippet.is_empty() {
            let _ = writeln!(out, "           {}", snippet.render(|w| style.matched(w)));
        }
        let _ = writeln!(
            out,
            "           {}",
            style.dim(&ctx.paths.root.join(&hit.path).display().to_string())
        );
    }
    print(&out)
}

fn options(ctx: &Ctx, args: &SearchArgs) -> SearchOptions {
    let kind = args.kind.map(|k| {
        match k {
            KindArg::Instinct => Kind::Instinct,
            KindArg::Conviction => Kind::Conviction,
            KindArg::Episode => Kind::Episode,
            KindArg::Session => Kind::Session,
        }
        .name()
        .to_string()
    });
    SearchOptions {
        domain: None,
        kind,
        project: args.project.clone(),
        // Run inside a project, its memories come first.
        near: std::env::current_dir()
            .ok()
            .and_then(|d| crate::agent::project::of(&d.to_string_lossy()))
            .map(|p| crate::memory::projects::looked_up(&ctx.paths, p).name),
        limit: usize::from(args.limit),
        now_unix: ctx.now.timestamp(),
        snippet_chars: if args.json { 0 } else { 160 },
    }
}
