//! `homunculus observe`: run the observer now and say what it learned.

use std::fmt::Write;
use std::time::Duration;

use anyhow::Result;

use super::{Ctx, print};
use crate::cli::ObserveArgs;
use crate::observer::{self, Options};
use crate::setup::config::Config;

/// What a run learned, one change a line, for `observe` and `replay`.
pub fn learned(report: &observer::Report) -> String {
    let mut out = format!(
        "Learned from {} observations: {} change(s){}.\n",
        report.observations,
        report.changes.len(),
        summaries(report.summarised.len())
    );
    for line in &report.changes {
        let _ = writeln!(out, "  {line}");
    }
    if report.committed {
        let _ = writeln!(out, "Committed to the memory folder's git history.");
    }
    out
}

/// ", and N session summaries", or nothing: summaries are files written, not memories.
fn summaries(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => ", and 1 session summary".into(),
        n => format!(", and {n} session summaries"),
    }
}

/// The longest a forced run waits for one in progress: an llm run's timeout and more.
pub const WAIT_FOR_RUNNING: Duration = Duration::from_secs(300);

pub fn run(ctx: &Ctx, args: &ObserveArgs) -> Result<()> {
    ctx.require_memory()?;
    let config = Config::load(&ctx.paths.config())?;
    let engine = super::engine(args.engine, &config);
    let opts = Options {
        engine,
        dry_run: args.dry_run,
        force: args.force,
        drain: false,
        // Asked for by hand, a run waits for one a hook started (its batch is then
        // learned, and this run takes what came after); the hook's own runs never wait.
        wait: if args.force {
            WAIT_FOR_RUNNING
        } else {
            Duration::ZERO
        },
    };
    // Started detached by a hook, nobody reads this process's stderr: a failed run is
    // written to observer.log, where doctor finds it.
    let report = observer::run(&ctx.paths, &config, opts, ctx.now).inspect_err(|e| {
        crate::log::append(
            &ctx.paths,
            "observer.log",
            &format!("{} run failed: {e}", crate::time::stamp(ctx.now)),
        );
    })?;
    let mut out = String::new();
    if report.resumed {
        let _ = writeln!(out, "Finished an interrupted run first.");
    }
    if let Some(why) = &report.skipped {
        let _ = writeln!(out, "Nothing to do: {why}.");
        return print(&out);
    }
    if args.dry_run {
        let summaries_op =
            |op: &&observer::ops::Op| matches!(op, observer::ops::Op::SummarizeSession { .. });
        let summarised = report.ops.iter().filter(summaries_op).count();
        // An operation on what already holds it changes nothing: "at most", not "will".
        let _ = writeln!(
            out,
            "Would apply at most {} operation(s) to memories{} from {} observations:",
            report.ops.len() - summarised,
            summaries(summarised),
            report.observations
        );
        for op in &report.ops {
            let _ = writeln!(out, "  {}", serde_json::to_string(op)?);
        }
    } else {
        out.push_str(&learned(&report));
    }
    for r in &report.refused {
        let _ = writeln!(out, "  refused: {r}");
    }
    for e in &report.errors {
        eprintln!("warning: {e}");
    }
    print(&out)
}
