//! The observer: learns from pending observations. One run at a time (an `fs4` lock,
//! never a PID file); only when due unless forced; a bounded batch; two engines (builtin
//! miners, or an LLM) producing the same validated operations for one writer; then
//! promotion and revocation, clustering, session summaries, one log line, and a git
//! commit when the memory folder is a repository.

pub mod apply;
pub mod batch;
pub mod builtin;
pub mod llm;
pub mod miners;
pub mod ops;
pub mod replayed;
pub mod safety;
mod summary;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::agent::observation::Observation;
use crate::agent::project;
use crate::fsutil::PathError;
use crate::lock::{FileLock, LockError, LockName};
use crate::log;
use crate::memory::{NoteKind, Store};
use crate::memory::{identity, promotion};
use crate::paths::Paths;
use crate::setup::config::{Config, parse_duration};
use crate::setup::git;
pub use batch::pending;
use ops::Op;

#[derive(Debug, thiserror::Error)]
pub enum ObserverError {
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Identity(#[from] crate::memory::identity::IdentityError),
    #[error("llm engine: {0}")]
    Llm(String),
}

pub use crate::setup::config::Engine;

/// How a run was asked for.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub engine: Engine,
    pub dry_run: bool,
    /// Run even when not due.
    pub force: bool,
    /// Learn from every pending observation, batch after batch (replay), not one batch.
    pub drain: bool,
    /// How long to wait for a run already in progress before this one starts; zero
    /// (a detached run from a hook) skips instead, since that run learns the same batch.
    pub wait: Duration,
}

/// What a run did (or, when `skipped`, why it did nothing).
#[derive(Debug, Default)]
pub struct Report {
    pub skipped: Option<String>,
    pub observations: usize,
    pub ops: Vec<Op>,
    pub refused: Vec<String>,
    pub changes: Vec<String>,
    /// Sessions whose summary was written (not counted in `changes`), each once.
    pub summarised: std::collections::BTreeSet<String>,
    pub errors: Vec<String>,
    pub promoted: usize,
    pub revoked: usize,
    pub committed: bool,
    pub resumed: bool,
    /// The files this run wrote or removed: what its commit takes, and nothing else.
    pub files: Vec<PathBuf>,
}

/// Whether the Stop hook should start a run: enough pending and not too soon.
pub fn is_due(paths: &Paths, config: &Config, now: DateTime<Utc>) -> bool {
    let state = batch::read_state(paths);
    let interval =
        parse_duration(&config.observer.min_interval).unwrap_or(Duration::from_secs(600));
    now.timestamp() - state.last_run >= interval.as_secs() as i64
        && batch::pending_up_to(paths, config.observer.min_observations)
            >= config.observer.min_observations
}

/// One observer run.
pub fn run(
    paths: &Paths,
    config: &Config,
    opts: Options,
    now: DateTime<Utc>,
) -> Result<Report, ObserverError> {
    let _lock = match FileLock::try_acquire_for(&paths.lock(&LockName::Observer), opts.wait) {
        Ok(lock) => lock,
        Err(LockError::Busy(_)) => {
            return Ok(Report {
                skipped: Some("another observer run is in progress".into()),
                ..Report::default()
            });
        }
        Err(e) => return Err(e.into()),
    };
    let store = Store::new(paths);
    let mut report = Report::default();
    if let Some(inflight) = batch::read_inflight(paths).filter(|_| !opts.dry_run) {
        // A run died midway: finish it before anything new.
        finish(paths, &store, &inflight, now, &mut report)?;
        report.resumed = true;
    }
    if !opts.force && !report.resumed && !is_due(paths, config, now) {
        report.skipped = Some(format!(
            "not due ({} pending; needs {} and {} since the last run; --force runs anyway)",
            pending(paths),
            config.observer.min_observations,
            config.observer.min_interval
        ));
        return Ok(report);
    }
    loop {
        let taken = batch::take(paths, config.observer.max_observations)?;
        if taken.ranges.is_empty() {
            break;
        }
        let read = taken.observations.len();
        report.observations += read;
        learn(paths, config, &store, opts, taken, now, &mut report)?;
        // A dry run only shows one batch; a drain (replay) learns from everything.
        if opts.dry_run || !opts.drain || read == 0 {
            break;
        }
    }
    if opts.dry_run {
        return Ok(report);
    }
    after_run(paths, config, &store, now, &mut report)?;
    Ok(report)
}

/// Mines one batch and applies what it found (through an in-flight record, so a crash
/// midway is finished by the next run).
fn learn(
    paths: &Paths,
    config: &Config,
    store: &Store,
    opts: Options,
    taken: batch::Batch,
    now: DateTime<Utc>,
    report: &mut Report,
) -> Result<(), ObserverError> {
    let sessions = by_session(&taken.observations);
    let instincts = store.instincts().items;
    let episodes = store.notes(NoteKind::Episode).items;
    let existing = builtin::Existing {
        instincts: &instincts,
        episodes: &episodes,
    };
    let mut ledger = batch::read_ledger(paths);
    let mut transcript_cursors = BTreeMap::new();
    let engine = opts.engine;
    let mut ops = match engine {
        Engine::Builtin => {
            let roots = |o: &Observation| project::of(&o.cwd).map(|p| p.root.display().to_string());
            builtin::run(&sessions, &roots, &mut ledger, &existing)
        }
        Engine::Llm => {
            let answer = llm::run(paths, config, &taken.observations, &existing, now)?;
            report.refused.extend(answer.refused);
            transcript_cursors = answer.transcript_cursors;
            answer.ops
        }
    };
    ops.extend(summary::ops(paths, &sessions));
    report.ops.extend(ops.iter().cloned());
    if opts.dry_run {
        return Ok(());
    }
    batch::write_ledger(paths, &ledger)?;
    let inflight = batch::Inflight {
        batch: taken,
        ops,
        engine,
        archived: false,
        archive_sizes: None,
        transcript_cursors,
    };
    batch::write_inflight(paths, &inflight)?;
    finish(paths, store, &inflight, now, report)
}

/// Applies an in-flight batch, archives its lines, advances the cursors.
fn finish(
    paths: &Paths,
    store: &Store,
    inflight: &batch::Inflight,
    now: DateTime<Utc>,
    report: &mut Report,
) -> Result<(), ObserverError> {
    let applied = apply::apply(
        store,
        &inflight.ops,
        &inflight.batch.id,
        inflight.engine.name(),
        now,
    );
    report.changes.extend(applied.changes);
    report.summarised.extend(applied.summarised);
    report.errors.extend(applied.errors);
    report.files.extend(applied.files);
    if !inflight.archived {
        let sizes = match &inflight.archive_sizes {
            Some(sizes) => sizes.clone(),
            None => {
                let sizes = batch::archive_sizes(paths, &inflight.batch);
                let mut noted = inflight.clone();
                noted.archive_sizes = Some(sizes.clone());
                batch::write_inflight(paths, &noted)?;
                sizes
            }
        };
        batch::archive(paths, &inflight.batch, &sizes)?;
        let mut done = inflight.clone();
        done.archive_sizes = Some(sizes);
        done.archived = true;
        batch::write_inflight(paths, &done)?;
    }
    batch::advance_transcripts(paths, &inflight.transcript_cursors)?;
    batch::advance(paths, &inflight.batch)?;
    Ok(())
}

/// Promotion, revocation, clustering, state, log line, git commit, index update.
fn after_run(
    paths: &Paths,
    config: &Config,
    store: &Store,
    now: DateTime<Utc>,
    report: &mut Report,
) -> Result<(), ObserverError> {
    let instincts = store.instincts().items;
    let plan = promotion::plan(paths, &instincts, now);
    let applied = promotion::apply(store, &plan, now);
    for c in &applied.promoted {
        report.changes.push(format!(
            "promoted {} → {}",
            c.instinct.name,
            paths.relative(&c.conviction).display()
        ));
    }
    for w in &applied.revoked {
        report
            .changes
            .push(format!("revoked {} ({:.2})", w.instinct.name, w.effective));
    }
    report.promoted = applied.promoted.len();
    report.revoked = applied.revoked.len();
    report
        .errors
        .extend(applied.errors.iter().map(|e| e.to_string()));
    identity::update(paths, |identity| {
        if !applied.promoted.is_empty() {
            identity.note_promotion(now);
        }
        identity.set_promotion_ready(&plan.ready_domains);
    })?;
    for item in crate::memory::kind::ITEM_DIRS {
        crate::fsutil::remove_stale_temps(&paths.root.join(item.dir));
    }
    for dir in [paths.root.clone(), paths.state()] {
        crate::fsutil::remove_stale_temps(&dir);
    }
    let mut state = batch::read_state(paths);
    state.last_run = now.timestamp();
    batch::write_state(paths, &state)?;
    log::append(
        paths,
        "observer.log",
        &format!(
            "{} observed {} observations: {} operations, {} changes, {} promoted, {} revoked, {} errors",
            crate::time::stamp(now),
            report.observations,
            report.ops.len(),
            report.changes.len(),
            report.promoted,
            report.revoked,
            report.errors.len()
        ),
    );
    for e in &report.errors {
        log::append(
            paths,
            "observer.log",
            &format!("{} error: {e}", crate::time::stamp(now)),
        );
    }
    let wrote = !report.changes.is_empty() || !report.summarised.is_empty();
    if config.git.commit && git::is_repo(&paths.root) && wrote {
        let mut message = format!(
            "homunculus: learned from {} observations\n\n",
            report.observations
        );
        for line in &report.changes {
            message.push_str(line);
            message.push('\n');
        }
        if !report.summarised.is_empty() {
            message.push_str(&format!("{} session summaries\n", report.summarised.len()));
        }
        report.files.extend(applied.files(paths));
        report.files.push(paths.identity());
        // The session files the hooks began (a session that taught nothing still has
        // one): only the observer commits, so it takes them along.
        // (git refuses a path that matches no file: an empty folder is left out.)
        let sessions = paths.sessions();
        if std::fs::read_dir(&sessions).is_ok_and(|mut d| d.next().is_some()) {
            report.files.push(sessions);
        }
        match git::commit_files(&paths.root, &message, &report.files) {
            Ok(committed) => report.committed = committed,
            Err(e) => log::append(
                paths,
                "observer.log",
                &format!("{} git: {e}", crate::time::stamp(now)),
            ),
        }
    }
    let _ = crate::index::sync::note_changed(paths, now.timestamp());
    Ok(())
}

/// Observations grouped by session, each in order, the sessions in the order they
/// began: a lesson seen in two sessions of one batch (a replay) is then named and dated
/// after the first, whatever their ids.
fn by_session(observations: &[Observation]) -> Vec<Vec<Observation>> {
    let mut groups: BTreeMap<&str, Vec<Observation>> = BTreeMap::new();
    for o in observations {
        groups
            .entry(o.session_id.as_str())
            .or_default()
            .push(o.clone());
    }
    let mut sessions: Vec<Vec<Observation>> = groups.into_values().collect();
    // Stable: sessions that began at the same instant keep their ids' order.
    sessions.sort_by(|a, b| a[0].ts.cmp(&b[0].ts));
    sessions
}
