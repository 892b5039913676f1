//! `homunculus forget <name>`: retire an item (one `retired: true` line), so it is
//! never injected, searched or learned again; the file stays for git history.

use anyhow::Result;

use super::{Ctx, commit_own_change, print, reindex_changed};
use crate::cli::ForgetArgs;

pub fn run(ctx: &Ctx, args: &ForgetArgs) -> Result<()> {
    ctx.require_memory()?;
    let done = crate::ask::forget::forget(&ctx.paths, &args.name, args.reason.as_deref(), ctx.now)?;
    if !done.changed {
        return print(&format!("{}: already forgotten\n", done.id));
    }
    reindex_changed(ctx, std::slice::from_ref(&done.path));
    let note = commit_own_change(
        ctx,
        &format!("homunculus: forget {}", done.id),
        std::slice::from_ref(&done.path),
    );
    print(&format!(
        "{}: forgotten (never injected, searched or learned again)\n{}\n{note}",
        done.id,
        done.path.display()
    ))
}
