//! The opt-in LLM engine: runs `observer.llm_command` (default `claude -p --model
//! haiku`) once per lens, as in Nous: learnings (`templates/lens-learnings.md`: the
//! observations and the conversation, for imperative guidance) and knowledge
//! (`templates/lens-knowledge.md`: the conversation, for project facts). The conversation
//! is each session's transcript from a per-transcript cursor, so no window is read
//! twice. The child gets `HOMUNCULUS_OBSERVER=1` and a timeout; answers are parsed as
//! operations and validated, never trusted to write files. Prompt characters are
//! budgeted per run and per day.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::builtin::Existing;
use super::ops::{self, Op};
use super::{ObserverError, batch};
use crate::agent::observation::Observation;
use crate::agent::transcript;
use crate::memory::memo;
use crate::paths::Paths;
use crate::setup::config::{Config, parse_duration};
use std::collections::BTreeMap;

pub const LEARNINGS: &str = include_str!("../../templates/lens-learnings.md");
pub const KNOWLEDGE: &str = include_str!("../../templates/lens-knowledge.md");
/// The most answer we read from the command.
const MAX_ANSWER: u64 = 1024 * 1024;

fn instinct_index(existing: &Existing) -> String {
    let mut index = String::new();
    for i in existing.instincts.iter().take(200) {
        index.push_str(&format!(
            "- {} [{}] {} → {}\n",
            i.name, i.domain, i.trigger, i.action
        ));
    }
    index
}

/// Observation lines, as many as fit in `budget` characters.
fn observation_lines(observations: &[Observation], budget: usize) -> String {
    let mut lines = String::new();
    for o in observations {
        let line = serde_json::to_string(o).unwrap_or_default();
        if lines.len() + line.len() + 1 > budget {
            break;
        }
        lines.push_str(&line);
        lines.push('\n');
    }
    lines
}

/// The conversation of the batch's sessions past each transcript's cursor, within
/// `budget` characters, and the cursors once it is read (complete lines only).
fn conversation(
    paths: &Paths,
    observations: &[Observation],
    budget: usize,
) -> (String, BTreeMap<String, u64>) {
    let cursors = batch::read_transcript_cursors(paths);
    let mut sessions: Vec<&str> = observations.iter().map(|o| o.session_id.as_str()).collect();
    sessions.dedup();
    let mut text = String::new();
    let mut advanced = BTreeMap::new();
    for sid in sessions {
        let Some(path) = memo::read(paths, sid).transcript_path else {
            continue;
        };
        // Regular files only, read from the cursor and no further than the budget can
        // use: a FIFO or `/dev/zero` behind the path cannot stall or flood the run.
        let from = cursors.get(&path).copied().unwrap_or(0) as usize;
        let Some(bytes) = crate::fsutil::read_range(
            std::path::Path::new(&path),
            from as u64,
            (budget as u64).saturating_mul(8),
        ) else {
            continue;
        };
        let rest = bytes.as_slice();
        let mut end = from;
        let mut window = String::new();
        for line in rest.split_inclusive(|&b| b == b'\n') {
            if !line.ends_with(b"\n") {
                break;
            }
            let said = transcript::dialogue(&String::from_utf8_lossy(line));
            if text.len() + window.len() + said.len() > budget {
                break;
            }
            window.push_str(&said);
            end += line.len();
        }
        if end > from {
            text.push_str(&window);
            advanced.insert(path, end as u64);
        }
    }
    (text, advanced)
}

/// What the engine proposes, and how far it read each transcript.
pub struct Answer {
    pub ops: Vec<Op>,
    pub refused: Vec<String>,
    pub transcript_cursors: BTreeMap<String, u64>,
}

/// Runs both lenses. Operations come back validated; the cursors are to be stored once
/// the operations are applied.
pub fn run(
    paths: &Paths,
    config: &Config,
    observations: &[Observation],
    existing: &Existing,
    now: DateTime<Utc>,
) -> Result<Answer, ObserverError> {
    if let Err(why) = command_is_trusted(paths, &config.observer.llm_command) {
        return Err(ObserverError::Llm(format!(
            "refusing to run observer.llm_command: {why}"
        )));
    }
    let mut state = batch::read_state(paths);
    let today = crate::time::day(now);
    if state.llm_day != today {
        state.llm_day = today;
        state.llm_chars_today = 0;
    }
    let left_today = config
        .observer
        .llm_daily_budget
        .saturating_sub(state.llm_chars_today);
    let budget = config.observer.llm_run_budget.min(left_today);
    if budget < 4_000 {
        return Err(ObserverError::Llm(
            "daily budget spent; try tomorrow or raise observer.llm_daily_budget".into(),
        ));
    }
    let index = instinct_index(existing);
    let room = budget.saturating_sub(LEARNINGS.len() + KNOWLEDGE.len() + 2 * index.len()) / 3;
    let (talk, transcript_cursors) = conversation(paths, observations, room);
    let mut prompts = vec![crate::setup::templates::render(
        LEARNINGS,
        &[
            ("instincts", &index),
            ("observations", &observation_lines(observations, room)),
            ("transcript", &talk),
        ],
    )];
    if !talk.is_empty() {
        prompts.push(crate::setup::templates::render(
            KNOWLEDGE,
            &[("instincts", &index), ("transcript", &talk)],
        ));
    }
    state.llm_chars_today += prompts.iter().map(String::len).sum::<usize>();
    batch::write_state(paths, &state)?;
    let timeout = parse_duration(&config.observer.llm_timeout).unwrap_or(Duration::from_secs(120));
    let mut answer = Answer {
        ops: Vec::new(),
        refused: Vec::new(),
        transcript_cursors,
    };
    for prompt in prompts {
        // Secrets never leave for the model, and none it echoes back are written.
        let asked = crate::agent::redact::redact(&prompt);
        let (ops, refused) = ops::parse(&call(&config.observer.llm_command, &asked, timeout)?);
        answer.ops.extend(
            ops.into_iter()
                .map(Op::redacted)
                .map(Op::in_the_models_words),
        );
        answer.refused.extend(refused);
    }
    Ok(answer)
}

/// PATH without its relative entries (`.`, `bin`, empty): `claude` is never found in
/// whatever folder the observer happens to run in.
fn absolute_path_entries() -> String {
    #[allow(clippy::disallowed_methods)] // the child's environment, not configuration
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .filter(|p| p.is_absolute())
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// Whether the configured command may run: `config.toml` and the memory folder must
/// belong to this user and be writable by no one else, or anyone who can write them
/// could make us run anything.
pub fn command_is_trusted(paths: &Paths, command: &str) -> Result<(), String> {
    // A folder can arrive by `git pull`: a command it names runs only with the user's
    // approval of that exact text.
    if !crate::setup::trust::is_approved(paths, command) {
        return Err(format!(
            "`{command}` is not approved; run `homunculus trust` to approve it"
        ));
    }
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    for path in [paths.root.clone(), paths.config()] {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.uid() != me {
            return Err(format!("{} belongs to another user", path.display()));
        }
        if meta.mode() & 0o022 != 0 {
            return Err(format!(
                "{} is writable by others (chmod go-w)",
                path.display()
            ));
        }
    }
    Ok(())
}

/// Runs the command through the shell with `input` on stdin, in its own process
/// group; at `timeout` the whole group is killed, so a background child that keeps
/// stdout open cannot outlive the limit either.
fn call(command: &str, input: &str, timeout: Duration) -> Result<String, ObserverError> {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("HOMUNCULUS_OBSERVER", "1")
        .env("PATH", absolute_path_entries())
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| ObserverError::Llm(format!("cannot run '{command}': {e}")))?;
    let group = child.id() as libc::pid_t;
    let kill_group = || {
        // SAFETY: kill(2) with a negative pid signals the process group we created.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    };
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_string();
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = String::new();
        let _ = (&mut stdout).take(MAX_ANSWER).read_to_string(&mut out);
        // Drain whatever exceeds the limit so the child is not blocked on a full pipe.
        let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        let _ = tx.send(out);
    });
    let started = Instant::now();
    let timed_out = || {
        ObserverError::Llm(format!(
            "'{command}' timed out after {}s",
            timeout.as_secs()
        ))
    };
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > timeout => {
                kill_group();
                let _ = child.wait();
                return Err(timed_out());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(ObserverError::Llm(e.to_string())),
        }
    };
    // The answer is complete when stdout closes; a child left behind holding it is
    // given what remains of the time, then killed with its group.
    let left = timeout.saturating_sub(started.elapsed());
    let out = match rx.recv_timeout(left) {
        Ok(out) => out,
        Err(_) => {
            kill_group();
            return Err(timed_out());
        }
    };
    match status.code() {
        Some(0) => Ok(out),
        Some(127) => Err(ObserverError::Llm(format!(
            "'{command}' not found: is it installed and on PATH? (observer.llm_command)"
        ))),
        _ => Err(ObserverError::Llm(format!(
            "'{command}' exited with {status}"
        ))),
    }
}
