//! `homunculus watch`: keep the index in step with hand edits until Ctrl-C, one line per
//! applied batch. `--background` is how a session's first hook starts it: silent, and it
//! stops by itself once the agent has been idle for an hour or the folder is gone.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result};

use super::Ctx;
use crate::index::watch::{self, WatchRound};

/// How long a background watcher outlives the agent's last activity.
const IDLE: std::time::Duration = std::time::Duration::from_secs(3600);

pub fn run(ctx: &Ctx, args: &crate::cli::WatchArgs) -> Result<()> {
    ctx.require_memory()?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("cannot install the Ctrl-C handler")?;
    if args.background {
        return background(ctx, stop);
    }
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

/// The watcher a session's hook started: stops when the agent has been idle for `IDLE`
/// (no hook touched the session state or the observations) or the folder is gone; a
/// watcher already running for the folder makes this one leave at once.
fn background(ctx: &Ctx, stop: Arc<AtomicBool>) -> Result<()> {
    let paths = ctx.paths.clone();
    let flag = Arc::clone(&stop);
    std::thread::spawn(move || {
        while !flag.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_secs(2));
            let active = [paths.state().join("sessions"), paths.observations()]
                .iter()
                .flat_map(|dir| {
                    let entries = std::fs::read_dir(dir).into_iter().flatten().flatten();
                    std::iter::once(std::fs::metadata(dir).ok())
                        .chain(entries.map(|e| e.metadata().ok()))
                })
                .flatten()
                .filter_map(|m| m.modified().ok())
                .max();
            let idle = active
                .and_then(|t| t.elapsed().ok())
                .is_none_or(|e| e > IDLE);
            if !paths.root.is_dir() || idle {
                flag.store(true, Ordering::Relaxed);
            }
        }
    });
    #[allow(clippy::disallowed_methods)] // a watcher runs for hours: the wall clock
    let clock = || chrono::Utc::now().timestamp();
    match watch::run(&ctx.paths, &stop, &clock, &mut |_| {}) {
        Ok(()) | Err(watch::WatchError::AlreadyRunning(_)) => Ok(()),
        Err(e) => Err(e.into()),
    }
}
