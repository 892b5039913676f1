//! `homunculus status`: instincts by domain with stored and effective confidence, and the
//! counts that tell how the memory is doing.

use std::collections::BTreeMap;
use std::fmt::Write;

use anyhow::Result;
use serde_json::json;

use super::{Ctx, print, warn_all};
use crate::cli::StatusArgs;
use crate::memory::confidence::round2;
use crate::memory::identity;
use crate::memory::kind::Kind;
use crate::memory::usage::{Counts as UsageCounts, Usage};
use crate::memory::{Instinct, Origin, Store};
use crate::text::one_line_words;
use crate::time::stamp;

pub fn run(ctx: &Ctx, args: &StatusArgs) -> Result<()> {
    ctx.require_memory()?;
    // Status is where drift between files and index shows: sync first, report after.
    // The index also counts the episodes that are not forgotten (a retired item is
    // indexed under a kind of its own), without parsing every file.
    let index = crate::index::resilient(&ctx.paths, ctx.now.timestamp(), |idx| {
        Ok(Indexed {
            documents: idx.reader()?.searcher().num_docs(),
            episodes: idx.count_of(Kind::Episode)?,
        })
    })
    .map(|(indexed, sync)| IndexState { indexed, sync })
    .map_err(|e| e.to_string());
    let store = Store::new(&ctx.paths);
    let loaded = store.instincts();
    let mut instincts: Vec<&Instinct> = loaded
        .items
        .iter()
        .filter(|i| !i.retired)
        .filter(|i| args.domain.as_ref().is_none_or(|d| &i.domain == d))
        .collect();
    instincts.sort_by(|a, b| {
        a.domain
            .cmp(&b.domain)
            .then(b.weight(ctx.now).total_cmp(&a.weight(ctx.now)))
            .then(a.name.cmp(&b.name))
    });
    let usage = crate::memory::usage::read(&ctx.paths);
    let counts = Counts {
        convictions: store.count(&ctx.paths.convictions())? + legacy_convictions(ctx),
        episodes: match &index {
            Ok(state) => state.indexed.episodes,
            Err(_) => store.count(&ctx.paths.episodes())?,
        },
        sessions: store.count(&ctx.paths.sessions())?,
        pending: crate::observer::pending(&ctx.paths),
        ready: identity::read(&ctx.paths)
            .map(|identity| identity.promotion_ready())
            .unwrap_or_default(),
        index,
        usage,
    };
    if args.json {
        let errors: Vec<String> = loaded.errors.iter().map(|e| e.to_string()).collect();
        let items: Vec<_> = instincts
            .iter()
            .map(|i| instinct_json(ctx, i, counts.usage_of(ctx, &i.path)))
            .collect();
        let value = json!({
            "instincts": items,
            "pending_observations": counts.pending,
            "convictions": counts.convictions,
            "episodes": counts.episodes,
            "sessions": counts.sessions,
            "promotion_ready": counts.ready,
            "indexed": counts.index.as_ref().ok().map(|s| s.indexed.documents),
            "errors": errors,
        });
        print(&format!("{}\n", serde_json::to_string_pretty(&value)?))?;
    } else {
        warn_all(&loaded.errors);
        print(&render(
            ctx,
            &instincts,
            &counts,
            args.domain.as_deref(),
            loaded.errors.len(),
        ))?;
    }
    Ok(())
}

/// Bullets of a bash-era `convictions.md` that `init` has not migrated yet.
fn legacy_convictions(ctx: &Ctx) -> usize {
    crate::fsutil::read_text(&ctx.paths.legacy_convictions())
        .map(|text| crate::memory::migrate::parse_bullets(&text).len())
        .unwrap_or(0)
}

struct Counts {
    convictions: usize,
    episodes: usize,
    sessions: usize,
    pending: usize,
    ready: Vec<String>,
    index: Result<IndexState, String>,
    usage: Usage,
}

/// The index after `status` synced it, and what the sync changed.
struct IndexState {
    indexed: Indexed,
    sync: crate::index::SyncReport,
}

/// What the index holds: all documents, and the episodes not forgotten.
struct Indexed {
    documents: u64,
    episodes: usize,
}

impl Counts {
    /// How often an item was sent and acted on (its id: its path in the memory folder).
    fn usage_of(&self, ctx: &Ctx, path: &std::path::Path) -> UsageCounts {
        let id = path.strip_prefix(&ctx.paths.root).unwrap_or(path);
        self.usage.of(&id.to_string_lossy())
    }
}

fn instinct_json(ctx: &Ctx, i: &Instinct, used: UsageCounts) -> serde_json::Value {
    json!({
        "name": i.name,
        "domain": i.domain,
        "trigger": i.trigger,
        "action": i.action,
        "confidence": i.confidence,
        "effective_confidence": round2(i.effective(ctx.now)),
        "weight": round2(i.weight(ctx.now)),
        "sessions": i.sessions,
        "created": i.created.map(stamp),
        "last_seen": i.last_seen.map(stamp),
        "promoted": i.promoted,
        "disputed": i.disputed,
        "inherited": i.origin == Origin::Inherited,
        "provenance": i.provenance.map(|p| p.name()),
        "path": i.path,
        "injected": used.injected,
        "listed": used.listed,
        "used": used.used,
    })
}

fn render(
    ctx: &Ctx,
    instincts: &[&Instinct],
    counts: &Counts,
    domain: Option<&str>,
    unreadable: usize,
) -> String {
    let mut out = String::new();
    let style = ctx.style();
    let promoted = instincts.iter().filter(|i| i.promoted).count();
    let disputed = instincts.iter().filter(|i| i.disputed).count();
    let _ = writeln!(
        out,
        "Instincts: {} ({promoted} promoted, {disputed} disputed)",
        instincts.len()
    );
    let mut by_domain: BTreeMap<&str, Vec<&Instinct>> = BTreeMap::new();
    for i in instincts {
        by_domain.entry(&i.domain).or_default().push(i);
    }
    for (domain, items) in &by_domain {
        let _ = writeln!(
            out,
            "\n{}",
            style.bold(&format!("## {domain} ({})", items.len()))
        );
        let _ = writeln!(out, "  stored  now   name (what `feedback` takes)");
        for i in items {
            let mut marks = String::new();
            for (on, mark) in [
                (i.promoted, " [promoted]"),
                (i.disputed, " [disputed]"),
                (i.origin == Origin::Inherited, " [inherited]"),
            ] {
                if on {
                    marks.push_str(mark);
                }
            }
            if let Some(p) = i.provenance {
                let _ = write!(
                    marks,
                    " [{}]",
                    crate::memory::provenance::origin_word(p.name())
                );
            }
            // Why "now" is above the decayed value: the user's word or many sessions.
            if i.weight(ctx.now) > i.effective(ctx.now) {
                if i.confirmed_by_user() {
                    marks.push_str(" [the user confirmed it]");
                } else if let Some(n) = i.sessions {
                    let _ = write!(marks, " [{n} sessions]");
                }
            }
            let used = counts.usage_of(ctx, &i.path);
            if used.injected > 0 || used.used > 0 {
                let _ = write!(marks, "  (injected {} · used {})", used.injected, used.used);
            }
            // The full name (what `feedback` needs), then the advice itself.
            let _ = writeln!(
                out,
                "  {:.2}    {:.2}  {}{marks}",
                i.confidence,
                i.weight(ctx.now),
                style.bold(&crate::text::strip_ansi(&i.name)),
            );
            let _ = writeln!(
                out,
                "                {} → {}",
                one_line_words(
                    &crate::text::strip_ansi(crate::text::unquoted(&i.trigger)),
                    90
                ),
                one_line_words(&crate::text::strip_ansi(&i.action), 120),
            );
        }
    }
    if instincts.is_empty() {
        match domain {
            Some(d) => {
                let _ = writeln!(out, "\nNo instincts in domain '{d}'.");
            }
            None if unreadable > 0 => {
                let _ = writeln!(
                    out,
                    "\nNo instinct can be read: {unreadable} file(s) do not parse (named above)."
                );
            }
            None => {
                let _ = writeln!(out, "\nNo instincts yet: they are learned as you work.");
            }
        }
    }
    let _ = writeln!(
        out,
        "\nConvictions: {}  Episodes: {}  Sessions: {}  Pending observations: {}",
        counts.convictions, counts.episodes, counts.sessions, counts.pending
    );
    if !counts.ready.is_empty() {
        let _ = writeln!(out, "Promotion ready: {}", counts.ready.join(", "));
    }
    match &counts.index {
        Ok(IndexState { indexed, sync }) if sync.changed() > 0 => {
            let _ = writeln!(
                out,
                "Index: {} documents (synced +{} ~{} -{})",
                indexed.documents, sync.added, sync.updated, sync.removed
            );
        }
        Ok(IndexState { indexed, .. }) => {
            let _ = writeln!(out, "Index: {} documents", indexed.documents);
        }
        Err(e) => {
            let _ = writeln!(out, "Index: unavailable ({e}); run `homunculus reindex`");
        }
    }
    out
}
