//! `homunculus feedback <name> <wrong|weak|strong>`: adjust one instinct and show
//! before → after. Only the confidence and last_seen lines change, plus one evidence bullet.

use anyhow::{Result, bail};

use super::{Ctx, commit_own_change, print, reindex_changed};
use crate::cli::{FeedbackArgs, VerdictArg};
use crate::memory::confidence::Feedback;
use crate::memory::memo;
use crate::memory::{Instinct, Origin, Store};
use crate::text::day;

pub fn run(ctx: &Ctx, args: &FeedbackArgs) -> Result<()> {
    ctx.require_memory()?;
    let store = Store::new(&ctx.paths);
    let Some(path) = store.instinct_path(&args.name) else {
        bail!("{}", unknown_name(&store, &args.name)?);
    };
    let origin = if path.starts_with(ctx.paths.inherited_instincts()) {
        Origin::Inherited
    } else {
        Origin::Personal
    };
    let (kind, word) = match args.verdict {
        VerdictArg::Wrong => (Feedback::Wrong, "wrong"),
        VerdictArg::Weak => (Feedback::Weak, "weak"),
        VerdictArg::Strong => (Feedback::Strong, "strong"),
        VerdictArg::Mute => return mute(ctx, args, &path),
    };
    let now = ctx.now;
    let (before, after) = store.edit(&path, |file| {
        let instinct = Instinct::from_document(&path, origin, file.doc())?;
        let state = instinct.state(now);
        let before = (instinct.confidence, state.effective(now));
        let update = state.feedback(kind, now);
        file.set_state(instinct.last_seen, &update)?;
        let bullet = format!(
            "{}: feedback {word} ({:.2} → {:.2})",
            day(now),
            before.1,
            update.confidence
        );
        file.append_bullet("Evidence", &bullet);
        Ok((before, update))
    })?;
    reindex_changed(ctx, std::slice::from_ref(&path));
    let decayed = if (before.0 - before.1).abs() > 0.001 {
        format!(" (stored {:.2})", before.0)
    } else {
        String::new()
    };
    let seen = if after.last_seen == now {
        ", seen now"
    } else {
        ""
    };
    let note = commit_own_change(
        ctx,
        &format!(
            "homunculus: feedback {word} on {} ({:.2} → {:.2})",
            args.name, before.1, after.confidence
        ),
        std::slice::from_ref(&path),
    );
    print(&format!(
        "{}: {:.2}{decayed} → {:.2} ({word}{seen})\n{}\n{note}",
        args.name,
        before.1,
        after.confidence,
        path.display()
    ))
}

/// "Not now": the item is treated as already injected for the rest of the session, by
/// prompt recall and by path triggers alike. Its file is not touched.
fn mute(ctx: &Ctx, args: &FeedbackArgs, path: &std::path::Path) -> Result<()> {
    let session = match &args.session {
        Some(s) => crate::agent::payload::safe_session_id(s),
        None => latest_session(ctx)?,
    };
    let id = ctx.paths.relative(path).display().to_string();
    memo::update(&ctx.paths, &session, |m| {
        for list in [&mut m.injected, &mut m.path_fired] {
            if !list.contains(&id) {
                list.push(id.clone());
            }
        }
    })?;
    print(&format!(
        "{}: muted for the rest of session {session} (confidence unchanged)\n",
        args.name
    ))
}

/// The session whose hook state changed last.
fn latest_session(ctx: &Ctx) -> Result<String> {
    let dir = ctx.paths.root.join("state/sessions");
    let newest = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max();
    match newest {
        Some((_, path)) => Ok(crate::memory::stem(&path)),
        None => bail!("no session has started yet; name one with --session"),
    }
}

/// The error for an unknown name, with the closest existing names.
fn unknown_name(store: &Store, name: &str) -> Result<String> {
    let names = store.instinct_names()?;
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut close = similar::get_close_matches(name, &refs, 3, 0.5);
    if close.is_empty() {
        close = refs
            .iter()
            .copied()
            .filter(|n| n.contains(name) || name.contains(*n))
            .take(3)
            .collect();
    }
    Ok(match (close.is_empty(), names.is_empty()) {
        (_, true) => format!("no instinct named '{name}' (there are no instincts yet)"),
        (true, false) => {
            format!("no instinct named '{name}'; run `homunculus status` to list them")
        }
        (false, false) => format!(
            "no instinct named '{name}'; did you mean: {}?",
            close.join(", ")
        ),
    })
}
