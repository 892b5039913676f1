//! `homunculus reindex`: rebuild the search index from scratch, with a progress bar on a
//! terminal.

use std::io::IsTerminal;
use std::time::Instant;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};

use super::{Ctx, print};
use crate::index;

pub fn run(ctx: &Ctx) -> Result<()> {
    ctx.require_memory()?;
    let started = Instant::now();
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let report = index::rebuild(&ctx.paths, ctx.now.timestamp(), &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    // Indexed as far as they read; their owner should know which to mend.
    for why in &report.unreadable {
        eprintln!("warning: {why}");
    }
    print(&format!(
        "Indexed {} files in {:.1} s.\n",
        report.added,
        started.elapsed().as_secs_f64()
    ))
}
