//! `homunculus watch`: keep the index in step with hand edits until Ctrl-C, one line per
//! applied batch.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

use super::Ctx;
use crate::index::watch::{self, WatchRound};

pub fn run(ctx: &Ctx) -> Result<()> {
    ctx.require_memory()?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("cannot install the Ctrl-C handler")?;
    eprintln!("watching {} (Ctrl-C to stop)", ctx.paths.root.display());
    // A watcher runs for days: it needs the wall clock, not the start-up instant.
    #[allow(clippy::disallowed_methods)]
    let clock = || chrono::Utc::now().timestamp();
    let mut on_batch = |batch: &WatchRound| {
        let r = &batch.report;
        let what = if batch.full { "synced" } else { "indexed" };
        eprintln!(
            "{} {what} {} file(s): +{} ~{} -{} in {} ms",
            chrono::Local::now().format("%H:%M:%S"),
            batch.files,
            r.added,
            r.updated,
            r.removed,
            batch.elapsed.as_millis()
        );
    };
    watch::run(&ctx.paths, &stop, &clock, &mut on_batch)?;
    eprintln!("stopped");
    Ok(())
}
