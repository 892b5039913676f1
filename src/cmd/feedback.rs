//! `homunculus feedback <name> <wrong|weak|strong|mute>`: adjust one instinct and show
//! before → after (only the confidence and last_seen lines change, plus one evidence
//! bullet), or mute any item for the rest of a session.

use anyhow::Result;

use super::{Ctx, commit_own_change, print, reindex_changed};
use crate::ask::feedback::{judge, mute, word};
use crate::cli::{FeedbackArgs, VerdictArg};
use crate::memory::confidence::Feedback;

pub fn run(ctx: &Ctx, args: &FeedbackArgs) -> Result<()> {
    ctx.require_memory()?;
    let kind = match args.verdict {
        VerdictArg::Wrong => Feedback::Wrong,
        VerdictArg::Weak => Feedback::Weak,
        VerdictArg::Strong => Feedback::Strong,
        VerdictArg::Mute => {
            let session = mute(&ctx.paths, &args.name, args.session.as_deref())?;
            return print(&format!(
                "{}: muted for the rest of session {session} (confidence unchanged)\n",
                args.name
            ));
        }
    };
    let word = word(kind);
    let judged = judge(&ctx.paths, &args.name, kind, ctx.now)?;
    let path = judged.path.clone();
    reindex_changed(ctx, std::slice::from_ref(&path));
    let decayed = if (judged.stored - judged.before).abs() > 0.001 {
        format!(" (stored {:.2})", judged.stored)
    } else {
        String::new()
    };
    let seen = if judged.seen_now { ", seen now" } else { "" };
    let note = commit_own_change(
        ctx,
        &format!(
            "homunculus: feedback {word} on {} ({:.2} → {:.2})",
            judged.name, judged.before, judged.after
        ),
        std::slice::from_ref(&path),
    );
    print(&format!(
        "{}: {:.2}{decayed} → {:.2} ({word}{seen})\n{}\n{note}",
        judged.name,
        judged.before,
        judged.after,
        path.display()
    ))
}
