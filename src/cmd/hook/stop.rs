//! Stop, SessionEnd and PreCompact: refresh this session's summary (one file per session,
//! updated in place), link it to the previous session of the project, and note the
//! time. They never inject and never block.

use std::time::Duration;

use anyhow::Result;
use serde_json::{Value, json};

use super::HookCtx;
use crate::identity::{self, stamp};
use crate::memory::{Store, fields::parse_date, stem};
use crate::{memo, observation, session};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Stop,
    End,
    Compact,
}

pub fn run(ctx: &HookCtx, kind: Kind) -> Result<Option<Value>> {
    // A Stop hook that blocked keeps the turn going; doing the work again would loop.
    if kind == Kind::Stop && ctx.payload.bool("stop_hook_active") {
        return Ok(None);
    }
    let m = memo::update(&ctx.paths, &ctx.sid, |m| {
        if kind == Kind::Stop {
            m.turns += 1;
        }
        m.started.get_or_insert_with(|| stamp(ctx.now));
        m.session_file
            .get_or_insert_with(|| format!("sessions/{}", session::file_name(ctx.now, &ctx.sid)));
        m.clone()
    })?;
    let relative = m.session_file.clone().unwrap_or_default();
    let path = ctx.paths.root.join(&relative);
    let continues_from = if path.exists() {
        None
    } else {
        previous_session(ctx, &relative)
    };
    let facts = session::facts(
        &observation::of_session(&ctx.paths, &ctx.sid),
        ctx.project.as_ref(),
    );
    let started = m.started.as_deref().and_then(parse_date).unwrap_or(ctx.now);
    let who = session::Identity {
        session_id: ctx.payload.str("session_id").unwrap_or(&ctx.sid),
        project: ctx.project_name(),
        directory: ctx.payload.str("cwd").unwrap_or(""),
        started,
        continues_from: continues_from.as_deref(),
    };
    let store = Store::impatient(&ctx.paths, Duration::from_millis(50));
    session::write(&store, path, &who, &facts, m.turns, ctx.now)?;
    identity::update(&ctx.paths, |map| {
        map.insert("last_session".into(), json!(stamp(ctx.now)));
    })?;
    Ok(None)
}

/// The stem of the newest other session summary of this project.
fn previous_session(ctx: &HookCtx, own: &str) -> Option<String> {
    let (index, reader) = ctx.index()?;
    let limits = crate::recall::StartLimits {
        all_up_to: 0,
        top: 0,
        convictions: 0,
    };
    let start = crate::recall::session_start(
        &index,
        &reader,
        ctx.project_name(),
        &[],
        Some(own),
        limits,
        ctx.now.timestamp(),
    )
    .ok()?;
    start
        .last_session
        .map(|s| stem(std::path::Path::new(&s.id)))
}
