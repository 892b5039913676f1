//! `homunculus evolve`: which instincts have earned a conviction, which convictions are
//! going stale; with `--promote`, carry both out.

use std::fmt::Write;

use anyhow::Result;
use serde_json::json;

use super::{Ctx, commit_own_change, print, reindex_changed, warn_all};
use crate::cli::EvolveArgs;
use crate::memory::Store;
use crate::memory::identity;
use crate::memory::promotion::{self, Promoted};
use crate::text::one_line_words;

pub fn run(ctx: &Ctx, args: &EvolveArgs) -> Result<()> {
    ctx.require_memory()?;
    let store = Store::new(&ctx.paths);
    let loaded = store.instincts();
    let plan = promotion::plan(&ctx.paths, &loaded.items, ctx.now);
    let applied = if args.promote {
        let applied = promotion::apply(&store, &plan, ctx.now);
        let now = ctx.now;
        identity::update(&ctx.paths, |identity| {
            if !applied.promoted.is_empty() {
                identity.note_promotion(now);
            }
            identity.set_promotion_ready(&plan.ready_domains);
        })?;
        let changed = applied.files(&ctx.paths);
        reindex_changed(ctx, &changed);
        Some(applied)
    } else {
        None
    };
    if args.json {
        print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&to_json(ctx, &plan, applied.as_ref()))?
        ))?;
    } else {
        warn_all(&loaded.errors);
        print(&render(ctx, &plan, applied.as_ref()))?;
    }
    if let Some(applied) = applied
        .as_ref()
        .filter(|a| !a.promoted.is_empty() || !a.revoked.is_empty())
    {
        let mut message = String::from("homunculus: evolve --promote\n\n");
        for c in &applied.promoted {
            message.push_str(&format!("promoted {}\n", c.instinct.name));
        }
        for w in &applied.revoked {
            message.push_str(&format!("revoked {}\n", w.instinct.name));
        }
        let mut files = applied.files(&ctx.paths);
        files.push(ctx.paths.identity());
        let note = commit_own_change(ctx, &message, &files);
        if !args.json {
            print(&note)?;
        }
    }
    if let Some(applied) = &applied {
        warn_all(&applied.errors);
        if !applied.errors.is_empty() {
            anyhow::bail!("{} change(s) could not be made", applied.errors.len());
        }
    }
    Ok(())
}

fn to_json(ctx: &Ctx, plan: &promotion::Plan, applied: Option<&Promoted>) -> serde_json::Value {
    let candidates: Vec<_> = plan
        .candidates
        .iter()
        .map(|c| {
            json!({
                "name": c.instinct.name,
                "domain": c.instinct.domain,
                "trigger": c.instinct.trigger,
                "action": c.instinct.action,
                "effective_confidence": c.effective,
                "conviction": ctx.paths.relative(&c.conviction),
                "path": c.instinct.path,
            })
        })
        .collect();
    let stale: Vec<_> = plan
        .weakened
        .iter()
        .map(|w| json!({"name": w.instinct.name, "effective_confidence": w.effective, "revoke": w.revoke}))
        .collect();
    let (promoted, revoked): (Vec<_>, Vec<_>) = applied.map_or((vec![], vec![]), |a| {
        (
            a.promoted.iter().map(|c| c.instinct.name.clone()).collect(),
            a.revoked.iter().map(|w| w.instinct.name.clone()).collect(),
        )
    });
    json!({
        "candidates": candidates,
        "promoted": promoted,
        "stale": stale,
        "revoked": revoked,
        "promotion_ready": plan.ready_domains,
    })
}

fn render(ctx: &Ctx, plan: &promotion::Plan, applied: Option<&Promoted>) -> String {
    let mut out = String::new();
    if plan.candidates.is_empty() {
        let _ = writeln!(
            out,
            "No promotion candidates (an instinct needs confidence ≥ 0.75, 14 days of age and a sighting in the last 7 days)."
        );
    } else {
        let _ = writeln!(out, "Promotion candidates ({}):", plan.candidates.len());
        for c in &plan.candidates {
            let i = &c.instinct;
            let age = i.created.map_or(0, |t| (ctx.now - t).num_days());
            let idle = i.last_seen.map_or(0, |t| (ctx.now - t).num_days());
            let _ = writeln!(
                out,
                "  {}  {:.2}  created {age} days ago, seen {idle} days ago\n    when {}\n    → {}: \"{}\"",
                i.name,
                c.effective,
                one_line_words(i.trigger.trim_start_matches("when "), 80),
                ctx.paths.relative(&c.conviction).display(),
                one_line_words(&i.action, 80),
            );
        }
    }
    if !plan.weakened.is_empty() {
        let _ = writeln!(out, "\nStale convictions ({}):", plan.weakened.len());
        for w in &plan.weakened {
            let fate = if w.revoke {
                "below 0.40: revoked on --promote"
            } else {
                "below 0.50: revoked below 0.40; confirm with `feedback <name> strong`"
            };
            let _ = writeln!(out, "  {}  {:.2}  {fate}", w.instinct.name, w.effective);
        }
    }
    if !plan.ready_domains.is_empty() {
        let _ = writeln!(out, "\nPromotion ready: {}", plan.ready_domains.join(", "));
    }
    match applied {
        Some(a) => {
            let _ = writeln!(out);
            for c in &a.promoted {
                let _ = writeln!(
                    out,
                    "Promoted {} → {}",
                    c.instinct.name,
                    ctx.paths.relative(&c.conviction).display()
                );
            }
            for w in &a.revoked {
                let _ = writeln!(out, "Revoked {} ({:.2})", w.instinct.name, w.effective);
            }
            if a.promoted.is_empty() && a.revoked.is_empty() {
                let _ = writeln!(out, "Nothing to change.");
            }
        }
        None if !plan.candidates.is_empty() || plan.weakened.iter().any(|w| w.revoke) => {
            let _ = writeln!(out, "\nRun `homunculus evolve --promote` to apply.");
        }
        None => {}
    }
    out
}
