//! `homunculus export`: write instincts (at or above a confidence, after decay) to one
//! JSON file that carries each instinct's markdown verbatim.

use anyhow::{Context, Result};
use serde_json::json;

use super::{Ctx, print, warn_all};
use crate::cli::ExportArgs;
use crate::fsutil;
use crate::memory::Store;
use crate::time::stamp;

/// Marks an export file so `import` can tell it from other JSON.
pub const FORMAT: &str = "homunculus-export";

pub fn run(ctx: &Ctx, args: &ExportArgs) -> Result<()> {
    ctx.require_memory()?;
    let store = Store::new(&ctx.paths);
    let loaded = store.instincts();
    warn_all(&loaded.errors);
    let mut items = Vec::new();
    for i in loaded.items.iter().filter(|i| !i.retired) {
        // What recall weighs it at: a lesson many sessions showed, or the user vouched
        // for, is not left out for its age.
        let effective = i.weight(ctx.now);
        if effective + 1e-9 < args.min_confidence {
            continue;
        }
        let text = fsutil::read_text(&i.path)?;
        items.push(json!({
            "name": i.name,
            "domain": i.domain,
            "confidence": effective,
            "markdown": text,
        }));
    }
    let count = items.len();
    let value = json!({
        "format": FORMAT,
        "version": 1,
        "exported_at": stamp(ctx.now),
        "instincts": items,
    });
    let mut text = serde_json::to_string_pretty(&value)?;
    text.push('\n');
    fsutil::atomic_write(&args.file, text.as_bytes())
        .with_context(|| "cannot write the export file")?;
    let mut out = format!(
        "Exported {count} instinct(s) with confidence ≥ {:.2} to {}\n",
        args.min_confidence,
        args.file.display()
    );
    if count > 0 {
        // Secrets were redacted when the memories were written; what a person may still
        // not want to share (their projects' names, paths, commands) goes out whole.
        out.push_str(
            "Each goes whole, evidence included (project names, paths, commands): read the file before you share it.\n",
        );
    }
    print(&out)
}
